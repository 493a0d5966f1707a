//! A fast path for the tokens of nearly every real game: SAN as the standard writes it,
//! naming a move that no other piece of its kind could make. It finds the move without
//! setting up a full move-generation context, and gives exactly what the general path
//! gives; anything else (castling, disambiguation, en passant, several candidates, any
//! lenient form, any error) is left to the general path by returning `None`.

use super::forgiven::Forgiven;
use super::resolve::Resolved;
use super::writing::{San, SanPlus, Suffix};
use crate::attacks::{bishop_attacks, king_attacks, knight_attacks, pawn_attacks, rook_attacks};
use crate::movegen::{self, Context};
use crate::{Bitboard, CastlingSide, Color, File, Move, Position, Rank, Role, Square};

/// The parts of a canonical SAN token.
struct Parsed {
    role: Role,
    /// The pawn's file of a pawn capture, or the file of a piece told apart by it.
    file: Option<File>,
    /// The rank of a piece told apart by it.
    rank: Option<Rank>,
    /// Castling.
    castle: Option<CastlingSide>,
    capture: bool,
    to: Square,
    promotion: Option<Role>,
    suffix: Option<Suffix>,
}

#[inline]
fn square(f: u8, r: u8) -> Option<Square> {
    Some(Square::from_coords(
        File::from_byte(f)?,
        Rank::from_byte(r)?,
    ))
}

#[inline]
fn promotion(b: u8) -> Option<Role> {
    match b {
        b'Q' => Some(Role::Queen),
        b'R' => Some(Role::Rook),
        b'B' => Some(Role::Bishop),
        b'N' => Some(Role::Knight),
        _ => None,
    }
}

#[inline(always)]
fn parse(token: &[u8]) -> Option<Parsed> {
    let (body, suffix) = match token {
        [body @ .., b'+'] => (body, Some(Suffix::Check)),
        [body @ .., b'#'] => (body, Some(Suffix::Checkmate)),
        body => (body, None),
    };
    let parsed = |role, file, capture, to, promotion| {
        Some(Parsed {
            role,
            file,
            rank: None,
            castle: None,
            capture,
            to,
            promotion,
            suffix,
        })
    };
    let told_apart = |p: u8, by: u8, capture: bool, f: u8, r: u8| {
        let mut parsed = parsed(
            Role::from_upper_byte(p)?,
            None,
            capture,
            square(f, r)?,
            None,
        )?;
        match by {
            b'a'..=b'h' => parsed.file = File::from_byte(by),
            _ => parsed.rank = Some(Rank::from_byte(by)?),
        }
        Some(parsed)
    };
    let castle = |side| {
        Some(Parsed {
            role: Role::King,
            file: None,
            rank: None,
            castle: Some(side),
            capture: false,
            to: Square::A1,
            promotion: None,
            suffix,
        })
    };
    match *body {
        [b'O', b'-', b'O'] => castle(CastlingSide::KingSide),
        [b'O', b'-', b'O', b'-', b'O'] => castle(CastlingSide::QueenSide),
        [p @ (b'N' | b'B' | b'R' | b'Q' | b'K'), f, r] => {
            parsed(Role::from_upper_byte(p)?, None, false, square(f, r)?, None)
        }
        [p @ (b'N' | b'B' | b'R' | b'Q' | b'K'), b'x', f, r] => {
            parsed(Role::from_upper_byte(p)?, None, true, square(f, r)?, None)
        }
        [
            p @ (b'N' | b'B' | b'R' | b'Q'),
            by @ (b'a'..=b'h' | b'1'..=b'8'),
            f,
            r,
        ] => told_apart(p, by, false, f, r),
        [
            p @ (b'N' | b'B' | b'R' | b'Q'),
            by @ (b'a'..=b'h' | b'1'..=b'8'),
            b'x',
            f,
            r,
        ] => told_apart(p, by, true, f, r),
        [f @ b'a'..=b'h', r] => parsed(Role::Pawn, None, false, square(f, r)?, None),
        [f @ b'a'..=b'h', r, b'=', p] => {
            parsed(Role::Pawn, None, false, square(f, r)?, Some(promotion(p)?))
        }
        [from @ b'a'..=b'h', b'x', f, r] => parsed(
            Role::Pawn,
            Some(File::from_byte(from)?),
            true,
            square(f, r)?,
            None,
        ),
        [from @ b'a'..=b'h', b'x', f, r, b'=', p] => parsed(
            Role::Pawn,
            Some(File::from_byte(from)?),
            true,
            square(f, r)?,
            Some(promotion(p)?),
        ),
        _ => None,
    }
}

/// `true` if moving our piece from `from` to `to` (taking what stands there) leaves our
/// king on `king` attacked, given that the king is attacked by nothing that the move
/// does not take or block.
#[inline(always)]
fn exposes_king(pos: &Position, us: Color, king: Square, from: Square, to: Square) -> bool {
    let board = pos.board();
    let their = board.by_color(!us).without(to);
    let occ = board.occupied().without(from).with(to);
    (rook_attacks(king, occ) & board.rooks_and_queens() & their).any()
        || (bishop_attacks(king, occ) & board.bishops_and_queens() & their).any()
}

/// `true` if our piece (not the king) on `from` may move to `to`.
#[inline(always)]
fn is_legal(pos: &Position, us: Color, king: Square, from: Square, to: Square) -> bool {
    let board = pos.board();
    let contact = ((knight_attacks(king) & board.knights())
        | (pawn_attacks(us, king) & board.pawns()))
        & board.by_color(!us);
    !(contact.without(to).any() || exposes_king(pos, us, king, from, to))
}

/// The move a canonical token names, if the fast path finds it.
#[inline(always)]
fn find(pos: &Position, token: &[u8]) -> Option<(Parsed, Move)> {
    // Only where pieces move as in chess and the game goes on: the legality it tests is
    // standard chess's.
    if pos.ruleset() != crate::Ruleset::Chess && !moves_as_in_chess(pos, token) {
        return None;
    }
    let p = parse(token)?;
    if let Some(side) = p.castle {
        let ctx = Context::new(pos)?;
        let rook = movegen::castle_rook_if_legal(pos, &ctx, side)?;
        return Some((
            p,
            Move::Castle {
                king: ctx.king,
                rook,
            },
        ));
    }
    let board = pos.board();
    let us = pos.turn();
    let them = !us;
    let our = board.by_color(us);
    let to = p.to;
    if our.contains(to) || pos.ep_square() == Some(to) {
        return None;
    }
    let king = (board.kings() & our).single_square()?;
    let capture = if board.by_color(them).contains(to) {
        match board.role_at(to) {
            Some(Role::King) | None => return None,
            role => role,
        }
    } else {
        None
    };
    let from = match p.role {
        Role::King => {
            if !king_attacks(king).contains(to)
                || board
                    .attackers_to(to, them, board.occupied().without(king))
                    .any()
            {
                return None;
            }
            king
        }
        Role::Pawn => {
            let last_rank = Bitboard::backrank(them).contains(to);
            if last_rank != p.promotion.is_some() {
                return None;
            }
            let back = |sq: Square| match us {
                Color::White => sq.offset(-8),
                Color::Black => sq.offset(8),
            };
            let pawns = board.by_piece(Role::Pawn.of(us));
            match p.file {
                None => {
                    if capture.is_some() {
                        return None;
                    }
                    let one = back(to)?;
                    if pawns.contains(one) {
                        one
                    } else if !board.occupied().contains(one)
                        && to.rank() == Rank::Fourth.relative_to(us)
                    {
                        let two = back(one)?;
                        if !pawns.contains(two) {
                            return None;
                        }
                        two
                    } else {
                        return None;
                    }
                }
                Some(file) => {
                    capture?;
                    let from = Square::from_coords(file, back(to)?.rank());
                    if !(pawn_attacks(us, from).contains(to) && pawns.contains(from)) {
                        return None;
                    }
                    from
                }
            }
        }
        role => {
            let pieces = board.by_piece(role.of(us));
            let occ = board.occupied();
            let reach = match role {
                Role::Knight => knight_attacks(to),
                Role::Bishop => bishop_attacks(to, occ),
                Role::Rook => rook_attacks(to, occ),
                _ => bishop_attacks(to, occ) | rook_attacks(to, occ),
            };
            let candidates = reach & pieces;
            if p.file.is_none() && p.rank.is_none() {
                candidates.single_square()?
            } else {
                // Told apart as SAN does: among the legal moves, by the file if it
                // suffices, else by the rank. Anything else is left to the general path.
                let [a, b] = [candidates.first()?, candidates.last()?];
                if a == b || candidates.count() != 2 {
                    return None;
                }
                let by_file = a.file() != b.file();
                if by_file != p.file.is_some() {
                    return None;
                }
                let named = if by_file {
                    p.file.map(|f| f == a.file())?
                } else {
                    p.rank.map(|r| r == a.rank())?
                };
                let (from, other) = if named { (a, b) } else { (b, a) };
                if p.file.is_some_and(|f| f != from.file())
                    || p.rank.is_some_and(|r| r != from.rank())
                    || !is_legal(pos, us, king, other, to)
                {
                    return None;
                }
                from
            }
        }
    };
    // Checks by a knight or a pawn are answered only by taking the checker; a slider's
    // check, like a pin, shows as an attack on the king after the move. (Straight-line
    // code: cheaper than branching on whether a pin is possible.)
    if p.role != Role::King && !is_legal(pos, us, king, from, to) {
        return None;
    }
    let mv = Move::Normal {
        role: p.role,
        from,
        capture,
        to,
        promotion: p.promotion,
    };
    Some((p, mv))
}

/// `true` if a variant position's legal moves of the board are standard chess's, for
/// the move `token` names: crazyhouse, king of the hill and three-check while the game
/// goes on, horde's black, and atomic's quiet moves while the kings stand apart.
#[inline(never)]
fn moves_as_in_chess(pos: &Position, token: &[u8]) -> bool {
    match pos.ruleset() {
        crate::Ruleset::Chess | crate::Ruleset::Crazyhouse => true,
        crate::Ruleset::KingOfTheHill | crate::Ruleset::ThreeCheck => !pos.is_variant_end(),
        crate::Ruleset::Horde => pos.king_of(pos.turn()).is_some(),
        // A move that takes nothing explodes nothing; with the kings apart (no check
        // cancelled by touching kings, and a king cannot step beside the other in
        // chess), a quiet move is legal in atomic exactly when it is in chess, and so
        // are the other moves of its piece to its square (telling it apart the same).
        crate::Ruleset::Atomic => {
            let board = pos.board();
            let kings_apart = match (board.king_of(Color::White), board.king_of(Color::Black)) {
                (Some(white), Some(black)) => !king_attacks(white).contains(black),
                _ => false,
            };
            kings_apart && quiet_target(pos, token)
        }
        _ => false,
    }
}

/// `true` if the square a token moves to holds nothing of the other side and is not the
/// en-passant square (castling, which names none, included).
fn quiet_target(pos: &Position, token: &[u8]) -> bool {
    let body = match token {
        [body @ .., b'+' | b'#'] => body,
        body => body,
    };
    let body = match body {
        [head @ .., b'=', _] => head,
        body => body,
    };
    match body {
        [.., f, r] if matches!(f, b'a'..=b'h') && matches!(r, b'1'..=b'8') => square(*f, *r)
            .is_some_and(|to| {
                !pos.board().by_color(!pos.turn()).contains(to) && pos.ep_square() != Some(to)
            }),
        b"O-O" | b"O-O-O" => true,
        _ => false,
    }
}

/// [`find`] where the legality of chess is not the ruleset's (atomic, antichess, racing
/// kings, horde's white): the few pseudo-legal moves of the named piece to the named
/// square, each tested by the ruleset; a canonical token naming the only legal one.
fn find_in_variant(pos: &Position, token: &[u8]) -> Option<(Parsed, Move)> {
    if pos.ruleset() == crate::Ruleset::Crazyhouse {
        return find_drop(pos, token);
    }
    let p = parse(token)?;
    if p.castle.is_some() || pos.is_variant_end() {
        return None;
    }
    let mut reaching = crate::MoveList::new();
    crate::variants::pseudo_moves_to(pos, p.role, p.to, &mut reaching);
    let mut legal = reaching
        .iter()
        .filter(|m| m.promotion() == p.promotion && crate::variants::is_legal(pos, m));
    let mv = *legal.next()?;
    if legal.next().is_some() {
        return None;
    }
    let from = mv.from()?;
    let canonical = match p.role {
        Role::Pawn => p.rank.is_none() && p.file == mv.is_capture().then_some(from.file()),
        _ => p.file.is_none() && p.rank.is_none(),
    };
    (canonical && p.capture == mv.is_capture()).then_some((p, mv))
}

/// Crazyhouse: a drop written as SAN writes it (`N@f3`, `P@e4`, with `+` or `#`), if legal.
fn find_drop(pos: &Position, token: &[u8]) -> Option<(Parsed, Move)> {
    let (body, suffix) = match token {
        [body @ .., b'+'] => (body, Some(Suffix::Check)),
        [body @ .., b'#'] => (body, Some(Suffix::Checkmate)),
        body => (body, None),
    };
    let [letter, b'@', f, r] = *body else {
        return None;
    };
    let role = Role::from_upper_byte(letter).filter(|&role| role != Role::King)?;
    let to = square(f, r)?;
    let in_hand = pos.pockets()?.get(pos.turn()).has(role);
    let fits = !pos.board().occupied().contains(to)
        && (role != Role::Pawn || !Bitboard::BACKRANKS.contains(to));
    let mv = Move::Put { role, to };
    (in_hand && fits && crate::variants::is_legal(pos, &mv)).then_some((
        Parsed {
            role,
            file: None,
            rank: None,
            castle: None,
            capture: false,
            to,
            promotion: None,
            suffix,
        },
        mv,
    ))
}

/// What the general path forgives in a token `find` read, given the move's suffix.
#[inline]
fn forgiven(p: &Parsed, mv: &Move, suffix: Option<Suffix>) -> Forgiven {
    let mut forgiven = Forgiven::empty();
    if p.capture != mv.is_capture() {
        forgiven |= if p.capture {
            Forgiven::SUPERFLUOUS_CAPTURE
        } else {
            Forgiven::MISSING_CAPTURE
        };
    }
    if suffix != p.suffix {
        forgiven |= Forgiven::CHECK_SUFFIX;
    }
    forgiven
}

/// [`Position::resolve_san`]'s fast path.
pub(super) fn resolve(pos: &Position, token: &[u8]) -> Option<Resolved> {
    let (p, mv) = find(pos, token)?;
    let after = pos.play(&mv);
    let suffix = Suffix::for_position(&after);
    Some(Resolved {
        mv,
        forgiven: forgiven(&p, &mv, suffix),
        after,
        san: SanPlus {
            san: match p.castle {
                Some(side) => San::Castle(side),
                None => San::Normal {
                    role: p.role,
                    file: p.file,
                    rank: p.rank,
                    capture: mv.is_capture(),
                    to: p.to,
                    promotion: p.promotion,
                },
            },
            suffix,
        },
    })
}

/// The variants' fast path of [`Position::resolve_san`].
pub(super) fn resolve_in_variant(pos: &Position, token: &[u8]) -> Option<Resolved> {
    let (p, mv) = find_in_variant(pos, token)?;
    let after = pos.play(&mv);
    let suffix = Suffix::for_position(&after);
    let san = match mv {
        Move::Put { role, to } => San::Put { role, to },
        _ => San::Normal {
            role: p.role,
            file: p.file,
            rank: p.rank,
            capture: mv.is_capture(),
            to: p.to,
            promotion: p.promotion,
        },
    };
    Some(Resolved {
        mv,
        forgiven: forgiven(&p, &mv, suffix),
        after,
        san: SanPlus { san, suffix },
    })
}

/// The variants' fast path of [`Position::play_san`].
pub(super) fn play_in_variant(pos: &mut Position, token: &[u8]) -> Option<(Move, Forgiven)> {
    let (p, mv) = find_in_variant(pos, token)?;
    pos.play_mut(&mv);
    let suffix = Suffix::for_position(pos);
    Some((mv, forgiven(&p, &mv, suffix)))
}

/// [`Position::play_san`]'s fast path.
// Inlined into each of its two readers, the validator and the chess rules: left to the
// compiler, it was called, and `check` ran 2 to 3% more instructions.
#[inline(always)]
pub(super) fn play(pos: &mut Position, token: &[u8]) -> Option<(Move, Forgiven)> {
    let (p, mv) = find(pos, token)?;
    pos.play_mut(&mv);
    let suffix = Suffix::for_position(pos);
    Some((mv, forgiven(&p, &mv, suffix)))
}

#[cfg(test)]
mod tests {
    use crate::Position;
    use crate::san::quick;
    use crate::san::token::SanToken;

    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }
    }

    /// Spellings of a move: canonical, and departures the fast path must either leave to
    /// the general one or resolve exactly as it does.
    fn spellings(san: &str) -> Vec<String> {
        let bare = san.trim_end_matches(['+', '#']);
        let mut out = vec![
            san.to_owned(),
            bare.to_owned(),
            format!("{bare}+"),
            format!("{bare}#"),
            format!("{bare}++"),
        ];
        if bare.contains('x') {
            out.push(bare.replace('x', ""));
        } else if bare.len() >= 3 && bare.as_bytes()[0].is_ascii_uppercase() {
            out.push(format!("{}x{}", &bare[..1], &bare[1..]));
        } else if bare.len() == 2 {
            out.push(format!("{}x{bare}", (bare.as_bytes()[0] ^ 1) as char));
        }
        out
    }

    #[test]
    fn quick_path_agrees_with_the_general_one() {
        let mut rng = Rng(0x2545_f491_4f6c_dd1d);
        let starts = [
            Position::new(),
            Position::from_fen(
                "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            )
            .expect("fen"),
            Position::from_fen("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1").expect("fen"),
            Position::from_fen("n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1").expect("fen"),
        ];
        let (mut quick_hits, mut total) = (0u64, 0u64);
        for game in 0..300 {
            let mut pos = starts[game % starts.len()];
            for _ in 0..160 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                for m in &moves {
                    let san = pos.san(m).to_string();
                    for token in spellings(&san) {
                        let slow =
                            SanToken::from_ascii(token.as_bytes()).and_then(|t| t.resolve(&pos));
                        if let Some(fast) = quick::resolve(&pos, token.as_bytes()) {
                            assert_eq!(Ok(&fast), slow.as_ref(), "{token} in {pos:?}");
                            quick_hits += u64::from(token == san);
                        }
                        assert_eq!(pos.resolve_san(token.as_bytes()), slow, "{token}");
                        let mut played = pos;
                        let result = played.play_san(token.as_bytes());
                        match &slow {
                            Ok(r) => {
                                assert_eq!(result, Ok((r.mv, r.forgiven)), "{token}");
                                assert_eq!(played, r.after, "{token}");
                            }
                            Err(e) => {
                                assert_eq!(result.as_ref().err(), Some(e), "{token}");
                                assert_eq!(played, pos, "{token}");
                            }
                        }
                    }
                    total += 1;
                }
                let m = moves[(rng.next() % moves.len() as u64) as usize];
                pos = pos.play(&m);
            }
        }
        // Nearly every canonical token takes the fast path.
        assert!(quick_hits * 10 > total * 8, "{quick_hits} of {total}");
    }
}
