//! The streaming reader: finds games and their tokens in any `io::Read`, in a reused
//! buffer, and hands them to a [`Visitor`].
//!
//! Memory is bounded by the largest game, not by the input: the buffer holds the
//! current game (so that its raw text stays available) and is compacted between games.

use std::io::{self, Read};
use std::ops::ControlFlow;

use crate::diagnostic::{Diagnostic, DiagnosticKind};
use crate::dialect::Dialect;
use crate::lexer::{Backslash, Gap, Lexed, SymbolContinuations, Token, is_space, lex_inline};
use crate::location::{Location, locate};
use crate::options::ReadOptions;
use crate::span::Span;
use crate::visitor::{Origin, RawGame, RawValue, Skip, Visitor};
use crate::{GameResult, Nag};

/// How many times a game is read again, at most, as its visitor asks
/// ([`Visitor::read_again`]).
const MAX_READINGS_AGAIN: u32 = 3;

/// A run of plain tokens shorter than this (in bytes) did not pay for the block it was
/// found in: the token loop reads the rest of the game alone. (`select --player` on the
/// lichess bench file, a comment after every move, took 12% more instructions when every
/// run was looked for.)
const SKIM_PAYS_FROM: usize = 64;

const INITIAL_BUFFER: usize = 1 << 16;
const READ_CHUNK: usize = 1 << 16;
/// Past this size the buffer holds one large game, and reads into room it makes without
/// writing zeros over it first (see [`Reader::read_large`]).
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

/// The first line of `text` longer than 255 bytes that ends in it (at a line feed), as
/// its start (clamped to `text`) and its length in bytes without the line end. The first
/// line starts at column `column`.
///
/// Lines are not visited one by one: from a line's start, the last line feed among the
/// next 256 bytes ends a line of at most 255 bytes, and so does every line feed before
/// it, so the search leaps to the line after it. Only a window with no line feed needs
/// a closer look.
fn first_long_line(text: &[u8], column: u64) -> Option<(usize, u64)> {
    const WINDOW: i64 = 256;
    // The start of the current line, before `text` for the first one.
    let mut begin: i64 = -(column as i64 - 1);
    loop {
        let from = begin.max(0) as usize;
        let to = (begin + WINDOW).max(0) as usize;
        if to >= text.len() {
            // Every line ending in the rest of the text is short.
            return None;
        }
        if let Some(i) = memchr::memrchr(b'\n', &text[from..to]) {
            begin = (from + i) as i64 + 1;
            continue;
        }
        // No line end in the window: the line is long unless a CR LF ends it just past it.
        let end = to + memchr::memchr(b'\n', &text[to..])?;
        let mut content_end = end;
        if content_end > 0 && text[content_end - 1] == b'\r' {
            content_end -= 1;
        }
        let length = content_end as i64 - begin;
        if length > 255 {
            return Some((from, length as u64));
        }
        begin = end as i64 + 1;
    }
}

/// The last, unfinished line of `text` (whose first byte is at `column`), if it is
/// already longer than 255 bytes: whatever ends it later, it is too long (a 50 MB
/// single-line file has no line end at all).
fn long_last_line(text: &[u8], column: u64) -> Option<(usize, u64)> {
    let (begin, length) = match memchr::memrchr(b'\n', text) {
        Some(i) => (i + 1, (text.len() - i - 1) as u64),
        None => (0, text.len() as u64 + column.saturating_sub(1)),
    };
    (length > 255).then_some((begin, length))
}

/// Where the reader is in a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    /// Between games.
    Before,
    /// In the tag section, expecting `[` or the movetext.
    Tags,
    /// After `[`, expecting a name.
    TagName { open: u64 },
    /// After the name, expecting the value.
    TagValue { open: u64, name: (u64, u64) },
    /// After the value, expecting `]`.
    TagClose {
        open: u64,
        name: (u64, u64),
        value: (u64, u64),
    },
    /// In the movetext.
    Movetext,
}

/// A token's kind without its bytes, so that the buffer is free to grow while it is handled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    TagOpen,
    TagClose,
    String { unterminated: bool },
    Symbol,
    MoveNumber { number: u64, periods: usize },
    Periods(usize),
    Nag(u64),
    Suffix,
    Comment { unterminated: bool },
    LineComment,
    Escape,
    VariationOpen,
    VariationClose,
    Asterisk,
    Reserved(u8),
    Setup { unterminated: bool },
    Unexpected(u8),
}

impl Kind {
    fn of(token: Token<'_>) -> Kind {
        match token {
            Token::TagOpen => Kind::TagOpen,
            Token::TagClose => Kind::TagClose,
            Token::String { unterminated, .. } => Kind::String { unterminated },
            Token::Symbol(_) => Kind::Symbol,
            Token::MoveNumber { number, periods } => Kind::MoveNumber { number, periods },
            Token::Periods(n) => Kind::Periods(n),
            Token::Nag(n) => Kind::Nag(n),
            Token::Suffix(_) => Kind::Suffix,
            Token::Comment { unterminated, .. } => Kind::Comment { unterminated },
            Token::LineComment(_) => Kind::LineComment,
            Token::Escape(_) => Kind::Escape,
            Token::VariationOpen => Kind::VariationOpen,
            Token::VariationClose => Kind::VariationClose,
            Token::Asterisk => Kind::Asterisk,
            Token::Reserved(b) => Kind::Reserved(b),
            Token::Setup { unterminated, .. } => Kind::Setup { unterminated },
            Token::Unexpected(b) => Kind::Unexpected(b),
        }
    }

    /// The span of the token's content, without delimiters.
    fn content(self, start: u64, end: u64) -> (u64, u64) {
        match self {
            Kind::Comment { unterminated }
            | Kind::String { unterminated }
            | Kind::Setup { unterminated } => (start + 1, if unterminated { end } else { end - 1 }),
            Kind::LineComment | Kind::Escape => (start + 1, end),
            _ => (start, end),
        }
    }
}

/// How the current game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ending {
    /// With a termination marker.
    Marker,
    /// At the start of the next game, or the end of input, with no marker.
    Unmarked,
}

/// Reads games from an `io::Read` and hands their tokens to a [`Visitor`].
///
/// ```
/// use std::ops::ControlFlow;
/// use notation::{At, Dialect, ReadOptions, Reader, Visitor, RawGame};
///
/// struct Tags(Vec<String>);
/// impl Visitor for Tags {
///     type Output = ();
///     fn tag(&mut self, name: &[u8], _: notation::RawValue<'_>, _: At<'_>) -> ControlFlow<()> {
///         self.0.push(String::from_utf8_lossy(name).into_owned());
///         ControlFlow::Continue(())
///     }
///     fn end_game(&mut self, _: RawGame<'_>) {}
/// }
///
/// let pgn = b"[Event \"a\"]\n[Site \"b\"]\n\n1. e4 *\n";
/// let mut visitor = Tags(Vec::new());
/// Reader::new(&pgn[..], Dialect::PGN, ReadOptions::default()).visit_all(&mut visitor).unwrap();
/// assert_eq!(visitor.0, ["Event", "Site"]);
/// ```
pub struct Reader<R> {
    inner: R,
    /// Whether a stopped game's plain tokens are passed over a block at a time
    /// ([`crate::skim`]); off only in the test that holds it to the token loop.
    skim: bool,
    /// Whether this game's plain tokens are still passed over a block at a time: not
    /// once a run of them was short ([`SKIM_PAYS_FROM`]).
    skim_game: bool,
    dialect: Dialect,
    /// Where a symbol may go on past its symbol bytes (a move mark of the dialect, a
    /// backslash), for the fast path.
    continuations: SymbolContinuations,
    options: ReadOptions,
    buf: Vec<u8>,
    /// Bytes of `buf` holding input.
    filled: usize,
    /// Bytes of `buf` after `filled` that hold input taken over with the buffer
    /// ([`Reader::from_vec`]), not yet handed to the lexer.
    preloaded: usize,
    /// Whether the taken-over bytes end inside a game that could not be held in memory
    /// ([`Reader::cut_short`]).
    cut_short: bool,
    /// Whether those bytes are the whole input ([`Reader::ends_with_bytes`]).
    ends_with_bytes: bool,
    /// Whether the buffer could not grow to hold more of the current game: the game is
    /// reported as [`DiagnosticKind::GameOutOfMemory`] and skipped.
    no_room: bool,
    /// Lexing position in `buf`.
    pos: usize,
    /// Whether the input is exhausted.
    eof: bool,
    /// Stream offset of `buf[0]`.
    base: u64,
    /// Stream offset before which bytes may be discarded.
    keep: u64,
    /// A point of known location (stream offset in `location.offset`), never after `keep`.
    cursor: Location,
    /// Whether `buf[0]` is at the start of a line.
    starts_line: bool,
    /// Calls to `refill` so far: the size of the buffered game changes only then.
    fills: u64,
    /// Games started so far.
    games: u64,
    /// Whether the previous game ended with a termination marker.
    previous_marked: bool,
    /// Whether the input follows a game read elsewhere ([`Reader::follows_marked_game`]).
    follows_game: bool,
    /// File-level notes already given (once per input).
    noted_tab: bool,
    noted_cr: bool,
    noted_literal_cr: bool,
    noted_long_line: bool,
    noted_bom: bool,
    /// Whether any token was found.
    found_any: bool,
    /// Whether the current game was too large to keep, and its bytes were dropped.
    skipped: bool,
    /// Whether the visitor was told that the current game began. A game begins at its
    /// first tag or movetext token; text before that (a stray `[pgn]`) belongs to no game.
    announced: bool,
    /// Stream offsets of the current game's tag names, to tell a blank line inside the
    /// tag section from the start of a new game.
    tag_names: Vec<(u64, u64)>,
    /// Comments read before a game's first tag, handed to it as leading comments.
    pending_comments: Vec<(u64, u64)>,
    /// The dialect's known tag names, by length.
    known_tags: KnownTags,
}

/// The reader's state between games, to read a game again from there.
#[derive(Clone, Copy, Debug)]
struct Mark {
    /// The stream offset where the reading of the game began.
    offset: u64,
    cursor: Location,
    games: u64,
    previous_marked: bool,
    /// The once-per-input notes given so far.
    noted: [bool; 5],
    found_any: bool,
}

/// Known tag names grouped by length, in their order within each length, so that a
/// name is compared only with the names it could equal.
struct KnownTags {
    /// The names, stably sorted by length.
    names: Vec<&'static [u8]>,
    /// `starts[n]`: the index of the first name of length `n` or more.
    starts: Vec<usize>,
    /// The names by [`fold_hash`].
    buckets: Vec<Vec<&'static [u8]>>,
}

const TAG_BUCKETS: usize = 128;

/// A hash of a name that ignores ASCII case, into `0..TAG_BUCKETS`: its length and its
/// first and last bytes tell the known names well enough apart, at the cost of no loop.
#[inline]
fn fold_hash(name: &[u8]) -> usize {
    match name {
        [first, .., last] => {
            (name.len() + 3 * usize::from(first | 0x20) + 7 * usize::from(last | 0x20))
                % TAG_BUCKETS
        }
        [only] => usize::from(only | 0x20) % TAG_BUCKETS,
        [] => 0,
    }
}

impl KnownTags {
    fn new(known: &'static [&'static str]) -> KnownTags {
        let mut names: Vec<&'static [u8]> = known.iter().map(|k| k.as_bytes()).collect();
        names.sort_by_key(|k| k.len());
        let longest = names.last().map_or(0, |k| k.len());
        let starts = (0..=longest + 1)
            .map(|n| names.partition_point(|k| k.len() < n))
            .collect();
        let mut buckets = vec![Vec::new(); TAG_BUCKETS];
        for &k in &names {
            buckets[fold_hash(k)].push(k);
        }
        KnownTags {
            names,
            starts,
            buckets,
        }
    }

    /// Whether `name` is a known name exactly as written: most names are, and then no
    /// case needs correcting. One bucket of a case-folded hash holds every candidate.
    #[inline]
    fn written_as_known(&self, name: &[u8]) -> bool {
        self.buckets[fold_hash(name)].contains(&name)
    }

    /// The known names of length `len`.
    fn of_len(&self, len: usize) -> &[&'static [u8]] {
        match (self.starts.get(len), self.starts.get(len + 1)) {
            (Some(&from), Some(&to)) => &self.names[from..to],
            _ => &[],
        }
    }
}

impl Reader<io::Empty> {
    /// Reads `bytes` where they are, as a whole input ([`Reader::from_vec`],
    /// [`Reader::ends_with_bytes`]), with `read`, then gives them back as they were: one
    /// game's text read again (a large game written as it is read) is not copied into a
    /// buffer as large.
    ///
    /// ```
    /// use notation::{Dialect, GameBuilder, RawRules, ReadOptions, Reader};
    /// let mut text = b"1. e4 e5 *".to_vec();
    /// let options = ReadOptions::default();
    /// let moves = Reader::lend(&mut text, Dialect::PGN, options, |reader| {
    ///     let mut builder = GameBuilder::new(&RawRules::PGN, options);
    ///     reader.read_game(&mut builder).ok().flatten().map(|g| g.game.node_count())
    /// });
    /// assert_eq!(moves, Some(2));
    /// assert_eq!(text, b"1. e4 e5 *");
    /// ```
    pub fn lend<T>(
        bytes: &mut Vec<u8>,
        dialect: Dialect,
        options: ReadOptions,
        read: impl FnOnce(&mut Reader<io::Empty>) -> T,
    ) -> T {
        let mut reader = Reader::from_vec(io::empty(), std::mem::take(bytes), dialect, options)
            .ends_with_bytes();
        let out = read(&mut reader);
        // Never read past them, nor compacted: the bytes are as they were.
        *bytes = reader.into_vec();
        out
    }
}

impl<R: Read> Reader<R> {
    /// A reader of `inner` in the given dialect.
    pub fn new(inner: R, dialect: Dialect, options: ReadOptions) -> Reader<R> {
        Reader::with_buffer(inner, dialect, options, INITIAL_BUFFER)
    }

    /// A reader of `inner` whose buffer starts at `bytes` bytes rather than 64 KiB: for a
    /// short input of known length (one game's text, read again), one byte more than its
    /// length holds it all. The buffer grows as it must, as it does for any reader.
    ///
    /// ```
    /// use notation::{Dialect, RawRules, ReadOptions, Reader, GameBuilder};
    /// let text = b"1. e4 e5 *";
    /// let mut reader = Reader::with_buffer(&text[..], Dialect::PGN, ReadOptions::default(), text.len() + 1);
    /// let mut builder = GameBuilder::new(&RawRules::PGN, ReadOptions::default());
    /// let game = reader.read_game(&mut builder)?.expect("one game");
    /// assert_eq!(game.game.mainline().count(), 2);
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn with_buffer(
        inner: R,
        dialect: Dialect,
        options: ReadOptions,
        bytes: usize,
    ) -> Reader<R> {
        Reader {
            inner,
            skim: true,
            skim_game: true,
            continuations: SymbolContinuations::new(dialect.move_marks),
            dialect,
            options,
            buf: vec![0; bytes.max(1)],
            filled: 0,
            preloaded: 0,
            cut_short: false,
            ends_with_bytes: false,
            no_room: false,
            pos: 0,
            eof: false,
            base: 0,
            keep: 0,
            cursor: Location {
                line: 1,
                column: 1,
                offset: 0,
            },
            starts_line: true,
            fills: 0,
            games: 0,
            previous_marked: false,
            follows_game: false,
            noted_tab: false,
            noted_cr: false,
            noted_literal_cr: false,
            noted_long_line: false,
            noted_bom: false,
            found_any: false,
            skipped: false,
            announced: false,
            tag_names: Vec::new(),
            pending_comments: Vec::new(),
            known_tags: KnownTags::new(dialect.known_tags),
        }
    }

    /// A reader of `bytes`, then of `inner`: the bytes become the reader's buffer as they
    /// are, with no copy (a chunk of a larger input, already in memory, is read in place
    /// rather than through [`Read`], which would copy it into a buffer as large).
    ///
    /// Everything reads as from a stream of the same bytes: they are handed to the lexer
    /// a read's worth at a time, and the limits of [`ReadOptions`] apply to each game as
    /// they would. [`Reader::into_vec`] gives the buffer back.
    ///
    /// ```
    /// use notation::{Dialect, RawRules, ReadOptions, Reader, GameBuilder};
    /// let text = b"1. e4 e5 *\n\n1. d4 *\n".to_vec();
    /// let mut reader = Reader::from_vec(std::io::empty(), text, Dialect::PGN, ReadOptions::default());
    /// let mut builder = GameBuilder::new(&RawRules::PGN, ReadOptions::default());
    /// assert!(reader.read_game(&mut builder)?.is_some());
    /// assert!(reader.read_game(&mut builder)?.is_some());
    /// assert!(reader.read_game(&mut builder)?.is_none());
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn from_vec(inner: R, bytes: Vec<u8>, dialect: Dialect, options: ReadOptions) -> Reader<R> {
        if bytes.is_empty() {
            // A buffer of its own, zeroed as the allocator hands it out.
            return Reader::new(inner, dialect, options);
        }
        let preloaded = bytes.len();
        let mut reader = Reader::with_buffer(inner, dialect, options, 0);
        reader.buf = bytes;
        reader.preloaded = preloaded;
        reader
    }

    /// Says that the bytes given to [`Reader::from_vec`] end inside a game that could not
    /// be held in memory (what follows them in `inner` starts at a later line): a game
    /// that needs more bytes than they hold is reported as
    /// [`DiagnosticKind::GameOutOfMemory`] and skipped, as it is when the reader's own
    /// buffer cannot grow.
    pub fn cut_short(mut self) -> Reader<R> {
        self.cut_short = true;
        self
    }

    /// Says that the input is a part of a larger one that starts right after a game
    /// ended by a termination marker, with no empty line between them (a chunk of it,
    /// read on its own): its first game is noted as a reader of the whole input notes it
    /// ([`DiagnosticKind::MissingBlankLine`], where the dialect wants the empty line).
    pub fn follows_marked_game(mut self) -> Reader<R> {
        self.follows_game = true;
        self.previous_marked = true;
        self
    }

    /// Says that the bytes given to [`Reader::from_vec`] are the whole input: once they
    /// are read, the input is over, and `inner` is not read (nor the buffer made room in
    /// for it, which would grow it past the bytes).
    pub fn ends_with_bytes(mut self) -> Reader<R> {
        self.ends_with_bytes = true;
        self
    }

    /// The reader's buffer, for another reader to reuse ([`Reader::from_vec`]); what it
    /// holds is of no further use.
    pub fn into_vec(self) -> Vec<u8> {
        self.buf
    }

    /// The dialect being read.
    pub fn dialect(&self) -> Dialect {
        self.dialect
    }

    /// The options in force.
    pub fn options(&self) -> ReadOptions {
        self.options
    }

    /// Number of games read so far.
    pub fn games_read(&self) -> u64 {
        self.games
    }

    /// The input's bytes in `span` while the buffer holds them: those of the game just
    /// read ([`RawGame::span`]) stay there until the next game is read, so a caller that
    /// needs them only now and then (a game that cannot be written) need not copy every
    /// game's. `None` for bytes no longer (or not yet) held. A game skipped as too large
    /// to hold has no whole text: its diagnostics say so.
    pub fn buffered(&self, span: Span) -> Option<&[u8]> {
        let start = usize::try_from(span.start.checked_sub(self.base)?).ok()?;
        let end = usize::try_from(span.end.checked_sub(self.base)?).ok()?;
        self.buf[..self.filled].get(start..end)
    }

    /// Reads every game into the visitor.
    pub fn visit_all<V: Visitor>(&mut self, visitor: &mut V) -> io::Result<()> {
        while self.read_game(visitor)?.is_some() {}
        Ok(())
    }

    /// The index of the game being read (or about to be).
    fn game_index(&self) -> u64 {
        if self.announced {
            self.games.saturating_sub(1)
        } else {
            self.games
        }
    }

    /// The stream offset of the lexing position.
    fn offset(&self) -> u64 {
        self.base + self.pos as u64
    }

    fn index(&self, offset: u64) -> usize {
        usize::try_from(offset.saturating_sub(self.base)).unwrap_or(usize::MAX)
    }

    fn slice(&self, (start, end): (u64, u64)) -> &[u8] {
        &self.buf[self.index(start)..self.index(end)]
    }

    /// The location of a stream offset at or after the cursor.
    fn location(&self, offset: u64) -> Location {
        let from = self.index(self.cursor.offset);
        locate(&self.buf[from..self.filled], self.cursor, offset)
    }

    /// What the tokens read from the cursor on are located in.
    fn origin(&self) -> Origin<'_> {
        let from = self.index(self.cursor.offset);
        Origin {
            game: self.game_index(),
            text: &self.buf[from..self.filled],
            text_location: self.cursor,
        }
    }

    fn diagnostic(&self, kind: DiagnosticKind, offset: u64) -> Diagnostic {
        Diagnostic {
            severity: self.options.severity(&kind),
            location: self.location(offset),
            game: self.game_index(),
            kind,
        }
    }

    /// Reads more input, compacting or growing the buffer. Returns false at the end of
    /// input, and when the buffer cannot grow to hold more of the current game (then
    /// `no_room` is set, and [`Reader::read_one`] reports and skips the game).
    fn refill(&mut self) -> io::Result<bool> {
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
                Err(e) => return Err(e),
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
            Err(e) => Err(e),
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

    /// Moves the cursor to `offset`, noting lines over 255 bytes on the way.
    fn advance_cursor<V: Visitor>(&mut self, offset: u64, visitor: &mut V) {
        if offset <= self.cursor.offset {
            return;
        }
        let from = self.index(self.cursor.offset);
        let to = self.index(offset).min(self.filled);
        if !self.noted_long_line && self.dialect.strict_layout {
            let text = &self.buf[from..to];
            let long = first_long_line(text, self.cursor.column)
                .or_else(|| long_last_line(text, self.cursor.column))
                .map(|(begin, length)| (self.cursor.offset + begin as u64, length));
            if let Some((at, length)) = long {
                self.noted_long_line = true;
                let d = self.diagnostic(DiagnosticKind::LongLine { length }, at);
                visitor.diagnostic(d);
            }
        }
        self.cursor = self.location(offset);
    }

    /// Reads the next game into the visitor. Returns `None` at the end of input.
    ///
    /// I/O errors are returned; everything the input itself holds, however broken, is
    /// read or reported through [`Visitor::diagnostic`]. Text that belongs to no game is
    /// reported there too, outside `begin_game` … `end_game`.
    pub fn read_game<V: Visitor>(&mut self, visitor: &mut V) -> io::Result<Option<V::Output>> {
        // How many times the game was read again.
        let mut again = 0;
        loop {
            let mark = self.mark();
            if let Some(output) = self.read_one(visitor)? {
                // A game still buffered whole may be read again, as the visitor asks (a
                // second reading, and the first again if the second is not kept).
                if again < MAX_READINGS_AGAIN
                    && !self.skipped
                    && mark.offset >= self.base
                    && visitor.read_again(mark.offset)
                {
                    drop(output);
                    self.rewind(mark);
                    again += 1;
                    continue;
                }
                return Ok(Some(output));
            }
            if again > 0 {
                // The same bytes read the same way again give a game.
                return Err(io::Error::other(
                    "a game read again was not found again (a bug in the reader)",
                ));
            }
            if self.eof && self.pos >= self.filled {
                return Ok(None);
            }
        }
    }

    /// Where the reader is between games: what [`Reader::rewind`] goes back to.
    fn mark(&self) -> Mark {
        Mark {
            offset: self.offset(),
            cursor: self.cursor,
            games: self.games,
            previous_marked: self.previous_marked,
            noted: [
                self.noted_tab,
                self.noted_cr,
                self.noted_literal_cr,
                self.noted_long_line,
                self.noted_bom,
            ],
            found_any: self.found_any,
        }
    }

    /// Goes back to a mark taken before the game just read, whose bytes are all still
    /// buffered (the buffer keeps a game's bytes from where its reading began until it
    /// ends), to read it again as it was read the first time.
    fn rewind(&mut self, mark: Mark) {
        self.pos = self.index(mark.offset);
        self.keep = mark.offset;
        self.cursor = mark.cursor;
        self.games = mark.games;
        self.previous_marked = mark.previous_marked;
        [
            self.noted_tab,
            self.noted_cr,
            self.noted_literal_cr,
            self.noted_long_line,
            self.noted_bom,
        ] = mark.noted;
        self.found_any = mark.found_any;
    }

    /// Reads up to the end of the next game, or of text that belongs to no game.
    fn read_one<V: Visitor>(&mut self, visitor: &mut V) -> io::Result<Option<V::Output>> {
        self.announced = false;
        self.skim_game = self.skim;
        self.skipped = false;
        let mut state = State::Before;
        let mut game_start: u64 = self.offset();
        let mut last_end: u64 = game_start;
        let mut depth: usize = 0;
        // Depth at which a skipped variation started, when skipping.
        let mut skip_from: Option<usize> = None;
        // Whether the visitor broke off the game.
        let mut broken = false;
        let mut result_tag: Option<GameResult> = None;
        let mut marker: Option<GameResult> = None;
        let mut any_movetext = false;
        let mut began = false;
        // A bare integer waiting to see whether periods follow (`12 ...`).
        let mut pending_number: Option<(u64, u64, u64)> = None;
        // End of the last move token, for a `*` glued to it.
        let mut move_end: u64 = u64::MAX;
        let mut noted_unexpected = false;
        self.tag_names.clear();
        self.pending_comments.clear();

        macro_rules! emit {
            ($kind:expr, $offset:expr) => {{
                let d = self.diagnostic($kind, $offset);
                visitor.diagnostic(d);
            }};
        }
        macro_rules! call {
            ($e:expr) => {
                if !broken && skip_from.is_none() {
                    if let ControlFlow::Break(()) = $e {
                        broken = true;
                    }
                }
            };
        }

        if !self.noted_bom && self.base == 0 && self.pos == 0 {
            // A UTF-8 byte order mark at the very start of the input.
            while self.filled < 3 && self.refill()? {}
            self.noted_bom = true;
            if self.buf[..self.filled].starts_with(b"\xef\xbb\xbf") {
                let d = self.diagnostic(DiagnosticKind::ByteOrderMark, 0);
                visitor.diagnostic(d);
                self.pos = 3;
                self.keep = 3;
                // The mark is no character of the first line.
                self.cursor.offset = 3;
                game_start = 3;
                last_end = 3;
            }
        }

        // The buffered size of the game grows only when input is read or the game begins:
        // it is checked again only then.
        let mut size_checked = None;
        let ending = loop {
            if size_checked != Some((self.fills, began)) {
                size_checked = Some((self.fills, began));
                // What is held of the game, from its first byte (the buffer also keeps
                // the white space before it, from where its reading began).
                let first = if began {
                    game_start
                } else {
                    self.keep.min(self.cursor.offset)
                };
                let held = self.filled - self.index(first);
                let too_large = if self.no_room {
                    // The buffer could not grow to hold more of the game (see `grow`).
                    self.no_room = false;
                    Some(DiagnosticKind::GameOutOfMemory { held })
                } else if began && held > self.options.max_game_bytes {
                    Some(DiagnosticKind::GameTooLarge {
                        limit: self.options.max_game_bytes,
                    })
                } else {
                    None
                };
                if let Some(kind) = too_large {
                    let at = if began { game_start } else { self.offset() };
                    emit!(kind, at);
                    broken = true;
                    self.skipped = true;
                    self.skip_to_next_tag_line()?;
                    break Ending::Unmarked;
                }
            }
            // The common tokens are read straight from the buffer; the general path below
            // takes over at the first token they do not cover (or at the buffer's end).
            if pending_number.is_none() {
                match state {
                    // Two copies of the loop: the one of a stopped game tests nothing
                    // per token to know it tells the visitor nothing.
                    State::Movetext if skip_from.is_none() && !broken => {
                        any_movetext |= self.movetext_fast::<V, false>(
                            visitor,
                            &mut depth,
                            &mut skip_from,
                            &mut broken,
                            &mut move_end,
                            &mut last_end,
                        );
                    }
                    State::Movetext if skip_from.is_none() => {
                        any_movetext |= self.movetext_fast::<V, true>(
                            visitor,
                            &mut depth,
                            &mut skip_from,
                            &mut broken,
                            &mut move_end,
                            &mut last_end,
                        );
                    }
                    State::Tags => {
                        self.tags_fast(
                            visitor,
                            &mut broken,
                            skip_from,
                            &mut result_tag,
                            &mut last_end,
                        );
                    }
                    _ => {}
                }
            }
            let mut gap = Gap::default();
            let lexed = lex_inline(
                &self.buf[..self.filled],
                self.pos,
                self.eof,
                self.starts_line,
                &self.dialect,
                &mut gap,
            );
            let token = match lexed {
                Lexed::NeedMore => {
                    self.refill()?;
                    continue;
                }
                Lexed::End => {
                    self.pos = self.filled;
                    break Ending::Unmarked;
                }
                Lexed::Token { token, start, end } => (
                    Kind::of(token),
                    self.base + start as u64,
                    self.base + end as u64,
                ),
            };
            let (token, start, end) = token;
            if (gap.tab | gap.lone_cr | gap.literal_cr)
                && ((gap.tab && !self.noted_tab)
                    || (gap.lone_cr && !self.noted_cr)
                    || (gap.literal_cr && !self.noted_literal_cr))
            {
                if gap.tab && !self.noted_tab {
                    self.noted_tab = true;
                    emit!(DiagnosticKind::Tab, start);
                }
                if gap.lone_cr && !self.noted_cr {
                    self.noted_cr = true;
                    emit!(DiagnosticKind::LoneCarriageReturn, start);
                }
                if gap.literal_cr && !self.noted_literal_cr {
                    self.noted_literal_cr = true;
                    // Where the first one is, in the white space before the token.
                    let gap_text = &self.buf[self.pos.min(self.index(start))..self.index(start)];
                    let at = memchr::memmem::find(gap_text, b"\\r").unwrap_or(0);
                    emit!(
                        DiagnosticKind::LiteralCarriageReturn,
                        self.base + (self.pos + at) as u64
                    );
                }
            }

            // A bare integer followed by something other than periods is a move number.
            if let Some((number, s, e)) = pending_number {
                if !matches!(token, Kind::Periods(_)) {
                    pending_number = None;
                    let origin = self.origin();
                    let at = origin.at(s, e);
                    call!(visitor.move_number(number, false, at));
                }
            }

            if matches!(state, State::Before) {
                match token {
                    Kind::Escape => {
                        self.pos = self.index(end);
                        continue;
                    }
                    Kind::Comment { .. } | Kind::LineComment => {
                        // Held for the game that follows.
                        if !began {
                            self.begin(visitor, &mut began, &mut game_start, start);
                        }
                        self.pending_comments.push(token.content(start, end));
                        if let Kind::Comment { unterminated: true } = token {
                            emit!(DiagnosticKind::UnterminatedComment, start);
                        }
                        self.pos = self.index(end);
                        last_end = end;
                        continue;
                    }
                    Kind::TagOpen => {
                        if !began {
                            self.begin(visitor, &mut began, &mut game_start, start);
                        }
                        state = State::Tags;
                        // fall through to the tag handling below
                    }
                    _ => {
                        if !began {
                            self.begin(visitor, &mut began, &mut game_start, start);
                        }
                        self.announce(visitor);
                        if self.dialect.strict_layout {
                            emit!(DiagnosticKind::NoTags, start);
                        }
                        state = State::Movetext;
                        call!(visitor.begin_movetext());
                        self.flush_pending_comments(visitor, &mut broken);
                    }
                }
                if (self.games > 0 || self.follows_game)
                    && self.previous_marked
                    && !gap.blank_line
                    && self.pending_comments.is_empty()
                    && self.dialect.strict_layout
                {
                    emit!(DiagnosticKind::MissingBlankLine, start);
                }
            }

            match state {
                // Left above, for every token.
                State::Before => {}
                State::Tags => match token {
                    Kind::TagOpen => {
                        if gap.blank_line && !self.tag_names.is_empty() {
                            // Either a blank line inside the tag section or a new game
                            // after a game with no movetext: a repeated tag name tells.
                            let name = self.peek_tag_name(self.index(end));
                            let repeated = match name {
                                Some(name) => self.tag_names.iter().any(|&n| self.slice(n) == name),
                                None => false,
                            };
                            if repeated {
                                break Ending::Unmarked;
                            }
                            emit!(DiagnosticKind::BlankLineInTags, start);
                        }
                        state = State::TagName { open: start };
                    }
                    Kind::Escape => {}
                    _ => {
                        // The movetext begins.
                        if !gap.blank_line
                            && !self.tag_names.is_empty()
                            && self.dialect.strict_layout
                        {
                            emit!(DiagnosticKind::NoBlankLineBeforeMovetext, start);
                        }
                        self.announce(visitor);
                        state = State::Movetext;
                        call!(visitor.begin_movetext());
                        self.flush_pending_comments(visitor, &mut broken);
                        // Handled below as movetext.
                    }
                },
                State::TagName { open } => match token {
                    Kind::Symbol => {
                        state = State::TagValue {
                            open,
                            name: (start, end),
                        };
                    }
                    Kind::String { .. } => {
                        emit!(DiagnosticKind::MissingTagName, start);
                        state = State::TagClose {
                            open,
                            name: (start, start),
                            value: (start, end),
                        };
                    }
                    Kind::TagClose => {
                        emit!(DiagnosticKind::MissingTagName, open);
                        state = State::Tags;
                    }
                    _ => {
                        emit!(DiagnosticKind::MissingTagName, open);
                        state = State::Tags;
                        continue;
                    }
                },
                State::TagValue { open, name } => match token {
                    Kind::String { unterminated } => {
                        if unterminated {
                            emit!(DiagnosticKind::UnterminatedString, start);
                            // `[White "Foo]`: the bracket is in the string.
                            let body = self.slice((start + 1, end));
                            if body.last() == Some(&b']') {
                                self.deliver_tag(
                                    visitor,
                                    &mut broken,
                                    skip_from,
                                    open,
                                    name,
                                    (start + 1, end - 1),
                                    &mut result_tag,
                                );
                                state = State::Tags;
                                self.pos = self.index(end);
                                last_end = end;
                                continue;
                            }
                            state = State::TagClose {
                                open,
                                name,
                                value: (start + 1, end),
                            };
                        } else {
                            state = State::TagClose {
                                open,
                                name,
                                value: (start + 1, end - 1),
                            };
                        }
                    }
                    Kind::Symbol => {
                        let n = String::from_utf8_lossy(self.slice(name)).into_owned();
                        emit!(DiagnosticKind::UnquotedTagValue { name: n }, start);
                        state = State::TagClose {
                            open,
                            name,
                            value: (start, end),
                        };
                    }
                    Kind::TagClose => {
                        let n = String::from_utf8_lossy(self.slice(name)).into_owned();
                        emit!(DiagnosticKind::MissingTagValue { name: n }, start);
                        state = State::Tags;
                    }
                    _ => {
                        let n = String::from_utf8_lossy(self.slice(name)).into_owned();
                        emit!(DiagnosticKind::MissingTagValue { name: n }, start);
                        state = State::Tags;
                        continue;
                    }
                },
                State::TagClose { open, name, value } => {
                    if !matches!(token, Kind::TagClose) {
                        let n = String::from_utf8_lossy(self.slice(name)).into_owned();
                        emit!(DiagnosticKind::UnclosedTag { name: n }, open);
                    }
                    self.deliver_tag(
                        visitor,
                        &mut broken,
                        skip_from,
                        open,
                        name,
                        value,
                        &mut result_tag,
                    );
                    state = State::Tags;
                    if !matches!(token, Kind::TagClose) {
                        // Read this token again in the tag section.
                        continue;
                    }
                }
                State::Movetext => {}
            }

            if matches!(state, State::Movetext) {
                match token {
                    Kind::TagOpen => {
                        // The next game begins; this one had no marker.
                        break Ending::Unmarked;
                    }
                    Kind::Symbol => {
                        any_movetext = true;
                        let sym = self.slice((start, end));
                        let mut result = self.dialect.read_result(sym);
                        if sym == b"-"
                            && result.is_some()
                            && (depth > 0 || !self.game_follows(end)?)
                        {
                            // A lone `-` ends a game only where the next game or the end
                            // of the input follows it: elsewhere it is read as a move.
                            result = None;
                        }
                        let sym = self.slice((start, end));
                        if let Some((r, lenient)) = result {
                            if depth == 0 {
                                if lenient {
                                    emit!(
                                        DiagnosticKind::LenientResult {
                                            found: crate::encoding::decode(sym).0.into_owned(),
                                            result: r.to_string(),
                                        },
                                        start
                                    );
                                }
                                marker = Some(r);
                                self.pos = self.index(end);
                                last_end = end;
                                let origin = self.origin();
                                let at = origin.at(start, end);
                                let _ = visitor.result(r, at);
                                break Ending::Marker;
                            }
                            emit!(
                                DiagnosticKind::UnexpectedToken(format!(
                                    "termination marker {} inside a variation",
                                    r
                                )),
                                start
                            );
                        } else if sym.iter().all(u8::is_ascii_digit)
                            && sym.first() != Some(&b'0')
                            && !self.dialect.inline_setups
                        {
                            // PGN: a move number with no period (`12 e4`, `12 . e4`).
                            pending_number = Some((digits_value(sym), start, end));
                        } else if let Some(nag) = evaluation_symbol(sym) {
                            emit!(
                                DiagnosticKind::UnexpectedToken(format!(
                                    "evaluation symbol {} read as {}",
                                    crate::encoding::decode(sym).0,
                                    nag
                                )),
                                start
                            );
                            let origin = self.origin();
                            let at = origin.at(start, end);
                            call!(visitor.nag(nag, at));
                        } else {
                            move_end = end;
                            let origin = self.origin();
                            let at = origin.at(start, end);
                            call!(visitor.move_token(sym, at));
                        }
                    }
                    Kind::MoveNumber { number, periods } => {
                        any_movetext = true;
                        let origin = self.origin();
                        let at = origin.at(start, end);
                        call!(visitor.move_number(number, periods >= 3, at));
                    }
                    Kind::Periods(n) => {
                        if let Some((number, s, _)) = pending_number.take() {
                            let origin = self.origin();
                            let at = origin.at(s, end);
                            call!(visitor.move_number(number, n >= 3, at));
                        }
                    }
                    Kind::Nag(n) => {
                        any_movetext = true;
                        match u16::try_from(n).ok().filter(|&n| n <= self.dialect.max_nag) {
                            Some(n) => {
                                let origin = self.origin();
                                let at = origin.at(start, end);
                                call!(visitor.nag(Nag(n), at));
                            }
                            None => emit!(DiagnosticKind::NagOutOfRange(n), start),
                        }
                    }
                    Kind::Suffix => match Nag::from_suffix(self.slice((start, end))) {
                        Some(nag) => {
                            let origin = self.origin();
                            let at = origin.at(start, end);
                            call!(visitor.nag(nag, at));
                        }
                        // `!!!`, `(!?!!!)`: draughts strengths with no glyph of their own.
                        None => match Nag::from_move_strength(self.slice((start, end))) {
                            Some(nag) => {
                                emit!(
                                    DiagnosticKind::UnusualAnnotation {
                                        found: String::from_utf8_lossy(self.slice((start, end)))
                                            .into_owned(),
                                        read_as: nag,
                                    },
                                    start
                                );
                                let origin = self.origin();
                                let at = origin.at(start, end);
                                call!(visitor.nag(nag, at));
                            }
                            None => emit!(
                                DiagnosticKind::UnexpectedToken(format!(
                                    "annotation {}",
                                    String::from_utf8_lossy(self.slice((start, end)))
                                )),
                                start
                            ),
                        },
                    },
                    Kind::Comment { .. } | Kind::LineComment => {
                        any_movetext = true;
                        if let Kind::Comment { unterminated: true } = token {
                            emit!(DiagnosticKind::UnterminatedComment, start);
                        }
                        let (ts, te) = token.content(start, end);
                        let origin = self.origin();
                        let at = origin.at(start, end);
                        call!(visitor.comment(self.slice((ts, te)), at));
                    }
                    Kind::Escape => emit!(DiagnosticKind::EscapeInGame, start),
                    Kind::VariationOpen => {
                        any_movetext = true;
                        depth += 1;
                        if !broken && skip_from.is_none() {
                            let origin = self.origin();
                            let at = origin.at(start, end);
                            match visitor.begin_variation(at) {
                                ControlFlow::Continue(Skip(true)) => skip_from = Some(depth),
                                ControlFlow::Continue(Skip(false)) => {}
                                ControlFlow::Break(()) => broken = true,
                            }
                        }
                    }
                    Kind::VariationClose => {
                        if depth == 0 {
                            emit!(DiagnosticKind::UnmatchedParenthesis, start);
                        } else {
                            if skip_from == Some(depth) {
                                skip_from = None;
                            } else {
                                let origin = self.origin();
                                let at = origin.at(start, end);
                                call!(visitor.end_variation(at));
                            }
                            depth -= 1;
                        }
                    }
                    Kind::Asterisk => {
                        if self.dialect.attached_asterisk_is_annotation && move_end == start {
                            let origin = self.origin();
                            let at = origin.at(start, end);
                            call!(visitor.nag(Nag::FORCED, at));
                        } else if depth == 0 {
                            marker = Some(GameResult::Unknown);
                            self.pos = self.index(end);
                            last_end = end;
                            let origin = self.origin();
                            let at = origin.at(start, end);
                            let _ = visitor.result(GameResult::Unknown, at);
                            break Ending::Marker;
                        } else {
                            emit!(
                                DiagnosticKind::UnexpectedToken(
                                    "termination marker * inside a variation".to_owned()
                                ),
                                start
                            );
                        }
                    }
                    Kind::Reserved(c) => emit!(DiagnosticKind::ReservedToken(char::from(c)), start),
                    Kind::Setup { unterminated } => {
                        any_movetext = true;
                        if unterminated {
                            emit!(DiagnosticKind::UnterminatedSetup, start);
                        }
                        let origin = self.origin();
                        let at = origin.at(start, end);
                        call!(visitor.setup(self.slice(token.content(start, end)), at));
                    }
                    Kind::TagClose => emit!(DiagnosticKind::UnexpectedToken("]".to_owned()), start),
                    Kind::String { .. } => emit!(
                        DiagnosticKind::UnexpectedToken("string in the movetext".to_owned()),
                        start
                    ),
                    Kind::Unexpected(byte) => {
                        if !noted_unexpected {
                            noted_unexpected = true;
                            emit!(DiagnosticKind::UnexpectedByte { byte }, start);
                        }
                    }
                }
            }
            self.pos = self.index(end);
            last_end = end;
        };

        if !began {
            // Nothing but white space and escape lines: the input is over.
            if !self.found_any && self.eof {
                self.found_any = true;
                let at = self.offset();
                let d = Diagnostic {
                    severity: self.options.severity(&DiagnosticKind::EmptyInput),
                    location: self.location(at),
                    game: 0,
                    kind: DiagnosticKind::EmptyInput,
                };
                visitor.diagnostic(d);
            }
            return Ok(None);
        }

        if let Some((number, s, e)) = pending_number.take() {
            let origin = self.origin();
            let at = origin.at(s, e);
            call!(visitor.move_number(number, false, at));
        }
        if let State::TagClose { open, name, value } = state {
            let n = String::from_utf8_lossy(self.slice(name)).into_owned();
            emit!(DiagnosticKind::UnclosedTag { name: n }, open);
            self.deliver_tag(
                visitor,
                &mut broken,
                skip_from,
                open,
                name,
                value,
                &mut result_tag,
            );
            state = State::Tags;
        }
        if !self.announced {
            // No tag and no movetext: comments after the last game, a stray `[pgn]`.
            let what = if self.pending_comments.is_empty() {
                format!(
                    "text {:?}",
                    String::from_utf8_lossy(self.slice((game_start, last_end.max(game_start))))
                )
            } else {
                "comment after the last game".to_owned()
            };
            emit!(DiagnosticKind::OutsideGame(what), game_start);
            self.pending_comments.clear();
            self.keep = last_end.max(self.keep);
            self.advance_cursor(self.keep, visitor);
            return Ok(None);
        }

        if matches!(state, State::TagName { .. } | State::TagValue { .. }) {
            emit!(
                DiagnosticKind::UnclosedTag {
                    name: String::new()
                },
                last_end
            );
        }
        if !matches!(state, State::Movetext) {
            if !any_movetext && self.dialect.strict_layout {
                emit!(DiagnosticKind::NoMovetext, last_end);
            }
            call!(visitor.begin_movetext());
            self.flush_pending_comments(visitor, &mut broken);
        }
        if depth > 0 {
            emit!(DiagnosticKind::UnclosedVariation { count: depth }, last_end);
            skip_from = None;
            for _ in 0..depth {
                let origin = self.origin();
                let at = origin.at(last_end, last_end);
                call!(visitor.end_variation(at));
            }
        }
        match (ending, marker) {
            (Ending::Marker, Some(m)) => {
                if let Some(tag) = result_tag {
                    if tag != m {
                        emit!(
                            DiagnosticKind::ResultMismatch {
                                marker: m.to_string(),
                                tag: tag.to_string()
                            },
                            last_end
                        );
                    }
                }
            }
            _ => {
                let (result, origin) = match result_tag {
                    Some(r) => (r, "the Result tag"),
                    None => (GameResult::Unknown, "nothing"),
                };
                // A skipped game's end is not where it ends: nothing to say about it.
                if !self.skipped
                    && (any_movetext || state == State::Movetext)
                    && self.dialect.strict_layout
                {
                    emit!(
                        DiagnosticKind::MissingResult {
                            result: result.to_string(),
                            origin
                        },
                        last_end
                    );
                }
                let origin = self.origin();
                let at = origin.at(last_end, last_end);
                let _ = visitor.result(result, at);
            }
        }
        let _ = broken;
        self.previous_marked = ending == Ending::Marker;
        self.advance_cursor(last_end, visitor);
        // A game too large to keep has no raw text left (or only some of it, which is not
        // the game as written).
        let (raw_start, raw_end) = if self.skipped || game_start < self.base {
            (0, 0)
        } else {
            let start = self.index(game_start).min(self.filled);
            (start, self.index(last_end).clamp(start, self.filled))
        };
        let raw = RawGame {
            bytes: &self.buf[raw_start..raw_end],
            span: Span::new(game_start, last_end.max(game_start)),
            index: self.games - 1,
        };
        let output = visitor.end_game(raw);
        // Past a game skipped as too large, reading goes on at the next tag line.
        self.keep = last_end.max(self.offset());
        if self.pos < self.index(last_end) {
            self.pos = self.index(last_end);
        }
        Ok(Some(output))
    }

    fn begin<V: Visitor>(
        &mut self,
        visitor: &mut V,
        began: &mut bool,
        game_start: &mut u64,
        start: u64,
    ) {
        *began = true;
        self.found_any = true;
        *game_start = start;
        // `keep` stays where the reading of the game began, so that the game can be
        // read again from there (`read_again`).
        self.advance_cursor(start, visitor);
    }

    /// Tells the visitor that the game begins, once.
    fn announce<V: Visitor>(&mut self, visitor: &mut V) {
        if !self.announced {
            self.announced = true;
            self.games += 1;
            visitor.begin_game();
        }
    }

    fn flush_pending_comments<V: Visitor>(&mut self, visitor: &mut V, broken: &mut bool) {
        let comments = std::mem::take(&mut self.pending_comments);
        for &(s, e) in &comments {
            if *broken {
                break;
            }
            let origin = self.origin();
            let at = origin.at(s, e);
            if let ControlFlow::Break(()) = visitor.comment(self.slice((s, e)), at) {
                *broken = true;
            }
        }
        self.pending_comments = comments;
        self.pending_comments.clear();
    }

    #[allow(clippy::too_many_arguments)]
    fn deliver_tag<V: Visitor>(
        &mut self,
        visitor: &mut V,
        broken: &mut bool,
        skip_from: Option<usize>,
        open: u64,
        name: (u64, u64),
        value: (u64, u64),
        result_tag: &mut Option<GameResult>,
    ) {
        self.deliver_tag_plain(
            visitor, broken, skip_from, open, name, value, result_tag, false,
        );
    }

    /// [`Reader::deliver_tag`]; `plain` tells that the name is known to be of letters,
    /// digits and `_` only, so that the odd-name check can be left out.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn deliver_tag_plain<V: Visitor>(
        &mut self,
        visitor: &mut V,
        broken: &mut bool,
        skip_from: Option<usize>,
        open: u64,
        name: (u64, u64),
        value: (u64, u64),
        result_tag: &mut Option<GameResult>,
        plain: bool,
    ) {
        let name_bytes = self.slice(name);
        if name_bytes.is_empty() {
            return;
        }
        if !plain
            && !name_bytes
                .iter()
                .all(|b| b.is_ascii_alphanumeric() || *b == b'_')
        {
            let d = self.diagnostic(
                DiagnosticKind::OddTagName {
                    name: String::from_utf8_lossy(name_bytes).into_owned(),
                },
                name.0,
            );
            visitor.diagnostic(d);
        }
        // A known name written with another case is corrected, unless the name is also
        // known as written: one pass over the names of the same length tells both.
        let mut canonical = None;
        let names = if self.known_tags.written_as_known(name_bytes) {
            // Known as written (the common case): nothing to correct.
            &[][..]
        } else {
            self.known_tags.of_len(name_bytes.len())
        };
        for &k in names {
            if k == name_bytes {
                canonical = None;
                break;
            }
            if canonical.is_none() && k.eq_ignore_ascii_case(name_bytes) {
                canonical = Some(k);
            }
        }
        if let Some(c) = canonical {
            let d = self.diagnostic(
                DiagnosticKind::TagNameCase {
                    found: String::from_utf8_lossy(name_bytes).into_owned(),
                    canonical: String::from_utf8_lossy(c).into_owned(),
                },
                name.0,
            );
            visitor.diagnostic(d);
        }
        self.tag_names.push(name);
        self.announce(visitor);
        let is_result = match canonical {
            Some(c) => c == b"Result",
            None => self.slice(name) == b"Result",
        };
        if is_result {
            *result_tag = self.read_result_tag(visitor, value);
        }
        let name_final: &[u8] = match canonical {
            Some(c) => c,
            None => self.slice(name),
        };
        if !*broken && skip_from.is_none() {
            let origin = self.origin();
            let at = origin.at(open, value.1);
            let raw = RawValue(self.slice(value));
            if let ControlFlow::Break(()) = visitor.tag(name_final, raw, at) {
                *broken = true;
            }
        }
    }

    /// Reads the value of a game's Result tag (its stream span), noting a value in a form
    /// the standard does not have that is read as a result (`1:0`, `-`).
    #[inline(always)]
    fn read_result_tag<V: Visitor>(
        &mut self,
        visitor: &mut V,
        value: (u64, u64),
    ) -> Option<GameResult> {
        let (result, lenient) = {
            let unescaped = crate::lexer::unescape(self.slice(value));
            self.dialect.read_result(unescaped.trim_ascii())?
        };
        if lenient {
            self.note_lenient_result_tag(visitor, value, result);
        }
        Some(result)
    }

    #[cold]
    fn note_lenient_result_tag<V: Visitor>(
        &mut self,
        visitor: &mut V,
        value: (u64, u64),
        result: GameResult,
    ) {
        let unescaped = crate::lexer::unescape(self.slice(value));
        let written = crate::encoding::decode(unescaped.trim_ascii())
            .0
            .into_owned();
        let kind = DiagnosticKind::BadTagValue {
            name: "Result".to_owned(),
            message: format!("\"{written}\" is not a termination marker; read as {result}"),
        };
        let d = self.diagnostic(kind, value.0);
        visitor.diagnostic(d);
    }

    /// Reads the common movetext tokens (moves, move numbers, brace comments on one line,
    /// NAGs, suffixes, parentheses) straight from the buffer, with buffer indices, while
    /// the visitor takes every token. Stops before anything else: a token that may
    /// continue past the buffer, one that needs a diagnostic, a result, white space that
    /// must be noted. Everything it reads, it reads exactly as the general path would.
    /// Returns whether it read a token that counts as movetext. `MUTED`: the visitor
    /// stopped the game (it is `broken`), and is told nothing of the tokens.
    #[allow(clippy::too_many_arguments)]
    fn movetext_fast<V: Visitor, const MUTED: bool>(
        &mut self,
        visitor: &mut V,
        depth: &mut usize,
        skip_from: &mut Option<usize>,
        broken: &mut bool,
        move_end: &mut u64,
        last_end: &mut u64,
    ) -> bool {
        // A game the visitor stopped is lexed on here all the same, to find where it ends
        // as fast as any other: the visitor is told nothing more (its diagnostics still
        // come, as the general path gives them).
        let muted = MUTED;
        let buf = &self.buf[..self.filled];
        let len = buf.len();
        let base = self.base;
        let text = &buf[self.index(self.cursor.offset)..];
        let text_location = self.cursor;
        let game = self.game_index();
        let origin = Origin {
            game,
            text,
            text_location,
        };
        let at = |s: usize, e: usize| origin.at(base + s as u64, base + e as u64);
        // Tabs and lone carriage returns are noted once per input: after that they are
        // white space like any other.
        let (tab_ok, cr_ok) = (self.noted_tab, self.noted_cr);
        let max_nag = u64::from(self.dialect.max_nag);
        let mut any = false;
        let mut pos = self.pos;
        // The end of the last token read.
        let mut done = pos;
        let mut skim = self.skim_game;
        loop {
            if muted && skim {
                // Runs of plain moves and move numbers tell nothing here: passed over
                // whole, up to the first token this loop must look at. Once a run is
                // short (a comment after every move), the loop reads the rest of the
                // game alone: a block costs more than a few tokens.
                let end = crate::skim::plain_tokens_end(buf, pos);
                if end - pos < SKIM_PAYS_FROM {
                    skim = false;
                }
                if end > pos {
                    any = true;
                    done = end;
                    pos = end;
                }
            }
            let (start, first) = match buf.get(pos..pos + 2) {
                // Most tokens follow one space.
                Some(&[b' ', b]) if !is_space(b) => (pos + 1, b),
                _ => loop {
                    match buf.get(pos) {
                        Some(b' ' | b'\n' | 0x0b | 0x0c) => pos += 1,
                        Some(b'\t') if tab_ok => pos += 1,
                        Some(b'\r') if cr_ok || buf.get(pos + 1) == Some(&b'\n') => pos += 1,
                        Some(&b) => break (pos, b),
                        None => break (pos, b'\0'),
                    }
                },
            };
            if start >= len {
                break;
            }
            let (end, flow) = match first {
                b'0'..=b'9' => {
                    let mut d = start + 1;
                    while d < len && buf[d].is_ascii_digit() {
                        d += 1;
                    }
                    if d >= len {
                        break;
                    }
                    if buf[d] != b'.' {
                        // A move starting with a digit (PDN's `32-28`, `28x19`). A bare
                        // integer waits for its periods, and termination markers start with
                        // digits too: those are left to the general path.
                        let mut end = d;
                        while end < len && crate::lexer::is_symbol_byte(buf[end]) {
                            end += 1;
                        }
                        if end == d
                            || end >= len
                            || buf[end] == b'('
                            || self.continuations.may_continue(&buf[end..])
                            || self.dialect.read_result(&buf[start..end]).is_some()
                        {
                            break;
                        }
                        any = true;
                        *move_end = base + end as u64;
                        (
                            end,
                            mute(muted, || {
                                visitor.move_token(&buf[start..end], at(start, end))
                            }),
                        )
                    } else {
                        // A move number: `12.`, `12...`.
                        let mut end = d + 1;
                        while end < len && buf[end] == b'.' {
                            end += 1;
                        }
                        if end >= len {
                            break;
                        }
                        any = true;
                        let number = digits_value(&buf[start..d]);
                        let at = at(start, end);
                        (
                            end,
                            mute(muted, || visitor.move_number(number, end - d >= 3, at)),
                        )
                    }
                }
                b'{' => {
                    let body = &buf[start + 1..];
                    // A comment with a line end may hide a new game: the general path.
                    match memchr::memchr2(b'}', b'\n', body) {
                        Some(i) if body[i] == b'}' => {
                            any = true;
                            let end = start + 2 + i;
                            (
                                end,
                                mute(muted, || visitor.comment(&body[..i], at(start, end))),
                            )
                        }
                        _ => break,
                    }
                }
                b'$' => {
                    let mut end = start + 1;
                    while end < len && buf[end].is_ascii_digit() {
                        end += 1;
                    }
                    if end == start + 1 || end >= len {
                        break;
                    }
                    let n = digits_value(&buf[start + 1..end]);
                    if n > max_nag {
                        break;
                    }
                    any = true;
                    (
                        end,
                        mute(muted, || visitor.nag(Nag(n as u16), at(start, end))),
                    )
                }
                b'!' | b'?' => {
                    let mut end = start + 1;
                    while end < len && matches!(buf[end], b'!' | b'?') {
                        end += 1;
                    }
                    if end >= len {
                        break;
                    }
                    let Some(nag) = Nag::from_suffix(&buf[start..end]) else {
                        break;
                    };
                    (end, mute(muted, || visitor.nag(nag, at(start, end))))
                }
                b'(' => {
                    // `(!)` is a suffix, and the byte after `(` must be known to tell.
                    if matches!(buf.get(start + 1), None | Some(b'!' | b'?')) {
                        break;
                    }
                    any = true;
                    *depth += 1;
                    done = start + 1;
                    pos = done;
                    let flow = if muted {
                        ControlFlow::Continue(Skip(false))
                    } else {
                        visitor.begin_variation(at(start, start + 1))
                    };
                    match flow {
                        ControlFlow::Continue(Skip(false)) => continue,
                        ControlFlow::Continue(Skip(true)) => *skip_from = Some(*depth),
                        ControlFlow::Break(()) => *broken = true,
                    }
                    break;
                }
                b')' if *depth > 0 => {
                    let end = start + 1;
                    let flow = mute(muted, || visitor.end_variation(at(start, end)));
                    *depth -= 1;
                    (end, flow)
                }
                // `%` may start an escape line and `/` a set-up; `N` alone and symbols
                // starting with these bytes may be evaluation symbols (or `½-½`).
                // (`0xb1` and `0xbd` are `±` and `½` in Latin-1 and Windows-1252.)
                b'%' | b'/' | b'=' | b'+' | b'-' | 0xb1 | 0xbd | 0xc2 | 0xe2 => break,
                b if crate::lexer::is_symbol_byte(b) => {
                    let mut end = start + 1;
                    while end < len && crate::lexer::is_symbol_byte(buf[end]) {
                        end += 1;
                    }
                    // `e8(Q)` and a move with its mark (`exd6e.p.`) are one token; the
                    // general path tells.
                    if end >= len
                        || buf[end] == b'('
                        || (b == b'N' && end == start + 1)
                        || self.continuations.may_continue(&buf[end..])
                    {
                        break;
                    }
                    any = true;
                    *move_end = base + end as u64;
                    (
                        end,
                        mute(muted, || {
                            visitor.move_token(&buf[start..end], at(start, end))
                        }),
                    )
                }
                _ => break,
            };
            done = end;
            pos = end;
            if flow.is_break() {
                *broken = true;
                break;
            }
        }
        if done != self.pos {
            self.pos = done;
            *last_end = self.base + done as u64;
        }
        self.skim_game = skim;
        any
    }

    /// Reads complete tag pairs written the plain way (`[Name "value"]`, the name of
    /// letters, digits and `_`, the value with no escape, single line ends between pairs)
    /// straight from the buffer. Stops before anything else, for the general path.
    fn tags_fast<V: Visitor>(
        &mut self,
        visitor: &mut V,
        broken: &mut bool,
        skip_from: Option<usize>,
        result_tag: &mut Option<GameResult>,
        last_end: &mut u64,
    ) {
        loop {
            let buf = &self.buf[..self.filled];
            let len = buf.len();
            let mut pos = self.pos;
            // A blank line is for the general path: a new game may begin there.
            let mut newline = false;
            let open = loop {
                match buf.get(pos) {
                    Some(b' ' | 0x0b | 0x0c) => pos += 1,
                    Some(b'\n') if !newline => {
                        newline = true;
                        pos += 1;
                    }
                    Some(b'\r') if buf.get(pos + 1) == Some(&b'\n') => pos += 1,
                    Some(b'\t') if self.noted_tab => pos += 1,
                    Some(b'[') => break pos,
                    _ => return,
                }
            };
            // The name follows the bracket; a digit first would make a move number.
            let name_start = open + 1;
            let mut p = name_start;
            while p < len && crate::lexer::is_name_byte(buf[p]) {
                p += 1;
            }
            let name_end = p;
            if name_end == name_start || buf[name_start].is_ascii_digit() {
                return;
            }
            while p < len && buf[p] == b' ' {
                p += 1;
            }
            if p == name_end || p >= len || buf[p] != b'"' {
                return;
            }
            let value_start = p + 1;
            let value_end = match memchr::memchr3(b'"', b'\\', b'\n', &buf[value_start..]) {
                Some(i) if buf[value_start + i] == b'"' => value_start + i,
                _ => return,
            };
            p = value_end + 1;
            while p < len && buf[p] == b' ' {
                p += 1;
            }
            if p >= len || buf[p] != b']' {
                return;
            }
            let end = p + 1;
            let base = self.base;
            let off = |i: usize| base + i as u64;
            if self.known_tags.written_as_known(&buf[name_start..name_end]) {
                // What `deliver_tag` does for a plain, known name, with buffer indices.
                self.tag_names.push((off(name_start), off(name_end)));
                self.announce(visitor);
                if &self.buf[name_start..name_end] == b"Result" {
                    *result_tag = self.read_result_tag(visitor, (off(value_start), off(value_end)));
                }
                let buf = &self.buf[..self.filled];
                let name = &buf[name_start..name_end];
                if !*broken && skip_from.is_none() {
                    let origin = Origin {
                        game: self.game_index(),
                        text: &buf[self.index(self.cursor.offset)..],
                        text_location: self.cursor,
                    };
                    let at = origin.at(off(open), off(value_end));
                    let raw = RawValue(&buf[value_start..value_end]);
                    if let ControlFlow::Break(()) = visitor.tag(name, raw, at) {
                        *broken = true;
                    }
                }
            } else {
                self.deliver_tag_plain(
                    visitor,
                    broken,
                    skip_from,
                    off(open),
                    (off(name_start), off(name_end)),
                    (off(value_start), off(value_end)),
                    result_tag,
                    true,
                );
            }
            self.pos = end;
            *last_end = off(end);
        }
    }

    /// Whether only white space (line ends written `\r` included) lies between the stream
    /// offset `from` and a `[` or the end of the input, reading more input if needed:
    /// where a lone `-` ends a game, as federation files write an unknown result.
    fn game_follows(&mut self, from: u64) -> io::Result<bool> {
        loop {
            let text = &self.buf[..self.filled];
            let mut at = self.index(from).min(text.len());
            let mut gap = Gap::default();
            loop {
                at = crate::lexer::skip_whitespace(text, at, &mut gap);
                if text.get(at) == Some(&b'\\')
                    && crate::lexer::literal_cr(text, at, self.eof) == Backslash::LineEnd
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
                    if crate::lexer::literal_cr(text, at, self.eof) == Backslash::NeedMore => {}
                Some(_) => return Ok(false),
            }
            self.refill()?;
        }
    }

    /// The tag name after a `[` at buffer index `from`, reading more input if needed.
    fn peek_tag_name(&mut self, from: usize) -> Option<Vec<u8>> {
        loop {
            let rest = &self.buf[from.min(self.filled)..self.filled];
            let skip = rest.iter().take_while(|b| b.is_ascii_whitespace()).count();
            let name_len = rest[skip..]
                .iter()
                .take_while(|&&b| crate::lexer::is_symbol_byte(b))
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
    fn skip_to_next_tag_line(&mut self) -> io::Result<()> {
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

/// `call()`'s flow, or going on without calling it when `muted`.
#[inline(always)]
fn mute(muted: bool, call: impl FnOnce() -> ControlFlow<()>) -> ControlFlow<()> {
    if muted {
        ControlFlow::Continue(())
    } else {
        call()
    }
}

fn digits_value(digits: &[u8]) -> u64 {
    digits.iter().fold(0u64, |n, &d| {
        n.saturating_mul(10).saturating_add(u64::from(d - b'0'))
    })
}

/// Evaluation symbols that some files write in the movetext instead of their glyphs.
#[inline]
fn evaluation_symbol(symbol: &[u8]) -> Option<Nag> {
    // Told apart from moves by the first byte: `=`, `+`, `-`, `N` alone, or `±`,
    // `∓`, `⩲`, `⩱`, `∞`, `□` (0xC2…, 0xE2…).
    match symbol {
        [b'N'] => Some(Nag(146)),
        // `±` in Latin-1 or Windows-1252: read as the UTF-8 `±` is, so that a file
        // re-encoded as UTF-8 reads the same.
        [0xb1] => Some(Nag(16)),
        [b'=' | b'+' | b'-' | 0xc2 | 0xe2, ..] => evaluation_symbol_spelled(symbol),
        _ => None,
    }
}

fn evaluation_symbol_spelled(symbol: &[u8]) -> Option<Nag> {
    Some(Nag(match symbol {
        b"=" => 10,
        b"+=" | b"+/=" => 14,
        b"=+" | b"=/+" => 15,
        b"+/-" => 16,
        b"-/+" => 17,
        b"+-" => 18,
        b"-+" => 19,
        b"N" => 146,
        s if s == "±".as_bytes() => 16,
        s if s == "∓".as_bytes() => 17,
        s if s == "⩲".as_bytes() => 14,
        s if s == "⩱".as_bytes() => 15,
        s if s == "∞".as_bytes() => 13,
        s if s == "□".as_bytes() => 7,
        _ => return None,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What a reading shows of games whose visitor stops at their movetext: where each
    /// ends, its diagnostics, and what the reader says at the end.
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

    /// A source that gives a few bytes per read, so that tokens and blocks meet the
    /// buffer's end everywhere.
    struct Trickle<'a> {
        text: &'a [u8],
        step: usize,
    }

    impl io::Read for Trickle<'_> {
        fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
            let n = self.step.min(out.len()).min(self.text.len());
            out[..n].copy_from_slice(&self.text[..n]);
            self.text = &self.text[n..];
            Ok(n)
        }
    }

    fn stopped_reading(text: &[u8], dialect: Dialect, skim: bool, step: usize) -> Vec<String> {
        let source = Trickle { text, step };
        let mut reader = Reader::with_buffer(source, dialect, ReadOptions::default(), 16);
        reader.skim = skim;
        let mut visitor = StopAtMovetext::default();
        while reader
            .read_game(&mut visitor)
            .expect("reading from memory")
            .is_some()
        {}
        visitor.seen
    }

    /// The texts the skim is held to the token loop on: the project's corpus, the
    /// shared corpus when there is one, and edits of them that put in what the skim must
    /// stop at (markers, comments, variations, glyphs, blank lines, tabs, tag lines).
    fn skim_texts() -> Vec<(std::path::PathBuf, Vec<u8>)> {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let mut dirs = vec![root.join("corpus/pgn"), root.join("corpus/pdn")];
        if let Some(shared) = std::env::var_os("NOTATION_SHARED_CORPUS") {
            // As `.ci/run` sets it: relative to the workspace.
            let shared = root.join(shared);
            assert!(shared.is_dir(), "no shared corpus at {}", shared.display());
            dirs.extend(
                [
                    "pgn/bench",
                    "pgn/python-chess",
                    "pgn/scalachess",
                    "pdn/pdn3-conformance/succeed",
                    "pdn/pdn3-conformance/fail",
                ]
                .map(|d| shared.join(d)),
            );
        }
        let mut texts = Vec::new();
        for dir in dirs {
            let Ok(entries) = std::fs::read_dir(&dir) else {
                continue;
            };
            for entry in entries.flatten() {
                let path = entry.path();
                if path.is_file() {
                    if let Ok(text) = std::fs::read(&path) {
                        texts.push((path, text));
                    }
                }
            }
        }
        texts.sort();
        texts
    }

    /// A stopped game is passed over block by block as the token loop passes it over:
    /// the same games, ending at the same bytes, with the same diagnostics.
    #[test]
    fn skimming_a_stopped_game_is_reading_it_token_by_token() {
        let inserts: [&[u8]; 21] = [
            b" 1-0 ",
            b"*",
            b" {c} ",
            b"(",
            b")",
            b" $1 ",
            b"!",
            b" N ",
            b"\n\n",
            b"\t",
            b"\r\n",
            b"\n[Event \"x\"]\n",
            b"\n%x\n",
            b" 12 ",
            b"1.",
            b"\xc3\xa9",
            b" {a\n\n[Event \"y\"]\nb} ",
            b" {a\nb} ",
            b"{",
            b"}",
            b" {[%clk 0:01:00]} ",
        ];
        let mut seed = 7u64;
        let mut next = |n: usize| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) as usize % n
        };
        let mut games = 0;
        for (path, text) in skim_texts() {
            let dialect = if path.extension().is_some_and(|e| e == "pdn") {
                Dialect::PDN
            } else {
                Dialect::PGN
            };
            // Long files are held to it whole once, and cut for the edits.
            let mut variants = vec![(text.clone(), 1 << 16)];
            let head = &text[..text.len().min(20_000)];
            for _ in 0..4 {
                let mut edited = head.to_vec();
                for _ in 0..1 + next(8) {
                    let at = next(edited.len() + 1);
                    let insert = inserts[next(inserts.len())];
                    edited.splice(at..at, insert.iter().copied());
                }
                variants.push((edited, 1 + next(100)));
            }
            for (text, step) in variants {
                let skimmed = stopped_reading(&text, dialect, true, step);
                let read = stopped_reading(&text, dialect, false, step);
                games += read.iter().filter(|s| s.starts_with("game")).count();
                assert_eq!(
                    skimmed,
                    read,
                    "{} (read {step} bytes at a time)",
                    path.display()
                );
            }
        }
        assert!(games > 500, "{games} games read");
    }

    /// [`first_long_line`] the plain way: every line, one by one.
    fn first_long_line_naive(text: &[u8], column: u64) -> Option<(usize, u64)> {
        let mut line_begin: i64 = -(column as i64 - 1);
        for i in memchr::memchr_iter(b'\n', text) {
            let mut end = i;
            if end > 0 && text[end - 1] == b'\r' {
                end -= 1;
            }
            let length = end as i64 - line_begin;
            if length > 255 {
                return Some((line_begin.max(0) as usize, length as u64));
            }
            line_begin = i as i64 + 1;
        }
        None
    }

    #[test]
    fn long_lines_are_found_as_line_by_line() {
        // Lines of lengths around the limit, with LF or CR LF ends, from various columns.
        let mut seed = 12345u64;
        let mut next = |n: u64| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) % n
        };
        for _ in 0..2000 {
            let mut text = Vec::new();
            for _ in 0..next(6) {
                let len = match next(4) {
                    0 => next(20),
                    1 => 250 + next(10),
                    _ => next(600),
                };
                text.extend(std::iter::repeat_n(b'x', len as usize));
                match next(3) {
                    0 => text.extend_from_slice(b"\r\n"),
                    1 => text.push(b'\n'),
                    _ => text.push(b'\r'),
                }
            }
            let column = 1 + next(300);
            assert_eq!(
                first_long_line(&text, column),
                first_long_line_naive(&text, column),
                "{column} {:?}",
                String::from_utf8_lossy(&text)
            );
        }
    }
}
