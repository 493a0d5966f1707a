//! Legal move generation by standard chess's rules, with check and pin masks.
//!
//! Moves are produced into a [`Sink`]: the list sink expands them into [`Move`]s, the counting
//! sink only adds up set sizes (used for perft's last ply and for counting legal moves).
//!
//! This is standard chess's generator and knows no variant: it plays by chess's rules
//! whatever the position's ruleset. [`Position`] looks at the ruleset and comes here for
//! standard chess; the variants that move pieces as chess does build on it.

use crate::attacks::{
    between, bishop_attacks, king_attacks, knight_attacks, pawn_attacks, ray, rook_attacks,
};
use crate::{
    Bitboard, Board, CastlingSide, Color, File, Move, MoveList, Position, Rank, Role, Square,
};

/// Receives generated moves.
trait Sink {
    /// Moves of a non-pawn piece from `from` to each of `targets`.
    fn piece(&mut self, board: &Board, role: Role, from: Square, targets: Bitboard);
    /// Pawn moves to each of `targets`, each from `to - delta`; promotions if `promote`.
    fn pawns(&mut self, board: &Board, targets: Bitboard, delta: i32, promote: bool);
    /// Pawn moves of a single pawn to each of `targets`; promotions if `promote`.
    fn pawn(&mut self, board: &Board, from: Square, targets: Bitboard, promote: bool);
    /// An en-passant capture.
    fn en_passant(&mut self, from: Square, to: Square);
    /// A castling move.
    fn castle(&mut self, king: Square, rook: Square);
    /// `true` once the sink needs no more moves.
    fn done(&self) -> bool {
        false
    }
}

impl Sink for MoveList {
    #[inline]
    fn piece(&mut self, board: &Board, role: Role, from: Square, targets: Bitboard) {
        for to in targets {
            self.push(Move::Normal {
                role,
                from,
                capture: board.role_at(to),
                to,
                promotion: None,
            });
        }
    }

    #[inline]
    fn pawns(&mut self, board: &Board, targets: Bitboard, delta: i32, promote: bool) {
        for to in targets {
            let from = Square::new_masked((to.index() as i32 - delta) as u32);
            push_pawn(self, board, from, to, promote);
        }
    }

    #[inline]
    fn pawn(&mut self, board: &Board, from: Square, targets: Bitboard, promote: bool) {
        for to in targets {
            push_pawn(self, board, from, to, promote);
        }
    }

    fn en_passant(&mut self, from: Square, to: Square) {
        self.push(Move::EnPassant { from, to });
    }

    fn castle(&mut self, king: Square, rook: Square) {
        self.push(Move::Castle { king, rook });
    }
}

#[inline]
fn push_pawn(list: &mut MoveList, board: &Board, from: Square, to: Square, promote: bool) {
    let capture = board.role_at(to);
    if promote {
        for promotion in Role::PROMOTIONS {
            list.push(Move::Normal {
                role: Role::Pawn,
                from,
                capture,
                to,
                promotion: Some(promotion),
            });
        }
    } else {
        list.push(Move::Normal {
            role: Role::Pawn,
            from,
            capture,
            to,
            promotion: None,
        });
    }
}

/// Counts moves without making them.
struct Counter(usize);

impl Sink for Counter {
    #[inline]
    fn piece(&mut self, _: &Board, _: Role, _: Square, targets: Bitboard) {
        self.0 += targets.count() as usize;
    }
    #[inline]
    fn pawns(&mut self, _: &Board, targets: Bitboard, _: i32, promote: bool) {
        self.0 += targets.count() as usize * if promote { 4 } else { 1 };
    }
    #[inline]
    fn pawn(&mut self, _: &Board, _: Square, targets: Bitboard, promote: bool) {
        self.0 += targets.count() as usize * if promote { 4 } else { 1 };
    }
    fn en_passant(&mut self, _: Square, _: Square) {
        self.0 += 1;
    }
    fn castle(&mut self, _: Square, _: Square) {
        self.0 += 1;
    }
}

/// Stops at the first move.
struct Any(bool);

impl Sink for Any {
    #[inline]
    fn piece(&mut self, _: &Board, _: Role, _: Square, targets: Bitboard) {
        self.0 |= targets.any();
    }
    #[inline]
    fn pawns(&mut self, _: &Board, targets: Bitboard, _: i32, _: bool) {
        self.0 |= targets.any();
    }
    #[inline]
    fn pawn(&mut self, _: &Board, _: Square, targets: Bitboard, _: bool) {
        self.0 |= targets.any();
    }
    fn en_passant(&mut self, _: Square, _: Square) {
        self.0 = true;
    }
    fn castle(&mut self, _: Square, _: Square) {
        self.0 = true;
    }
    fn done(&self) -> bool {
        self.0
    }
}

/// The legal moves by standard chess's rules, whatever the position's ruleset.
pub(crate) fn legal_moves(pos: &Position, list: &mut MoveList) {
    generate(pos, list);
}

/// The number of legal moves by standard chess's rules, counted without listing them.
pub(crate) fn count_legal_moves(pos: &Position) -> usize {
    let mut c = Counter(0);
    generate(pos, &mut c);
    c.0
}

/// `true` if the side to move has a legal move by standard chess's rules.
pub(crate) fn has_legal_moves(pos: &Position) -> bool {
    // The king first, square by square, stopping at the first safe one: in the positions
    // where this is asked (after a check, to tell it from mate) the king can usually move.
    let Some(mut ctx) = Context::new(pos) else {
        return false;
    };
    let board = pos.board();
    let occ = ctx.occ.without(ctx.king);
    for to in king_attacks(ctx.king) & !ctx.our {
        if board.attackers_to(to, ctx.them, occ).is_empty() {
            return true;
        }
    }
    if ctx.checkers.more_than_one() {
        return false;
    }
    ctx.pinned = pinned(board, ctx.king, ctx.our, ctx.their, ctx.occ);
    let mut a = Any(false);
    generate_non_king(pos, &ctx, &mut a);
    a.0
}

/// Shifts a bitboard by `delta` squares (positive: towards h8).
#[inline]
fn shift(bb: Bitboard, delta: i32) -> Bitboard {
    if delta >= 0 {
        Bitboard(bb.0 << delta)
    } else {
        Bitboard(bb.0 >> -delta)
    }
}

/// What every legality test in a position needs: computed once per position.
pub(crate) struct Context {
    pub us: Color,
    pub them: Color,
    pub our: Bitboard,
    pub their: Bitboard,
    pub occ: Bitboard,
    pub king: Square,
    pub checkers: Bitboard,
    /// Our pinned pieces: only computed by [`Context::with_pins`] (empty otherwise; use
    /// [`Context::is_pinned`]).
    pub pinned: Bitboard,
    /// Squares a non-king move must land on: not our own pieces, and blocking or taking a
    /// single checker.
    pub target: Bitboard,
}

impl Context {
    #[inline]
    pub(crate) fn new(pos: &Position) -> Option<Context> {
        let board = pos.board();
        let us = pos.turn();
        let them = !us;
        let our = board.by_color(us);
        let their = board.by_color(them);
        let occ = our | their;
        let king = (board.kings() & our).first()?;
        let checkers = board.attackers_to(king, them, occ);
        let target = match checkers.single_square() {
            Some(c) => between(king, c).with(c),
            None if checkers.any() => Bitboard::EMPTY,
            None => !our,
        };
        Some(Context {
            us,
            them,
            our,
            their,
            occ,
            king,
            checkers,
            pinned: Bitboard::EMPTY,
            target,
        })
    }

    /// [`Context::new`] with the pinned pieces computed, for generating all moves.
    #[inline]
    pub(crate) fn with_pins(pos: &Position) -> Option<Context> {
        let mut ctx = Context::new(pos)?;
        ctx.pinned = pinned(pos.board(), ctx.king, ctx.our, ctx.their, ctx.occ);
        Some(ctx)
    }

    /// `true` if our piece on `from` is pinned to our king (computed for this one square).
    #[inline]
    pub(crate) fn is_pinned(&self, board: &Board, from: Square) -> bool {
        let line = ray(self.king, from);
        if line.is_empty() || (between(self.king, from) & self.occ).any() {
            return false;
        }
        let occ = self.occ.without(from);
        let pinners = if self.king.rank() == from.rank() || self.king.file() == from.file() {
            rook_attacks(from, occ) & board.rooks_and_queens()
        } else {
            bishop_attacks(from, occ) & board.bishops_and_queens()
        };
        (pinners & line & self.their).any()
    }

    /// The squares a piece on `from` may move along without exposing the king.
    #[inline]
    pub(crate) fn pin_mask(&self, from: Square) -> Bitboard {
        if self.pinned.contains(from) {
            ray(self.king, from)
        } else {
            Bitboard::FULL
        }
    }
}

#[inline]
fn pinned(board: &Board, king: Square, our: Bitboard, their: Bitboard, occ: Bitboard) -> Bitboard {
    let snipers = ((rook_attacks(king, their) & board.rooks_and_queens())
        | (bishop_attacks(king, their) & board.bishops_and_queens()))
        & their;
    let mut pinned = Bitboard::EMPTY;
    for sniper in snipers {
        let blockers = between(king, sniper) & occ;
        if !blockers.more_than_one() {
            pinned |= blockers & our;
        }
    }
    pinned
}

/// Squares the king may step to (attacked squares excluded).
#[inline]
fn king_targets(board: &Board, ctx: &Context) -> Bitboard {
    let occ = ctx.occ.without(ctx.king);
    let mut safe = Bitboard::EMPTY;
    for to in king_attacks(ctx.king) & !ctx.our {
        if board.attackers_to(to, ctx.them, occ).is_empty() {
            safe.add(to);
        }
    }
    safe
}

fn generate<S: Sink>(pos: &Position, sink: &mut S) {
    let Some(ctx) = Context::with_pins(pos) else {
        return;
    };
    let board = pos.board();
    sink.piece(board, Role::King, ctx.king, king_targets(board, &ctx));
    if ctx.checkers.more_than_one() || sink.done() {
        return;
    }
    generate_non_king(pos, &ctx, sink);
}

/// The moves of every piece but the king (the king is not in double check).
fn generate_non_king<S: Sink>(pos: &Position, ctx: &Context, sink: &mut S) {
    let board = pos.board();
    let target = ctx.target;
    let our = ctx.our;
    let occ = ctx.occ;

    if ctx.checkers.is_empty() {
        castling(pos, ctx, sink);
    }

    for from in board.knights() & our & !ctx.pinned {
        sink.piece(board, Role::Knight, from, knight_attacks(from) & target);
    }
    for from in board.bishops() & our {
        sink.piece(
            board,
            Role::Bishop,
            from,
            bishop_attacks(from, occ) & target & ctx.pin_mask(from),
        );
    }
    for from in board.rooks() & our {
        sink.piece(
            board,
            Role::Rook,
            from,
            rook_attacks(from, occ) & target & ctx.pin_mask(from),
        );
    }
    for from in board.queens() & our {
        let att = bishop_attacks(from, occ) | rook_attacks(from, occ);
        sink.piece(board, Role::Queen, from, att & target & ctx.pin_mask(from));
    }
    if sink.done() {
        return;
    }

    pawn_moves(pos, ctx, sink);
}

fn pawn_moves<S: Sink>(pos: &Position, ctx: &Context, sink: &mut S) {
    let board = pos.board();
    let us = ctx.us;
    let pawns = board.pawns() & ctx.our;
    let free = pawns & !ctx.pinned;
    let empty = !ctx.occ;
    let target = ctx.target;
    let last = Bitboard::backrank(ctx.them);
    let (push, left, right) = match us {
        Color::White => (8, 7, 9),
        Color::Black => (-8, -9, -7),
    };

    let single = shift(free, push) & empty;
    let double = shift(single & Bitboard::rank(Rank::Third.relative_to(us)), push) & empty & target;
    let single = single & target;
    sink.pawns(board, single - last, push, false);
    sink.pawns(board, single & last, push, true);
    sink.pawns(board, double, 2 * push, false);

    let hits = ctx.their & target;
    let caps_left = shift(free - Bitboard::file(File::A), left) & hits;
    let caps_right = shift(free - Bitboard::file(File::H), right) & hits;
    sink.pawns(board, caps_left - last, left, false);
    sink.pawns(board, caps_left & last, left, true);
    sink.pawns(board, caps_right - last, right, false);
    sink.pawns(board, caps_right & last, right, true);

    for from in pawns & ctx.pinned {
        let line = ray(ctx.king, from);
        let mut targets = pawn_attacks(us, from) & ctx.their;
        if let Some(one) = from.offset(push) {
            if empty.contains(one) {
                targets.add(one);
                if from.rank() == Rank::Second.relative_to(us) {
                    if let Some(two) = one.offset(push) {
                        if empty.contains(two) {
                            targets.add(two);
                        }
                    }
                }
            }
        }
        let targets = targets & line & target;
        sink.pawn(board, from, targets - last, false);
        sink.pawn(board, from, targets & last, true);
    }

    if let Some(ep) = pos.ep_square() {
        for from in pawn_attacks(ctx.them, ep) & pawns {
            if en_passant_is_legal(board, ctx, from, ep) {
                sink.en_passant(from, ep);
            }
        }
    }
}

/// Full test of an en-passant capture: play it on the occupancy and look at the king.
/// Covers pins, the horizontal discovered check through both pawns, and checks.
#[inline]
pub(crate) fn en_passant_is_legal(board: &Board, ctx: &Context, from: Square, ep: Square) -> bool {
    let captured = Square::from_coords(ep.file(), from.rank());
    let occ = ctx.occ.without(from).without(captured).with(ep);
    board
        .attackers_to(ctx.king, ctx.them, occ)
        .without(captured)
        .is_empty()
}

/// `true` if some pawn can legally take en passant on the position's en-passant square, by
/// standard chess's rules.
pub(crate) fn has_legal_en_passant(pos: &Position) -> bool {
    let Some(ep) = pos.ep_square() else {
        return false;
    };
    let Some(ctx) = Context::new(pos) else {
        return false;
    };
    let board = pos.board();
    let mut capturers = pawn_attacks(ctx.them, ep) & board.pawns() & ctx.our;
    Iterator::any(&mut capturers, |from| {
        en_passant_is_legal(board, &ctx, from, ep)
    })
}

fn castling<S: Sink>(pos: &Position, ctx: &Context, sink: &mut S) {
    for side in CastlingSide::ALL {
        if let Some(rook) = castle_rook_if_legal(pos, ctx, side) {
            sink.castle(ctx.king, rook);
        }
    }
}

/// The rook of a legal castling move on `side`, if there is one. Assumes not in check
/// (`ctx.checkers` is looked at as well).
pub(crate) fn castle_rook_if_legal(
    pos: &Position,
    ctx: &Context,
    side: CastlingSide,
) -> Option<Square> {
    if ctx.checkers.any() {
        return None;
    }
    let board = pos.board();
    let rook = pos.castles().rook(ctx.us, side)?;
    if pos.castles().path(ctx.us, side).intersects(ctx.occ) {
        return None;
    }
    let king = ctx.king;
    if !(board.rooks() & ctx.our).contains(rook) {
        return None;
    }
    let king_to = side.king_to(ctx.us);
    let king_path = between(king, king_to).with(king_to);
    let occ = ctx.occ.without(king).without(rook);
    for sq in king_path {
        if board.attackers_to(sq, ctx.them, occ).any() {
            return None;
        }
    }
    Some(rook)
}

/// The squares from which a piece of `role` of the side to move can legally move to `to`
/// (normal moves and en passant; castling excluded), among `from_mask`.
pub(crate) fn legal_origins(
    pos: &Position,
    ctx: &Context,
    role: Role,
    to: Square,
    from_mask: Bitboard,
) -> Bitboard {
    let board = pos.board();
    if ctx.our.contains(to) {
        return Bitboard::EMPTY;
    }
    let pieces = board.by_piece(role.of(ctx.us)) & from_mask;
    if pieces.is_empty() {
        return Bitboard::EMPTY;
    }
    if role == Role::King {
        let king = Bitboard::from(ctx.king) & pieces;
        return if king.any()
            && king_attacks(ctx.king).contains(to)
            && board
                .attackers_to(to, ctx.them, ctx.occ.without(ctx.king))
                .is_empty()
        {
            king
        } else {
            Bitboard::EMPTY
        };
    }
    if ctx.checkers.more_than_one() {
        return Bitboard::EMPTY;
    }
    let mut origins = Bitboard::EMPTY;
    if role == Role::Pawn && Some(to) == pos.ep_square() {
        for from in pawn_attacks(ctx.them, to) & pieces {
            if en_passant_is_legal(board, ctx, from, to) {
                origins.add(from);
            }
        }
        return origins;
    }
    if !ctx.target.contains(to) {
        return Bitboard::EMPTY;
    }
    for from in reach(ctx, role, to, pieces) {
        let along_pin_line = role != Role::Knight && ray(ctx.king, from).contains(to);
        if along_pin_line || !ctx.is_pinned(board, from) {
            origins.add(from);
        }
    }
    origins
}

/// Pieces among `pieces` (all of `role` and the side to move) that reach `to` by their way of
/// moving, ignoring pins and checks (en passant excluded).
fn reach(ctx: &Context, role: Role, to: Square, pieces: Bitboard) -> Bitboard {
    match role {
        Role::Pawn => {
            if ctx.their.contains(to) {
                pawn_attacks(ctx.them, to) & pieces
            } else {
                let back = match ctx.us {
                    Color::White => -8,
                    Color::Black => 8,
                };
                match to.offset(back) {
                    Some(one) if pieces.contains(one) => Bitboard::from(one),
                    Some(one)
                        if !ctx.occ.contains(one)
                            && to.rank() == Rank::Fourth.relative_to(ctx.us) =>
                    {
                        one.offset(back)
                            .map_or(Bitboard::EMPTY, |two| Bitboard::from(two) & pieces)
                    }
                    _ => Bitboard::EMPTY,
                }
            }
        }
        Role::Knight => knight_attacks(to) & pieces,
        Role::Bishop => bishop_attacks(to, ctx.occ) & pieces,
        Role::Rook => rook_attacks(to, ctx.occ) & pieces,
        Role::Queen => (bishop_attacks(to, ctx.occ) | rook_attacks(to, ctx.occ)) & pieces,
        Role::King => king_attacks(to) & pieces,
    }
}

/// The squares from which a piece of `role` would reach `to` if pins and checks did not
/// matter (en passant included); for error messages.
pub(crate) fn pseudo_origins(
    pos: &Position,
    ctx: &Context,
    role: Role,
    to: Square,
    from_mask: Bitboard,
) -> Bitboard {
    if ctx.our.contains(to) {
        return Bitboard::EMPTY;
    }
    let pieces = pos.board().by_piece(role.of(ctx.us)) & from_mask;
    if role == Role::Pawn && Some(to) == pos.ep_square() {
        return pawn_attacks(ctx.them, to) & pieces;
    }
    reach(ctx, role, to, pieces)
}
