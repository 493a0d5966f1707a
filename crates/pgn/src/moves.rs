//! [`Move`] and the fixed-capacity [`MoveList`].

use std::fmt;
use std::ops::{Deref, DerefMut};

use arrayvec::ArrayVec;

use crate::{CastlingSide, Role, Square};

/// A move in a position, with everything needed to play it without looking at the board.
///
/// Moves come from [`Position::legal_moves`](crate::Position::legal_moves) or from reading
/// SAN or UCI in a position.
///
/// ```
/// use pgn::{Move, Position, Role, Square};
/// let pos = Position::new();
/// let m = Move::Normal { role: Role::Knight, from: Square::G1, capture: None, to: Square::F3, promotion: None };
/// assert!(pos.is_legal(&m));
/// assert_eq!(m.to_string(), "Ng1-f3");
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// Any move but en passant and castling (promotions included).
    Normal {
        /// The piece that moves.
        role: Role,
        /// Where it comes from.
        from: Square,
        /// The piece taken on `to`, if any.
        capture: Option<Role>,
        /// Where it goes.
        to: Square,
        /// What a pawn becomes on the last rank.
        promotion: Option<Role>,
    },
    /// A pawn taking a pawn that has just passed it with a double step.
    EnPassant {
        /// Where the capturing pawn comes from.
        from: Square,
        /// Where it goes (the square the other pawn passed over).
        to: Square,
    },
    /// Castling, given by the king's and the rook's squares before the move (so that Chess960
    /// castling is described as well).
    Castle {
        /// The king's square.
        king: Square,
        /// The castling rook's square.
        rook: Square,
    },
    /// Crazyhouse: a piece from the pocket put on an empty square (`N@f3`).
    Put {
        /// The piece dropped.
        role: Role,
        /// Where it goes.
        to: Square,
    },
    /// Passing the turn (`--` in PGN), found in analysis; not a legal chess move.
    Null,
}

impl Move {
    /// The moving piece (pawn for en passant, king for castling), `None` for a null move.
    pub const fn role(&self) -> Option<Role> {
        match *self {
            Move::Normal { role, .. } => Some(role),
            Move::EnPassant { .. } => Some(Role::Pawn),
            Move::Castle { .. } => Some(Role::King),
            Move::Put { role, .. } => Some(role),
            Move::Null => None,
        }
    }

    /// The origin square (the king's for castling), `None` for a drop or a null move.
    pub const fn from(&self) -> Option<Square> {
        match *self {
            Move::Normal { from, .. } | Move::EnPassant { from, .. } => Some(from),
            Move::Castle { king, .. } => Some(king),
            Move::Put { .. } | Move::Null => None,
        }
    }

    /// The target square. For castling this is the *rook's* square (king takes rook, as in
    /// Chess960 UCI); see [`Move::king_to`] for where the king ends.
    pub const fn to(&self) -> Option<Square> {
        match *self {
            Move::Normal { to, .. } | Move::EnPassant { to, .. } | Move::Put { to, .. } => Some(to),
            Move::Castle { rook, .. } => Some(rook),
            Move::Null => None,
        }
    }

    /// Where the moving piece ends (for castling, where the king ends).
    pub fn king_to(&self) -> Option<Square> {
        match *self {
            Move::Castle { king, rook } => {
                Some(CastlingSide::from_squares(king, rook).king_to_file())
                    .map(|f| Square::from_coords(f, king.rank()))
            }
            _ => self.to(),
        }
    }

    /// The captured piece's role, if any.
    pub const fn capture(&self) -> Option<Role> {
        match *self {
            Move::Normal { capture, .. } => capture,
            Move::EnPassant { .. } => Some(Role::Pawn),
            _ => None,
        }
    }

    /// `true` for captures, en passant included.
    pub const fn is_capture(&self) -> bool {
        self.capture().is_some()
    }

    /// The promotion, if any.
    pub const fn promotion(&self) -> Option<Role> {
        match *self {
            Move::Normal { promotion, .. } => promotion,
            _ => None,
        }
    }

    /// `true` for pawn moves, pawn drops and captures: the moves that reset the fifty-move
    /// counter.
    pub const fn is_zeroing(&self) -> bool {
        matches!(
            *self,
            Move::Normal {
                role: Role::Pawn,
                ..
            } | Move::Normal {
                capture: Some(_),
                ..
            } | Move::EnPassant { .. }
                | Move::Put {
                    role: Role::Pawn,
                    ..
                }
        )
    }

    /// `true` for a crazyhouse drop.
    pub const fn is_put(&self) -> bool {
        matches!(self, Move::Put { .. })
    }

    /// The side of a castling move.
    pub fn castling_side(&self) -> Option<CastlingSide> {
        match *self {
            Move::Castle { king, rook } => Some(CastlingSide::from_squares(king, rook)),
            _ => None,
        }
    }

    /// `true` for en passant.
    pub const fn is_en_passant(&self) -> bool {
        matches!(self, Move::EnPassant { .. })
    }

    /// `true` for castling.
    pub const fn is_castle(&self) -> bool {
        matches!(self, Move::Castle { .. })
    }
}

impl fmt::Display for Move {
    /// Long algebraic notation: `Ng1-f3`, `e4xd5`, `e7-e8=Q`, `O-O`, `N@f3`, `--`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Move::Normal {
                role,
                from,
                capture,
                to,
                promotion,
            } => {
                if role != Role::Pawn {
                    write!(f, "{}", role.upper_char())?;
                }
                write!(f, "{from}{}{to}", if capture.is_some() { 'x' } else { '-' })?;
                if let Some(p) = promotion {
                    write!(f, "={}", p.upper_char())?;
                }
                Ok(())
            }
            Move::EnPassant { from, to } => write!(f, "{from}x{to}"),
            Move::Castle { king, rook } => {
                f.write_str(CastlingSide::from_squares(king, rook).san())
            }
            Move::Put { role, to } => write!(f, "{}@{to}", role.upper_char()),
            Move::Null => f.write_str("--"),
        }
    }
}

/// Room for every legal move of any position: the most a chess position has is 218, a
/// crazyhouse position adds drops on every empty square.
pub const MAX_MOVES: usize = 512;

/// A list of moves on the stack, with room for every legal move of any position.
///
/// It dereferences to a slice of moves.
///
/// ```
/// use pgn::Position;
/// let moves = Position::new().legal_moves();
/// assert_eq!(moves.len(), 20);
/// assert!(moves.iter().all(|m| !m.is_capture()));
/// ```
#[derive(Clone, Default, PartialEq, Eq)]
pub struct MoveList(ArrayVec<Move, MAX_MOVES>);

impl MoveList {
    /// An empty list.
    #[inline]
    pub fn new() -> MoveList {
        MoveList(ArrayVec::new())
    }

    /// Appends a move; a move beyond the capacity is dropped (no legal position gets there).
    #[inline]
    pub fn push(&mut self, m: Move) {
        let _ = self.0.try_push(m);
    }

    /// Removes all moves.
    pub fn clear(&mut self) {
        self.0.clear();
    }

    /// Keeps only the moves for which `f` is `true`.
    pub fn retain(&mut self, mut f: impl FnMut(&Move) -> bool) {
        self.0.retain(|m| f(m));
    }
}

impl fmt::Debug for MoveList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.0.iter()).finish()
    }
}

impl Deref for MoveList {
    type Target = [Move];
    fn deref(&self) -> &[Move] {
        &self.0
    }
}

impl DerefMut for MoveList {
    fn deref_mut(&mut self) -> &mut [Move] {
        &mut self.0
    }
}

impl IntoIterator for MoveList {
    type Item = Move;
    type IntoIter = arrayvec::IntoIter<Move, MAX_MOVES>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.into_iter()
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

impl Extend<Move> for MoveList {
    fn extend<I: IntoIterator<Item = Move>>(&mut self, iter: I) {
        for m in iter {
            self.push(m);
        }
    }
}

impl FromIterator<Move> for MoveList {
    fn from_iter<I: IntoIterator<Item = Move>>(iter: I) -> MoveList {
        let mut list = MoveList::new();
        list.extend(iter);
        list
    }
}
