//! Reading games for the subcommands that sort a collection (`select`, `dedupe`): each
//! game is read into its tree, judged by a [`Judge`] in the worker that read it, and
//! handed to the emitter with its verdict and its text (in the export format, or as
//! written when it cannot be read), so that the emitter, in input order, only decides
//! where the text goes.
//!
//! Unlike `fmt`, every game is read into a tree, large ones too: the criteria look at
//! its moves. Memory is still bounded by the largest game.

use std::io;

use notation::{
    Diagnostic, DiagnosticKind, Game, GameReader, KeepRaw, ReadOptions, Severity, Tags,
    WriteOptions, write_game,
};

use crate::fmt::as_written;
use crate::games::Notate;
use crate::pipeline::{Input, Origin, Task};

/// Judges games, in the worker that read them.
pub trait Judge<G: Notate>: Sync {
    /// What is decided of a game.
    type Verdict: Send;

    /// Judges a game, read whole or, when it has an error, up to the error.
    fn judge(&self, rules: &G, game: &Game<G::Move>, diagnostics: &[Diagnostic]) -> Self::Verdict;

    /// Whether the game's text is needed: it goes to some output.
    fn wants_text(&self, verdict: &Self::Verdict) -> bool;

    /// The verdict on every game whose tags do not pass [`Judge::tags_pass`], when the
    /// judge can tell from the tags alone that such games go nowhere: their movetext is
    /// then passed over unread ([`GameReader::movetext_only_if`]). `None` (the default):
    /// every game is read whole.
    fn passed_over(&self) -> Option<Self::Verdict> {
        None
    }

    /// Whether a game's tags let it through (see [`Judge::passed_over`]).
    fn tags_pass(&self, tags: &Tags) -> bool {
        let _ = tags;
        true
    }
}

/// How a game was read.
pub enum Reading {
    /// Whole: its text is the export format.
    Whole,
    /// With an error, or it could not be written: its text is as written.
    Unreadable(String),
    /// Too large to hold: no text, no verdict.
    Lost(String),
}

/// One game, judged.
pub struct JudgedGame<V> {
    /// The 0-based index of the game in its chunk.
    pub index: u64,
    /// Its text, when the judge wanted it: the export format, or the bytes as written.
    pub text: Vec<u8>,
    /// How it was read.
    pub reading: Reading,
    /// The judge's verdict (`None` for a game too large to hold).
    pub verdict: Option<V>,
}

/// What the task hands the emitter.
pub enum Judged<V> {
    /// A game.
    Game(JudgedGame<V>),
    /// Diagnostics outside any game: for standard error.
    Orphans(Vec<Diagnostic>),
}

/// Reads, judges and writes games.
pub struct JudgeTask<'r, G, J> {
    /// The rules.
    pub rules: &'r G,
    /// How to read.
    pub read: ReadOptions,
    /// How to write.
    pub write: WriteOptions,
    /// The judge.
    pub judge: &'r J,
}

impl<G: Notate, J: Judge<G>> Task for JudgeTask<'_, G, J> {
    type Item = Judged<J::Verdict>;

    fn run(
        &self,
        mut input: Input<'_>,
        origin: Origin,
        sink: &mut dyn FnMut(Self::Item) -> io::Result<()>,
    ) -> io::Result<u64> {
        let reader = input.reader(self.rules.dialect(), self.read);
        let mut reader = GameReader::from_reader(self.rules, reader).keep_raw(KeepRaw::Never);
        let filter = |tags: &Tags| self.judge.tags_pass(tags);
        if self.judge.passed_over().is_some() {
            reader = reader.movetext_only_if(&filter);
        }
        let mut games = 0;
        let mut text = String::new();
        while let Some(mut game) = reader.read_game()? {
            games += 1;
            for d in &mut game.diagnostics {
                origin.place(d);
            }
            let reason = |d: &Diagnostic| format!("{}: {}", d.location, d.kind);
            let lost = game.diagnostics.iter().find(|d| {
                matches!(
                    d.kind,
                    DiagnosticKind::GameTooLarge { .. } | DiagnosticKind::GameOutOfMemory { .. }
                )
            });
            if let Some(d) = lost {
                sink(Judged::Game(JudgedGame {
                    index: game.index,
                    text: Vec::new(),
                    reading: Reading::Lost(reason(d)),
                    verdict: None,
                }))?;
                continue;
            }
            let verdict = self.judge.judge(self.rules, &game.game, &game.diagnostics);
            let wanted = self.judge.wants_text(&verdict);
            let error = game
                .diagnostics
                .iter()
                .find(|d| d.severity == Severity::Error)
                .map(reason);
            let written = match error {
                Some(reason) => Err(reason),
                None if !wanted => Ok(()),
                None => {
                    text.clear();
                    write_game(self.rules, &game.game, &self.write, &mut text)
                        .map_err(|e| e.to_string())
                }
            };
            let (bytes, reading) = match written {
                Ok(()) => (
                    if wanted {
                        text.as_bytes().to_vec()
                    } else {
                        Vec::new()
                    },
                    Reading::Whole,
                ),
                Err(reason) => {
                    drop(game.game);
                    let raw = reader.buffered(game.span).unwrap_or_default();
                    match as_written(raw) {
                        Some(bytes) => (bytes, Reading::Unreadable(reason)),
                        None => (
                            Vec::new(),
                            Reading::Lost(format!(
                                "{reason}; not enough memory to hold its {} bytes as written",
                                raw.len()
                            )),
                        ),
                    }
                }
            };
            sink(Judged::Game(JudgedGame {
                index: game.index,
                text: bytes,
                reading,
                verdict: Some(verdict),
            }))?;
        }
        let mut orphans = reader.take_orphans();
        let buffer = reader.into_reader().into_vec();
        input.give_back(buffer);
        if !orphans.is_empty() {
            for d in &mut orphans {
                origin.place(d);
            }
            sink(Judged::Orphans(orphans))?;
        }
        Ok(games)
    }
}
