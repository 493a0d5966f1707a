//! How variant games end: the variants' own wins and draws, and insufficient material by
//! each variant's way of winning. It asks the variants' rules (the parent module) about
//! moves and checks, and so stands above them; the parent does not use it.

use super::{HILL, has_legal_moves, is_check, is_variant_end};
use crate::outcome::VariantEnd;
use crate::{Bitboard, Color, Outcome, Position, Rank, Role, Ruleset};

/// The outcome of a position of a variant, if the game is over: the variant's own end, or
/// the side to move without a legal move.
pub(crate) fn variant_outcome(pos: &Position) -> Option<Outcome> {
    let board = pos.board();
    let won = |winner: Color, end: VariantEnd| Outcome::Variant {
        winner: Some(winner),
        end,
    };
    if is_variant_end(pos) {
        let side_with = |bb: Bitboard| {
            if bb.intersects(board.by_color(Color::White)) {
                Color::White
            } else {
                Color::Black
            }
        };
        return Some(match pos.ruleset() {
            Ruleset::Atomic => {
                let exploded = if (board.kings() & board.by_color(Color::White)).is_empty() {
                    Color::White
                } else {
                    Color::Black
                };
                won(!exploded, VariantEnd::KingExploded)
            }
            Ruleset::Antichess => {
                let gone = if board.by_color(Color::White).is_empty() {
                    Color::White
                } else {
                    Color::Black
                };
                won(gone, VariantEnd::AllPiecesLost)
            }
            Ruleset::KingOfTheHill => won(side_with(board.kings() & HILL), VariantEnd::KingOnHill),
            Ruleset::ThreeCheck => {
                let checks = pos.remaining_checks().unwrap_or_default();
                let winner = if checks.white == 0 {
                    Color::White
                } else {
                    Color::Black
                };
                won(winner, VariantEnd::ThirdCheck)
            }
            Ruleset::Horde => {
                let gone = if board.by_color(Color::White).is_empty() {
                    Color::White
                } else {
                    Color::Black
                };
                won(!gone, VariantEnd::HordeGone)
            }
            Ruleset::RacingKings => {
                let goal = board.kings() & Bitboard::rank(Rank::Eighth);
                if goal.more_than_one() {
                    Outcome::Variant {
                        winner: None,
                        end: VariantEnd::BothKingsHome,
                    }
                } else {
                    won(side_with(goal), VariantEnd::KingHome)
                }
            }
            Ruleset::Chess | Ruleset::Crazyhouse => return None,
        });
    }
    if !has_legal_moves(pos) {
        if pos.ruleset() == Ruleset::Antichess {
            return Some(won(pos.turn(), VariantEnd::NoMoveLeft));
        }
        return Some(if is_check(pos) {
            Outcome::Checkmate {
                winner: !pos.turn(),
            }
        } else {
            Outcome::Stalemate
        });
    }
    None
}

/// `true` if `color` cannot possibly win by the variant's rules, whatever the moves.
pub(crate) fn has_insufficient_material(pos: &Position, color: Color) -> bool {
    let board = pos.board();
    let ours = board.by_color(color);
    let theirs = board.by_color(!color);
    match pos.ruleset() {
        Ruleset::KingOfTheHill | Ruleset::RacingKings => false,
        Ruleset::ThreeCheck => ours == board.kings() & ours,
        Ruleset::Crazyhouse => {
            // Material never leaves the game: only a board that has always been this bare.
            let pockets = pos
                .pockets()
                .map_or(0, |p| p.white.total() + p.black.total());
            let heavy = board.pawns() | board.rooks() | board.queens();
            let in_hand_heavy = pos.pockets().is_some_and(|p| {
                [p.white, p.black].iter().any(|pocket| {
                    pocket.has(Role::Pawn) || pocket.has(Role::Rook) || pocket.has(Role::Queen)
                })
            });
            board.occupied().count() + pockets <= 3
                && pos.promoted().is_empty()
                && heavy.is_empty()
                && !in_hand_heavy
        }
        Ruleset::Atomic => {
            if (board.kings() & theirs).is_empty() {
                return false;
            }
            if ours == board.kings() & ours {
                return true;
            }
            let bishops_only = board.occupied() == board.kings() | board.bishops();
            if bishops_only {
                let (ours_b, theirs_b) = (ours & board.bishops(), theirs & board.bishops());
                let apart = |a: Bitboard, b: Bitboard| {
                    (a - Bitboard::DARK_SQUARES).is_empty()
                        && (b - Bitboard::LIGHT_SQUARES).is_empty()
                };
                if apart(ours_b, theirs_b) || apart(theirs_b, ours_b) {
                    return true;
                }
            }
            if theirs != board.kings() & theirs {
                // Their own pieces can be blown up beside their king.
                return false;
            }
            // Against a bare king: a queen or a pawn always does; one knight, bishop or rook
            // does not, nor do knights alone up to two.
            let non_king = ours - board.kings();
            if (non_king & (board.queens() | board.pawns())).any() {
                return false;
            }
            if non_king.count() == 1 {
                return true;
            }
            non_king == non_king & board.knights() && non_king.count() <= 2
        }
        Ruleset::Antichess => {
            if ours.is_empty() {
                return false;
            }
            if theirs.is_empty() {
                return true;
            }
            if board.occupied() == board.bishops() {
                let on = |bb: Bitboard, squares: Bitboard| bb.intersects(squares);
                let light_dark = on(ours, Bitboard::LIGHT_SQUARES)
                    && !on(theirs, Bitboard::LIGHT_SQUARES)
                    && (ours - Bitboard::LIGHT_SQUARES).is_empty();
                let dark_light = on(ours, Bitboard::DARK_SQUARES)
                    && !on(theirs, Bitboard::DARK_SQUARES)
                    && (ours - Bitboard::DARK_SQUARES).is_empty();
                return light_dark || dark_light;
            }
            false
        }
        Ruleset::Horde => {
            if color == Color::Black {
                return false;
            }
            // The horde mates or loses: with no pawn, rook or queen, a mate needs the
            // material standard chess needs.
            if (ours & (board.pawns() | board.rooks() | board.queens())).any() {
                return false;
            }
            pos.standard_insufficient_material(color)
        }
        Ruleset::Chess => pos.standard_insufficient_material(color),
    }
}
