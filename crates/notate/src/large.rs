//! Games too large to be held as text as well as a tree.
//!
//! `fmt` and `json` write a game's text in the worker that reads it, and the emitter
//! copies it to the output in input order. A large game would then be held three times
//! at once: as the input's bytes, as a tree, and as text (and a game of many short moves
//! is larger as a tree than as bytes, and larger again as JSON). So a game whose text in
//! the input takes [`LARGE_GAME_BYTES`] or more is handed to the emitter as a tree, and
//! the emitter writes it straight to the output through [`IoText`], holding no more of
//! its text than a line or a token.

use std::fmt;
use std::io;

/// A game whose text in the input takes this many bytes or more goes to the emitter as
/// a tree, to be written straight to the output.
pub const LARGE_GAME_BYTES: u64 = 1 << 20;

/// Whether a game that takes `span` in the input is large ([`LARGE_GAME_BYTES`]).
pub fn is_large(span: notation::Span) -> bool {
    span.end.saturating_sub(span.start) >= LARGE_GAME_BYTES
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
