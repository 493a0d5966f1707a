//! Draughts FEN: reading (leniently, reporting what was forgiven) and
//! canonical writing.
//!
//! PDN 3.0 (fen.rst) writes a position as the side to move followed by one
//! field per colour, each a comma-separated list of squares, `K` marking
//! kings: `B:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29`. Numeric squares may
//! form ranges (`W31-50`; a `K` before a range crowns the whole range),
//! games with algebraic notation list names (`W:Wa1,c1:Bb8`), and either
//! colour may come first or have no pieces.
//!
//! The reader also accepts what real files contain and says so with a
//! [`FenWarning`]: spaces anywhere (the PDN seed writes
//! `"B: W18,24,27,28, K10, K15: B12,16,20, K22, K25, K29"`), a trailing `.`,
//! surrounding quotes, lower-case letters, `?` or no side to move, empty
//! items, leading zeros (`06`), numbers in an algebraic game (lidraughts
//! writes Russian FENs with numbers), names in a numeric game, reversed
//! ranges, and lidraughts' `:H0:F1` counters. It rejects positions that
//! cannot exist, with the reason.
//!
//! The writer lists White then Black, men then kings, in square order,
//! without ranges, spaces or a final dot.
//!
//! Before a game that declares no type is set up, a quick look at its FEN's
//! items says which game types it may be set up in (its `FenShape`): those of
//! its notation first, and none too small for its squares.
//!
//! ```
//! use pdn::{GameType, Position, Variant};
//! use pdn::fen::FenWarning;
//!
//! let gt = GameType::new(Variant::English);
//! let (pos, warnings) =
//!     Position::from_fen(gt, "B: W18,24,27,28, K10, K15: B12,16,20, K22, K25, K29")?;
//! assert_eq!(warnings, vec![FenWarning::Whitespace]);
//! assert_eq!(pos.to_fen(), "B:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29");
//!
//! let start = Position::from_fen_str(Variant::International, "W:W31-50:B1-20")?;
//! assert_eq!(start, Position::new(Variant::International));
//! # Ok::<(), pdn::fen::FenError>(())
//! ```

use std::fmt::Write as _;

use crate::color::{Color, Piece, Role};
use crate::gametype::GameType;
use crate::geometry::{NotationKind, Square, SquareError, SquareRef};
use crate::position::{Position, PositionError};
use crate::variant::Variant;

/// Something a FEN did that the standard does not allow but the reader
/// forgave.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FenWarning {
    /// The FEN was wrapped in double quotes.
    #[error("the FEN was wrapped in quotes")]
    Quoted,
    /// Spaces (or other white space) inside the FEN.
    #[error("spaces inside the FEN were ignored")]
    Whitespace,
    /// A `.` at the end.
    #[error("the dot at the end of the FEN was ignored")]
    TrailingDot,
    /// `w`, `b` or `k` in lower case.
    #[error("lower-case `{0}` read as upper case")]
    LowerCase(char),
    /// An upper-case file letter in an algebraic square.
    #[error("upper-case square name `{0}` read as lower case")]
    UpperCaseSquare(String),
    /// `?` as the side to move.
    #[error("the side to move is unknown (`?`); assumed {0} (the colour that starts)")]
    UnknownTurn(Color),
    /// No side to move at all.
    #[error("the FEN does not say who is to move; assumed {0} (the colour that starts)")]
    MissingTurn(Color),
    /// An empty item between commas or colons.
    #[error("an empty item (stray `,` or `:`) was ignored")]
    EmptyItem,
    /// A colour with no field at all (an empty field `W:W31-50:B` is fine).
    #[error("the FEN has no field for {0}; {0} has no pieces")]
    MissingSide(Color),
    /// The same colour twice; the fields were joined.
    #[error("{0} has two fields; they were joined")]
    RepeatedColor(Color),
    /// A square number written with leading zeros (PDN 2.0 style `06`).
    #[error("square `{0}` has a leading zero")]
    LeadingZero(String),
    /// An algebraic name in a game written with numbers.
    #[error(
        "square `{0}` is algebraic but the game uses numbers; read from the bottom-left corner"
    )]
    AlphaSquare(String),
    /// A number in a game written algebraically.
    #[error(
        "square `{0}` is a number but the game uses algebraic names; numbered from the top left"
    )]
    NumericSquare(String),
    /// A range written high to low.
    #[error("range `{0}` runs backwards; read in increasing order")]
    ReversedRange(String),
    /// A lidraughts counter field (`H` half-move clock, `F` move number).
    #[error("lidraughts field `{0}` is not part of PDN FEN")]
    Extension(String),
    /// A man on the row where it would have been crowned, read as a king (only by
    /// [`Position::from_fen_crowning`]).
    #[error("the man on {0} stands where it would have been crowned; read as a king")]
    CrownedMan(String),
}

/// Why a FEN cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FenError {
    /// Nothing to read.
    #[error("the FEN is empty")]
    Empty,
    /// The side to move is not `W`, `B` or `?`.
    #[error("the side to move `{0}` is not W, B or ?")]
    Turn(String),
    /// A field that does not start with a colour letter.
    #[error("field `{0}` does not start with a colour (W or B)")]
    Field(String),
    /// A field of `?` pieces: their colour is unknown.
    #[error("field `{0}` lists pieces of unknown colour `?`")]
    UnknownColor(String),
    /// A square that cannot be read or is not a playing square.
    #[error("bad square `{text}`: {source}")]
    Square {
        /// The text of the square.
        text: String,
        /// Why.
        source: SquareError,
    },
    /// A range that is not two square numbers.
    #[error("bad range `{0}`: a range is two square numbers like 31-50")]
    Range(String),
    /// The pieces do not form a possible position.
    #[error(transparent)]
    Position(#[from] PositionError),
}

impl Position {
    /// Reads a FEN for a game type, leniently; returns the position and what
    /// was forgiven. See the [module docs](crate::fen).
    ///
    /// # Errors
    ///
    /// If the FEN cannot be read or describes an impossible position.
    pub fn from_fen(
        game_type: GameType,
        fen: &str,
    ) -> Result<(Position, Vec<FenWarning>), FenError> {
        Position::from_fen_text(game_type, &FenText::read(fen), false)
    }

    /// Reads a FEN like [`Position::from_fen`], and also forgives a man on the row
    /// where it would have been crowned: it is read as a king, with a
    /// [`FenWarning::CrownedMan`]. Real files have such typos; the PDN reader uses this.
    ///
    /// ```
    /// use pdn::{GameType, Position, Variant};
    /// use pdn::fen::FenWarning;
    ///
    /// let gt = GameType::new(Variant::English);
    /// assert!(Position::from_fen(gt, "W:W18,1:BK30").is_err());
    /// let (pos, warnings) = Position::from_fen_crowning(gt, "W:W18,1:BK30")?;
    /// assert_eq!(warnings, vec![FenWarning::CrownedMan("1".into())]);
    /// assert_eq!(pos.to_fen(), "W:W18,K1:BK30");
    /// # Ok::<(), pdn::fen::FenError>(())
    /// ```
    ///
    /// # Errors
    ///
    /// If the FEN cannot be read or describes an impossible position.
    pub fn from_fen_crowning(
        game_type: GameType,
        fen: &str,
    ) -> Result<(Position, Vec<FenWarning>), FenError> {
        Position::from_fen_text(game_type, &FenText::read(fen), true)
    }

    /// Sets up a FEN read already in a game type, crowning the men that stand where
    /// they would have been crowned (with a warning) or refusing them.
    pub(crate) fn from_fen_text(
        game_type: GameType,
        fen: &FenText,
        crowning: bool,
    ) -> Result<(Position, Vec<FenWarning>), FenError> {
        let mut warnings = Vec::new();
        let mut pos = Position::empty(game_type, fen.turn(game_type));
        let mut crowned = Vec::new();
        fen.resolve(&mut pos, &mut warnings, crowning, &mut crowned)?;
        for sq in crowned {
            let name = pos.geometry().name(sq).to_string();
            warnings.push(FenWarning::CrownedMan(name));
        }
        if let Some(n) = fen.fullmove {
            pos.set_fullmove_number(n);
        }
        if let Some(n) = fen.halfmove {
            pos.set_halfmove_clock(n);
        }
        Ok((pos, warnings))
    }

    /// Reads a FEN for a variant's standard game type, forgiving what
    /// [`Position::from_fen`] forgives without reporting it.
    ///
    /// # Errors
    ///
    /// If the FEN cannot be read or describes an impossible position.
    pub fn from_fen_str(variant: Variant, fen: &str) -> Result<Position, FenError> {
        Position::from_fen(GameType::new(variant), fen).map(|(p, _)| p)
    }

    /// The canonical FEN: side to move, then White's and Black's pieces,
    /// men before kings, in square order, e.g. `W:W31,32,K5:B1,2`.
    pub fn to_fen(&self) -> String {
        let g = self.geometry();
        let alpha = g.notation().kind == NotationKind::Alphanumeric;
        let mut fen = String::new();
        fen.push(self.turn().char());
        let pieces = self.pieces();
        for color in Color::ALL {
            fen.push(':');
            fen.push(color.char());
            let mut first = true;
            for role in [Role::Man, Role::King] {
                let mut squares: Vec<Square> = pieces
                    .iter()
                    .filter(|(_, p)| *p == Piece::new(color, role))
                    .map(|&(sq, _)| sq)
                    .collect();
                if !alpha {
                    squares.sort_by_key(|&sq| g.number(sq));
                }
                for sq in squares {
                    if !first {
                        fen.push(',');
                    }
                    first = false;
                    if role == Role::King {
                        fen.push('K');
                    }
                    let _ = write!(fen, "{}", g.name(sq));
                }
            }
        }
        fen
    }
}

/// A FEN read as far as it can be without a board: what it says, in order, with the
/// squares still as written. A game whose type is inferred reads its FEN once and sets
/// it up in each game type it may be ([`Position::from_fen_text`]).
#[derive(Debug, Clone)]
pub(crate) struct FenText {
    /// The FEN without spaces, quotes or final dots: the text the items point into.
    body: String,
    /// The side to move; `None` for the colour that starts, whatever the game type.
    turn: Option<Color>,
    halfmove: Option<u32>,
    fullmove: Option<u32>,
    /// What the FEN says, in order.
    ops: Vec<Op>,
    /// The warnings of [`Op::Warn`] that do not depend on the board.
    warnings: Vec<FenWarning>,
    /// Why the FEN cannot be read whatever the board, after the last op.
    error: Option<FenError>,
}

/// A span of [`FenText::body`].
#[derive(Debug, Clone, Copy)]
struct Span {
    start: u32,
    end: u32,
}

impl Span {
    /// The span of `part`, a subslice of `body`.
    fn of(body: &str, part: &str) -> Span {
        let start = (part.as_ptr() as usize).wrapping_sub(body.as_ptr() as usize);
        Span {
            start: u32::try_from(start).unwrap_or(u32::MAX),
            end: u32::try_from(start + part.len()).unwrap_or(u32::MAX),
        }
    }

    fn get(self, body: &str) -> &str {
        body.get(self.start as usize..self.end as usize)
            .unwrap_or_default()
    }
}

/// One step of reading a FEN.
#[derive(Debug, Clone, Copy)]
enum Op {
    /// The next warning of [`FenText::warnings`].
    Warn,
    /// [`FenWarning::UnknownTurn`] of the game type's start colour.
    UnknownTurn,
    /// [`FenWarning::MissingTurn`] of the game type's start colour.
    MissingTurn,
    /// One square.
    Square {
        piece: Piece,
        square: SquareRef,
        text: Span,
    },
    /// A numeric range (`31-50`): the item without its `K`, and the item.
    Range {
        piece: Piece,
        range: Span,
        item: Span,
    },
}

/// The parts of `s` between the `sep` bytes, as `str::split` gives them (a byte scan:
/// FEN items are a few bytes long).
fn split_byte(s: &str, sep: u8) -> impl Iterator<Item = &str> {
    let mut rest = Some(s);
    std::iter::from_fn(move || {
        let r = rest?;
        match r.bytes().position(|b| b == sep) {
            Some(i) => {
                rest = Some(&r[i + 1..]);
                Some(&r[..i])
            }
            None => {
                rest = None;
                Some(r)
            }
        }
    })
}

impl FenText {
    /// Reads what a FEN says without a board; errors that do not depend on the board
    /// come back from [`FenText::resolve`], in their place.
    pub(crate) fn read(text: &str) -> FenText {
        // About one op per item: room for them all at once.
        let items = text.bytes().filter(|&b| matches!(b, b',' | b':')).count();
        let mut fen = FenText {
            body: String::new(),
            turn: None,
            halfmove: None,
            fullmove: None,
            ops: Vec::with_capacity(items + 4),
            warnings: Vec::new(),
            error: None,
        };
        let mut s = text.trim();
        if s.len() >= 2 && s.starts_with('"') && s.ends_with('"') {
            fen.warn(FenWarning::Quoted);
            s = s[1..s.len() - 1].trim();
        }
        // Nearly every FEN is ASCII without white space: copied as it is, not character
        // by character. `char::is_whitespace` also counts the vertical tab, which
        // ASCII's does not.
        let mut body: String =
            if s.is_ascii() && !s.bytes().any(|b| b.is_ascii_whitespace() || b == 0x0b) {
                s.to_owned()
            } else {
                s.chars().filter(|c| !c.is_whitespace()).collect()
            };
        if body.len() != s.len() {
            fen.warn(FenWarning::Whitespace);
        }
        if body.ends_with('.') {
            fen.warn(FenWarning::TrailingDot);
            let len = body.trim_end_matches('.').len();
            body.truncate(len);
        }
        let mut ops = std::mem::take(&mut fen.ops);
        let mut warnings = std::mem::take(&mut fen.warnings);
        let mut items = Items {
            ops: &mut ops,
            warnings: &mut warnings,
        };
        fen.error = read_body(&body, &mut items, &mut fen).err();
        fen.ops = ops;
        fen.warnings = warnings;
        fen.body = body;
        fen
    }

    fn warn(&mut self, w: FenWarning) {
        self.ops.push(Op::Warn);
        self.warnings.push(w);
    }

    /// The side to move in a game type.
    fn turn(&self, game_type: GameType) -> Color {
        self.turn.unwrap_or(game_type.start())
    }

    /// Puts the FEN's pieces on `pos` (an empty board of the game type), with every
    /// warning, board or not, in order. A man where it would have been crowned is
    /// crowned (its square given to `crowned`), or refused after the rest is read.
    fn resolve(
        &self,
        pos: &mut Position,
        warnings: &mut Vec<FenWarning>,
        crowning: bool,
        crowned: &mut Vec<Square>,
    ) -> Result<(), FenError> {
        let game_type = pos.game_type();
        let alpha_game = pos.geometry().notation().kind == NotationKind::Alphanumeric;
        let start = game_type.start();
        let body = self.body.as_str();
        let mut own = self.warnings.iter();
        // Square indices are bytes: 256 bits cover every board.
        let mut taken = [0u64; 4];
        // A man on its crowning row is refused once the whole FEN is read.
        let mut refused: Option<PositionError> = None;
        let mut place = |pos: &mut Position, sq: Square, piece: Piece| {
            let (word, bit) = (sq.index() / 64 % 4, sq.index() % 64);
            if taken[word] & (1 << bit) != 0 {
                return Err(FenError::from(PositionError::SquareTwice {
                    square: pos.geometry().name(sq).to_string(),
                }));
            }
            taken[word] |= 1 << bit;
            // A man on its crowning row is not put.
            if !pos.put(sq, piece, crowning) {
                if crowning {
                    crowned.push(sq);
                } else {
                    refused.get_or_insert_with(|| PositionError::ManOnPromotionRow {
                        square: pos.geometry().name(sq).to_string(),
                        color: piece.color,
                    });
                }
            }
            Ok(())
        };
        for op in &self.ops {
            match *op {
                Op::Warn => warnings.extend(own.next().cloned()),
                Op::UnknownTurn => warnings.push(FenWarning::UnknownTurn(start)),
                Op::MissingTurn => warnings.push(FenWarning::MissingTurn(start)),
                Op::Square {
                    piece,
                    square: r,
                    text,
                } => {
                    let text = text.get(body);
                    match r {
                        SquareRef::Number { leading_zero, .. } => {
                            note_number(text, leading_zero, alpha_game, warnings);
                        }
                        SquareRef::Alpha { upper_case, .. } => {
                            if upper_case {
                                warnings.push(FenWarning::UpperCaseSquare(text.to_owned()));
                            }
                            if !alpha_game {
                                warnings.push(FenWarning::AlphaSquare(text.to_owned()));
                            }
                        }
                    }
                    let sq = pos
                        .geometry()
                        .resolve(r)
                        .map_err(|source| FenError::Square {
                            text: text.to_owned(),
                            source,
                        })?;
                    place(pos, sq, piece)?;
                }
                Op::Range { piece, range, item } => {
                    let (a, b) = range.get(body).split_once('-').unwrap_or_default();
                    let (Some(lo), Some(hi)) = (range_end(a), range_end(b)) else {
                        // Read already.
                        continue;
                    };
                    for (text, leading) in [(a, lo.1), (b, hi.1)] {
                        note_number(text, leading, alpha_game, warnings);
                    }
                    let (mut lo, mut hi) = (lo.0, hi.0);
                    if lo > hi {
                        warnings.push(FenWarning::ReversedRange(item.get(body).to_owned()));
                        std::mem::swap(&mut lo, &mut hi);
                    }
                    let geometry = pos.geometry();
                    for n in [lo, hi] {
                        if geometry.square_by_number(n).is_none() {
                            return Err(FenError::Square {
                                text: n.to_string(),
                                source: SquareError::OutOfRange {
                                    number: n,
                                    max: geometry.len(),
                                },
                            });
                        }
                    }
                    for n in lo..=hi {
                        if let Some(sq) = pos.geometry().square_by_number(n) {
                            place(pos, sq, piece)?;
                        }
                    }
                }
            }
        }
        if let Some(e) = &self.error {
            return Err(e.clone());
        }
        match refused {
            Some(e) => Err(e.into()),
            None => Ok(()),
        }
    }
}

/// Where [`read_body`] writes.
struct Items<'a> {
    ops: &'a mut Vec<Op>,
    warnings: &'a mut Vec<FenWarning>,
}

impl Items<'_> {
    fn warn(&mut self, w: FenWarning) {
        self.ops.push(Op::Warn);
        self.warnings.push(w);
    }
}

/// Reads the fields of a FEN (`body`, spaces, quotes and dots taken off).
fn read_body(body: &str, out: &mut Items<'_>, fen: &mut FenText) -> Result<(), FenError> {
    if body.is_empty() {
        return Err(FenError::Empty);
    }
    let mut segments = split_byte(body, b':');
    let first = segments.next().unwrap_or_default();
    // The first colour field, when the side to move is missing.
    let mut field = None;
    fen.turn = match first {
        "W" => Some(Color::White),
        "B" => Some(Color::Black),
        "w" => {
            out.warn(FenWarning::LowerCase('w'));
            Some(Color::White)
        }
        "b" => {
            out.warn(FenWarning::LowerCase('b'));
            Some(Color::Black)
        }
        "?" => {
            out.ops.push(Op::UnknownTurn);
            None
        }
        "" => {
            out.ops.push(Op::MissingTurn);
            None
        }
        first if first.len() > 1 && matches!(first.as_bytes()[0], b'W' | b'B' | b'w' | b'b') => {
            // "W31-50:B1-20": the side to move is missing and this is
            // already a colour field.
            out.ops.push(Op::MissingTurn);
            field = Some(first);
            None
        }
        other => return Err(FenError::Turn(other.to_owned())),
    };
    let mut seen = [false; 2];
    for segment in field.into_iter().chain(segments) {
        if segment.is_empty() {
            out.warn(FenWarning::EmptyItem);
            continue;
        }
        let first = segment.as_bytes()[0];
        let color = match first {
            b'W' | b'w' => Color::White,
            b'B' | b'b' => Color::Black,
            b'?' => return Err(FenError::UnknownColor(segment.to_owned())),
            b'H' | b'F'
                if segment.len() > 1 && segment[1..].bytes().all(|b| b.is_ascii_digit()) =>
            {
                let value = segment[1..].parse::<u32>().ok();
                if first == b'H' {
                    fen.halfmove = value;
                } else {
                    fen.fullmove = value;
                }
                out.warn(FenWarning::Extension(segment.to_owned()));
                continue;
            }
            _ => return Err(FenError::Field(segment.to_owned())),
        };
        if first.is_ascii_lowercase() {
            out.warn(FenWarning::LowerCase(char::from(first)));
        }
        let side = usize::from(color == Color::Black);
        if seen[side] {
            out.warn(FenWarning::RepeatedColor(color));
        }
        seen[side] = true;
        let items = &segment[1..];
        if items.is_empty() {
            continue;
        }
        for item in split_byte(items, b',') {
            if item.is_empty() {
                out.warn(FenWarning::EmptyItem);
                continue;
            }
            let (role, square) = match item.as_bytes()[0] {
                b'K' => (Role::King, &item[1..]),
                b'k' => {
                    out.warn(FenWarning::LowerCase('k'));
                    (Role::King, &item[1..])
                }
                _ => (Role::Man, item),
            };
            let piece = Piece::new(color, role);
            // A byte scan: `split_once` with a char costs more than the rest of an item.
            let dash = square.bytes().position(|b| b == b'-');
            if let Some((a, b)) = dash.map(|i| (&square[..i], &square[i + 1..])) {
                if range_end(a).is_none() || range_end(b).is_none() {
                    return Err(FenError::Range(item.to_owned()));
                }
                out.ops.push(Op::Range {
                    piece,
                    range: Span::of(body, square),
                    item: Span::of(body, item),
                });
            } else {
                let r = SquareRef::parse(square).ok_or_else(|| FenError::Square {
                    text: square.to_owned(),
                    source: SquareError::Syntax(square.to_owned()),
                })?;
                out.ops.push(Op::Square {
                    piece,
                    square: r,
                    text: Span::of(body, square),
                });
            }
        }
    }
    for color in Color::ALL {
        if !seen[usize::from(color == Color::Black)] {
            out.warn(FenWarning::MissingSide(color));
        }
    }
    Ok(())
}

/// Reads one end of a numeric range: the number and whether it had a
/// leading zero.
fn range_end(s: &str) -> Option<(u32, bool)> {
    match SquareRef::parse(s)? {
        SquareRef::Number {
            number,
            leading_zero,
        } => Some((number, leading_zero)),
        SquareRef::Alpha { .. } => None,
    }
}

fn note_number(text: &str, leading_zero: bool, alpha_game: bool, warnings: &mut Vec<FenWarning>) {
    if leading_zero {
        warnings.push(FenWarning::LeadingZero(text.to_owned()));
    }
    // One note per FEN is enough for a whole numeric FEN; the text is copied only for
    // that one (a FEN is read once per game type a game may be, so this adds up).
    if alpha_game
        && !warnings
            .iter()
            .any(|x| matches!(x, FenWarning::NumericSquare(_)))
    {
        warnings.push(FenWarning::NumericSquare(text.to_owned()));
    }
}

/// What a FEN's items say of the game types it may be set up in: whether it names its
/// squares by algebraic names (`Wc3`: some item is a letter other than `K` followed by a
/// digit), and its largest square number. Lidraughts' `H` and `F` counters name no square,
/// and are left out of both.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct FenShape {
    /// Whether some item names a square by its algebraic name.
    pub(crate) algebraic: bool,
    /// The largest square number, if any item has one.
    pub(crate) largest: Option<u32>,
}

/// The [`FenShape`] of a FEN, in one pass over its bytes: fields end at `:`, items at
/// `,`, and numbers at `-` too (a range). An item is trimmed of white space and of its
/// colour and king letters (a number also of quotes and trailing dots) before it is
/// looked at.
pub(crate) fn fen_shape(fen: &str) -> FenShape {
    if let Some(largest) = numeric_fen_largest(fen.as_bytes()) {
        return FenShape {
            algebraic: false,
            largest,
        };
    }
    if !fen.is_ascii() {
        return fen_shape_by_chars(fen);
    }
    let mut shape = FenShape {
        algebraic: false,
        largest: None,
    };
    for field in fen.as_bytes().split(|&b| b == b':') {
        if matches!(
            trim_start_bytes(field, is_ascii_space).first(),
            Some(b'H' | b'F')
        ) {
            continue;
        }
        for item in field.split(|&b| b == b',') {
            // Most items and numbers are bare digits, which nothing below trims: read
            // as they are.
            if !item.first().is_some_and(u8::is_ascii_digit) {
                let b = trim_start_bytes(item, is_ascii_space);
                let b = trim_start_bytes(b, |c| matches!(c, b'W' | b'B' | b'K' | b'?'));
                shape.algebraic |= matches!(b, [letter, digit, ..]
                    if letter.is_ascii_alphabetic() && digit.is_ascii_digit());
            }
            for number in item.split(|&b| b == b'-') {
                let bare = matches!(number, [first, .., last] | [first @ last]
                    if first.is_ascii_digit() && last.is_ascii_digit());
                let b = if bare {
                    number
                } else {
                    let b = trim_start_bytes(number, is_ascii_space);
                    let b = trim_end_bytes(b, is_ascii_space);
                    let b = trim_start_bytes(b, |c| matches!(c, b'W' | b'B' | b'K' | b'?' | b'"'));
                    trim_end_bytes(b, |c| matches!(c, b'.' | b'"'))
                };
                shape.largest = shape.largest.max(parse_u32(b));
            }
        }
    }
    shape
}

/// The largest square number of a FEN made of digits, `W`, `B`, `K`, `:`, `,`, `-` and
/// `.` only (nearly every numeric FEN), as [`fen_shape`] finds it, in one pass: no field
/// is a counter and no square algebraic there. `None` for any other FEN.
///
/// A number is what is left of a part between separators once leading colours and kings
/// and trailing dots are taken off, if only digits are left (and they fit).
fn numeric_fen_largest(bytes: &[u8]) -> Option<Option<u32>> {
    let mut largest = None;
    // The part being read: its value so far (`None` once it overflows), whether it has
    // digits, whether its trailing dots began, and whether it is no number.
    let (mut value, mut digits, mut dots, mut bad) = (Some(0u32), false, false, false);
    for &b in bytes.iter().chain(std::iter::once(&b',')) {
        match b {
            b'0'..=b'9' => {
                bad |= dots;
                digits = true;
                value = value.and_then(|v| v.checked_mul(10)?.checked_add(u32::from(b - b'0')));
            }
            b'W' | b'B' | b'K' => bad |= digits,
            b'.' => dots = true,
            b':' | b',' | b'-' => {
                if digits && !bad {
                    largest = largest.max(value);
                }
                (value, digits, dots, bad) = (Some(0), false, false, false);
            }
            _ => return None,
        }
    }
    Some(largest)
}

/// A number as `str::parse::<u32>` reads it: an optional `+`, then digits.
fn parse_u32(b: &[u8]) -> Option<u32> {
    let digits = b.strip_prefix(b"+").unwrap_or(b);
    if digits.is_empty() {
        return None;
    }
    digits.iter().try_fold(0u32, |n, &d| {
        if !d.is_ascii_digit() {
            return None;
        }
        n.checked_mul(10)?.checked_add(u32::from(d - b'0'))
    })
}

/// [`fen_shape`] for any text (the byte scan covers ASCII only).
fn fen_shape_by_chars(fen: &str) -> FenShape {
    let fields = || {
        fen.split(':')
            .filter(|field| !field.trim_start().starts_with(['H', 'F']))
    };
    let algebraic = fields()
        .flat_map(|field| field.split(','))
        .map(|item| item.trim().trim_start_matches(['W', 'B', 'K', '?']))
        .any(|item| {
            let b = item.as_bytes();
            b.len() >= 2 && b[0].is_ascii_alphabetic() && b[1].is_ascii_digit()
        });
    let largest = fields()
        .flat_map(|field| field.split([',', '-']))
        .filter_map(|item| {
            let digits = item.trim().trim_start_matches(['W', 'B', 'K', '?', '"']);
            let digits = digits.trim_end_matches(['.', '"']);
            digits.parse::<u32>().ok()
        })
        .max();
    FenShape { algebraic, largest }
}

/// White space as `char::is_whitespace` sees it, in ASCII (the vertical tab too).
fn is_ascii_space(b: u8) -> bool {
    matches!(b, b'\t'..=b'\r' | b' ')
}

/// `b` without the bytes at its start that `trim` accepts.
fn trim_start_bytes(b: &[u8], trim: impl Fn(u8) -> bool) -> &[u8] {
    let n = b.iter().take_while(|&&c| trim(c)).count();
    &b[n..]
}

/// `b` without the bytes at its end that `trim` accepts.
fn trim_end_bytes(b: &[u8], trim: impl Fn(u8) -> bool) -> &[u8] {
    let n = b.iter().rev().take_while(|&&c| trim(c)).count();
    &b[..b.len() - n]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(v: Variant, fen: &str) -> (Position, Vec<FenWarning>) {
        Position::from_fen(GameType::new(v), fen).expect(fen)
    }

    #[test]
    fn start_positions_round_trip() {
        for v in Variant::ALL {
            let pos = Position::new(v);
            let fen = pos.to_fen();
            let (back, warnings) = read(v, &fen);
            assert_eq!(back, pos, "{v}: {fen}");
            assert!(warnings.is_empty(), "{v}: {warnings:?}");
        }
        assert_eq!(
            Position::new(Variant::English).to_fen(),
            "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"
        );
        assert_eq!(
            Position::new(Variant::Russian).to_fen(),
            "W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8"
        );
    }

    #[test]
    fn spec_examples() {
        let (p, w) = read(
            Variant::International,
            "B:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29",
        );
        assert!(w.is_empty());
        assert_eq!(p.turn(), Color::Black);
        assert_eq!(p.piece_on(10), Some(Piece::new(Color::White, Role::King)));
        assert_eq!(p.piece_on(12), Some(Piece::new(Color::Black, Role::Man)));
        let (p, _) = read(
            Variant::English,
            "B:W18,19,21,23,24,26,29,30,31,32:B1,2,3,4,6,7,9,10,11,12",
        );
        assert_eq!(p.pieces().len(), 20);
        let (p, w) = read(Variant::International, "W:W31-50:B1-20");
        assert!(w.is_empty());
        assert_eq!(p, Position::new(Variant::International));
    }

    #[test]
    fn king_ranges_and_empty_sides() {
        let (p, w) = read(Variant::International, "W:WK1-3,50:B");
        assert!(w.is_empty());
        assert_eq!(p.count(Color::White, Role::King), 3);
        assert_eq!(p.count(Color::White, Role::Man), 1);
        assert_eq!(p.count(Color::Black, Role::Man), 0);
        assert_eq!(p.to_fen(), "W:W50,K1,K2,K3:B");
        assert!(p.is_game_over() || p.turn() == Color::White);
        let (_, w) = read(Variant::International, "W:W50");
        assert_eq!(w, vec![FenWarning::MissingSide(Color::Black)]);
    }

    #[test]
    fn lenient_reading() {
        let (p, w) = read(Variant::International, "\"w:w31-50:b1-20.\"");
        assert_eq!(p, Position::new(Variant::International));
        assert!(w.contains(&FenWarning::Quoted));
        assert!(w.contains(&FenWarning::TrailingDot));
        assert!(w.contains(&FenWarning::LowerCase('w')));
        let (p, w) = read(Variant::International, "?:W29,13,11:B22,4,2");
        assert_eq!(p.turn(), Color::White);
        assert_eq!(w, vec![FenWarning::UnknownTurn(Color::White)]);
        let (_, w) = read(Variant::International, "W31-50:B1-20");
        assert_eq!(w, vec![FenWarning::MissingTurn(Color::White)]);
        let (p, w) = read(Variant::International, "B:B06,07,:W50-46");
        assert_eq!(p.piece_on(6).map(|x| x.color), Some(Color::Black));
        assert!(w.contains(&FenWarning::LeadingZero("06".into())));
        assert!(w.contains(&FenWarning::EmptyItem));
        assert!(w.contains(&FenWarning::ReversedRange("50-46".into())));
        let (p, w) = read(Variant::International, "W:W31:W32:B1:H3:F12");
        assert!(w.contains(&FenWarning::RepeatedColor(Color::White)));
        assert_eq!(p.fullmove_number(), 12);
        assert_eq!(p.halfmove_clock(), 3);
    }

    #[test]
    fn lidraughts_numeric_russian() {
        let (p, w) = read(
            Variant::Russian,
            "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12:H0:F1",
        );
        assert_eq!(p, Position::new(Variant::Russian));
        assert!(w.iter().any(|x| matches!(x, FenWarning::NumericSquare(_))));
        let (p, w) = read(Variant::Russian, "W:Wc3,Kd4:Bh8");
        assert!(w.is_empty());
        assert_eq!(p.to_fen(), "W:Wc3,Kd4:Bh8");
    }

    #[test]
    fn alpha_in_numeric_game() {
        let (p, w) = read(Variant::International, "W:Wa1:Bb10");
        assert_eq!(p.piece_on(46).map(|x| x.color), Some(Color::White));
        assert_eq!(p.piece_on(1).map(|x| x.color), Some(Color::Black));
        assert_eq!(w.len(), 2);
    }

    #[test]
    fn errors() {
        let err = |v: Variant, fen: &str| Position::from_fen(GameType::new(v), fen).expect_err(fen);
        assert_eq!(err(Variant::International, ""), FenError::Empty);
        assert_eq!(err(Variant::International, "  . "), FenError::Empty);
        assert!(matches!(
            err(Variant::International, "X:W1"),
            FenError::Turn(_)
        ));
        assert!(matches!(
            err(Variant::International, "W:Q1"),
            FenError::Field(_)
        ));
        assert!(matches!(
            err(Variant::International, "W:?1"),
            FenError::UnknownColor(_)
        ));
        assert!(matches!(
            err(Variant::International, "W:W51"),
            FenError::Square {
                source: SquareError::OutOfRange {
                    number: 51,
                    max: 50
                },
                ..
            }
        ));
        assert!(matches!(
            err(Variant::International, "W:W0"),
            FenError::Square {
                source: SquareError::OutOfRange { .. },
                ..
            }
        ));
        assert!(matches!(
            err(Variant::International, "W:W1x"),
            FenError::Square { .. }
        ));
        assert!(matches!(
            err(Variant::International, "W:W1-x"),
            FenError::Range(_)
        ));
        assert!(matches!(
            err(Variant::International, "W:W45-55"),
            FenError::Square { .. }
        ));
        assert!(matches!(
            err(Variant::Russian, "W:Wa2"),
            FenError::Square {
                source: SquareError::NotPlayable(_),
                ..
            }
        ));
        assert!(matches!(
            err(Variant::International, "W:W31,31:B1"),
            FenError::Position(PositionError::SquareTwice { .. })
        ));
        assert!(matches!(
            err(Variant::International, "W:W31:B31"),
            FenError::Position(PositionError::SquareTwice { .. })
        ));
        assert!(matches!(
            err(Variant::International, "W:W3:B40"),
            FenError::Position(PositionError::ManOnPromotionRow {
                color: Color::White,
                ..
            })
        ));
        assert!(matches!(
            err(Variant::International, "W:W30:B48"),
            FenError::Position(PositionError::ManOnPromotionRow {
                color: Color::Black,
                ..
            })
        ));
        // A king may stand anywhere.
        assert!(Position::from_fen(GameType::new(Variant::International), "W:WK3:BK48").is_ok());
        // Error messages name the cause.
        let msg = err(Variant::International, "W:W3:B40").to_string();
        assert!(msg.contains("white man on 3"), "{msg}");
    }

    /// The byte scans give what the char-based versions (kept for text that is not
    /// ASCII) give.
    #[test]
    fn fen_helpers_by_bytes_agree() {
        let fens = [
            "",
            ":",
            "W:W31-50:B1-20",
            "B:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29",
            "\"B: W18,24, K10 : B12 ,\u{b}16.\"",
            "W:Wa1,c3:Bh8",
            "W:W c3:B K d4",
            "W:WKc3:B?e5",
            "W:W21,22:B1,2:H0:F1",
            " H3:F12:W99",
            "W:W+5,-7,4294967296,4294967295:B\"7\".",
            "W:W3 3:B0, 00,\t12\r",
            "?:W29,13,11:B22,4,2",
            "W:Wé3,ü5:B1",
            "W:W\u{a0}12:B5",
        ];
        for fen in fens {
            assert_eq!(fen_shape(fen), fen_shape_by_chars(fen), "{fen:?}");
        }
        // Short strings of the bytes FENs are made of, and of a few others.
        let alphabet = b"0123456789WBK:,-.?\" +aH\t";
        let mut seed = 0x2545_f491_4f6c_dd1d_u64;
        for _ in 0..50_000 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let len = (seed % 13) as usize;
            let fen: String = (0..len)
                .map(|i| char::from(alphabet[((seed >> (4 * i)) % alphabet.len() as u64) as usize]))
                .collect();
            assert_eq!(fen_shape(&fen), fen_shape_by_chars(&fen), "{fen:?}");
        }
        // Lidraughts' counters are no squares: a numeric FEN with them is numeric.
        let shape = fen_shape("W:W21,22:B1,2:H0:F1");
        assert_eq!((shape.algebraic, shape.largest), (false, Some(22)));
        assert!(fen_shape("W:Wa1,c3:Bh8").algebraic);
        for number in ["+5", "007", "4294967295", "4294967296", "+", "", "5+", "-5"] {
            assert_eq!(
                parse_u32(number.as_bytes()),
                number.parse().ok(),
                "{number:?}"
            );
        }
    }
}
