//! A move of a PDN game ([`PdnMove`]): the draughts move, and how it was read in each
//! reading of the game.

use crate::moves::Move;

/// A move of a PDN game: a draughts [`Move`] and, when the board's other readings (see
/// [`PdnPosition`](crate::PdnPosition)) had to read it, which reading it was read in and
/// the move in each other reading that could read it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PdnMove {
    /// The move, in the reading it was read in.
    pub(crate) mv: Move,
    /// `None`: read in the preferred reading, as written; the board's other readings,
    /// if any, follow it lazily.
    pub(crate) reading: Option<Box<Reading>>,
    /// Whether the board's other readings follow a capture read as `reading: None`
    /// by its whole path (`11x18x25`), as it was written, which may tell apart
    /// captures that its ends do not: a game that stays open between game types is
    /// written so again.
    pub(crate) whole_path: bool,
}

/// How a move was read in every reading of a board.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Reading {
    /// The index, among the board's readings, of the one the move was read in: the
    /// preferred reading from then on.
    pub(crate) from: u16,
    /// Each other reading after the move, in order of preference: the index of the
    /// board's reading it continues, and the move played there. An ambiguous capture
    /// continues one reading with each of its candidates.
    pub(crate) others: Vec<(u16, Move)>,
    /// How many of the last of `others` are held in reserve (see
    /// [`PdnPosition`](crate::PdnPosition)).
    pub(crate) reserve: u16,
}

/// The most readings a board keeps: ambiguous captures in a row multiply them.
pub(crate) const MAX_READINGS: usize = 16;

impl PdnMove {
    /// The draughts move.
    pub fn get(&self) -> &Move {
        &self.mv
    }

    /// The draughts move.
    pub fn into_move(self) -> Move {
        self.mv
    }

    /// The other moves this move may be, in readings of the game the later moves have
    /// not yet ruled out when it was read: another game type's, or another candidate
    /// of an ambiguous capture. Recorded for the moves the other readings had to read
    /// when they were read (an ambiguous capture, a move the preferred reading could not
    /// read as written); empty for a move the preferred reading read as PDN 3.0 writes
    /// it, which the other readings follow later, and only if a later move needs them.
    pub fn alternatives(&self) -> impl Iterator<Item = &Move> {
        self.reading
            .iter()
            .flat_map(|r| r.others.iter().map(|(_, m)| m))
    }
}

impl From<Move> for PdnMove {
    fn from(mv: Move) -> PdnMove {
        PdnMove {
            mv,
            reading: None,
            whole_path: false,
        }
    }
}

impl AsRef<Move> for PdnMove {
    fn as_ref(&self) -> &Move {
        &self.mv
    }
}
