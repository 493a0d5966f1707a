//! Pseudo-legal moves for the rulesets whose legality is tested move by move: atomic,
//! antichess, and horde's white. Every piece moves as in chess, with each ruleset's
//! differences: atomic kings never capture, antichess pawns may promote to a king and no one
//! castles, horde pawns on their first rank may step two squares.

use crate::attacks::{
    between, bishop_attacks, king_attacks, knight_attacks, pawn_attacks, rook_attacks,
};
use crate::{Bitboard, CastlingSide, Color, Move, MoveList, Position, Rank, Role, Ruleset, Square};

/// The pseudo-legal moves of the side to move: legal but for what the ruleset checks after
/// playing them (the own king's safety in atomic; nothing in antichess and for the horde).
pub(super) fn moves(pos: &Position, list: &mut MoveList) {
    let board = pos.board();
    let ruleset = pos.ruleset();
    let us = pos.turn();
    let our = board.by_color(us);
    let their = board.by_color(!us);
    let occ = board.occupied();

    for from in board.knights() & our {
        push_piece(pos, list, Role::Knight, from, knight_attacks(from) - our);
    }
    for from in board.bishops() & our {
        push_piece(
            pos,
            list,
            Role::Bishop,
            from,
            bishop_attacks(from, occ) - our,
        );
    }
    for from in board.rooks() & our {
        push_piece(pos, list, Role::Rook, from, rook_attacks(from, occ) - our);
    }
    for from in board.queens() & our {
        let targets = bishop_attacks(from, occ) | rook_attacks(from, occ);
        push_piece(pos, list, Role::Queen, from, targets - our);
    }
    for from in board.kings() & our {
        let mut targets = king_attacks(from) - our;
        if ruleset == Ruleset::Atomic {
            targets -= their;
        }
        push_piece(pos, list, Role::King, from, targets);
    }

    let promotions = promotions(ruleset);
    let last = Bitboard::backrank(!us);
    let push: i32 = match us {
        Color::White => 8,
        Color::Black => -8,
    };
    // Horde pawns on their own first rank step two squares as from the second.
    let double_from = if ruleset == Ruleset::Horde {
        Bitboard::rank(Rank::Second.relative_to(us)) | Bitboard::rank(Rank::First.relative_to(us))
    } else {
        Bitboard::rank(Rank::Second.relative_to(us))
    };
    for from in board.pawns() & our {
        let mut targets = pawn_attacks(us, from) & their;
        if let Some(one) = from.offset(push) {
            if !occ.contains(one) {
                targets.add(one);
                if double_from.contains(from) {
                    if let Some(two) = one.offset(push) {
                        if !occ.contains(two) {
                            targets.add(two);
                        }
                    }
                }
            }
        }
        for to in targets {
            let promoting = last.contains(to).then_some(promotions);
            push_move(list, Role::Pawn, from, board.role_at(to), to, promoting);
        }
    }
    if let Some(ep) = pos.ep_square() {
        for from in pawn_attacks(!us, ep) & board.pawns() & our {
            list.push(Move::EnPassant { from, to: ep });
        }
    }

    if ruleset.castles() {
        castling(pos, list);
    }
}

fn push_piece(pos: &Position, list: &mut MoveList, role: Role, from: Square, targets: Bitboard) {
    for to in targets {
        list.push(Move::Normal {
            role,
            from,
            capture: pos.board().role_at(to),
            to,
            promotion: None,
        });
    }
}

/// Castling: the right, an empty path, and no square the king stands on or passes attacked
/// by the ruleset's rules (the square it lands on is tested with the move).
fn castling(pos: &Position, list: &mut MoveList) {
    let board = pos.board();
    let us = pos.turn();
    let Some(king) = board.king_of(us) else {
        return;
    };
    for side in CastlingSide::ALL {
        let Some(rook) = pos.castles().rook(us, side) else {
            continue;
        };
        if pos.castles().path(us, side).intersects(board.occupied())
            || !(board.rooks() & board.by_color(us)).contains(rook)
        {
            continue;
        }
        let king_to = side.king_to(us);
        let safe = if pos.ruleset() == Ruleset::Atomic {
            // Atomic (as lichess plays it since 2021): the castling rook still shields the
            // squares the king passes; where it lands is judged on the board after the move.
            let occ = board.occupied().without(king);
            between(king, king_to)
                .with(king)
                .into_iter()
                .all(|sq| !king_attacked_on(pos, sq, occ.with(sq)))
        } else {
            let occ = board.occupied().without(king).without(rook);
            between(king, king_to)
                .with(king_to)
                .with(king)
                .into_iter()
                .all(|sq| !king_attacked_on(pos, sq, occ.with(sq)))
        };
        if safe {
            list.push(Move::Castle { king, rook });
        }
    }
}

/// `true` if our king standing on `sq` (with `occ` the board's occupancy) would be attacked by
/// the ruleset's rules.
fn king_attacked_on(pos: &Position, sq: Square, occ: Bitboard) -> bool {
    let board = pos.board();
    let them = !pos.turn();
    let attackers = board.attackers_to(sq, them, occ);
    match pos.ruleset() {
        Ruleset::Atomic => {
            let their_kings = board.kings() & board.by_color(them);
            !king_attacks(sq).intersects(their_kings) && (attackers - board.kings()).any()
        }
        _ => attackers.any(),
    }
}

/// The pseudo-legal moves of the side to move's pieces of `role` that land on `to`
/// (promotions and en passant included, castling not): what a move token naming that piece
/// and square can mean, found without generating every move.
pub(super) fn moves_to(pos: &Position, role: Role, to: Square, list: &mut MoveList) {
    let board = pos.board();
    let ruleset = pos.ruleset();
    let us = pos.turn();
    let our = board.by_color(us);
    let their = board.by_color(!us);
    let occ = board.occupied();
    if our.contains(to) {
        return;
    }
    let pieces = board.by_piece(role.of(us));
    let from_squares = match role {
        Role::Pawn => {
            if Some(to) == pos.ep_square() {
                for from in pawn_attacks(!us, to) & pieces {
                    list.push(Move::EnPassant { from, to });
                }
                return;
            }
            if their.contains(to) {
                pawn_attacks(!us, to) & pieces
            } else {
                let back: i32 = match us {
                    Color::White => -8,
                    Color::Black => 8,
                };
                let double_from = if ruleset == Ruleset::Horde {
                    Bitboard::rank(Rank::Second.relative_to(us))
                        | Bitboard::rank(Rank::First.relative_to(us))
                } else {
                    Bitboard::rank(Rank::Second.relative_to(us))
                };
                match to.offset(back) {
                    Some(one) if pieces.contains(one) => Bitboard::from(one),
                    Some(one) if !occ.contains(one) => one
                        .offset(back)
                        .filter(|&two| pieces.contains(two) && double_from.contains(two))
                        .map_or(Bitboard::EMPTY, Bitboard::from),
                    _ => Bitboard::EMPTY,
                }
            }
        }
        Role::Knight => knight_attacks(to) & pieces,
        Role::Bishop => bishop_attacks(to, occ) & pieces,
        Role::Rook => rook_attacks(to, occ) & pieces,
        Role::Queen => (bishop_attacks(to, occ) | rook_attacks(to, occ)) & pieces,
        Role::King => {
            if ruleset == Ruleset::Atomic && their.contains(to) {
                return;
            }
            king_attacks(to) & pieces
        }
    };
    let capture = board.role_at(to);
    let promotes = role == Role::Pawn && Bitboard::backrank(!us).contains(to);
    for from in from_squares {
        push_move(
            list,
            role,
            from,
            capture,
            to,
            promotes.then(|| promotions(ruleset)),
        );
    }
}

/// A move of `role` from `from` to `to`, once for each role of `promoting` if it promotes.
fn push_move(
    list: &mut MoveList,
    role: Role,
    from: Square,
    capture: Option<Role>,
    to: Square,
    promoting: Option<&[Role]>,
) {
    match promoting {
        Some(roles) => {
            for &promotion in roles {
                list.push(Move::Normal {
                    role,
                    from,
                    capture,
                    to,
                    promotion: Some(promotion),
                });
            }
        }
        None => list.push(Move::Normal {
            role,
            from,
            capture,
            to,
            promotion: None,
        }),
    }
}

/// `true` if the side to move has a pseudo-legal move (in antichess, where every
/// pseudo-legal move is legal but for compulsory captures, this is having a legal move).
pub(super) fn any_move(pos: &Position) -> bool {
    let board = pos.board();
    let us = pos.turn();
    let pawns = board.pawns() & board.by_color(us);
    let ahead = match us {
        Color::White => Bitboard(pawns.0 << 8),
        Color::Black => Bitboard(pawns.0 >> 8),
    };
    (ahead - board.occupied()).any() || reaches(pos, !board.by_color(us))
}

/// Antichess: `true` if the side to move can capture something (en passant included).
pub(super) fn any_capture(pos: &Position) -> bool {
    reaches(pos, pos.board().by_color(!pos.turn()))
}

/// `true` if a piece of the side to move attacks a square of `targets` (pawns: their
/// captures, en passant included), as pseudo-legal moves go.
fn reaches(pos: &Position, targets: Bitboard) -> bool {
    let board = pos.board();
    let us = pos.turn();
    let our = board.by_color(us);
    let occ = board.occupied();
    if pos
        .ep_square()
        .is_some_and(|ep| (pawn_attacks(!us, ep) & board.pawns() & our).any())
    {
        return true;
    }
    // Pawn captures as a set: each pawn's diagonal steps, off the board's edge files.
    let pawns = board.pawns() & our;
    let (west, east) = (
        pawns - Bitboard::file(crate::File::A),
        pawns - Bitboard::file(crate::File::H),
    );
    let captures = match us {
        Color::White => Bitboard(west.0 << 7) | Bitboard(east.0 << 9),
        Color::Black => Bitboard(west.0 >> 9) | Bitboard(east.0 >> 7),
    };
    if captures.intersects(targets & board.by_color(!us)) {
        return true;
    }
    let hits = |pieces: Bitboard, attacks: &dyn Fn(Square) -> Bitboard| {
        let mut pieces = pieces & our;
        Iterator::any(&mut pieces, |from| attacks(from).intersects(targets))
    };
    hits(board.knights(), &knight_attacks)
        || hits(board.kings(), &king_attacks)
        || hits(board.bishops_and_queens(), &|sq| bishop_attacks(sq, occ))
        || hits(board.rooks_and_queens(), &|sq| rook_attacks(sq, occ))
}

/// The roles a pawn promotes to.
fn promotions(ruleset: Ruleset) -> &'static [Role] {
    if ruleset == Ruleset::Antichess {
        &[
            Role::Queen,
            Role::Rook,
            Role::Bishop,
            Role::Knight,
            Role::King,
        ]
    } else {
        &Role::PROMOTIONS
    }
}
