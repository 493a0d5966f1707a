//! Board shapes, playing squares and square names.

use std::fmt;

use crate::variant::BoardKind;

/// The most playing squares a board may have (the move generator keeps a
/// board in at most 128 bits).
pub const MAX_SQUARES: usize = 128;

/// How squares are written: numbers or algebraic names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum NotationKind {
    /// Algebraic like chess: `c3` (`A` in a `GameType` tag).
    Alphanumeric,
    /// Square numbers like draughts: `32` (`N`).
    Numeric,
    /// Chess short algebraic notation (`S`); not used for draughts.
    San,
}

impl NotationKind {
    /// The letter of the `GameType` tag: `A`, `N` or `S`.
    pub const fn char(self) -> char {
        match self {
            NotationKind::Alphanumeric => 'A',
            NotationKind::Numeric => 'N',
            NotationKind::San => 'S',
        }
    }

    /// Reads `A`, `N` or `S`.
    pub const fn from_char(c: char) -> Option<NotationKind> {
        match c {
            'A' => Some(NotationKind::Alphanumeric),
            'N' => Some(NotationKind::Numeric),
            'S' => Some(NotationKind::San),
            _ => None,
        }
    }
}

/// The corner of the first square (`1` or `a1`), seen from the player who
/// moves first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Corner {
    /// `0`: bottom left.
    BottomLeft,
    /// `1`: bottom right.
    BottomRight,
    /// `2`: top left.
    TopLeft,
    /// `3`: top right.
    TopRight,
}

impl Corner {
    /// The digit of the `GameType` tag.
    pub const fn digit(self) -> u8 {
        match self {
            Corner::BottomLeft => 0,
            Corner::BottomRight => 1,
            Corner::TopLeft => 2,
            Corner::TopRight => 3,
        }
    }

    /// Reads the digit of the `GameType` tag.
    pub const fn from_digit(d: u8) -> Option<Corner> {
        match d {
            0 => Some(Corner::BottomLeft),
            1 => Some(Corner::BottomRight),
            2 => Some(Corner::TopLeft),
            3 => Some(Corner::TopRight),
            _ => None,
        }
    }

    const fn is_left(self) -> bool {
        matches!(self, Corner::BottomLeft | Corner::TopLeft)
    }

    const fn is_bottom(self) -> bool {
        matches!(self, Corner::BottomLeft | Corner::BottomRight)
    }
}

/// The notation of a game: how squares are written and where the first one
/// is. Numbers run along the rows (the "horizontal principal direction" of
/// PDN 3.0), starting in the row and at the side of the corner.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Notation {
    /// Numbers or algebraic names.
    pub kind: NotationKind,
    /// Where square `1` or `a1` is.
    pub corner: Corner,
}

impl Notation {
    /// A notation from its kind and corner.
    pub const fn new(kind: NotationKind, corner: Corner) -> Notation {
        Notation { kind, corner }
    }
}

impl fmt::Display for Notation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.kind.char(), self.corner.digit())
    }
}

/// A playing square of a particular [`Geometry`]: a dense index in row
/// order from the bottom-left corner of the starting player.
///
/// Turn it into a name with [`Geometry::name`] or [`Geometry::number`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Square(u8);

impl Square {
    /// The index of the square, `0..geometry.len()`.
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    pub(crate) const fn from_index(index: u8) -> Square {
        Square(index)
    }
}

/// The written name of a square: a number or an algebraic name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SquareName {
    /// A square number, starting at 1.
    Number(u8),
    /// An algebraic name: file `0` is `a`, rank `0` is `1`.
    Alpha {
        /// The file, counted from the corner's side.
        file: u8,
        /// The rank, counted from the corner's row.
        rank: u8,
    },
}

impl fmt::Display for SquareName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            SquareName::Number(n) => write!(f, "{n}"),
            SquareName::Alpha { file, rank } => {
                write!(f, "{}{}", char::from(b'a' + file), u32::from(rank) + 1)
            }
        }
    }
}

/// A square as written, before it is checked against a board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SquareRef {
    /// Digits: a square number.
    Number {
        /// The number.
        number: u32,
        /// Whether it was written with leading zeros (`06`, PDN 2.0 style).
        leading_zero: bool,
    },
    /// A letter and digits: an algebraic name.
    Alpha {
        /// File index, `a` = 0.
        file: u8,
        /// Rank index, `1` = 0.
        rank: u32,
        /// Whether the letter was upper case.
        upper_case: bool,
    },
}

impl SquareRef {
    /// Reads a whole string as a square reference (`32`, `06`, `c3`, `C3`).
    ///
    /// ```
    /// use pdn::SquareRef;
    ///
    /// assert_eq!(SquareRef::parse("06"), Some(SquareRef::Number { number: 6, leading_zero: true }));
    /// assert!(matches!(SquareRef::parse("c3"), Some(SquareRef::Alpha { file: 2, rank: 2, .. })));
    /// assert_eq!(SquareRef::parse("3c"), None);
    /// ```
    pub fn parse(s: &str) -> Option<SquareRef> {
        let bytes = s.as_bytes();
        let (&first, rest) = bytes.split_first()?;
        if first.is_ascii_digit() {
            let number = parse_digits(bytes)?;
            Some(SquareRef::Number {
                number,
                leading_zero: first == b'0' && bytes.len() > 1,
            })
        } else if first.is_ascii_alphabetic() {
            let rank = parse_digits(rest)?;
            if rank == 0 || rest.first() == Some(&b'0') {
                return None;
            }
            Some(SquareRef::Alpha {
                file: first.to_ascii_lowercase() - b'a',
                rank: rank - 1,
                upper_case: first.is_ascii_uppercase(),
            })
        } else {
            None
        }
    }
}

/// Parses a non-empty run of ASCII digits, refusing overflow.
fn parse_digits(bytes: &[u8]) -> Option<u32> {
    if bytes.is_empty() || bytes.len() > 9 || !bytes.iter().all(u8::is_ascii_digit) {
        return None;
    }
    Some(
        bytes
            .iter()
            .fold(0u32, |acc, &b| acc * 10 + u32::from(b - b'0')),
    )
}

/// Why a square reference does not name a playing square.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SquareError {
    /// Not a square at all.
    #[error("`{0}` is not a square (expected a number like 32 or a name like c3)")]
    Syntax(String),
    /// A number outside `1..=len`.
    #[error("square {number} does not exist: the board has squares 1 to {max}")]
    OutOfRange {
        /// The number given.
        number: u32,
        /// The highest square number.
        max: usize,
    },
    /// An algebraic name beyond the edge of the board.
    #[error("square {name} is off the {width}x{height} board")]
    OffBoard {
        /// The name given.
        name: String,
        /// Board width.
        width: u8,
        /// Board height.
        height: u8,
    },
    /// An algebraic name of a square the game is not played on.
    #[error("square {0} is not a playing square (the game is played on the other colour)")]
    NotPlayable(String),
}

/// Why a board shape cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GeometryError {
    /// Too small or too wide for square names.
    #[error("a {width}x{height} board is not supported: width must be 2 to 26 and height 2 to 99")]
    Size {
        /// Board width.
        width: u8,
        /// Board height.
        height: u8,
    },
    /// Diagonal boards need an even width so that every row holds the same
    /// number of playing squares.
    #[error("a board played on one colour needs an even width, not {0}")]
    OddWidth(u8),
    /// More playing squares than the move generator can hold.
    #[error(
        "a {width}x{height} board is too large: at most {MAX_SQUARES} playing squares are supported"
    )]
    TooLarge {
        /// Board width.
        width: u8,
        /// Board height.
        height: u8,
    },
    /// SAN notation is for chess.
    #[error("notation S (SAN) is for chess; draughts uses A (algebraic) or N (numeric)")]
    San,
}

const NONE: u8 = u8::MAX;

/// A board shape with its square names.
///
/// A [`Geometry`] is a board of `width × height` squares seen from the
/// player who moves first in the game (the "starting player" of the PDN
/// `GameType` tag), who sits at the bottom. Coordinates `(x, y)` count from
/// that player's bottom-left corner. Pieces play on one colour of squares
/// ([`BoardKind::Diagonal`]) or on all of them ([`BoardKind::Full`]).
///
/// The playing squares are identified by [`Square`], a dense index in row
/// order from the bottom-left. People name them by number (`32`, counted
/// from the corner the `GameType` notation names, along the rows) or
/// algebraically (`c3`, file letter and rank number counted from the corner).
///
/// ```
/// use pdn::{GameType, Variant};
///
/// let geometry = GameType::new(Variant::International).geometry();
/// let sq = geometry.square_by_number(46).expect("46 is on the board");
/// assert_eq!(geometry.coords(sq), (0, 0)); // a1, bottom left
/// assert_eq!(geometry.square_by_number(1).map(|s| geometry.coords(s)), Some((1, 9)));
/// assert_eq!(geometry.parse_square("32"), Ok(geometry.square_by_number(32).expect("on board")));
/// assert_eq!(geometry.name(sq).to_string(), "46");
///
/// let russian = GameType::new(Variant::Russian).geometry();
/// let c3 = russian.parse_square("c3").expect("a playing square");
/// assert_eq!(russian.coords(c3), (2, 2));
/// assert_eq!(russian.name(c3).to_string(), "c3");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Geometry {
    width: u8,
    height: u8,
    kind: BoardKind,
    invert: bool,
    notation: Notation,
    /// Square index → (x, y).
    coords: Vec<(u8, u8)>,
    /// `y * width + x` → square index or `NONE`.
    by_xy: Vec<u8>,
    /// Square index → square number (1-based).
    numbers: Vec<u8>,
    /// Square number − 1 → square index.
    by_number: Vec<u8>,
}

impl Geometry {
    /// A board of `width × height` squares.
    ///
    /// `invert` is the `GameType` flag: `false` if the bottom-left corner is
    /// a playing square. It is ignored on a [`BoardKind::Full`] board.
    ///
    /// # Errors
    ///
    /// If the board is smaller than 2×2, wider than 26 (letters a–z), higher
    /// than 99, a diagonal board has an odd width, the board has more than
    /// [`MAX_SQUARES`] playing squares (or would not fit the move generator's
    /// 128-bit layout), or the notation is SAN.
    pub fn new(
        width: u8,
        height: u8,
        kind: BoardKind,
        invert: bool,
        notation: Notation,
    ) -> Result<Geometry, GeometryError> {
        if !(2..=26).contains(&width) || !(2..=99).contains(&height) {
            return Err(GeometryError::Size { width, height });
        }
        if notation.kind == NotationKind::San {
            return Err(GeometryError::San);
        }
        let (w, h) = (usize::from(width), usize::from(height));
        let bits_needed = match kind {
            BoardKind::Diagonal => {
                if !width.is_multiple_of(2) {
                    return Err(GeometryError::OddWidth(width));
                }
                // The move generator's ghost-square layout: (h-1)(w+1)/2 + w/2 bits.
                ((h - 1) * (w + 1) + w - 1) / 2 + 1
            }
            BoardKind::Full => w * h,
        };
        if bits_needed > MAX_SQUARES {
            return Err(GeometryError::TooLarge { width, height });
        }
        Ok(Geometry::build(width, height, kind, invert, notation))
    }

    /// Builds the tables without validating the shape; only called with
    /// shapes [`Geometry::new`] accepted (or would accept).
    pub(crate) fn build(
        width: u8,
        height: u8,
        kind: BoardKind,
        invert: bool,
        notation: Notation,
    ) -> Geometry {
        let (w, h) = (usize::from(width), usize::from(height));
        let invert = invert && kind == BoardKind::Diagonal;
        let playable =
            |x: usize, y: usize| kind == BoardKind::Full || (x + y).is_multiple_of(2) != invert;

        let mut coords = Vec::new();
        let mut by_xy = vec![NONE; w * h];
        for y in 0..h {
            for x in 0..w {
                if playable(x, y) {
                    by_xy[y * w + x] = coords.len() as u8;
                    coords.push((x as u8, y as u8));
                }
            }
        }

        // Numbers run along the rows from the corner of the numeric notation;
        // algebraic games get lidraughts' numbering (from the top left, as in
        // international draughts) so that numeric FENs still read.
        let corner = match notation.kind {
            NotationKind::Numeric => notation.corner,
            _ => Corner::TopLeft,
        };
        let mut numbers = vec![0u8; coords.len()];
        let mut by_number = Vec::with_capacity(coords.len());
        for row in 0..h {
            let y = if corner.is_bottom() { row } else { h - 1 - row };
            for col in 0..w {
                let x = if corner.is_left() { col } else { w - 1 - col };
                let idx = by_xy[y * w + x];
                if idx != NONE {
                    by_number.push(idx);
                    numbers[usize::from(idx)] = by_number.len() as u8;
                }
            }
        }

        Geometry {
            width,
            height,
            kind,
            invert,
            notation,
            coords,
            by_xy,
            numbers,
            by_number,
        }
    }

    /// Board width in squares.
    pub fn width(&self) -> u8 {
        self.width
    }

    /// Board height in squares.
    pub fn height(&self) -> u8 {
        self.height
    }

    /// Which squares are played on.
    pub fn kind(&self) -> BoardKind {
        self.kind
    }

    /// Whether the bottom-left corner is not a playing square.
    pub fn is_inverted(&self) -> bool {
        self.invert
    }

    /// The notation squares are written in.
    pub fn notation(&self) -> Notation {
        self.notation
    }

    /// The number of playing squares.
    pub fn len(&self) -> usize {
        self.coords.len()
    }

    /// Whether the board has no playing squares (never true for a valid
    /// geometry).
    pub fn is_empty(&self) -> bool {
        self.coords.is_empty()
    }

    /// All playing squares in index order.
    pub fn squares(&self) -> impl Iterator<Item = Square> + '_ {
        (0..self.coords.len()).map(|i| Square(i as u8))
    }

    /// The square with the given index, if there is one.
    pub fn square_by_index(&self, index: usize) -> Option<Square> {
        (index < self.coords.len()).then_some(Square(index as u8))
    }

    /// The coordinates `(x, y)` of a square, from the starting player's
    /// bottom-left corner.
    ///
    /// # Panics
    ///
    /// If the square belongs to a larger board.
    pub fn coords(&self, sq: Square) -> (u8, u8) {
        self.coords[sq.index()]
    }

    /// The playing square at `(x, y)`, if it is on the board and played on.
    pub fn square_at(&self, x: u8, y: u8) -> Option<Square> {
        if x >= self.width || y >= self.height {
            return None;
        }
        let idx = self.by_xy[usize::from(y) * usize::from(self.width) + usize::from(x)];
        (idx != NONE).then_some(Square(idx))
    }

    /// Whether `(x, y)` is a playing square.
    pub fn is_playable(&self, x: u8, y: u8) -> bool {
        self.square_at(x, y).is_some()
    }

    /// The number of a square (1-based). Games with algebraic notation are
    /// numbered from the top left, like international draughts (as
    /// lidraughts does for Russian and Brazilian FENs).
    ///
    /// # Panics
    ///
    /// If the square belongs to a larger board.
    pub fn number(&self, sq: Square) -> u8 {
        self.numbers[sq.index()]
    }

    /// The square with the given number.
    pub fn square_by_number(&self, number: u32) -> Option<Square> {
        let i = usize::try_from(number).ok()?.checked_sub(1)?;
        self.by_number.get(i).map(|&idx| Square(idx))
    }

    /// The algebraic name `(file, rank)` of a square, counted from the corner
    /// of the algebraic notation (numeric games use the bottom-left corner).
    ///
    /// # Panics
    ///
    /// If the square belongs to a larger board.
    pub fn alpha(&self, sq: Square) -> (u8, u8) {
        let (x, y) = self.coords(sq);
        self.alpha_at(x, y)
    }

    /// The algebraic `(file, rank)` of the board's column `x` and row `y`, playing
    /// square or not (for the coordinates drawn around a board).
    pub(crate) fn alpha_at(&self, x: u8, y: u8) -> (u8, u8) {
        let (x, y) = (x.min(self.width - 1), y.min(self.height - 1));
        let corner = self.alpha_corner();
        let file = if corner.is_left() {
            x
        } else {
            self.width - 1 - x
        };
        let rank = if corner.is_bottom() {
            y
        } else {
            self.height - 1 - y
        };
        (file, rank)
    }

    fn alpha_corner(&self) -> Corner {
        match self.notation.kind {
            NotationKind::Alphanumeric => self.notation.corner,
            _ => Corner::BottomLeft,
        }
    }

    /// The square with the given algebraic name (`file` 0 = `a`, `rank` 0 =
    /// `1`).
    pub fn square_by_alpha(&self, file: u8, rank: u8) -> Option<Square> {
        if file >= self.width || rank >= self.height {
            return None;
        }
        let corner = self.alpha_corner();
        let x = if corner.is_left() {
            file
        } else {
            self.width - 1 - file
        };
        let y = if corner.is_bottom() {
            rank
        } else {
            self.height - 1 - rank
        };
        self.square_at(x, y)
    }

    /// The name of a square in the game's own notation.
    ///
    /// # Panics
    ///
    /// If the square belongs to a larger board.
    pub fn name(&self, sq: Square) -> SquareName {
        match self.notation.kind {
            NotationKind::Alphanumeric => {
                let (file, rank) = self.alpha(sq);
                SquareName::Alpha { file, rank }
            }
            _ => SquareName::Number(self.number(sq)),
        }
    }

    /// Resolves a written square reference on this board.
    ///
    /// Numbers use the numbering of [`Geometry::number`] and names that of
    /// [`Geometry::alpha`], whatever the game's own notation is; callers that
    /// care report the mismatch.
    ///
    /// # Errors
    ///
    /// If the number or name is not a playing square of the board.
    pub fn resolve(&self, r: SquareRef) -> Result<Square, SquareError> {
        match r {
            SquareRef::Number { number, .. } => {
                self.square_by_number(number)
                    .ok_or(SquareError::OutOfRange {
                        number,
                        max: self.len(),
                    })
            }
            SquareRef::Alpha { file, rank, .. } => {
                let name = || {
                    let mut s = String::new();
                    s.push(char::from(b'a'.saturating_add(file)));
                    s.push_str(&(u64::from(rank) + 1).to_string());
                    s
                };
                let rank8 = u8::try_from(rank).ok().filter(|&r| r < self.height);
                match rank8 {
                    Some(rank8) if file < self.width => self
                        .square_by_alpha(file, rank8)
                        .ok_or_else(|| SquareError::NotPlayable(name())),
                    _ => Err(SquareError::OffBoard {
                        name: name(),
                        width: self.width,
                        height: self.height,
                    }),
                }
            }
        }
    }

    /// Parses and resolves a square written as a number or a name.
    ///
    /// # Errors
    ///
    /// If the text is not a square or not a playing square of this board.
    pub fn parse_square(&self, s: &str) -> Result<Square, SquareError> {
        let r = SquareRef::parse(s).ok_or_else(|| SquareError::Syntax(s.to_owned()))?;
        self.resolve(r)
    }

    /// The squares strictly between two squares on one line (diagonal, rank
    /// or file), in order from `a` to `b`; empty if they are not on a line.
    pub fn between(&self, a: Square, b: Square) -> Vec<Square> {
        let (ax, ay) = self.coords(a);
        let (bx, by) = self.coords(b);
        let dx = i32::from(bx) - i32::from(ax);
        let dy = i32::from(by) - i32::from(ay);
        if (dx == 0 && dy == 0) || (dx != 0 && dy != 0 && dx.abs() != dy.abs()) {
            return Vec::new();
        }
        let steps = dx.abs().max(dy.abs());
        let (sx, sy) = (dx.signum(), dy.signum());
        (1..steps)
            .filter_map(|i| {
                let x = u8::try_from(i32::from(ax) + sx * i).ok()?;
                let y = u8::try_from(i32::from(ay) + sy * i).ok()?;
                self.square_at(x, y)
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn geo(w: u8, h: u8, kind: NotationKind, corner: u8, invert: bool) -> Geometry {
        Geometry::new(
            w,
            h,
            BoardKind::Diagonal,
            invert,
            Notation::new(kind, Corner::from_digit(corner).expect("corner")),
        )
        .expect("valid geometry")
    }

    #[test]
    fn international_numbering() {
        let g = geo(10, 10, NotationKind::Numeric, 2, false);
        assert_eq!(g.len(), 50);
        let at = |n| g.coords(g.square_by_number(n).expect("square"));
        assert_eq!(at(1), (1, 9));
        assert_eq!(at(5), (9, 9));
        assert_eq!(at(6), (0, 8));
        assert_eq!(at(46), (0, 0));
        assert_eq!(at(50), (8, 0));
        assert_eq!(g.square_by_number(0), None);
        assert_eq!(g.square_by_number(51), None);
    }

    #[test]
    fn english_numbering() {
        // 21,B,8,8,N1,0: black at the bottom, square 1 at its bottom right.
        let g = geo(8, 8, NotationKind::Numeric, 1, false);
        let at = |n| g.coords(g.square_by_number(n).expect("square"));
        assert_eq!(at(1), (6, 0));
        assert_eq!(at(4), (0, 0));
        assert_eq!(at(5), (7, 1));
        assert_eq!(at(32), (1, 7));
    }

    #[test]
    fn italian_and_spanish_numbering() {
        let italian = geo(8, 8, NotationKind::Numeric, 2, true);
        let at = |n| italian.coords(italian.square_by_number(n).expect("square"));
        assert_eq!(at(1), (0, 7));
        assert_eq!(at(32), (7, 0));
        assert!(!italian.is_playable(0, 0));
        let spanish = geo(8, 8, NotationKind::Numeric, 1, true);
        let at = |n| spanish.coords(spanish.square_by_number(n).expect("square"));
        assert_eq!(at(1), (7, 0));
        assert_eq!(at(4), (1, 0));
    }

    #[test]
    fn alpha_names() {
        let g = geo(8, 8, NotationKind::Alphanumeric, 0, false);
        assert_eq!(g.parse_square("a1").map(|s| g.coords(s)), Ok((0, 0)));
        assert_eq!(g.parse_square("h8").map(|s| g.coords(s)), Ok((7, 7)));
        assert!(matches!(
            g.parse_square("a2"),
            Err(SquareError::NotPlayable(_))
        ));
        assert!(matches!(
            g.parse_square("i1"),
            Err(SquareError::OffBoard { .. })
        ));
        assert!(matches!(
            g.parse_square("a9"),
            Err(SquareError::OffBoard { .. })
        ));
        // Fallback numbering from the top left: 1 = b8, 32 = g1.
        assert_eq!(
            g.square_by_number(1).map(|s| g.name(s).to_string()),
            Some("b8".into())
        );
        assert_eq!(
            g.square_by_number(32).map(|s| g.name(s).to_string()),
            Some("g1".into())
        );
        // Jamaican style A1: a1 at the bottom right.
        let j = geo(8, 8, NotationKind::Alphanumeric, 1, true);
        assert_eq!(j.parse_square("a1").map(|s| j.coords(s)), Ok((7, 0)));
    }

    #[test]
    fn round_trips() {
        for (w, h) in [(8, 8), (10, 10), (12, 12), (10, 8)] {
            for corner in 0..4 {
                for invert in [false, true] {
                    for kind in [NotationKind::Numeric, NotationKind::Alphanumeric] {
                        let g = geo(w, h, kind, corner, invert);
                        assert_eq!(g.len(), usize::from(w) * usize::from(h) / 2);
                        for sq in g.squares() {
                            let name = g.name(sq).to_string();
                            assert_eq!(g.parse_square(&name), Ok(sq), "{name}");
                            assert_eq!(g.square_by_number(u32::from(g.number(sq))), Some(sq));
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn sizes() {
        let n = Notation::new(NotationKind::Numeric, Corner::TopLeft);
        assert!(Geometry::new(9, 9, BoardKind::Diagonal, false, n).is_err());
        assert!(Geometry::new(16, 16, BoardKind::Diagonal, false, n).is_err());
        assert!(Geometry::new(14, 14, BoardKind::Diagonal, false, n).is_ok());
        assert!(Geometry::new(8, 8, BoardKind::Full, false, n).is_ok());
        assert!(Geometry::new(12, 12, BoardKind::Full, false, n).is_err());
    }

    #[test]
    fn between() {
        let g = geo(10, 10, NotationKind::Numeric, 2, false);
        let sq = |n| g.square_by_number(n).expect("square");
        let names: Vec<u8> = g
            .between(sq(46), sq(5))
            .iter()
            .map(|&s| g.number(s))
            .collect();
        assert_eq!(names, vec![41, 37, 32, 28, 23, 19, 14, 10]);
        assert!(g.between(sq(46), sq(47)).is_empty());
    }
}
