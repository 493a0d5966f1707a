//! Numeric annotation glyphs and the traditional suffix annotations.

use std::fmt;

/// A numeric annotation glyph: `$0` to `$255` in PGN; PDN sets no upper bound, and
/// glyphs up to `$65535` are kept.
///
/// ```
/// use notation::Nag;
/// assert_eq!(Nag::from_suffix(b"!?"), Some(Nag::SPECULATIVE));
/// assert_eq!(Nag(2).to_string(), "$2");
/// assert_eq!(Nag(2).suffix(), Some("?"));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Nag(pub u16);

impl Nag {
    /// `$1`, `!`: a good move.
    pub const GOOD: Nag = Nag(1);
    /// `$2`, `?`: a mistake.
    pub const MISTAKE: Nag = Nag(2);
    /// `$3`, `!!`: a brilliant move.
    pub const BRILLIANT: Nag = Nag(3);
    /// `$4`, `??`: a blunder.
    pub const BLUNDER: Nag = Nag(4);
    /// `$5`, `!?`: a speculative move.
    pub const SPECULATIVE: Nag = Nag(5);
    /// `$6`, `?!`: a dubious move.
    pub const DUBIOUS: Nag = Nag(6);
    /// `$7`: a forced move (the only move). PDN files write it as an attached `*`.
    pub const FORCED: Nag = Nag(7);

    /// The glyph of a traditional suffix annotation (`!`, `?`, `!!`, `??`, `!?`, `?!`),
    /// also in the parenthesised form draughts publications use (`(!)`, `(?)`, …).
    pub fn from_suffix(text: &[u8]) -> Option<Nag> {
        let text = match text {
            [b'(', inner @ .., b')'] => inner,
            other => other,
        };
        Some(match text {
            b"!" => Nag::GOOD,
            b"?" => Nag::MISTAKE,
            b"!!" => Nag::BRILLIANT,
            b"??" => Nag::BLUNDER,
            b"!?" => Nag::SPECULATIVE,
            b"?!" => Nag::DUBIOUS,
            _ => return None,
        })
    }

    /// The glyph nearest to a move strength of any length: PDN's grammar allows any run of
    /// `!` and `?` (`([!?]+)|(\([!?]+\))`), where PGN has six suffixes.
    ///
    /// The six traditional suffixes are read as [`Nag::from_suffix`] reads them. A longer
    /// run of `!` alone is read as `!!`, of `?` alone as `??`; a longer mix as `!?` when it
    /// starts with `!` and as `?!` when it starts with `?`, as the two-character mixes read.
    /// Returns `None` for anything else. A reader that maps a longer run reports that it
    /// did, since the exact strength is not kept.
    ///
    /// ```
    /// use notation::Nag;
    /// assert_eq!(Nag::from_move_strength(b"(!?!!!)"), Some(Nag::SPECULATIVE));
    /// assert_eq!(Nag::from_move_strength(b"!!!"), Some(Nag::BRILLIANT));
    /// assert_eq!(Nag::from_move_strength(b"???"), Some(Nag::BLUNDER));
    /// assert_eq!(Nag::from_move_strength(b"?!?"), Some(Nag::DUBIOUS));
    /// assert_eq!(Nag::from_move_strength(b"(?)"), Some(Nag::MISTAKE));
    /// assert_eq!(Nag::from_move_strength(b"!x"), None);
    /// ```
    pub fn from_move_strength(text: &[u8]) -> Option<Nag> {
        if let Some(nag) = Nag::from_suffix(text) {
            return Some(nag);
        }
        let inner = match text {
            [b'(', inner @ .., b')'] => inner,
            other => other,
        };
        if inner.is_empty() || !inner.iter().all(|&b| b == b'!' || b == b'?') {
            return None;
        }
        let good = inner.iter().all(|&b| b == b'!');
        let bad = inner.iter().all(|&b| b == b'?');
        Some(match (good, bad, inner[0]) {
            (true, _, _) => Nag::BRILLIANT,
            (_, true, _) => Nag::BLUNDER,
            (_, _, b'!') => Nag::SPECULATIVE,
            _ => Nag::DUBIOUS,
        })
    }

    /// The suffix annotation this glyph stands for, if it is one of `$1`..`$6`.
    pub fn suffix(self) -> Option<&'static str> {
        Some(match self.0 {
            1 => "!",
            2 => "?",
            3 => "!!",
            4 => "??",
            5 => "!?",
            6 => "?!",
            _ => return None,
        })
    }
}

impl fmt::Display for Nag {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "${}", self.0)
    }
}
