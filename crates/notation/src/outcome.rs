//! Game termination markers.

use std::fmt;

/// A game termination marker (and the value of a `Result` tag).
///
/// Chess knows four markers; PDN adds the international draughts scores and the
/// double forfeit. Which of them a reader accepts is set by its [`Dialect`](crate::Dialect).
///
/// ```
/// use notation::GameResult;
/// assert_eq!(GameResult::from_token(b"1/2-1/2"), Some(GameResult::Draw));
/// assert_eq!(GameResult::Draw.as_str(), "1/2-1/2");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// `1-0`: the first player (White) won.
    FirstWins,
    /// `0-1`: the second player (Black) won.
    SecondWins,
    /// `1/2-1/2`: a draw.
    Draw,
    /// `*`: unknown, unfinished or abandoned.
    Unknown,
    /// `2-0`: the first player won, on a two-point scale.
    FirstWinsTwo,
    /// `0-2`: the second player won, on a two-point scale.
    SecondWinsTwo,
    /// `1-1`: a draw, on a two-point scale.
    DrawTwo,
    /// `0-0`: both players forfeited.
    DoubleForfeit,
}

impl GameResult {
    /// Every marker, in a fixed order.
    pub const ALL: [GameResult; 8] = [
        GameResult::FirstWins,
        GameResult::SecondWins,
        GameResult::Draw,
        GameResult::Unknown,
        GameResult::FirstWinsTwo,
        GameResult::SecondWinsTwo,
        GameResult::DrawTwo,
        GameResult::DoubleForfeit,
    ];

    /// The marker as the standards write it.
    pub const fn as_str(self) -> &'static str {
        match self {
            GameResult::FirstWins => "1-0",
            GameResult::SecondWins => "0-1",
            GameResult::Draw => "1/2-1/2",
            GameResult::Unknown => "*",
            GameResult::FirstWinsTwo => "2-0",
            GameResult::SecondWinsTwo => "0-2",
            GameResult::DrawTwo => "1-1",
            GameResult::DoubleForfeit => "0-0",
        }
    }

    /// Reads a marker written exactly as a standard writes it.
    pub fn from_token(token: &[u8]) -> Option<GameResult> {
        // A match on the bytes, not a search of `ALL`: a reader asks this of every move
        // that starts with a digit (PDN's `32-28`).
        Some(match token {
            b"1-0" => GameResult::FirstWins,
            b"0-1" => GameResult::SecondWins,
            b"1/2-1/2" => GameResult::Draw,
            b"*" => GameResult::Unknown,
            b"2-0" => GameResult::FirstWinsTwo,
            b"0-2" => GameResult::SecondWinsTwo,
            b"1-1" => GameResult::DrawTwo,
            b"0-0" => GameResult::DoubleForfeit,
            _ => return None,
        })
    }

    /// Reads the forms real files use instead of a standard marker (`½-½`, `1/2`,
    /// `0.5-0.5`, `1:0`, `0:1`, and `-` for a result not known, as federation files
    /// write it). Returns `None` for anything else, the standard forms included.
    pub fn from_lenient_token(token: &[u8]) -> Option<GameResult> {
        if !token.is_ascii() {
            // Typographic dashes (`1–0`, `1/2—1/2`) for the hyphen; text that is not
            // UTF-8 is read as Windows-1252 (`½-½` in Latin-1), as the reader does.
            let (text, _) = crate::encoding::decode(token);
            let plain: String = text
                .chars()
                .map(|c| match c {
                    '\u{2010}'..='\u{2015}' | '\u{2212}' => '-',
                    c => c,
                })
                .collect();
            if plain.as_bytes() != token {
                return GameResult::from_token(plain.as_bytes())
                    .or_else(|| GameResult::from_lenient_token(plain.as_bytes()));
            }
        }
        Some(match token {
            b"1/2" | b"0.5-0.5" => GameResult::Draw,
            b"1:0" => GameResult::FirstWins,
            b"0:1" => GameResult::SecondWins,
            b"-" => GameResult::Unknown,
            t if t == "½-½".as_bytes() => GameResult::Draw,
            _ => return None,
        })
    }
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_marker_reads_back_and_nothing_else_does() {
        for r in GameResult::ALL {
            assert_eq!(GameResult::from_token(r.as_str().as_bytes()), Some(r));
            assert_eq!(GameResult::from_lenient_token(r.as_str().as_bytes()), None);
        }
        for token in ["32-28", "1-10", "1-", "1/2", "0:1", "**", ""] {
            assert_eq!(GameResult::from_token(token.as_bytes()), None, "{token}");
        }
        // The lenient forms in ASCII are as long as the standard ones: 1, 3 or 7 bytes
        // (a dialect's reader tells moves apart by that).
        for token in ["1/2", "0.5-0.5", "1:0", "0:1", "-"] {
            assert!(GameResult::from_lenient_token(token.as_bytes()).is_some());
            assert!(matches!(token.len(), 1 | 3 | 7));
        }
    }
}
