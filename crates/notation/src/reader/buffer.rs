//! The reader's buffer: the bytes of the input it holds (the current game's, from
//! where its reading began, and what was read past them), read from the source as
//! needed, compacted between games and grown for a large one.

use std::io::{self, Read};

use crate::location::{Location, locate};
use crate::visitor::Origin;

pub(super) const INITIAL_BUFFER: usize = 1 << 16;
const READ_CHUNK: usize = 1 << 16;
/// Past this size the buffer holds one large game, and reads into room it makes without
/// writing zeros over it first (see [`Buffer::read_large`]).
const LARGE_BUFFER: usize = 1 << 20;
/// A buffer past this size that holds little once compacted (after a large game) is
/// replaced by a small one, so that the games after a large one do not keep its memory.
const SHRINK_ABOVE: usize = 8 << 20;

/// Makes room for `more` bytes in a buffer that holds a large game, by fallible
/// allocation; false when even `more` cannot be had.
///
/// The capacity is taken to four times what it was when that can be had: the buffers a
/// growing game outgrows are freed, but an allocator may keep their memory a while (the
/// one `notate` uses, for a second), so that growing by doubling would have up to twice
/// the game's size freed but still held next to it, and growing by four a third of it.
/// Only the bytes read are written to, so the room beyond the game costs address space,
/// not memory in use; and when the larger room cannot be had, the room needed is tried.
///
/// The reader grows its buffer so past 1 MiB; a program that gathers a large game's
/// bytes itself (`notate` cutting an input into chunks for its threads) grows its own
/// buffers the same way.
///
/// ```
/// let mut buf = vec![0u8; 100];
/// assert!(notation::reserve_game_room(&mut buf, 50));
/// assert!(buf.capacity() >= 400);
/// ```
pub fn reserve_game_room(buf: &mut Vec<u8>, more: usize) -> bool {
    if buf.capacity() - buf.len() >= more {
        return true;
    }
    let generous = (4 * buf.capacity()).saturating_sub(buf.len()).max(more);
    buf.try_reserve_exact(generous).is_ok() || buf.try_reserve_exact(more).is_ok()
}

/// The bytes of the input held, where lexing is in them, and a point of known location.
///
/// Offsets into the whole input ("stream offsets") and indices into `buf` differ by
/// `base`, which grows as the buffer is compacted.
pub(super) struct Buffer<R> {
    inner: R,
    pub(super) buf: Vec<u8>,
    /// Bytes of `buf` holding input.
    pub(super) filled: usize,
    /// Bytes of `buf` after `filled` that hold input taken over with the buffer
    /// ([`Reader::from_vec`](crate::Reader::from_vec)), not yet handed to the lexer.
    pub(super) preloaded: usize,
    /// Whether the taken-over bytes end inside a game that could not be held in memory
    /// ([`Reader::cut_short`](crate::Reader::cut_short)).
    pub(super) cut_short: bool,
    /// Whether those bytes are the whole input
    /// ([`Reader::ends_with_bytes`](crate::Reader::ends_with_bytes)).
    pub(super) ends_with_bytes: bool,
    /// Whether the bytes are one game's text read again ([`Reader::lend`](crate::Reader::lend)):
    /// their end is where the game's last token ended, no line end.
    pub(super) text_end: bool,
    /// Whether the buffer could not grow to hold more of the current game: the game is
    /// reported as [`DiagnosticKind::GameOutOfMemory`](crate::DiagnosticKind) and skipped.
    pub(super) no_room: bool,
    /// Lexing position in `buf`.
    pub(super) pos: usize,
    /// Whether the input is exhausted.
    pub(super) eof: bool,
    /// The error that ended the input: its bytes before it are read as the input's end
    /// (the game it cut reported as such), then the error is given
    /// ([`Reader::read_game`](crate::Reader::read_game)).
    pub(super) failed: Option<io::Error>,
    /// Stream offset of `buf[0]`.
    pub(super) base: u64,
    /// Stream offset before which bytes may be discarded.
    pub(super) keep: u64,
    /// A point of known location (stream offset in `location.offset`), never after `keep`.
    pub(super) cursor: Location,
    /// Whether `buf[0]` is at the start of a line.
    pub(super) starts_line: bool,
    /// Calls to `refill` so far: the size of the buffered game changes only then.
    pub(super) fills: u64,
}

impl<R: Read> Buffer<R> {
    /// A buffer of `bytes` bytes (at least one), before any input.
    pub(super) fn new(inner: R, bytes: usize) -> Buffer<R> {
        Buffer {
            inner,
            buf: vec![0; bytes.max(1)],
            filled: 0,
            preloaded: 0,
            cut_short: false,
            ends_with_bytes: false,
            text_end: false,
            no_room: false,
            pos: 0,
            eof: false,
            failed: None,
            base: 0,
            keep: 0,
            cursor: Location {
                line: 1,
                column: 1,
                offset: 0,
            },
            starts_line: true,
            fills: 0,
        }
    }

    /// A buffer that holds `bytes`, taken over as they are, to hand to the lexer a
    /// read's worth at a time.
    pub(super) fn from_vec(inner: R, bytes: Vec<u8>) -> Buffer<R> {
        let preloaded = bytes.len();
        let mut buffer = Buffer::new(inner, 0);
        buffer.buf = bytes;
        buffer.preloaded = preloaded;
        buffer
    }

    /// The bytes, for another reader to reuse.
    pub(super) fn into_vec(self) -> Vec<u8> {
        self.buf
    }

    /// The stream offset of the lexing position.
    pub(super) fn offset(&self) -> u64 {
        self.base + self.pos as u64
    }

    /// The index in `buf` of a stream offset.
    pub(super) fn index(&self, offset: u64) -> usize {
        usize::try_from(offset.saturating_sub(self.base)).unwrap_or(usize::MAX)
    }

    /// The bytes between two stream offsets.
    pub(super) fn slice(&self, (start, end): (u64, u64)) -> &[u8] {
        &self.buf[self.index(start)..self.index(end)]
    }

    /// The input's bytes between two stream offsets, if they are all held.
    pub(super) fn held(&self, start: u64, end: u64) -> Option<&[u8]> {
        let start = usize::try_from(start.checked_sub(self.base)?).ok()?;
        let end = usize::try_from(end.checked_sub(self.base)?).ok()?;
        self.buf[..self.filled].get(start..end)
    }

    /// The location of a stream offset at or after the cursor.
    pub(super) fn location(&self, offset: u64) -> Location {
        let from = self.index(self.cursor.offset);
        locate(&self.buf[from..self.filled], self.cursor, offset)
    }

    /// What the tokens read from the cursor on are located in, for the game with this
    /// index.
    pub(super) fn origin(&self, game: u64) -> Origin<'_> {
        let from = self.index(self.cursor.offset);
        Origin {
            game,
            text: &self.buf[from..self.filled],
            text_location: self.cursor,
        }
    }

    /// Reads more input, compacting or growing the buffer. Returns false at the end of
    /// input, and when the buffer cannot grow to hold more of the current game (then
    /// `no_room` is set, and the game is reported and skipped).
    pub(super) fn refill(&mut self) -> io::Result<bool> {
        self.fills += 1;
        if self.eof || self.no_room {
            return Ok(false);
        }
        if self.preloaded > 0 {
            // Bytes taken over with the buffer: handed over as a stream's reads would
            // be, so that a game's size is measured (and limited) as it is from a stream.
            let n = self.preloaded.min(self.read_size());
            self.filled += n;
            self.preloaded -= n;
            return Ok(true);
        }
        if self.cut_short {
            self.cut_short = false;
            self.no_room = true;
            return Ok(false);
        }
        if self.ends_with_bytes {
            self.eof = true;
            return Ok(false);
        }
        let drop = self.index(self.keep.min(self.cursor.offset));
        if self.filled == self.buf.len() || drop > self.buf.len() / 2 {
            if drop > 0 {
                self.starts_line = matches!(self.buf[drop - 1], b'\n' | b'\r');
                self.buf.copy_within(drop..self.filled, 0);
                self.filled -= drop;
                self.pos -= drop;
                self.base += drop as u64;
            }
            if self.buf.capacity() > SHRINK_ABOVE && self.filled < self.buf.capacity() / 8 {
                self.shrink();
            }
            if self.buf.len() - self.filled < READ_CHUNK {
                if self.buf.len() >= LARGE_BUFFER {
                    return self.read_large();
                }
                if !self.grow() {
                    self.no_room = true;
                    return Ok(false);
                }
            }
        }
        loop {
            match self.inner.read(&mut self.buf[self.filled..]) {
                Ok(0) => {
                    self.eof = true;
                    return Ok(false);
                }
                Ok(n) => {
                    self.filled += n;
                    return Ok(true);
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => {
                    self.failed = Some(e);
                    self.eof = true;
                    return Ok(false);
                }
            }
        }
    }

    /// How much to read into a buffer that holds a large game: a quarter of what it
    /// holds (at least [`READ_CHUNK`]). A token still open at the buffer's end is lexed
    /// again from its start once more is read, so reads in proportion to the game keep a
    /// token of 50 MB (a comment) from being lexed hundreds of times over.
    fn read_size(&self) -> usize {
        READ_CHUNK.max(self.filled / 4)
    }

    /// Makes room for a read after the buffered bytes, in a buffer that has not yet
    /// reached [`LARGE_BUFFER`]: it doubles. Returns false when the memory for it cannot
    /// be had: the size of a game comes from the input, and a game too large for the
    /// memory left must be reported like any other broken game, not end the program
    /// (Rust's allocation failures abort), so the allocation is a fallible one.
    fn grow(&mut self) -> bool {
        let len = self.buf.len();
        let grown = (len * 2).max(self.filled + READ_CHUNK);
        if self.buf.try_reserve(grown.saturating_sub(len)).is_err() {
            return false;
        }
        self.buf.resize(grown, 0);
        true
    }

    /// Reads more of a large game, into a buffer past [`LARGE_BUFFER`] that must grow.
    ///
    /// The buffer's capacity grows by fallible allocation ([`reserve_game_room`]; a failure
    /// sets `no_room`), and the bytes are read into it as they come, without first
    /// writing zeros over the room made for them: the memory in use follows the game's
    /// size, not the capacity above it. The read fills the room (a quarter of the game)
    /// unless the input ends first.
    fn read_large(&mut self) -> io::Result<bool> {
        let want = self.read_size();
        self.buf.truncate(self.filled);
        if !reserve_game_room(&mut self.buf, want) {
            self.no_room = true;
            return Ok(false);
        }
        let read = (&mut self.inner)
            .take(want as u64)
            .read_to_end(&mut self.buf);
        let n = self.buf.len() - self.filled;
        self.filled = self.buf.len();
        match read {
            Ok(_) => {
                // Short of what was asked: the input is over.
                self.eof = n < want;
                Ok(n > 0)
            }
            Err(e) if e.kind() == io::ErrorKind::OutOfMemory => {
                self.no_room = true;
                Ok(false)
            }
            Err(e) => {
                self.failed = Some(e);
                self.eof = true;
                Ok(n > 0)
            }
        }
    }

    /// Replaces a large buffer that holds little (after a large game) with a small one,
    /// so that the games after it do not keep the large game's memory. Nothing changes
    /// when even the small buffer cannot be had.
    fn shrink(&mut self) {
        let size = (self.filled + READ_CHUNK).max(2 * INITIAL_BUFFER);
        let mut smaller = Vec::new();
        if smaller.try_reserve_exact(size).is_ok() {
            smaller.extend_from_slice(&self.buf[..self.filled]);
            smaller.resize(size, 0);
            self.buf = smaller;
        }
    }
}
