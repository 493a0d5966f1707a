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
//! ```
//! use pdn::{FenWarning, GameType, Position, Variant};
//!
//! let gt = GameType::new(Variant::English);
//! let (pos, warnings) =
//!     Position::from_fen(gt, "B: W18,24,27,28, K10, K15: B12,16,20, K22, K25, K29")?;
//! assert_eq!(warnings, vec![FenWarning::Whitespace]);
//! assert_eq!(pos.to_fen(), "B:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29");
//!
//! let start = Position::from_fen_str(Variant::International, "W:W31-50:B1-20")?;
//! assert_eq!(start, Position::new(Variant::International));
//! # Ok::<(), pdn::FenError>(())
//! ```

use std::fmt::Write as _;

use crate::color::{Color, Piece, Role};
use crate::gametype::GameType;
use crate::geometry::{Geometry, NotationKind, Square, SquareError, SquareRef};
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

/// The contents of a FEN, before they become a position.
struct Parsed {
    turn: Color,
    pieces: Vec<(Square, Piece)>,
    halfmove: Option<u32>,
    fullmove: Option<u32>,
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
        let mut warnings = Vec::new();
        let empty = Position::empty(game_type, game_type.start());
        let parsed = parse(game_type, empty.geometry(), fen, &mut warnings)?;
        let mut pos = Position::from_pieces(game_type, parsed.turn, parsed.pieces)?;
        if let Some(n) = parsed.fullmove {
            pos.set_fullmove_number(n);
        }
        if let Some(n) = parsed.halfmove {
            pos.set_halfmove_clock(n);
        }
        Ok((pos, warnings))
    }

    /// Reads a FEN like [`Position::from_fen`], and also forgives a man on the row
    /// where it would have been crowned: it is read as a king, with a
    /// [`FenWarning::CrownedMan`]. Real files have such typos; the PDN reader uses this.
    ///
    /// ```
    /// use pdn::{FenWarning, GameType, Position, Variant};
    ///
    /// let gt = GameType::new(Variant::English);
    /// assert!(Position::from_fen(gt, "W:W18,1:BK30").is_err());
    /// let (pos, warnings) = Position::from_fen_crowning(gt, "W:W18,1:BK30")?;
    /// assert_eq!(warnings, vec![FenWarning::CrownedMan("1".into())]);
    /// assert_eq!(pos.to_fen(), "W:W18,K1:BK30");
    /// # Ok::<(), pdn::FenError>(())
    /// ```
    ///
    /// # Errors
    ///
    /// If the FEN cannot be read or describes an impossible position.
    pub fn from_fen_crowning(
        game_type: GameType,
        fen: &str,
    ) -> Result<(Position, Vec<FenWarning>), FenError> {
        let mut warnings = Vec::new();
        let empty = Position::empty(game_type, game_type.start());
        let mut parsed = parse(game_type, empty.geometry(), fen, &mut warnings)?;
        for (sq, piece) in &mut parsed.pieces {
            if piece.role == Role::Man && empty.is_promotion_square(piece.color, *sq) {
                piece.role = Role::King;
                let name = empty.geometry().name(*sq).to_string();
                warnings.push(FenWarning::CrownedMan(name));
            }
        }
        let mut pos = Position::from_pieces(game_type, parsed.turn, parsed.pieces)?;
        if let Some(n) = parsed.fullmove {
            pos.set_fullmove_number(n);
        }
        if let Some(n) = parsed.halfmove {
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

fn parse(
    game_type: GameType,
    geometry: &Geometry,
    text: &str,
    warnings: &mut Vec<FenWarning>,
) -> Result<Parsed, FenError> {
    let alpha_game = geometry.notation().kind == NotationKind::Alphanumeric;
    let mut s = text.trim();
    if s.len() >= 2 && s.starts_with('"') && s.ends_with('"') {
        warnings.push(FenWarning::Quoted);
        s = s[1..s.len() - 1].trim();
    }
    // Nearly every FEN is ASCII without white space: it is used as it is, not copied
    // character by character (a FEN is read once per game type a game may be).
    // `char::is_whitespace` also counts the vertical tab, which ASCII's does not.
    let compact: std::borrow::Cow<'_, str> =
        if s.is_ascii() && !s.bytes().any(|b| b.is_ascii_whitespace() || b == 0x0b) {
            std::borrow::Cow::Borrowed(s)
        } else {
            std::borrow::Cow::Owned(s.chars().filter(|c| !c.is_whitespace()).collect())
        };
    if compact.len() != s.len() {
        warnings.push(FenWarning::Whitespace);
    }
    let mut body = &*compact;
    if body.ends_with('.') {
        warnings.push(FenWarning::TrailingDot);
        body = body.trim_end_matches('.');
    }
    if body.is_empty() {
        return Err(FenError::Empty);
    }

    let mut segments: Vec<&str> = body.split(':').collect();
    let start = game_type.start();
    let turn = match segments.first().copied().unwrap_or("") {
        "W" => Color::White,
        "B" => Color::Black,
        "w" => {
            warnings.push(FenWarning::LowerCase('w'));
            Color::White
        }
        "b" => {
            warnings.push(FenWarning::LowerCase('b'));
            Color::Black
        }
        "?" => {
            warnings.push(FenWarning::UnknownTurn(start));
            start
        }
        "" => {
            warnings.push(FenWarning::MissingTurn(start));
            start
        }
        first if first.len() > 1 && matches!(first.as_bytes()[0], b'W' | b'B' | b'w' | b'b') => {
            // "W31-50:B1-20": the side to move is missing and this is
            // already a colour field.
            warnings.push(FenWarning::MissingTurn(start));
            segments.insert(0, "");
            start
        }
        other => return Err(FenError::Turn(other.to_owned())),
    };

    let mut parsed = Parsed {
        turn,
        // Room for a full board at once: growing the list piece by piece costs more.
        pieces: Vec::with_capacity(geometry.len()),
        halfmove: None,
        fullmove: None,
    };
    let mut seen = [false; 2];
    let mut taken = vec![false; geometry.len()];
    for &segment in segments.iter().skip(1) {
        if segment.is_empty() {
            warnings.push(FenWarning::EmptyItem);
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
                    parsed.halfmove = value;
                } else {
                    parsed.fullmove = value;
                }
                warnings.push(FenWarning::Extension(segment.to_owned()));
                continue;
            }
            _ => return Err(FenError::Field(segment.to_owned())),
        };
        if first.is_ascii_lowercase() {
            warnings.push(FenWarning::LowerCase(char::from(first)));
        }
        let side = usize::from(color == Color::Black);
        if seen[side] {
            warnings.push(FenWarning::RepeatedColor(color));
        }
        seen[side] = true;
        let rest = &segment[1..];
        if rest.is_empty() {
            continue;
        }
        for item in rest.split(',') {
            if item.is_empty() {
                warnings.push(FenWarning::EmptyItem);
                continue;
            }
            let (role, body) = match item.as_bytes()[0] {
                b'K' => (Role::King, &item[1..]),
                b'k' => {
                    warnings.push(FenWarning::LowerCase('k'));
                    (Role::King, &item[1..])
                }
                _ => (Role::Man, item),
            };
            let piece = Piece::new(color, role);
            let mut place =
                |sq: Square, pieces: &mut Vec<(Square, Piece)>| -> Result<(), FenError> {
                    if std::mem::replace(&mut taken[sq.index()], true) {
                        return Err(PositionError::SquareTwice {
                            square: geometry.name(sq).to_string(),
                        }
                        .into());
                    }
                    pieces.push((sq, piece));
                    Ok(())
                };
            if let Some((a, b)) = body.split_once('-') {
                let (lo, hi) = match (range_end(a), range_end(b)) {
                    (Some(lo), Some(hi)) => (lo, hi),
                    _ => return Err(FenError::Range(item.to_owned())),
                };
                for (text, leading) in [(a, lo.1), (b, hi.1)] {
                    note_number(text, leading, alpha_game, warnings);
                }
                let (mut lo, mut hi) = (lo.0, hi.0);
                if lo > hi {
                    warnings.push(FenWarning::ReversedRange(item.to_owned()));
                    std::mem::swap(&mut lo, &mut hi);
                }
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
                    if let Some(sq) = geometry.square_by_number(n) {
                        place(sq, &mut parsed.pieces)?;
                    }
                }
            } else {
                let r = SquareRef::parse(body).ok_or_else(|| FenError::Square {
                    text: body.to_owned(),
                    source: SquareError::Syntax(body.to_owned()),
                })?;
                match r {
                    SquareRef::Number { leading_zero, .. } => {
                        note_number(body, leading_zero, alpha_game, warnings);
                    }
                    SquareRef::Alpha { upper_case, .. } => {
                        if upper_case {
                            warnings.push(FenWarning::UpperCaseSquare(body.to_owned()));
                        }
                        if !alpha_game {
                            warnings.push(FenWarning::AlphaSquare(body.to_owned()));
                        }
                    }
                }
                let sq = geometry.resolve(r).map_err(|source| FenError::Square {
                    text: body.to_owned(),
                    source,
                })?;
                place(sq, &mut parsed.pieces)?;
            }
        }
    }
    for color in Color::ALL {
        if !seen[usize::from(color == Color::Black)] {
            warnings.push(FenWarning::MissingSide(color));
        }
    }
    Ok(parsed)
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
}
