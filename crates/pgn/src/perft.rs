//! Perft: counting the leaves of the legal-move tree, to test move generation.
//!
//! ```
//! use pgn::{perft, Position};
//! let pos = Position::new();
//! assert_eq!(perft::count(&pos, 3), 8902);
//! let divided = perft::divide(&pos, 2);
//! assert_eq!(divided.len(), 20);
//! assert!(divided.iter().all(|(_, n)| *n == 20));
//! ```

use crate::{Move, Position};

/// The number of move sequences of length `depth` from `pos` (1 for depth 0).
///
/// The last ply is counted without playing its moves (bulk counting).
pub fn count(pos: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_legal_moves() as u64,
        _ => {
            let mut total = 0;
            for m in &pos.legal_moves() {
                total += count(&pos.play(m), depth - 1);
            }
            total
        }
    }
}

/// [`count`] split by first move: each legal move with the count below it.
///
/// For `depth` 0 the list is empty.
pub fn divide(pos: &Position, depth: u32) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    pos.legal_moves()
        .into_iter()
        .map(|m| (m, count(&pos.play(&m), depth - 1)))
        .collect()
}
