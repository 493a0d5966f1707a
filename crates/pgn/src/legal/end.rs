//! How a position ends the game, by any ruleset: checkmate, stalemate, a variant's own end,
//! insufficient material, the move-count rules ([`Outcome`]). Standard chess is judged here;
//! the variants' ends are `variants::end`'s.

use crate::variants::end;
use crate::{Color, Outcome, Position, Ruleset};

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
            return end::has_insufficient_material(self, color);
        }
        self.standard_insufficient_material(color)
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
            if let Some(end) = end::variant_outcome(self) {
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
}
