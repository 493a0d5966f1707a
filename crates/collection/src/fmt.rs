//! `notate fmt`: every game in the export format, and no game lost.
//!
//! A game with an error (a move the rules refuse, a broken tag section, …) is not
//! written from its incomplete tree: its bytes as written go out unchanged, followed by
//! an empty line, with a warning on standard error; or, with `--rejects FILE`, they go to
//! that file instead, so that the output and the rejects together hold every game.
//!
//! A game too large to hold (larger than the reader's limit, or than the memory left)
//! cannot go out as written either: it is left out, with an error on standard error that
//! says so, never silently. A large game goes to the emitter as its text (read without
//! its tree), and is written straight to the output as the emitter reads it again
//! ([`crate::large`]).

use std::io::{self, Write};
use std::path::Path;

use notation::{
    Diagnostic, DiagnosticKind, ExportText, GameBuilder, GameReader, GameText, GameTree, KeepRaw,
    ReadGame, ReadOptions, Severity, WriteError, WriteOptions, export_len, write_game,
    write_game_to, write_tags, write_text_to,
};

use crate::input::{Format, Placed};
use crate::job::{Ended, Job, Stopped, with_rules};
use crate::large::{IoText, LARGE_GAME_BYTES, is_large, read_tree, try_copy};
use crate::pipeline;
use crate::pipeline::{Input, Origin, Task};
use crate::rules::FormatRules;

/// What became of a game.
pub enum Fate {
    /// Written in the export format.
    Written,
    /// Could not be read or written: kept as written, for this reason.
    Unreadable(String),
    /// Could not be held in memory, not even as written: left out, for this reason.
    Lost(String),
}

/// A game's text, or the game itself when it is too large to be held as text as well
/// ([`crate::large`]).
pub enum Text<M> {
    /// The export format, or the bytes as written.
    Bytes(Vec<u8>),
    /// A large game, to be written by the emitter straight to the output.
    Game(Box<GameTree<M>>),
    /// A large game read without its tree: its bytes as written, to be read again by the
    /// emitter as it writes them ([`ReadGame::streams`](notation::ReadGame::streams):
    /// whether they can be written as they are read, else they are read into a tree).
    Large {
        /// The game's text as written.
        text: GameText,
        /// Whether it is written as it is read.
        streams: bool,
    },
}

/// One game's output, and what the task's [`Inspect`] made of the game.
pub struct Item<M, V = ()> {
    /// The 0-based index of the game in its chunk.
    pub index: u64,
    /// What to write.
    pub text: Text<M>,
    /// What became of it.
    pub fate: Fate,
    /// Diagnostics outside any game (no text): for standard error.
    pub orphans: Vec<Diagnostic>,
    /// The inspection's verdict on the game (`V::default()` for the diagnostics outside
    /// any game, which are no game).
    pub verdict: V,
}

impl<M, V> Item<M, V> {
    /// The verdict, and the item without it, for the [`Emitter`].
    pub fn take_verdict(self) -> (V, Item<M>) {
        let Item {
            index,
            text,
            fate,
            orphans,
            verdict,
        } = self;
        let item = Item {
            index,
            text,
            fate,
            orphans,
            verdict: (),
        };
        (verdict, item)
    }
}

/// A look at each game as it is read, in the worker, before it is written: to edit it
/// (`fmt --fix-results`) or to judge it (`split`'s key), the verdict travelling with
/// the game's [`Item`] to the emitter, which gets them in input order.
pub trait Inspect<G: FormatRules>: Sync {
    /// What is learnt of a game.
    type Verdict: Send + Default;

    /// Whether every game is to be read into a tree, large ones included (see
    /// [`crate::large`]): an inspection that edits games needs them. The default: no.
    fn needs_tree(&self) -> bool {
        false
    }

    /// Whether [`Inspect::judge_without_tree`] gives every verdict: games may then be
    /// written as they are read, with no tree, where the rules allow it
    /// ([`FormatRules::writes_along`]). The default: no.
    fn judges_without_tree(&self) -> bool {
        false
    }

    /// The verdict on a game from what its reading gives without a tree: its tags, its
    /// result as the rules keep it, and its diagnostics; for an inspection that needs no
    /// more ([`Inspect::judges_without_tree`]), the verdict [`Inspect::inspect`] gives.
    /// The default: the default verdict.
    fn judge_without_tree(
        &self,
        tags: &notation::Tags,
        result: notation::GameResult,
        diagnostics: &[Diagnostic],
    ) -> Self::Verdict {
        let _ = (tags, result, diagnostics);
        Self::Verdict::default()
    }

    /// Looks at a game as read: every game, with an error or not, built or not (a game
    /// read without its tree holds its tags and result). An edit of a game with an error
    /// is lost: such a game goes out as written.
    fn inspect(&self, rules: &G, game: &mut ReadGame<G::Move>) -> Self::Verdict;

    /// Whether a game read whole is to be written in the export format, given its
    /// verdict: a game that goes nowhere (not selected) need not be. The default: yes.
    fn wants_text(&self, verdict: &Self::Verdict) -> bool {
        let _ = verdict;
        true
    }

    /// The verdict on every game whose tags do not pass [`Inspect::tags_pass`], when the
    /// inspection can tell from the tags alone that such games go nowhere: their movetext
    /// is then passed over unread ([`notation::GameReader::movetext_only_if`]), and they
    /// are not inspected. The default: `None`, every game is read whole.
    fn passed_over(&self) -> Option<Self::Verdict> {
        None
    }

    /// Whether a game's tags, as written, let it through (see [`Inspect::passed_over`]).
    fn tags_pass(&self, tags: &notation::RawTags) -> bool {
        let _ = tags;
        true
    }
}

/// No inspection: `fmt` as it is.
impl<G: FormatRules> Inspect<G> for () {
    type Verdict = ();

    fn judges_without_tree(&self) -> bool {
        true
    }

    fn inspect(&self, _: &G, _: &mut ReadGame<G::Move>) {}
}

/// Reads and writes games, each looked at by `inspect` first.
pub struct FmtTask<'r, G, I = ()> {
    /// The rules.
    pub rules: &'r G,
    /// How to read.
    pub read: ReadOptions,
    /// How to write.
    pub write: WriteOptions,
    /// What looks at each game.
    pub inspect: I,
}

impl<G: FormatRules, I: Inspect<G>> Task for FmtTask<'_, G, I>
where
    G::Move: Send,
{
    type Item = Item<G::Move, I::Verdict>;

    fn run(
        &self,
        input: Input<'_>,
        origin: Origin,
        sink: &mut dyn FnMut(Self::Item) -> io::Result<()>,
    ) -> io::Result<u64> {
        if self.rules.writes_along() && self.inspect.judges_without_tree() {
            self.run_along(input, origin, sink)
        } else {
            self.run_tree(input, origin, sink)
        }
    }
}

impl<G: FormatRules, I: Inspect<G>> FmtTask<'_, G, I>
where
    G::Move: Send,
{
    /// Reads each game into a tree, inspects it, and writes it from its tree.
    fn run_tree(
        &self,
        mut input: Input<'_>,
        origin: Origin,
        sink: &mut dyn FnMut(Item<G::Move, I::Verdict>) -> io::Result<()>,
    ) -> io::Result<u64> {
        // A game with no error may still fail to be written (a tag name that cannot be
        // written back, say), and must then go out as it came in: its bytes are taken
        // from the reader, which holds them until the next game is read, rather than
        // copied for every game.
        let reader = input.reader(self.rules.dialect(), self.read);
        let mut reader = GameReader::from_reader(self.rules, reader)
            .keep_raw(KeepRaw::Never)
            .large_after(if self.inspect.needs_tree() {
                u64::MAX
            } else {
                LARGE_GAME_BYTES
            });
        let filter = |tags: &notation::RawTags| self.inspect.tags_pass(tags);
        if self.inspect.passed_over().is_some() {
            reader = reader.movetext_only_if(&filter);
        }
        let mut games = 0;
        let mut text = String::new();
        while let Some(mut game) = reader.read_game()? {
            games += 1;
            for d in &mut game.diagnostics {
                origin.place(d);
            }
            let verdict = match self.inspect.passed_over() {
                Some(verdict) if game.passed_over => verdict,
                _ => self.inspect.inspect(self.rules, &mut game),
            };
            let error = match fate_of_reading(&game.diagnostics) {
                Fate::Lost(reason) => {
                    // A game skipped as too large to hold has no whole text to pass
                    // through.
                    sink(Item {
                        index: game.index,
                        text: Text::Bytes(Vec::new()),
                        fate: Fate::Lost(reason),
                        orphans: Vec::new(),
                        verdict,
                    })?;
                    continue;
                }
                Fate::Unreadable(reason) => Some(reason),
                Fate::Written => None,
            };
            if error.is_none() && !game.built {
                // Read without its tree: the emitter reads it again as it writes it.
                let raw = reader.buffered(game.span).unwrap_or_default();
                let (text, fate) = match try_copy(raw, game.starts_line) {
                    Some(text) => (
                        Text::Large {
                            text,
                            streams: game.streams,
                        },
                        Fate::Written,
                    ),
                    None => (
                        Text::Bytes(Vec::new()),
                        Fate::Lost(format!(
                            "not enough memory to hold its {} bytes as written",
                            raw.len()
                        )),
                    ),
                };
                sink(Item {
                    index: game.index,
                    text,
                    fate,
                    orphans: Vec::new(),
                    verdict,
                })?;
                continue;
            }
            let written = match error {
                Some(reason) => Err(reason),
                None if !self.inspect.wants_text(&verdict) => Ok(Some(Vec::new())),
                // Written later, by the emitter, once it is known that it can be.
                None if is_large(game.span) => export_len(self.rules, &game.game, &self.write)
                    .map(|_| None)
                    .map_err(|e| e.to_string()),
                None => {
                    text.clear();
                    write_game(self.rules, &game.game, &self.write, &mut text)
                        .map(|()| Some(text.as_bytes().to_vec()))
                        .map_err(|e| e.to_string())
                }
            };
            let (text, fate) = match written {
                Ok(Some(bytes)) => (Text::Bytes(bytes), Fate::Written),
                Ok(None) => (Text::Game(Box::new(game.game)), Fate::Written),
                Err(reason) => {
                    // The tree goes first: a large game is not held three times.
                    drop(game.game);
                    let raw = reader.buffered(game.span).unwrap_or_default();
                    let (bytes, fate) = pass_through(raw, reason);
                    (Text::Bytes(bytes), fate)
                }
            };
            sink(Item {
                index: game.index,
                text,
                fate,
                orphans: Vec::new(),
                verdict,
            })?;
        }
        let orphans = reader.take_orphans();
        let buffer = reader.into_reader().into_vec();
        input.give_back(buffer);
        send_orphans(orphans, games, origin, sink)?;
        Ok(games)
    }

    /// Writes each game in the export format as it is read, with no tree
    /// ([`ExportText`]): the items [`FmtTask::run_tree`] gives, for an inspection that
    /// judges games without their trees ([`Inspect::judges_without_tree`]). A game whose
    /// annotations come in another order than the export format's, or that cannot be
    /// written as it is read, is read again from its bytes into a tree, and goes out as
    /// the tree says.
    fn run_along(
        &self,
        mut input: Input<'_>,
        origin: Origin,
        sink: &mut dyn FnMut(Item<G::Move, I::Verdict>) -> io::Result<()>,
    ) -> io::Result<u64> {
        let rules = self.rules;
        let mut reader = input.reader(rules.dialect(), self.read);
        let mut builder =
            GameBuilder::with_sink(rules, self.read, ExportText::new(rules, &self.write))
                .keep_raw(KeepRaw::Never)
                .large_after(LARGE_GAME_BYTES);
        let filter = |tags: &notation::RawTags| self.inspect.tags_pass(tags);
        if self.inspect.passed_over().is_some() {
            builder = builder.movetext_only_if(&filter);
        }
        let mut games = 0;
        while let Some(mut game) = reader.read_game(&mut builder)? {
            games += 1;
            for d in &mut game.diagnostics {
                origin.place(d);
            }
            let verdict = match self.inspect.passed_over() {
                Some(verdict) if game.passed_over => verdict,
                _ => self
                    .inspect
                    .judge_without_tree(&game.tags, game.result, &game.diagnostics),
            };
            let raw = reader.buffered(game.span).unwrap_or_default();
            let (text, fate) = match fate_of_reading(&game.diagnostics) {
                // A game skipped as too large to hold has no whole text to pass through.
                Fate::Lost(reason) => (Text::Bytes(Vec::new()), Fate::Lost(reason)),
                Fate::Unreadable(reason) => {
                    let (bytes, fate) = pass_through(raw, reason);
                    (Text::Bytes(bytes), fate)
                }
                // Read without being written: the emitter reads it again as it writes it.
                Fate::Written if game.large => match try_copy(raw, game.starts_line) {
                    Some(copy) => (
                        Text::Large {
                            text: copy,
                            streams: game.streams,
                        },
                        Fate::Written,
                    ),
                    None => (
                        Text::Bytes(Vec::new()),
                        Fate::Lost(format!(
                            "not enough memory to hold its {} bytes as written",
                            raw.len()
                        )),
                    ),
                },
                Fate::Written if !self.inspect.wants_text(&verdict) => {
                    (Text::Bytes(Vec::new()), Fate::Written)
                }
                Fate::Written => {
                    // The text is handed on as it is written: about the size of the
                    // game as read, most often a little less.
                    let mut text = String::with_capacity(raw.len().saturating_add(64));
                    let written = match game.written {
                        Ok(result) if game.streams => {
                            write_tags(&game.tags, result, &self.write, &mut text)
                                .map(|()| text.push_str(builder.sink_mut().movetext()))
                                .map_err(|e| e.to_string())
                        }
                        _ => self.write_tree(raw, game.starts_line, &mut text),
                    };
                    match written {
                        Ok(()) => (Text::Bytes(text.into_bytes()), Fate::Written),
                        Err(reason) => {
                            let (bytes, fate) = pass_through(raw, reason);
                            (Text::Bytes(bytes), fate)
                        }
                    }
                }
            };
            sink(Item {
                index: game.index,
                text,
                fate,
                orphans: Vec::new(),
                verdict,
            })?;
        }
        let orphans = builder.take_orphans();
        let buffer = reader.into_vec();
        input.give_back(buffer);
        send_orphans(orphans, games, origin, sink)?;
        Ok(games)
    }

    /// Writes the game whose bytes as written are `raw` from its tree, read again from
    /// them: for a game that cannot be written as it was read.
    fn write_tree(&self, raw: &[u8], starts_line: bool, out: &mut String) -> Result<(), String> {
        let mut copy = try_copy(raw, starts_line).ok_or_else(|| {
            format!(
                "not enough memory to hold its {} bytes as written",
                raw.len()
            )
        })?;
        let Some(tree) = read_tree(self.rules, &mut copy, self.read) else {
            return Ok(());
        };
        write_game(self.rules, &tree, &self.write, out).map_err(|e| e.to_string())
    }
}

/// Sends the diagnostics outside any game, placed in the input, as an item after the
/// chunk's `games` games (none when there are none).
fn send_orphans<M, V: Default>(
    mut orphans: Vec<Diagnostic>,
    games: u64,
    origin: Origin,
    sink: &mut dyn FnMut(Item<M, V>) -> io::Result<()>,
) -> io::Result<()> {
    if orphans.is_empty() {
        return Ok(());
    }
    for d in &mut orphans {
        origin.place(d);
    }
    sink(Item {
        index: games,
        text: Text::Bytes(Vec::new()),
        fate: Fate::Written,
        orphans,
        verdict: V::default(),
    })
}

/// What reading a game did to it, from its diagnostics: too large to hold (`Lost`), read
/// with an error (`Unreadable`), else read whole (`Written`); each with the diagnostic
/// that says so, as `LINE:COLUMN: message`.
pub fn fate_of_reading(diagnostics: &[Diagnostic]) -> Fate {
    let reason = |d: &Diagnostic| format!("{}: {}", d.location, d.kind);
    let lost = diagnostics.iter().find(|d| {
        matches!(
            d.kind,
            DiagnosticKind::GameTooLarge { .. } | DiagnosticKind::GameOutOfMemory { .. }
        )
    });
    if let Some(d) = lost {
        return Fate::Lost(reason(d));
    }
    match diagnostics.iter().find(|d| d.severity == Severity::Error) {
        Some(d) => Fate::Unreadable(reason(d)),
        None => Fate::Written,
    }
}

/// What goes out of a game that cannot be written, for `reason`: its bytes as written
/// ([`as_written`]), or nothing when they cannot be held, and what became of it.
fn pass_through(raw: &[u8], reason: String) -> (Vec<u8>, Fate) {
    match as_written(raw) {
        Some(bytes) => (bytes, Fate::Unreadable(reason)),
        None => (
            Vec::new(),
            Fate::Lost(format!(
                "{reason}; not enough memory to hold its {} bytes as written",
                raw.len()
            )),
        ),
    }
}

/// A game's bytes as written, then as many line ends as make the empty line that
/// separates games. `None` when the memory for them cannot be had: their size comes
/// from the input, so the allocation is a fallible one, and the game is then reported
/// as left out rather than the program ended.
pub fn as_written(raw: &[u8]) -> Option<Vec<u8>> {
    let missing: &[u8] = if raw.ends_with(b"\n\n") {
        b""
    } else if raw.ends_with(b"\n") {
        b"\n"
    } else {
        b"\n\n"
    };
    let mut bytes = Vec::new();
    bytes.try_reserve_exact(raw.len() + missing.len()).ok()?;
    bytes.extend_from_slice(raw);
    bytes.extend_from_slice(missing);
    Some(bytes)
}

/// Where games go, and what was done.
pub struct Emitter<'o, G, O> {
    /// The formatted games (and unreadable ones, without `--rejects`): an output, or
    /// `split`'s files, which send each game where its key says.
    pub out: O,
    /// Unreadable games, with `--rejects`.
    pub rejects: Option<&'o mut dyn Write>,
    /// The rules, for the large games the emitter writes.
    pub rules: &'o G,
    /// How to read the large games read again.
    pub read: ReadOptions,
    /// How to write them.
    pub write: WriteOptions,
    /// Games written in the export format.
    pub written: u64,
    /// Unreadable games passed through or moved to the rejects.
    pub unreadable: u64,
    /// Games that could not be held in memory, left out.
    pub lost: u64,
}

impl<'o, G: FormatRules, O: Write> Emitter<'o, G, O> {
    /// An emitter writing to `out` (and unreadable games to `rejects` when given) games
    /// read with `rules` and `read`, in the export format as `write` says; nothing
    /// written yet.
    pub fn new(
        out: O,
        rejects: Option<&'o mut dyn Write>,
        rules: &'o G,
        read: ReadOptions,
        write: WriteOptions,
    ) -> Self {
        Emitter {
            out,
            rejects,
            rules,
            read,
            write,
            written: 0,
            unreadable: 0,
            lost: 0,
        }
    }

    /// Writes one item, reporting an unreadable game (numbered with `offset`) to `say`,
    /// as a warning (`false`) or, for a game left out, as an error (`true`: said even
    /// when warnings are not).
    pub fn emit(
        &mut self,
        item: Item<G::Move>,
        offset: u64,
        name: Placed<'_>,
        say: &mut dyn FnMut(String, bool),
    ) -> io::Result<()> {
        let mut warn = |message| say(message, false);
        for d in &item.orphans {
            warn(name.diagnostic(d));
        }
        let number = item.index + offset + 1;
        let mut fate = item.fate;
        let bytes = match item.text {
            Text::Large {
                text: mut game_text,
                streams,
            } => {
                let mut text = IoText::new(&mut self.out);
                let written = if streams {
                    write_text_to(
                        self.rules,
                        &mut game_text,
                        self.read,
                        &self.write,
                        &mut text,
                    )
                } else {
                    write_tree(
                        self.rules,
                        &mut game_text,
                        self.read,
                        &self.write,
                        &mut text,
                    )
                };
                let bytes = game_text.bytes;
                text.finish()?;
                match written {
                    Ok(()) => {
                        self.written += 1;
                        return Ok(());
                    }
                    Err(e) => {
                        // Nothing was written: it goes out as it came in, as any game
                        // that cannot be written.
                        let (bytes, passed) = pass_through(&bytes, e.to_string());
                        fate = passed;
                        bytes
                    }
                }
            }
            Text::Game(game) => {
                self.written += 1;
                let mut text = IoText::new(&mut self.out);
                let written = write_game_to(self.rules, &game, &self.write, &mut text);
                text.finish()?;
                // The game was found writable before it was sent here.
                return written.map_err(|e| {
                    io::Error::other(format!("game {number} could not be written: {e}"))
                });
            }
            Text::Bytes(bytes) => bytes,
        };
        match &fate {
            Fate::Lost(reason) => {
                self.lost += 1;
                say(format!("{name}: game {number} left out: {reason}"), true);
                Ok(())
            }
            _ if bytes.is_empty() => Ok(()),
            Fate::Written => {
                self.written += 1;
                self.out.write_all(&bytes)
            }
            Fate::Unreadable(reason) => {
                self.unreadable += 1;
                match &mut self.rejects {
                    Some(rejects) => {
                        warn(format!(
                            "{name}: game {number} moved to the rejects unchanged: {reason}"
                        ));
                        rejects.write_all(&bytes)
                    }
                    None => {
                        warn(format!(
                            "{name}: game {number} passed through unchanged: {reason}"
                        ));
                        self.out.write_all(&bytes)
                    }
                }
            }
        }
    }
}

/// Writes a large game that cannot be written as it is read from its tree, read again
/// from its bytes (lent, and given back unchanged): nothing is written when it cannot be.
fn write_tree<G: FormatRules>(
    rules: &G,
    text: &mut GameText,
    read: ReadOptions,
    write: &WriteOptions,
    out: &mut IoText<'_>,
) -> Result<(), WriteError> {
    let Some(game) = read_tree(rules, text, read) else {
        return Ok(());
    };
    export_len(rules, &game, write)?;
    write_game_to(rules, &game, write, out)
}

/// An output a job writes games to, named for what it says of them.
pub struct Named<'a> {
    /// Where the games go.
    pub out: &'a mut dyn Write,
    /// Its path, for the job's messages.
    pub path: &'a Path,
}

/// `notate fmt` (and `eco`, which is `fmt` with its own edit): writes every game of the
/// job's inputs to `out` in the export format (`reduced`: the reduced one), with the
/// edits `edit` makes to each game, each change it reports a warning. A game that cannot
/// be read goes to `rejects` as written, else through to `out` unchanged, with a warning.
/// `pdn_note` is said once when a draughts input is read (what the edit does not do
/// there). The job's games have errors when one could not be read, or was too large to
/// hold.
///
/// # Errors
/// [`Stopped::Closed`] when whoever reads an output went away.
pub fn run<E>(
    job: &mut Job<'_>,
    out: &mut dyn Write,
    mut rejects: Option<Named<'_>>,
    reduced: bool,
    edit: E,
    pdn_note: Option<&str>,
) -> Result<Ended, Stopped>
where
    E: Inspect<pgn::ChessRules, Verdict = Vec<String>>
        + Inspect<pdn::DraughtsRules, Verdict = Vec<String>>
        + Copy,
{
    let (mut written, mut unreadable, mut lost) = (0, 0, 0);
    let mut noted = false;
    job.each(|source, opened, job| {
        let input = source.placed(opened.rows);
        with_rules!(opened.format, job.variant, |rules| {
            let write = WriteOptions {
                reduced,
                ..rules.write_options()
            };
            // The emitter reads large games again as the workers read them.
            let read = ReadOptions::default();
            if opened.format == Format::Pdn
                && let Some(note) = pdn_note
                && !std::mem::replace(&mut noted, true)
            {
                job.report.warning(&format!("{}: {note}", source.name));
            }
            let task = FmtTask {
                rules,
                read,
                write,
                inspect: edit,
            };
            let mut emitter = Emitter::new(
                &mut *out,
                rejects.as_mut().map(|r| &mut *r.out as &mut dyn Write),
                rules,
                read,
                write,
            );
            let result = pipeline::drive(&task, opened, job.jobs, &mut |item, offset| {
                let (repairs, item) = item.take_verdict();
                if matches!(item.fate, Fate::Written) {
                    let number = item.index + offset + 1;
                    for change in repairs {
                        job.report
                            .warning(&format!("{}: game {number}: {change}", source.name));
                    }
                }
                emitter.emit(item, offset, input, &mut job.say())
            });
            written += emitter.written;
            unreadable += emitter.unreadable;
            lost += emitter.lost;
            result
        })
    })?;
    job.flush(out)?;
    if let Some(rejects) = &mut rejects {
        job.flush(rejects.out)?;
    }
    if unreadable > 0 {
        let place = match &rejects {
            Some(rejects) => format!("moved to {}", rejects.path.display()),
            None => "passed through unchanged".to_owned(),
        };
        job.report.warning(&format!(
            "{written} games written, {unreadable} that could not be read {place}"
        ));
    }
    if lost > 0 {
        // Said even when quiet: these games are in neither the output nor the rejects.
        job.report.error(&format!(
            "{lost} games too large to hold were left out of the output"
        ));
    }
    Ok(job.ended(unreadable + lost > 0))
}

/// What `fmt` makes of one game, in a form two ways of writing it can be compared by.
#[derive(Debug, PartialEq)]
pub(crate) struct Written {
    index: u64,
    /// The text the emitter writes, or the game's bytes held for it to read again.
    text: String,
    /// Whether the bytes are a large game's, and whether it streams.
    large: Option<bool>,
    /// What became of the game, and why.
    fate: String,
    /// The inspection's verdict.
    verdict: String,
    orphans: Vec<Diagnostic>,
}

/// `fmt`'s items for the chess games of `text`, each inspected by `inspect`, written
/// along the reading ([`FmtTask::run_along`], `along`) or from their trees
/// ([`FmtTask::run_tree`]).
pub(crate) fn fmt_items<I>(
    text: &[u8],
    along: bool,
    read: ReadOptions,
    write: WriteOptions,
    inspect: I,
) -> Vec<Written>
where
    I: Inspect<pgn::ChessRules>,
    I::Verdict: std::fmt::Debug,
{
    let rules = crate::rules::chess();
    let task = FmtTask {
        rules: &rules,
        read,
        write,
        inspect,
    };
    let mut bytes = text.to_vec();
    let input = Input {
        bytes: &mut bytes,
        rest: None,
        cut_short: false,
        unseparated: false,
        rows: false,
    };
    let mut items = Vec::new();
    let mut keep = |item: Item<pgn::Move, I::Verdict>| {
        let (text, large) = match item.text {
            Text::Bytes(bytes) => (bytes, None),
            Text::Game(game) => {
                let mut out = String::new();
                // Written whole, the text is what the emitter sends, as the bytes of a
                // game written along the reading are; a failure is told by its cause.
                match write_game(&rules, &game, &write, &mut out) {
                    Ok(_) => (out.into_bytes(), None),
                    Err(e) => (format!("{out}{e:?}").into_bytes(), None),
                }
            }
            Text::Large { text, streams } => (text.bytes, Some(streams)),
        };
        let fate = match item.fate {
            Fate::Written => "written".to_owned(),
            Fate::Unreadable(reason) => format!("unreadable: {reason}"),
            Fate::Lost(reason) => format!("lost: {reason}"),
        };
        items.push(Written {
            index: item.index,
            // Bytes that are not UTF-8 (a game passed through) told apart by their escapes.
            text: String::from_utf8(text).unwrap_or_else(|e| format!("{:?}", e.as_bytes())),
            large,
            fate,
            verdict: format!("{:?}", item.verdict),
            orphans: item.orphans,
        });
        Ok(())
    };
    let origin = Origin::default();
    let read = if along {
        task.run_along(input, origin, &mut keep)
    } else {
        task.run_tree(input, origin, &mut keep)
    };
    // Memory gives no I/O error, and `keep` none either.
    let _ = read;
    items
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::differential::fmt_along_agrees;

    /// Every chess game of the corpus (and of the shared corpus, when there is one), and
    /// games made for what the corpus may lack, written along the reading and from their
    /// trees, in the export format and the reduced one, read leniently and strictly, as
    /// `fmt`, `select` and `split` write them ([`fmt_along_agrees`]): the same bytes,
    /// fates, reasons and verdicts.
    #[test]
    fn games_written_along_the_reading_are_written_as_their_trees() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let mut dirs = vec![root.join("corpus/pgn")];
        if let Some(shared) = std::env::var_os("NOTATION_SHARED_CORPUS") {
            // As `.ci/run` sets it: relative to the workspace.
            let shared = root.join(shared);
            assert!(shared.is_dir(), "no shared corpus at {}", shared.display());
            dirs.extend(
                ["pgn/bench", "pgn/python-chess", "pgn/scalachess"].map(|d| shared.join(d)),
            );
        }
        // Annotations out of the export format's order (a comment after a variation, a
        // glyph after a variation), a `;` comment holding a `}`, a set-up in the
        // movetext, a start that cannot be set up, an illegal move, a tag name that
        // cannot be written, lenient moves, a null move, long lines.
        let made = br#"[Event "a"]

{before} 1. e4 ; a } in a comment
e5 {c} $1 $14 2. Nf3 (2. Nc3 {v} Nc6 $2) {after the variation} 2... Nc6 $3 {x} 3. Bb5 1-0

[Event "b"]
[SetUp "1"]
[FEN "4k3/8/8/8/8/8/8/4K2R w K - 0 1"]

1. O-O+ Kd7 2. Rf7+ {[%clk 0:01:00] [%eval #3]} Ke6 *

[Event "c"]
[FEN "8/8/8/8/8/8/8/8 w - - 0 1"]

1. e4 *

[Event "d"]

1. e4 e5 2. Ke3 Nf6 *

[Event "e"]

1. d4 d5 /rnbqkbnr/ppp1pppp/8/3p4/3P4/8/PPP1PPPP/RNBQKBNR w KQkq - 0 2/ 2. c4 *

[Event "f"]

1. e4 (1. d4 d5 (1... Nf6 2. c4 (2. Nf3) $2) 2. c4) $1 e5 2. Nf3 {a comment that is long enough to wrap over the end of the line and on} Nc6 (2... d6 3. d4) 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 d6 8. c3 O-O 9. h3 Nb8 10. d4 Nbd7 1/2-1/2

[Event "g"]
[Bad Name "x"]

1. e4 *

[Event "h"]

1. e2e4 e7-e5 2. Ng1f3 0-0 3. -- Nc6 4. Bb5 a6 *

[Event "i"]
[White "a"]
[White "b"]
[Result "1-0"]

1. e4 e5 2. Nf3

[Event "j"]

1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 0-1
"#;
        let broken = b"[Ev\xe9nt \"a\"]\n[Ev\xe9nt \"b\"]\n[Site \"R\xe9ti\"]\n\n\
                       1. e4 {caf\xe9} e5\n% an escape line\n2. Ng1f3 *\n";
        let reduced = WriteOptions {
            reduced: true,
            ..WriteOptions::PGN
        };
        let mut items = 0;
        let mut check = |text: &[u8], name: &str| {
            for read in [ReadOptions::default(), ReadOptions::strict()] {
                for write in [WriteOptions::PGN, reduced] {
                    items += fmt_along_agrees(text, read, write)
                        .unwrap_or_else(|d| panic!("{name}: {d}"));
                }
            }
        };
        check(made, "the hand-made games");
        check(broken, "the broken game");
        for dir in dirs {
            let entries = std::fs::read_dir(&dir)
                .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
                .flatten();
            for entry in entries {
                let path = entry.path();
                if path.extension().is_some_and(|e| e == "pgn") {
                    let text = std::fs::read(&path).expect("a corpus file");
                    check(&text, &path.display().to_string());
                }
            }
        }
        assert!(items > 200, "only {items} items compared");
    }
}
