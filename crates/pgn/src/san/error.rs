//! Why a move token could not be read or resolved.

use crate::{CastlingSide, Color, Role, Square};

/// Why a token could not be read or resolved.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SanError {
    /// The token is not a move at all.
    #[error("`{token}` is not a move: {reason}")]
    Unreadable {
        /// The token.
        token: String,
        /// What is wrong with it.
        reason: &'static str,
    },
    /// The token reads as a move, but no legal move matches it.
    #[error("illegal move `{token}`: {reason}")]
    Illegal {
        /// The token.
        token: String,
        /// Why no legal move matches.
        reason: IllegalReason,
    },
    /// Several legal moves match the token.
    #[error("ambiguous move `{token}`: could be {}", candidates.join(" or "))]
    Ambiguous {
        /// The token.
        token: String,
        /// The canonical SAN of each matching legal move.
        candidates: Vec<String>,
    },
}

/// Why no legal move matches a token.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum IllegalReason {
    /// No piece of that kind (within the given file or rank) moves to the target square.
    #[error("no {color} {role} can move to {to}")]
    NoPiece {
        /// The side to move.
        color: Color,
        /// The piece named.
        role: Role,
        /// The target square.
        to: Square,
    },
    /// A piece could get there, but the move would leave the own king in check.
    #[error("a {role} could reach {to}, but that would leave the {color} king in check")]
    KingInCheck {
        /// The side to move.
        color: Color,
        /// The piece named.
        role: Role,
        /// The target square.
        to: Square,
    },
    /// A pawn reaches the last rank without saying what it becomes.
    #[error("a pawn reaching the last rank must promote (=Q, =R, =B or =N)")]
    MissingPromotion,
    /// A promotion on a move that cannot promote.
    #[error("only a pawn reaching the last rank promotes")]
    BadPromotion,
    /// Castling is not possible.
    #[error(
        "castling {0} is not possible (no right, or the king is in check, or the way is blocked or attacked)"
    )]
    Castling(CastlingSide),
    /// A null move while in check.
    #[error("a null move is not allowed while in check")]
    NullMoveInCheck,
    /// Coordinates whose origin holds no piece of the side to move.
    #[error("there is no {color} piece on {from}")]
    EmptyOrigin {
        /// The side to move.
        color: Color,
        /// The origin square.
        from: Square,
    },
    /// The side to move has no king.
    #[error("the side to move has no king")]
    NoKing,
    /// Crazyhouse: the drop is not possible.
    #[error("no {color} {role} in hand can be dropped on {to}")]
    Drop {
        /// The side to move.
        color: Color,
        /// The piece named.
        role: Role,
        /// The target square.
        to: Square,
    },
    /// Antichess: a capture is possible, so the move must be one.
    #[error("a capture is possible, and captures are compulsory")]
    CaptureCompulsory,
    /// The game is over by the variant's rule; no move follows.
    #[error("the game is over ({0})")]
    GameOver(crate::Outcome),
    /// A drop outside crazyhouse.
    #[error("drops exist only in crazyhouse")]
    NotCrazyhouse,
}
