//! Game results and the result tokens of each game type.

use std::fmt;

use crate::color::Color;

/// Which result values a game type uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ResultType {
    /// `1-0 0-1 1/2-1/2 0-0 *`.
    Default,
    /// `2-0 0-2 1-1 0-0 *`.
    International,
}

impl ResultType {
    /// All result tokens of this type: win, loss, draw, double forfeit,
    /// unknown.
    pub const fn tokens(self) -> &'static [&'static str] {
        match self {
            ResultType::Default => &["1-0", "0-1", "1/2-1/2", "0-0", "*"],
            ResultType::International => &["2-0", "0-2", "1-1", "0-0", "*"],
        }
    }

    /// The notation layer's token of this result type for a result read in either: a
    /// win, loss or draw of White in this type's values, any other result as it is.
    pub(crate) fn token_for(self, result: notation::GameResult) -> notation::GameResult {
        use notation::GameResult::*;
        match (self, result) {
            (ResultType::International, FirstWins) => FirstWinsTwo,
            (ResultType::International, SecondWins) => SecondWinsTwo,
            (ResultType::International, Draw) => DrawTwo,
            (ResultType::Default, FirstWinsTwo) => FirstWins,
            (ResultType::Default, SecondWinsTwo) => SecondWins,
            (ResultType::Default, DrawTwo) => Draw,
            (_, other) => other,
        }
    }

    /// Whether this result type writes this result token.
    pub(crate) fn writes(self, result: notation::GameResult) -> bool {
        self.token_for(result) == result
    }
}

/// The result of a game.
///
/// PDN 3.0 knows two sets of result values (pdntags.rst): the *Default* set
/// `1-0 0-1 1/2-1/2 0-0 *` of chess and most draughts variants, and the
/// *International* set `2-0 0-2 1-1 0-0 *` of international and Canadian
/// draughts, which count two points for a win. `0-0` is a double forfeit and
/// `*` an unfinished game or unknown result.
///
/// ```
/// use pdn::{DraughtsResult, ResultType};
///
/// let (result, kind) = DraughtsResult::parse("2-0").expect("a result token");
/// assert_eq!(result, DraughtsResult::WhiteWins);
/// assert_eq!(kind, Some(ResultType::International));
/// assert_eq!(result.to_str(ResultType::Default), "1-0");
/// assert_eq!(ResultType::International.tokens(), &["2-0", "0-2", "1-1", "0-0", "*"]);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DraughtsResult {
    /// White won.
    WhiteWins,
    /// Black won.
    BlackWins,
    /// A draw.
    Draw,
    /// Both players lost (`0-0`).
    DoubleForfeit,
    /// Unfinished or unknown (`*`).
    Unknown,
}

impl DraughtsResult {
    /// Reads a result token of either result type. Also says which type the
    /// token belongs to (`None` for `0-0` and `*`, which both use).
    pub fn parse(s: &str) -> Option<(DraughtsResult, Option<ResultType>)> {
        use DraughtsResult::*;
        Some(match s {
            "1-0" => (WhiteWins, Some(ResultType::Default)),
            "0-1" => (BlackWins, Some(ResultType::Default)),
            "1/2-1/2" => (Draw, Some(ResultType::Default)),
            "2-0" => (WhiteWins, Some(ResultType::International)),
            "0-2" => (BlackWins, Some(ResultType::International)),
            "1-1" => (Draw, Some(ResultType::International)),
            "0-0" => (DoubleForfeit, None),
            "*" => (Unknown, None),
            _ => return None,
        })
    }

    /// The token for this result in the given result type.
    pub const fn to_str(self, kind: ResultType) -> &'static str {
        let tokens = kind.tokens();
        tokens[match self {
            DraughtsResult::WhiteWins => 0,
            DraughtsResult::BlackWins => 1,
            DraughtsResult::Draw => 2,
            DraughtsResult::DoubleForfeit => 3,
            DraughtsResult::Unknown => 4,
        }]
    }

    /// The result of a game the given colour won.
    pub const fn win(winner: Color) -> DraughtsResult {
        match winner {
            Color::White => DraughtsResult::WhiteWins,
            Color::Black => DraughtsResult::BlackWins,
        }
    }
}

impl fmt::Display for DraughtsResult {
    /// The Default-type token.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.to_str(ResultType::Default))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        for kind in [ResultType::Default, ResultType::International] {
            for &token in kind.tokens() {
                let (r, k) = DraughtsResult::parse(token).expect(token);
                assert_eq!(r.to_str(kind), token);
                assert!(k.is_none() || k == Some(kind));
            }
        }
        assert_eq!(DraughtsResult::parse("1-10"), None);
        assert_eq!(DraughtsResult::win(Color::Black).to_string(), "0-1");
    }

    /// Each result type writes a result in its own values, and `0-0` and `*` in both.
    #[test]
    fn tokens_for_each_result_type() {
        use notation::GameResult as Token;
        for kind in [ResultType::Default, ResultType::International] {
            for token in Token::ALL {
                let written = kind.token_for(token);
                assert!(kind.writes(written), "{kind:?} {token:?}");
                assert_eq!(kind.token_for(written), written);
            }
        }
        assert_eq!(
            ResultType::International.token_for(Token::SecondWins),
            Token::SecondWinsTwo
        );
        assert_eq!(ResultType::Default.token_for(Token::DrawTwo), Token::Draw);
        assert!(ResultType::Default.writes(Token::Unknown));
        assert!(!ResultType::Default.writes(Token::FirstWinsTwo));
    }
}
