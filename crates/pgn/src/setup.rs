//! [`Setup`]: a position's set-up as a FEN record gives it, read from text but not yet
//! checked. A position is built from it, and so it stands below the position; its public path is
//! [`pgn::fen::Setup`](crate::fen::Setup), with FEN's reading and writing of positions.

use crate::{Bitboard, Board, ByColor, Color, File, Piece, Pocket, Rank, Role, Ruleset, Square};

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
/// Turn it into a [`Position`](crate::Position) with
/// [`Position::from_setup`](crate::Position::from_setup) (or read FEN straight into a
/// position with [`Position::from_fen`](crate::Position::from_fen)).
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

/// Why a text is not a FEN record (its syntax; see [`PositionError`](crate::PositionError) for legality).
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
    /// Reads a FEN record leniently (see the [module documentation](crate::fen)).
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
