//! The lexer: bytes to tokens, zero-copy.
//!
//! [`lex`] reads one token from a byte slice that may end in the middle of the input: a
//! token that touches the end of the slice while more input may follow comes back as
//! [`Lexed::NeedMore`], and the reader calls again with more bytes. Tokens borrow the
//! input; their spans are offsets into the slice.
//!
//! The token recognisers are nom parsers over complete slices; the dispatch on the
//! first byte and the white-space loop are plain code, because they run for every byte.

use memchr::{memchr, memchr3};
use nom::IResult;
use nom::Parser;
use nom::bytes::complete::take_while;
use nom::bytes::complete::take_while1;

use crate::dialect::Dialect;

/// One token of the import format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Token<'a> {
    /// `[`, opening a tag pair.
    TagOpen,
    /// `]`, closing a tag pair.
    TagClose,
    /// A quoted string; the bytes are still escaped (`\"`, `\\`).
    String {
        /// The bytes between the quotes.
        escaped: &'a [u8],
        /// Whether the line ended before the closing quote.
        unterminated: bool,
    },
    /// A symbol: a move, a tag name, a termination marker, an integer…
    Symbol(&'a [u8]),
    /// A move number indication: digits followed by periods (`12.`, `12...`).
    MoveNumber {
        /// The number.
        number: u64,
        /// How many periods followed.
        periods: usize,
    },
    /// Periods standing alone (`...` as an unknown or skipped move, or after `12 `).
    Periods(usize),
    /// `$` and digits: a numeric annotation glyph. Values above 255 are reported by the reader.
    Nag(u64),
    /// `!`, `?`, their pairs, or the parenthesised forms `(!)`, `(?)`.
    Suffix(&'a [u8]),
    /// A brace comment, without the braces.
    Comment {
        /// The text between the braces.
        text: &'a [u8],
        /// Whether it ran to the end of input (or to a new game) with no `}`.
        unterminated: bool,
    },
    /// A `;` comment, to the end of the line.
    LineComment(&'a [u8]),
    /// A `%` escape line (only in column 1), without the `%`.
    Escape(&'a [u8]),
    /// `(`, opening a variation.
    VariationOpen,
    /// `)`, closing a variation.
    VariationClose,
    /// `*`.
    Asterisk,
    /// `<` or `>`, reserved by the standard.
    Reserved(u8),
    /// An inline set-up `/…/` (PDN), without the slashes.
    Setup {
        /// The text between the slashes.
        text: &'a [u8],
        /// Whether the closing slash is missing.
        unterminated: bool,
    },
    /// A byte that starts no token (a control character).
    Unexpected(u8),
}

/// The result of lexing at one position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lexed<'a> {
    /// A token from `start` to `end` (offsets into the slice).
    Token {
        /// The token.
        token: Token<'a>,
        /// Offset of its first byte.
        start: usize,
        /// Offset one past its last byte.
        end: usize,
    },
    /// The token at this position may continue past the end of the slice.
    NeedMore,
    /// Only white space up to the end of the input.
    End,
}

/// What the white space before a token held, for the reader's leniency checks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Gap {
    /// Line ends crossed (a CR LF pair counts once).
    pub newlines: u32,
    /// Whether two line ends with only white space between them were crossed.
    pub blank_line: bool,
    /// Whether a tab was seen.
    pub tab: bool,
    /// Whether a carriage return not followed by a line feed was seen.
    pub lone_cr: bool,
    /// Whether a `\r` written as two characters (a backslash and `r`) right before a
    /// line end, or the end of the input, was read as a line end.
    pub literal_cr: bool,
}

const WS: u8 = 1;
const SYMBOL: u8 = 2;
const DIGIT: u8 = 4;
const SUFFIX: u8 = 8;
/// A byte of a plain tag name: an ASCII letter, digit or `_`.
const NAME: u8 = 16;

/// Byte classes. Symbols take every printable byte except the delimiters, so that
/// figurines, `½-½`, `N@f3` and other oddities stay one token for the rules to judge.
///
/// A backslash is in no class: it goes on a symbol, unless it starts the two characters
/// `\r` that some programs write before each line end ([`literal_cr`]), which end one.
/// The symbol loops stop at it and leave it to [`lex_symbol`] and [`lex_backslash`].
static CLASS: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        let b = i as u8;
        t[i] = match b {
            b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c => WS,
            b'0'..=b'9' => SYMBOL | DIGIT | NAME,
            b'A'..=b'Z' | b'a'..=b'z' | b'_' => SYMBOL | NAME,
            b'!' | b'?' => SUFFIX,
            b'[' | b']' | b'(' | b')' | b'{' | b'}' | b';' | b'"' | b'.' | b'$' | b'*' | b'<'
            | b'>' | b'\\' => 0,
            0..=0x1f | 0x7f => 0,
            _ => SYMBOL,
        };
        i += 1;
    }
    t
};

/// Whether a byte may continue a symbol.
#[inline]
pub(crate) const fn is_symbol_byte(b: u8) -> bool {
    CLASS[b as usize] & SYMBOL != 0
}

/// Whether a byte may be part of a plain tag name (an ASCII letter, digit or `_`).
#[inline]
pub(crate) fn is_name_byte(b: u8) -> bool {
    CLASS[b as usize] & NAME != 0
}

/// Whether a byte is white space.
#[inline]
pub(crate) fn is_space(b: u8) -> bool {
    CLASS[b as usize] & WS != 0
}

/// Skips white space from `pos`, recording what it crossed. Returns the new position.
#[inline]
pub fn skip_whitespace(input: &[u8], mut pos: usize, gap: &mut Gap) -> usize {
    while let Some(&b) = input.get(pos) {
        // The common cases first: a token, or one space before it.
        if b == b' ' {
            pos += 1;
            continue;
        }
        if CLASS[b as usize] & WS == 0 {
            break;
        }
        match b {
            b'\n' => {
                gap.newlines += 1;
                if gap.newlines > 1 {
                    gap.blank_line = true;
                }
            }
            b'\r' => {
                if input.get(pos + 1) == Some(&b'\n') {
                    // Counted with its line feed.
                } else {
                    // A lone CR at the end of the slice may yet be followed by LF; the
                    // reader asks for more input before a token touching the end anyway.
                    gap.lone_cr |= pos + 1 < input.len();
                    gap.newlines += 1;
                    if gap.newlines > 1 {
                        gap.blank_line = true;
                    }
                }
            }
            b'\t' => gap.tab = true,
            _ => {}
        }
        pos += 1;
    }
    pos
}

/// What a backslash in the text outside strings and comments is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Backslash {
    /// The two characters `\r` right before a line end (LF, CR LF or a lone CR) or the
    /// end of the input: the mark a popular draughts program leaves of a carriage return
    /// it wrote out as text. Read as the line end that follows it.
    LineEnd,
    /// Part of a symbol.
    Text,
    /// The slice ends before it can be told.
    NeedMore,
}

/// Tells what the backslash at `at` is (see [`Backslash`]); `text_end` says that the
/// input is one game's text read again, whose end is no line end.
#[inline]
pub(crate) fn literal_cr(input: &[u8], at: usize, eof: bool, text_end: bool) -> Backslash {
    match input.get(at + 1..at + 3) {
        Some([b'r', b'\n' | b'\r']) => Backslash::LineEnd,
        Some(_) => Backslash::Text,
        None => match input.get(at + 1) {
            // `\r` last in the slice: last in the input, or more may follow. Last in a
            // game's text read again, it was followed where the game was read by what
            // made it text (see `Reader::lend`).
            Some(b'r') if eof && text_end => Backslash::Text,
            Some(b'r') if eof => Backslash::LineEnd,
            Some(b'r') => Backslash::NeedMore,
            Some(_) => Backslash::Text,
            None if eof => Backslash::Text,
            None => Backslash::NeedMore,
        },
    }
}

fn digits(input: &[u8]) -> IResult<&[u8], &[u8]> {
    take_while1(|b: u8| b.is_ascii_digit()).parse(input)
}

fn periods(input: &[u8]) -> IResult<&[u8], &[u8]> {
    take_while(|b: u8| b == b'.').parse(input)
}

fn suffix(input: &[u8]) -> IResult<&[u8], &[u8]> {
    take_while1(|b: u8| CLASS[b as usize] & SUFFIX != 0).parse(input)
}

/// Saturating decimal value: the reader reports out-of-range numbers, it must not overflow.
fn decimal(digits: &[u8]) -> u64 {
    digits.iter().fold(0u64, |n, &d| {
        n.saturating_mul(10).saturating_add(u64::from(d - b'0'))
    })
}

/// Whether `pos` is at the start of a line (for `%` escapes).
#[inline]
fn at_line_start(input: &[u8], pos: usize, slice_starts_line: bool) -> bool {
    match pos.checked_sub(1) {
        None => slice_starts_line,
        Some(p) => matches!(input[p], b'\n' | b'\r'),
    }
}

/// Reads the token at `pos`, after white space.
///
/// `eof` tells whether the slice ends where the input ends; `slice_starts_line` whether
/// offset 0 is at the start of a line. White space before the token is recorded in `gap`.
pub fn lex<'a>(
    input: &'a [u8],
    pos: usize,
    eof: bool,
    slice_starts_line: bool,
    dialect: &Dialect,
    gap: &mut Gap,
) -> Lexed<'a> {
    lex_inline(input, pos, eof, false, slice_starts_line, dialect, gap)
}

/// [`lex`], inlined into the reader's loop: the common tokens are read here, the rest
/// in [`lex_token`].
#[inline(always)]
pub(crate) fn lex_inline<'a>(
    input: &'a [u8],
    pos: usize,
    eof: bool,
    text_end: bool,
    slice_starts_line: bool,
    dialect: &Dialect,
    gap: &mut Gap,
) -> Lexed<'a> {
    let start = skip_whitespace(input, pos, gap);
    let Some(&first) = input.get(start) else {
        return if eof { Lexed::End } else { Lexed::NeedMore };
    };
    let single = |token: Token<'a>| Lexed::Token {
        token,
        start,
        end: start + 1,
    };
    match first {
        b'[' => single(Token::TagOpen),
        b']' => single(Token::TagClose),
        b')' => single(Token::VariationClose),
        b'{' => lex_comment(input, start, eof),
        // `%` may start an escape line, `/` an inline set-up.
        b'%' | b'/' => lex_token(
            input,
            start,
            first,
            eof,
            text_end,
            slice_starts_line,
            dialect,
        ),
        b if CLASS[b as usize] & SYMBOL != 0 => lex_symbol(input, start, eof, text_end, dialect),
        b'\\' => lex_backslash(input, start, eof, text_end, slice_starts_line, dialect, gap),
        _ => lex_token(
            input,
            start,
            first,
            eof,
            text_end,
            slice_starts_line,
            dialect,
        ),
    }
}

/// Reads the token at a backslash (after white space): `\r` artifacts before line ends
/// are white space, with the line ends after them; a backslash that is none starts a
/// symbol. A loop, not recursion: a file may hold a million such lines in a row.
#[cold]
#[inline(never)]
fn lex_backslash<'a>(
    input: &'a [u8],
    mut start: usize,
    eof: bool,
    text_end: bool,
    slice_starts_line: bool,
    dialect: &Dialect,
    gap: &mut Gap,
) -> Lexed<'a> {
    loop {
        match literal_cr(input, start, eof, text_end) {
            Backslash::NeedMore => return Lexed::NeedMore,
            Backslash::Text => return lex_symbol(input, start, eof, text_end, dialect),
            Backslash::LineEnd => {
                gap.literal_cr = true;
                start = skip_whitespace(input, start + 2, gap);
            }
        }
        match input.get(start) {
            None if eof => return Lexed::End,
            None => return Lexed::NeedMore,
            Some(b'\\') => {}
            Some(&first) => {
                return lex_token(
                    input,
                    start,
                    first,
                    eof,
                    text_end,
                    slice_starts_line,
                    dialect,
                );
            }
        }
    }
}

/// Reads the token at `start` (after white space), whose first byte is `first`.
#[inline(never)]
fn lex_token<'a>(
    input: &'a [u8],
    start: usize,
    first: u8,
    eof: bool,
    text_end: bool,
    slice_starts_line: bool,
    dialect: &Dialect,
) -> Lexed<'a> {
    let rest = &input[start..];
    let len = input.len();
    // `need` is true when a token ending at `end` might continue past the slice.
    let more = |end: usize| end >= len && !eof;
    let done = |token: Token<'a>, end: usize| Lexed::Token { token, start, end };
    match first {
        b'[' => done(Token::TagOpen, start + 1),
        b']' => done(Token::TagClose, start + 1),
        b')' => done(Token::VariationClose, start + 1),
        b'*' => done(Token::Asterisk, start + 1),
        b'<' | b'>' => done(Token::Reserved(first), start + 1),
        b'(' => {
            // `(!)`, `(?!)`: a parenthesised suffix, not a variation.
            if let Ok((after, s)) = suffix(&rest[1..]) {
                let end = len - after.len();
                if after.first() == Some(&b')') {
                    return done(Token::Suffix(&input[start..end + 1]), end + 1);
                }
                if more(end) {
                    return Lexed::NeedMore;
                }
                let _ = s;
            } else if more(start + 1) {
                return Lexed::NeedMore;
            }
            done(Token::VariationOpen, start + 1)
        }
        b'"' => lex_string(input, start, eof),
        b'{' => lex_comment(input, start, eof),
        b';' => match memchr2_line_end(&rest[1..]) {
            Some(i) => done(Token::LineComment(&rest[1..1 + i]), start + 1 + i),
            None if eof => done(Token::LineComment(&rest[1..]), len),
            None => Lexed::NeedMore,
        },
        b'%' if at_line_start(input, start, slice_starts_line) => {
            match memchr2_line_end(&rest[1..]) {
                Some(i) => done(Token::Escape(&rest[1..1 + i]), start + 1 + i),
                None if eof => done(Token::Escape(&rest[1..]), len),
                None => Lexed::NeedMore,
            }
        }
        b'$' => match digits(&rest[1..]) {
            Ok((after, d)) => {
                let end = len - after.len();
                if more(end) {
                    return Lexed::NeedMore;
                }
                done(Token::Nag(decimal(d)), end)
            }
            Err(_) if more(start + 1) => Lexed::NeedMore,
            Err(_) => done(Token::Unexpected(b'$'), start + 1),
        },
        b'!' | b'?' => match suffix(rest) {
            Ok((after, s)) => {
                let end = len - after.len();
                if more(end) {
                    return Lexed::NeedMore;
                }
                done(Token::Suffix(s), end)
            }
            Err(_) => done(Token::Unexpected(first), start + 1),
        },
        b'.' => {
            let n = periods(rest).map_or(1, |(_, p)| p.len());
            if more(start + n) {
                return Lexed::NeedMore;
            }
            done(Token::Periods(n), start + n)
        }
        b'/' if dialect.inline_setups => {
            // An inline set-up runs to the next slash on the same line.
            let body = &rest[1..];
            match memchr3(b'/', b'\n', b'\r', body) {
                Some(i) if body[i] == b'/' => done(
                    Token::Setup {
                        text: &body[..i],
                        unterminated: false,
                    },
                    start + i + 2,
                ),
                Some(i) => done(
                    Token::Setup {
                        text: &body[..i],
                        unterminated: true,
                    },
                    start + 1 + i,
                ),
                None if eof => done(
                    Token::Setup {
                        text: body,
                        unterminated: true,
                    },
                    len,
                ),
                None => Lexed::NeedMore,
            }
        }
        b if CLASS[b as usize] & SYMBOL != 0 => lex_symbol(input, start, eof, text_end, dialect),
        _ => done(Token::Unexpected(first), start + 1),
    }
}

#[inline]
fn memchr2_line_end(hay: &[u8]) -> Option<usize> {
    memchr::memchr2(b'\n', b'\r', hay)
}

#[inline(always)]
fn lex_symbol<'a>(
    input: &'a [u8],
    start: usize,
    eof: bool,
    text_end: bool,
    dialect: &Dialect,
) -> Lexed<'a> {
    let len = input.len();
    // One pass: the leading digits, then the rest of the symbol.
    let mut end = start;
    while end < len && input[end].is_ascii_digit() {
        end += 1;
    }
    // Digits followed by periods: a move number (`12.`, `12...`, `1.32-28` in PDN).
    if end > start && input.get(end) == Some(&b'.') {
        let digits_end = end;
        while end < len && input[end] == b'.' {
            end += 1;
        }
        if end >= len && !eof {
            return Lexed::NeedMore;
        }
        return Lexed::Token {
            token: Token::MoveNumber {
                number: decimal(&input[start..digits_end]),
                periods: end - digits_end,
            },
            start,
            end,
        };
    }
    loop {
        while end < len && is_symbol_byte(input[end]) {
            end += 1;
        }
        // A backslash goes on the symbol, unless it is the `\r` before a line end.
        if input.get(end) != Some(&b'\\') {
            break;
        }
        match literal_cr(input, end, eof, text_end) {
            Backslash::LineEnd => break,
            Backslash::Text => end += 1,
            Backslash::NeedMore => return Lexed::NeedMore,
        }
    }
    if end == start {
        return Lexed::Token {
            token: Token::Unexpected(input[start]),
            start,
            end: start + 1,
        };
    }
    // A move mark of the dialect glued to the symbol belongs to it, with what the symbol
    // bytes after it add (a check sign).
    match move_mark(dialect.move_marks, &input[start..end], &input[end..], eof) {
        MoveMark::None => {}
        MoveMark::NeedMore => return Lexed::NeedMore,
        MoveMark::Len(n) => {
            end += n;
            while end < len && is_symbol_byte(input[end]) {
                end += 1;
            }
        }
    }
    let after = &input[end..];
    // A parenthesised letter glued to a symbol (`e8(Q)`) belongs to it: no variation
    // consists of a one-letter move.
    if after.first() == Some(&b'(') {
        if let [b'(', l, b')', ..] = after {
            if l.is_ascii_alphabetic() {
                end += 3;
            }
        } else if end + 3 > len && !eof {
            return Lexed::NeedMore;
        }
    }
    if end >= len && !eof {
        return Lexed::NeedMore;
    }
    Lexed::Token {
        token: Token::Symbol(&input[start..end]),
        start,
        end,
    }
}

/// A move mark split where a symbol stops: the bytes a symbol ends with (`e` of `e.p.`)
/// and the rest, which goes on after it (`.p.`).
fn split_mark(mark: &[u8]) -> (&[u8], &[u8]) {
    let lead = mark.iter().take_while(|&&b| is_symbol_byte(b)).count();
    mark.split_at(lead)
}

/// Whether a move mark follows a symbol.
enum MoveMark {
    /// None does.
    None,
    /// One does: its length after the symbol.
    Len(usize),
    /// One may: the input ends inside it.
    NeedMore,
}

/// The bytes after a symbol's last symbol byte with which the symbol may go on, for the
/// reader's fast path: a cheap test that leaves such symbols to the lexer. A move mark
/// may start there ([`move_mark`]), and a backslash may be part of the symbol (unless it
/// is the `\r` before a line end, see [`literal_cr`]).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct SymbolContinuations([u64; 4]);

impl SymbolContinuations {
    /// A backslash, and each mark's first byte that cannot continue a symbol (`.` of
    /// `e.p.`).
    pub(crate) fn new(marks: &[&str]) -> SymbolContinuations {
        let mut set = [0u64; 4];
        let mut add = |b: u8| set[usize::from(b / 64)] |= 1 << (b % 64);
        add(b'\\');
        for mark in marks {
            if let Some(&b) = split_mark(mark.as_bytes()).1.first() {
                add(b);
            }
        }
        SymbolContinuations(set)
    }

    /// Whether the symbol may go on at `after`, right after its symbol bytes (`after`
    /// not empty).
    #[inline]
    pub(crate) fn may_continue(&self, after: &[u8]) -> bool {
        after
            .first()
            .is_some_and(|&b| self.0[usize::from(b / 64)] & (1 << (b % 64)) != 0)
    }
}

/// Finds one of `marks` ([`Dialect::move_marks`]) glued to `symbol`, in `after`: its
/// leading symbol bytes are the end of the symbol (`exd6e.p.` lexes `exd6e`, then `.p.`
/// goes on). Only glued: the writer separates tokens with a space, so a mark after a
/// space would join two tokens that were read apart.
fn move_mark(marks: &[&str], symbol: &[u8], after: &[u8], eof: bool) -> MoveMark {
    let mut need_more = false;
    for mark in marks {
        let (lead, rest) = split_mark(mark.as_bytes());
        // Most symbols are followed by a byte no mark goes on with: told at once.
        if after.first() != rest.first() || !symbol.ends_with(lead) {
            continue;
        }
        if after.starts_with(rest) {
            return MoveMark::Len(rest.len());
        }
        need_more |= !eof && after.len() < rest.len() && rest.starts_with(after);
    }
    if need_more {
        MoveMark::NeedMore
    } else {
        MoveMark::None
    }
}

fn lex_string(input: &[u8], start: usize, eof: bool) -> Lexed<'_> {
    let body_start = start + 1;
    let mut i = body_start;
    loop {
        // A string ends at its quote; it may not span lines, so a line end closes an
        // unterminated one (real files forget closing quotes).
        match memchr3(b'"', b'\\', b'\n', &input[i..]) {
            Some(k) => {
                let at = i + k;
                match input[at] {
                    b'"' => {
                        return Lexed::Token {
                            token: Token::String {
                                escaped: &input[body_start..at],
                                unterminated: false,
                            },
                            start,
                            end: at + 1,
                        };
                    }
                    b'\\' => {
                        if at + 1 >= input.len() {
                            if !eof {
                                return Lexed::NeedMore;
                            }
                            i = at + 1;
                        } else {
                            i = at + 2;
                        }
                    }
                    _ => {
                        let mut end = at;
                        if end > body_start && input[end - 1] == b'\r' {
                            end -= 1;
                        }
                        return Lexed::Token {
                            token: Token::String {
                                escaped: &input[body_start..end],
                                unterminated: true,
                            },
                            start,
                            end,
                        };
                    }
                }
            }
            None if eof => {
                return Lexed::Token {
                    token: Token::String {
                        escaped: &input[body_start..],
                        unterminated: true,
                    },
                    start,
                    end: input.len(),
                };
            }
            None => return Lexed::NeedMore,
        }
    }
}

#[inline(always)]
fn lex_comment(input: &[u8], start: usize, eof: bool) -> Lexed<'_> {
    let body_start = start + 1;
    let body = &input[body_start..];
    // Most comments hold no line end: then no new game can hide in them.
    if let Some(i) = memchr::memchr2(b'}', b'\n', body) {
        if body[i] == b'}' {
            return Lexed::Token {
                token: Token::Comment {
                    text: &body[..i],
                    unterminated: false,
                },
                start,
                end: body_start + i + 1,
            };
        }
    }
    lex_long_comment(input, start, eof)
}

/// A comment that spans lines, or is not closed in the slice.
#[inline(never)]
fn lex_long_comment(input: &[u8], start: usize, eof: bool) -> Lexed<'_> {
    let body_start = start + 1;
    let body = &input[body_start..];
    match memchr(b'}', body) {
        Some(i) => {
            let text = &body[..i];
            // A comment that swallows a new game's tag section was left unterminated:
            // stop it before the tags so that the games after it are not lost.
            if let Some(cut) = swallowed_game(text) {
                return Lexed::Token {
                    token: Token::Comment {
                        text: &text[..cut],
                        unterminated: true,
                    },
                    start,
                    end: body_start + cut,
                };
            }
            Lexed::Token {
                token: Token::Comment {
                    text,
                    unterminated: false,
                },
                start,
                end: body_start + i + 1,
            }
        }
        None if eof => {
            let cut = swallowed_game(body).unwrap_or(body.len());
            Lexed::Token {
                token: Token::Comment {
                    text: &body[..cut],
                    unterminated: true,
                },
                start,
                end: body_start + cut,
            }
        }
        None => Lexed::NeedMore,
    }
}

/// Where a comment's text holds an empty line followed by a line starting with `[` and
/// a tag name: the mark of a comment whose `}` was forgotten.
fn swallowed_game(text: &[u8]) -> Option<usize> {
    // Most comments hold no line end at all: one memchr pass tells.
    for at in memchr::memchr_iter(b'\n', text) {
        if text.get(at + 1) != Some(&b'[') {
            continue;
        }
        let before = &text[..at];
        // The line before the `[` must be blank.
        let line_start = before
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(usize::MAX, |p| p + 1);
        let blank = line_start != usize::MAX
            && before[line_start..]
                .iter()
                .all(|&b| b == b' ' || b == b'\t' || b == b'\r');
        let after = &text[at + 2..];
        let name_len = after
            .iter()
            .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_')
            .count();
        let tag_like = name_len > 0
            && after[..name_len][0].is_ascii_uppercase()
            && after[name_len..].starts_with(b" \"");
        if blank && tag_like {
            return Some(at + 1);
        }
    }
    None
}

/// Unescapes a string token's bytes (`\"` and `\\`); other backslashes stay.
pub fn unescape(escaped: &[u8]) -> std::borrow::Cow<'_, [u8]> {
    if memchr(b'\\', escaped).is_none() {
        return std::borrow::Cow::Borrowed(escaped);
    }
    let mut out = Vec::with_capacity(escaped.len());
    let mut i = 0;
    while i < escaped.len() {
        match (escaped[i], escaped.get(i + 1)) {
            (b'\\', Some(&c @ (b'"' | b'\\'))) => {
                out.push(c);
                i += 2;
            }
            (b, _) => {
                out.push(b);
                i += 1;
            }
        }
    }
    std::borrow::Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tokens(input: &[u8], dialect: Dialect) -> Vec<Token<'_>> {
        let mut out = Vec::new();
        let mut pos = 0;
        loop {
            let mut gap = Gap::default();
            match lex(input, pos, true, true, &dialect, &mut gap) {
                Lexed::Token { token, end, .. } => {
                    out.push(token);
                    pos = end;
                }
                Lexed::End => return out,
                Lexed::NeedMore => panic!("need more at eof"),
            }
        }
    }

    fn pgn(input: &[u8]) -> Vec<Token<'_>> {
        tokens(input, Dialect::PGN)
    }

    #[test]
    fn tag_pair() {
        assert_eq!(
            pgn(br#"[Event "F/S \"Return\" Match"]"#),
            [
                Token::TagOpen,
                Token::Symbol(b"Event"),
                Token::String {
                    escaped: br#"F/S \"Return\" Match"#,
                    unterminated: false
                },
                Token::TagClose
            ]
        );
        assert_eq!(&*unescape(br#"a \"b\" \\ c"#), br#"a "b" \ c"#);
    }

    #[test]
    fn unterminated_string_ends_at_line_end() {
        assert_eq!(
            pgn(b"[White \"Foo]\r\n[Black \"Bar\"]"),
            [
                Token::TagOpen,
                Token::Symbol(b"White"),
                Token::String {
                    escaped: b"Foo]",
                    unterminated: true
                },
                Token::TagOpen,
                Token::Symbol(b"Black"),
                Token::String {
                    escaped: b"Bar",
                    unterminated: false
                },
                Token::TagClose
            ]
        );
    }

    #[test]
    fn move_numbers_and_periods() {
        assert_eq!(
            pgn(b"1. e4 1... e5 12 . Nf3 ... 3.Bb5"),
            [
                Token::MoveNumber {
                    number: 1,
                    periods: 1
                },
                Token::Symbol(b"e4"),
                Token::MoveNumber {
                    number: 1,
                    periods: 3
                },
                Token::Symbol(b"e5"),
                Token::Symbol(b"12"),
                Token::Periods(1),
                Token::Symbol(b"Nf3"),
                Token::Periods(3),
                Token::MoveNumber {
                    number: 3,
                    periods: 1
                },
                Token::Symbol(b"Bb5"),
            ]
        );
    }

    #[test]
    fn annotations() {
        assert_eq!(
            pgn(b"e4!? $14 Qxf7#?? (!) $999"),
            [
                Token::Symbol(b"e4"),
                Token::Suffix(b"!?"),
                Token::Nag(14),
                Token::Symbol(b"Qxf7#"),
                Token::Suffix(b"??"),
                Token::Suffix(b"(!)"),
                Token::Nag(999),
            ]
        );
    }

    #[test]
    fn comments_and_escapes() {
        assert_eq!(
            pgn(b"%escape line\ne4 {a [%clk 0:01:00] b} ; rest\n% not at start? no: e5"),
            [
                Token::Escape(b"escape line"),
                Token::Symbol(b"e4"),
                Token::Comment {
                    text: b"a [%clk 0:01:00] b",
                    unterminated: false
                },
                Token::LineComment(b" rest"),
                Token::Escape(b" not at start? no: e5"),
            ]
        );
        assert_eq!(pgn(b"e4 %x"), [Token::Symbol(b"e4"), Token::Symbol(b"%x")]);
    }

    #[test]
    fn variations_results_and_reserved() {
        assert_eq!(
            pgn(b"(e4) 1/2-1/2 * <>"),
            [
                Token::VariationOpen,
                Token::Symbol(b"e4"),
                Token::VariationClose,
                Token::Symbol(b"1/2-1/2"),
                Token::Asterisk,
                Token::Reserved(b'<'),
                Token::Reserved(b'>'),
            ]
        );
    }

    #[test]
    fn glued_promotion_letter_is_not_a_variation() {
        assert_eq!(
            pgn(b"e8(Q) (e4)"),
            [
                Token::Symbol(b"e8(Q)"),
                Token::VariationOpen,
                Token::Symbol(b"e4"),
                Token::VariationClose
            ]
        );
    }

    #[test]
    fn en_passant_mark_belongs_to_its_move() {
        assert_eq!(
            pgn(b"exd6e.p. c6 exd6e.p.+ e4 e.g. e5"),
            [
                Token::Symbol(b"exd6e.p."),
                Token::Symbol(b"c6"),
                Token::Symbol(b"exd6e.p.+"),
                Token::Symbol(b"e4"),
                Token::Symbol(b"e"),
                Token::Periods(1),
                Token::Symbol(b"g"),
                Token::Periods(1),
                Token::Symbol(b"e5"),
            ]
        );
    }

    #[test]
    fn pdn_tokens() {
        assert_eq!(
            tokens(
                b"1.32-28 19x23(?) 1-1 1-10 /FEN \"W:W31\"/ 28x19*",
                Dialect::PDN
            ),
            [
                Token::MoveNumber {
                    number: 1,
                    periods: 1
                },
                Token::Symbol(b"32-28"),
                Token::Symbol(b"19x23"),
                Token::Suffix(b"(?)"),
                Token::Symbol(b"1-1"),
                Token::Symbol(b"1-10"),
                Token::Setup {
                    text: b"FEN \"W:W31\"",
                    unterminated: false
                },
                Token::Symbol(b"28x19"),
                Token::Asterisk,
            ]
        );
    }

    #[test]
    fn unterminated_comment_stops_before_a_new_game() {
        let input = b"e4 { oops\n\n[Event \"next\"]\n";
        assert_eq!(
            pgn(input),
            [
                Token::Symbol(b"e4"),
                Token::Comment {
                    text: b" oops\n\n",
                    unterminated: true
                },
                Token::TagOpen,
                Token::Symbol(b"Event"),
                Token::String {
                    escaped: b"next",
                    unterminated: false
                },
                Token::TagClose,
            ]
        );
    }

    #[test]
    fn need_more_at_slice_end() {
        let d = Dialect::PGN;
        let mut gap = Gap::default();
        assert_eq!(lex(b"Nf", 0, false, true, &d, &mut gap), Lexed::NeedMore);
        assert_eq!(lex(b"{abc", 0, false, true, &d, &mut gap), Lexed::NeedMore);
        assert_eq!(lex(b"\"ab", 0, false, true, &d, &mut gap), Lexed::NeedMore);
        assert_eq!(lex(b"   ", 0, false, true, &d, &mut gap), Lexed::NeedMore);
        assert_eq!(lex(b"   ", 0, true, true, &d, &mut gap), Lexed::End);
        assert!(matches!(
            lex(b"Nf3 N", 0, false, true, &d, &mut gap),
            Lexed::Token {
                token: Token::Symbol(b"Nf3"),
                ..
            }
        ));
        // A move mark (`e.p.`) may follow: the symbol waits for the next bytes.
        for input in [&b"exd6e."[..], b"exd6e.p"] {
            assert_eq!(lex(input, 0, false, true, &d, &mut gap), Lexed::NeedMore);
        }
        assert!(matches!(
            lex(b"exd6e.p. ", 0, false, true, &d, &mut gap),
            Lexed::Token {
                token: Token::Symbol(b"exd6e.p."),
                ..
            }
        ));
        // PDN has no move marks.
        assert!(matches!(
            lex(b"32x28 ", 0, false, true, &Dialect::PDN, &mut gap),
            Lexed::Token {
                token: Token::Symbol(b"32x28"),
                ..
            }
        ));
    }

    #[test]
    fn a_literal_cr_before_a_line_end_is_white_space() {
        // In tags, glued to a move, a marker and a move number, alone on a line, before
        // CR LF, and last in the input.
        let input = b"[Site \"M\"]\\r\n\\r\n1. 35-30\\r\n6.\\r\r\n15x4 *\\r\n\\r\n2-0\\r";
        assert_eq!(
            tokens(input, Dialect::PDN),
            [
                Token::TagOpen,
                Token::Symbol(b"Site"),
                Token::String {
                    escaped: b"M",
                    unterminated: false
                },
                Token::TagClose,
                Token::MoveNumber {
                    number: 1,
                    periods: 1
                },
                Token::Symbol(b"35-30"),
                Token::MoveNumber {
                    number: 6,
                    periods: 1
                },
                Token::Symbol(b"15x4"),
                Token::Asterisk,
                Token::Symbol(b"2-0"),
            ]
        );
        // Recorded in the gap; the line end after it counts.
        let mut gap = Gap::default();
        let lexed = lex(b"e4\\r\n\\r\ne5", 2, true, true, &Dialect::PGN, &mut gap);
        assert!(matches!(
            lexed,
            Lexed::Token {
                token: Token::Symbol(b"e5"),
                start: 8,
                ..
            }
        ));
        assert!(gap.literal_cr);
        assert!(gap.blank_line);
    }

    #[test]
    fn other_backslashes_belong_to_symbols() {
        assert_eq!(
            pgn(b"a\\b \\x \\ e4\\r5 e5\\"),
            [
                Token::Symbol(b"a\\b"),
                Token::Symbol(b"\\x"),
                Token::Symbol(b"\\"),
                Token::Symbol(b"e4\\r5"),
                Token::Symbol(b"e5\\"),
            ]
        );
        // Strings and comments keep theirs.
        assert_eq!(
            pgn(b"{a\\r\n} ; b\\r\n"),
            [
                Token::Comment {
                    text: b"a\\r\n",
                    unterminated: false
                },
                Token::LineComment(b" b\\r"),
            ]
        );
    }

    #[test]
    fn a_backslash_at_the_slice_end_waits_for_more() {
        let d = Dialect::PDN;
        let mut gap = Gap::default();
        for input in [&b"35-30\\"[..], b"35-30\\r", b" \\", b" \\r"] {
            assert_eq!(
                lex(input, 0, false, true, &d, &mut gap),
                Lexed::NeedMore,
                "{input:?}"
            );
        }
        assert!(matches!(
            lex(b"35-30\\r", 0, true, true, &d, &mut gap),
            Lexed::Token {
                token: Token::Symbol(b"35-30"),
                end: 5,
                ..
            }
        ));
        assert_eq!(lex(b" \\r", 0, true, true, &d, &mut gap), Lexed::End);
    }

    #[test]
    fn gaps_record_blank_lines_tabs_and_lone_cr() {
        let mut gap = Gap::default();
        skip_whitespace(b"\r\n\t\r\nx", 0, &mut gap);
        assert!(gap.blank_line && gap.tab && !gap.lone_cr);
        let mut gap = Gap::default();
        skip_whitespace(b"\rx", 0, &mut gap);
        assert!(gap.lone_cr && !gap.blank_line);
    }
}
