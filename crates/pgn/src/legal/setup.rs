//! Which set-ups are legal positions: [`Position::from_setup`] and its kin check a set-up
//! (usually read from FEN) by its ruleset's rules (kings, material, pawns, castling rights,
//! the en-passant square, checks) before building the position.

use crate::setup::{CastlingToken, Setup};
use crate::variants;
use crate::{
    Bitboard, Board, Castles, CastlingError, CastlingMode, CastlingSide, Color, File, Position,
    PositionError, Rank, Role, Ruleset, Square,
};

impl Position {
    /// Builds a position from a setup, checking that it is legal.
    ///
    /// With [`CastlingMode::Standard`], castling rights need the king on the e-file and the
    /// rooks in the corners; with [`CastlingMode::Chess960`] any king between rooks on the
    /// first rank will do. [`Position::from_setup_auto`] picks the mode itself.
    ///
    /// # Errors
    /// [`PositionError`] with the first reason the setup is impossible.
    pub fn from_setup(setup: &Setup, mode: CastlingMode) -> Result<Position, PositionError> {
        Position::from_setup_in(setup.implied_ruleset(), setup, mode)
    }

    /// Builds a position of `ruleset` from a setup, checking that it is legal by that
    /// ruleset's rules (horde's white has no king and may have pawns on its first rank,
    /// antichess has any number of kings and no castling, racing kings has no check, …).
    /// Pockets are kept in crazyhouse and check counters in three-check; elsewhere they are
    /// ignored.
    ///
    /// ```
    /// use pgn::{CastlingMode, Position, Ruleset};
    /// use pgn::fen::Setup;
    /// let setup = Setup::from_fen("rnbqkbnr/pppppppp/8/1PP2PP1/PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP w kq - 0 1")?;
    /// assert!(Position::from_setup(&setup, CastlingMode::Standard).is_err()); // no white king
    /// let horde = Position::from_setup_in(Ruleset::Horde, &setup, CastlingMode::Standard)?;
    /// assert_eq!(horde.ruleset(), Ruleset::Horde);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// [`PositionError`] with the first reason the setup is impossible.
    pub fn from_setup_in(
        ruleset: Ruleset,
        setup: &Setup,
        mode: CastlingMode,
    ) -> Result<Position, PositionError> {
        let board = setup.board;
        variants::check_kings(ruleset, &board)?;
        if matches!(
            ruleset,
            Ruleset::Chess
                | Ruleset::Atomic
                | Ruleset::KingOfTheHill
                | Ruleset::ThreeCheck
                | Ruleset::RacingKings
        ) {
            check_material(&board)?;
        }
        let backrank_pawns = match ruleset {
            // Horde's white pawns may stand on white's first rank.
            Ruleset::Horde => {
                (board.pawns() & Bitboard::rank(Rank::Eighth))
                    | (board.by_piece(Role::Pawn.of(Color::Black)) & Bitboard::rank(Rank::First))
            }
            _ => board.pawns() & Bitboard::BACKRANKS,
        };
        if let Some(sq) = backrank_pawns.first() {
            return Err(PositionError::PawnOnBackrank(sq));
        }

        if !ruleset.castles() {
            if let Some(&token) = setup.castling.first() {
                return Err(PositionError::InvalidCastling {
                    token: token.char(),
                    reason: CastlingError::NoCastling,
                });
            }
        }
        let castles = resolve_castling(&board, &setup.castling, mode)?;

        let turn = setup.turn;
        let mut ep_square = None;
        if let Some(ep) = setup.ep_square {
            let valid =
                ep.rank() == Rank::Sixth.relative_to(turn) && !board.occupied().contains(ep) && {
                    let behind = Square::from_coords(ep.file(), Rank::Seventh.relative_to(turn));
                    let pushed = Square::from_coords(ep.file(), Rank::Fifth.relative_to(turn));
                    !board.occupied().contains(behind)
                        && board.by_piece(Role::Pawn.of(!turn)).contains(pushed)
                };
            if !valid {
                return Err(PositionError::InvalidEnPassant(ep));
            }
            ep_square = Some(ep);
        }

        let mut pos = Position::from_setup_unchecked(ruleset, setup, castles, ep_square);

        if ruleset == Ruleset::Chess {
            let occ = board.occupied();
            if let Some(their_king) = board.king_of(!turn) {
                if board.attackers_to(their_king, turn, occ).any() {
                    return Err(PositionError::OppositeCheck(!turn));
                }
            }
            let checkers = pos.checkers();
            let n = checkers.count();
            let sliders = board.bishops() | board.rooks() | board.queens();
            if n > 2 || (n == 2 && (checkers & sliders).is_empty()) {
                return Err(PositionError::ImpossibleCheck(turn, n));
            }
        } else {
            variants::check_checks(&pos)?;
        }

        if pos.ep_square().is_some() && !pos.has_legal_en_passant() {
            pos.clear_ep_square();
        }
        Ok(pos)
    }

    /// Like [`Position::from_setup`], choosing [`CastlingMode::Standard`] unless the castling
    /// rights only make sense in Chess960.
    ///
    /// # Errors
    /// [`PositionError`] with the first reason the setup is impossible.
    pub fn from_setup_auto(setup: &Setup) -> Result<Position, PositionError> {
        Position::from_setup_auto_in(setup.implied_ruleset(), setup)
    }

    /// [`Position::from_setup_in`], choosing the castling mode as
    /// [`Position::from_setup_auto`] does.
    ///
    /// # Errors
    /// [`PositionError`] with the first reason the setup is impossible.
    pub fn from_setup_auto_in(ruleset: Ruleset, setup: &Setup) -> Result<Position, PositionError> {
        match Position::from_setup_in(ruleset, setup, CastlingMode::Standard) {
            Err(PositionError::InvalidCastling {
                reason: CastlingError::NotStandard,
                ..
            }) => Position::from_setup_in(ruleset, setup, CastlingMode::Chess960),
            other => other,
        }
    }

    /// Like [`Position::from_setup`], but castling rights whose king or rook is not in place
    /// and an impossible en-passant square are dropped instead of failing; the reasons for
    /// what was dropped come back with the position, for warnings. `mode` `None` picks the
    /// castling mode as [`Position::from_setup_auto`] does.
    ///
    /// ```
    /// use pgn::{Position, PositionError};
    /// use pgn::fen::Setup;
    /// let setup = Setup::from_fen("4k3/8/8/8/8/8/8/4K2R w KQ e6 0 1")?;
    /// let (pos, dropped) = Position::from_setup_repairing(&setup, None)?;
    /// assert_eq!(pos.to_fen(), "4k3/8/8/8/8/8/8/4K2R w K - 0 1");
    /// assert_eq!(dropped.len(), 2);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// [`PositionError`] for the problems that cannot be repaired (kings, pawns, material,
    /// checks).
    pub fn from_setup_repairing(
        setup: &Setup,
        mode: Option<CastlingMode>,
    ) -> Result<(Position, Vec<PositionError>), PositionError> {
        Position::from_setup_repairing_in(setup.implied_ruleset(), setup, mode)
    }

    /// [`Position::from_setup_repairing`] by the rules of `ruleset`.
    ///
    /// # Errors
    /// As [`Position::from_setup_repairing`].
    pub fn from_setup_repairing_in(
        ruleset: Ruleset,
        setup: &Setup,
        mode: Option<CastlingMode>,
    ) -> Result<(Position, Vec<PositionError>), PositionError> {
        let mut setup = setup.clone();
        let mut dropped = Vec::new();
        loop {
            let result = match mode {
                Some(mode) => Position::from_setup_in(ruleset, &setup, mode),
                None => Position::from_setup_auto_in(ruleset, &setup),
            };
            match result {
                Ok(pos) => return Ok((pos, dropped)),
                Err(e @ PositionError::InvalidCastling { token, .. }) => {
                    setup.castling.retain(|t| t.char() != token);
                    dropped.push(e);
                }
                Err(e @ PositionError::InvalidEnPassant(_)) if setup.ep_square.is_some() => {
                    setup.ep_square = None;
                    dropped.push(e);
                }
                Err(e) => return Err(e),
            }
        }
    }
}

/// The piece counts a game from the standard start can reach: at most 16 pieces and 8 pawns
/// a side, and no more promoted pieces than missing pawns.
fn check_material(board: &Board) -> Result<(), PositionError> {
    for color in Color::ALL {
        let ours = board.by_color(color);
        let pieces = ours.count();
        if pieces > 16 {
            return Err(PositionError::TooManyPieces(color, pieces));
        }
        let pawns = (board.pawns() & ours).count();
        if pawns > 8 {
            return Err(PositionError::TooManyPawns(color, pawns));
        }
        let extra = |bb: Bitboard, normal: u32| bb.count().saturating_sub(normal);
        let bishops = board.bishops() & ours;
        let promoted = extra(board.queens() & ours, 1)
            + extra(board.rooks() & ours, 2)
            + extra(board.knights() & ours, 2)
            + extra(bishops & Bitboard::LIGHT_SQUARES, 1)
            + extra(bishops & Bitboard::DARK_SQUARES, 1);
        if pawns + promoted > 8 {
            return Err(PositionError::ImpossibleMaterial(color));
        }
    }
    Ok(())
}

/// Turns the castling field's tokens into rook squares.
fn resolve_castling(
    board: &Board,
    tokens: &[CastlingToken],
    mode: CastlingMode,
) -> Result<Castles, PositionError> {
    let mut castles = Castles::empty(mode);
    for &token in tokens {
        let color = token.color();
        let err = |reason| PositionError::InvalidCastling {
            token: token.char(),
            reason,
        };
        let backrank = Bitboard::backrank(color);
        let king = match board.king_of(color) {
            Some(k) if backrank.contains(k) => k,
            _ => return Err(err(CastlingError::KingNotOnBackrank)),
        };
        let rooks = board.by_piece(Role::Rook.of(color)) & backrank;
        let (side, rook) = match token {
            CastlingToken::KingSide(_) => {
                let right = rooks & Bitboard(!0u64 << king.index());
                match right.last() {
                    Some(r) if r != king => (CastlingSide::KingSide, r),
                    _ => return Err(err(CastlingError::NoRook)),
                }
            }
            CastlingToken::QueenSide(_) => {
                let left = rooks & Bitboard((1u64 << king.index()) - 1);
                match left.first() {
                    Some(r) => (CastlingSide::QueenSide, r),
                    None => return Err(err(CastlingError::NoRook)),
                }
            }
            CastlingToken::File(_, file) => {
                let sq = Square::from_coords(file, Rank::First.relative_to(color));
                if sq == king {
                    return Err(err(CastlingError::RookOnKingFile));
                }
                if !rooks.contains(sq) {
                    return Err(err(CastlingError::NoRookOnFile));
                }
                (CastlingSide::from_squares(king, sq), sq)
            }
        };
        if let Some(existing) = castles.rook(color, side) {
            if existing != rook {
                return Err(err(CastlingError::Conflict));
            }
        }
        if mode == CastlingMode::Standard {
            let corner = match side {
                CastlingSide::KingSide => File::H,
                CastlingSide::QueenSide => File::A,
            };
            if king.file() != File::E || rook.file() != corner {
                return Err(err(CastlingError::NotStandard));
            }
        }
        castles.set(color, side, king, rook);
    }
    Ok(castles)
}

#[cfg(test)]
mod tests {
    use crate::Position;

    #[test]
    fn a_moot_en_passant_square_leaves_no_trace() {
        // The pawn on d4 that could take on e3 is pinned: the square is dropped, and the
        // position is the one written without it, hash and all.
        let with = Position::from_fen("8/8/8/8/k2pP2R/8/8/4K3 b - e3 0 1").expect("pinned ep");
        let without = Position::from_fen("8/8/8/8/k2pP2R/8/8/4K3 b - - 0 1").expect("no ep");
        assert_eq!(with.ep_square(), None);
        assert_eq!(with.zobrist_hash(), without.zobrist_hash());
        assert_eq!(with, without);
    }
}
