//! Where games end and begin, looked for ahead of the lexer: whether the next game
//! follows, the name of a tag about to be read, the next tag line after a game too
//! large to keep.

use std::io::{self, Read};

use super::buffer::Buffer;
use crate::lexer::{self, Backslash, Gap};

impl<R: Read> Buffer<R> {
    /// Whether only white space (line ends written `\r` included) lies between the stream
    /// offset `from` and a `[` or the end of the input, reading more input if needed:
    /// where a lone `-` ends a game, as federation files write an unknown result.
    pub(super) fn game_follows(&mut self, from: u64) -> io::Result<bool> {
        loop {
            let text = &self.buf[..self.filled];
            let mut at = self.index(from).min(text.len());
            let mut gap = Gap::default();
            loop {
                at = lexer::skip_whitespace(text, at, &mut gap);
                if text.get(at) == Some(&b'\\')
                    && lexer::literal_cr(text, at, self.eof, self.text_end) == Backslash::LineEnd
                {
                    at += 2;
                    continue;
                }
                break;
            }
            match text.get(at) {
                Some(b'[') => return Ok(true),
                None if self.eof => return Ok(true),
                // Undecided until more is read (at the end of the input, it is decided).
                None => {}
                Some(b'\\')
                    if lexer::literal_cr(text, at, self.eof, self.text_end)
                        == Backslash::NeedMore => {}
                Some(_) => return Ok(false),
            }
            self.refill()?;
        }
    }

    /// The tag name after a `[` at buffer index `from`, reading more input if needed.
    pub(super) fn peek_tag_name(&mut self, from: usize) -> Option<Vec<u8>> {
        loop {
            let rest = &self.buf[from.min(self.filled)..self.filled];
            let skip = rest.iter().take_while(|b| b.is_ascii_whitespace()).count();
            let name_len = rest[skip..]
                .iter()
                .take_while(|&&b| lexer::is_symbol_byte(b))
                .count();
            if skip + name_len < rest.len() || self.eof {
                return (name_len > 0).then(|| rest[skip..skip + name_len].to_vec());
            }
            match self.refill() {
                Ok(true) => {}
                _ => return None,
            }
        }
    }

    /// After a game too large to keep: drops input up to the next line that starts with `[`.
    pub(super) fn skip_to_next_tag_line(&mut self) -> io::Result<()> {
        loop {
            let rest = &self.buf[self.pos..self.filled];
            if let Some(i) = memchr::memmem::find(rest, b"\n[") {
                self.pos += i + 1;
                let offset = self.offset();
                self.keep = offset;
                self.cursor = self.location(offset);
                return Ok(());
            }
            // Keep the last byte (it may be the line feed before a `[`).
            let keep_from = self.filled.saturating_sub(1).max(self.pos);
            self.pos = keep_from;
            let offset = self.offset();
            self.cursor = self.location(offset);
            self.keep = offset;
            if !self.refill()? {
                self.pos = self.filled;
                return Ok(());
            }
        }
    }
}
