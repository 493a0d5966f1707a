//! The move type.

use crate::color::Role;
use crate::geometry::Square;

/// A legal move: a step or a capture, with its whole path.
///
/// Moves come from [`Position::legal_moves`](crate::Position::legal_moves)
/// or [`Position::parse_move`](crate::Position::parse_move) and belong to
/// the position they were made for.
///
/// ```
/// use pdn::{Position, Variant};
///
/// let pos = Position::from_fen_str(Variant::International, "W:W33:B28,18")?;
/// let moves = pos.legal_moves();
/// assert_eq!(moves.len(), 1);
/// let m = &moves[0];
/// let number = |sq| pos.geometry().number(sq);
/// assert_eq!((number(m.from()), number(m.to())), (33, 13));
/// assert_eq!(m.captured().iter().map(|&s| number(s)).collect::<Vec<_>>(), vec![28, 18]);
/// assert_eq!(m.path().iter().map(|&s| number(s)).collect::<Vec<_>>(), vec![22, 13]);
/// # Ok::<(), pdn::fen::FenError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Move {
    pub(crate) role: Role,
    pub(crate) from: Square,
    pub(crate) to: Square,
    pub(crate) promotes: bool,
    /// For captures: one square per piece taken, the last one `to`.
    pub(crate) path: Squares,
    /// For captures: the pieces taken, in order.
    pub(crate) captured: Squares,
}

/// How many squares a [`Squares`] holds without allocating: more than any capture of
/// the real games takes, and no more than keeps a move about as small as two `Vec`s.
const INLINE: usize = 22;

/// The squares of a capture's path or of the pieces it takes: inline up to [`INLINE`]
/// squares (every capture of real games), on the heap beyond, so that reading and playing
/// a capture allocates nothing.
#[derive(Clone)]
pub(crate) enum Squares {
    Inline { len: u8, squares: [Square; INLINE] },
    Heap(Vec<Square>),
}

impl Squares {
    /// No squares.
    pub(crate) const fn new() -> Squares {
        Squares::Inline {
            len: 0,
            squares: [Square::from_index(0); INLINE],
        }
    }

    /// The square of each item of a slice: the length known at once, the squares are
    /// written in place (the capture search's paths are bytes).
    pub(crate) fn map_slice<T>(items: &[T], square: impl Fn(&T) -> Square) -> Squares {
        if items.len() > INLINE {
            return Squares::Heap(items.iter().map(square).collect());
        }
        let mut squares = [Square::from_index(0); INLINE];
        for (slot, item) in squares.iter_mut().zip(items) {
            *slot = square(item);
        }
        Squares::Inline {
            // At most INLINE, which fits.
            len: u8::try_from(items.len()).unwrap_or(u8::MAX),
            squares,
        }
    }
}

impl Default for Squares {
    fn default() -> Self {
        Squares::new()
    }
}

impl std::ops::Deref for Squares {
    type Target = [Square];

    fn deref(&self) -> &[Square] {
        match self {
            Squares::Inline { len, squares } => &squares[..usize::from(*len)],
            Squares::Heap(v) => v,
        }
    }
}

impl FromIterator<Square> for Squares {
    fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> Squares {
        let mut out = Squares::new();
        for sq in iter {
            match &mut out {
                Squares::Inline { len, squares } => match squares.get_mut(usize::from(*len)) {
                    Some(slot) => {
                        *slot = sq;
                        *len += 1;
                    }
                    None => {
                        let mut v = squares.to_vec();
                        v.push(sq);
                        out = Squares::Heap(v);
                    }
                },
                Squares::Heap(v) => v.push(sq),
            }
        }
        out
    }
}

impl std::fmt::Debug for Squares {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

// Equality and hashing are the squares', however they are stored.
impl PartialEq for Squares {
    fn eq(&self, other: &Squares) -> bool {
        **self == **other
    }
}

impl Eq for Squares {}

impl std::hash::Hash for Squares {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        (**self).hash(state);
    }
}

impl Move {
    /// The role of the moving piece before the move.
    pub fn role(&self) -> Role {
        self.role
    }

    /// Where the piece starts.
    pub fn from(&self) -> Square {
        self.from
    }

    /// Where the piece ends (may equal [`Move::from`] after a round trip).
    pub fn to(&self) -> Square {
        self.to
    }

    /// Whether the move takes pieces.
    pub fn is_capture(&self) -> bool {
        !self.captured.is_empty()
    }

    /// Whether a man is crowned by this move.
    pub fn promotes(&self) -> bool {
        self.promotes
    }

    /// The squares of the pieces taken, in the order they are jumped.
    pub fn captured(&self) -> &[Square] {
        &self.captured
    }

    /// The squares of the path after the start, ending with [`Move::to`].
    ///
    /// For a step this is just the destination. For a capture there is one
    /// square per piece taken, as PDN 3.0 writes a full capture: the square
    /// where the piece turns, or the square right behind the piece taken if
    /// it goes straight on; the last one is the destination.
    pub fn path(&self) -> &[Square] {
        if self.path.is_empty() {
            std::slice::from_ref(&self.to)
        } else {
            &self.path
        }
    }

    /// Whether the move takes the same pieces from the same start to the same
    /// end with the same crowning as `other`: the two lead to the same
    /// position.
    pub fn same_effect(&self, other: &Move) -> bool {
        self.from == other.from
            && self.to == other.to
            && self.promotes == other.promotes
            && self.captured.len() == other.captured.len()
            && self.captured.iter().all(|s| other.captured.contains(s))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Squares made from a slice are those collected one by one, inline or on the heap.
    #[test]
    fn squares_from_a_slice_are_those_collected() {
        let square = |&i: &usize| Square::from_index(i as u8);
        for len in [0, 1, 2, INLINE - 1, INLINE, INLINE + 1, 3 * INLINE] {
            let items: Vec<usize> = (0..len).map(|i| (i * 7) % 50).collect();
            let mapped = Squares::map_slice(&items, square);
            let collected: Squares = items.iter().map(square).collect();
            assert_eq!(mapped, collected, "{len}");
            assert_eq!(mapped.len(), len);
            assert_eq!(matches!(mapped, Squares::Heap(_)), len > INLINE);
        }
    }
}
