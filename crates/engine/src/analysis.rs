//! What an engine said of a position.

use std::time::Duration;

/// An engine's score, from the point of view of the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Score {
    /// An evaluation in hundredths of a pawn: positive when the side to move stands better.
    Centipawns(i32),
    /// A forced mate: `Mate(n)` with `n > 0` is the side to move mating in `n` moves, with
    /// `n < 0` the side to move mated in `-n`, and `Mate(0)` the side to move mated already.
    Mate(i32),
}

/// What an engine said of a position at the end of a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Analysis {
    /// The last score the engine gave for its principal variation (a bound counts like an
    /// exact score).
    pub score: Score,
    /// The last depth the engine gave, in plies; 0 when it gave none.
    pub depth: u32,
    /// The last count of nodes searched the engine gave; 0 when it gave none.
    pub nodes: u64,
    /// The principal variation, in the protocol's move notation as the engine wrote it (UCI:
    /// `e2e4`, `e7e8q`, castling `e1g1`, or `e1h1` in Chess960); empty when the side to move
    /// has no move. The last one the engine gave; its best move alone if it gave none.
    pub pv: Vec<String>,
    /// The wall time from the order to search to the engine's best move.
    pub search_time: Duration,
}
