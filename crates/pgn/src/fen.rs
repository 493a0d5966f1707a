//! Forsyth–Edwards Notation: reading leniently, writing canonically.
//!
//! Reading accepts:
//! - missing half-move and full-move counters (taken as `0 1`), and missing castling and
//!   en-passant fields (`-`);
//! - any amount of spaces or tabs between fields, and around the record;
//! - castling written as `KQkq`, as X-FEN (`K`/`Q` for the outermost rook, a file letter
//!   for another one) or as Shredder-FEN (`HAha`), in any order.
//!
//! - the variants' additions: crazyhouse pockets in brackets after the placement
//!   (`…/RNBQKBNR[Qn]`) or as a ninth rank (`…/RNBQKBNR/Qn`), promoted pieces marked `~`
//!   (`Q~`), and three-check counters, either the checks still to give before the counters
//!   (`… - 3+3 0 1`) or the checks given after them (`… 0 1 +1+2`);
//! - EPD: the first four fields alone.
//!
//! Writing gives X-FEN: `KQkq` unless a Chess960 right refers to an inner rook, and the
//! en-passant square only when an en-passant capture is legal; a crazyhouse position's
//! pockets in brackets and promoted pieces with `~`, a three-check position's checks given
//! after the counters (lichess's form, `… 0 1 +1+0`).
//!
//! ```
//! use pgn::{fen::Setup, CastlingMode, Position};
//! let pos = Position::from_fen("  rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 ")?;
//! assert_eq!(pos.to_fen(), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
//! let setup = Setup::from_fen("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9")?;
//! let pos = Position::from_setup(&setup, CastlingMode::Chess960)?;
//! assert_eq!(pos.to_shredder_fen(), "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9");
//! // X-FEN: both rooks are the outermost on their side of the king.
//! assert_eq!(pos.to_fen(), "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 2 9");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::fmt::{self, Write as _};

use crate::{
    Bitboard, Board, ByColor, CastlingMode, CastlingSide, Color, File, Piece, Pocket, Position,
    PositionError, Rank, Role, Ruleset, Square,
};

/// One letter of the castling field.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum CastlingToken {
    /// `K` or `k`: the outermost rook on the king side.
    KingSide(Color),
    /// `Q` or `q`: the outermost rook on the queen side.
    QueenSide(Color),
    /// `A`–`H` or `a`–`h`: the rook on that file.
    File(Color, File),
}

impl CastlingToken {
    /// Whose right it is.
    pub const fn color(self) -> Color {
        match self {
            CastlingToken::KingSide(c)
            | CastlingToken::QueenSide(c)
            | CastlingToken::File(c, _) => c,
        }
    }

    /// The letter as written in FEN.
    pub const fn char(self) -> char {
        let c = match self {
            CastlingToken::KingSide(_) => 'K',
            CastlingToken::QueenSide(_) => 'Q',
            CastlingToken::File(_, f) => f.upper_char(),
        };
        match self.color() {
            Color::White => c,
            Color::Black => c.to_ascii_lowercase(),
        }
    }

    /// Reads one letter of the castling field.
    pub const fn from_char(c: char) -> Option<CastlingToken> {
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        match c.to_ascii_lowercase() {
            'k' => Some(CastlingToken::KingSide(color)),
            'q' => Some(CastlingToken::QueenSide(color)),
            'a'..='h' => match File::from_char(c.to_ascii_lowercase()) {
                Some(f) => Some(CastlingToken::File(color, f)),
                None => None,
            },
            _ => None,
        }
    }
}

/// The fields of a FEN record, read but not yet checked for legality.
///
/// Turn it into a [`Position`] with [`Position::from_setup`] (or read FEN straight into a
/// position with [`Position::from_fen`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// Piece placement.
    pub board: Board,
    /// The side to move.
    pub turn: Color,
    /// The castling field's letters, as written.
    pub castling: Vec<CastlingToken>,
    /// The en-passant square as written (kept by the position only if a capture is legal).
    pub ep_square: Option<Square>,
    /// The half-move clock.
    pub halfmoves: u32,
    /// The full-move number.
    pub fullmoves: u32,
    /// Crazyhouse pockets, if the record has them.
    pub pockets: Option<ByColor<Pocket>>,
    /// Pieces marked as promoted (`~`).
    pub promoted: Bitboard,
    /// Three-check: the checks each side may still give, if the record has them.
    pub remaining_checks: Option<ByColor<u8>>,
}

impl Setup {
    /// The ruleset the record's own fields imply: crazyhouse for pockets, three-check for
    /// check counters, standard chess otherwise.
    pub fn implied_ruleset(&self) -> Ruleset {
        if self.pockets.is_some() {
            Ruleset::Crazyhouse
        } else if self.remaining_checks.is_some() {
            Ruleset::ThreeCheck
        } else {
            Ruleset::Chess
        }
    }
}

impl Default for Setup {
    /// The standard start.
    fn default() -> Setup {
        Position::new().to_setup()
    }
}

/// Why a text is not a FEN record (its syntax; see [`PositionError`] for legality).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseFenError {
    /// Nothing but spaces.
    #[error("empty FEN")]
    Empty,
    /// The piece placement is not eight ranks of eight squares.
    #[error("bad piece placement: {0}")]
    Board(&'static str),
    /// An unknown letter in the piece placement.
    #[error("bad piece placement: `{0}` is not a piece letter (PNBRQK or pnbrqk) or a digit 1-8")]
    PieceChar(char),
    /// The side to move is missing or not `w`/`b`.
    #[error("the side to move must be `w` or `b`")]
    Turn,
    /// The castling field has a letter other than `KQkq`, `A`–`H`, `a`–`h`, or too many.
    #[error("bad castling field `{0}` (expected `-`, letters of KQkq, or files A-H/a-h)")]
    Castling(String),
    /// The en-passant field is not `-` or a square.
    #[error("bad en-passant field `{0}` (expected `-` or a square such as e3)")]
    EnPassant(String),
    /// A move counter is not a number.
    #[error("bad move counter `{0}` (expected a number)")]
    Counter(String),
    /// More than six fields.
    #[error("unexpected text after the move counters: `{0}`")]
    TrailingText(String),
    /// The crazyhouse pocket holds something other than piece letters (or a king).
    #[error("bad pocket `{0}` (expected piece letters QRBNP or qrbnp)")]
    Pocket(String),
    /// The three-check counters are not `3+3` or `+1+2` with numbers of 0 to 3.
    #[error("bad check counters `{0}` (expected checks left as 3+3, or checks given as +0+0)")]
    Checks(String),
}

/// A FEN record that is unreadable or describes an impossible position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FenError {
    /// The text is not a FEN record.
    #[error("invalid FEN: {0}")]
    Syntax(#[from] ParseFenError),
    /// The record describes an impossible position.
    #[error("impossible position: {0}")]
    Position(#[from] PositionError),
}

/// The placement field: the board, the squares marked promoted, and a pocket if the field
/// has one (`[…]` after the ranks, or a ninth rank).
fn parse_board(s: &str) -> Result<(Board, Bitboard, Option<ByColor<Pocket>>), ParseFenError> {
    let (placement, pocket) = match s.find('[') {
        Some(open) => {
            let inner = s[open + 1..]
                .strip_suffix(']')
                .ok_or_else(|| ParseFenError::Pocket(s[open..].to_string()))?;
            (&s[..open], Some(inner))
        }
        None => (s, None),
    };
    let mut ranks: Vec<&str> = placement.split('/').collect();
    let pocket = match pocket {
        Some(p) => Some(p),
        None if ranks.len() == 9 => ranks.pop(),
        None => None,
    };
    if ranks.len() != 8 {
        return Err(ParseFenError::Board("expected 8 ranks separated by `/`"));
    }
    let mut board = Board::empty();
    let mut promoted = Bitboard::EMPTY;
    for (i, text) in ranks.iter().enumerate() {
        let rank = Rank::new_masked(7 - i as u32);
        let mut file = 0u32;
        for c in text.chars() {
            if let Some(d) = c.to_digit(10) {
                if d == 0 || d > 8 {
                    return Err(ParseFenError::Board("empty-square counts must be 1-8"));
                }
                file += d;
            } else if c == '~' {
                match file.checked_sub(1) {
                    Some(prev) => {
                        let sq = Square::from_coords(File::new_masked(prev), rank);
                        if !board.occupied().contains(sq) {
                            return Err(ParseFenError::Board("`~` must follow a piece"));
                        }
                        promoted.add(sq);
                    }
                    None => return Err(ParseFenError::Board("`~` must follow a piece")),
                }
            } else if let Some(p) = Piece::from_char(c) {
                if file >= 8 {
                    return Err(ParseFenError::Board("a rank has more than 8 squares"));
                }
                board.put(
                    Square::from_coords(File::new_masked(file), rank),
                    p.color,
                    p.role,
                );
                file += 1;
            } else {
                return Err(ParseFenError::PieceChar(c));
            }
            if file > 8 {
                return Err(ParseFenError::Board("a rank has more than 8 squares"));
            }
        }
        if file != 8 {
            return Err(ParseFenError::Board("a rank has fewer than 8 squares"));
        }
    }
    let pockets = match pocket {
        None => None,
        Some(text) => {
            let mut pockets = ByColor {
                white: Pocket::EMPTY,
                black: Pocket::EMPTY,
            };
            for c in text.chars() {
                match Piece::from_char(c) {
                    Some(p) if p.role != Role::King => pockets.get_mut(p.color).add(p.role),
                    _ => return Err(ParseFenError::Pocket(text.to_string())),
                }
            }
            Some(pockets)
        }
    };
    Ok((board, promoted, pockets))
}

/// Reads three-check counters: `3+3` (checks left, white's first) when `given` is false,
/// `+1+2` (checks given) when it is true.
fn parse_checks(text: &str, given: bool) -> Result<ByColor<u8>, ParseFenError> {
    let err = || ParseFenError::Checks(text.to_string());
    let body = if given {
        text.strip_prefix('+').ok_or_else(err)?
    } else {
        text
    };
    let (white, black) = body.split_once('+').ok_or_else(err)?;
    let read = |t: &str| match t.parse::<u8>() {
        Ok(n) if n <= 3 => Ok(if given { 3 - n } else { n }),
        _ => Err(err()),
    };
    Ok(ByColor {
        white: read(white)?,
        black: read(black)?,
    })
}

impl Setup {
    /// Reads a FEN record leniently (see the [module documentation](self)).
    ///
    /// # Errors
    /// [`ParseFenError`] naming the field that cannot be read.
    pub fn from_fen(fen: &str) -> Result<Setup, ParseFenError> {
        let mut fields = fen.split_ascii_whitespace().peekable();
        let (board, promoted, pockets) = parse_board(fields.next().ok_or(ParseFenError::Empty)?)?;
        let turn = match fields.next() {
            Some("w" | "W") => Color::White,
            Some("b" | "B") => Color::Black,
            _ => return Err(ParseFenError::Turn),
        };
        let mut castling = Vec::new();
        match fields.next() {
            None | Some("-") => {}
            Some(text) => {
                for c in text.chars() {
                    match CastlingToken::from_char(c) {
                        Some(t) if castling.len() < 4 => {
                            if !castling.contains(&t) {
                                castling.push(t);
                            }
                        }
                        _ => return Err(ParseFenError::Castling(text.to_string())),
                    }
                }
            }
        }
        let ep_square = match fields.next() {
            None | Some("-") => None,
            Some(text) => Some(
                text.parse::<Square>()
                    .map_err(|_| ParseFenError::EnPassant(text.to_string()))?,
            ),
        };
        let mut remaining_checks = None;
        if let Some(text) = fields.next_if(|t| t.contains('+') && !t.starts_with('+')) {
            remaining_checks = Some(parse_checks(text, false)?);
        }
        let mut counter = |default: u32| match fields.next_if(|t| !t.starts_with('+')) {
            None | Some("-") => Ok(default),
            Some(text) => text
                .parse::<u32>()
                .map_err(|_| ParseFenError::Counter(text.to_string())),
        };
        let halfmoves = counter(0)?;
        let fullmoves = counter(1)?.max(1);
        if let Some(text) = fields.next_if(|t| t.starts_with('+')) {
            if remaining_checks.is_some() {
                return Err(ParseFenError::TrailingText(text.to_string()));
            }
            remaining_checks = Some(parse_checks(text, true)?);
        }
        if let Some(rest) = fields.next() {
            return Err(ParseFenError::TrailingText(rest.to_string()));
        }
        Ok(Setup {
            board,
            turn,
            castling,
            ep_square,
            halfmoves,
            fullmoves,
            pockets,
            promoted,
            remaining_checks,
        })
    }

    /// Reads FEN from bytes; see [`Setup::from_fen`].
    ///
    /// # Errors
    /// [`ParseFenError`] naming the field that cannot be read (non-UTF-8 input counts as an
    /// unreadable piece placement).
    pub fn from_ascii(fen: &[u8]) -> Result<Setup, ParseFenError> {
        let text = std::str::from_utf8(fen).map_err(|_| ParseFenError::Board("not ASCII text"))?;
        Setup::from_fen(text)
    }
}

impl std::str::FromStr for Setup {
    type Err = ParseFenError;
    fn from_str(s: &str) -> Result<Setup, ParseFenError> {
        Setup::from_fen(s)
    }
}

/// How castling rights are written.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum CastlingStyle {
    XFen,
    Shredder,
}

/// The placement with promoted pieces marked `~` (crazyhouse).
fn write_marked_board(board: &Board, promoted: Bitboard, out: &mut String) {
    for rank in (0..8).rev() {
        let mut empty = 0;
        for file in 0..8 {
            let sq = Square::from_coords(File::new_masked(file), Rank::new_masked(rank));
            match board.piece_at(sq) {
                Some(piece) => {
                    if empty > 0 {
                        let _ = write!(out, "{empty}");
                        empty = 0;
                    }
                    out.push(piece.char());
                    if promoted.contains(sq) {
                        out.push('~');
                    }
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            let _ = write!(out, "{empty}");
        }
        if rank > 0 {
            out.push('/');
        }
    }
}

fn write_fen(pos: &Position, style: CastlingStyle, out: &mut String) {
    match pos.pockets() {
        Some(pockets) => {
            write_marked_board(pos.board(), pos.promoted(), out);
            let _ = write!(out, "[{pockets}] {} ", pos.turn().char());
        }
        None => {
            // Without the formatter: a FEN is written for every game of a table, and for
            // every position of the positions table.
            pos.board().push_placement(out);
            out.push(' ');
            out.push(pos.turn().char());
            out.push(' ');
        }
    }
    let len = out.len();
    let board = pos.board();
    for color in Color::ALL {
        for side in CastlingSide::ALL {
            let Some(rook) = pos.castles().rook(color, side) else {
                continue;
            };
            let outermost = {
                let rooks =
                    board.by_piece(crate::Role::Rook.of(color)) & crate::Bitboard::backrank(color);
                match side {
                    CastlingSide::KingSide => rooks.last() == Some(rook),
                    CastlingSide::QueenSide => rooks.first() == Some(rook),
                }
            };
            let token = if style == CastlingStyle::XFen && outermost {
                match side {
                    CastlingSide::KingSide => CastlingToken::KingSide(color),
                    CastlingSide::QueenSide => CastlingToken::QueenSide(color),
                }
            } else {
                CastlingToken::File(color, rook.file())
            };
            out.push(token.char());
        }
    }
    if out.len() == len {
        out.push('-');
    }
    match pos.ep_square() {
        Some(ep) => {
            out.push(' ');
            out.push(ep.file().char());
            out.push(ep.rank().char());
        }
        None => out.push_str(" -"),
    }
    out.push(' ');
    push_decimal(out, u64::from(pos.halfmoves()));
    out.push(' ');
    push_decimal(out, u64::from(pos.fullmoves()));
    if let Some(left) = pos.remaining_checks() {
        // lichess's form: the checks each side has given.
        let given = |n: u8| 3u8.saturating_sub(n);
        let _ = write!(out, " +{}+{}", given(left.white), given(left.black));
    }
}

/// Appends `n` in decimal.
fn push_decimal(out: &mut String, n: u64) {
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    let mut rest = n;
    loop {
        at -= 1;
        digits[at] = b'0' + (rest % 10) as u8;
        rest /= 10;
        if rest == 0 {
            break;
        }
    }
    out.extend(digits[at..].iter().map(|&d| char::from(d)));
}

impl Position {
    /// Reads a FEN record and checks the position; the castling mode is standard unless the
    /// castling rights only make sense in Chess960.
    ///
    /// # Errors
    /// [`FenError::Syntax`] if the text is not FEN, [`FenError::Position`] if the position
    /// is impossible.
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        Ok(Position::from_setup_auto(&Setup::from_fen(fen)?)?)
    }

    /// Reads a FEN record with a given castling mode.
    ///
    /// # Errors
    /// As [`Position::from_fen`].
    pub fn from_fen_with_mode(fen: &str, mode: CastlingMode) -> Result<Position, FenError> {
        Ok(Position::from_setup(&Setup::from_fen(fen)?, mode)?)
    }

    /// The position as FEN (X-FEN castling: `KQkq` unless an inner Chess960 rook needs its
    /// file letter).
    pub fn to_fen(&self) -> String {
        let mut s = String::with_capacity(90);
        write_fen(self, CastlingStyle::XFen, &mut s);
        s
    }

    /// The position as Shredder-FEN: castling rights always as rook files (`HAha`).
    pub fn to_shredder_fen(&self) -> String {
        let mut s = String::with_capacity(90);
        write_fen(self, CastlingStyle::Shredder, &mut s);
        s
    }
}

impl std::str::FromStr for Position {
    type Err = FenError;
    fn from_str(s: &str) -> Result<Position, FenError> {
        Position::from_fen(s)
    }
}

impl fmt::Display for Position {
    /// The position as FEN.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_fen())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{CastlingError, CastlingRights};

    fn err(fen: &str) -> FenError {
        match Position::from_fen(fen) {
            Ok(p) => panic!("accepted {fen}: {p:?}"),
            Err(e) => e,
        }
    }

    #[test]
    fn start_round_trip() {
        let fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        let pos = Position::from_fen(fen).expect("start");
        assert_eq!(pos, Position::new());
        assert_eq!(pos.to_fen(), fen);
        assert_eq!(
            pos.to_shredder_fen(),
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1"
        );
    }

    #[test]
    fn lenient_reading() {
        let pos = Position::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -")
            .expect("no counters");
        assert_eq!(pos, Position::new());
        let pos = Position::from_fen(
            "  rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR   w\tKQkq  -  0   1 ",
        )
        .expect("spaces");
        assert_eq!(pos, Position::new());
        let pos =
            Position::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w").expect("only turn");
        assert_eq!(pos.castling_rights(), CastlingRights::empty());
        let pos = Position::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1")
            .expect("shredder");
        assert_eq!(pos, Position::new());
        let pos = Position::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w qkQK - 0 1")
            .expect("order");
        assert_eq!(
            pos.to_fen(),
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
        );
    }

    #[test]
    fn chess960_castling_fields() {
        // Rooks on b1 and g1 with the king on e1: `K`/`Q` find them, so do `G`/`B`.
        let a = Position::from_fen("1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w KQkq - 0 1")
            .expect("xfen");
        let b = Position::from_fen("1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1")
            .expect("shredder");
        assert_eq!(a, b);
        assert_eq!(a.castling_mode(), CastlingMode::Chess960);
        assert_eq!(
            a.to_fen(),
            "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w KQkq - 0 1"
        );
        assert_eq!(
            a.to_shredder_fen(),
            "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1"
        );
        // An inner rook needs its file in X-FEN.
        let c = Position::from_fen("4k3/8/8/8/8/8/8/R1R1K3 w C - 0 1").expect("inner");
        assert_eq!(c.to_fen(), "4k3/8/8/8/8/8/8/R1R1K3 w C - 0 1");
        let d = Position::from_fen("4k3/8/8/8/8/8/8/R1R1K3 w Q - 0 1").expect("outer");
        assert_eq!(
            d.castles().rook(Color::White, CastlingSide::QueenSide),
            Some(Square::A1)
        );
        assert_eq!(d.castling_mode(), CastlingMode::Standard);
    }

    #[test]
    fn syntax_errors() {
        assert!(matches!(err(""), FenError::Syntax(ParseFenError::Empty)));
        assert!(matches!(
            err("8/8/8/8/8/8/8 w - - 0 1"),
            FenError::Syntax(ParseFenError::Board(_))
        ));
        assert!(matches!(
            err("9/8/8/8/8/8/8/8 w - - 0 1"),
            FenError::Syntax(ParseFenError::Board(_))
        ));
        assert!(matches!(
            err("4k3/8/8/8/8/8/8/4K2X w - - 0 1"),
            FenError::Syntax(ParseFenError::PieceChar('X'))
        ));
        assert!(matches!(
            err("4k3/8/8/8/8/8/8/4K3 x - - 0 1"),
            FenError::Syntax(ParseFenError::Turn)
        ));
        assert!(matches!(
            err("4k3/8/8/8/8/8/8/4K3 w KX - 0 1"),
            FenError::Syntax(ParseFenError::Castling(_))
        ));
        assert!(matches!(
            err("4k3/8/8/8/8/8/8/4K3 w - e9 0 1"),
            FenError::Syntax(ParseFenError::EnPassant(_))
        ));
        assert!(matches!(
            err("4k3/8/8/8/8/8/8/4K3 w - - x 1"),
            FenError::Syntax(ParseFenError::Counter(_))
        ));
        assert!(matches!(
            err("4k3/8/8/8/8/8/8/4K3 w - - 0 1 extra"),
            FenError::Syntax(ParseFenError::TrailingText(_))
        ));
    }

    #[test]
    fn impossible_positions() {
        use PositionError as P;
        let pos = |fen| match err(fen) {
            FenError::Position(p) => p,
            e => panic!("{fen}: {e}"),
        };
        assert_eq!(
            pos("8/8/8/8/8/8/8/4K3 w - - 0 1"),
            P::MissingKing(Color::Black)
        );
        assert_eq!(
            pos("4k3/8/8/8/8/8/8/K3K3 w - - 0 1"),
            P::TooManyKings(Color::White)
        );
        assert_eq!(
            pos("4k3/8/8/8/8/8/8/P3K3 w - - 0 1"),
            P::PawnOnBackrank(Square::A1)
        );
        assert_eq!(
            pos("4k3/4Q3/8/8/8/8/8/4K3 w - - 0 1"),
            P::OppositeCheck(Color::Black)
        );
        assert_eq!(
            pos("4k3/8/8/8/8/8/PPPPPPPP/P3K3 w - - 0 1"),
            P::TooManyPawns(Color::White, 9)
        );
        assert_eq!(
            pos("4k3/8/8/8/8/QQ6/PPPPPPPP/4K3 w - - 0 1"),
            P::ImpossibleMaterial(Color::White)
        );
        assert_eq!(
            pos("4k3/8/8/8/8/8/8/4K3 w - e6 0 1"),
            P::InvalidEnPassant(Square::E6)
        );
        assert_eq!(
            pos("4k3/8/8/8/8/8/8/4K3 w - e3 0 1"),
            P::InvalidEnPassant(Square::E3)
        );
        assert_eq!(
            pos("4k3/8/8/8/8/8/8/4K3 w K - 0 1"),
            P::InvalidCastling {
                token: 'K',
                reason: CastlingError::NoRook
            }
        );
        assert_eq!(
            pos("4k3/8/8/8/8/8/4K3/7R w K - 0 1"),
            P::InvalidCastling {
                token: 'K',
                reason: CastlingError::KingNotOnBackrank
            }
        );
        assert_eq!(
            pos("4k3/8/8/8/8/8/8/4K2R w A - 0 1"),
            P::InvalidCastling {
                token: 'A',
                reason: CastlingError::NoRookOnFile
            }
        );
        assert_eq!(
            pos("4k3/8/3N1N2/8/8/8/8/4K3 b - - 0 1"),
            P::ImpossibleCheck(Color::Black, 2)
        );
        assert!(matches!(
            Position::from_fen_with_mode(
                "4k3/8/8/8/8/8/8/R3K1R1 w K - 0 1",
                CastlingMode::Standard
            ),
            Err(FenError::Position(P::InvalidCastling {
                reason: CastlingError::NotStandard,
                ..
            }))
        ));
    }

    #[test]
    fn ep_square_kept_only_when_capturable() {
        let pos = Position::from_fen("4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1").expect("ep");
        assert_eq!(pos.ep_square(), Some(Square::E3));
        assert_eq!(pos.to_fen(), "4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1");
        // The capturing pawn is pinned against its king: the square is dropped.
        let pos = Position::from_fen("8/8/8/8/k2pP2R/8/8/4K3 b - e3 0 1").expect("pinned ep");
        assert_eq!(pos.ep_square(), None);
    }
}
