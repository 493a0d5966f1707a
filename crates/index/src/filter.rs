//! Which games a question counts: lichess's filters (month, rating group, speed) and the
//! player explorer's (a player, a colour).

use crate::dims::{Month, RatingGroup, Speed};

/// A side, for the player explorer's `color`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Color {
    /// White, the first player.
    White,
    /// Black, the second player.
    Black,
}

impl std::str::FromStr for Color {
    type Err = String;

    fn from_str(s: &str) -> Result<Color, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "white" | "w" => Ok(Color::White),
            "black" | "b" => Ok(Color::Black),
            _ => Err(format!("{s:?} is not a colour; expected white or black")),
        }
    }
}

/// Which games a query counts; an empty list or `None` lets every game through. A
/// game that a given filter cannot place (no month, no ratings, no time control) does
/// not pass it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Filter {
    /// The first month counted.
    pub since: Option<Month>,
    /// The last month counted.
    pub until: Option<Month>,
    /// The rating groups counted.
    pub ratings: Vec<RatingGroup>,
    /// The speeds counted.
    pub speeds: Vec<Speed>,
    /// Only the games of this player (by name, in any case).
    pub player: Option<String>,
    /// With `player`: only the games where they had this colour.
    pub color: Option<Color>,
}

impl Filter {
    /// Whether it lets every game through.
    pub fn is_everything(&self) -> bool {
        *self == Filter::default()
    }
}
