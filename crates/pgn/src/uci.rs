//! UCI move notation: `e2e4`, `e7e8q`, `0000`.
//!
//! Castling is the king's two-square step in standard chess (`e1g1`) and the king taking its
//! own rook in Chess960 (`e1h1`); reading accepts both in either mode. A crazyhouse drop is
//! the piece's upper-case letter, `@` and the square (`N@f3`, `P@e4`); an antichess pawn may
//! promote to a king (`e7e8k`).
//!
//! ```
//! use pgn::{uci::Uci, CastlingMode, Position};
//! let pos = Position::from_fen("4k3/8/8/8/8/8/8/4K2R w K - 0 1")?;
//! let m = Uci::from_ascii(b"e1g1")?.to_move(&pos)?;
//! assert!(m.is_castle());
//! assert_eq!(Uci::from_move(&m, CastlingMode::Standard).to_string(), "e1g1");
//! assert_eq!(Uci::from_move(&m, CastlingMode::Chess960).to_string(), "e1h1");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::fmt;

use crate::movegen::{self, Context};
use crate::{Bitboard, CastlingMode, CastlingSide, Move, Position, Role, Square};

/// A move in UCI notation.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Uci {
    /// Origin, target and promotion.
    Normal {
        /// Where the piece comes from.
        from: Square,
        /// Where it goes (for Chess960 castling: the rook's square).
        to: Square,
        /// The promotion piece.
        promotion: Option<Role>,
    },
    /// A crazyhouse drop: `N@f3`.
    Put {
        /// The piece dropped.
        role: Role,
        /// Where it goes.
        to: Square,
    },
    /// `0000`.
    Null,
}

/// The text is not a UCI move.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "`{0}` is not a UCI move (expected origin and target squares such as e2e4, a promotion letter q/r/b/n, or 0000)"
)]
pub struct ParseUciError(pub String);

/// A UCI move that is not legal in the position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("illegal UCI move {uci} in {fen}")]
pub struct IllegalUciError {
    /// The move.
    pub uci: Uci,
    /// The position, as FEN.
    pub fen: String,
}

impl Uci {
    /// Reads a UCI move.
    ///
    /// # Errors
    /// [`ParseUciError`] unless the text is two squares, optionally a promotion letter, or `0000`.
    pub fn from_ascii(s: &[u8]) -> Result<Uci, ParseUciError> {
        let err = || ParseUciError(String::from_utf8_lossy(s).into_owned());
        if s == b"0000" {
            return Ok(Uci::Null);
        }
        if let [piece, b'@', square @ ..] = s {
            let role = match piece.to_ascii_uppercase() {
                b'P' => Role::Pawn,
                b'N' => Role::Knight,
                b'B' => Role::Bishop,
                b'R' => Role::Rook,
                b'Q' => Role::Queen,
                _ => return Err(err()),
            };
            let to = Square::from_ascii(square).map_err(|_| err())?;
            return Ok(Uci::Put { role, to });
        }
        let (squares, promotion) = match s.len() {
            4 => (s, None),
            5 => (
                &s[..4],
                Some(match s[4] {
                    b'q' | b'Q' => Role::Queen,
                    b'r' | b'R' => Role::Rook,
                    b'b' | b'B' => Role::Bishop,
                    b'n' | b'N' => Role::Knight,
                    b'k' | b'K' => Role::King,
                    _ => return Err(err()),
                }),
            ),
            _ => return Err(err()),
        };
        let from = Square::from_ascii(&squares[..2]).map_err(|_| err())?;
        let to = Square::from_ascii(&squares[2..]).map_err(|_| err())?;
        Ok(Uci::Normal {
            from,
            to,
            promotion,
        })
    }

    /// The UCI of a move; castling is written by `mode`'s convention.
    pub fn from_move(m: &Move, mode: CastlingMode) -> Uci {
        match *m {
            Move::Normal {
                from,
                to,
                promotion,
                ..
            } => Uci::Normal {
                from,
                to,
                promotion,
            },
            Move::EnPassant { from, to } => Uci::Normal {
                from,
                to,
                promotion: None,
            },
            Move::Castle { king, rook } => Uci::Normal {
                from: king,
                to: match mode {
                    CastlingMode::Chess960 => rook,
                    CastlingMode::Standard => Square::from_coords(
                        CastlingSide::from_squares(king, rook).king_to_file(),
                        king.rank(),
                    ),
                },
                promotion: None,
            },
            Move::Put { role, to } => Uci::Put { role, to },
            Move::Null => Uci::Null,
        }
    }

    /// The legal move this UCI names in `pos`.
    ///
    /// # Errors
    /// [`IllegalUciError`] if it names no legal move (a null move is accepted when not in
    /// check).
    pub fn to_move(&self, pos: &Position) -> Result<Move, IllegalUciError> {
        let err = || IllegalUciError {
            uci: *self,
            fen: pos.to_fen(),
        };
        if pos.ruleset() != crate::Ruleset::Chess {
            // Variants: the legal move written so, with castling in either convention.
            if *self == Uci::Null {
                return if pos.is_check() {
                    Err(err())
                } else {
                    Ok(Move::Null)
                };
            }
            return pos
                .legal_moves()
                .into_iter()
                .find(|m| {
                    Uci::from_move(m, CastlingMode::Standard) == *self
                        || Uci::from_move(m, CastlingMode::Chess960) == *self
                })
                .ok_or_else(err);
        }
        let ctx = Context::new(pos).ok_or_else(err)?;
        let (from, to, promotion) = match *self {
            Uci::Null => {
                return if ctx.checkers.any() {
                    Err(err())
                } else {
                    Ok(Move::Null)
                };
            }
            Uci::Normal {
                from,
                to,
                promotion,
            } => (from, to, promotion),
            Uci::Put { .. } => return Err(err()),
        };
        let board = pos.board();
        if !ctx.our.contains(from) {
            return Err(err());
        }
        let role = board.role_at(from).ok_or_else(err)?;
        if role == Role::King && promotion.is_none() {
            for side in CastlingSide::ALL {
                let Some(rook) = pos.castles().rook(ctx.us, side) else {
                    continue;
                };
                let two_step = side.king_to(ctx.us) == to
                    && !movegen::legal_origins(pos, &ctx, Role::King, to, Bitboard::from(from))
                        .contains(from);
                if rook == to || two_step {
                    return match movegen::castle_rook_if_legal(pos, &ctx, side) {
                        Some(rook) => Ok(Move::Castle { king: from, rook }),
                        None => Err(err()),
                    };
                }
            }
        }
        if !movegen::legal_origins(pos, &ctx, role, to, Bitboard::from(from)).contains(from) {
            return Err(err());
        }
        if role == Role::Pawn && Some(to) == pos.ep_square() && from.file() != to.file() {
            return if promotion.is_none() {
                Ok(Move::EnPassant { from, to })
            } else {
                Err(err())
            };
        }
        let last_rank = Bitboard::backrank(!ctx.us).contains(to);
        if (role == Role::Pawn && last_rank) != promotion.is_some() || promotion == Some(Role::King)
        {
            return Err(err());
        }
        Ok(Move::Normal {
            role,
            from,
            capture: board.role_at(to),
            to,
            promotion,
        })
    }
}

impl Uci {
    /// Appends the move's text to `out`: what `to_string` gives, without the formatter's
    /// machinery (moves are written by the million).
    ///
    /// ```
    /// use pgn::uci::Uci;
    /// let mut text = String::new();
    /// "e7e8q".parse::<Uci>()?.append_to(&mut text);
    /// assert_eq!(text, "e7e8q");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn append_to(&self, out: &mut String) {
        let (text, len) = self.spelled();
        out.extend(text[..len].iter().map(|&b| char::from(b)));
    }

    /// Appends the move's text, which is ASCII, to bytes (see
    /// [`SanPlus::append_ascii_to`](crate::san::SanPlus::append_ascii_to)).
    ///
    /// ```
    /// use pgn::uci::Uci;
    /// let mut text = Vec::new();
    /// "e7e8q".parse::<Uci>()?.append_ascii_to(&mut text);
    /// assert_eq!(text, b"e7e8q");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn append_ascii_to(&self, out: &mut Vec<u8>) {
        // Spelled in a register, eight bytes stored at once and the spare ones taken
        // back: a copy of 4 or 5 bytes is a call to `memcpy`, and bytes spelled on the
        // stack would be read back before their stores are done (a move is written so
        // for every move of a table).
        let byte = |b: u8, at: u32| u64::from(b) << (8 * at);
        let square = |sq: Square, at: u32| {
            byte(sq.file().char() as u8, at) | byte(sq.rank().char() as u8, at + 1)
        };
        let (word, len) = match *self {
            Uci::Normal {
                from,
                to,
                promotion,
            } => {
                let word = square(from, 0) | square(to, 2);
                match promotion {
                    Some(p) => (word | byte(p.char() as u8, 4), 5),
                    None => (word, 4),
                }
            }
            Uci::Put { role, to } => (
                byte(role.upper_char() as u8, 0) | byte(b'@', 1) | square(to, 2),
                4,
            ),
            Uci::Null => (u64::from(u32::from_le_bytes(*b"0000")), 4),
        };
        let at = out.len();
        out.extend_from_slice(&word.to_le_bytes());
        out.truncate(at + len);
    }

    /// The move's ASCII text on the stack, and its length.
    fn spelled(&self) -> ([u8; 5], usize) {
        match *self {
            Uci::Normal {
                from,
                to,
                promotion,
            } => {
                let mut text = [
                    from.file().char() as u8,
                    from.rank().char() as u8,
                    to.file().char() as u8,
                    to.rank().char() as u8,
                    b' ',
                ];
                let len = match promotion {
                    Some(p) => {
                        text[4] = p.char() as u8;
                        5
                    }
                    None => 4,
                };
                (text, len)
            }
            Uci::Put { role, to } => (
                [
                    role.upper_char() as u8,
                    b'@',
                    to.file().char() as u8,
                    to.rank().char() as u8,
                    b' ',
                ],
                4,
            ),
            Uci::Null => (*b"0000 ", 4),
        }
    }
}

impl fmt::Display for Uci {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Spelled on the stack and written at once (see `San`'s `Display`).
        let (text, len) = self.spelled();
        f.write_str(std::str::from_utf8(&text[..len]).unwrap_or_default())
    }
}

impl std::str::FromStr for Uci {
    type Err = ParseUciError;
    fn from_str(s: &str) -> Result<Uci, ParseUciError> {
        Uci::from_ascii(s.as_bytes())
    }
}

impl Move {
    /// The move in UCI notation, castling written by `mode`'s convention.
    pub fn to_uci(&self, mode: CastlingMode) -> Uci {
        Uci::from_move(self, mode)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bytes_appended_are_the_text() {
        for text in ["e2e4", "e7e8q", "a1h8", "N@f3", "0000"] {
            let uci: Uci = text.parse().expect("UCI");
            let mut ascii = b"x".to_vec();
            uci.append_ascii_to(&mut ascii);
            assert_eq!(ascii, format!("x{text}").into_bytes());
        }
    }
}
