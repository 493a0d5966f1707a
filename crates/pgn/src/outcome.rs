//! How a game ends, as words: [`Outcome`] and the variants' own ends ([`VariantEnd`]). Which
//! one a position has is the rules' question, above the position (`Position::outcome`).

use std::fmt;

use crate::Color;

/// The end of a game decided by the position alone.
///
/// ```
/// use pgn::{Color, Outcome, Position};
/// let mate = Position::from_fen("R5k1/5ppp/8/8/8/8/8/6K1 b - - 1 1")?;
/// assert_eq!(mate.outcome(), Some(Outcome::Checkmate { winner: Color::White }));
/// assert_eq!(mate.outcome().map(|o| o.result()), Some("1-0"));
/// let bare = Position::from_fen("8/8/4k3/8/8/3NK3/8/8 w - - 0 1")?;
/// assert_eq!(bare.outcome(), Some(Outcome::InsufficientMaterial));
/// # Ok::<(), pgn::fen::FenError>(())
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// The side to move is checkmated.
    Checkmate {
        /// The side that gave mate.
        winner: Color,
    },
    /// The side to move has no legal move and is not in check.
    Stalemate,
    /// Neither side has the material to mate, whatever the moves.
    InsufficientMaterial,
    /// 75 moves by each side without capture or pawn move: drawn without a claim.
    SeventyFiveMoves,
    /// A variant's own end (see [`VariantEnd`]).
    Variant {
        /// The winner, `None` for a draw.
        winner: Option<Color>,
        /// How the game ended.
        end: VariantEnd,
    },
}

/// How a variant game ends by the variant's own rule.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum VariantEnd {
    /// Atomic: a king was blown up.
    KingExploded,
    /// Antichess: the winner has lost all its pieces.
    AllPiecesLost,
    /// Antichess: the winner, to move, has no legal move.
    NoMoveLeft,
    /// King of the hill: a king reached the centre.
    KingOnHill,
    /// Three-check: the winner gave its third check.
    ThirdCheck,
    /// Horde: black took every white piece.
    HordeGone,
    /// Racing kings: the winner's king reached the eighth rank first.
    KingHome,
    /// Racing kings: both kings reached the eighth rank (a draw).
    BothKingsHome,
}

impl VariantEnd {
    /// A few words for it: `a king exploded`, `third check`, ….
    pub const fn description(self) -> &'static str {
        match self {
            VariantEnd::KingExploded => "a king exploded",
            VariantEnd::AllPiecesLost => "all pieces lost",
            VariantEnd::NoMoveLeft => "no move left",
            VariantEnd::KingOnHill => "a king reached the hill",
            VariantEnd::ThirdCheck => "third check",
            VariantEnd::HordeGone => "the horde is gone",
            VariantEnd::KingHome => "a king reached the eighth rank",
            VariantEnd::BothKingsHome => "both kings reached the eighth rank",
        }
    }
}

impl fmt::Display for VariantEnd {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.description())
    }
}

impl Outcome {
    /// The winner, `None` for draws.
    pub const fn winner(self) -> Option<Color> {
        match self {
            Outcome::Checkmate { winner } => Some(winner),
            Outcome::Variant { winner, .. } => winner,
            _ => None,
        }
    }

    /// The PGN result: `1-0`, `0-1` or `1/2-1/2`.
    pub const fn result(self) -> &'static str {
        match self.winner() {
            Some(Color::White) => "1-0",
            Some(Color::Black) => "0-1",
            None => "1/2-1/2",
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Checkmate { winner } => write!(f, "{winner} mates"),
            Outcome::Stalemate => f.write_str("stalemate"),
            Outcome::InsufficientMaterial => f.write_str("insufficient material"),
            Outcome::SeventyFiveMoves => f.write_str("seventy-five-move rule"),
            Outcome::Variant {
                winner: Some(winner),
                end,
            } => write!(f, "{winner} wins: {end}"),
            Outcome::Variant { winner: None, end } => write!(f, "draw: {end}"),
        }
    }
}
