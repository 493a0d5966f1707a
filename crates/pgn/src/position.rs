//! [`Position`]: a chess position with everything the rules need, and playing moves in it.

use crate::attacks;
use crate::movegen;
use crate::setup::{CastlingToken, Setup};
use crate::variants;
use crate::zobrist;
use crate::{
    Bitboard, Board, ByColor, Castles, CastlingMode, CastlingRights, CastlingSide, Color, Move,
    MoveList, Pocket, Rank, Role, Ruleset, Square,
};

/// A legal chess position: the board, the side to move, castling rights, the en-passant
/// square, the move counters, and a Zobrist hash kept up to date as moves are played.
///
/// A position also carries its [`Ruleset`] (standard chess unless made for a variant) and
/// what the variants add to the board: the crazyhouse pockets and promoted pieces, the
/// three-check counters. Standard chess never looks at them.
///
/// Positions are small and [`Copy`]: playing a move makes a new position (copy-make).
///
/// ```
/// use pgn::{Position, Square};
/// let pos = Position::new();
/// assert_eq!(pos.legal_moves().len(), 20);
/// let pos = Position::from_fen("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2")?;
/// assert_eq!(pos.ep_square(), None); // no pawn can take en passant, so FEN writes `-`
/// assert_eq!(pos.to_fen(), "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2");
/// # Ok::<(), pgn::fen::FenError>(())
/// ```
#[derive(Copy, Clone, PartialEq, Eq, Hash)]
pub struct Position {
    board: Board,
    turn: Color,
    castles: Castles,
    ep_square: Option<Square>,
    halfmoves: u32,
    fullmoves: u32,
    hash: u64,
    ruleset: Ruleset,
    /// Checks each side may still give (three-check; 3 and 3 otherwise).
    remaining_checks: ByColor<u8>,
    /// Crazyhouse: the pieces in hand (empty otherwise).
    pockets: ByColor<Pocket>,
    /// Crazyhouse: the pieces that were pawns (captured, they go to the pocket as pawns).
    promoted: Bitboard,
}

/// Checks a side may give in three-check before winning.
const THREE_CHECKS: ByColor<u8> = ByColor { white: 3, black: 3 };

impl Default for Position {
    /// The standard start position.
    fn default() -> Position {
        Position::new()
    }
}

/// Why a setup (usually read from FEN) is not a legal position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    /// A side has no king.
    #[error("{0} has no king")]
    MissingKing(Color),
    /// A side has two kings or more.
    #[error("{0} has more than one king")]
    TooManyKings(Color),
    /// A side has more than 16 pieces.
    #[error("{0} has {1} pieces; a side starts with 16 and can never have more")]
    TooManyPieces(Color, u32),
    /// A side has more than 8 pawns.
    #[error("{0} has {1} pawns; a side can never have more than 8")]
    TooManyPawns(Color, u32),
    /// A side has more pieces than its missing pawns could have promoted to.
    #[error(
        "{0} has more queens, rooks, bishops or knights than its missing pawns could have promoted to"
    )]
    ImpossibleMaterial(Color),
    /// A pawn stands on the first or the eighth rank.
    #[error("a pawn stands on {0}, but pawns can never be on the first or last rank")]
    PawnOnBackrank(Square),
    /// The side that has just moved is in check.
    #[error("{0} is in check although it is not {0}'s move")]
    OppositeCheck(Color),
    /// The side to move is attacked by more pieces, or by a combination of pieces, that no
    /// move could have produced.
    #[error("{0} is in a check no move could have given ({1} checking pieces)")]
    ImpossibleCheck(Color, u32),
    /// The en-passant square cannot follow a pawn's double step.
    #[error(
        "impossible en-passant square {0}: it must be on the third or sixth rank, empty, behind an enemy pawn that has just moved two squares"
    )]
    InvalidEnPassant(Square),
    /// A castling right whose king or rook is not in place.
    #[error("castling right `{token}` is impossible: {reason}")]
    InvalidCastling {
        /// The castling right as written in FEN.
        token: char,
        /// What is wrong with it.
        reason: CastlingError,
    },
}

/// What is wrong with a castling right.
#[derive(Copy, Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CastlingError {
    /// The king is not on its first rank.
    #[error("the king is not on its first rank")]
    KingNotOnBackrank,
    /// No rook of that colour on that side of the king.
    #[error("there is no rook on that side of the king")]
    NoRook,
    /// The named file holds no rook of that colour.
    #[error("there is no rook on that file of the first rank")]
    NoRookOnFile,
    /// The named file is the king's own.
    #[error("the named file is the king's")]
    RookOnKingFile,
    /// Two different rooks are named for the same side.
    #[error("two different rooks are named for the same side")]
    Conflict,
    /// The variant has no castling (antichess, racing kings).
    #[error("the variant has no castling")]
    NoCastling,
    /// Standard chess needs the king on e1/e8 and the rooks on a1/h1 (a8/h8).
    #[error(
        "standard chess castles with the king on the e-file and rooks in the corners (is this Chess960?)"
    )]
    NotStandard,
}

impl Position {
    /// The standard start position.
    pub fn new() -> Position {
        let mut pos = Position {
            board: Board::new(),
            turn: Color::White,
            castles: Castles::default(),
            ep_square: None,
            halfmoves: 0,
            fullmoves: 1,
            hash: 0,
            ruleset: Ruleset::Chess,
            remaining_checks: THREE_CHECKS,
            pockets: ByColor {
                white: Pocket::EMPTY,
                black: Pocket::EMPTY,
            },
            promoted: Bitboard::EMPTY,
        };
        pos.hash = pos.compute_hash();
        pos
    }

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

        let mut pos = Position {
            board,
            turn,
            castles,
            ep_square,
            halfmoves: setup.halfmoves,
            fullmoves: setup.fullmoves.max(1),
            hash: 0,
            ruleset,
            remaining_checks: THREE_CHECKS,
            pockets: ByColor {
                white: Pocket::EMPTY,
                black: Pocket::EMPTY,
            },
            promoted: Bitboard::EMPTY,
        };
        match ruleset {
            Ruleset::Crazyhouse => {
                if let Some(pockets) = setup.pockets {
                    pos.pockets = pockets;
                }
                pos.promoted = setup.promoted & board.occupied() & !board.pawns() & !board.kings();
            }
            Ruleset::ThreeCheck => {
                if let Some(checks) = setup.remaining_checks {
                    pos.remaining_checks = checks;
                }
            }
            _ => {}
        }

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

        if pos.ep_square.is_some() && !pos.has_legal_en_passant() {
            pos.ep_square = None;
        }
        pos.hash = pos.compute_hash();
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

    /// The setup that describes this position (the inverse of [`Position::from_setup`]).
    pub fn to_setup(&self) -> Setup {
        let mut castling = Vec::new();
        for color in Color::ALL {
            for side in CastlingSide::ALL {
                if let Some(rook) = self.castles.rook(color, side) {
                    castling.push(CastlingToken::File(color, rook.file()));
                }
            }
        }
        Setup {
            board: self.board,
            turn: self.turn,
            castling,
            ep_square: self.ep_square,
            halfmoves: self.halfmoves,
            fullmoves: self.fullmoves,
            pockets: (self.ruleset == Ruleset::Crazyhouse).then_some(self.pockets),
            promoted: self.promoted,
            remaining_checks: (self.ruleset == Ruleset::ThreeCheck)
                .then_some(self.remaining_checks),
        }
    }

    /// The same position with castling written the other way (see [`CastlingMode`]).
    ///
    /// # Errors
    /// [`PositionError::InvalidCastling`] when switching to standard chess with castling rights
    /// whose king or rooks are not on the standard files.
    pub fn with_castling_mode(&self, mode: CastlingMode) -> Result<Position, PositionError> {
        if mode == CastlingMode::Standard {
            for color in Color::ALL {
                for side in CastlingSide::ALL {
                    if let Some(rook) = self.castles.rook(color, side) {
                        let king_ok =
                            self.board.king_of(color).map(Square::file) == Some(crate::File::E);
                        let rook_ok = rook.file()
                            == match side {
                                CastlingSide::KingSide => crate::File::H,
                                CastlingSide::QueenSide => crate::File::A,
                            };
                        if !king_ok || !rook_ok {
                            return Err(PositionError::InvalidCastling {
                                token: castling_char(color, side),
                                reason: CastlingError::NotStandard,
                            });
                        }
                    }
                }
            }
        }
        let mut pos = *self;
        pos.castles.set_mode(mode);
        Ok(pos)
    }

    /// Piece placement.
    #[inline]
    pub const fn board(&self) -> &Board {
        &self.board
    }

    /// The side to move.
    #[inline]
    pub const fn turn(&self) -> Color {
        self.turn
    }

    /// Castling rights and the squares of the rooks they refer to.
    #[inline]
    pub const fn castles(&self) -> &Castles {
        &self.castles
    }

    /// The castling rights left.
    #[inline]
    pub const fn castling_rights(&self) -> CastlingRights {
        self.castles.rights()
    }

    /// Whether castling is written as in standard chess or as in Chess960.
    #[inline]
    pub const fn castling_mode(&self) -> CastlingMode {
        self.castles.mode()
    }

    /// The square a pawn may take en passant on, if a legal en-passant capture exists.
    #[inline]
    pub const fn ep_square(&self) -> Option<Square> {
        self.ep_square
    }

    /// Half-moves since the last capture or pawn move (for the fifty-move rule).
    #[inline]
    pub const fn halfmoves(&self) -> u32 {
        self.halfmoves
    }

    /// The number of the full move, starting at 1 and increased after black's move.
    #[inline]
    pub const fn fullmoves(&self) -> u32 {
        self.fullmoves
    }

    /// The Zobrist hash: equal positions (same pieces, side to move, castling rights and
    /// legal en-passant capture) have equal hashes; different ones almost surely differ.
    #[inline]
    pub const fn zobrist_hash(&self) -> u64 {
        self.hash
    }

    /// The rules this position is played by.
    #[inline]
    pub const fn ruleset(&self) -> Ruleset {
        self.ruleset
    }

    /// Crazyhouse: the pieces each side holds in hand (`None` in other rulesets).
    #[inline]
    pub fn pockets(&self) -> Option<&ByColor<Pocket>> {
        (self.ruleset == Ruleset::Crazyhouse).then_some(&self.pockets)
    }

    /// Crazyhouse: the pieces on the board that were pawns (empty in other rulesets).
    #[inline]
    pub const fn promoted(&self) -> Bitboard {
        self.promoted
    }

    /// Three-check: the checks each side may still give before it wins (`None` in other
    /// rulesets).
    #[inline]
    pub fn remaining_checks(&self) -> Option<ByColor<u8>> {
        (self.ruleset == Ruleset::ThreeCheck).then_some(self.remaining_checks)
    }

    /// The parts variant rules change as moves are played, for [`crate::variants`].
    #[inline]
    pub(crate) fn variant_parts_mut(
        &mut self,
    ) -> (
        &mut Board,
        &mut ByColor<Pocket>,
        &mut Bitboard,
        &mut ByColor<u8>,
        &mut Castles,
    ) {
        (
            &mut self.board,
            &mut self.pockets,
            &mut self.promoted,
            &mut self.remaining_checks,
            &mut self.castles,
        )
    }

    /// The piece on `sq`.
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<crate::Piece> {
        self.board.piece_at(sq)
    }

    /// The king of `color`.
    #[inline]
    pub fn king_of(&self, color: Color) -> Option<Square> {
        self.board.king_of(color)
    }

    /// The pieces giving check to the side to move.
    #[inline]
    pub fn checkers(&self) -> Bitboard {
        if self.ruleset != Ruleset::Chess {
            return variants::checkers(self);
        }
        match self.board.king_of(self.turn) {
            Some(king) => self
                .board
                .attackers_to(king, !self.turn, self.board.occupied()),
            None => Bitboard::EMPTY,
        }
    }

    /// `true` if the side to move is in check.
    #[inline]
    pub fn is_check(&self) -> bool {
        if self.ruleset != Ruleset::Chess {
            return variants::is_check(self);
        }
        self.checkers().any()
    }

    /// All legal moves.
    #[inline]
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        if self.ruleset != Ruleset::Chess {
            variants::legal_moves(self, &mut list);
        } else {
            movegen::legal_moves(self, &mut list);
        }
        list
    }

    /// The number of legal moves, counted without listing them.
    pub fn count_legal_moves(&self) -> usize {
        if self.ruleset != Ruleset::Chess {
            let mut list = MoveList::new();
            variants::legal_moves(self, &mut list);
            return list.len();
        }
        movegen::count_legal_moves(self)
    }

    /// `true` if the side to move has a legal move.
    pub fn has_legal_moves(&self) -> bool {
        if self.ruleset != Ruleset::Chess {
            return variants::has_legal_moves(self);
        }
        movegen::has_legal_moves(self)
    }

    /// `true` if some pawn can legally take en passant on the en-passant square.
    // Out of line: asked only after a double step beside a pawn, and kept out of
    // `play_mut`, which inlines `keep_legal_ep_square`.
    #[inline(never)]
    fn has_legal_en_passant(&self) -> bool {
        if self.ruleset != Ruleset::Chess {
            return variants::has_legal_en_passant(self);
        }
        movegen::has_legal_en_passant(self)
    }

    /// `true` if `m` is legal in this position.
    pub fn is_legal(&self, m: &Move) -> bool {
        match m {
            Move::Null => false,
            _ => self.legal_moves().contains(m),
        }
    }

    /// `true` if the game is over by a rule of the variant (a king exploded, on the hill or
    /// at the finish, a third check, horde's white gone), whatever the legal moves; always
    /// `false` in standard chess and crazyhouse.
    pub fn is_variant_end(&self) -> bool {
        self.ruleset != Ruleset::Chess && variants::is_variant_end(self)
    }

    /// Plays a legal move and returns the new position.
    ///
    /// `m` must come from this position (from [`Position::legal_moves`], SAN or UCI read in
    /// it). Playing anything else does not panic, but gives a meaningless position; use
    /// [`Position::try_play`] for moves of unknown origin. [`Move::Null`] passes the turn.
    #[inline]
    #[must_use]
    pub fn play(&self, m: &Move) -> Position {
        let mut pos = *self;
        pos.play_mut(m);
        pos
    }

    /// Plays `m` after checking that it is legal.
    ///
    /// # Errors
    /// [`IllegalMoveError`] if `m` is not a legal move here.
    pub fn try_play(&self, m: &Move) -> Result<Position, IllegalMoveError> {
        if self.is_legal(m) {
            Ok(self.play(m))
        } else {
            Err(IllegalMoveError { mv: *m })
        }
    }

    /// Plays a legal move in place; see [`Position::play`].
    #[inline]
    pub fn play_mut(&mut self, m: &Move) {
        if self.ruleset != Ruleset::Chess {
            return variants::play_mut(self, m);
        }
        let double_step = self.play_board_mut(m);
        if let Some(ep) = double_step {
            self.keep_legal_ep_square(ep);
        }
    }

    /// Plays a move on the board, the castling rights, the counters and the hash, as
    /// standard chess plays it; returns the square a pawn's double step passed over, for
    /// [`Position::keep_legal_ep_square`]. A drop puts the piece (the pocket is the
    /// variant's business).
    #[inline(always)]
    pub(crate) fn play_board_mut(&mut self, m: &Move) -> Option<Square> {
        let us = self.turn;
        let them = !us;
        let mut hash = self.hash;
        if let Some(ep) = self.ep_square.take() {
            hash ^= zobrist::ep(ep.file());
        }
        let old_rights = self.castles.rights();
        self.halfmoves = self.halfmoves.saturating_add(1);
        let mut double_step = None;

        match *m {
            Move::Normal {
                role,
                from,
                capture,
                to,
                promotion,
            } => {
                if let Some(captured) = capture {
                    self.board.take(to, them, captured);
                    hash ^= zobrist::piece(them, captured, to);
                    self.halfmoves = 0;
                }
                self.board.take(from, us, role);
                hash ^= zobrist::piece(us, role, from);
                let placed = promotion.unwrap_or(role);
                self.board.put(to, us, placed);
                hash ^= zobrist::piece(us, placed, to);
                match role {
                    Role::Pawn => {
                        self.halfmoves = 0;
                        if from.index() ^ to.index() == 16 {
                            double_step =
                                Some(Square::new_masked(((from.index() + to.index()) / 2) as u32));
                        }
                    }
                    Role::King => self.castles.discard_color(us),
                    _ => {}
                }
                if !old_rights.is_empty() {
                    self.castles.discard_rooks(from, to);
                }
            }
            Move::EnPassant { from, to } => {
                let captured = Square::from_coords(to.file(), from.rank());
                self.board.take(captured, them, Role::Pawn);
                self.board.take(from, us, Role::Pawn);
                self.board.put(to, us, Role::Pawn);
                hash ^= zobrist::piece(them, Role::Pawn, captured)
                    ^ zobrist::piece(us, Role::Pawn, from)
                    ^ zobrist::piece(us, Role::Pawn, to);
                self.halfmoves = 0;
            }
            Move::Castle { king, rook } => {
                let side = CastlingSide::from_squares(king, rook);
                let king_to = side.king_to(us);
                let rook_to = side.rook_to(us);
                self.board.take(king, us, Role::King);
                self.board.take(rook, us, Role::Rook);
                self.board.put(king_to, us, Role::King);
                self.board.put(rook_to, us, Role::Rook);
                hash ^= zobrist::piece(us, Role::King, king)
                    ^ zobrist::piece(us, Role::Rook, rook)
                    ^ zobrist::piece(us, Role::King, king_to)
                    ^ zobrist::piece(us, Role::Rook, rook_to);
                self.castles.discard_color(us);
            }
            Move::Put { role, to } => {
                self.board.put(to, us, role);
                hash ^= zobrist::piece(us, role, to);
                if role == Role::Pawn {
                    self.halfmoves = 0;
                }
            }
            Move::Null => {}
        }

        let new_rights = self.castles.rights();
        if new_rights != old_rights {
            hash ^= zobrist::castling(old_rights) ^ zobrist::castling(new_rights);
        }
        if us == Color::Black {
            self.fullmoves = self.fullmoves.saturating_add(1);
        }
        self.turn = them;
        hash ^= zobrist::black_to_move();
        self.hash = hash;
        double_step
    }

    /// Sets the en-passant square `ep` that the last move's double step passed over, if a
    /// pawn can really take en passant (legal, not just pseudo-legal), so that FEN and the
    /// hash do not depend on moot squares.
    #[inline]
    pub(crate) fn keep_legal_ep_square(&mut self, ep: Square) {
        let them = self.turn;
        if (attacks::pawn_attacks(!them, ep) & self.board.by_piece(Role::Pawn.of(them))).any() {
            self.ep_square = Some(ep);
            if self.has_legal_en_passant() {
                self.hash ^= zobrist::ep(ep.file());
            } else {
                self.ep_square = None;
            }
        }
    }

    /// Toggles `key` in the hash (for what variant rules change beside the board move).
    #[inline]
    pub(crate) fn toggle_hash(&mut self, key: u64) {
        self.hash ^= key;
    }

    /// The part of the hash that the variants' own state gives: pockets and promoted pieces
    /// (crazyhouse), checks left (three-check); 0 elsewhere.
    pub(crate) fn variant_hash(&self) -> u64 {
        let mut h = 0;
        match self.ruleset {
            Ruleset::Crazyhouse => {
                for color in Color::ALL {
                    for role in Pocket::ROLES {
                        h ^= zobrist::pocket(color, role, self.pockets.get(color).count(role));
                    }
                }
                for sq in self.promoted {
                    h ^= zobrist::promoted(sq);
                }
            }
            Ruleset::ThreeCheck => {
                for color in Color::ALL {
                    h ^= zobrist::remaining_checks(color, *self.remaining_checks.get(color));
                }
            }
            _ => {}
        }
        h
    }

    /// The hash computed from scratch (the incremental one must always equal it).
    pub(crate) fn compute_hash(&self) -> u64 {
        let mut h = 0;
        for (sq, p) in self.board.pieces() {
            h ^= zobrist::piece(p.color, p.role, sq);
        }
        h ^= zobrist::castling(self.castles.rights());
        if let Some(ep) = self.ep_square {
            h ^= zobrist::ep(ep.file());
        }
        if self.turn == Color::Black {
            h ^= zobrist::black_to_move();
        }
        h ^ self.variant_hash()
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

fn castling_char(color: Color, side: CastlingSide) -> char {
    let c = match side {
        CastlingSide::KingSide => 'K',
        CastlingSide::QueenSide => 'Q',
    };
    match color {
        Color::White => c,
        Color::Black => c.to_ascii_lowercase(),
    }
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
                CastlingSide::KingSide => crate::File::H,
                CastlingSide::QueenSide => crate::File::A,
            };
            if king.file() != crate::File::E || rook.file() != corner {
                return Err(err(CastlingError::NotStandard));
            }
        }
        castles.set(color, side, king, rook);
    }
    Ok(castles)
}

/// A move that is not legal in the position it was played in.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("illegal move {mv}")]
pub struct IllegalMoveError {
    /// The move.
    pub mv: Move,
}
