//! [`Pocket`]: the pieces a crazyhouse player holds in hand, to drop.

use std::fmt;

use crate::{ByColor, Color, Piece, Role};

/// The pieces one side of a crazyhouse game holds in hand: how many of each role but the
/// king (a captured piece that had been promoted comes back as a pawn).
///
/// ```
/// use pgn::{Pocket, Role};
/// let mut pocket = Pocket::default();
/// pocket.add(Role::Knight);
/// pocket.add(Role::Pawn);
/// assert_eq!(pocket.count(Role::Knight), 1);
/// assert_eq!(pocket.total(), 2);
/// ```
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Pocket {
    /// Counts of pawns, knights, bishops, rooks and queens.
    counts: [u8; 5],
}

impl Pocket {
    /// Nothing in hand.
    pub const EMPTY: Pocket = Pocket { counts: [0; 5] };

    /// The roles a pocket can hold, in the order FEN writes them.
    pub const ROLES: [Role; 5] = [
        Role::Queen,
        Role::Rook,
        Role::Bishop,
        Role::Knight,
        Role::Pawn,
    ];

    /// How many pieces of `role` are in hand (0 for the king).
    #[inline]
    pub const fn count(&self, role: Role) -> u8 {
        match role {
            Role::King => 0,
            _ => self.counts[role.index()],
        }
    }

    /// `true` if a piece of `role` is in hand.
    #[inline]
    pub const fn has(&self, role: Role) -> bool {
        self.count(role) > 0
    }

    /// All pieces in hand.
    pub fn total(&self) -> u32 {
        self.counts.iter().map(|&c| u32::from(c)).sum()
    }

    /// `true` if nothing is in hand.
    pub fn is_empty(&self) -> bool {
        self.counts == [0; 5]
    }

    /// Puts a piece in hand (a king is ignored; the count saturates at 255).
    pub fn add(&mut self, role: Role) {
        if role != Role::King {
            let c = &mut self.counts[role.index()];
            *c = c.saturating_add(1);
        }
    }

    /// Takes a piece out of hand; `false` if there was none.
    pub fn remove(&mut self, role: Role) -> bool {
        if role == Role::King || self.counts[role.index()] == 0 {
            return false;
        }
        self.counts[role.index()] -= 1;
        true
    }
}

/// Both sides' pockets, written as FEN writes them: white's pieces in upper case, then
/// black's in lower case, queens first (`QNpp`).
impl fmt::Display for ByColor<Pocket> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for color in Color::ALL {
            for role in Pocket::ROLES {
                let piece = Piece { color, role };
                for _ in 0..self.get(color).count(role) {
                    fmt::Write::write_char(f, piece.char())?;
                }
            }
        }
        Ok(())
    }
}
