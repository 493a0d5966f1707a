//! Castling rights: which rook each side may still castle with, on any file (Chess960).

use std::fmt;

use bitflags::bitflags;

use crate::attacks::between;
use crate::{Bitboard, Color, File, Rank, Square};

/// The two ways to castle.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum CastlingSide {
    /// Towards the h-file: `O-O`, the king ends on g1/g8 and the rook on f1/f8.
    KingSide,
    /// Towards the a-file: `O-O-O`, the king ends on c1/c8 and the rook on d1/d8.
    QueenSide,
}

impl CastlingSide {
    /// Both sides, king side first.
    pub const ALL: [CastlingSide; 2] = [CastlingSide::KingSide, CastlingSide::QueenSide];

    /// The file the king ends on: g or c.
    pub const fn king_to_file(self) -> File {
        match self {
            CastlingSide::KingSide => File::G,
            CastlingSide::QueenSide => File::C,
        }
    }

    /// The file the rook ends on: f or d.
    pub const fn rook_to_file(self) -> File {
        match self {
            CastlingSide::KingSide => File::F,
            CastlingSide::QueenSide => File::D,
        }
    }

    /// The square the king ends on for `color`.
    pub const fn king_to(self, color: Color) -> Square {
        Square::from_coords(self.king_to_file(), Rank::First.relative_to(color))
    }

    /// The square the rook ends on for `color`.
    pub const fn rook_to(self, color: Color) -> Square {
        Square::from_coords(self.rook_to_file(), Rank::First.relative_to(color))
    }

    /// The side a castling with the king on `king` and the rook on `rook` goes to.
    pub fn from_squares(king: Square, rook: Square) -> CastlingSide {
        if rook.file() > king.file() {
            CastlingSide::KingSide
        } else {
            CastlingSide::QueenSide
        }
    }

    /// `O-O` or `O-O-O`.
    pub const fn san(self) -> &'static str {
        match self {
            CastlingSide::KingSide => "O-O",
            CastlingSide::QueenSide => "O-O-O",
        }
    }

    /// 0 for the king side, 1 for the queen side.
    pub const fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for CastlingSide {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.san())
    }
}

/// Whether castling follows the standard rules of notation or Chess960's.
///
/// The rules of castling are the same (Chess960's generalise the standard ones); the mode
/// only changes how castling is written: in UCI, standard chess moves the king two squares
/// (`e1g1`) while Chess960 has the king take its own rook (`e1h1`); in FEN, Chess960 may
/// need file letters (X-FEN, Shredder-FEN) to tell which rook may castle.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum CastlingMode {
    /// Standard chess: king on the e-file, rooks on the a- and h-files.
    #[default]
    Standard,
    /// Chess960 (Fischer random): king between the rooks, on any files.
    Chess960,
}

impl CastlingMode {
    /// `true` for Chess960.
    pub const fn is_chess960(self) -> bool {
        matches!(self, CastlingMode::Chess960)
    }
}

bitflags! {
    /// The four castling rights, as flags.
    ///
    /// Which rook a right refers to is kept by [`Castles`]; these flags only say which rights
    /// are left.
    ///
    /// ```
    /// use pgn::{CastlingRights, CastlingSide, Color};
    /// let r = CastlingRights::WHITE_KING_SIDE | CastlingRights::BLACK_QUEEN_SIDE;
    /// assert!(r.has(Color::White, CastlingSide::KingSide));
    /// assert!(!r.has(Color::White, CastlingSide::QueenSide));
    /// ```
    #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
    pub struct CastlingRights: u8 {
        /// White may castle king side (`K`).
        const WHITE_KING_SIDE = 1;
        /// White may castle queen side (`Q`).
        const WHITE_QUEEN_SIDE = 2;
        /// Black may castle king side (`k`).
        const BLACK_KING_SIDE = 4;
        /// Black may castle queen side (`q`).
        const BLACK_QUEEN_SIDE = 8;
        /// Both of white's rights.
        const WHITE = 1 | 2;
        /// Both of black's rights.
        const BLACK = 4 | 8;
    }
}

impl CastlingRights {
    /// The flag for one right.
    #[inline]
    pub const fn of(color: Color, side: CastlingSide) -> CastlingRights {
        CastlingRights::from_bits_retain(1 << (color as u8 * 2 + side as u8))
    }

    /// Both flags of `color`.
    #[inline]
    pub const fn color(color: Color) -> CastlingRights {
        match color {
            Color::White => CastlingRights::WHITE,
            Color::Black => CastlingRights::BLACK,
        }
    }

    /// `true` if `color` may still castle on `side`.
    #[inline]
    pub const fn has(self, color: Color, side: CastlingSide) -> bool {
        self.contains(CastlingRights::of(color, side))
    }
}

/// Castling state of a position: the rights left and the square of each right's rook.
///
/// ```
/// use pgn::{CastlingSide, Color, Position, Square};
/// let pos = Position::new();
/// let castles = pos.castles();
/// assert_eq!(castles.rook(Color::White, CastlingSide::QueenSide), Some(Square::A1));
/// assert_eq!(castles.rook(Color::Black, CastlingSide::KingSide), Some(Square::H8));
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Castles {
    rights: CastlingRights,
    /// Rook squares indexed like the rights' bits: white king side, white queen side, black
    /// king side, black queen side. Meaningful only where the right is set.
    rooks: [Square; 4],
    /// For each right, the squares that must be empty to castle (all squares the king and
    /// the rook cross or land on, except their own), as files of the first rank: a
    /// position is copied at every move, and small positions copy fast.
    paths: [u8; 4],
    mode: CastlingMode,
}

impl Default for Castles {
    /// The standard start: all four rights, rooks in the corners.
    fn default() -> Castles {
        let mut castles = Castles::empty(CastlingMode::Standard);
        for color in Color::ALL {
            let king = Square::E1.relative_to(color);
            castles.set(
                color,
                CastlingSide::KingSide,
                king,
                Square::H1.relative_to(color),
            );
            castles.set(
                color,
                CastlingSide::QueenSide,
                king,
                Square::A1.relative_to(color),
            );
        }
        castles
    }
}

impl Castles {
    /// No rights.
    pub const fn empty(mode: CastlingMode) -> Castles {
        Castles {
            rights: CastlingRights::empty(),
            rooks: [Square::H1, Square::A1, Square::H8, Square::A8],
            paths: [0; 4],
            mode,
        }
    }

    /// The rights left.
    #[inline]
    pub const fn rights(&self) -> CastlingRights {
        self.rights
    }

    /// How castling is written.
    #[inline]
    pub const fn mode(&self) -> CastlingMode {
        self.mode
    }

    pub(crate) fn set_mode(&mut self, mode: CastlingMode) {
        self.mode = mode;
    }

    /// `true` if no rights are left.
    #[inline]
    pub const fn is_empty(&self) -> bool {
        self.rights.is_empty()
    }

    /// `true` if `color` may still castle on `side`.
    #[inline]
    pub const fn has(&self, color: Color, side: CastlingSide) -> bool {
        self.rights.has(color, side)
    }

    /// The rook `color` may castle with on `side`, if that right is left.
    #[inline]
    pub const fn rook(&self, color: Color, side: CastlingSide) -> Option<Square> {
        if self.has(color, side) {
            Some(self.rooks[color as usize * 2 + side as usize])
        } else {
            None
        }
    }

    /// The squares that must be empty for `color` to castle on `side` (meaningful only
    /// while that right is left).
    #[inline]
    pub const fn path(&self, color: Color, side: CastlingSide) -> Bitboard {
        let files = self.paths[color as usize * 2 + side as usize] as u64;
        Bitboard(files << (56 * color as u64))
    }

    pub(crate) fn set(&mut self, color: Color, side: CastlingSide, king: Square, rook: Square) {
        let i = color as usize * 2 + side as usize;
        self.rights |= CastlingRights::of(color, side);
        self.rooks[i] = rook;
        let king_to = side.king_to(color);
        let rook_to = side.rook_to(color);
        let path = (between(king, king_to).with(king_to) | between(rook, rook_to).with(rook_to))
            .without(king)
            .without(rook);
        // Castling stays on the first rank: the path is that rank's files.
        self.paths[i] = match color {
            Color::White => path.0 as u8,
            Color::Black => (path.0 >> 56) as u8,
        };
    }

    /// Removes both rights of `color` (its king moved).
    #[inline]
    pub(crate) fn discard_color(&mut self, color: Color) {
        self.remove(CastlingRights::color(color));
    }

    /// Removes the rights whose rook stands on `a` or `b` (it moved or was captured).
    #[inline]
    pub(crate) fn discard_rooks(&mut self, a: Square, b: Square) {
        let mut mask = Bitboard::EMPTY;
        for i in 0..4 {
            if self.rights.bits() & (1 << i) != 0 {
                mask.add(self.rooks[i]);
            }
        }
        if mask.contains(a) || mask.contains(b) {
            self.discard_rook(a);
            self.discard_rook(b);
        }
    }

    /// Removes the right whose rook stands on `sq` (it moved or was captured).
    #[inline]
    pub(crate) fn discard_rook(&mut self, sq: Square) {
        let mut i = 0;
        while i < 4 {
            if self.rooks[i] == sq {
                self.remove(CastlingRights::from_bits_retain(1 << i));
            }
            i += 1;
        }
    }

    /// Removes rights, forgetting their rooks so that equal castling states compare equal.
    #[inline]
    fn remove(&mut self, rights: CastlingRights) {
        if !self.rights.intersects(rights) {
            return;
        }
        self.rights.remove(rights);
        let blank = Castles::empty(self.mode);
        for i in 0..4 {
            if self.rights.bits() & (1 << i) == 0 {
                self.rooks[i] = blank.rooks[i];
                self.paths[i] = 0;
            }
        }
    }
}
