//! [`Position`]: a chess position with everything the rules need, and the part of playing a
//! move that every ruleset shares (the board, castling rights, counters and hash). What the
//! ruleset decides (checks, legal moves, legal set-ups) stands above the move generators, in
//! `legal`; this module needs none of it.

use crate::attacks;
use crate::setup::{CastlingToken, Setup};
use crate::zobrist;
use crate::{
    Bitboard, Board, ByColor, Castles, CastlingMode, CastlingRights, CastlingSide, Color, Move,
    Pocket, Role, Ruleset, Square,
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

    /// A position of `ruleset` from a set-up's fields, with the castling rights and the
    /// en-passant square as the caller has resolved them, and its hash. Nothing is checked:
    /// [`Position::from_setup_in`] checks first. Pockets and promoted pieces are kept in
    /// crazyhouse and check counters in three-check; elsewhere they are ignored.
    pub(crate) fn from_setup_unchecked(
        ruleset: Ruleset,
        setup: &Setup,
        castles: Castles,
        ep_square: Option<Square>,
    ) -> Position {
        let board = setup.board;
        let mut pos = Position {
            board,
            turn: setup.turn,
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
        pos.hash = pos.compute_hash();
        pos
    }

    /// Drops the en-passant square (one no pawn can legally take on), keeping the hash in
    /// step.
    pub(crate) fn clear_ep_square(&mut self) {
        if let Some(ep) = self.ep_square.take() {
            self.hash ^= zobrist::ep(ep.file());
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

    /// The number of pieces of `role` and `color`.
    pub fn count(&self, color: Color, role: Role) -> u32 {
        self.board().by_piece(role.of(color)).count()
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
    /// hash do not depend on moot squares. Whether a capture is legal is the ruleset's
    /// question, asked above the position: `can_take` answers it for the position with `ep`
    /// set.
    #[inline]
    pub(crate) fn keep_legal_ep_square(
        &mut self,
        ep: Square,
        can_take: impl FnOnce(&Position) -> bool,
    ) {
        let them = self.turn;
        if (attacks::pawn_attacks(!them, ep) & self.board.by_piece(Role::Pawn.of(them))).any() {
            self.ep_square = Some(ep);
            if can_take(self) {
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

/// A move that is not legal in the position it was played in.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("illegal move {mv}")]
pub struct IllegalMoveError {
    /// The move.
    pub mv: Move,
}
