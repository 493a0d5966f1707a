//! SAN's types ([`San`], [`Suffix`], [`SanPlus`]) and writing a move canonically: the
//! piece letter, the least disambiguation among *legal* moves, `x`, `=Q`, castling, and the
//! check or mate sign a move deserves.

use std::fmt;

use crate::movegen::{self, Context};
use crate::{Bitboard, CastlingSide, File, Move, Position, Rank, Role, Square};

/// A move in SAN, without check or mate suffix.
///
/// ```
/// use pgn::{san::San, Position, Role, Square};
/// let san: San = "Nbd2".parse()?;
/// assert_eq!(san, San::Normal { role: Role::Knight, file: Some(pgn::File::B), rank: None,
///                               capture: false, to: Square::D2, promotion: None });
/// assert_eq!(san.to_string(), "Nbd2");
/// # Ok::<(), pgn::san::SanError>(())
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum San {
    /// A piece or pawn move.
    Normal {
        /// The moving piece.
        role: Role,
        /// The origin's file, if given.
        file: Option<File>,
        /// The origin's rank, if given.
        rank: Option<Rank>,
        /// `true` if written with `x`.
        capture: bool,
        /// The target square.
        to: Square,
        /// The promotion piece.
        promotion: Option<Role>,
    },
    /// `O-O` or `O-O-O`.
    Castle(CastlingSide),
    /// A crazyhouse drop: `N@f3`, `P@e4`.
    Put {
        /// The piece dropped.
        role: Role,
        /// Where it goes.
        to: Square,
    },
    /// A null move, `--`.
    Null,
}

/// A check or mate sign after a move.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Suffix {
    /// `+`
    Check,
    /// `#`
    Checkmate,
}

impl Suffix {
    /// `+` or `#`.
    pub const fn char(self) -> char {
        match self {
            Suffix::Check => '+',
            Suffix::Checkmate => '#',
        }
    }

    /// The suffix a move leading to `after` deserves. In a variant, a move that wins the
    /// game by the variant's rule (an exploded king, the hill, a third check, …) gets `#`,
    /// as lichess and python-chess write it.
    #[inline]
    pub fn for_position(after: &Position) -> Option<Suffix> {
        if after.ruleset() != crate::Ruleset::Chess {
            return Suffix::for_variant_position(after);
        }
        Suffix::for_check(after)
    }

    /// [`Suffix::for_position`] in a variant.
    #[inline(never)]
    fn for_variant_position(after: &Position) -> Option<Suffix> {
        match after.ruleset() {
            crate::Ruleset::Antichess => {
                // No checks; a side left without a move (or a piece) has won.
                (!after.has_legal_moves()).then_some(Suffix::Checkmate)
            }
            crate::Ruleset::Crazyhouse => Suffix::for_check(after),
            _ if after.is_variant_end() => after
                .outcome()
                .is_some_and(|o| o.winner().is_some())
                .then_some(Suffix::Checkmate),
            _ => Suffix::for_check(after),
        }
    }

    /// `+` for a check, `#` for a mate.
    #[inline]
    fn for_check(after: &Position) -> Option<Suffix> {
        if !after.is_check() {
            None
        } else if after.has_legal_moves() {
            Some(Suffix::Check)
        } else {
            Some(Suffix::Checkmate)
        }
    }
}

/// A move in SAN with its check or mate sign: what PGN movetext holds.
///
/// ```
/// use pgn::{san::SanPlus, Position};
/// let pos = Position::from_fen("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")?;
/// let m = pos.resolve_san(b"Ra8")?.mv;
/// assert_eq!(SanPlus::from_move(&pos, &m).to_string(), "Ra8#");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct SanPlus {
    /// The move.
    pub san: San,
    /// `+`, `#` or nothing.
    pub suffix: Option<Suffix>,
}

impl SanPlus {
    /// The canonical SAN of a legal move, with its suffix (the move is played to find it).
    pub fn from_move(pos: &Position, m: &Move) -> SanPlus {
        SanPlus {
            san: San::from_move(pos, m),
            suffix: Suffix::for_position(&pos.play(m)),
        }
    }
}

impl SanPlus {
    /// Appends the move's text to `out`: what `to_string` gives, without the formatter's
    /// machinery, which costs more than the spelling (moves are written by the million).
    ///
    /// ```
    /// use pgn::{san::SanPlus, Position};
    /// let pos = Position::new();
    /// let mut text = String::from("1. ");
    /// SanPlus::from_move(&pos, &pos.resolve_san(b"Nf3")?.mv).append_to(&mut text);
    /// assert_eq!(text, "1. Nf3");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn append_to(&self, out: &mut String) {
        let text = self.spelled();
        out.extend(text.bytes[..text.len].iter().map(|&b| char::from(b)));
    }

    /// Appends the move's text, which is ASCII, to bytes: for a writer that gathers text
    /// as bytes and makes it a `str` once, at the end, rather than once a move.
    ///
    /// ```
    /// use pgn::{san::SanPlus, Position};
    /// let pos = Position::new();
    /// let mut text = b"1. ".to_vec();
    /// SanPlus::from_move(&pos, &pos.resolve_san(b"Nf3")?.mv).append_ascii_to(&mut text);
    /// assert_eq!(text, b"1. Nf3");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn append_ascii_to(&self, out: &mut Vec<u8>) {
        let text = self.spelled();
        out.extend_from_slice(&text.bytes[..text.len]);
    }

    fn spelled(&self) -> AsciiBuf {
        let mut text = AsciiBuf::default();
        self.san.spell(&mut text);
        if let Some(s) = self.suffix {
            text.push(s.char());
        }
        text
    }
}

impl fmt::Display for SanPlus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.spelled().as_str())
    }
}

/// A move's few ASCII characters, spelled on the stack and written at once: moves are
/// written by the million, and the formatter's machinery per character costs more than
/// the spelling.
#[derive(Default)]
struct AsciiBuf {
    bytes: [u8; 12],
    len: usize,
}

impl AsciiBuf {
    fn push(&mut self, c: char) {
        // Every character of a move is ASCII, and a move has fewer than 12.
        if let (Ok(b), Some(slot)) = (u8::try_from(c), self.bytes.get_mut(self.len)) {
            *slot = b;
            self.len += 1;
        }
    }

    fn push_str(&mut self, s: &str) {
        s.chars().for_each(|c| self.push(c));
    }

    fn as_str(&self) -> &str {
        std::str::from_utf8(&self.bytes[..self.len]).unwrap_or_default()
    }
}

impl fmt::Display for San {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut text = AsciiBuf::default();
        self.spell(&mut text);
        f.write_str(text.as_str())
    }
}

impl San {
    fn spell(&self, out: &mut AsciiBuf) {
        match *self {
            San::Normal {
                role,
                file,
                rank,
                capture,
                to,
                promotion,
            } => {
                if role != Role::Pawn {
                    out.push(role.upper_char());
                }
                if let Some(file) = file {
                    out.push(file.char());
                }
                if let Some(rank) = rank {
                    out.push(rank.char());
                }
                if capture {
                    out.push('x');
                }
                out.push(to.file().char());
                out.push(to.rank().char());
                if let Some(p) = promotion {
                    out.push('=');
                    out.push(p.upper_char());
                }
            }
            San::Castle(side) => out.push_str(side.san()),
            San::Put { role, to } => {
                out.push(role.upper_char());
                out.push('@');
                out.push(to.file().char());
                out.push(to.rank().char());
            }
            San::Null => out.push_str("--"),
        }
    }
}

/// [`disambiguation`] in a variant, from the legal moves (antichess may have several
/// kings, so kings are told apart too).
pub(super) fn variant_disambiguation(
    legal: &[Move],
    role: Role,
    from: Square,
    to: Square,
) -> (bool, bool) {
    if role == Role::Pawn {
        return (from.file() != to.file(), false);
    }
    let mut others = Bitboard::EMPTY;
    for m in legal {
        if let Move::Normal {
            role: r,
            from: f,
            to: t,
            ..
        } = *m
        {
            if r == role && t == to && f != from {
                others.add(f);
            }
        }
    }
    told_apart(from, others)
}

/// SAN's rule for a piece on `from` that `others` of its kind could replace: the file if it
/// suffices, else the rank, else both; nothing when there are none.
fn told_apart(from: Square, others: Bitboard) -> (bool, bool) {
    if others.is_empty() {
        (false, false)
    } else if (others & Bitboard::file(from.file())).is_empty() {
        (true, false)
    } else if (others & Bitboard::rank(from.rank())).is_empty() {
        (false, true)
    } else {
        (true, true)
    }
}

/// How much of the origin square canonical SAN shows for a piece move.
pub(super) fn disambiguation(
    pos: &Position,
    ctx: &Context,
    role: Role,
    from: Square,
    to: Square,
) -> (bool, bool) {
    match role {
        Role::Pawn => (from.file() != to.file(), false),
        Role::King => (false, false),
        _ => told_apart(
            from,
            movegen::legal_origins(pos, ctx, role, to, Bitboard::FULL).without(from),
        ),
    }
}

/// Whether another piece of `role` of the side to move reaches `to` by its way of moving,
/// pins and checks aside (a knight, bishop, rook or queen moving from `from`).
fn has_rivals(pos: &Position, role: Role, from: Square, to: Square) -> bool {
    let board = pos.board();
    let rivals = board.by_piece(role.of(pos.turn())).without(from);
    rivals.any()
        && (crate::attacks::attacks(role.of(pos.turn()), to, board.occupied()) & rivals).any()
}

impl San {
    /// The canonical SAN of a legal move in `pos` (without suffix).
    pub fn from_move(pos: &Position, m: &Move) -> San {
        match *m {
            Move::Normal {
                role,
                from,
                capture,
                to,
                promotion,
            } => {
                let (file, rank) = if pos.ruleset() != crate::Ruleset::Chess {
                    variant_disambiguation(&pos.legal_moves(), role, from, to)
                } else if role == Role::Pawn {
                    (from.file() != to.file(), false)
                } else if role == Role::King || !has_rivals(pos, role, from, to) {
                    // Nearly every move: no other piece of its kind reaches the square
                    // even ignoring pins, so the costlier legal test is not needed.
                    (false, false)
                } else {
                    match Context::new(pos) {
                        Some(ctx) => disambiguation(pos, &ctx, role, from, to),
                        None => (false, false),
                    }
                };
                San::Normal {
                    role,
                    file: file.then_some(from.file()),
                    rank: rank.then_some(from.rank()),
                    capture: capture.is_some(),
                    to,
                    promotion,
                }
            }
            Move::EnPassant { from, to } => San::Normal {
                role: Role::Pawn,
                file: Some(from.file()),
                rank: None,
                capture: true,
                to,
                promotion: None,
            },
            Move::Castle { king, rook } => San::Castle(CastlingSide::from_squares(king, rook)),
            Move::Put { role, to } => San::Put { role, to },
            Move::Null => San::Null,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{San, told_apart, variant_disambiguation};
    use crate::{Move, Position};

    /// SAN as the rule says, from the whole list of legal moves: the reference that
    /// `San::from_move`'s shortcuts (no legality test when no other piece of the kind
    /// reaches the square) are held to.
    fn reference(pos: &Position, m: &Move) -> San {
        let legal = pos.legal_moves();
        match *m {
            Move::Normal {
                role,
                from,
                capture,
                to,
                promotion,
            } => {
                let (file, rank) = match role {
                    crate::Role::King => told_apart(from, crate::Bitboard::EMPTY),
                    _ => variant_disambiguation(&legal, role, from, to),
                };
                San::Normal {
                    role,
                    file: file.then_some(from.file()),
                    rank: rank.then_some(from.rank()),
                    capture: capture.is_some(),
                    to,
                    promotion,
                }
            }
            _ => San::from_move(pos, m),
        }
    }

    /// Every move of every position two plies deep from positions full of pieces that
    /// can replace each other: pins, checks, promotions to a third queen or knight.
    #[test]
    fn written_san_tells_pieces_apart_as_the_legal_moves_say() {
        let fens = [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "kn4n1/3P1P2/8/2N1N3/8/2N1N1Q1/1Q3Q2/4K2R w K - 0 1",
            "4k3/8/8/3q1q2/2B1R1B1/3Q1Q2/8/4K3 b - - 0 1",
            "3r3k/8/8/R2N1N1r/8/8/8/3RK2R w K - 0 1",
        ];
        let mut moves = 0;
        for fen in fens {
            let start = Position::from_fen(fen).expect("a legal position");
            for first in start.legal_moves() {
                let next = start.play(&first);
                for pos in [&start, &next] {
                    for m in pos.legal_moves() {
                        assert_eq!(San::from_move(pos, &m), reference(pos, &m), "{fen}");
                        moves += 1;
                    }
                }
            }
        }
        assert!(moves > 10_000, "{moves} moves written");
    }
}
