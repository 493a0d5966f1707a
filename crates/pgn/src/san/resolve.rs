//! Resolving a token against a position's legal moves in standard chess: only the pieces
//! of the named kind that reach the target square are looked at, filtered by the pin and
//! check masks, rather than every legal move; a variant's position goes to `variants`.

use super::error::{IllegalReason, SanError};
use super::forgiven::{Forgiven, origin_forgiveness};
use super::token::{Kind, Raw, SanToken, Separator};
use super::writing::{San, SanPlus, Suffix, disambiguation};
use crate::movegen::{self, Context};
use crate::{Bitboard, CastlingSide, Move, Position, Role, Square};

/// A token resolved to a legal move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Resolved {
    /// The move.
    pub mv: Move,
    /// Everything the token got wrong about the move's canonical SAN.
    pub forgiven: Forgiven,
    /// The position after the move (it had to be played to check the suffix).
    pub after: Position,
    pub(super) san: SanPlus,
}

impl Resolved {
    /// The move's canonical SAN with its suffix.
    pub fn san(&self) -> SanPlus {
        self.san
    }
}

impl SanToken {
    /// Finds the legal move the token names, and everything forgiven on the way.
    ///
    /// # Errors
    /// [`SanError::Illegal`] if no legal move matches, [`SanError::Ambiguous`] if several do.
    pub fn resolve(&self, pos: &Position) -> Result<Resolved, SanError> {
        let (mv, mut forgiven, san) = self.resolve_move(pos)?;
        let after = pos.play(&mv);
        let suffix = Suffix::for_position(&after);
        if self.suffix != suffix {
            forgiven |= Forgiven::CHECK_SUFFIX;
        }
        Ok(Resolved {
            mv,
            forgiven,
            after,
            san: SanPlus {
                san: san.unwrap_or_else(|| San::from_move(pos, &mv)),
                suffix,
            },
        })
    }

    /// Castling written as a king move that is not legal as one (`Kg1`, `Kxh1`): the
    /// king's castling square, or its own rook's square, on a side it may castle to.
    /// `None` if `to` is neither.
    fn king_move_castling(
        &self,
        pos: &Position,
        ctx: &Context,
        to: Square,
    ) -> Option<Result<(Move, CastlingSide), SanError>> {
        let side = CastlingSide::ALL.into_iter().find(|&side| {
            pos.castles().has(ctx.us, side)
                && (side.king_to(ctx.us) == to || pos.castles().rook(ctx.us, side) == Some(to))
        })?;
        Some(match movegen::castle_rook_if_legal(pos, ctx, side) {
            Some(rook) => Ok((
                Move::Castle {
                    king: ctx.king,
                    rook,
                },
                side,
            )),
            None => Err(self.illegal(IllegalReason::Castling(side))),
        })
    }

    /// The move, the forgiveness found (without the suffix check), and the canonical SAN if
    /// it came for free.
    fn resolve_move(&self, pos: &Position) -> Result<(Move, Forgiven, Option<San>), SanError> {
        if pos.ruleset() != crate::Ruleset::Chess {
            return self.resolve_in_variant(pos);
        }
        let Some(ctx) = Context::new(pos) else {
            return Err(self.illegal(IllegalReason::NoKing));
        };
        let forgiven = self.forgiven;
        match self.kind {
            Kind::San(san) => self
                .resolve_san(pos, &ctx, san, forgiven)
                .map(|(m, f, s)| (m, f, Some(s))),
            Kind::PawnOrBishop { pawn, bishop } => {
                let result = match self.resolve_san(pos, &ctx, pawn, forgiven) {
                    Err(pawn_error @ SanError::Illegal { .. }) => {
                        match self.resolve_san(
                            pos,
                            &ctx,
                            bishop,
                            forgiven | Forgiven::LOWERCASE_PIECE,
                        ) {
                            Err(SanError::Illegal { .. }) => Err(pawn_error),
                            other => other,
                        }
                    }
                    other => other,
                };
                result.map(|(m, f, s)| (m, f, Some(s)))
            }
            Kind::Coordinates {
                from,
                to,
                separator,
                promotion,
                uci_promotion,
            } => self
                .resolve_coordinates(
                    pos,
                    &ctx,
                    from,
                    to,
                    separator,
                    promotion,
                    uci_promotion,
                    forgiven,
                )
                .map(|(m, f)| (m, f, None)),
        }
    }

    fn resolve_san(
        &self,
        pos: &Position,
        ctx: &Context,
        san: San,
        mut forgiven: Forgiven,
    ) -> Result<(Move, Forgiven, San), SanError> {
        match san {
            San::Null => {
                if ctx.checkers.any() {
                    Err(self.illegal(IllegalReason::NullMoveInCheck))
                } else {
                    Ok((Move::Null, forgiven, San::Null))
                }
            }
            San::Put { .. } => Err(self.illegal(IllegalReason::NotCrazyhouse)),
            San::Castle(side) => match movegen::castle_rook_if_legal(pos, ctx, side) {
                Some(rook) => Ok((
                    Move::Castle {
                        king: ctx.king,
                        rook,
                    },
                    forgiven,
                    san,
                )),
                None => Err(self.illegal(IllegalReason::Castling(side))),
            },
            San::Normal {
                role,
                file,
                rank,
                capture,
                to,
                promotion,
            } => {
                let mut mask = Bitboard::FULL;
                if let Some(f) = file {
                    mask &= Bitboard::file(f);
                }
                if let Some(r) = rank {
                    mask &= Bitboard::rank(r);
                }
                let origins = movegen::legal_origins(pos, ctx, role, to, mask);
                let from = match origins.single_square() {
                    Some(from) => from,
                    None if origins.is_empty() => {
                        if role == Role::King && promotion.is_none() && mask.contains(ctx.king) {
                            if let Some(castle) = self.king_move_castling(pos, ctx, to) {
                                return castle.map(|(mv, side)| {
                                    (
                                        mv,
                                        forgiven | Forgiven::KING_MOVE_CASTLING,
                                        San::Castle(side),
                                    )
                                });
                            }
                        }
                        return Err(self.no_move(pos, ctx, role, to, mask));
                    }
                    None => return Err(self.ambiguous(pos, role, origins, to, promotion)),
                };
                let mv = self.build(pos, role, from, to, promotion)?;
                let (need_file, need_rank) = if role == Role::Pawn {
                    (from.file() != to.file(), false)
                } else if file.is_none() && rank.is_none() {
                    // Unique among all legal moves of the piece: no disambiguation needed.
                    (false, false)
                } else {
                    disambiguation(pos, ctx, role, from, to)
                };
                forgiven |=
                    origin_forgiveness(role, (file, rank, capture), &mv, (need_file, need_rank));
                let san = match mv {
                    Move::Normal { capture, .. } => San::Normal {
                        role,
                        file: need_file.then_some(from.file()),
                        rank: need_rank.then_some(from.rank()),
                        capture: capture.is_some(),
                        to,
                        promotion,
                    },
                    _ => San::from_move(pos, &mv),
                };
                Ok((mv, forgiven, san))
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn resolve_coordinates(
        &self,
        pos: &Position,
        ctx: &Context,
        from: Square,
        to: Square,
        separator: Separator,
        promotion: Option<Role>,
        uci_promotion: bool,
        mut forgiven: Forgiven,
    ) -> Result<(Move, Forgiven), SanError> {
        let board = pos.board();
        let role = match board.role_at(from) {
            Some(role) if ctx.our.contains(from) => role,
            _ => {
                return Err(self.illegal(IllegalReason::EmptyOrigin {
                    color: ctx.us,
                    from,
                }));
            }
        };
        forgiven |= if uci_promotion {
            Forgiven::UCI
        } else {
            Forgiven::LONG_ALGEBRAIC
        };
        if role == Role::King && from == ctx.king {
            // King takes own rook: castling as in Chess960 UCI.
            if (board.rooks() & ctx.our).contains(to) {
                for side in CastlingSide::ALL {
                    if pos.castles().rook(ctx.us, side) == Some(to) {
                        return match movegen::castle_rook_if_legal(pos, ctx, side) {
                            Some(rook) if promotion.is_none() => Ok((
                                Move::Castle { king: from, rook },
                                (forgiven - Forgiven::LONG_ALGEBRAIC) | Forgiven::UCI,
                            )),
                            _ => Err(self.illegal(IllegalReason::Castling(side))),
                        };
                    }
                }
            }
            let steps = movegen::legal_origins(pos, ctx, Role::King, to, Bitboard::from(from));
            if steps.is_empty() && promotion.is_none() {
                // The king's two-square step of standard castling (`e1g1`).
                for side in CastlingSide::ALL {
                    if side.king_to(ctx.us) == to && pos.castles().has(ctx.us, side) {
                        return match movegen::castle_rook_if_legal(pos, ctx, side) {
                            Some(rook) => Ok((Move::Castle { king: from, rook }, forgiven)),
                            None => Err(self.illegal(IllegalReason::Castling(side))),
                        };
                    }
                }
            }
        }
        let origins = movegen::legal_origins(pos, ctx, role, to, Bitboard::from(from));
        if origins.is_empty() {
            return Err(self.no_move(pos, ctx, role, to, Bitboard::from(from)));
        }
        let mv = self.build(pos, role, from, to, promotion)?;
        match separator {
            Separator::Capture if !mv.is_capture() => forgiven |= Forgiven::SUPERFLUOUS_CAPTURE,
            Separator::Dash if mv.is_capture() => forgiven |= Forgiven::MISSING_CAPTURE,
            _ => {}
        }
        Ok((mv, forgiven))
    }

    /// The move of `role` from `from` to `to`, checking the promotion.
    fn build(
        &self,
        pos: &Position,
        role: Role,
        from: Square,
        to: Square,
        promotion: Option<Role>,
    ) -> Result<Move, SanError> {
        if role == Role::Pawn && Some(to) == pos.ep_square() && from.file() != to.file() {
            if promotion.is_some() {
                return Err(self.illegal(IllegalReason::BadPromotion));
            }
            return Ok(Move::EnPassant { from, to });
        }
        let last_rank = Bitboard::backrank(!pos.turn()).contains(to);
        match (role == Role::Pawn && last_rank, promotion) {
            (true, None) => return Err(self.illegal(IllegalReason::MissingPromotion)),
            (false, Some(_)) | (true, Some(Role::King | Role::Pawn)) => {
                return Err(self.illegal(IllegalReason::BadPromotion));
            }
            _ => {}
        }
        Ok(Move::Normal {
            role,
            from,
            capture: pos.board().role_at(to),
            to,
            promotion,
        })
    }

    /// The error for a SAN with no matching legal move: tells "nothing gets there" from "it
    /// would leave the king in check".
    fn no_move(
        &self,
        pos: &Position,
        ctx: &Context,
        role: Role,
        to: Square,
        mask: Bitboard,
    ) -> SanError {
        let reach = movegen::pseudo_origins(pos, ctx, role, to, mask);
        self.illegal(if reach.any() {
            IllegalReason::KingInCheck {
                color: ctx.us,
                role,
                to,
            }
        } else {
            IllegalReason::NoPiece {
                color: ctx.us,
                role,
                to,
            }
        })
    }

    fn ambiguous(
        &self,
        pos: &Position,
        role: Role,
        origins: Bitboard,
        to: Square,
        promotion: Option<Role>,
    ) -> SanError {
        let candidates = origins
            .map(|from| match self.build(pos, role, from, to, promotion) {
                Ok(m) => SanPlus::from_move(pos, &m).to_string(),
                Err(_) => format!(
                    "{}{from}-{to}",
                    if role == Role::Pawn {
                        String::new()
                    } else {
                        role.upper_char().to_string()
                    }
                ),
            })
            .collect();
        SanError::Ambiguous {
            token: self.raw.text(),
            candidates,
        }
    }
}

impl San {
    /// Finds the legal move this SAN names in `pos`, without reporting forgiveness.
    ///
    /// # Errors
    /// [`SanError::Illegal`] or [`SanError::Ambiguous`].
    pub fn to_move(&self, pos: &Position) -> Result<Move, SanError> {
        let token = SanToken {
            kind: Kind::San(*self),
            suffix: None,
            forgiven: Forgiven::empty(),
            raw: Raw::from_display(self),
        };
        token.resolve_move(pos).map(|(m, _, _)| m)
    }
}
