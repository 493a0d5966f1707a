//! Games too large to be held as a tree.
//!
//! `fmt` and `json` write a game's text in the worker that reads it, and the emitter
//! copies it to the output in input order. A large game would then be held three times
//! at once: as the input's bytes, as a tree, and as text; and a game of many short moves
//! is some twenty times larger as a tree than as bytes (and larger again as JSON). So a
//! game whose text in the input reaches [`LARGE_GAME_BYTES`] is read without its tree
//! ([`notation::GameBuilder::large_after`]) and handed to the emitter as its bytes, and the
//! emitter reads them again as it writes the game straight to the output through
//! [`IoText`] ([`notation::write_text_to`], `json::StreamSink`), holding no more of its
//! text than a line or a token. A game that cannot be written so
//! ([`notation::ReadGame::streams`]) is read into a tree there ([`read_tree`]).

use std::fmt;
use std::io;

use notation::{GameBuilder, GameText, GameTree, ReadOptions, Reader, Rules};

/// A game whose text in the input takes this many bytes or more is read without its
/// tree, and goes to the emitter to be written straight to the output.
pub const LARGE_GAME_BYTES: u64 = 1 << 20;

/// Whether a game that takes `span` in the input is large ([`LARGE_GAME_BYTES`]).
pub fn is_large(span: notation::Span) -> bool {
    span.end.saturating_sub(span.start) >= LARGE_GAME_BYTES
}

/// The tree of the game whose bytes as written are `bytes` (lent, read where they are,
/// and given back unchanged), read as a whole input is read: settled, and read a second
/// time if its rules want it. For the large games that cannot be written as they are
/// read ([`notation::ReadGame::streams`]); `None` if the bytes hold no game.
pub fn read_tree<R: Rules>(
    rules: &R,
    text: &mut GameText,
    read: ReadOptions,
) -> Option<GameTree<R::Move>> {
    Reader::lend(text, rules.dialect(), read, |reader| {
        let mut builder = GameBuilder::new(rules, read);
        reader
            .read_game(&mut builder)
            .ok()
            .flatten()
            .map(|game| game.game)
    })
}

/// A copy of a game's text, to read again alone ([`GameText`]: its bytes, and whether
/// they began a line), by fallible allocation: its size comes from the input, so that a
/// failure is reported for the game rather than the program ended.
pub fn try_copy(raw: &[u8], starts_line: bool) -> Option<GameText> {
    let mut bytes = Vec::new();
    bytes.try_reserve_exact(raw.len()).ok()?;
    bytes.extend_from_slice(raw);
    Some(GameText { bytes, starts_line })
}

/// Text written to an output as it comes, for the writers that write to any
/// [`fmt::Write`]; the first I/O error is kept (a [`fmt::Error`] carries none) and ends
/// the writing.
pub struct IoText<'o> {
    out: &'o mut dyn io::Write,
    error: Option<io::Error>,
}

impl<'o> IoText<'o> {
    /// Text to `out`.
    pub fn new(out: &'o mut dyn io::Write) -> IoText<'o> {
        IoText { out, error: None }
    }

    /// The I/O error that stopped the writing, if any.
    pub fn finish(self) -> io::Result<()> {
        match self.error {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }
}

impl fmt::Write for IoText<'_> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        if self.error.is_some() {
            return Err(fmt::Error);
        }
        match self.out.write_all(s.as_bytes()) {
            Ok(()) => Ok(()),
            Err(e) => {
                self.error = Some(e);
                Err(fmt::Error)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fmt::Write as _;

    #[test]
    fn the_first_io_error_is_kept() {
        let mut room = [0u8; 4];
        let mut out = &mut room[..];
        let mut text = IoText::new(&mut out);
        assert!(text.write_str("abc").is_ok());
        assert!(text.write_str("de").is_err());
        assert!(text.write_str("f").is_err());
        assert_eq!(
            text.finish().map_err(|e| e.kind()),
            Err(io::ErrorKind::WriteZero)
        );
        assert_eq!(&room, b"abcd");
    }
}
