//! The streaming reader: finds games and their tokens in any `io::Read`, in a reused
//! buffer, and hands them to a [`Visitor`].
//!
//! Memory is bounded by the largest game, not by the input: the buffer holds the
//! current game (so that its raw text stays available) and is compacted between games.
//!
//! [`Reader`] (here) holds what lasts from game to game; `buffer` the input's bytes and
//! `boundary` what is looked for ahead in them; `game` reads one game, a token at a time
//! ([`Reader::read_one`]), with its tag section (`tags`), its movetext (`movetext`, and
//! `movetext_fast` for the common tokens) and its end (`ending`); `token`, `known_tags`
//! and `lines` are what those read with.

mod boundary;
mod buffer;
mod ending;
mod game;
mod known_tags;
mod lines;
mod movetext;
mod movetext_fast;
mod tags;
mod token;

use std::io::{self, Read};

use crate::dialect::Dialect;
use crate::lexer::SymbolContinuations;
use crate::location::Location;
use crate::options::ReadOptions;
use crate::span::Span;
use crate::visitor::{GameText, Visitor};
pub use buffer::reserve_game_room;
use buffer::{Buffer, INITIAL_BUFFER};
use known_tags::KnownTags;

/// How many times a game is read again, at most, as its visitor asks
/// ([`Visitor::read_again`]).
const MAX_READINGS_AGAIN: u32 = 3;

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
    /// The input's bytes held, and where reading is in them.
    buffer: Buffer<R>,
    /// Whether a stopped game's plain tokens are passed over a block at a time
    /// ([`crate::skim`]); off only where it is held to the token loop
    /// ([`crate::differential`]).
    skim: bool,
    dialect: Dialect,
    /// Where a symbol may go on past its symbol bytes (a move mark of the dialect, a
    /// backslash), for the fast path.
    continuations: SymbolContinuations,
    options: ReadOptions,
    /// Games started so far.
    games: u64,
    /// Whether the previous game ended with a termination marker.
    previous_marked: bool,
    /// Whether the input follows a game read elsewhere ([`Reader::follows_marked_game`]).
    follows_game: bool,
    /// What the input was noted for (once per input).
    notes: Notes,
    /// Whether any token was found.
    found_any: bool,
    /// Whether the game read last was too large to keep, and its bytes were dropped.
    skipped: bool,
    /// Stream offsets of the current game's tag names, to tell a blank line inside the
    /// tag section from the start of a new game.
    tag_names: Vec<(u64, u64)>,
    /// Comments read before a game's first tag, handed to it as leading comments.
    pending_comments: Vec<(u64, u64)>,
    /// The dialect's known tag names, by length.
    known_tags: KnownTags,
}

/// The notes a reader gives once per input, given so far.
#[derive(Clone, Copy, Debug, Default)]
struct Notes {
    /// A tab in white space.
    tab: bool,
    /// A lone carriage return.
    lone_cr: bool,
    /// A line end written `\r`.
    literal_cr: bool,
    /// A line longer than 255 bytes.
    long_line: bool,
    /// Whether the input's start was looked at for a byte order mark.
    byte_order_mark: bool,
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
    notes: Notes,
    found_any: bool,
}

impl Reader<io::Empty> {
    /// Reads a game's text where it is, as a whole input ([`Reader::from_vec`],
    /// [`Reader::ends_with_bytes`]), with `read`, then gives it back as it was: one game's
    /// text read again (a large game written as it is read) is not copied into a buffer as
    /// large.
    ///
    /// The text is read as it was where the game was read: beginning a line or not
    /// ([`GameText::starts_line`]), and ending where its last token ends, so that a `\r`
    /// written as text last in it is text (one before a line end was white space there,
    /// outside the game's text), not the line end that a `\r` last in a file is.
    ///
    /// ```
    /// use notation::{Dialect, GameBuilder, GameText, RawRules, ReadOptions, Reader};
    /// let mut text = GameText { bytes: b"1. e4 e5 *".to_vec(), starts_line: true };
    /// let options = ReadOptions::default();
    /// let moves = Reader::lend(&mut text, Dialect::PGN, options, |reader| {
    ///     let mut builder = GameBuilder::new(&RawRules::PGN, options);
    ///     reader.read_game(&mut builder).ok().flatten().map(|g| g.game.node_count())
    /// });
    /// assert_eq!(moves, Some(2));
    /// assert_eq!(text.bytes, b"1. e4 e5 *");
    /// ```
    pub fn lend<T>(
        text: &mut GameText,
        dialect: Dialect,
        options: ReadOptions,
        read: impl FnOnce(&mut Reader<io::Empty>) -> T,
    ) -> T {
        let bytes = &mut text.bytes;
        let was_empty = bytes.is_empty();
        let mut reader = Reader::from_vec(io::empty(), std::mem::take(bytes), dialect, options)
            .ends_with_bytes()
            .reading_game_text(text.starts_line);
        let out = read(&mut reader);
        // Never read past them, nor compacted: the bytes are as they were. No bytes are
        // read from a buffer of the reader's own (`from_vec`), which is not given back.
        let held = reader.into_vec();
        if !was_empty {
            *bytes = held;
        }
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
        Reader::with(Buffer::new(inner, bytes), dialect, options)
    }

    /// A reader of what `buffer` holds and reads.
    fn with(buffer: Buffer<R>, dialect: Dialect, options: ReadOptions) -> Reader<R> {
        Reader {
            buffer,
            skim: true,
            continuations: SymbolContinuations::new(dialect.move_marks),
            dialect,
            options,
            games: 0,
            previous_marked: false,
            follows_game: false,
            notes: Notes::default(),
            found_any: false,
            skipped: false,
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
        Reader::with(Buffer::from_vec(inner, bytes), dialect, options)
    }

    /// Says that the bytes given to [`Reader::from_vec`] end inside a game that could not
    /// be held in memory (what follows them in `inner` starts at a later line): a game
    /// that needs more bytes than they hold is reported as
    /// [`DiagnosticKind::GameOutOfMemory`](crate::DiagnosticKind::GameOutOfMemory) and
    /// skipped, as it is when the reader's own buffer cannot grow.
    pub fn cut_short(mut self) -> Reader<R> {
        self.buffer.cut_short = true;
        self
    }

    /// Says that the input is a part of a larger one that starts right after a game
    /// ended by a termination marker, with no empty line between them (a chunk of it,
    /// read on its own): its first game is noted as a reader of the whole input notes it
    /// ([`DiagnosticKind::MissingBlankLine`](crate::DiagnosticKind::MissingBlankLine),
    /// where the dialect wants the empty line).
    pub fn follows_marked_game(mut self) -> Reader<R> {
        self.follows_game = true;
        self.previous_marked = true;
        self
    }

    /// Says that the input's lines may be of any length: its text was made by a program
    /// (a table's rows written as text, a movetext to a line), and a line longer than
    /// 255 bytes is not noted
    /// ([`DiagnosticKind::LongLine`](crate::DiagnosticKind::LongLine)).
    pub fn long_lines_allowed(mut self) -> Reader<R> {
        self.notes.long_line = true;
        self
    }

    /// A reader of one game's text read again alone, as it was read where it was: its
    /// first byte beginning a line or not ([`RawGame::starts_line`](crate::RawGame::starts_line):
    /// a `%` there starts an escape line only at the start of one), and its end no line end
    /// (the game's last token ended there: a `\r` last in it is text). [`Reader::lend`]
    /// reads a text so without copying it.
    pub fn game_text(
        inner: R,
        starts_line: bool,
        dialect: Dialect,
        options: ReadOptions,
    ) -> Reader<R> {
        Reader::new(inner, dialect, options).reading_game_text(starts_line)
    }

    /// Reads its input as one game's text ([`Reader::game_text`], [`Reader::lend`]).
    fn reading_game_text(mut self, starts_line: bool) -> Reader<R> {
        self.buffer.starts_line = starts_line;
        self.buffer.text_end = true;
        self
    }

    /// Says that the bytes given to [`Reader::from_vec`] are the whole input: once they
    /// are read, the input is over, and `inner` is not read (nor the buffer made room in
    /// for it, which would grow it past the bytes).
    pub fn ends_with_bytes(mut self) -> Reader<R> {
        self.buffer.ends_with_bytes = true;
        self
    }

    /// The reader's buffer, for another reader to reuse ([`Reader::from_vec`]); what it
    /// holds is of no further use.
    pub fn into_vec(self) -> Vec<u8> {
        self.buffer.into_vec()
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
    /// read ([`RawGame::span`](crate::RawGame::span)) stay there until the next game is
    /// read, so a caller that needs them only now and then (a game that cannot be
    /// written) need not copy every game's. `None` for bytes no longer (or not yet) held. A game skipped as too large
    /// to hold has no whole text: its diagnostics say so.
    pub fn buffered(&self, span: Span) -> Option<&[u8]> {
        self.buffer.held(span.start, span.end)
    }

    /// The error that ended the input, once a read failed: the last game read then ends
    /// where the input failed (it is cut short, or whole by chance), and the next
    /// [`Reader::read_game`] gives the error.
    pub fn input_error(&self) -> Option<&io::Error> {
        self.buffer.failed.as_ref()
    }

    /// Reads every game into the visitor.
    pub fn visit_all<V: Visitor>(&mut self, visitor: &mut V) -> io::Result<()> {
        while self.read_game(visitor)?.is_some() {}
        Ok(())
    }

    /// Reads the next game into the visitor. Returns `None` at the end of input.
    ///
    /// I/O errors are returned, after the games read before them: the game a failing read
    /// cut is read as if the input ended there, and the error comes at the next call.
    /// Everything the input itself holds, however broken, is
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
                    && mark.offset >= self.buffer.base
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
            if self.buffer.eof && self.buffer.pos >= self.buffer.filled {
                // An input that failed gave its games up to the error, the one it cut
                // included (as a game that ends early): now the error.
                return self.buffer.failed.take().map_or(Ok(None), Err);
            }
        }
    }

    /// Turns the skim of stopped games ([`crate::skim`]) on or off: off only to hold it
    /// to the token loop ([`crate::differential`]).
    pub(crate) fn set_skim(&mut self, on: bool) {
        self.skim = on;
    }

    /// Where the reader is between games: what [`Reader::rewind`] goes back to.
    fn mark(&self) -> Mark {
        Mark {
            offset: self.buffer.offset(),
            cursor: self.buffer.cursor,
            games: self.games,
            previous_marked: self.previous_marked,
            notes: self.notes,
            found_any: self.found_any,
        }
    }

    /// Goes back to a mark taken before the game just read, whose bytes are all still
    /// buffered (the buffer keeps a game's bytes from where its reading began until it
    /// ends), to read it again as it was read the first time.
    fn rewind(&mut self, mark: Mark) {
        self.buffer.pos = self.buffer.index(mark.offset);
        self.buffer.keep = mark.offset;
        self.buffer.cursor = mark.cursor;
        self.games = mark.games;
        self.previous_marked = mark.previous_marked;
        self.notes = mark.notes;
        self.found_any = mark.found_any;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::differential::skim_agrees;

    /// The move tokens of a game, as read.
    #[derive(Default)]
    struct Tokens(Vec<String>);

    impl Visitor for Tokens {
        type Output = ();
        fn move_token(&mut self, token: &[u8], _: crate::At<'_>) -> std::ops::ControlFlow<()> {
            self.0.push(String::from_utf8_lossy(token).into_owned());
            std::ops::ControlFlow::Continue(())
        }
        fn end_game(&mut self, _: crate::RawGame<'_>) {}
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

    /// Fuzz target `stream`: no bytes lent came back as the 64 KiB buffer a reader of
    /// none makes for itself (a game too large to hold has no bytes, and its text was
    /// given back so).
    #[test]
    fn no_bytes_lent_are_no_bytes_given_back() {
        let mut none = GameText::default();
        let games = Reader::lend(&mut none, Dialect::PGN, ReadOptions::default(), |reader| {
            reader.games_read()
        });
        assert_eq!((games, none.bytes), (0, Vec::new()));
        let mut some = GameText {
            bytes: b"1. e4 *".to_vec(),
            starts_line: true,
        };
        Reader::lend(&mut some, Dialect::PGN, ReadOptions::default(), |_| ());
        assert_eq!(some.bytes, b"1. e4 *");
    }

    /// Fuzz target `stream`: a game's text ending in a `\r` written as text (in its file,
    /// followed by a byte that is no line end) reads again with that `\r` as a token, not
    /// as the line end a `\r` last in a file is; and is given back as it was.
    #[test]
    fn a_literal_cr_last_in_lent_text_is_text() {
        let mut text = GameText {
            bytes: b"[Event \"x\"]\n\n1. e4 \\r".to_vec(),
            starts_line: true,
        };
        let tokens = Reader::lend(&mut text, Dialect::PGN, ReadOptions::default(), |reader| {
            let mut tokens = Tokens::default();
            let _ = reader.read_game(&mut tokens);
            tokens.0
        });
        assert_eq!(tokens, ["e4", "\\r"]);
        assert_eq!(text.bytes, b"[Event \"x\"]\n\n1. e4 \\r");
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
                games += skim_agrees(&text, dialect, ReadOptions::default(), step)
                    .unwrap_or_else(|d| panic!("{}: {d}", path.display()));
            }
        }
        assert!(games > 500, "{games} games read");
    }
}
