//! The warnings and errors of reading move text ([`crate::movetext`]): below both the
//! reader and what a game's reading forgave ([`crate::Forgiven`]), which names them.

use crate::color::Color;
use crate::geometry::SquareError;

/// Something the move text did that PDN 3.0 does not allow when writing
/// but the reader forgave.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MoveWarning {
    /// A square number with leading zeros (`06`, PDN 2.0).
    #[error("square `{0}` has a leading zero")]
    LeadingZero(String),
    /// An algebraic name in a game written with numbers.
    #[error("square `{0}` is algebraic but the game uses numbers")]
    AlphaSquare(String),
    /// A number in a game written algebraically.
    #[error("square `{0}` is a number but the game uses algebraic names")]
    NumericSquare(String),
    /// An upper-case file letter.
    #[error("square `{0}` is written in upper case")]
    UpperCaseSquare(String),
    /// `-` between the squares of a capture.
    #[error("`-` was used for a capture")]
    DashForCapture,
    /// A capture separator between the squares of a step.
    #[error("`{0}` was used for a move that captures nothing")]
    CaptureSeparatorForStep(char),
    /// A separator other than the game's.
    #[error("`{found}` was used where the game writes `{expected}`")]
    Separator {
        /// The separator written.
        found: char,
        /// The separator of the game type.
        expected: char,
    },
    /// No separator between the squares.
    #[error("the squares of the move are not separated")]
    MissingSeparator,
    /// Intermediate squares other than the turning squares PDN 3.0 asks for.
    #[error("the intermediate squares are not the ones PDN 3.0 writes (turning squares)")]
    NonstandardPath,
    /// Spaces inside the move (`1- 6`, as old column-aligned files write).
    #[error("spaces inside the move were ignored")]
    Spaces,
}

/// Why a move text does not name a legal move.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    /// Nothing to read.
    #[error("the move is empty")]
    Empty,
    /// Not the shape of a move.
    #[error("`{0}` is not a move (expected squares like 32-28, 28x17 or c3-d4)")]
    Syntax(String),
    /// A square that does not exist.
    #[error("bad square `{text}` in the move: {source}")]
    Square {
        /// The square as written.
        text: String,
        /// Why.
        source: SquareError,
    },
    /// The start square holds no piece of the side to move.
    #[error("{text}: there is no {color} piece on {square}")]
    NoPiece {
        /// The move as written.
        text: String,
        /// The side to move.
        color: Color,
        /// The start square as written.
        square: String,
    },
    /// A step while a capture is compulsory.
    #[error("{text}: a capture is compulsory in this position")]
    CaptureRequired {
        /// The move as written.
        text: String,
    },
    /// No legal move matches.
    #[error("{text}: no legal move goes from {from} to {to} this way")]
    Illegal {
        /// The move as written.
        text: String,
        /// Start square as written.
        from: String,
        /// End square as written.
        to: String,
    },
    /// Several legal captures taking different pieces match.
    #[error("{text} is ambiguous: it could be {}", candidates.join(" or "))]
    Ambiguous {
        /// The move as written.
        text: String,
        /// The full notation of each candidate.
        candidates: Vec<String>,
    },
}
