//! Chess960 start positions, numbered 0 to 959 as in Scharnagl's scheme (518 is the standard
//! start).
//!
//! Castling in Chess960 is played with the king and rooks on any files and written `O-O`
//! and `O-O-O` as usual; see [`CastlingMode`] for UCI and FEN.
//!
//! ```
//! use pgn::{chess960, Position};
//! let pos = Position::chess960(518).expect("0..960");
//! assert_eq!(pos.board(), Position::new().board());
//! let pos = Position::chess960(0).expect("0..960");
//! assert_eq!(pos.to_fen(), "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1");
//! assert_eq!(chess960::index(&pos), Some(0));
//! ```

use crate::fen::CastlingToken;
use crate::fen::Setup;
use crate::{Board, CastlingMode, Color, File, Position, Rank, Role, Square};

/// The back-rank pieces of start position `n`, a-file first, or `None` unless `n < 960`.
pub fn back_rank(n: u32) -> Option<[Role; 8]> {
    if n >= 960 {
        return None;
    }
    let mut rank: [Option<Role>; 8] = [None; 8];
    let (n, light) = (n / 4, n % 4);
    rank[(2 * light + 1) as usize] = Some(Role::Bishop);
    let (n, dark) = (n / 4, n % 4);
    rank[(2 * dark) as usize] = Some(Role::Bishop);
    let (knights, queen) = (n / 6, n % 6);
    place_nth_empty(&mut rank, queen as usize, Role::Queen);
    const KNIGHTS: [(usize, usize); 10] = [
        (0, 1),
        (0, 2),
        (0, 3),
        (0, 4),
        (1, 2),
        (1, 3),
        (1, 4),
        (2, 3),
        (2, 4),
        (3, 4),
    ];
    let (a, b) = KNIGHTS[knights as usize % 10];
    // Place the second first so that the first's index among empties is unchanged.
    place_nth_empty(&mut rank, b, Role::Knight);
    place_nth_empty(&mut rank, a, Role::Knight);
    place_nth_empty(&mut rank, 0, Role::Rook);
    place_nth_empty(&mut rank, 0, Role::King);
    place_nth_empty(&mut rank, 0, Role::Rook);
    let mut out = [Role::Pawn; 8];
    for (o, r) in out.iter_mut().zip(rank) {
        *o = r?;
    }
    Some(out)
}

fn place_nth_empty(rank: &mut [Option<Role>; 8], n: usize, role: Role) {
    if let Some(slot) = rank.iter_mut().filter(|s| s.is_none()).nth(n) {
        *slot = Some(role);
    }
}

/// The start position with back rank `n` (`n < 960`), Chess960 castling.
pub fn start_position(n: u32) -> Option<Position> {
    let roles = back_rank(n)?;
    let mut board = Board::empty();
    for (i, role) in roles.into_iter().enumerate() {
        let file = File::new_masked(i as u32);
        board.set_piece_at(
            Square::from_coords(file, Rank::First),
            role.of(Color::White),
        );
        board.set_piece_at(
            Square::from_coords(file, Rank::Eighth),
            role.of(Color::Black),
        );
        board.set_piece_at(
            Square::from_coords(file, Rank::Second),
            Role::Pawn.of(Color::White),
        );
        board.set_piece_at(
            Square::from_coords(file, Rank::Seventh),
            Role::Pawn.of(Color::Black),
        );
    }
    let setup = Setup {
        board,
        turn: Color::White,
        castling: vec![
            CastlingToken::KingSide(Color::White),
            CastlingToken::QueenSide(Color::White),
            CastlingToken::KingSide(Color::Black),
            CastlingToken::QueenSide(Color::Black),
        ],
        ep_square: None,
        halfmoves: 0,
        fullmoves: 1,
        ..Setup::default()
    };
    Position::from_setup(&setup, CastlingMode::Chess960).ok()
}

/// The number of a Chess960 start arrangement, if `pos` has one on white's first rank
/// mirrored by black (pawns and the rest of the board are not looked at).
pub fn index(pos: &Position) -> Option<u32> {
    let board = pos.board();
    let roles: Vec<Role> = File::ALL
        .iter()
        .map(|&f| board.role_at(Square::from_coords(f, Rank::First)))
        .collect::<Option<_>>()?;
    (0..960).find(|&n| back_rank(n).is_some_and(|r| r[..] == roles[..]))
}

impl Position {
    /// The Chess960 start position number `n` (0 to 959; 518 is the standard arrangement).
    pub fn chess960(n: u32) -> Option<Position> {
        start_position(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn all_960_are_distinct_and_valid() {
        let mut seen = std::collections::HashSet::new();
        for n in 0..960 {
            let roles = back_rank(n).expect("valid");
            assert!(seen.insert(roles), "{n}");
            let pos = start_position(n).expect("legal");
            assert!(pos.legal_moves().len() >= 18);
            assert_eq!(index(&pos), Some(n));
        }
        assert_eq!(back_rank(960), None);
        assert_eq!(
            back_rank(518),
            Some([
                Role::Rook,
                Role::Knight,
                Role::Bishop,
                Role::Queen,
                Role::King,
                Role::Bishop,
                Role::Knight,
                Role::Rook
            ])
        );
    }
}
