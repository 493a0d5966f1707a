//! A move read in every reading of a board: in the preferred reading alone when it
//! reads the move as written (the other readings follow later), else in each reading,
//! keeping those that read it best.

use crate::forgiven::{Fit, Forgiven, Leniency, fit};
use crate::moves::Move;
use crate::movetext_errors::MoveError;
use crate::one_reading::{Read, read_in, try_read_in};
use crate::pdn_move::{MAX_READINGS, PdnMove, Reading};
use crate::pdn_position::{Inference, PdnPosition, Readings};
use crate::position::Position;

/// Reads a move token on a board: in the preferred reading alone where it reads the
/// move as PDN 3.0 writes it, else in every reading (see [`read_in_every`]).
pub(crate) fn read_move(
    board: &PdnPosition,
    token: &[u8],
) -> Result<(PdnMove, Forgiven), MoveError> {
    // The move written as PDN 3.0 writes it, and read so in the preferred reading:
    // the common case, read from the bytes (such a token is ASCII). The other
    // readings, if any, are left to follow it when they are needed: every reading
    // that cannot read it as written would be dropped here, and the preferred
    // reading stays preferred. They follow it as it was written: from its squares,
    // and a capture written with its whole path, which may tell apart captures that
    // its ends do not, by that path.
    if board.single() {
        if let Some(mv) = board.position().parse_canonical(token) {
            let mv = PdnMove {
                mv,
                reading: None,
                whole_path: false,
            };
            return Ok((mv, Forgiven(Vec::new())));
        }
    } else if board.may_defer_others() {
        let position = board.position();
        let (read, whole_path) = match position.canonical_pair(token) {
            Some(pair) => (position.read_pair(pair), false),
            None => (position.parse_canonical_path(token), true),
        };
        if let Some(mv) = read {
            let mv = PdnMove {
                mv,
                reading: None,
                whole_path,
            };
            return Ok((mv, Forgiven(Vec::new())));
        }
    }
    let text = match std::str::from_utf8(token) {
        Ok(text) => text,
        Err(_) => {
            return Err(MoveError::Syntax(
                String::from_utf8_lossy(token).into_owned(),
            ));
        }
    };
    if board.single() {
        // One reading. An ambiguous capture makes several.
        match board.position().parse_move_general(text) {
            Ok((mv, warnings)) => {
                let forgiven = warnings.into_iter().map(Leniency::Move).collect();
                let mv = PdnMove {
                    mv,
                    reading: None,
                    whole_path: false,
                };
                return Ok((mv, Forgiven(forgiven)));
            }
            Err(MoveError::Ambiguous { .. }) => {}
            Err(e) => return Err(e),
        }
    }
    board.with_readings(|readings| read_in_every(board, readings, text))
}

/// Why no reading of a board reads a move: the preferred reading's error if it tried
/// the move, or else the first error, the readings taken in the order
/// [`read_in_every`] tries them.
#[cold]
fn reading_error(readings: Readings<'_>, text: &str, algebraic: bool) -> MoveError {
    let mut first_error = None;
    for same_notation in [true, false] {
        for i in 0..readings.in_play() {
            if (readings.is_algebraic(i) == Some(algebraic)) != same_notation {
                continue;
            }
            if i > 0 && first_error.is_some() {
                continue;
            }
            let Some(position) = readings.get(i) else {
                continue;
            };
            if let Err(e) = read_in(position, text) {
                first_error = Some(e);
            }
        }
    }
    first_error.unwrap_or(MoveError::Empty)
}

/// Reads a move in every reading of a board (the other readings up to date).
///
/// Those that read it only by forgiving another game type's way of writing it (the
/// other notation, another capture separator) are dropped when some reading reads it as
/// written. Readings in the notation the move is written in come first: when one of
/// them reads it, the others (which would read it only in the other notation, and be
/// dropped) are not even set up.
///
/// A board that keeps a reserve (a second reading) moves the readings that read the
/// move only with another capture separator there instead of dropping them, and keeps
/// those of the reserve that read it; the readings in play are kept exactly as a first
/// reading keeps them. Only when none of them reads the move do those of the reserve
/// that read it best come into play.
fn read_in_every(
    board: &PdnPosition,
    readings: Readings<'_>,
    text: &str,
) -> Result<(PdnMove, Forgiven), MoveError> {
    let algebraic = text.as_bytes().first().is_some_and(u8::is_ascii_alphabetic);
    let count = readings.count();
    let in_play = readings.in_play();
    // What each reading reads the move as, with what it forgave and how well it fits.
    let mut read: Vec<Option<(Read, Vec<Leniency>, Fit)>> = Vec::with_capacity(count);
    read.resize_with(count, || None);
    // The readings of the game type of the text's squares first, the others only if
    // none of those in play reads it. An error is wanted only if no reading reads the
    // move: the readings are tried without one, which is cheaper where a quick test
    // tells.
    for same_notation in [true, false] {
        if !same_notation && read[..in_play].iter().any(Option::is_some) {
            break;
        }
        for (i, slot) in read.iter_mut().enumerate() {
            if (readings.is_algebraic(i) == Some(algebraic)) != same_notation {
                continue;
            }
            if let Some(position) = readings.get(i) {
                *slot = try_read_in(position, text).map(|(r, forgiven)| {
                    let f = fit(&forgiven);
                    (r, forgiven, f)
                });
            }
        }
    }
    let fit_of = |slot: &Option<(Read, Vec<Leniency>, Fit)>| slot.as_ref().map(|r| r.2);
    // Only the readings that fit best are kept, in their order: those in play, or, when
    // none of them reads the move, those held in reserve.
    let (best, promoted) = match read[..in_play].iter().filter_map(fit_of).min() {
        Some(best) => (best, false),
        None => match read[in_play..].iter().filter_map(fit_of).min() {
            Some(best) => (best, true),
            None => return Err(reading_error(readings, text, algebraic)),
        },
    };
    // Whether a reading that reads the move is kept, and whether in reserve: the first
    // reading keeps those in play that fit best; a second one keeps in reserve those
    // that read it only with another capture separator, and those of the reserve that
    // do not need the other notation.
    let kept = |i: usize, f: Fit| -> Option<bool> {
        match (i < in_play, promoted) {
            (true, false) if f == best => Some(false),
            (true, false) => {
                (board.keeps_reserve() && best == Fit::Fits && f == Fit::Separator).then_some(true)
            }
            (false, false) => (f <= Fit::Separator).then_some(true),
            (false, true) => (f == best).then_some(false),
            (true, true) => None,
        }
    };
    // Those in play first, then those in reserve, each in their order; each candidate
    // of an ambiguous capture a reading of its own, as many as a board keeps.
    let mut first = None;
    let mut others: Vec<(u16, Move)> = Vec::new();
    let mut reserve = 0u16;
    for in_reserve in [false, true] {
        if in_reserve && !board.keeps_reserve() {
            break;
        }
        for (i, slot) in read.iter().enumerate() {
            let Some((moves, forgiven, f)) = slot else {
                continue;
            };
            if kept(i, *f) != Some(in_reserve) {
                continue;
            }
            let index = u16::try_from(i).unwrap_or(u16::MAX);
            for m in moves.as_slice() {
                if others.len() + 1 >= MAX_READINGS {
                    break;
                }
                if first.is_none() {
                    first = Some((index, m, forgiven));
                } else {
                    others.push((index, m.clone()));
                    reserve += u16::from(in_reserve);
                }
            }
        }
    }
    let preferred_read = read.first().is_some_and(Option::is_some);
    let Some((from, mv, forgiven)) = first else {
        return Err(reading_error(readings, text, algebraic));
    };
    let mut forgiven = forgiven.clone();
    let game_type = readings
        .get(usize::from(from))
        .map_or(board.game_type(), Position::game_type);
    if game_type != board.game_type() {
        forgiven.push(Leniency::GameType {
            declared: match board.inference() {
                Inference::Numbering(declared) => Some(declared),
                _ => None,
            },
            from: board.game_type(),
            to: game_type,
            readable: preferred_read,
        });
    }
    // A board with one reading plays a move read in it alone as it plays any move. A
    // board with several records how each goes on, even when only the preferred one
    // does: the other readings read the move as written here, which they could not do
    // later from the move alone (a move with no record is one they follow lazily, as
    // PDN 3.0 writes it, which is how it was written).
    let reading = (from != 0 || !others.is_empty() || !board.single()).then(|| {
        Box::new(Reading {
            from,
            others,
            reserve,
        })
    });
    Ok((
        PdnMove {
            mv: mv.clone(),
            reading,
            whole_path: false,
        },
        Forgiven(forgiven),
    ))
}
