//! Board coordinates: [`File`], [`Rank`] and [`Square`].

use std::fmt;
use std::str::FromStr;

use crate::Color;

/// A column of the board, `a` to `h`.
///
/// ```
/// use pgn::File;
/// assert_eq!(File::from_char('c'), Some(File::C));
/// assert_eq!(File::C.char(), 'c');
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[allow(missing_docs)]
pub enum File {
    A = 0,
    B,
    C,
    D,
    E,
    F,
    G,
    H,
}

impl File {
    /// All files, `a` first.
    pub const ALL: [File; 8] = [
        File::A,
        File::B,
        File::C,
        File::D,
        File::E,
        File::F,
        File::G,
        File::H,
    ];

    /// The file with index `i & 7` (`a` is 0).
    #[inline]
    pub const fn new_masked(i: u32) -> File {
        File::ALL[(i & 7) as usize]
    }

    /// The file with index `i` (`a` is 0), if `i < 8`.
    pub const fn from_index(i: u32) -> Option<File> {
        if i < 8 {
            Some(File::new_masked(i))
        } else {
            None
        }
    }

    /// Reads `a` to `h`.
    pub const fn from_char(c: char) -> Option<File> {
        match c {
            'a'..='h' => Some(File::new_masked(c as u32 - 'a' as u32)),
            _ => None,
        }
    }

    /// Reads `a` to `h` given as a byte.
    #[inline]
    pub const fn from_byte(b: u8) -> Option<File> {
        match b {
            b'a'..=b'h' => Some(File::new_masked((b - b'a') as u32)),
            _ => None,
        }
    }

    /// 0 for `a` up to 7 for `h`.
    #[inline]
    pub const fn index(self) -> u32 {
        self as u32
    }

    /// `a` to `h`.
    pub const fn char(self) -> char {
        (b'a' + self as u8) as char
    }

    /// `A` to `H`, as used in Shredder-FEN for white's castling rights.
    pub const fn upper_char(self) -> char {
        (b'A' + self as u8) as char
    }

    /// The file `delta` files to the right (negative: left), if on the board.
    pub const fn offset(self, delta: i32) -> Option<File> {
        let i = self as i32 + delta;
        if i >= 0 && i < 8 {
            Some(File::new_masked(i as u32))
        } else {
            None
        }
    }
}

impl fmt::Display for File {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.char())
    }
}

/// A row of the board, from white's first rank to the eighth.
///
/// ```
/// use pgn::{Color, Rank};
/// assert_eq!(Rank::from_char('8'), Some(Rank::Eighth));
/// assert_eq!(Rank::Second.relative_to(Color::Black), Rank::Seventh);
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[allow(missing_docs)]
pub enum Rank {
    First = 0,
    Second,
    Third,
    Fourth,
    Fifth,
    Sixth,
    Seventh,
    Eighth,
}

impl Rank {
    /// All ranks, the first first.
    pub const ALL: [Rank; 8] = [
        Rank::First,
        Rank::Second,
        Rank::Third,
        Rank::Fourth,
        Rank::Fifth,
        Rank::Sixth,
        Rank::Seventh,
        Rank::Eighth,
    ];

    /// The rank with index `i & 7` (the first rank is 0).
    #[inline]
    pub const fn new_masked(i: u32) -> Rank {
        Rank::ALL[(i & 7) as usize]
    }

    /// The rank with index `i` (the first rank is 0), if `i < 8`.
    pub const fn from_index(i: u32) -> Option<Rank> {
        if i < 8 {
            Some(Rank::new_masked(i))
        } else {
            None
        }
    }

    /// Reads `1` to `8`.
    pub const fn from_char(c: char) -> Option<Rank> {
        match c {
            '1'..='8' => Some(Rank::new_masked(c as u32 - '1' as u32)),
            _ => None,
        }
    }

    /// Reads `1` to `8` given as a byte.
    #[inline]
    pub const fn from_byte(b: u8) -> Option<Rank> {
        match b {
            b'1'..=b'8' => Some(Rank::new_masked((b - b'1') as u32)),
            _ => None,
        }
    }

    /// 0 for the first rank up to 7 for the eighth.
    #[inline]
    pub const fn index(self) -> u32 {
        self as u32
    }

    /// `1` to `8`.
    pub const fn char(self) -> char {
        (b'1' + self as u8) as char
    }

    /// The rank as seen from `color`'s side: black's first rank is the eighth.
    #[inline]
    pub const fn relative_to(self, color: Color) -> Rank {
        match color {
            Color::White => self,
            Color::Black => Rank::new_masked(7 - self as u32),
        }
    }

    /// The rank `delta` ranks up (negative: down), if on the board.
    pub const fn offset(self, delta: i32) -> Option<Rank> {
        let i = self as i32 + delta;
        if i >= 0 && i < 8 {
            Some(Rank::new_masked(i as u32))
        } else {
            None
        }
    }
}

impl fmt::Display for Rank {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.char())
    }
}

/// One of the 64 squares, numbered `a1` = 0, `b1` = 1, … `h8` = 63.
///
/// ```
/// use pgn::{File, Rank, Square};
/// let sq: Square = "e4".parse()?;
/// assert_eq!(sq, Square::E4);
/// assert_eq!(sq.file(), File::E);
/// assert_eq!(sq.rank(), Rank::Fourth);
/// assert_eq!(Square::from_coords(File::E, Rank::Fourth), sq);
/// assert_eq!(sq.to_string(), "e4");
/// # Ok::<(), pgn::ParseSquareError>(())
/// ```
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

macro_rules! square_consts {
    ($($name:ident = $i:expr),* $(,)?) => {
        $(
            #[doc = concat!("The square `", stringify!($name), "`.")]
            pub const $name: Square = Square($i);
        )*
    };
}

impl Square {
    square_consts! {
        A1 = 0, B1 = 1, C1 = 2, D1 = 3, E1 = 4, F1 = 5, G1 = 6, H1 = 7,
        A2 = 8, B2 = 9, C2 = 10, D2 = 11, E2 = 12, F2 = 13, G2 = 14, H2 = 15,
        A3 = 16, B3 = 17, C3 = 18, D3 = 19, E3 = 20, F3 = 21, G3 = 22, H3 = 23,
        A4 = 24, B4 = 25, C4 = 26, D4 = 27, E4 = 28, F4 = 29, G4 = 30, H4 = 31,
        A5 = 32, B5 = 33, C5 = 34, D5 = 35, E5 = 36, F5 = 37, G5 = 38, H5 = 39,
        A6 = 40, B6 = 41, C6 = 42, D6 = 43, E6 = 44, F6 = 45, G6 = 46, H6 = 47,
        A7 = 48, B7 = 49, C7 = 50, D7 = 51, E7 = 52, F7 = 53, G7 = 54, H7 = 55,
        A8 = 56, B8 = 57, C8 = 58, D8 = 59, E8 = 60, F8 = 61, G8 = 62, H8 = 63,
    }

    /// The square with index `i & 63`.
    #[inline]
    pub const fn new_masked(i: u32) -> Square {
        Square((i & 63) as u8)
    }

    /// The square with index `i` (`a1` = 0 … `h8` = 63), if `i < 64`.
    pub const fn from_index(i: u32) -> Option<Square> {
        if i < 64 { Some(Square(i as u8)) } else { None }
    }

    /// The square on `file` and `rank`.
    #[inline]
    pub const fn from_coords(file: File, rank: Rank) -> Square {
        Square((rank as u8) * 8 + file as u8)
    }

    /// 0 for `a1` up to 63 for `h8`.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The square's file.
    #[inline]
    pub const fn file(self) -> File {
        File::new_masked(self.0 as u32)
    }

    /// The square's rank.
    #[inline]
    pub const fn rank(self) -> Rank {
        Rank::new_masked(self.0 as u32 >> 3)
    }

    /// The square `delta` indices away (`+8` is one rank up), if on the board.
    ///
    /// This does not check for wrapping around the board's edge.
    pub const fn offset(self, delta: i32) -> Option<Square> {
        let i = self.0 as i32 + delta;
        if i >= 0 && i < 64 {
            Some(Square(i as u8))
        } else {
            None
        }
    }

    /// The same file, the mirrored rank (`a1` ↔ `a8`).
    #[inline]
    pub const fn flip_vertical(self) -> Square {
        Square(self.0 ^ 56)
    }

    /// The square as seen from `color`'s side: for black, mirrored vertically.
    #[inline]
    pub const fn relative_to(self, color: Color) -> Square {
        match color {
            Color::White => self,
            Color::Black => self.flip_vertical(),
        }
    }

    /// The larger of the file and rank distances (king steps between the squares).
    pub const fn distance(self, other: Square) -> u32 {
        let df = (self.file() as i32 - other.file() as i32).unsigned_abs();
        let dr = (self.rank() as i32 - other.rank() as i32).unsigned_abs();
        if df > dr { df } else { dr }
    }

    /// `true` for a light square (`h1`, `a2`, …).
    pub const fn is_light(self) -> bool {
        (self.file() as u32 + self.rank() as u32) % 2 == 1
    }

    /// Reads a square name such as `e4` from two bytes.
    ///
    /// # Errors
    /// [`ParseSquareError`] unless the input is a file letter followed by a rank digit.
    pub fn from_ascii(s: &[u8]) -> Result<Square, ParseSquareError> {
        match s {
            [f, r] => match (File::from_byte(*f), Rank::from_byte(*r)) {
                (Some(f), Some(r)) => Ok(Square::from_coords(f, r)),
                _ => Err(ParseSquareError),
            },
            _ => Err(ParseSquareError),
        }
    }

    /// Every square, `a1` first and `h8` last.
    pub fn all() -> impl DoubleEndedIterator<Item = Square> + ExactSizeIterator {
        (0u8..64).map(Square)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = [self.file().char() as u8, self.rank().char() as u8];
        f.write_str(std::str::from_utf8(&text).unwrap_or_default())
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl FromStr for Square {
    type Err = ParseSquareError;
    fn from_str(s: &str) -> Result<Square, ParseSquareError> {
        Square::from_ascii(s.as_bytes())
    }
}

impl From<Square> for usize {
    fn from(sq: Square) -> usize {
        sq.index()
    }
}

/// The text is not a square name such as `e4`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("not a square name (expected a file a-h and a rank 1-8, such as e4)")]
pub struct ParseSquareError;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn coordinates_round_trip() {
        for sq in Square::all() {
            assert_eq!(Square::from_coords(sq.file(), sq.rank()), sq);
            assert_eq!(sq.to_string().parse::<Square>(), Ok(sq));
        }
        assert!("i1".parse::<Square>().is_err());
        assert!("a9".parse::<Square>().is_err());
        assert!("a".parse::<Square>().is_err());
        assert!(!Square::A1.is_light() && Square::H1.is_light());
        assert_eq!(Square::A1.distance(Square::H8), 7);
    }
}
