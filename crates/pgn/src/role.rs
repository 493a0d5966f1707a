//! Piece kinds ([`Role`]) and coloured pieces ([`Piece`]).

use std::fmt;

use crate::Color;

/// A kind of piece, regardless of colour.
///
/// ```
/// use pgn::Role;
/// assert_eq!(Role::from_char('N'), Some(Role::Knight));
/// assert_eq!(Role::Knight.upper_char(), 'N');
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[allow(missing_docs)]
pub enum Role {
    Pawn = 0,
    Knight = 1,
    Bishop = 2,
    Rook = 3,
    Queen = 4,
    King = 5,
}

impl Role {
    /// All roles, pawn first.
    pub const ALL: [Role; 6] = [
        Role::Pawn,
        Role::Knight,
        Role::Bishop,
        Role::Rook,
        Role::Queen,
        Role::King,
    ];

    /// The roles a pawn can promote to, queen first.
    pub const PROMOTIONS: [Role; 4] = [Role::Queen, Role::Rook, Role::Bishop, Role::Knight];

    /// 0 for pawn up to 5 for king.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Lower-case letter: `p n b r q k`.
    pub const fn char(self) -> char {
        match self {
            Role::Pawn => 'p',
            Role::Knight => 'n',
            Role::Bishop => 'b',
            Role::Rook => 'r',
            Role::Queen => 'q',
            Role::King => 'k',
        }
    }

    /// Upper-case letter: `P N B R Q K`.
    pub const fn upper_char(self) -> char {
        self.char().to_ascii_uppercase()
    }

    /// Reads a letter of either case.
    pub const fn from_char(c: char) -> Option<Role> {
        match c {
            'p' | 'P' => Some(Role::Pawn),
            'n' | 'N' => Some(Role::Knight),
            'b' | 'B' => Some(Role::Bishop),
            'r' | 'R' => Some(Role::Rook),
            'q' | 'Q' => Some(Role::Queen),
            'k' | 'K' => Some(Role::King),
            _ => None,
        }
    }

    /// Reads an upper-case letter only: `P N B R Q K`.
    #[inline]
    pub const fn from_upper_byte(b: u8) -> Option<Role> {
        match b {
            b'P' => Some(Role::Pawn),
            b'N' => Some(Role::Knight),
            b'B' => Some(Role::Bishop),
            b'R' => Some(Role::Rook),
            b'Q' => Some(Role::Queen),
            b'K' => Some(Role::King),
            _ => None,
        }
    }

    /// Attaches a colour.
    #[inline]
    pub const fn of(self, color: Color) -> Piece {
        Piece { color, role: self }
    }

    /// The role's English name in lower case.
    pub const fn name(self) -> &'static str {
        match self {
            Role::Pawn => "pawn",
            Role::Knight => "knight",
            Role::Bishop => "bishop",
            Role::Rook => "rook",
            Role::Queen => "queen",
            Role::King => "king",
        }
    }
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A piece: a role of a colour.
///
/// ```
/// use pgn::{Color, Piece, Role};
/// let p = Piece::from_char('q').expect("a piece letter");
/// assert_eq!(p, Piece { color: Color::Black, role: Role::Queen });
/// assert_eq!(Role::Queen.of(Color::White).char(), 'Q');
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Whose piece it is.
    pub color: Color,
    /// What kind of piece it is.
    pub role: Role,
}

impl Piece {
    /// FEN letter: upper case for white, lower case for black.
    pub const fn char(self) -> char {
        match self.color {
            Color::White => self.role.upper_char(),
            Color::Black => self.role.char(),
        }
    }

    /// Reads a FEN letter: upper case for white, lower case for black.
    pub const fn from_char(c: char) -> Option<Piece> {
        match Role::from_char(c) {
            Some(role) => Some(Piece {
                color: if c.is_ascii_uppercase() {
                    Color::White
                } else {
                    Color::Black
                },
                role,
            }),
            None => None,
        }
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.color, self.role)
    }
}
