//! [`Board`]: where the pieces stand, nothing else.

use std::fmt;

use crate::attacks;
use crate::{Bitboard, ByColor, Color, File, Piece, Rank, Role, Square};

/// Piece placement: one bitboard per role and one per colour.
///
/// ```
/// use pgn::{Board, Color, Piece, Role, Square};
/// let board = Board::new();
/// assert_eq!(board.piece_at(Square::E1), Some(Piece { color: Color::White, role: Role::King }));
/// assert_eq!(board.to_string(), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR");
/// ```
#[derive(Copy, Clone, PartialEq, Eq, Hash)]
pub struct Board {
    by_role: [Bitboard; 6],
    by_color: [Bitboard; 2],
}

impl Default for Board {
    /// The standard start.
    fn default() -> Board {
        Board::new()
    }
}

impl Board {
    /// The standard start.
    pub const fn new() -> Board {
        Board {
            by_role: [
                Bitboard(0x00ff_0000_0000_ff00),
                Bitboard(0x4200_0000_0000_0042),
                Bitboard(0x2400_0000_0000_0024),
                Bitboard(0x8100_0000_0000_0081),
                Bitboard(0x0800_0000_0000_0008),
                Bitboard(0x1000_0000_0000_0010),
            ],
            by_color: [Bitboard(0xffff), Bitboard(0xffff_0000_0000_0000)],
        }
    }

    /// No pieces.
    pub const fn empty() -> Board {
        Board {
            by_role: [Bitboard::EMPTY; 6],
            by_color: [Bitboard::EMPTY; 2],
        }
    }

    /// All occupied squares.
    #[inline]
    pub const fn occupied(&self) -> Bitboard {
        Bitboard(self.by_color[0].0 | self.by_color[1].0)
    }

    /// The squares of `color`'s pieces.
    #[inline]
    pub const fn by_color(&self, color: Color) -> Bitboard {
        self.by_color[color as usize]
    }

    /// The squares of pieces of `role`, both colours.
    #[inline]
    pub const fn by_role(&self, role: Role) -> Bitboard {
        self.by_role[role as usize]
    }

    /// The squares of `piece`.
    #[inline]
    pub const fn by_piece(&self, piece: Piece) -> Bitboard {
        Bitboard(self.by_role[piece.role as usize].0 & self.by_color[piece.color as usize].0)
    }

    /// Pawns, both colours.
    #[inline]
    pub const fn pawns(&self) -> Bitboard {
        self.by_role[0]
    }
    /// Knights, both colours.
    #[inline]
    pub const fn knights(&self) -> Bitboard {
        self.by_role[1]
    }
    /// Bishops, both colours.
    #[inline]
    pub const fn bishops(&self) -> Bitboard {
        self.by_role[2]
    }
    /// Rooks, both colours.
    #[inline]
    pub const fn rooks(&self) -> Bitboard {
        self.by_role[3]
    }
    /// Queens, both colours.
    #[inline]
    pub const fn queens(&self) -> Bitboard {
        self.by_role[4]
    }
    /// Kings, both colours.
    #[inline]
    pub const fn kings(&self) -> Bitboard {
        self.by_role[5]
    }
    /// Rooks and queens, both colours.
    #[inline]
    pub const fn rooks_and_queens(&self) -> Bitboard {
        Bitboard(self.by_role[3].0 | self.by_role[4].0)
    }
    /// Bishops and queens, both colours.
    #[inline]
    pub const fn bishops_and_queens(&self) -> Bitboard {
        Bitboard(self.by_role[2].0 | self.by_role[4].0)
    }

    /// The king of `color` (the lowest one should there be several).
    #[inline]
    pub fn king_of(&self, color: Color) -> Option<Square> {
        (self.kings() & self.by_color(color)).first()
    }

    /// The colour of the piece on `sq`.
    #[inline]
    pub fn color_at(&self, sq: Square) -> Option<Color> {
        if self.by_color[0].contains(sq) {
            Some(Color::White)
        } else if self.by_color[1].contains(sq) {
            Some(Color::Black)
        } else {
            None
        }
    }

    /// The role of the piece on `sq`.
    #[inline]
    pub fn role_at(&self, sq: Square) -> Option<Role> {
        if !self.occupied().contains(sq) {
            None
        } else if self.by_role[0].contains(sq) {
            Some(Role::Pawn)
        } else if self.by_role[1].contains(sq) {
            Some(Role::Knight)
        } else if self.by_role[2].contains(sq) {
            Some(Role::Bishop)
        } else if self.by_role[3].contains(sq) {
            Some(Role::Rook)
        } else if self.by_role[4].contains(sq) {
            Some(Role::Queen)
        } else {
            Some(Role::King)
        }
    }

    /// The piece on `sq`.
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        let color = self.color_at(sq)?;
        let role = self.role_at(sq)?;
        Some(Piece { color, role })
    }

    /// Puts `piece` on `sq`, replacing what stood there.
    pub fn set_piece_at(&mut self, sq: Square, piece: Piece) {
        self.remove_piece_at(sq);
        self.put(sq, piece.color, piece.role);
    }

    /// Removes and returns the piece on `sq`.
    pub fn remove_piece_at(&mut self, sq: Square) -> Option<Piece> {
        let piece = self.piece_at(sq)?;
        self.by_role[piece.role as usize].discard(sq);
        self.by_color[piece.color as usize].discard(sq);
        Some(piece)
    }

    /// Adds a piece on a square known to be empty.
    #[inline]
    pub(crate) fn put(&mut self, sq: Square, color: Color, role: Role) {
        self.by_role[role as usize].add(sq);
        self.by_color[color as usize].add(sq);
    }

    /// Removes a piece known to be of `color` and `role` from `sq`.
    #[inline]
    pub(crate) fn take(&mut self, sq: Square, color: Color, role: Role) {
        self.by_role[role as usize].discard(sq);
        self.by_color[color as usize].discard(sq);
    }

    /// Removes every piece on the squares of `mask`.
    #[inline]
    pub(crate) fn clear(&mut self, mask: Bitboard) {
        for bb in self.by_role.iter_mut().chain(self.by_color.iter_mut()) {
            *bb -= mask;
        }
    }

    /// Pieces of `attacker` that attack `sq`, with `occupied` as the blockers.
    #[inline]
    pub fn attackers_to(&self, sq: Square, attacker: Color, occupied: Bitboard) -> Bitboard {
        let them = self.by_color(attacker);
        ((attacks::rook_attacks(sq, occupied) & self.rooks_and_queens())
            | (attacks::bishop_attacks(sq, occupied) & self.bishops_and_queens())
            | (attacks::knight_attacks(sq) & self.knights())
            | (attacks::king_attacks(sq) & self.kings())
            | (attacks::pawn_attacks(!attacker, sq) & self.pawns()))
            & them
    }

    /// Counts of each piece by colour and role: `counts.get(color)[role.index()]`.
    pub fn material(&self) -> ByColor<[u32; 6]> {
        ByColor::new_with(|color| {
            let mut counts = [0; 6];
            for role in Role::ALL {
                counts[role.index()] = self.by_piece(role.of(color)).count();
            }
            counts
        })
    }

    /// Iterates over all pieces, from `a1` towards `h8`.
    pub fn pieces(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        self.occupied()
            .filter_map(|sq| self.piece_at(sq).map(|p| (sq, p)))
    }

    /// The same position seen from the other side: ranks mirrored, colours swapped.
    #[must_use]
    pub fn flip_colors(&self) -> Board {
        let mut b = Board::empty();
        for (sq, p) in self.pieces() {
            b.put(sq.flip_vertical(), !p.color, p.role);
        }
        b
    }
}

impl Board {
    /// Appends the piece-placement field of FEN (the board's `Display`).
    pub(crate) fn push_placement(&self, out: &mut String) {
        // Written a character at a time without the formatter: a FEN is written for every
        // position of the Parquet positions table. At most 8 characters a rank and 7
        // slashes. The pieces' letters by square, from the twelve pieces' bitboards.
        let mut cells = [0u8; 64];
        for color in Color::ALL {
            for role in Role::ALL {
                let piece = role.of(color);
                for sq in self.by_piece(piece) {
                    cells[sq.index()] = piece.char() as u8;
                }
            }
        }
        out.reserve(71);
        // A rank's pieces found by its bits of the occupied squares, the runs of empty
        // squares between them by the bits' places: a step for each piece, where a step
        // for each square would branch on every one.
        let occupied = self.occupied().0;
        for rank in (0..8).rev() {
            let mut row = (occupied >> (8 * rank)) & 0xff;
            let mut file = 0;
            while row != 0 {
                let next = row.trailing_zeros();
                if next > file {
                    out.push(char::from(b'0' + (next - file) as u8));
                }
                out.push(char::from(cells[(8 * rank + next) as usize]));
                file = next + 1;
                row &= row - 1;
            }
            if file < 8 {
                out.push(char::from(b'0' + (8 - file) as u8));
            }
            if rank > 0 {
                out.push('/');
            }
        }
    }
}

impl fmt::Display for Board {
    /// The piece-placement field of FEN.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut placement = String::with_capacity(71);
        self.push_placement(&mut placement);
        f.write_str(&placement)
    }
}

impl fmt::Debug for Board {
    /// An 8×8 picture, rank 8 on top, `.` for an empty square.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f)?;
        for rank in Rank::ALL.iter().rev() {
            for file in File::ALL {
                let c = self
                    .piece_at(Square::from_coords(file, *rank))
                    .map_or('.', Piece::char);
                write!(f, "{c}")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}
