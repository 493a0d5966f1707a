//! A move read in one reading of a game: leniently, with what was forgiven, and an
//! ambiguous capture as each of its candidates (each a reading of its own from then on).

use crate::forgiven::Leniency;
use crate::moves::Move;
use crate::movetext_errors::MoveError;
use crate::position::Position;

/// The moves one reading reads a move token as: one, or each candidate of an ambiguous
/// capture.
pub(crate) enum Read {
    /// The one move the text names.
    One(Move),
    /// The candidates of an ambiguous capture, the preferred first.
    Many(Vec<Move>),
}

impl Read {
    /// The moves, the preferred first.
    pub(crate) fn as_slice(&self) -> &[Move] {
        match self {
            Read::One(m) => std::slice::from_ref(m),
            Read::Many(moves) => moves,
        }
    }
}

/// Reads a move in one position, leniently: each candidate of an ambiguous capture is
/// a move, with a [`Leniency::Ambiguous`].
pub(crate) fn read_in(position: &Position, text: &str) -> Result<(Read, Vec<Leniency>), MoveError> {
    match position.parse_canonical(text.as_bytes()) {
        Some(mv) => Ok((Read::One(mv), Vec::new())),
        None => read_in_general(position, text),
    }
}

/// [`read_in`] for a reading whose error would not be reported: `None` when it cannot
/// read the move, found without the general reader where a cheap test tells.
pub(crate) fn try_read_in(position: &Position, text: &str) -> Option<(Read, Vec<Leniency>)> {
    if let Some(mv) = position.parse_canonical(text.as_bytes()) {
        return Some((Read::One(mv), Vec::new()));
    }
    if !position.may_move_from(text.as_bytes()) {
        return None;
    }
    read_in_general(position, text).ok()
}

/// [`read_in`] without its fast path (which found nothing).
fn read_in_general(position: &Position, text: &str) -> Result<(Read, Vec<Leniency>), MoveError> {
    match position.parse_move_general(text) {
        Ok((mv, warnings)) => Ok((
            Read::One(mv),
            warnings.into_iter().map(Leniency::Move).collect(),
        )),
        Err(MoveError::Ambiguous { text, candidates }) => {
            let moves: Vec<Move> = candidates
                .iter()
                .filter_map(|c| position.parse_move(c).ok().map(|(mv, _)| mv))
                .collect();
            if moves.len() < 2 {
                return Err(MoveError::Ambiguous { text, candidates });
            }
            Ok((Read::Many(moves), vec![Leniency::Ambiguous { candidates }]))
        }
        Err(e) => Err(e),
    }
}
