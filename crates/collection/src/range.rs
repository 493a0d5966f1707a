//! `--range START..END`: the games of one byte range of an uncompressed input, so that
//! many machines can share one large file (Spark, Hadoop), each reading a range.
//!
//! # What a range reads
//!
//! The games whose first byte lies in `[START, END)`, read as a whole-file read reads
//! them, with the same offsets; the last one is read to its end, past `END` (as Hadoop's
//! line reader gives a line to the split it starts in). For any cut points, the ranges
//! `0..a`, `a..b`, …, `z..` together read exactly the games of the whole file, each once.
//!
//! A reader that starts in the middle of a file cannot know what a reader of the whole
//! file knows there (whether it is in a comment, a variation, a tag section), so "the
//! games whose first byte lies in `[START, END)`" is taken in a stricter sense: a range
//! reads the games from the first sure game boundary at or after `START` to the first
//! at or after `END`, that is the bytes `[sync(START), sync(END))`, where `sync(x)`
//! ([`sync_point`]) is the first sure game boundary at or after `x` (0 for `x = 0`, the
//! input's length when there is none). The games that start between `START` and
//! `sync(START)` belong to the range before, which reads on to that boundary, as
//! Hadoop's line reader gives a line to the split where the line before it ended. Since
//! `sync` is a function of the file's bytes alone (where a search for it starts does not
//! change it) and grows with `x`, the ranges of any cut points are back to back and
//! cover the file: each game is read by exactly one range, as the whole read reads it.
//!
//! # Sure game boundaries
//!
//! A position `p` is one when all of these hold:
//! - the line at `p` looks like a tag pair (`[`, a name of ASCII letters, digits and `_`
//!   that starts with a capital, a space and `"`);
//! - the line before it is blank (spaces, tabs and carriage returns only, at most
//!   [`MAX_BLANK`] of them), and a line end comes before that: the notation reader's own
//!   mark of a new game, which stops even a comment left open (the lexer's
//!   `swallowed_game`), so that no token can run across such a line;
//! - the last word before that blank line is a termination marker standing alone (`1-0`,
//!   `0-1`, `1/2-1/2`, `*`, PDN's `2-0`, `0-2`, `1-1`, `0-0`, and the lone `-` of
//!   federation files; `)` and `}` delimit it), which keeps out a blank line inside a tag
//!   section;
//! - and the notation lexer, run (with the PGN and with the PDN dialect) from the previous
//!   line that meets the first two conditions (or from the file's start, when there is none),
//!   confirms that the reader is then in the movetext or between games with nothing
//!   pending: see `ends_a_game` for what it checks and why. That previous line must lie
//!   less than [`LOOK_BACK`] bytes before `p` (else `p` is no sure boundary), so that
//!   finding one reads a bounded amount.
//!
//! A game that ends with a marker and is followed by the next game's tags with no blank
//! line between them (files of one game to a line) gives no sure boundary: whether that
//! tag line starts a game depends on what came before (a comment left open may hold it).
//! A file with no blank lines between its games is therefore read by one range, the one
//! where it starts, and the others read nothing: correct, but not spread. So is a file
//! whose games end with no marker, whose line ends are lone carriage returns, or whose
//! blank lines hold text (the `\r` some programs write as two characters).
//!
//! Limits of the exactness: a game the reader skips for being too large
//! ([`notation::ReadOptions::max_game_bytes`], 256 MiB by default, or more than the memory
//! left) is skipped up to a point that depends on the reader's buffering, so a range that
//! holds one may not agree with the whole read about the games after it. The diagnostics
//! a reader gives once per input (a tab, a lone carriage return, a long line, a byte
//! order mark) come again in each range that has one.
//!
//! A compressed input has no byte ranges of its text: [`open_range`] refuses it (such
//! files are read whole).

use std::fmt;
use std::io::{self, Read, Seek, SeekFrom};
use std::str::FromStr;

use notation::{Dialect, Gap, Lexed, Token, lex};

use crate::input::Compression;
use crate::pipeline::{ends_with_marker, looks_like_a_tag};

/// How far before a candidate boundary the line the lexer starts from may lie: a game
/// longer than this makes the boundary after it no sure one. The look-back reads at
/// most this much (a game's worth, typically a few kilobytes).
pub const LOOK_BACK: u64 = 8 << 20;

/// The longest blank line a boundary may follow: a longer one is no boundary (so that
/// deciding one reads a bounded amount before it).
pub const MAX_BLANK: usize = 256;

/// How much of a candidate line is looked at to tell whether it looks like a tag pair:
/// a tag name longer than this minus 3 makes it no boundary.
const TAG_PEEK: usize = 260;

/// Bytes before a line feed needed to decide whether the line it ends is blank: the
/// blank line and the line end before it.
const BACK_NEED: u64 = MAX_BLANK as u64 + 2;

/// How much the forward search reads at a time.
const BLOCK: u64 = 64 << 10;

/// The first look-back window; it grows fourfold up to [`LOOK_BACK`].
const FIRST_LOOK_BACK: u64 = 4 << 10;

/// `--range START..END` (or `START..`, to the end of the input): byte offsets in the
/// uncompressed input, with `_` allowed between digits (`1_000_000..2_000_000`). A
/// range reads the games that start in it (see the module's documentation for the
/// precise sense).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ByteRange {
    /// The first byte.
    pub start: u64,
    /// One past the last byte; `None` for the end of the input.
    pub end: Option<u64>,
}

impl fmt::Display for ByteRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.end {
            Some(end) => write!(f, "{}..{end}", self.start),
            None => write!(f, "{}..", self.start),
        }
    }
}

/// Why a `--range` value is not one: each says what was found, for the usage error.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseRangeError {
    /// No `..` between the bounds.
    NoDots(String),
    /// A bound that is not a number of bytes (or too large for one).
    NotANumber {
        /// Which bound: `start` or `end`.
        bound: &'static str,
        /// What was written.
        text: String,
    },
    /// The start comes after the end.
    Backwards {
        /// The start.
        start: u64,
        /// The end.
        end: u64,
    },
}

impl fmt::Display for ParseRangeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseRangeError::NoDots(text) => write!(
                f,
                "{text:?} is no byte range: write START..END or START.. (byte offsets)"
            ),
            ParseRangeError::NotANumber { bound, text } if text.is_empty() => write!(
                f,
                "the range's {bound} is missing: write START..END or START.. (0.. for the whole input)"
            ),
            ParseRangeError::NotANumber { bound, text } => write!(
                f,
                "the range's {bound} {text:?} is not a byte offset (digits, `_` between them)"
            ),
            ParseRangeError::Backwards { start, end } => {
                write!(f, "the range {start}..{end} starts after it ends")
            }
        }
    }
}

impl std::error::Error for ParseRangeError {}

impl FromStr for ByteRange {
    type Err = ParseRangeError;

    fn from_str(text: &str) -> Result<ByteRange, ParseRangeError> {
        let (start, end) = text
            .split_once("..")
            .ok_or_else(|| ParseRangeError::NoDots(text.to_owned()))?;
        let start = parse_offset(start, "start")?;
        let end = match end {
            "" => None,
            end => Some(parse_offset(end, "end")?),
        };
        if let Some(end) = end
            && start > end
        {
            return Err(ParseRangeError::Backwards { start, end });
        }
        Ok(ByteRange { start, end })
    }
}

/// A byte offset: digits, with `_` allowed after the first.
fn parse_offset(text: &str, bound: &'static str) -> Result<u64, ParseRangeError> {
    let error = || ParseRangeError::NotANumber {
        bound,
        text: text.to_owned(),
    };
    if !text.starts_with(|c: char| c.is_ascii_digit())
        || !text.chars().all(|c| c.is_ascii_digit() || c == '_')
    {
        return Err(error());
    }
    text.chars()
        .filter(char::is_ascii_digit)
        .try_fold(0u64, |n, c| {
            n.checked_mul(10)?.checked_add(u64::from(c.to_digit(10)?))
        })
        .ok_or_else(error)
}

/// The first sure game boundary at or after `at` (see the module's documentation), or
/// the input's length when there is none; 0 for `at = 0`. A range starts and ends at
/// such points, so that it reads whole games exactly as a reader of the whole input
/// does.
///
/// It depends on the input's bytes alone, not on where the search starts: it reads
/// forward from `at` and, for each candidate, back to the line before it that the lexer
/// may start from (at most [`LOOK_BACK`] bytes), in memory bounded by that.
pub fn sync_point<R: Read + Seek>(input: &mut R, at: u64) -> io::Result<u64> {
    let len = input.seek(SeekFrom::End(0))?;
    Scan {
        input,
        len,
        look_back: LOOK_BACK,
    }
    .sync_point(at)
}

/// The part of `input` that `range` reads: where it starts in the input (the offset of
/// its first byte, to add to the offsets of what is found in it) and a reader of exactly
/// the bytes `[sync(start), sync(end))` ([`sync_point`]), whose games are those of the
/// range.
///
/// Both ends are found before anything is read, so that the reader stops exactly at the
/// end. An input that starts with the magic number of a compression is refused
/// ([`io::ErrorKind::InvalidInput`]): its bytes are not its text, and it is read whole.
pub fn open_range<R: Read + Seek + Send + 'static>(
    mut input: R,
    range: ByteRange,
) -> io::Result<(u64, Box<dyn Read + Send>)> {
    if let Some(end) = range.end
        && range.start > end
    {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("the range {range} starts after it ends"),
        ));
    }
    input.seek(SeekFrom::Start(0))?;
    let mut magic = Vec::with_capacity(4);
    (&mut input).take(4).read_to_end(&mut magic)?;
    if let Some(compression) = Compression::from_magic(&magic) {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!(
                "the range {range} of a {}-compressed input: a compressed input is read \
                 whole (decompress it first to read it by ranges)",
                compression.name()
            ),
        ));
    }
    let start = sync_point(&mut input, range.start)?;
    let end = match range.end {
        Some(end) => sync_point(&mut input, end)?,
        None => input.seek(SeekFrom::End(0))?,
    };
    input.seek(SeekFrom::Start(start))?;
    Ok((start, Box::new(input.take(end.saturating_sub(start)))))
}

/// A search for sure boundaries in an input of `len` bytes.
struct Scan<'a, R> {
    input: &'a mut R,
    len: u64,
    /// [`LOOK_BACK`], smaller in tests.
    look_back: u64,
}

impl<R: Read + Seek> Scan<'_, R> {
    fn sync_point(&mut self, at: u64) -> io::Result<u64> {
        if at == 0 {
            return Ok(0);
        }
        if at >= self.len {
            return Ok(self.len);
        }
        // Candidates `q >= at`: a line feed at `q - 1 >= at - 1`, `[` after it. Each block
        // of line feeds is read with what deciding them needs before and after it.
        let mut block = at - 1;
        let mut text = Vec::new();
        let mut candidates = Vec::new();
        while block < self.len {
            let block_end = (block + BLOCK).min(self.len);
            let from = block.saturating_sub(BACK_NEED);
            self.read(from, block_end + 1 + TAG_PEEK as u64, &mut text)?;
            candidates.clear();
            let core = usize::try_from(block - from).unwrap_or(usize::MAX);
            let core_end = usize::try_from(block_end - from).unwrap_or(usize::MAX);
            candidates.extend(
                memchr::memmem::find_iter(text.get(core..).unwrap_or_default(), b"\n[")
                    .map(|i| core + i)
                    .take_while(|&i| i < core_end)
                    .filter(|&i| is_boundary_line(&text, i, from == 0)),
            );
            for &i in &candidates {
                let q = from + i as u64 + 1;
                if self.is_sure(q)? {
                    return Ok(q);
                }
            }
            block = block_end;
        }
        Ok(self.len)
    }

    /// Whether the boundary line at `q` is a sure game boundary: the text before it ends
    /// with a marker, and the lexer, from the boundary line before it, says a game ends
    /// there.
    fn is_sure(&mut self, q: u64) -> io::Result<bool> {
        let Some((origin, text)) = self.since_last_boundary(q)? else {
            return Ok(false);
        };
        if !ends_with_marker(&text) {
            return Ok(false);
        }
        // The reader skips a byte order mark at the very start of the input.
        let skip = if origin == 0 && text.starts_with(b"\xef\xbb\xbf") {
            3
        } else {
            0
        };
        Ok([Dialect::PGN, Dialect::PDN]
            .iter()
            .all(|dialect| ends_a_game(&text, skip, dialect)))
    }

    /// The last boundary line before `q` less than `look_back` bytes before it (or the
    /// input's start, when there is no boundary line before `q` and the start is that
    /// close) and the bytes from there to `q`; `None` when neither is that close.
    fn since_last_boundary(&mut self, q: u64) -> io::Result<Option<(u64, Vec<u8>)>> {
        let mut window = FIRST_LOOK_BACK.min(self.look_back);
        let mut text = Vec::new();
        loop {
            // Boundary lines `k` with `q - window < k < q`: line feeds at `k - 1`.
            let low = q.saturating_sub(window);
            let from = low.saturating_sub(BACK_NEED);
            self.read(from, q, &mut text)?;
            let low_index = usize::try_from(low - from).unwrap_or(usize::MAX);
            let last = memchr::memmem::rfind_iter(&text, b"\n[")
                .take_while(|&i| i >= low_index)
                .map(|i| i + 1)
                .find(|&k| from + k as u64 > low && is_boundary_line(&text, k - 1, from == 0));
            if let Some(k) = last {
                return Ok(Some((from + k as u64, text.split_off(k))));
            }
            if low == 0 {
                return Ok(Some((0, text)));
            }
            if window >= self.look_back {
                return Ok(None);
            }
            window = (window * 4).min(self.look_back);
        }
    }

    /// Reads the input's bytes `[from, to)` (fewer at its end) into `buf`.
    fn read(&mut self, from: u64, to: u64, buf: &mut Vec<u8>) -> io::Result<()> {
        buf.clear();
        let to = to.min(self.len);
        if from >= to {
            return Ok(());
        }
        self.input.seek(SeekFrom::Start(from))?;
        (&mut *self.input).take(to - from).read_to_end(buf)?;
        Ok(())
    }
}

/// Whether the line after the line feed at `text[i]` is a boundary line: it looks like a
/// tag pair, and the line before it is blank and follows a line end. `text` holds at
/// least [`BACK_NEED`] bytes before `i` unless it starts at the input's start
/// (`at_start`), and what follows `i` up to [`TAG_PEEK`] bytes or the input's end.
fn is_boundary_line(text: &[u8], i: usize, at_start: bool) -> bool {
    debug_assert!(at_start || i as u64 >= BACK_NEED);
    let line = &text[i + 1..text.len().min(i + 1 + TAG_PEEK)];
    if !(line.first() == Some(&b'[') && looks_like_a_tag(line)) {
        return false;
    }
    let before = &text[i.saturating_sub(MAX_BLANK + 1)..i];
    match memchr::memrchr(b'\n', before) {
        Some(j) => before[j + 1..]
            .iter()
            .all(|b| matches!(b, b' ' | b'\t' | b'\r')),
        // A longer line, or the input's first line.
        None => false,
    }
}

/// Whether the reader of a whole input, at the end of `text` (the bytes from a boundary
/// line or the input's start up to the next boundary line, read from `from`), is in the
/// movetext or between games with nothing pending, so that the next boundary line
/// starts a game, as it does for a reader that starts there.
///
/// A boundary line is where every reading has a token start: no token spans a line end
/// but a brace comment, and the lexer stops a comment at the first boundary line in it.
/// So the tokens from there are those of the whole read, and at most three of them tell
/// the reader's state at the end, whatever its state before (after a boundary line's
/// `[` it is always reading a tag's name):
/// - The last token is a symbol or `*`: read between games, in a tag section or in the
///   movetext, it is movetext (it ends the game, or the next tag line will). A symbol is
///   not when it is the name of a tag (right after `[`) or its unquoted value (after `[`
///   and a name): then the next tag line may be read as more of the same tag section.
///   (`*` is never a name or a value: the reader leaves the tag for the movetext.)
/// - The last token is a comment (one whose last word is a marker, left open, which the
///   next boundary line stops) after a symbol that is no termination marker in either
///   dialect, or after a move number: it is then read in the movetext (a comment between
///   games would be held for the next game, which would start at the comment).
/// - Anything else (a `;` comment or a `%` line holding the marker, a string, an inline
///   set-up): no.
fn ends_a_game(text: &[u8], from: usize, dialect: &Dialect) -> bool {
    let mut last: [Option<Token<'_>>; 3] = [None; 3];
    let mut pos = from;
    loop {
        let mut gap = Gap::default();
        match lex(text, pos, true, true, dialect, &mut gap) {
            Lexed::Token { token, end, .. } if end > pos => {
                last = [last[1], last[2], Some(token)];
                pos = end;
            }
            Lexed::End => break,
            // Neither happens with the whole text given (`eof`); a token that does not
            // advance would loop.
            Lexed::Token { .. } | Lexed::NeedMore => return false,
        }
    }
    let is_result = |symbol: &[u8]| {
        Dialect::PGN.read_result(symbol).is_some() || Dialect::PDN.read_result(symbol).is_some()
    };
    match last {
        [_, Some(Token::TagOpen), Some(Token::Symbol(_))]
        | [
            Some(Token::TagOpen),
            Some(Token::Symbol(_)),
            Some(Token::Symbol(_)),
        ] => false,
        [_, _, Some(Token::Symbol(_) | Token::Asterisk)] => true,
        [_, Some(Token::Symbol(symbol)), Some(Token::Comment { .. })] => !is_result(symbol),
        [
            _,
            Some(Token::MoveNumber { .. }),
            Some(Token::Comment { .. }),
        ] => true,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Cursor;

    use notation::{DiagnosticKind, GameReader, KeepRaw, ReadOptions, Rules};

    fn sync(text: &[u8], at: u64) -> u64 {
        sync_point(&mut Cursor::new(text), at).expect("in memory")
    }

    /// What a whole read and a range must agree on about a game.
    #[derive(Clone, Debug, PartialEq, Eq)]
    pub(super) struct Seen {
        start: u64,
        end: u64,
        text: String,
        moves: usize,
        marked: bool,
        /// Severity, place in the input and message; not the notes a reader gives
        /// once per input, which each range may give again.
        diagnostics: Vec<String>,
    }

    /// The games of `input`, which starts at `offset` in the file.
    pub(super) fn games<R: Rules>(rules: &R, input: impl Read, offset: u64) -> Vec<Seen> {
        let reader =
            GameReader::new(rules, input, ReadOptions::default()).keep_raw(KeepRaw::Always);
        reader
            .map(|game| {
                let game = game.expect("in memory");
                let diagnostics = game
                    .diagnostics
                    .iter()
                    .filter(|d| {
                        !matches!(
                            d.kind,
                            DiagnosticKind::ByteOrderMark
                                | DiagnosticKind::Tab
                                | DiagnosticKind::LoneCarriageReturn
                                | DiagnosticKind::LongLine { .. }
                                | DiagnosticKind::LiteralCarriageReturn
                        )
                    })
                    .map(|d| {
                        let at = if d.location.line > 0 {
                            d.location.offset + offset
                        } else {
                            0
                        };
                        format!("{} at byte {at}: {}", d.severity, d.kind)
                    })
                    .collect();
                Seen {
                    start: game.span.start + offset,
                    end: game.span.end + offset,
                    text: String::from_utf8_lossy(&game.raw.unwrap_or_default()).into_owned(),
                    moves: game.game.node_count(),
                    marked: game.marked,
                    diagnostics,
                }
            })
            .collect()
    }

    /// The offsets where a whole read starts games, with the chess and with the draughts
    /// rules.
    fn game_starts(text: &[u8]) -> [Vec<u64>; 2] {
        let starts = |games: Vec<Seen>| games.iter().map(|g| g.start).collect();
        [
            starts(games(&pgn::ChessRules, text, 0)),
            starts(games(&pdn::DraughtsRules::new(), text, 0)),
        ]
    }

    /// Every sure boundary of `text`, by asking at every offset; each is where a whole
    /// read starts a game, and a cut anywhere splits the games of the whole read in two.
    fn sure_points(text: &[u8]) -> Vec<u64> {
        let mut points: Vec<u64> = (1..=text.len() as u64).map(|at| sync(text, at)).collect();
        points.dedup();
        points.retain(|&p| p < text.len() as u64);
        let shown = String::from_utf8_lossy(text);
        for starts in game_starts(text) {
            for p in &points {
                assert!(starts.contains(p), "{p} starts no game of {shown:?}");
            }
        }
        for cut in 0..=text.len() as u64 {
            split_agrees(&pgn::ChessRules, text, cut);
            split_agrees(&pdn::DraughtsRules::new(), text, cut);
        }
        points
    }

    /// The ranges `0..cut` and `cut..` read the games of the whole of `text`.
    fn split_agrees<R: notation::Rules>(rules: &R, text: &[u8], cut: u64) {
        let mut read = Vec::new();
        for range in [
            ByteRange {
                start: 0,
                end: Some(cut),
            },
            ByteRange {
                start: cut,
                end: None,
            },
        ] {
            let (offset, reader) =
                open_range(Cursor::new(text.to_vec()), range).expect("in memory");
            read.extend(games(rules, reader, offset));
        }
        assert_eq!(
            read,
            games(rules, text, 0),
            "cut at {cut}: {:?}",
            String::from_utf8_lossy(text)
        );
    }

    /// Asserts that a whole read, with either rules, starts no game at `needle`: what a
    /// range starting there would do.
    fn starts_no_game(text: &[u8], needle: &[u8]) {
        let p = at(text, needle);
        for starts in game_starts(text) {
            assert!(
                !starts.contains(&p),
                "a game starts at {p} in {:?}",
                String::from_utf8_lossy(text)
            );
        }
    }

    fn at(text: &[u8], needle: &[u8]) -> u64 {
        memchr::memmem::find(text, needle).expect("in the text") as u64
    }

    #[test]
    fn parses_ranges() {
        assert_eq!(
            "10..20".parse(),
            Ok(ByteRange {
                start: 10,
                end: Some(20)
            })
        );
        assert_eq!(
            "1_000..".parse(),
            Ok(ByteRange {
                start: 1000,
                end: None
            })
        );
        assert_eq!(
            "0..0".parse(),
            Ok(ByteRange {
                start: 0,
                end: Some(0)
            })
        );
        assert_eq!(
            "20..10".parse::<ByteRange>(),
            Err(ParseRangeError::Backwards { start: 20, end: 10 })
        );
        assert!(matches!(
            "10".parse::<ByteRange>(),
            Err(ParseRangeError::NoDots(_))
        ));
        for bad in [
            "..10", "x..10", "10..y", "_1..2", "1..2..3", "-1..2", "1 ..2",
        ] {
            let error = bad.parse::<ByteRange>();
            assert!(
                matches!(error, Err(ParseRangeError::NotANumber { .. })),
                "{bad}: {error:?}"
            );
        }
        assert!(
            "99999999999999999999..".parse::<ByteRange>().is_err(),
            "too large for 64 bits"
        );
        let message = "abc"
            .parse::<ByteRange>()
            .expect_err("no range")
            .to_string();
        assert!(message.contains("START..END"), "{message}");
        let message = "5..3"
            .parse::<ByteRange>()
            .expect_err("backwards")
            .to_string();
        assert!(message.contains("5..3"), "{message}");
        assert_eq!(
            ByteRange {
                start: 5,
                end: None
            }
            .to_string(),
            "5.."
        );
    }

    #[test]
    fn sure_boundaries_follow_a_marker_and_a_blank_line() {
        let text = b"[Event \"a\"]\n\n1. e4 e5 1-0\n\n[Event \"b\"]\n\n1. d4 *\n";
        let b = at(text, b"[Event \"b\"]");
        assert_eq!(sure_points(text), vec![b]);
        assert_eq!(sync(text, 0), 0);
        assert_eq!(sync(text, 1), b);
        assert_eq!(sync(text, b), b, "at a sure boundary");
        assert_eq!(sync(text, b - 1), b);
        assert_eq!(sync(text, b + 1), text.len() as u64);
        assert_eq!(sync(text, 10_000), text.len() as u64, "past the end");
        assert_eq!(sync(b"", 0), 0);
        assert_eq!(sync(b"", 5), 0);
    }

    #[test]
    fn sure_boundaries_in_crlf_files() {
        let text =
            b"[Event \"a\"]\r\n\r\n1. e4 e5 1/2-1/2\r\n\r\n[Event \"b\"]\r\n\r\n1. d4 0-1\r\n";
        assert_eq!(sure_points(text), vec![at(text, b"[Event \"b\"]")]);
        let draughts =
            b"[Event \"a\"]\r\n\r\n1. 32-28 2-0 \r\n \t\r\n[Event \"b\"]\r\n\r\n1. 33-29 *\r\n";
        assert_eq!(sure_points(draughts), vec![at(draughts, b"[Event \"b\"]")]);
    }

    #[test]
    fn no_boundary_inside_a_tag_section() {
        // A blank line between tags: no marker before it.
        let text = b"[Event \"a\"]\n\n[Site \"b\"]\n\n1. e4 *\n";
        assert!(sure_points(text).is_empty());
        starts_no_game(text, b"[Site");
        // A marker as a tag's name or unquoted value keeps the tag section open: the
        // reader goes on with the same game's tags at the next tag line.
        for text in [
            &b"[Event \"a\"]\n[ 1-0\n\n[Site \"b\"]\n\n1. e4 *\n"[..],
            b"[Event \"a\"]\n[Round 1-0\n\n[Site \"b\"]\n\n1. e4 *\n",
            b"[Event \"a\"]\n[\n1-0\n\n[Site \"b\"]\n\n1. e4 *\n",
        ] {
            assert!(
                sure_points(text).is_empty(),
                "{}",
                String::from_utf8_lossy(text)
            );
            starts_no_game(text, b"[Site");
        }
        // After a quoted value, the marker is the movetext; `*` is never a name or a
        // value.
        for text in [
            &b"[Event \"a\" 1-0\n\n[Site \"b\"]\n\n1. e4 *\n"[..],
            b"[Event \"a\"]\n[\n*\n\n[Site \"b\"]\n\n1. e4 *\n",
            b"[Event \"a\"]\n[Round *\n\n[Site \"b\"]\n\n1. e4 *\n",
        ] {
            assert_eq!(sure_points(text), vec![at(text, b"[Site")]);
        }
    }

    #[test]
    fn an_open_comment_is_stopped_at_a_new_games_tags() {
        // In the movetext: the comment ends where the next game's tags begin.
        let text = b"[Event \"a\"]\n\n1. e4 { left open 1-0\n\n[Event \"b\"]\n\n1. d4 *\n";
        assert_eq!(sure_points(text), vec![at(text, b"[Event \"b\"]")]);
        let text = b"[Event \"a\"]\n\n1. e4 2. { left open 1-0\n\n[Event \"b\"]\n\n1. d4 *\n";
        assert_eq!(sure_points(text), vec![at(text, b"[Event \"b\"]")]);
        // Between games, an open comment is held for the next game, which starts at the
        // comment: not where its tags are.
        let text = b"[Event \"a\"]\n\n1. e4 *\n\n{ left open 1-0\n\n[Event \"b\"]\n\n1. d4 *\n";
        assert!(sure_points(text).is_empty());
        starts_no_game(text, b"[Event \"b\"]");
        // As is one after a marker in the movetext.
        let text = b"[Event \"a\"]\n\n1. e4 1-0 { left open 1-0\n\n[Event \"b\"]\n\n1. d4 *\n";
        assert!(sure_points(text).is_empty());
        starts_no_game(text, b"[Event \"b\"]");
        // And a closed comment ends with no marker standing alone.
        let text = b"[Event \"a\"]\n\n1. e4 { closed 1-0}\n\n[Event \"b\"]\n\n1. d4 *\n";
        assert!(sure_points(text).is_empty());
    }

    #[test]
    fn markers_in_line_comments_and_escapes_are_not_markers() {
        // A `;` comment between games is held for the next game; a `%` line and a
        // string left open in a tag section leave it open.
        for (text, next) in [
            (
                &b"[Event \"a\"]\n\n1. e4 *\n\n; note 1-0\n\n[Event \"b\"]\n\n1. d4 *\n"[..],
                &b"[Event \"b\""[..],
            ),
            (
                b"[Event \"a\"]\n% 1-0\n\n[Site \"b\"]\n\n1. d4 *\n",
                b"[Site",
            ),
            (
                b"[Event \"a\"]\n[Site \"x 1-0\n\n[Round \"b\"]\n\n1. d4 *\n",
                b"[Round",
            ),
        ] {
            assert!(
                sure_points(text).is_empty(),
                "{}",
                String::from_utf8_lossy(text)
            );
            starts_no_game(text, next);
        }
    }

    #[test]
    fn a_marker_in_a_variation_still_ends_at_the_next_tags() {
        let text = b"[Event \"a\"]\n\n1. e4 (1. d4 1-0\n\n[Event \"b\"]\n\n1. d4 *\n";
        assert_eq!(sure_points(text), vec![at(text, b"[Event \"b\"]")]);
    }

    #[test]
    fn no_boundary_without_a_blank_line_or_a_tag() {
        // A game of one line after another: whether the tags start a game depends on
        // what came before.
        let text = b"[Event \"a\"]\n1. e4 1-0\n[Event \"b\"]\n1. d4 *\n";
        assert!(sure_points(text).is_empty());
        // A `[` line that is no tag pair.
        for text in [
            &b"[Event \"a\"]\n\n1. e4 1-0\n\n[event \"b\"]\n\n1. d4 *\n"[..],
            b"[Event \"a\"]\n\n1. e4 1-0\n\n[Event\"b\"]\n\n1. d4 *\n",
            b"[Event \"a\"]\n\n1. e4 1-0\n\n[ Event \"b\"]\n\n1. d4 *\n",
            b"[Event \"a\"]\n\n1. e4 1-0\n\n[1. d4 *\n",
            b"[Event \"a\"]\n\n1. e4 1-0\n\n[Event",
        ] {
            assert!(
                sure_points(text).is_empty(),
                "{}",
                String::from_utf8_lossy(text)
            );
        }
        // No marker: a game without one (the reader would split there all the same, but
        // the rule asks for a marker).
        let text = b"[Event \"a\"]\n\n1. e4 e5\n\n[Event \"b\"]\n\n1. d4 *\n";
        assert!(sure_points(text).is_empty());
        // A marker glued to a move is no marker standing alone.
        let text = b"[Event \"a\"]\n\n1. e4 e5x1-0\n\n[Event \"b\"]\n\n1. d4 *\n";
        assert!(sure_points(text).is_empty());
        // After a closing parenthesis or brace, it is.
        let text = b"[Event \"a\"]\n\n1. e4 (1. d4){x}1-0\n\n[Event \"b\"]\n\n1. d4 *\n";
        assert_eq!(sure_points(text), vec![at(text, b"[Event \"b\"]")]);
    }

    #[test]
    fn the_first_game_needs_no_boundary_before_it() {
        // The lexer starts at the input's start, after a byte order mark.
        let text = b"\xef\xbb\xbf1. e4 1-0\n\n[Event \"b\"]\n\n1. d4 *\n";
        assert_eq!(sure_points(text), vec![at(text, b"[Event")]);
        let text = b"\xef\xbb\xbf[ 1-0\n\n[Event \"b\"]\n\n1. d4 *\n";
        assert!(sure_points(text).is_empty());
        starts_no_game(text, b"[Event");
    }

    #[test]
    fn a_blank_line_too_long_or_a_look_back_too_far_is_no_boundary() {
        let mut text = b"[Event \"a\"]\n\n1. e4 1-0\n".to_vec();
        text.extend(std::iter::repeat_n(b' ', MAX_BLANK + 1));
        text.extend_from_slice(b"\n[Event \"b\"]\n\n1. d4 *\n");
        assert!(sure_points(&text).is_empty());

        // With a look-back of 64 bytes: the game before `c` is longer.
        let text = b"[Event \"a\"]\n\n1. e4 1-0\n\n[Event \"b\"]\n\n1. d4 d5 2. c4 e6 3. Nc3 Nf6 4. Bg5 Be7 5. e3 O-O 6. Nf3 Nbd7 *\n\n[Event \"c\"]\n\n*\n";
        let scan = |at: u64| {
            Scan {
                input: &mut Cursor::new(&text[..]),
                len: text.len() as u64,
                look_back: 64,
            }
            .sync_point(at)
            .expect("in memory")
        };
        let b = at(text, b"[Event \"b\"]");
        assert_eq!(scan(1), b);
        assert_eq!(scan(b + 1), text.len() as u64);
        assert_eq!(sync(text, b + 1), at(text, b"[Event \"c\"]"));
    }

    #[test]
    fn boundaries_are_found_across_the_blocks_of_the_search() {
        // A game longer than a block of the forward search, then a boundary whose line
        // feeds, blank line and tag line fall on either side of a block's end, as the
        // search starts at each of the offsets around.
        for blank in [&b""[..], b"  \r", b"\r"] {
            // The lexer starts from the boundary before it, 64 KiB back.
            let mut text = b"[Event \"z\"]\n\n1. c4 *\n\n[Event \"a\"]\n\n".to_vec();
            while text.len() < BLOCK as usize + 1000 {
                text.extend_from_slice(b"1. e4 e5 2. Nf3 Nc6 { a comment }\n");
            }
            text.extend_from_slice(b"1-0\n");
            text.extend_from_slice(blank);
            text.extend_from_slice(b"\n[Event \"b\"]\n\n1. d4 *\n");
            let q = at(&text, b"[Event \"b\"]");
            for start in q - BLOCK - 300..q - BLOCK + 300 {
                assert_eq!(sync(&text, start), q, "from {start}");
            }
            for start in q - 300..=q {
                assert_eq!(sync(&text, start), q, "from {start}");
            }
            assert_eq!(sync(&text, q + 1), text.len() as u64);
            assert_eq!(sync(&text, 1), at(&text, b"[Event \"a\"]"));
        }
    }

    #[test]
    fn ranges_read_from_sure_boundary_to_sure_boundary() {
        let text =
            b"[Event \"a\"]\n\n1. e4 1-0\n\n[Event \"b\"]\n\n1. d4 *\n\n[Event \"c\"]\n\n1. c4 *\n";
        let (b, c) = (at(text, b"[Event \"b\"]"), at(text, b"[Event \"c\"]"));
        let read = |range: &str| {
            let range = range.parse().expect("a range");
            let (start, mut reader) =
                open_range(Cursor::new(text.to_vec()), range).expect("in memory");
            let mut bytes = Vec::new();
            reader.read_to_end(&mut bytes).expect("in memory");
            (start, bytes)
        };
        assert_eq!(read("0..1"), (0, text[..b as usize].to_vec()));
        assert_eq!(read("1..2"), (b, Vec::new()));
        assert_eq!(read("0.."), (0, text.to_vec()));
        assert_eq!(
            read(&format!("{}..{}", b - 3, b + 1)),
            (b, text[b as usize..c as usize].to_vec())
        );
        assert_eq!(
            read(&format!("{}..", b + 1)),
            (c, text[c as usize..].to_vec())
        );

        let mut gzip = vec![0x1f, 0x8b, 8, 0];
        gzip.extend_from_slice(text);
        let error = open_range(Cursor::new(gzip), "0..".parse().expect("a range"))
            .err()
            .expect("refused");
        assert_eq!(error.kind(), io::ErrorKind::InvalidInput);
        assert!(error.to_string().contains("compressed"), "{error}");
        let backwards = ByteRange {
            start: 5,
            end: Some(1),
        };
        assert!(open_range(Cursor::new(text.to_vec()), backwards).is_err());
    }

    /// The property: for any cut points, the ranges between them read exactly the games
    /// of the whole input, each once, with the same offsets, bytes and diagnostics.
    mod partition {
        use super::*;
        use std::path::{Path, PathBuf};
        use std::sync::Arc;
        use std::time::Instant;

        use notation::Rules;
        use workspace_tests::{Rng, shared_corpus, workspace_root};

        /// Random cut points: anywhere, at a game's first byte, a little after it (in its
        /// first tag line), near its end, at 0 and at the end.
        fn cuts(rng: &mut Rng, len: u64, whole: &[Seen]) -> Vec<u64> {
            let mut cuts: Vec<u64> = (0..1 + rng.below(6))
                .map(|_| {
                    let game = (!whole.is_empty()).then(|| &whole[rng.below(whole.len())]);
                    let cut = match (rng.below(6), game) {
                        (1, Some(game)) => game.start,
                        (2, Some(game)) => game.start + 1 + rng.below(12) as u64,
                        (3, Some(game)) => (game.end + rng.below(4) as u64).saturating_sub(2),
                        (4, _) => 0,
                        (5, _) => len,
                        _ => rng.next_u64() % (len + 1),
                    };
                    cut.min(len)
                })
                .collect();
            cuts.sort_unstable();
            cuts
        }

        /// Reads `bytes` whole and by the ranges of several random sets of cut points,
        /// and holds them to the same games. `name` says which input failed. Returns how
        /// many ranges started past the input's start and read games (so that a search
        /// that never finds a boundary does not pass unseen).
        fn check<R: Rules>(
            rules: &R,
            name: &str,
            bytes: &[u8],
            sets: usize,
            rng: &mut Rng,
        ) -> usize {
            let bytes: Arc<[u8]> = Arc::from(bytes);
            let len = bytes.len() as u64;
            let whole = games(rules, &bytes[..], 0);
            let starts: std::collections::HashSet<u64> = whole.iter().map(|g| g.start).collect();
            let mut spread = 0;
            for _ in 0..sets {
                let cuts = cuts(rng, len, &whole);
                let open_end = rng.one_in(2);
                let mut ranges = Vec::new();
                let mut read = Vec::new();
                let mut bounds = vec![0];
                bounds.extend(&cuts);
                for (i, &start) in bounds.iter().enumerate() {
                    let end = match bounds.get(i + 1) {
                        Some(&end) => Some(end),
                        None if open_end => None,
                        None => Some(len),
                    };
                    let range = ByteRange { start, end };
                    let (offset, reader) =
                        open_range(Cursor::new(Arc::clone(&bytes)), range).expect("in memory");
                    assert!(
                        offset == len || starts.contains(&offset) || (offset == 0 && start == 0),
                        "{name}: range {range} starts at {offset}, where no game of the whole \
                         read starts (cuts {cuts:?})"
                    );
                    if offset > 0 && offset < len {
                        let again =
                            sync_point(&mut Cursor::new(&bytes[..]), offset).expect("in memory");
                        assert_eq!(again, offset, "{name}: sync({offset}) is not itself");
                    }
                    let found = games(rules, reader, offset);
                    spread += usize::from(offset > 0 && !found.is_empty());
                    ranges.push((range, offset, found.len()));
                    read.extend(found);
                }
                if read != whole {
                    let at = read
                        .iter()
                        .zip(&whole)
                        .position(|(a, b)| a != b)
                        .unwrap_or(read.len().min(whole.len()));
                    panic!(
                        "{name}: the ranges of cuts {cuts:?} read {} games, the whole input {}; \
                         first difference at game {at}:\nranges: {:#?}\nwhole: {:#?}\n\
                         (range, its start, games read): {ranges:?}",
                        read.len(),
                        whole.len(),
                        read.get(at),
                        whole.get(at),
                    );
                }
            }
            spread
        }

        /// Each line feed that is not already after a carriage return gets one.
        fn crlf(bytes: &[u8]) -> Vec<u8> {
            let mut out = Vec::with_capacity(bytes.len() + bytes.len() / 16);
            for (i, &b) in bytes.iter().enumerate() {
                if b == b'\n' && (i == 0 || bytes[i - 1] != b'\r') {
                    out.push(b'\r');
                }
                out.push(b);
            }
            out
        }

        /// The games of the whole read, one after another, with no blank line between.
        fn unseparated<R: Rules>(rules: &R, bytes: &[u8]) -> Vec<u8> {
            let mut out = Vec::with_capacity(bytes.len());
            for game in games(rules, bytes, 0) {
                let span = usize::try_from(game.start).unwrap_or(usize::MAX)
                    ..usize::try_from(game.end).unwrap_or(usize::MAX);
                out.extend_from_slice(bytes.get(span).unwrap_or_default());
                out.push(b'\n');
            }
            out
        }

        /// What a careless editor or a broken program does to a file (as in the tests of
        /// `fmt`): structure left open or closed where it should not be.
        const SNIPPETS: &[&[u8]] = &[
            b"{",
            b"}",
            b"(",
            b")",
            b"[",
            b"]",
            b"\"",
            b"\n\n",
            b"\n\n[Event \"inserted\"]\n",
            b"1-0\n\n[Site \"x\"]\n",
            b"{ 1-0\n\n",
            b"\n[ *\n\n[Round \"x\"]\n",
            b"\n[Round 1-0\n\n[Site \"x\"]\n",
            b"\n; 1-0\n\n[Round \"x\"]\n",
            b"\n% 1-0\n\n[Round \"x\"]\n",
            b"\r",
            b";",
            b"\n%",
            b"*",
            b"1-0",
            b"/",
        ];

        fn damage(bytes: &[u8], rng: &mut Rng) -> Vec<u8> {
            let mut bytes = bytes.to_vec();
            for _ in 0..1 + rng.below(4) {
                let at = rng.below(bytes.len() + 1);
                if rng.one_in(4) {
                    let end = (at + 1 + rng.below(40)).min(bytes.len());
                    bytes.drain(at..end);
                } else {
                    let snippet = SNIPPETS[rng.below(SNIPPETS.len())];
                    bytes.splice(at..at, snippet.iter().copied());
                }
            }
            bytes
        }

        /// Checks a file and its variants: with CR LF line ends, with no blank line
        /// between games, and `damaged` damaged copies.
        fn check_variants<R: Rules>(
            rules: &R,
            path: &Path,
            damaged: usize,
            rng: &mut Rng,
        ) -> usize {
            let bytes = std::fs::read(path).expect("a corpus file");
            if Compression::from_magic(bytes.get(..4).unwrap_or_default()).is_some() {
                return 0;
            }
            let name = path.display().to_string();
            // Fewer cut sets for larger files, so that the whole stays quick.
            let sets = if bytes.len() > 256 << 10 { 3 } else { 20 };
            let mut spread = check(rules, &name, &bytes, sets, rng);
            spread += check(rules, &format!("{name} (CR LF)"), &crlf(&bytes), sets, rng);
            let joined = unseparated(rules, &bytes);
            let name_joined = format!("{name} (no blank line between games)");
            check(rules, &name_joined, &joined, sets, rng);
            for n in 0..damaged {
                let copy = damage(&bytes, rng);
                check(
                    rules,
                    &format!("{name} (damaged copy {n})"),
                    &copy,
                    sets,
                    rng,
                );
            }
            spread
        }

        /// The uncompressed PGN and PDN files below `dir`, sorted.
        fn files(dir: &Path) -> Vec<PathBuf> {
            let mut found = Vec::new();
            let mut dirs = vec![dir.to_path_buf()];
            while let Some(dir) = dirs.pop() {
                for entry in std::fs::read_dir(&dir).expect("a readable folder") {
                    let path = entry.expect("a readable folder").path();
                    if path.is_dir() {
                        dirs.push(path);
                    } else if path.extension().is_some_and(|e| {
                        e.eq_ignore_ascii_case("pgn") || e.eq_ignore_ascii_case("pdn")
                    }) {
                        found.push(path);
                    }
                }
            }
            found.sort();
            found
        }

        /// Checks every file below `dir`; returns how many there are and how many ranges
        /// of the files as they are (and with CR LF) started past their start and read
        /// games.
        fn check_dir(dir: &Path, damaged: usize, rng: &mut Rng) -> (usize, usize) {
            let files = files(dir);
            let mut spread = 0;
            for path in &files {
                let pdn = path
                    .extension()
                    .is_some_and(|e| e.eq_ignore_ascii_case("pdn"));
                spread += if pdn {
                    check_variants(&pdn::DraughtsRules::new(), path, damaged, rng)
                } else {
                    check_variants(&pgn::ChessRules, path, damaged, rng)
                };
            }
            (files.len(), spread)
        }

        #[test]
        fn ranges_of_any_cuts_read_the_games_of_the_whole_input_once() {
            let started = Instant::now();
            let mut rng = Rng(0x5eed_0f2a_1700);
            let (count, spread) = check_dir(&workspace_root().join("corpus"), 4, &mut rng);
            assert!(count >= 20, "the corpus is missing: {count} files");
            assert!(
                spread >= 100,
                "only {spread} ranges past the start of a corpus file read games"
            );
            eprintln!("corpus: {count} files, {spread} ranges spread");
            if let Some(shared) = shared_corpus() {
                let (count, spread) = check_dir(&shared, 1, &mut rng);
                eprintln!("shared corpus: {count} files, {spread} ranges spread");
            } else {
                eprintln!("NOTATION_SHARED_CORPUS not set: shared tier skipped");
            }
            eprintln!("ranges checked in {:?}", started.elapsed());
        }
    }
}
