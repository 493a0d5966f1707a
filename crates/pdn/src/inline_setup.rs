//! A position set up inside the movetext
//! ([`Rules::inline_setup`](notation::Rules::inline_setup)): `/FEN "…"/` sets up each
//! reading of the game anew, and a FEN with a side to move and no pieces is a pass.

use notation::{Setup, SetupError};

use crate::color::Color;
use crate::fen::FenWarning;
use crate::pdn_position::PdnPosition;
use crate::position::Position;
use crate::setups::start_in;

/// The position a set-up inside the movetext (`/FEN "…"/`) gives a game whose board was
/// `current` (see [`Rules::inline_setup`](notation::Rules::inline_setup)): the FEN set up
/// in each of its readings (the move number goes on), or, for a FEN with no pieces, the
/// move passed to the other side.
pub(crate) fn set_up(current: &PdnPosition, text: &str) -> Result<Setup<PdnPosition>, SetupError> {
    let fen = setup_fen(text)?;
    let null = null_move(fen);
    let read_fen = null.is_none().then_some(fen);
    let mut readings = Vec::new();
    let mut reserved = 0;
    let mut first_error = None;
    let mut warnings = None;
    // Each reading with whether it is held in reserve.
    let current_readings: Vec<(bool, Position)> = current.with_readings(|r| {
        (0..r.count())
            .filter_map(|i| r.get(i).map(|p| (i >= r.in_play(), p.clone())))
            .collect()
    });
    for (in_reserve, position) in current_readings {
        let game_type = position.game_type();
        let read = match null {
            Some(turn) => Position::from_pieces(game_type, turn, position.pieces())
                .map(|mut p| {
                    // A pass by the second player completes a move.
                    let passed = position.turn() != game_type.start() && turn == game_type.start();
                    p.set_fullmove_number(position.fullmove_number() + u32::from(passed));
                    (p, Vec::new())
                })
                .map_err(|e| format!("FEN \"{fen}\": {e}")),
            None => start_in(game_type, read_fen).map(|(mut p, w)| {
                // The FEN has no move number (unless lidraughts' F field gives one):
                // the game's numbering goes on.
                let numbered = w
                    .iter()
                    .any(|w| matches!(w, FenWarning::Extension(f) if f.starts_with('F')));
                if !numbered {
                    p.set_fullmove_number(position.fullmove_number());
                }
                (p, w)
            }),
        };
        match read {
            Ok((p, w)) => {
                warnings.get_or_insert(w);
                if in_reserve {
                    reserved += 1;
                }
                readings.push(p);
            }
            Err(e) => {
                first_error.get_or_insert(e);
            }
        }
    }
    // Those in reserve are the last; if all are, none is: they come into play.
    let reserve = if reserved == readings.len() {
        0
    } else {
        reserved
    };
    let mut readings = readings.into_iter();
    let Some(position) = readings.next() else {
        return Err(SetupError::Invalid(first_error.unwrap_or_default()));
    };
    let others: Vec<Position> = readings.collect();
    Ok(Setup {
        position: PdnPosition::from_readings(
            position,
            others,
            None,
            current.inference(),
            reserve,
            current.keeps_reserve(),
        ),
        warnings: warnings
            .unwrap_or_default()
            .iter()
            .map(|w| format!("FEN: {w}"))
            .collect(),
    })
}

/// The set-up inside the movetext: `FEN "…"`, or a FEN alone.
fn setup_fen(text: &str) -> Result<&str, SetupError> {
    let text = text.trim();
    let rest = match text.get(..3) {
        Some(word) if word.eq_ignore_ascii_case("FEN") => text[3..].trim_start(),
        _ if text.starts_with('"') || text.starts_with(['W', 'B', '?']) => text,
        _ => {
            return Err(SetupError::Unsupported(format!(
                "the set-up /{text}/ is not a FEN command"
            )));
        }
    };
    let fen = rest
        .strip_prefix('"')
        .and_then(|r| r.strip_suffix('"'))
        .unwrap_or(rest);
    Ok(fen)
}

/// A FEN with a side to move and no pieces at all (`B::`, Gérard Taille's null move):
/// the side to move changes, the pieces stay.
fn null_move(fen: &str) -> Option<Color> {
    let fen: String = fen.chars().filter(|c| !c.is_whitespace()).collect();
    let mut parts = fen.split(':');
    let turn = match parts.next()? {
        "W" => Color::White,
        "B" => Color::Black,
        _ => return None,
    };
    parts.all(str::is_empty).then_some(turn)
}
