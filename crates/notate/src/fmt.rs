//! `notate fmt`: every game in the export format, and no game lost.
//!
//! A game with an error (a move the rules refuse, a broken tag section, …) is not
//! written from its incomplete tree: its bytes as written go out unchanged, followed by
//! an empty line, with a warning on standard error; or, with `--rejects FILE`, they go to
//! that file instead, so that the output and the rejects together hold every game.

use std::io::{self, Write};

use notation::{Diagnostic, GameReader, KeepRaw, ReadOptions, Severity, WriteOptions, write_game};

use crate::games::Notate;
use crate::pipeline::{Input, Origin, Task};

/// What became of a game.
pub enum Fate {
    /// Written in the export format.
    Written,
    /// Could not be read or written: kept as written, for this reason.
    Unreadable(String),
}

/// One game's output.
pub struct Item {
    /// The 0-based index of the game in its chunk.
    pub index: u64,
    /// The text to write: the export format, or the bytes as written.
    pub text: Vec<u8>,
    /// What became of it.
    pub fate: Fate,
    /// Diagnostics outside any game (no text): for standard error.
    pub orphans: Vec<Diagnostic>,
}

/// Reads and writes games.
pub struct FmtTask<'r, G> {
    /// The rules.
    pub rules: &'r G,
    /// How to read.
    pub read: ReadOptions,
    /// How to write.
    pub write: WriteOptions,
}

impl<G: Notate> Task for FmtTask<'_, G> {
    type Item = Item;

    fn run(
        &self,
        mut input: Input<'_>,
        origin: Origin,
        sink: &mut dyn FnMut(Item) -> io::Result<()>,
    ) -> io::Result<u64> {
        // Raw bytes are kept for every game: a game with no error may still fail to be
        // written (a tag name that cannot be written back, say), and must then go out as
        // it came in.
        let reader = input.reader(self.rules.dialect(), self.read);
        let mut reader = GameReader::from_reader(self.rules, reader).keep_raw(KeepRaw::Always);
        let mut games = 0;
        let mut text = String::new();
        while let Some(mut game) = reader.read_game()? {
            games += 1;
            for d in &mut game.diagnostics {
                origin.place(d);
            }
            let error = game
                .diagnostics
                .iter()
                .find(|d| d.severity == Severity::Error)
                .map(|d| format!("{}: {}", d.location, d.kind));
            let written = match error {
                Some(reason) => Err(reason),
                None => {
                    text.clear();
                    write_game(self.rules, &game.game, &self.write, &mut text)
                        .map_err(|e| e.to_string())
                }
            };
            let item = match written {
                Ok(()) => Item {
                    index: game.index,
                    text: text.as_bytes().to_vec(),
                    fate: Fate::Written,
                    orphans: Vec::new(),
                },
                Err(reason) => {
                    let mut raw = game.raw.unwrap_or_default();
                    // The bytes as written, then as many line ends as make the empty
                    // line that separates games.
                    if !raw.ends_with(b"\n\n") {
                        let missing: &[u8] = if raw.ends_with(b"\n") { b"\n" } else { b"\n\n" };
                        raw.extend_from_slice(missing);
                    }
                    Item {
                        index: game.index,
                        text: raw,
                        fate: Fate::Unreadable(reason),
                        orphans: Vec::new(),
                    }
                }
            };
            sink(item)?;
        }
        let mut orphans = reader.take_orphans();
        let buffer = reader.into_reader().into_vec();
        input.give_back(buffer);
        if !orphans.is_empty() {
            for d in &mut orphans {
                origin.place(d);
            }
            sink(Item {
                index: games,
                text: Vec::new(),
                fate: Fate::Written,
                orphans,
            })?;
        }
        Ok(games)
    }
}

/// Where games go, and what was done.
pub struct Emitter<'o> {
    /// The formatted games (and unreadable ones, without `--rejects`).
    pub out: &'o mut dyn Write,
    /// Unreadable games, with `--rejects`.
    pub rejects: Option<&'o mut dyn Write>,
    /// Games written in the export format.
    pub written: u64,
    /// Unreadable games passed through or moved to the rejects.
    pub unreadable: u64,
}

impl Emitter<'_> {
    /// Writes one item, reporting an unreadable game (numbered with `offset`) to `warn`.
    pub fn emit(
        &mut self,
        item: Item,
        offset: u64,
        name: &str,
        warn: &mut dyn FnMut(String),
    ) -> io::Result<()> {
        for d in &item.orphans {
            warn(format!("{name}:{d}"));
        }
        if item.text.is_empty() {
            return Ok(());
        }
        match &item.fate {
            Fate::Written => {
                self.written += 1;
                self.out.write_all(&item.text)
            }
            Fate::Unreadable(reason) => {
                self.unreadable += 1;
                let number = item.index + offset + 1;
                match &mut self.rejects {
                    Some(rejects) => {
                        warn(format!(
                            "{name}: game {number} moved to the rejects unchanged: {reason}"
                        ));
                        rejects.write_all(&item.text)
                    }
                    None => {
                        warn(format!(
                            "{name}: game {number} passed through unchanged: {reason}"
                        ));
                        self.out.write_all(&item.text)
                    }
                }
            }
        }
    }
}
