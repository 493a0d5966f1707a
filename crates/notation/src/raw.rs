//! A game whose moves are opaque tokens: the notation layer usable on its own, and a
//! home for games no crate knows.

use std::fmt;

use crate::dialect::Dialect;
use crate::rules::{MoveContext, Player, Rules, Setup, SetupError, Strict};
use crate::tags::Tags;

/// A move kept as the token that was written.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct RawMove(pub String);

impl fmt::Display for RawMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// The position of a raw game: only whose turn it is and the move number, taken from
/// the move numbers written in the movetext.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RawPosition {
    /// The full-move number of the next move.
    pub number: u64,
    /// Whose turn it is.
    pub turn: Player,
}

/// Why a raw move token cannot be taken. Raw moves are never refused; this type has
/// no value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RawMoveError {}

/// Rules that accept every move token as it is.
///
/// Turn and move number follow the move numbers written in the movetext, so that a game
/// starting with `12...` is written back starting with `12...`.
///
/// ```
/// use notation::{read_games, RawRules, ReadOptions};
/// let pgn = b"[Event \"?\"]\n\n1. e4 e5 2. Nf3 *\n";
/// let games = read_games(&RawRules::PGN, &pgn[..], ReadOptions::default());
/// let game = games.into_iter().next().unwrap().game;
/// let moves: Vec<_> = game.mainline().map(|n| n.mv.0.as_str()).collect();
/// assert_eq!(moves, ["e4", "e5", "Nf3"]);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RawRules {
    /// The lexical dialect of the files.
    pub dialect: Dialect,
}

impl RawRules {
    /// Raw PGN.
    pub const PGN: RawRules = RawRules {
        dialect: Dialect::PGN,
    };
    /// Raw PDN.
    pub const PDN: RawRules = RawRules {
        dialect: Dialect::PDN,
    };
}

impl Default for RawRules {
    fn default() -> Self {
        RawRules::PGN
    }
}

impl Rules for RawRules {
    type Position = RawPosition;
    type Move = RawMove;
    type Forgiven = Strict;
    type MoveError = RawMoveError;

    fn dialect(&self) -> Dialect {
        self.dialect
    }

    fn start_position(&self, _tags: &Tags) -> Result<Setup<RawPosition>, SetupError> {
        Ok(Setup {
            position: RawPosition {
                number: 1,
                turn: Player::First,
            },
            warnings: Vec::new(),
        })
    }

    fn inline_setup(
        &self,
        current: &RawPosition,
        _text: &str,
    ) -> Result<Setup<RawPosition>, SetupError> {
        Ok(Setup {
            position: *current,
            warnings: Vec::new(),
        })
    }

    fn follow_move_number(&self, position: &mut RawPosition, context: MoveContext) {
        if let Some(number) = context.number {
            position.number = number;
            position.turn = if context.ellipsis {
                Player::Second
            } else {
                Player::First
            };
        }
    }

    fn read_move(
        &self,
        _position: &RawPosition,
        token: &[u8],
        _context: MoveContext,
    ) -> Result<(RawMove, Strict), RawMoveError> {
        Ok((RawMove(String::from_utf8_lossy(token).into_owned()), Strict))
    }

    fn write_move(&self, _position: &RawPosition, mv: &RawMove, out: &mut String) {
        out.push_str(&mv.0);
    }

    fn play(&self, position: &mut RawPosition, _mv: &RawMove) {
        match position.turn {
            Player::First => position.turn = Player::Second,
            Player::Second => {
                position.turn = Player::First;
                position.number = position.number.saturating_add(1);
            }
        }
    }

    fn turn(&self, position: &RawPosition) -> Player {
        position.turn
    }

    fn move_number(&self, position: &RawPosition) -> u64 {
        position.number
    }
}
