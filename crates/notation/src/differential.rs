//! The reader's and the writer's fast paths held to their plain twins: functions that read
//! or write the same bytes both ways and say where the two differ, for the test suite
//! (every corpus file, every regression input) and the fuzz targets (`fuzz/`) alike.
//!
//! Not part of the crate's interface: hidden from its documentation, and free to change.
//!
//! - [`skim_agrees`]: a game its visitor stopped, passed over 64 bytes at a time
//!   (`skim`), against the token loop.
//! - [`stream_agrees`]: a game read without its tree and written as its text is read
//!   again ([`write_text_to`]), against the tree writer.

use std::fmt;
use std::io;
use std::ops::ControlFlow;

use crate::builder::{GameReader, KeepRaw, ReadGame};
use crate::diagnostic::Diagnostic;
use crate::dialect::Dialect;
use crate::options::ReadOptions;
use crate::reader::Reader;
use crate::rules::Rules;
use crate::stream::write_text_to;
use crate::visitor::{GameText, RawGame, Visitor};
use crate::writer::{WriteOptions, write_game_to};

/// The read options a fuzz target's selector byte chooses (its lowest bit): lenient, or
/// strict with room for a small game only, 64 bytes and 16 more for each step of the
/// selector's other bits, so that games too large to hold are read too.
pub fn read_options_for(selector: u8) -> ReadOptions {
    if selector & 1 == 0 {
        ReadOptions::default()
    } else {
        ReadOptions {
            max_game_bytes: 64 + usize::from(selector >> 1) * 16,
            ..ReadOptions::strict()
        }
    }
}

/// Where a fast path and its plain twin read or wrote differently: what differed, and
/// each one's version of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Disagreement {
    /// What differed (`"games"`, `"export text of game 3"`, …).
    pub what: String,
    /// What the fast path gave, as debug text.
    pub fast: String,
    /// What the plain path gave, as debug text.
    pub plain: String,
}

impl Disagreement {
    /// `Ok` when `fast` and `plain` are equal, else the disagreement about `what`.
    pub fn check<T: fmt::Debug + PartialEq>(
        what: impl fmt::Display,
        fast: &T,
        plain: &T,
    ) -> Result<(), Disagreement> {
        if fast == plain {
            return Ok(());
        }
        Err(Disagreement {
            what: what.to_string(),
            fast: format!("{fast:#?}"),
            plain: format!("{plain:#?}"),
        })
    }
}

impl fmt::Display for Disagreement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the fast and plain paths differ in {}:\n fast: {}\nplain: {}",
            self.what, self.fast, self.plain
        )
    }
}

impl std::error::Error for Disagreement {}

/// What a reading shows of games whose visitor stops at their movetext: where each ends,
/// its diagnostics, and what the reader says outside any game.
#[derive(Default)]
struct StopAtMovetext {
    seen: Vec<String>,
}

impl Visitor for StopAtMovetext {
    type Output = ();

    fn begin_movetext(&mut self) -> ControlFlow<()> {
        ControlFlow::Break(())
    }

    fn diagnostic(&mut self, diagnostic: Diagnostic) {
        self.seen.push(format!("{diagnostic:?}"));
    }

    fn end_game(&mut self, raw: RawGame<'_>) {
        self.seen.push(format!("game {} {:?}", raw.index, raw.span));
    }
}

/// A source that gives at most `step` bytes per read, so that tokens and 64-byte blocks
/// meet the buffer's end everywhere.
struct Trickle<'a> {
    text: &'a [u8],
    step: usize,
}

impl io::Read for Trickle<'_> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        let n = self.step.max(1).min(out.len()).min(self.text.len());
        out[..n].copy_from_slice(&self.text[..n]);
        self.text = &self.text[n..];
        Ok(n)
    }
}

/// What a reading of `text` whose visitor stops every game at its movetext shows, read
/// `step` bytes at a time into a buffer of 16 bytes to start with, the skim on or off.
fn stopped_reading(
    text: &[u8],
    dialect: Dialect,
    options: ReadOptions,
    step: usize,
    skim: bool,
) -> Vec<String> {
    let source = Trickle { text, step };
    let mut reader = Reader::with_buffer(source, dialect, options, 16);
    reader.set_skim(skim);
    let mut visitor = StopAtMovetext::default();
    // A slice gives no I/O error: the reading ends at the end of the text either way.
    while let Ok(Some(())) = reader.read_game(&mut visitor) {}
    visitor.seen
}

/// Reads `text` with a visitor that stops every game at its movetext, `step` bytes at a
/// time, once passing the stopped games' plain tokens over a block at a time (the skim)
/// and once token by token: the same games must end at the same bytes, with the same
/// diagnostics. Returns how many games were read.
pub fn skim_agrees(
    text: &[u8],
    dialect: Dialect,
    options: ReadOptions,
    step: usize,
) -> Result<usize, Disagreement> {
    let skimmed = stopped_reading(text, dialect, options, step, true);
    let read = stopped_reading(text, dialect, options, step, false);
    Disagreement::check(
        format_args!("a stopped reading, {step} bytes at a time"),
        &skimmed,
        &read,
    )?;
    Ok(read.iter().filter(|s| s.starts_with("game ")).count())
}

/// What two readings of one game must agree on, whether or not its tree was built.
fn reading<M>(game: &ReadGame<M>) -> (u64, crate::span::Span, &[Diagnostic], bool) {
    (game.index, game.span, &game.diagnostics, game.marked)
}

/// Reads `text`'s games twice, into trees and as large games (without their trees,
/// [`GameReader::large_after`] 0): each game must be read the same (where it is, its
/// diagnostics, its marker), and each that can be written as it is read again
/// ([`ReadGame::streams`]) must be written by [`write_text_to`] as the tree writer
/// writes its tree, the same text or the same error.
/// Returns how many games were written as they were read again.
pub fn stream_agrees<R: Rules>(
    rules: &R,
    text: &[u8],
    read: ReadOptions,
    write: &WriteOptions,
) -> Result<usize, Disagreement> {
    let trees: Vec<_> = GameReader::new(rules, text, read).flatten().collect();
    let large: Vec<_> = GameReader::new(rules, text, read)
        .keep_raw(KeepRaw::Always)
        .large_after(0)
        .flatten()
        .collect();
    Disagreement::check("the number of games", &large.len(), &trees.len())?;
    let mut streamed = 0;
    for (tree, large) in trees.iter().zip(&large) {
        let index = tree.index;
        Disagreement::check(
            format_args!("the reading of game {index}"),
            &reading(large),
            &reading(tree),
        )?;
        if large.built {
            // Not large after all (no token to start it): its tree was built.
            continue;
        }
        let Some(raw) = &large.raw else {
            continue;
        };
        let mut text = GameText {
            bytes: raw.clone(),
            starts_line: large.starts_line,
        };
        let mut out = String::new();
        let written = write_text_to(rules, &mut text, read, write, &mut out);
        Disagreement::check(
            format_args!("the text of game {index}, given back"),
            &text.bytes,
            raw,
        )?;
        if !large.streams {
            // Its tree is read to write it (`streams` says so): what was written of it
            // is not looked at.
            continue;
        }
        streamed += 1;
        let fast = written.map(|()| out).map_err(|e| e.to_string());
        let mut expected = String::new();
        let plain = write_game_to(rules, &tree.game, write, &mut expected)
            .map(|()| expected)
            .map_err(|e| e.to_string());
        Disagreement::check(format_args!("the export of game {index}"), &fast, &plain)?;
    }
    Ok(streamed)
}
