//! How a game ends: checkmate, stalemate, insufficient material, the move-count rules, and
//! repetitions ([`RepetitionTracker`]).

use std::fmt;

use crate::variants;
use crate::{Bitboard, Color, Position, Role, Ruleset};

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

impl Position {
    /// `true` if the side to move is checkmated.
    pub fn is_checkmate(&self) -> bool {
        self.is_check() && !self.has_legal_moves()
    }

    /// `true` if the side to move is stalemated.
    pub fn is_stalemate(&self) -> bool {
        !self.is_check() && !self.has_legal_moves()
    }

    /// `true` if `color` cannot possibly win, whatever the moves of both sides. In standard
    /// chess: a bare king, a king and one knight against a king with at most queens, or
    /// bishops all on one colour of square with no pawns or knights on the board. Variants
    /// judge by their own way of winning (a lone king can still reach the hill or the
    /// eighth rank, any piece can give three checks, …).
    pub fn has_insufficient_material(&self, color: Color) -> bool {
        if self.ruleset() != Ruleset::Chess {
            return variants::has_insufficient_material(self, color);
        }
        self.standard_insufficient_material(color)
    }

    /// The standard chess rule of [`Position::has_insufficient_material`].
    pub(crate) fn standard_insufficient_material(&self, color: Color) -> bool {
        let board = self.board();
        let ours = board.by_color(color);
        if (ours & (board.pawns() | board.rooks() | board.queens())).any() {
            return false;
        }
        if (ours & board.knights()).any() {
            // A lone knight mates only if the other side has pieces to block its king.
            let theirs = board.by_color(!color);
            return ours.count() <= 2 && (theirs - board.kings() - board.queens()).is_empty();
        }
        if (ours & board.bishops()).any() {
            let bishops = board.bishops();
            let one_colour = (bishops & Bitboard::DARK_SQUARES).is_empty()
                || (bishops & Bitboard::LIGHT_SQUARES).is_empty();
            return one_colour && board.pawns().is_empty() && board.knights().is_empty();
        }
        true
    }

    /// `true` if neither side can mate.
    pub fn is_insufficient_material(&self) -> bool {
        self.has_insufficient_material(Color::White) && self.has_insufficient_material(Color::Black)
    }

    /// `true` if a draw may be claimed under the fifty-move rule (100 half-moves without a
    /// capture or pawn move).
    pub fn is_fifty_moves(&self) -> bool {
        self.halfmoves() >= 100
    }

    /// `true` after 150 half-moves without capture or pawn move (a draw unless the last move
    /// mated).
    pub fn is_seventy_five_moves(&self) -> bool {
        self.halfmoves() >= 150
    }

    /// How the game ends in this position, if it does without a claim: checkmate,
    /// stalemate, a variant's own end, insufficient material, or the seventy-five-move rule.
    pub fn outcome(&self) -> Option<Outcome> {
        if self.ruleset() != Ruleset::Chess {
            if let Some(end) = variants::variant_outcome(self) {
                return Some(end);
            }
        } else if !self.has_legal_moves() {
            return Some(if self.is_check() {
                Outcome::Checkmate {
                    winner: !self.turn(),
                }
            } else {
                Outcome::Stalemate
            });
        }
        if self.is_insufficient_material() {
            return Some(Outcome::InsufficientMaterial);
        }
        if self.is_seventy_five_moves() {
            return Some(Outcome::SeventyFiveMoves);
        }
        None
    }

    /// The number of pieces of `role` and `color`.
    pub fn count(&self, color: Color, role: Role) -> u32 {
        self.board().by_piece(role.of(color)).count()
    }
}

/// Counts how often positions occur in a game, for threefold and fivefold repetition.
///
/// Positions are compared by Zobrist hash (pieces, side to move, castling rights and legal
/// en-passant capture, as the rules ask). Only positions since the last capture or pawn move
/// are kept, since none before can recur.
///
/// ```
/// use pgn::{Position, RepetitionTracker};
/// let mut pos = Position::new();
/// let mut reps = RepetitionTracker::new(&pos);
/// for san in ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8"] {
///     pos = pos.resolve_san(san.as_bytes())?.after;
///     reps.push(&pos);
/// }
/// assert_eq!(reps.count(&pos), 3);
/// assert!(reps.is_threefold());
/// # Ok::<(), pgn::san::SanError>(())
/// ```
#[derive(Clone, Debug, Default)]
pub struct RepetitionTracker {
    hashes: Vec<u64>,
}

impl RepetitionTracker {
    /// Starts a game at `start`.
    pub fn new(start: &Position) -> RepetitionTracker {
        RepetitionTracker {
            hashes: vec![start.zobrist_hash()],
        }
    }

    /// Records the position after a move and returns how often it has now occurred.
    pub fn push(&mut self, pos: &Position) -> usize {
        if pos.halfmoves() == 0 {
            self.hashes.clear();
        }
        self.hashes.push(pos.zobrist_hash());
        self.count(pos)
    }

    /// How often `pos` has occurred among the recorded positions.
    pub fn count(&self, pos: &Position) -> usize {
        let h = pos.zobrist_hash();
        self.hashes.iter().filter(|&&x| x == h).count()
    }

    /// `true` if the last recorded position occurred three times or more (a draw may be
    /// claimed).
    pub fn is_threefold(&self) -> bool {
        self.last_count() >= 3
    }

    /// `true` if the last recorded position occurred five times or more (drawn without a
    /// claim).
    pub fn is_fivefold(&self) -> bool {
        self.last_count() >= 5
    }

    fn last_count(&self) -> usize {
        match self.hashes.last() {
            Some(&h) => self.hashes.iter().filter(|&&x| x == h).count(),
            None => 0,
        }
    }
}
