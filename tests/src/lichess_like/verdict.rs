//! A game's result and termination, consistent with how its moves ended: a mate's winner,
//! a draw where the board draws (or nearly: equal material and little of it), and
//! otherwise a winner drawn by the rating difference and the material on the board; some
//! of the games decided so are lost on time by the player to move.

use crate::Rng;
use crate::lichess_like::play::{Ending, Played, balance};
use pgn::{Color, GameResult};

/// How the game ended, as lichess's `Termination` tag says.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Termination {
    /// On the board, by resignation or by agreement.
    Normal,
    /// The player to move ran out of time.
    TimeForfeit,
}

impl Termination {
    /// The tag's value.
    pub fn tag(self) -> &'static str {
        match self {
            Termination::Normal => "Normal",
            Termination::TimeForfeit => "Time forfeit",
        }
    }
}

/// A game's result and termination.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// The result.
    pub result: GameResult,
    /// How it came.
    pub termination: Termination,
}

impl Verdict {
    fn normal(result: GameResult) -> Verdict {
        Verdict {
            result,
            termination: Termination::Normal,
        }
    }
}

/// The result a win of `color` is.
fn win(color: Color) -> GameResult {
    match color {
        Color::White => GameResult::FirstWins,
        Color::Black => GameResult::SecondWins,
    }
}

/// Whether the board looks drawn: equal material, and no more than a rook and a minor
/// piece each besides pawns.
fn looks_drawn(played: &Played) -> bool {
    let board = played.end.board();
    let pieces = board.occupied() & !board.pawns() & !board.kings();
    let heavy = (board.queens().count() > 0) || pieces.count() > 4;
    balance(board, Color::White) == 0 && !heavy
}

/// The verdict on `played` between players rated `elo` (White's, Black's); `clock` says
/// whether the game had one (a correspondence game is not lost on time).
pub fn decide(rng: &mut Rng, played: &Played, elo: [u16; 2], clock: bool) -> Verdict {
    let to_move = played.end.turn();
    match played.ending {
        Ending::Checkmate => return Verdict::normal(win(!to_move)),
        Ending::Stalemate
        | Ending::InsufficientMaterial
        | Ending::Repetition
        | Ending::FiftyMoves => return Verdict::normal(GameResult::Draw),
        Ending::Resigned => {
            // Far behind, the player to move resigns, or lets the clock run out.
            let on_time = clock && rng.chance(0.4);
            return Verdict {
                result: win(!to_move),
                termination: if on_time {
                    Termination::TimeForfeit
                } else {
                    Termination::Normal
                },
            };
        }
        Ending::Length => {}
    }
    let average = (f64::from(elo[0]) + f64::from(elo[1])) / 2.0;
    let draw = if looks_drawn(played) {
        0.7
    } else {
        0.04 + 0.08 * ((average - 600.0) / 2400.0).clamp(0.0, 1.0)
    };
    if rng.chance(draw) {
        return Verdict::normal(GameResult::Draw);
    }
    // White's expected score from the ratings, White's first move and the material.
    let edge = f64::from(elo[0]) - f64::from(elo[1])
        + 30.0
        + 0.8 * f64::from(balance(played.end.board(), Color::White));
    let white_wins = 1.0 / (1.0 + 10f64.powf(-edge / 400.0));
    let winner = if rng.chance(white_wins) {
        Color::White
    } else {
        Color::Black
    };
    if played.end.has_insufficient_material(winner) {
        // Who cannot mate cannot win, on time or by resignation.
        return Verdict::normal(GameResult::Draw);
    }
    let on_time = clock && winner != to_move && rng.chance(0.7);
    Verdict {
        result: win(winner),
        termination: if on_time {
            Termination::TimeForfeit
        } else {
            Termination::Normal
        },
    }
}
