//! The rules of the variants: what each [`Ruleset`] but standard chess changes.
//!
//! Standard chess never comes here: [`Position`]'s rules (`legal`, above this module) look
//! at the ruleset once per entry point and take its own path for it (the move generator,
//! `movegen`, which knows no variant), so its speed does not depend on the variants.
//! For the others:
//! - crazyhouse, king of the hill, three-check and racing kings move pieces as chess does,
//!   so their board moves come from the standard generator; crazyhouse adds drops, racing
//!   kings removes the moves that give check, and the others stop when the game is over;
//! - atomic, antichess and horde's white (which has no king) use [`pseudo`]'s generator
//!   and a test of each move by playing it.
//!
//! A position whose game the variant has ended ([`is_variant_end`]) has no legal moves.

pub(crate) mod end;
mod pseudo;

use crate::attacks::{between, king_attacks};
use crate::movegen;
use crate::zobrist;
use crate::{
    Bitboard, Board, Color, Move, MoveList, Pocket, Position, PositionError, Rank, Role, Ruleset,
    Square,
};

/// The four centre squares of king of the hill.
pub(crate) const HILL: Bitboard = Bitboard(0x0000_0018_1800_0000);

/// Kings as the ruleset wants them: one a side, except antichess (any number), horde's white
/// (none or one) and atomic (a side whose king exploded has none; not both).
pub(crate) fn check_kings(ruleset: Ruleset, board: &Board) -> Result<(), PositionError> {
    for color in Color::ALL {
        let kings = (board.kings() & board.by_color(color)).count();
        let (min, max) = match (ruleset, color) {
            (Ruleset::Antichess, _) => (0, 64),
            (Ruleset::Horde, Color::White) | (Ruleset::Atomic, _) => (0, 1),
            _ => (1, 1),
        };
        if kings < min {
            return Err(PositionError::MissingKing(color));
        }
        if kings > max {
            return Err(PositionError::TooManyKings(color));
        }
    }
    if ruleset == Ruleset::Atomic && board.kings().is_empty() {
        return Err(PositionError::MissingKing(Color::White));
    }
    // (A horde position with no white piece left is the end of a game black won: a FEN of
    // it reads, as the final position of such a game must.)
    Ok(())
}

/// The checks a set-up may have: the side that has just moved is not in check, no check no
/// move could give (standard-like rulesets), none at all in racing kings.
pub(crate) fn check_checks(pos: &Position) -> Result<(), PositionError> {
    let board = pos.board();
    let turn = pos.turn();
    if pos.ruleset() == Ruleset::Antichess
        || (pos.ruleset() == Ruleset::Atomic && board.king_of(turn).is_none())
    {
        // No checks in antichess; in atomic, the move that blows up a king may leave its
        // own in check.
        return Ok(());
    }
    if let Some(their_king) = board.king_of(!turn) {
        if attacked_king(pos.ruleset(), board, their_king, turn) {
            return Err(PositionError::OppositeCheck(!turn));
        }
    }
    if pos.ruleset() == Ruleset::RacingKings {
        // `checkers` is empty by the rules; a set-up must be checked for it.
        let n = board.king_of(turn).map_or(0, |king| {
            board.attackers_to(king, !turn, board.occupied()).count()
        });
        if n > 0 {
            return Err(PositionError::ImpossibleCheck(turn, n));
        }
        return Ok(());
    }
    let checkers = checkers(pos);
    let n = checkers.count();
    if pos.ruleset() != Ruleset::Atomic {
        let sliders = board.bishops() | board.rooks() | board.queens();
        if n > 2 || (n == 2 && (checkers & sliders).is_empty()) {
            return Err(PositionError::ImpossibleCheck(turn, n));
        }
    }
    Ok(())
}

/// `true` if the king on `king` is in check from `attacker`'s pieces by the ruleset's rules.
fn attacked_king(ruleset: Ruleset, board: &Board, king: Square, attacker: Color) -> bool {
    match ruleset {
        Ruleset::Antichess => false,
        Ruleset::Atomic => atomic_attacked(board, king, attacker, board.occupied()),
        _ => board.attackers_to(king, attacker, board.occupied()).any(),
    }
}

/// Atomic: a king is attacked unless the other king stands beside it (taking it would blow
/// up the taker's own king), and kings never attack (they cannot capture).
fn atomic_attacked(board: &Board, king: Square, attacker: Color, occ: Bitboard) -> bool {
    use crate::attacks::{bishop_attacks, knight_attacks, pawn_attacks, rook_attacks};
    let them = board.by_color(attacker);
    if king_attacks(king).intersects(board.kings() & them) {
        return false;
    }
    // Kings never capture: every other piece of theirs on a square of `occ`.
    let theirs = them & occ;
    ((rook_attacks(king, occ) & board.rooks_and_queens())
        | (bishop_attacks(king, occ) & board.bishops_and_queens())
        | (knight_attacks(king) & board.knights())
        | (pawn_attacks(!attacker, king) & board.pawns()))
    .intersects(theirs)
}

/// The pieces giving check to the side to move, by the ruleset's rules (none in antichess).
pub(crate) fn checkers(pos: &Position) -> Bitboard {
    let board = pos.board();
    let us = pos.turn();
    let Some(king) = board.king_of(us) else {
        return Bitboard::EMPTY;
    };
    match pos.ruleset() {
        // No checks in antichess; none in racing kings either, where no move may give one
        // and no set-up may hold one.
        Ruleset::Antichess | Ruleset::RacingKings => Bitboard::EMPTY,
        Ruleset::Atomic => {
            if atomic_attacked(board, king, !us, board.occupied()) {
                board.attackers_to(king, !us, board.occupied()) - board.kings()
            } else {
                Bitboard::EMPTY
            }
        }
        _ => board.attackers_to(king, !us, board.occupied()),
    }
}

/// `true` if the variant has ended the game, whatever the moves: an exploded king, a king on
/// the hill, a third check, the horde or an antichess side gone, the race over.
pub(crate) fn is_variant_end(pos: &Position) -> bool {
    let board = pos.board();
    match pos.ruleset() {
        Ruleset::Chess | Ruleset::Crazyhouse => false,
        Ruleset::Atomic => {
            (board.kings() & board.by_color(Color::White)).is_empty()
                || (board.kings() & board.by_color(Color::Black)).is_empty()
        }
        Ruleset::Antichess => {
            board.by_color(Color::White).is_empty() || board.by_color(Color::Black).is_empty()
        }
        Ruleset::KingOfTheHill => board.kings().intersects(HILL),
        Ruleset::ThreeCheck => pos
            .remaining_checks()
            .is_some_and(|c| c.white == 0 || c.black == 0),
        Ruleset::Horde => {
            board.by_color(Color::White).is_empty() || board.by_color(Color::Black).is_empty()
        }
        Ruleset::RacingKings => race_is_over(pos),
    }
}

/// Racing kings: over when a king stands on the eighth rank, unless white has just got there
/// and black, to move, can get there too (which would draw).
fn race_is_over(pos: &Position) -> bool {
    let board = pos.board();
    let goal = Bitboard::rank(Rank::Eighth);
    let in_goal = board.kings() & goal;
    if in_goal.is_empty() {
        return false;
    }
    if pos.turn() == Color::White || in_goal.intersects(board.by_color(Color::Black)) {
        return true;
    }
    // White is there and black moves: black may still draw by reaching the rank.
    let Some(king) = board.king_of(Color::Black) else {
        return true;
    };
    let occ = board.occupied().without(king);
    let mut escapes = king_attacks(king) & (goal - board.by_color(Color::Black));
    !Iterator::any(&mut escapes, |to| {
        board.attackers_to(to, Color::White, occ).is_empty()
    })
}

/// The legal moves of a position of any ruleset but standard chess.
pub(crate) fn legal_moves(pos: &Position, list: &mut MoveList) {
    if is_variant_end(pos) {
        return;
    }
    match pos.ruleset() {
        Ruleset::Chess | Ruleset::KingOfTheHill | Ruleset::ThreeCheck => {
            movegen::legal_moves(pos, list);
        }
        Ruleset::Crazyhouse => {
            movegen::legal_moves(pos, list);
            drops(pos, list);
        }
        Ruleset::RacingKings => {
            movegen::legal_moves(pos, list);
            list.retain(|m| !gives_check(pos, m));
        }
        Ruleset::Horde if pos.board().king_of(pos.turn()).is_some() => {
            movegen::legal_moves(pos, list);
        }
        Ruleset::Horde => pseudo::moves(pos, list),
        Ruleset::Atomic => {
            pseudo::moves(pos, list);
            list.retain(|m| atomic_is_legal(pos, m));
        }
        Ruleset::Antichess => {
            pseudo::moves(pos, list);
            if list.iter().any(Move::is_capture) {
                list.retain(|m| m.is_capture());
            }
        }
    }
}

/// `true` if the side to move has a legal move.
pub(crate) fn has_legal_moves(pos: &Position) -> bool {
    match pos.ruleset() {
        Ruleset::Antichess => !is_variant_end(pos) && pseudo::any_move(pos),
        Ruleset::KingOfTheHill | Ruleset::ThreeCheck => {
            !is_variant_end(pos) && movegen::has_legal_moves(pos)
        }
        Ruleset::Crazyhouse => {
            movegen::has_legal_moves(pos) || {
                let mut list = MoveList::new();
                drops(pos, &mut list);
                !list.is_empty()
            }
        }
        _ => {
            let mut list = MoveList::new();
            legal_moves(pos, &mut list);
            !list.is_empty()
        }
    }
}

/// `true` if a legal en-passant capture exists (for the en-passant square a double step
/// leaves).
pub(crate) fn has_legal_en_passant(pos: &Position) -> bool {
    let Some(ep) = pos.ep_square() else {
        return false;
    };
    if is_variant_end(pos) {
        return false;
    }
    let mut list = MoveList::new();
    pseudo::moves_to(pos, Role::Pawn, ep, &mut list);
    list.iter().any(|m| m.is_en_passant() && is_legal(pos, m))
}

/// `true` if the side to move is in check by the ruleset's rules ([`checkers`] not empty).
pub(crate) fn is_check(pos: &Position) -> bool {
    let board = pos.board();
    let us = pos.turn();
    match pos.ruleset() {
        Ruleset::Antichess | Ruleset::RacingKings => false,
        Ruleset::Atomic => board
            .king_of(us)
            .is_some_and(|king| atomic_attacked(board, king, !us, board.occupied())),
        _ => checkers(pos).any(),
    }
}

/// Crazyhouse: the legal drops. Out of check, any empty square (pawns not on the first or
/// last rank); in check from one distant piece, the squares between it and the king.
fn drops(pos: &Position, list: &mut MoveList) {
    let Some(pockets) = pos.pockets() else {
        return;
    };
    let us = pos.turn();
    let pocket = pockets.get(us);
    if pocket.is_empty() {
        return;
    }
    let board = pos.board();
    let empty = !board.occupied();
    let targets = match board.king_of(us) {
        None => empty,
        Some(king) => {
            let checkers = board.attackers_to(king, !us, board.occupied());
            match checkers.single_square() {
                None if checkers.any() => Bitboard::EMPTY,
                None => empty,
                Some(checker) => between(king, checker),
            }
        }
    };
    for role in Pocket::ROLES {
        if pocket.has(role) {
            let to_squares = if role == Role::Pawn {
                targets - Bitboard::BACKRANKS
            } else {
                targets
            };
            for to in to_squares {
                list.push(Move::Put { role, to });
            }
        }
    }
}

/// The pseudo-legal moves of a variant position that a move token may name: every move of
/// the board (drops are read on their own). Legality is [`is_legal`]'s, move by move.
pub(crate) fn pseudo_moves(pos: &Position, list: &mut MoveList) {
    pseudo::moves(pos, list);
}

/// The pseudo-legal moves of the side to move's pieces of `role` landing on `to` (no
/// castling); legality is [`is_legal`]'s.
pub(crate) fn pseudo_moves_to(pos: &Position, role: Role, to: Square, list: &mut MoveList) {
    pseudo::moves_to(pos, role, to, list);
}

/// `true` if the pseudo-legal move `m` (from [`pseudo_moves`], or a drop on an empty square
/// from the pocket) is legal by the ruleset's rules, in a game the variant has not ended.
pub(crate) fn is_legal(pos: &Position, m: &Move) -> bool {
    match pos.ruleset() {
        Ruleset::Atomic => atomic_is_legal(pos, m),
        Ruleset::Antichess => m.is_capture() || !pseudo::any_capture(pos),
        Ruleset::Horde if pos.board().king_of(pos.turn()).is_none() => true,
        Ruleset::RacingKings => !gives_check(pos, m),
        _ => king_safe_after(pos, m),
    }
}

/// `true` if the side to move keeps its king out of check by playing `m` (standard chess's
/// test, for the rulesets that move pieces as chess does).
fn king_safe_after(pos: &Position, m: &Move) -> bool {
    let us = pos.turn();
    let board = board_after(pos, m);
    board
        .king_of(us)
        .is_none_or(|king| board.attackers_to(king, !us, board.occupied()).is_empty())
}

/// The pieces after `m`, without the rest of the position (for testing a move's legality:
/// no rights, counters or hash to keep up).
#[inline]
fn board_after(pos: &Position, m: &Move) -> Board {
    let us = pos.turn();
    let mut board = *pos.board();
    match *m {
        Move::Normal {
            role,
            from,
            capture,
            to,
            promotion,
        } => {
            if let Some(captured) = capture {
                board.take(to, !us, captured);
            }
            board.take(from, us, role);
            board.put(to, us, promotion.unwrap_or(role));
        }
        Move::EnPassant { from, to } => {
            board.take(Square::from_coords(to.file(), from.rank()), !us, Role::Pawn);
            board.take(from, us, Role::Pawn);
            board.put(to, us, Role::Pawn);
        }
        Move::Castle { king, rook } => {
            let side = crate::CastlingSide::from_squares(king, rook);
            board.take(king, us, Role::King);
            board.take(rook, us, Role::Rook);
            board.put(side.king_to(us), us, Role::King);
            board.put(side.rook_to(us), us, Role::Rook);
        }
        Move::Put { role, to } => board.put(to, us, role),
        Move::Null => {}
    }
    board
}

/// Racing kings: `true` if `m` would put either king in check.
fn gives_check(pos: &Position, m: &Move) -> bool {
    let board = board_after(pos, m);
    Color::ALL.into_iter().any(|color| {
        board
            .king_of(color)
            .is_some_and(|king| board.attackers_to(king, !color, board.occupied()).any())
    })
}

/// Atomic: `true` if the pseudo-legal `m` keeps the mover's king, and either blows up the
/// other king or leaves its own out of check.
fn atomic_is_legal(pos: &Position, m: &Move) -> bool {
    let us = pos.turn();
    if let Move::Normal {
        role,
        from,
        capture: None,
        to,
        ..
    } = *m
    {
        // A quiet move explodes nothing: only the occupancy changes (and the king's square,
        // if it moves), and the pieces that attack are all the other side's, unmoved.
        let board = pos.board();
        let king = if role == Role::King {
            Some(to)
        } else {
            board.king_of(us)
        };
        let Some(king) = king else {
            return false;
        };
        let occ = board.occupied().without(from).with(to);
        return board.king_of(!us).is_none() || !atomic_attacked(board, king, !us, occ);
    }
    let mut board = board_after(pos, m);
    if let Some(to) = capture_square(m) {
        board.clear(blast(&board, to));
    }
    let board = &board;
    let Some(king) = board.king_of(us) else {
        return false;
    };
    if board.king_of(!us).is_none() {
        return true;
    }
    !atomic_attacked(board, king, !us, board.occupied())
}

/// Atomic: where a capture explodes (the capturer's landing square, en passant too).
#[inline]
fn capture_square(m: &Move) -> Option<Square> {
    match *m {
        Move::Normal {
            capture: Some(_),
            to,
            ..
        }
        | Move::EnPassant { to, .. } => Some(to),
        _ => None,
    }
}

/// Atomic: the squares a capture on `to` clears: the capturer's, and every piece but pawns
/// around it.
#[inline]
fn blast(board: &Board, to: Square) -> Bitboard {
    (king_attacks(to) & (board.occupied() - board.pawns())).with(to)
}

/// Plays a legal move of a variant position.
pub(crate) fn play_mut(pos: &mut Position, m: &Move) {
    let double_step = apply(pos, m);
    debug_assert_eq!(pos.zobrist_hash(), pos.compute_hash(), "{m}");
    if let Some(ep) = double_step {
        pos.keep_legal_ep_square(ep, has_legal_en_passant);
    }
}

/// Plays `m` with the ruleset's side effects (explosions, pockets, promoted pieces, check
/// counters), each hashed as it happens; returns the square a double step passed over,
/// whose en-passant capture the caller may keep.
fn apply(pos: &mut Position, m: &Move) -> Option<Square> {
    let us = pos.turn();
    match pos.ruleset() {
        Ruleset::Crazyhouse => {
            let king = pos.board().king_of(us);
            let was_promoted = pos.promoted();
            let double_step = pos.play_board_mut(m);
            let (_, pockets, promoted, _, _) = pos.variant_parts_mut();
            let pocket = pockets.get_mut(us);
            let mut key = 0;
            let mut change = |role: Role, add: bool| {
                let count = pocket.count(role);
                if add {
                    pocket.add(role);
                } else {
                    pocket.remove(role);
                }
                key ^= zobrist::pocket(us, role, count)
                    ^ zobrist::pocket(us, role, pocket.count(role));
            };
            match *m {
                Move::Normal {
                    from,
                    capture,
                    to,
                    promotion,
                    ..
                } => {
                    if let Some(captured) = capture {
                        let back = if was_promoted.contains(to) {
                            Role::Pawn
                        } else {
                            captured
                        };
                        change(back, true);
                    }
                    promoted.discard(to);
                    if was_promoted.contains(from) || promotion.is_some() {
                        promoted.discard(from);
                        promoted.add(to);
                    }
                }
                Move::EnPassant { .. } => change(Role::Pawn, true),
                Move::Put { role, .. } => change(role, false),
                Move::Castle { rook, .. } => {
                    if was_promoted.contains(rook) {
                        promoted.discard(rook);
                        let side = crate::CastlingSide::from_squares(king.unwrap_or(rook), rook);
                        promoted.add(side.rook_to(us));
                    }
                }
                Move::Null => {}
            }
            for sq in was_promoted ^ *promoted {
                key ^= zobrist::promoted(sq);
            }
            pos.toggle_hash(key);
            double_step
        }
        Ruleset::Atomic => {
            let center = capture_square(m);
            let double_step = pos.play_board_mut(m);
            if let Some(to) = center {
                let (board, _, _, _, castles) = pos.variant_parts_mut();
                let rights = castles.rights();
                let mut key = 0;
                for sq in blast(board, to) {
                    if let Some(piece) = board.remove_piece_at(sq) {
                        key ^= zobrist::piece(piece.color, piece.role, sq);
                        if piece.role == Role::King {
                            castles.discard_color(piece.color);
                        }
                        castles.discard_rook(sq);
                    }
                }
                key ^= zobrist::castling(rights) ^ zobrist::castling(castles.rights());
                pos.toggle_hash(key);
            }
            double_step
        }
        Ruleset::ThreeCheck => {
            let double_step = pos.play_board_mut(m);
            if is_check(pos) {
                let (_, _, _, checks, _) = pos.variant_parts_mut();
                let left = checks.get_mut(us);
                let before = *left;
                *left = before.saturating_sub(1);
                let key =
                    zobrist::remaining_checks(us, before) ^ zobrist::remaining_checks(us, *left);
                pos.toggle_hash(key);
            }
            double_step
        }
        Ruleset::Horde => {
            // A first-rank pawn's double step gives no en-passant capture.
            let double_step = pos.play_board_mut(m);
            double_step.filter(|ep| matches!(ep.rank(), Rank::Third | Rank::Sixth))
        }
        _ => pos.play_board_mut(m),
    }
}
