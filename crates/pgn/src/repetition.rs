//! Repetitions: how often a game's positions occur, for the threefold and fivefold rules.

use crate::Position;

/// Counts how often positions occur in a game, for threefold and fivefold repetition.
///
/// Positions are compared by Zobrist hash (pieces, side to move, castling rights and legal
/// en-passant capture, as the rules ask). Only positions since the last capture or pawn move
/// are kept, since none before can recur.
///
/// ```
/// use pgn::{Position, RepetitionTracker};
/// let mut pos = Position::new();
/// let mut reps = RepetitionTracker::new(&pos);
/// for san in ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8"] {
///     pos = pos.resolve_san(san.as_bytes())?.after;
///     reps.push(&pos);
/// }
/// assert_eq!(reps.count(&pos), 3);
/// assert!(reps.is_threefold());
/// # Ok::<(), pgn::san::SanError>(())
/// ```
#[derive(Clone, Debug, Default)]
pub struct RepetitionTracker {
    hashes: Vec<u64>,
}

impl RepetitionTracker {
    /// Starts a game at `start`.
    pub fn new(start: &Position) -> RepetitionTracker {
        RepetitionTracker {
            hashes: vec![start.zobrist_hash()],
        }
    }

    /// Records the position after a move and returns how often it has now occurred.
    pub fn push(&mut self, pos: &Position) -> usize {
        if pos.halfmoves() == 0 {
            self.hashes.clear();
        }
        self.hashes.push(pos.zobrist_hash());
        self.count(pos)
    }

    /// How often `pos` has occurred among the recorded positions.
    pub fn count(&self, pos: &Position) -> usize {
        let h = pos.zobrist_hash();
        self.hashes.iter().filter(|&&x| x == h).count()
    }

    /// `true` if the last recorded position occurred three times or more (a draw may be
    /// claimed).
    pub fn is_threefold(&self) -> bool {
        self.last_count() >= 3
    }

    /// `true` if the last recorded position occurred five times or more (drawn without a
    /// claim).
    pub fn is_fivefold(&self) -> bool {
        self.last_count() >= 5
    }

    fn last_count(&self) -> usize {
        match self.hashes.last() {
            Some(&h) => self.hashes.iter().filter(|&&x| x == h).count(),
            None => 0,
        }
    }
}
