//! Colours, piece roles and pieces.

use std::fmt;
use std::ops::Not;

/// The colour of a player and of their pieces.
///
/// Which colour moves first depends on the game type (see
/// [`GameType::start`](crate::GameType::start)): White in most variants,
/// Black in English, American pool and Thai draughts.
///
/// ```
/// use pdn::Color;
///
/// assert_eq!(!Color::White, Color::Black);
/// assert_eq!(Color::from_char('B'), Some(Color::Black));
/// assert_eq!(Color::White.char(), 'W');
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Color {
    /// The white (light) pieces.
    White,
    /// The black (dark) pieces.
    Black,
}

impl Color {
    /// Both colours, White first.
    pub const ALL: [Color; 2] = [Color::White, Color::Black];

    /// The letter used for this colour in FEN and `GameType` tags: `W` or `B`.
    pub const fn char(self) -> char {
        match self {
            Color::White => 'W',
            Color::Black => 'B',
        }
    }

    /// Reads `W` or `B` (upper case only; lenient readers fold case first).
    pub const fn from_char(c: char) -> Option<Color> {
        match c {
            'W' => Some(Color::White),
            'B' => Some(Color::Black),
            _ => None,
        }
    }

    /// The other colour.
    #[must_use]
    pub const fn opposite(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// `"white"` or `"black"`.
    pub const fn name(self) -> &'static str {
        match self {
            Color::White => "white",
            Color::Black => "black",
        }
    }
}

impl Not for Color {
    type Output = Color;

    fn not(self) -> Color {
        self.opposite()
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The kind of a piece: an ordinary man or a crowned king.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Role {
    /// An uncrowned piece (also called a checker or a pawn).
    Man,
    /// A crowned piece (a king, dame or dama).
    King,
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Role::Man => "man",
            Role::King => "king",
        })
    }
}

/// A piece: a colour and a role.
///
/// ```
/// use pdn::{Color, Piece, Role};
///
/// let piece = Piece::new(Color::White, Role::King);
/// assert_eq!(piece.to_string(), "white king");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Piece {
    /// Whose piece it is.
    pub color: Color,
    /// Man or king.
    pub role: Role,
}

impl Piece {
    /// A piece of the given colour and role.
    pub const fn new(color: Color, role: Role) -> Piece {
        Piece { color, role }
    }

    /// Whether the piece is a king.
    pub const fn is_king(self) -> bool {
        matches!(self.role, Role::King)
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.color, self.role)
    }
}
