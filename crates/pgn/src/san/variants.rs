//! Resolving a move token in a variant position: matched against the moves of the board
//! that could be meant (pseudo-legal moves of the named piece to the named square), of
//! which only those few are tested by the variant's rules; with the same forgiveness as in
//! standard chess.

use super::error::{IllegalReason, SanError};
use super::forgiven::{Forgiven, origin_forgiveness};
use super::token::{Kind, SanToken, Separator};
use super::writing::{San, SanPlus, variant_disambiguation};
use crate::variants;
use crate::{CastlingSide, Move, MoveList, Position, Role, Ruleset, Square};

/// The legal moves among the pseudo-legal ones that `keep` selects.
fn legal_where(pos: &Position, keep: impl Fn(&Move) -> bool, list: &mut MoveList) {
    variants::pseudo_moves(pos, list);
    list.retain(|m| keep(m) && variants::is_legal(pos, m));
}

impl SanToken {
    /// The legal move the token names in a position of a variant, the forgiveness found
    /// (without the suffix check), and its canonical SAN.
    pub(super) fn resolve_in_variant(
        &self,
        pos: &Position,
    ) -> Result<(Move, Forgiven, Option<San>), SanError> {
        if pos.is_variant_end() && !matches!(self.kind, Kind::San(San::Null)) {
            if let Some(outcome) = pos.outcome() {
                return Err(self.illegal(IllegalReason::GameOver(outcome)));
            }
        }
        let forgiven = self.forgiven;
        match self.kind {
            Kind::San(san) => self.variant_san(pos, san, forgiven),
            Kind::PawnOrBishop { pawn, bishop } => match self.variant_san(pos, pawn, forgiven) {
                Err(pawn_error @ SanError::Illegal { .. }) => {
                    match self.variant_san(pos, bishop, forgiven | Forgiven::LOWERCASE_PIECE) {
                        Err(SanError::Illegal { .. }) => Err(pawn_error),
                        other => other,
                    }
                }
                other => other,
            },
            Kind::Coordinates {
                from,
                to,
                separator,
                promotion,
                uci_promotion,
            } => {
                let mut forgiven = forgiven
                    | if uci_promotion {
                        Forgiven::UCI
                    } else {
                        Forgiven::LONG_ALGEBRAIC
                    };
                let mut found = MoveList::new();
                let keep = |m: &Move| match *m {
                    Move::Castle { king, rook } => {
                        king == from
                            && promotion.is_none()
                            && (rook == to || m.king_to() == Some(to))
                    }
                    _ => m.from() == Some(from) && m.to() == Some(to) && m.promotion() == promotion,
                };
                legal_where(pos, keep, &mut found);
                let Some(&mv) = found.first() else {
                    return Err(self.illegal(self.no_variant_move(pos, from, to)));
                };
                if let Move::Castle { rook, .. } = mv {
                    if rook == to {
                        forgiven = (forgiven - Forgiven::LONG_ALGEBRAIC) | Forgiven::UCI;
                    }
                }
                match separator {
                    Separator::Capture if !mv.is_capture() => {
                        forgiven |= Forgiven::SUPERFLUOUS_CAPTURE;
                    }
                    Separator::Dash if mv.is_capture() => forgiven |= Forgiven::MISSING_CAPTURE,
                    _ => {}
                }
                Ok((mv, forgiven, None))
            }
        }
    }

    fn variant_san(
        &self,
        pos: &Position,
        san: San,
        mut forgiven: Forgiven,
    ) -> Result<(Move, Forgiven, Option<San>), SanError> {
        match san {
            San::Null => {
                if pos.is_check() {
                    Err(self.illegal(IllegalReason::NullMoveInCheck))
                } else {
                    Ok((Move::Null, forgiven, Some(San::Null)))
                }
            }
            San::Castle(side) => {
                let mut castles = MoveList::new();
                legal_where(pos, |m| m.castling_side() == Some(side), &mut castles);
                castles
                    .first()
                    .map(|&m| (m, forgiven, Some(san)))
                    .ok_or_else(|| self.illegal(IllegalReason::Castling(side)))
            }
            San::Put { role, to } => {
                if pos.ruleset() != Ruleset::Crazyhouse {
                    return Err(self.illegal(IllegalReason::NotCrazyhouse));
                }
                let mv = Move::Put { role, to };
                let in_hand = pos.pockets().is_some_and(|p| p.get(pos.turn()).has(role));
                let fits = !pos.board().occupied().contains(to)
                    && (role != Role::Pawn || !crate::Bitboard::BACKRANKS.contains(to));
                if in_hand && fits && variants::is_legal(pos, &mv) {
                    Ok((mv, forgiven, Some(san)))
                } else {
                    Err(self.illegal(IllegalReason::Drop {
                        color: pos.turn(),
                        role,
                        to,
                    }))
                }
            }
            San::Normal {
                role,
                file,
                rank,
                capture,
                to,
                promotion,
            } => {
                // Every legal move of the piece to the square, for disambiguation as well.
                let mut reaching = MoveList::new();
                variants::pseudo_moves_to(pos, role, to, &mut reaching);
                reaching.retain(|m| variants::is_legal(pos, m));
                let named = |m: &&Move| {
                    m.promotion() == promotion
                        && m.from().is_some_and(|from| {
                            file.is_none_or(|f| from.file() == f)
                                && rank.is_none_or(|r| from.rank() == r)
                        })
                };
                let mut candidates = reaching.iter().filter(named);
                let first = candidates.next().copied();
                let several = candidates.next().is_some();
                let mv = match (first, several) {
                    (Some(mv), false) => mv,
                    (None, _) => {
                        if role == Role::King && promotion.is_none() {
                            // Castling written as the king's step or as taking its rook.
                            let mut castles = MoveList::new();
                            let keep = |m: &Move| match *m {
                                Move::Castle { king, rook } => {
                                    file.is_none_or(|f| king.file() == f)
                                        && rank.is_none_or(|r| king.rank() == r)
                                        && (rook == to || m.king_to() == Some(to))
                                }
                                _ => false,
                            };
                            legal_where(pos, keep, &mut castles);
                            if let Some(&mv) = castles.first() {
                                let side = mv.castling_side().unwrap_or(CastlingSide::KingSide);
                                return Ok((
                                    mv,
                                    forgiven | Forgiven::KING_MOVE_CASTLING,
                                    Some(San::Castle(side)),
                                ));
                            }
                        }
                        return Err(self.illegal(self.no_variant_piece_move(
                            pos,
                            role,
                            to,
                            (file, rank),
                            promotion,
                        )));
                    }
                    (Some(_), true) => {
                        return Err(SanError::Ambiguous {
                            token: self.raw.text(),
                            candidates: reaching
                                .iter()
                                .filter(named)
                                .map(|m| SanPlus::from_move(pos, m).to_string())
                                .collect(),
                        });
                    }
                };
                let from = mv.from().unwrap_or(to);
                let (need_file, need_rank) = variant_disambiguation(&reaching, role, from, to);
                forgiven |=
                    origin_forgiveness(role, (file, rank, capture), &mv, (need_file, need_rank));
                let canonical = San::Normal {
                    role,
                    file: need_file.then_some(from.file()),
                    rank: need_rank.then_some(from.rank()),
                    capture: mv.is_capture(),
                    to,
                    promotion,
                };
                Ok((mv, forgiven, Some(canonical)))
            }
        }
    }

    /// Why no legal move takes a piece of `role` to `to`.
    fn no_variant_piece_move(
        &self,
        pos: &Position,
        role: Role,
        to: Square,
        origin: (Option<crate::File>, Option<crate::Rank>),
        promotion: Option<Role>,
    ) -> IllegalReason {
        let legal = &pos.legal_moves();
        let color = pos.turn();
        // A pawn that gets there, from where the token says, but promotes otherwise.
        let (file, rank) = origin;
        let reaches = |m: &Move| {
            role == Role::Pawn
                && m.role() == Some(role)
                && m.to() == Some(to)
                && m.from().is_some_and(|from| {
                    file.is_none_or(|f| from.file() == f) && rank.is_none_or(|r| from.rank() == r)
                })
        };
        if legal.iter().any(reaches) {
            return if promotion.is_none() {
                IllegalReason::MissingPromotion
            } else {
                IllegalReason::BadPromotion
            };
        }
        if compulsory_capture(pos, legal) {
            return IllegalReason::CaptureCompulsory;
        }
        IllegalReason::NoPiece { color, role, to }
    }

    /// Why no legal move goes from `from` to `to`.
    fn no_variant_move(&self, pos: &Position, from: Square, to: Square) -> IllegalReason {
        let legal = &pos.legal_moves();
        let color = pos.turn();
        match pos.board().piece_at(from) {
            Some(piece) if piece.color == color => {
                if compulsory_capture(pos, legal) {
                    IllegalReason::CaptureCompulsory
                } else {
                    IllegalReason::NoPiece {
                        color,
                        role: piece.role,
                        to,
                    }
                }
            }
            _ => IllegalReason::EmptyOrigin { color, from },
        }
    }
}

/// Antichess: `true` if every legal move captures (so that a quiet move was refused for it).
fn compulsory_capture(pos: &Position, legal: &MoveList) -> bool {
    pos.ruleset() == Ruleset::Antichess && legal.iter().any(Move::is_capture)
}
