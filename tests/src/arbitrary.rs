//! What the chess and draughts [`proptest`](mod@proptest) strategies share: sparse lists,
//! a pick among legal moves, joined words.

use proptest::collection::vec;
use proptest::prelude::*;

/// The move that `pick` chooses among `moves`, if there is one.
pub fn choose<M: Clone>(moves: &[M], pick: u16) -> Option<M> {
    (!moves.is_empty()).then(|| moves[usize::from(pick) % moves.len()].clone())
}

/// Mostly nothing, sometimes one to `max` values.
pub fn sparse<T: Strategy + 'static>(
    value: T,
    weight_none: u32,
    max: usize,
) -> BoxedStrategy<Vec<T::Value>>
where
    T::Value: Clone,
{
    prop_oneof![
        weight_none => Just(Vec::new()),
        1 => vec(value, 1..=max),
    ]
    .boxed()
}

/// Joins non-empty parts with single spaces.
pub fn join(parts: &[&str]) -> String {
    parts
        .iter()
        .filter(|p| !p.is_empty())
        .copied()
        .collect::<Vec<_>>()
        .join(" ")
}
