//! Perft: counting the leaves of the move tree, to test move generation.
//!
//! Captures that start and end on the same squares and take the same pieces
//! are one move and counted once, except in Frisian draughts, whose
//! published counts keep every path.
//!
//! ```
//! use pdn::{perft, Position, Variant};
//!
//! let pos = Position::new(Variant::English);
//! assert_eq!(perft::count(&pos, 4), 1469);
//! let divided = perft::divide(&pos, 2);
//! assert_eq!(divided.len(), 7);
//! assert_eq!(divided.iter().map(|(_, n)| n).sum::<u64>(), 49);
//! ```

use crate::moves::Move;
use crate::position::Position;

/// How perft counts captures that share start, end and captured pieces
/// but take different paths.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Duplicates {
    /// The variant's own convention: merged, except in Frisian draughts.
    Variant,
    /// Counted once (they lead to the same position).
    Merge,
    /// Counted once per path (as some published tables do, e.g. Ed
    /// Gilbert's Italian positions and Frisian).
    Keep,
}

/// The number of move sequences `depth` plies deep.
pub fn count(pos: &Position, depth: u32) -> u64 {
    pos.perft(depth)
}

/// Perft with an explicit convention for duplicate captures.
///
/// ```
/// use pdn::perft::{count_with, Duplicates};
/// use pdn::{Position, Variant};
///
/// // A man can take the four men around 28 in either direction.
/// let pos = Position::from_fen_str(Variant::International, "W:W38:B33,23,22,32")?;
/// assert_eq!(count_with(&pos, 1, Duplicates::Merge), 1);
/// assert_eq!(count_with(&pos, 1, Duplicates::Keep), 2);
/// # Ok::<(), pdn::fen::FenError>(())
/// ```
pub fn count_with(pos: &Position, depth: u32, duplicates: Duplicates) -> u64 {
    match duplicates {
        Duplicates::Variant => pos.perft(depth),
        Duplicates::Merge => pos.perft_duplicates(depth, true),
        Duplicates::Keep => pos.perft_duplicates(depth, false),
    }
}

/// Perft split by the first move: each legal move with the number of
/// sequences of `depth` plies starting with it.
pub fn divide(pos: &Position, depth: u32) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    pos.legal_moves()
        .into_iter()
        .map(|m| {
            let n = pos.after(&m).perft(depth - 1);
            (m, n)
        })
        .collect()
}
