//! What the reader makes of a token: its kind, apart from its bytes, and what some
//! symbols read as (numbers, evaluation symbols written for their glyphs).

use crate::lexer::Token;
use crate::nag::Nag;

/// A token's kind without its bytes, so that the buffer is free to grow while it is handled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kind {
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
    pub(super) fn of(token: Token<'_>) -> Kind {
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
    pub(super) fn content(self, start: u64, end: u64) -> (u64, u64) {
        match self {
            Kind::Comment { unterminated }
            | Kind::String { unterminated }
            | Kind::Setup { unterminated } => (start + 1, if unterminated { end } else { end - 1 }),
            Kind::LineComment | Kind::Escape => (start + 1, end),
            _ => (start, end),
        }
    }
}

/// The value of a run of ASCII digits (saturating: a number too large stays the largest).
pub(super) fn digits_value(digits: &[u8]) -> u64 {
    digits.iter().fold(0u64, |n, &d| {
        n.saturating_mul(10).saturating_add(u64::from(d - b'0'))
    })
}

/// Evaluation symbols that some files write in the movetext instead of their glyphs.
#[inline]
pub(super) fn evaluation_symbol(symbol: &[u8]) -> Option<Nag> {
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
