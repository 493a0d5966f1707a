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

pub use crate::setup::{CastlingToken, ParseFenError, Setup};
use crate::{
    Bitboard, Board, CastlingMode, CastlingSide, Color, File, Position, PositionError, Rank, Square,
};

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

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({})", self.to_fen())
    }
}

impl Default for Setup {
    /// The standard start.
    fn default() -> Setup {
        Position::new().to_setup()
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
