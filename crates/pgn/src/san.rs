//! Standard Algebraic Notation: writing it canonically, reading it leniently.
//!
//! # Writing
//! [`SanPlus::from_move`] gives the canonical form: the piece letter (none for pawns), the
//! least disambiguation among *legal* moves (the file if it tells the pieces apart, else the
//! rank, else both), `x` for captures, `=Q` for promotions, `O-O`/`O-O-O`, and `+` or `#`.
//!
//! # Reading
//! [`SanToken::from_ascii`] reads a token, and [`SanToken::resolve`] finds the legal move it
//! names. Resolution looks only at the pieces of the named kind that reach the target
//! square, filtered by the pin and check masks, rather than generating every legal move.
//! Whatever had to be overlooked to read the token is reported as [`Forgiven`] flags, so
//! that a caller can warn:
//!
//! ```
//! use pgn::{Position, san::Forgiven};
//! let pos = Position::new();
//! let r = pos.resolve_san(b"Ng1-f3")?;
//! assert_eq!(r.san().to_string(), "Nf3");
//! assert_eq!(r.forgiven, Forgiven::LONG_ALGEBRAIC | Forgiven::OVER_DISAMBIGUATION);
//! let r = pos.resolve_san(b"e4")?;
//! assert!(r.forgiven.is_empty());
//! # Ok::<(), pgn::san::SanError>(())
//! ```
//!
//! A token is never resolved to a move it does not say: `nf3` is the knight move (a lower
//! case piece letter, forgiven), not the pawn move `f3`; `bxc3` is a pawn capture when one is
//! legal and a bishop capture only otherwise.

mod variants;

use std::fmt;

use bitflags::bitflags;

use crate::movegen::{self, Context};
use crate::{Bitboard, CastlingSide, Color, File, Move, Position, Rank, Role, Square};

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
fn variant_disambiguation(legal: &[Move], role: Role, from: Square, to: Square) -> (bool, bool) {
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

/// What a piece move's token forgave in its capture mark and in the part of its origin it
/// wrote (`file`, `rank`), given how much of it SAN shows (`need`).
fn origin_forgiveness(
    role: Role,
    written: (Option<File>, Option<Rank>, bool),
    mv: &Move,
    need: (bool, bool),
) -> Forgiven {
    let (file, rank, capture) = written;
    let (need_file, need_rank) = need;
    let mut forgiven = Forgiven::empty();
    if capture && !mv.is_capture() {
        forgiven |= Forgiven::SUPERFLUOUS_CAPTURE;
    }
    if !capture && mv.is_capture() {
        forgiven |= Forgiven::MISSING_CAPTURE;
    }
    if (file.is_some() && !need_file) || (rank.is_some() && !need_rank) {
        forgiven |= Forgiven::OVER_DISAMBIGUATION;
    } else if need_file && file.is_none() && role == Role::Pawn {
        forgiven |= Forgiven::MISSING_PAWN_FILE;
    } else if (need_file && file.is_none()) || (need_rank && rank.is_none()) {
        // Told apart by the other coordinate than SAN's rule picks (`N1d2` for `Nbd2`).
        forgiven |= Forgiven::OVER_DISAMBIGUATION;
    }
    forgiven
}

/// How much of the origin square canonical SAN shows for a piece move.
fn disambiguation(
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

    /// Finds the legal move this SAN names in `pos`, without reporting forgiveness.
    ///
    /// # Errors
    /// [`SanError::Illegal`] or [`SanError::Ambiguous`].
    pub fn to_move(&self, pos: &Position) -> Result<Move, SanError> {
        let token = SanToken {
            kind: Kind::San(*self),
            suffix: None,
            forgiven: Forgiven::empty(),
            raw: Raw::from_display(self),
        };
        token.resolve_move(pos).map(|(m, _, _)| m)
    }
}

impl std::str::FromStr for San {
    type Err = SanError;
    /// Reads strict-enough SAN: any token [`SanToken`] reads that is not in coordinate form
    /// (a lower-case `b` is read as a pawn's file).
    fn from_str(s: &str) -> Result<San, SanError> {
        let token = SanToken::from_ascii(s.as_bytes())?;
        match token.kind {
            Kind::San(san) | Kind::PawnOrBishop { pawn: san, .. } => Ok(san),
            Kind::Coordinates { .. } => Err(SanError::Unreadable {
                token: s.to_string(),
                reason: "coordinates (such as e2e4) name squares, not a SAN move",
            }),
        }
    }
}

bitflags! {
    /// What was overlooked to read a move token: each flag is a departure from canonical SAN.
    /// So a token read with nothing forgiven is its move's SAN, check sign included, as
    /// [`Position::san`](crate::Position::san) writes it.
    ///
    /// ```
    /// use pgn::{Position, san::Forgiven};
    /// let pos = Position::new();
    /// assert_eq!(pos.resolve_san(b"nf3")?.forgiven, Forgiven::LOWERCASE_PIECE);
    /// assert_eq!(pos.resolve_san(b"Pe4")?.forgiven, Forgiven::PAWN_LETTER);
    /// let f = Forgiven::PAWN_LETTER | Forgiven::CHECK_SUFFIX;
    /// assert_eq!(f.descriptions().count(), 2);
    /// # Ok::<(), pgn::san::SanError>(())
    /// ```
    #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
    pub struct Forgiven: u32 {
        /// Castling written with zeros (`0-0`, `0-0-0`) or a lower-case `o`.
        const CASTLING_ZEROS = 1 << 0;
        /// A pawn move with a `P` (`Pe4`).
        const PAWN_LETTER = 1 << 1;
        /// A capture without `x` (`Nf3` taking on f3, `ed5`), or written with `-`.
        const MISSING_CAPTURE = 1 << 2;
        /// An `x` on a move that takes nothing.
        const SUPERFLUOUS_CAPTURE = 1 << 3;
        /// More of the origin square than needed (`Nb1d2`, `Ng1-f3`), or another part of it
        /// than SAN's rule picks (the rank where the file suffices).
        const OVER_DISAMBIGUATION = 1 << 4;
        /// A pawn capture without the pawn's file (`xd5`).
        const MISSING_PAWN_FILE = 1 << 5;
        /// Long algebraic notation: origin and target squares (`e2e4`, `e2-e4`, `Ng1-f3`,
        /// `e4xd5`).
        const LONG_ALGEBRAIC = 1 << 6;
        /// UCI: a lower-case promotion letter after the squares (`e7e8q`), or the king
        /// taking its own rook for castling (`e1h1`).
        const UCI = 1 << 7;
        /// A promotion not written `=Q`: `e8Q`, `e8(Q)`, `e8/Q`, `e8=q`.
        const PROMOTION_FORM = 1 << 8;
        /// A check or mate sign that does not match the position: `+` missing or extra, `#`
        /// for a mere check or `+` for mate, or `++`.
        const CHECK_SUFFIX = 1 << 9;
        /// A null move (`--`, `Z0`, `0000`): not a chess move, found in analysis.
        const NULL_MOVE = 1 << 10;
        /// A lower-case piece letter (`nf3`, or `bxc3` read as a bishop when no pawn can).
        const LOWERCASE_PIECE = 1 << 11;
        /// A figurine piece symbol (♘f3, ♞f6).
        const FIGURINE = 1 << 12;
        /// A dash written as another Unicode character than `-`: a hyphen, a non-breaking
        /// hyphen, an en or em dash, a minus sign (`O‑O`, `e2–e4`).
        const UNICODE_DASH = 1 << 13;
        /// Castling written as a king move: the king's two-square step (`Kg1`, `Kc8`) or,
        /// as Chess960 programs write it, the king taking its own rook (`Kxh1`).
        const KING_MOVE_CASTLING = 1 << 14;
        /// `e.p.` written after the move (`exd6e.p.`, `exd6ep`), as old files mark en
        /// passant captures. (Written apart, `exd6 e.p.`, the mark is a token of its own,
        /// and no move.)
        const EN_PASSANT_MARK = 1 << 15;
        /// A crazyhouse pawn drop without its letter (`@e4` for `P@e4`).
        const BARE_PAWN_DROP = 1 << 16;
    }
}

impl Forgiven {
    /// A sentence for each flag set, in flag order, for warnings.
    pub fn descriptions(self) -> impl Iterator<Item = &'static str> {
        const TEXT: [&str; 17] = [
            "castling written with zeros or lower-case o",
            "pawn move written with the letter P",
            "capture written without x",
            "x written on a move that captures nothing",
            "origin square given more fully than needed",
            "pawn capture without the pawn's file",
            "move written in long algebraic notation",
            "move written in UCI notation",
            "promotion not written as =Q, =R, =B or =N",
            "check or mate sign missing or wrong",
            "null move",
            "piece letter in lower case",
            "figurine piece symbol",
            "dash written as another character than -",
            "castling written as a king move",
            "e.p. written after the move",
            "pawn drop written without the letter P",
        ];
        (0..TEXT.len()).filter_map(move |i| (self.bits() & (1 << i) != 0).then_some(TEXT[i]))
    }
}

impl fmt::Display for Forgiven {
    /// The descriptions of the flags set, joined by `; ` (`nothing forgiven` when none is).
    ///
    /// ```
    /// use pgn::Forgiven;
    /// let f = Forgiven::LONG_ALGEBRAIC | Forgiven::OVER_DISAMBIGUATION;
    /// assert_eq!(
    ///     f.to_string(),
    ///     "origin square given more fully than needed; move written in long algebraic notation"
    /// );
    /// assert_eq!(Forgiven::empty().to_string(), "nothing forgiven");
    /// ```
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_empty() {
            return f.write_str("nothing forgiven");
        }
        for (i, text) in self.descriptions().enumerate() {
            if i > 0 {
                f.write_str("; ")?;
            }
            f.write_str(text)?;
        }
        Ok(())
    }
}

/// Why a token could not be read or resolved.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SanError {
    /// The token is not a move at all.
    #[error("`{token}` is not a move: {reason}")]
    Unreadable {
        /// The token.
        token: String,
        /// What is wrong with it.
        reason: &'static str,
    },
    /// The token reads as a move, but no legal move matches it.
    #[error("illegal move `{token}`: {reason}")]
    Illegal {
        /// The token.
        token: String,
        /// Why no legal move matches.
        reason: IllegalReason,
    },
    /// Several legal moves match the token.
    #[error("ambiguous move `{token}`: could be {}", candidates.join(" or "))]
    Ambiguous {
        /// The token.
        token: String,
        /// The canonical SAN of each matching legal move.
        candidates: Vec<String>,
    },
}

/// Why no legal move matches a token.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum IllegalReason {
    /// No piece of that kind (within the given file or rank) moves to the target square.
    #[error("no {color} {role} can move to {to}")]
    NoPiece {
        /// The side to move.
        color: Color,
        /// The piece named.
        role: Role,
        /// The target square.
        to: Square,
    },
    /// A piece could get there, but the move would leave the own king in check.
    #[error("a {role} could reach {to}, but that would leave the {color} king in check")]
    KingInCheck {
        /// The side to move.
        color: Color,
        /// The piece named.
        role: Role,
        /// The target square.
        to: Square,
    },
    /// A pawn reaches the last rank without saying what it becomes.
    #[error("a pawn reaching the last rank must promote (=Q, =R, =B or =N)")]
    MissingPromotion,
    /// A promotion on a move that cannot promote.
    #[error("only a pawn reaching the last rank promotes")]
    BadPromotion,
    /// Castling is not possible.
    #[error(
        "castling {0} is not possible (no right, or the king is in check, or the way is blocked or attacked)"
    )]
    Castling(CastlingSide),
    /// A null move while in check.
    #[error("a null move is not allowed while in check")]
    NullMoveInCheck,
    /// Coordinates whose origin holds no piece of the side to move.
    #[error("there is no {color} piece on {from}")]
    EmptyOrigin {
        /// The side to move.
        color: Color,
        /// The origin square.
        from: Square,
    },
    /// The side to move has no king.
    #[error("the side to move has no king")]
    NoKing,
    /// Crazyhouse: the drop is not possible.
    #[error("no {color} {role} in hand can be dropped on {to}")]
    Drop {
        /// The side to move.
        color: Color,
        /// The piece named.
        role: Role,
        /// The target square.
        to: Square,
    },
    /// Antichess: a capture is possible, so the move must be one.
    #[error("a capture is possible, and captures are compulsory")]
    CaptureCompulsory,
    /// The game is over by the variant's rule; no move follows.
    #[error("the game is over ({0})")]
    GameOver(crate::Outcome),
    /// A drop outside crazyhouse.
    #[error("drops exist only in crazyhouse")]
    NotCrazyhouse,
}

/// The original token, for error messages (at most 32 bytes are kept).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Raw {
    len: u8,
    bytes: [u8; 32],
}

impl Raw {
    #[inline]
    fn new(token: &[u8]) -> Raw {
        let mut bytes = [0; 32];
        let len = token.len().min(32);
        bytes[..len].copy_from_slice(&token[..len]);
        Raw {
            len: len as u8,
            bytes,
        }
    }
    fn from_display(x: &impl fmt::Display) -> Raw {
        Raw::new(x.to_string().as_bytes())
    }
    fn text(&self) -> String {
        String::from_utf8_lossy(&self.bytes[..usize::from(self.len).min(32)]).into_owned()
    }
}

/// A coordinate token's separator.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
enum Separator {
    None,
    Dash,
    Capture,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
enum Kind {
    /// A SAN move (possibly over-disambiguated, possibly in long algebraic with a piece letter).
    San(San),
    /// A token starting with a lower-case `b`: a pawn move from the b-file, or else a bishop move.
    PawnOrBishop { pawn: San, bishop: San },
    /// Origin and target squares without a piece letter: `e2e4`, `e7e8q`, `e4xd5`, `e1h1`.
    Coordinates {
        from: Square,
        to: Square,
        separator: Separator,
        promotion: Option<Role>,
        /// Promotion written as a bare lower-case letter (`e7e8q`).
        uci_promotion: bool,
    },
}

/// A move token as read from a file: the move it names, its suffix, and what was forgiven in
/// its spelling. Resolve it in a position with [`SanToken::resolve`].
///
/// ```
/// use pgn::{san::{Forgiven, SanToken}, Position};
/// let token = SanToken::from_ascii("♘f3".as_bytes())?;
/// let r = token.resolve(&Position::new())?;
/// assert_eq!(r.forgiven, Forgiven::FIGURINE);
/// assert_eq!(r.san().to_string(), "Nf3");
/// # Ok::<(), pgn::san::SanError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SanToken {
    kind: Kind,
    /// The check or mate sign written after the move.
    pub suffix: Option<Suffix>,
    /// What was forgiven in the spelling alone (more is found when resolving).
    pub forgiven: Forgiven,
    raw: Raw,
}

/// A token resolved to a legal move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Resolved {
    /// The move.
    pub mv: Move,
    /// Everything the token got wrong about the move's canonical SAN.
    pub forgiven: Forgiven,
    /// The position after the move (it had to be played to check the suffix).
    pub after: Position,
    san: SanPlus,
}

impl Resolved {
    /// The move's canonical SAN with its suffix.
    pub fn san(&self) -> SanPlus {
        self.san
    }
}

fn unreadable(token: &[u8], reason: &'static str) -> SanError {
    SanError::Unreadable {
        token: String::from_utf8_lossy(token).into_owned(),
        reason,
    }
}

/// Reads `[file][rank]` (each optional) covering all of `s`.
fn origin(s: &[u8]) -> Option<(Option<File>, Option<Rank>)> {
    match s {
        [] => Some((None, None)),
        [c] => match (File::from_byte(*c), Rank::from_byte(*c)) {
            (Some(f), _) => Some((Some(f), None)),
            (_, Some(r)) => Some((None, Some(r))),
            _ => None,
        },
        [f, r] => Some((Some(File::from_byte(*f)?), Some(Rank::from_byte(*r)?))),
        _ => None,
    }
}

fn promotion_role(b: u8) -> Option<(Role, bool)> {
    match b {
        b'K' => Some((Role::King, false)),
        b'k' => Some((Role::King, true)),
        b'Q' => Some((Role::Queen, false)),
        b'R' => Some((Role::Rook, false)),
        b'B' => Some((Role::Bishop, false)),
        b'N' => Some((Role::Knight, false)),
        b'q' => Some((Role::Queen, true)),
        b'r' => Some((Role::Rook, true)),
        b'b' => Some((Role::Bishop, true)),
        b'n' => Some((Role::Knight, true)),
        _ => None,
    }
}

impl SanToken {
    /// Reads a move token (SAN and the lenient forms listed under [`Forgiven`]), with an
    /// optional `+`, `#` or `++` suffix. Annotation signs (`!`, `?`) must already be gone.
    ///
    /// # Errors
    /// [`SanError::Unreadable`] if the token is not a move in any accepted form.
    pub fn from_ascii(token: &[u8]) -> Result<SanToken, SanError> {
        let mut forgiven = Forgiven::empty();
        const MAX: usize = 24;
        let mut buf = [0u8; MAX];
        let mut s: &[u8] = if token.is_ascii() {
            token
        } else {
            // Figurines become letters.
            let mut len = 0;
            let mut i = 0;
            while i < token.len() {
                let b = token[i];
                let c = if b.is_ascii() {
                    i += 1;
                    b
                } else if let [0xe2, 0x99, x @ 0x94..=0x9f, ..] = token[i..] {
                    forgiven |= Forgiven::FIGURINE;
                    i += 3;
                    b"KQRBNP"[usize::from(x - 0x94) % 6]
                } else if let [0xe2, 0x80, 0x90..=0x95, ..] | [0xe2, 0x88, 0x92, ..] = token[i..] {
                    // U+2010 to U+2015 (hyphens and dashes), U+2212 (minus sign).
                    forgiven |= Forgiven::UNICODE_DASH;
                    i += 3;
                    b'-'
                } else {
                    return Err(unreadable(
                        token,
                        "unexpected character (not ASCII, a chess figurine or a dash)",
                    ));
                };
                match buf.get_mut(len) {
                    Some(slot) => *slot = c,
                    None => return Err(unreadable(token, "too long for a move")),
                }
                len += 1;
            }
            &buf[..len]
        };
        if s.len() > MAX {
            return Err(unreadable(token, "too long for a move"));
        }

        // `e.p.` (or `ep`) before any check sign: taken out, the signs kept.
        let mut unmarked = [0u8; MAX];
        let signs = s
            .iter()
            .rev()
            .take_while(|&&b| matches!(b, b'+' | b'#'))
            .count();
        let (body, sign_bytes) = s.split_at(s.len() - signs);
        if let Some(rest) = body
            .strip_suffix(b"e.p.")
            .or_else(|| body.strip_suffix(b"ep"))
        {
            let rest = rest.trim_ascii_end();
            let len = rest.len() + sign_bytes.len();
            unmarked[..rest.len()].copy_from_slice(rest);
            unmarked[rest.len()..len].copy_from_slice(sign_bytes);
            s = &unmarked[..len];
            forgiven |= Forgiven::EN_PASSANT_MARK;
        }
        let mut suffix = None;
        if let Some(rest) = s.strip_suffix(b"++") {
            s = rest;
            suffix = Some(Suffix::Check);
            forgiven |= Forgiven::CHECK_SUFFIX;
        } else if let Some(rest) = s.strip_suffix(b"#") {
            s = rest;
            suffix = Some(Suffix::Checkmate);
        } else if let Some(rest) = s.strip_suffix(b"+") {
            s = rest;
            suffix = Some(Suffix::Check);
        }

        let make = |kind, forgiven| SanToken {
            kind,
            suffix,
            forgiven,
            raw: Raw::new(token),
        };

        match s {
            b"--" | b"Z0" | b"0000" => {
                return Ok(make(Kind::San(San::Null), forgiven | Forgiven::NULL_MOVE));
            }
            [piece @ .., b'@', f, r] if piece.len() <= 1 => {
                let to = Square::from_ascii(&[*f, *r])
                    .map_err(|_| unreadable(token, "no square (such as e4) after `@`"))?;
                let role = match piece.first() {
                    None => {
                        forgiven |= Forgiven::BARE_PAWN_DROP;
                        Role::Pawn
                    }
                    Some(&c) => {
                        let role = Role::from_upper_byte(c.to_ascii_uppercase())
                            .filter(|&r| r != Role::King)
                            .ok_or_else(|| {
                                unreadable(token, "only P, N, B, R or Q can be dropped")
                            })?;
                        if c.is_ascii_lowercase() {
                            forgiven |= Forgiven::LOWERCASE_PIECE;
                        }
                        role
                    }
                };
                return Ok(make(Kind::San(San::Put { role, to }), forgiven));
            }
            b"O-O" => {
                return Ok(make(
                    Kind::San(San::Castle(CastlingSide::KingSide)),
                    forgiven,
                ));
            }
            b"O-O-O" => {
                return Ok(make(
                    Kind::San(San::Castle(CastlingSide::QueenSide)),
                    forgiven,
                ));
            }
            _ => {}
        }
        if s.len() == 3 || s.len() == 5 {
            let castle = s.iter().enumerate().all(|(i, &c)| {
                if i % 2 == 1 {
                    c == b'-'
                } else {
                    matches!(c, b'O' | b'0' | b'o')
                }
            });
            if castle {
                let side = if s.len() == 3 {
                    CastlingSide::KingSide
                } else {
                    CastlingSide::QueenSide
                };
                return Ok(make(
                    Kind::San(San::Castle(side)),
                    forgiven | Forgiven::CASTLING_ZEROS,
                ));
            }
        }

        // Promotion, read from the end.
        let mut promotion = None;
        // `Some(lower)` for a bare letter right after the square (`e8Q`, `e7e8q`).
        let mut bare_promotion = None;
        if let Some(rest) = s.strip_suffix(b")") {
            match rest {
                [head @ .., b'(', p] if head.len() >= 2 => {
                    let (role, _) = promotion_role(*p).ok_or_else(|| {
                        unreadable(
                            token,
                            "promotion must be to Q, R, B or N (or K in antichess)",
                        )
                    })?;
                    promotion = Some(role);
                    forgiven |= Forgiven::PROMOTION_FORM;
                    s = head;
                }
                _ => return Err(unreadable(token, "unexpected `)`")),
            }
        } else if let [head @ .., sep, p] = s {
            match (sep, promotion_role(*p)) {
                (b'=', Some((role, lower))) if head.len() >= 2 => {
                    if lower {
                        forgiven |= Forgiven::PROMOTION_FORM;
                    }
                    promotion = Some(role);
                    s = head;
                }
                (b'/', Some((role, _))) if head.len() >= 2 => {
                    forgiven |= Forgiven::PROMOTION_FORM;
                    promotion = Some(role);
                    s = head;
                }
                (b'1'..=b'8', Some((role, lower))) if !head.is_empty() => {
                    promotion = Some(role);
                    bare_promotion = Some(lower);
                    s = &s[..s.len() - 1];
                }
                (b'=' | b'/', None) => {
                    return Err(unreadable(
                        token,
                        "promotion must be to Q, R, B or N (or K in antichess)",
                    ));
                }
                _ => {}
            }
        }

        // Target square.
        let Some((to_bytes, mut rest)) = s.split_last_chunk::<2>().map(|(rest, to)| (*to, rest))
        else {
            return Err(unreadable(token, "no target square"));
        };
        let to = Square::from_ascii(&to_bytes)
            .map_err(|_| unreadable(token, "no target square (such as e4) at the end"))?;

        let mut separator = Separator::None;
        if let Some(r) = rest.strip_suffix(b"x") {
            separator = Separator::Capture;
            rest = r;
        } else if let Some(r) = rest.strip_suffix(b"-") {
            separator = Separator::Dash;
            rest = r;
        }

        // Piece letter.
        let (role, lower, body): (Option<Role>, bool, &[u8]) = match rest.first() {
            Some(&c @ (b'K' | b'Q' | b'R' | b'B' | b'N')) => {
                (Role::from_upper_byte(c), false, &rest[1..])
            }
            Some(b'P') => {
                forgiven |= Forgiven::PAWN_LETTER;
                (Some(Role::Pawn), false, &rest[1..])
            }
            Some(b'p') => {
                forgiven |= Forgiven::PAWN_LETTER;
                (Some(Role::Pawn), true, &rest[1..])
            }
            Some(&c @ (b'k' | b'q' | b'r' | b'n')) => (
                Role::from_upper_byte(c.to_ascii_uppercase()),
                true,
                &rest[1..],
            ),
            _ => (None, false, rest),
        };
        if lower {
            forgiven |= Forgiven::LOWERCASE_PIECE;
        }

        let capture = separator == Separator::Capture;
        let normal = |role: Role, (file, rank): (Option<File>, Option<Rank>)| San::Normal {
            role,
            file,
            rank,
            capture,
            to,
            promotion,
        };
        // Without a piece letter, a leading lower-case `b` is a pawn's file or a bishop.
        let mut role = role;
        let mut bishop_from = None;
        if role.is_none() && body.first() == Some(&b'b') {
            bishop_from = origin(&body[1..]);
        }
        let from = match (origin(body), bishop_from) {
            (Some(from), _) => from,
            (None, Some(from)) => {
                // Only the bishop reading makes sense (`bb1c2`).
                role = Some(Role::Bishop);
                bishop_from = None;
                forgiven |= Forgiven::LOWERCASE_PIECE;
                from
            }
            (None, None) => {
                return Err(unreadable(
                    token,
                    "cannot read the origin before the target square",
                ));
            }
        };

        if role.is_none() {
            if let (Some(file), Some(rank)) = from {
                // Coordinates: the piece is whatever stands on the origin.
                let from = Square::from_coords(file, rank);
                if bare_promotion == Some(false) {
                    // `e7e8Q`: a bare upper-case letter.
                    forgiven |= Forgiven::PROMOTION_FORM;
                }
                return Ok(make(
                    Kind::Coordinates {
                        from,
                        to,
                        separator,
                        promotion,
                        uci_promotion: bare_promotion == Some(true),
                    },
                    forgiven,
                ));
            }
        }
        if separator == Separator::Dash {
            if role.is_none() || from.0.is_none() || from.1.is_none() {
                return Err(unreadable(
                    token,
                    "a `-` needs the full origin square, as in Ng1-f3",
                ));
            }
            forgiven |= Forgiven::LONG_ALGEBRAIC;
        }
        if bare_promotion.is_some() {
            // `e8Q` or `e8q`: a bare letter after the square.
            forgiven |= Forgiven::PROMOTION_FORM;
        }

        let kind = match (role, bishop_from) {
            (Some(role), _) => Kind::San(normal(role, from)),
            (None, Some(bishop_from)) => Kind::PawnOrBishop {
                pawn: normal(Role::Pawn, from),
                bishop: normal(Role::Bishop, bishop_from),
            },
            (None, None) => Kind::San(normal(Role::Pawn, from)),
        };
        Ok(make(kind, forgiven))
    }

    /// The move named, as SAN (`None` for coordinates such as `e2e4`). For a token starting
    /// with a lower-case `b`, the pawn reading.
    pub fn san(&self) -> Option<San> {
        match self.kind {
            Kind::San(san) | Kind::PawnOrBishop { pawn: san, .. } => Some(san),
            Kind::Coordinates { .. } => None,
        }
    }

    /// Finds the legal move the token names, and everything forgiven on the way.
    ///
    /// # Errors
    /// [`SanError::Illegal`] if no legal move matches, [`SanError::Ambiguous`] if several do.
    pub fn resolve(&self, pos: &Position) -> Result<Resolved, SanError> {
        let (mv, mut forgiven, san) = self.resolve_move(pos)?;
        let after = pos.play(&mv);
        let suffix = Suffix::for_position(&after);
        if self.suffix != suffix {
            forgiven |= Forgiven::CHECK_SUFFIX;
        }
        Ok(Resolved {
            mv,
            forgiven,
            after,
            san: SanPlus {
                san: san.unwrap_or_else(|| San::from_move(pos, &mv)),
                suffix,
            },
        })
    }

    /// Castling written as a king move that is not legal as one (`Kg1`, `Kxh1`): the
    /// king's castling square, or its own rook's square, on a side it may castle to.
    /// `None` if `to` is neither.
    fn king_move_castling(
        &self,
        pos: &Position,
        ctx: &Context,
        to: Square,
    ) -> Option<Result<(Move, CastlingSide), SanError>> {
        let side = CastlingSide::ALL.into_iter().find(|&side| {
            pos.castles().has(ctx.us, side)
                && (side.king_to(ctx.us) == to || pos.castles().rook(ctx.us, side) == Some(to))
        })?;
        Some(match movegen::castle_rook_if_legal(pos, ctx, side) {
            Some(rook) => Ok((
                Move::Castle {
                    king: ctx.king,
                    rook,
                },
                side,
            )),
            None => Err(self.illegal(IllegalReason::Castling(side))),
        })
    }

    fn illegal(&self, reason: IllegalReason) -> SanError {
        SanError::Illegal {
            token: self.raw.text(),
            reason,
        }
    }

    /// The move, the forgiveness found (without the suffix check), and the canonical SAN if
    /// it came for free.
    fn resolve_move(&self, pos: &Position) -> Result<(Move, Forgiven, Option<San>), SanError> {
        if pos.ruleset() != crate::Ruleset::Chess {
            return self.resolve_in_variant(pos);
        }
        let Some(ctx) = Context::new(pos) else {
            return Err(self.illegal(IllegalReason::NoKing));
        };
        let forgiven = self.forgiven;
        match self.kind {
            Kind::San(san) => self
                .resolve_san(pos, &ctx, san, forgiven)
                .map(|(m, f, s)| (m, f, Some(s))),
            Kind::PawnOrBishop { pawn, bishop } => {
                let result = match self.resolve_san(pos, &ctx, pawn, forgiven) {
                    Err(pawn_error @ SanError::Illegal { .. }) => {
                        match self.resolve_san(
                            pos,
                            &ctx,
                            bishop,
                            forgiven | Forgiven::LOWERCASE_PIECE,
                        ) {
                            Err(SanError::Illegal { .. }) => Err(pawn_error),
                            other => other,
                        }
                    }
                    other => other,
                };
                result.map(|(m, f, s)| (m, f, Some(s)))
            }
            Kind::Coordinates {
                from,
                to,
                separator,
                promotion,
                uci_promotion,
            } => self
                .resolve_coordinates(
                    pos,
                    &ctx,
                    from,
                    to,
                    separator,
                    promotion,
                    uci_promotion,
                    forgiven,
                )
                .map(|(m, f)| (m, f, None)),
        }
    }

    fn resolve_san(
        &self,
        pos: &Position,
        ctx: &Context,
        san: San,
        mut forgiven: Forgiven,
    ) -> Result<(Move, Forgiven, San), SanError> {
        match san {
            San::Null => {
                if ctx.checkers.any() {
                    Err(self.illegal(IllegalReason::NullMoveInCheck))
                } else {
                    Ok((Move::Null, forgiven, San::Null))
                }
            }
            San::Put { .. } => Err(self.illegal(IllegalReason::NotCrazyhouse)),
            San::Castle(side) => match movegen::castle_rook_if_legal(pos, ctx, side) {
                Some(rook) => Ok((
                    Move::Castle {
                        king: ctx.king,
                        rook,
                    },
                    forgiven,
                    san,
                )),
                None => Err(self.illegal(IllegalReason::Castling(side))),
            },
            San::Normal {
                role,
                file,
                rank,
                capture,
                to,
                promotion,
            } => {
                let mut mask = Bitboard::FULL;
                if let Some(f) = file {
                    mask &= Bitboard::file(f);
                }
                if let Some(r) = rank {
                    mask &= Bitboard::rank(r);
                }
                let origins = movegen::legal_origins(pos, ctx, role, to, mask);
                let from = match origins.single_square() {
                    Some(from) => from,
                    None if origins.is_empty() => {
                        if role == Role::King && promotion.is_none() && mask.contains(ctx.king) {
                            if let Some(castle) = self.king_move_castling(pos, ctx, to) {
                                return castle.map(|(mv, side)| {
                                    (
                                        mv,
                                        forgiven | Forgiven::KING_MOVE_CASTLING,
                                        San::Castle(side),
                                    )
                                });
                            }
                        }
                        return Err(self.no_move(pos, ctx, role, to, mask));
                    }
                    None => return Err(self.ambiguous(pos, role, origins, to, promotion)),
                };
                let mv = self.build(pos, role, from, to, promotion)?;
                let (need_file, need_rank) = if role == Role::Pawn {
                    (from.file() != to.file(), false)
                } else if file.is_none() && rank.is_none() {
                    // Unique among all legal moves of the piece: no disambiguation needed.
                    (false, false)
                } else {
                    disambiguation(pos, ctx, role, from, to)
                };
                forgiven |=
                    origin_forgiveness(role, (file, rank, capture), &mv, (need_file, need_rank));
                let san = match mv {
                    Move::Normal { capture, .. } => San::Normal {
                        role,
                        file: need_file.then_some(from.file()),
                        rank: need_rank.then_some(from.rank()),
                        capture: capture.is_some(),
                        to,
                        promotion,
                    },
                    _ => San::from_move(pos, &mv),
                };
                Ok((mv, forgiven, san))
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn resolve_coordinates(
        &self,
        pos: &Position,
        ctx: &Context,
        from: Square,
        to: Square,
        separator: Separator,
        promotion: Option<Role>,
        uci_promotion: bool,
        mut forgiven: Forgiven,
    ) -> Result<(Move, Forgiven), SanError> {
        let board = pos.board();
        let role = match board.role_at(from) {
            Some(role) if ctx.our.contains(from) => role,
            _ => {
                return Err(self.illegal(IllegalReason::EmptyOrigin {
                    color: ctx.us,
                    from,
                }));
            }
        };
        forgiven |= if uci_promotion {
            Forgiven::UCI
        } else {
            Forgiven::LONG_ALGEBRAIC
        };
        if role == Role::King && from == ctx.king {
            // King takes own rook: castling as in Chess960 UCI.
            if (board.rooks() & ctx.our).contains(to) {
                for side in CastlingSide::ALL {
                    if pos.castles().rook(ctx.us, side) == Some(to) {
                        return match movegen::castle_rook_if_legal(pos, ctx, side) {
                            Some(rook) if promotion.is_none() => Ok((
                                Move::Castle { king: from, rook },
                                (forgiven - Forgiven::LONG_ALGEBRAIC) | Forgiven::UCI,
                            )),
                            _ => Err(self.illegal(IllegalReason::Castling(side))),
                        };
                    }
                }
            }
            let steps = movegen::legal_origins(pos, ctx, Role::King, to, Bitboard::from(from));
            if steps.is_empty() && promotion.is_none() {
                // The king's two-square step of standard castling (`e1g1`).
                for side in CastlingSide::ALL {
                    if side.king_to(ctx.us) == to && pos.castles().has(ctx.us, side) {
                        return match movegen::castle_rook_if_legal(pos, ctx, side) {
                            Some(rook) => Ok((Move::Castle { king: from, rook }, forgiven)),
                            None => Err(self.illegal(IllegalReason::Castling(side))),
                        };
                    }
                }
            }
        }
        let origins = movegen::legal_origins(pos, ctx, role, to, Bitboard::from(from));
        if origins.is_empty() {
            return Err(self.no_move(pos, ctx, role, to, Bitboard::from(from)));
        }
        let mv = self.build(pos, role, from, to, promotion)?;
        match separator {
            Separator::Capture if !mv.is_capture() => forgiven |= Forgiven::SUPERFLUOUS_CAPTURE,
            Separator::Dash if mv.is_capture() => forgiven |= Forgiven::MISSING_CAPTURE,
            _ => {}
        }
        Ok((mv, forgiven))
    }

    /// The move of `role` from `from` to `to`, checking the promotion.
    fn build(
        &self,
        pos: &Position,
        role: Role,
        from: Square,
        to: Square,
        promotion: Option<Role>,
    ) -> Result<Move, SanError> {
        if role == Role::Pawn && Some(to) == pos.ep_square() && from.file() != to.file() {
            if promotion.is_some() {
                return Err(self.illegal(IllegalReason::BadPromotion));
            }
            return Ok(Move::EnPassant { from, to });
        }
        let last_rank = Bitboard::backrank(!pos.turn()).contains(to);
        match (role == Role::Pawn && last_rank, promotion) {
            (true, None) => return Err(self.illegal(IllegalReason::MissingPromotion)),
            (false, Some(_)) | (true, Some(Role::King | Role::Pawn)) => {
                return Err(self.illegal(IllegalReason::BadPromotion));
            }
            _ => {}
        }
        Ok(Move::Normal {
            role,
            from,
            capture: pos.board().role_at(to),
            to,
            promotion,
        })
    }

    /// The error for a SAN with no matching legal move: tells "nothing gets there" from "it
    /// would leave the king in check".
    fn no_move(
        &self,
        pos: &Position,
        ctx: &Context,
        role: Role,
        to: Square,
        mask: Bitboard,
    ) -> SanError {
        let reach = movegen::pseudo_origins(pos, ctx, role, to, mask);
        self.illegal(if reach.any() {
            IllegalReason::KingInCheck {
                color: ctx.us,
                role,
                to,
            }
        } else {
            IllegalReason::NoPiece {
                color: ctx.us,
                role,
                to,
            }
        })
    }

    fn ambiguous(
        &self,
        pos: &Position,
        role: Role,
        origins: Bitboard,
        to: Square,
        promotion: Option<Role>,
    ) -> SanError {
        let candidates = origins
            .map(|from| match self.build(pos, role, from, to, promotion) {
                Ok(m) => SanPlus::from_move(pos, &m).to_string(),
                Err(_) => format!(
                    "{}{from}-{to}",
                    if role == Role::Pawn {
                        String::new()
                    } else {
                        role.upper_char().to_string()
                    }
                ),
            })
            .collect();
        SanError::Ambiguous {
            token: self.raw.text(),
            candidates,
        }
    }
}

impl std::str::FromStr for SanToken {
    type Err = SanError;
    fn from_str(s: &str) -> Result<SanToken, SanError> {
        SanToken::from_ascii(s.as_bytes())
    }
}

impl Position {
    /// Reads a move token and resolves it in this position; see [`SanToken`].
    ///
    /// # Errors
    /// [`SanError`]: unreadable, illegal or ambiguous.
    #[inline]
    pub fn resolve_san(&self, token: &[u8]) -> Result<Resolved, SanError> {
        match quick::resolve(self, token) {
            Some(resolved) => Ok(resolved),
            None => self.resolve_san_slowly(token),
        }
    }

    /// [`Position::resolve_san`] past the fast path of standard chess: the variants' own
    /// fast path, then the general one.
    #[inline(never)]
    fn resolve_san_slowly(&self, token: &[u8]) -> Result<Resolved, SanError> {
        if self.ruleset() != crate::Ruleset::Chess {
            if let Some(resolved) = quick::resolve_in_variant(self, token) {
                return Ok(resolved);
            }
        }
        SanToken::from_ascii(token)?.resolve(self)
    }

    /// Reads a move token, resolves it and plays it in this position, returning the move and
    /// what was forgiven: [`Position::resolve_san`] without a copy of the position, for
    /// readers that only go forward. On error the position is unchanged.
    ///
    /// ```
    /// use pgn::{Forgiven, Position};
    /// let mut pos = Position::new();
    /// let (_, forgiven) = pos.play_san(b"e4")?;
    /// assert!(forgiven.is_empty());
    /// let (_, forgiven) = pos.play_san(b"Ng8-f6")?;
    /// assert_eq!(forgiven, Forgiven::OVER_DISAMBIGUATION | Forgiven::LONG_ALGEBRAIC);
    /// assert!(pos.play_san(b"Ke3").is_err());
    /// assert_eq!(pos.to_fen(), "rnbqkb1r/pppppppp/5n2/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 1 2");
    /// # Ok::<(), pgn::SanError>(())
    /// ```
    ///
    /// # Errors
    /// [`SanError`]: unreadable, illegal or ambiguous.
    #[inline]
    pub fn play_san(&mut self, token: &[u8]) -> Result<(Move, Forgiven), SanError> {
        if let Some(played) = quick::play(self, token) {
            return Ok(played);
        }
        self.play_san_slowly(token)
    }

    /// [`Position::play_san`] past the fast path of standard chess.
    #[inline(never)]
    fn play_san_slowly(&mut self, token: &[u8]) -> Result<(Move, Forgiven), SanError> {
        if self.ruleset() != crate::Ruleset::Chess {
            if let Some(played) = quick::play_in_variant(self, token) {
                return Ok(played);
            }
        }
        let resolved = SanToken::from_ascii(token)?.resolve(self)?;
        *self = resolved.after;
        Ok((resolved.mv, resolved.forgiven))
    }

    /// The canonical SAN of a legal move, with `+` or `#`.
    pub fn san(&self, m: &Move) -> SanPlus {
        SanPlus::from_move(self, m)
    }
}

/// A fast path for the tokens of nearly every real game: SAN as the standard writes it,
/// naming a move that no other piece of its kind could make. It finds the move without
/// setting up a full move-generation context, and gives exactly what the general path
/// gives; anything else (castling, disambiguation, en passant, several candidates, any
/// lenient form, any error) is left to the general path by returning `None`.
mod quick {
    use super::{Forgiven, Resolved, San, SanPlus, Suffix};
    use crate::attacks::{
        bishop_attacks, king_attacks, knight_attacks, pawn_attacks, rook_attacks,
    };
    use crate::movegen::{self, Context};
    use crate::{Bitboard, CastlingSide, Color, File, Move, Position, Rank, Role, Square};

    /// The parts of a canonical SAN token.
    struct Parsed {
        role: Role,
        /// The pawn's file of a pawn capture, or the file of a piece told apart by it.
        file: Option<File>,
        /// The rank of a piece told apart by it.
        rank: Option<Rank>,
        /// Castling.
        castle: Option<CastlingSide>,
        capture: bool,
        to: Square,
        promotion: Option<Role>,
        suffix: Option<Suffix>,
    }

    #[inline]
    fn square(f: u8, r: u8) -> Option<Square> {
        Some(Square::from_coords(
            File::from_byte(f)?,
            Rank::from_byte(r)?,
        ))
    }

    #[inline]
    fn promotion(b: u8) -> Option<Role> {
        match b {
            b'Q' => Some(Role::Queen),
            b'R' => Some(Role::Rook),
            b'B' => Some(Role::Bishop),
            b'N' => Some(Role::Knight),
            _ => None,
        }
    }

    #[inline(always)]
    fn parse(token: &[u8]) -> Option<Parsed> {
        let (body, suffix) = match token {
            [body @ .., b'+'] => (body, Some(Suffix::Check)),
            [body @ .., b'#'] => (body, Some(Suffix::Checkmate)),
            body => (body, None),
        };
        let parsed = |role, file, capture, to, promotion| {
            Some(Parsed {
                role,
                file,
                rank: None,
                castle: None,
                capture,
                to,
                promotion,
                suffix,
            })
        };
        let told_apart = |p: u8, by: u8, capture: bool, f: u8, r: u8| {
            let mut parsed = parsed(
                Role::from_upper_byte(p)?,
                None,
                capture,
                square(f, r)?,
                None,
            )?;
            match by {
                b'a'..=b'h' => parsed.file = File::from_byte(by),
                _ => parsed.rank = Some(Rank::from_byte(by)?),
            }
            Some(parsed)
        };
        let castle = |side| {
            Some(Parsed {
                role: Role::King,
                file: None,
                rank: None,
                castle: Some(side),
                capture: false,
                to: Square::A1,
                promotion: None,
                suffix,
            })
        };
        match *body {
            [b'O', b'-', b'O'] => castle(CastlingSide::KingSide),
            [b'O', b'-', b'O', b'-', b'O'] => castle(CastlingSide::QueenSide),
            [p @ (b'N' | b'B' | b'R' | b'Q' | b'K'), f, r] => {
                parsed(Role::from_upper_byte(p)?, None, false, square(f, r)?, None)
            }
            [p @ (b'N' | b'B' | b'R' | b'Q' | b'K'), b'x', f, r] => {
                parsed(Role::from_upper_byte(p)?, None, true, square(f, r)?, None)
            }
            [
                p @ (b'N' | b'B' | b'R' | b'Q'),
                by @ (b'a'..=b'h' | b'1'..=b'8'),
                f,
                r,
            ] => told_apart(p, by, false, f, r),
            [
                p @ (b'N' | b'B' | b'R' | b'Q'),
                by @ (b'a'..=b'h' | b'1'..=b'8'),
                b'x',
                f,
                r,
            ] => told_apart(p, by, true, f, r),
            [f @ b'a'..=b'h', r] => parsed(Role::Pawn, None, false, square(f, r)?, None),
            [f @ b'a'..=b'h', r, b'=', p] => {
                parsed(Role::Pawn, None, false, square(f, r)?, Some(promotion(p)?))
            }
            [from @ b'a'..=b'h', b'x', f, r] => parsed(
                Role::Pawn,
                Some(File::from_byte(from)?),
                true,
                square(f, r)?,
                None,
            ),
            [from @ b'a'..=b'h', b'x', f, r, b'=', p] => parsed(
                Role::Pawn,
                Some(File::from_byte(from)?),
                true,
                square(f, r)?,
                Some(promotion(p)?),
            ),
            _ => None,
        }
    }

    /// `true` if moving our piece from `from` to `to` (taking what stands there) leaves our
    /// king on `king` attacked, given that the king is attacked by nothing that the move
    /// does not take or block.
    #[inline(always)]
    fn exposes_king(pos: &Position, us: Color, king: Square, from: Square, to: Square) -> bool {
        let board = pos.board();
        let their = board.by_color(!us).without(to);
        let occ = board.occupied().without(from).with(to);
        (rook_attacks(king, occ) & board.rooks_and_queens() & their).any()
            || (bishop_attacks(king, occ) & board.bishops_and_queens() & their).any()
    }

    /// `true` if our piece (not the king) on `from` may move to `to`.
    #[inline(always)]
    fn is_legal(pos: &Position, us: Color, king: Square, from: Square, to: Square) -> bool {
        let board = pos.board();
        let contact = ((knight_attacks(king) & board.knights())
            | (pawn_attacks(us, king) & board.pawns()))
            & board.by_color(!us);
        !(contact.without(to).any() || exposes_king(pos, us, king, from, to))
    }

    /// The move a canonical token names, if the fast path finds it.
    #[inline(always)]
    fn find(pos: &Position, token: &[u8]) -> Option<(Parsed, Move)> {
        // Only where pieces move as in chess and the game goes on: the legality it tests is
        // standard chess's.
        if pos.ruleset() != crate::Ruleset::Chess && !moves_as_in_chess(pos, token) {
            return None;
        }
        let p = parse(token)?;
        if let Some(side) = p.castle {
            let ctx = Context::new(pos)?;
            let rook = movegen::castle_rook_if_legal(pos, &ctx, side)?;
            return Some((
                p,
                Move::Castle {
                    king: ctx.king,
                    rook,
                },
            ));
        }
        let board = pos.board();
        let us = pos.turn();
        let them = !us;
        let our = board.by_color(us);
        let to = p.to;
        if our.contains(to) || pos.ep_square() == Some(to) {
            return None;
        }
        let king = (board.kings() & our).single_square()?;
        let capture = if board.by_color(them).contains(to) {
            match board.role_at(to) {
                Some(Role::King) | None => return None,
                role => role,
            }
        } else {
            None
        };
        let from = match p.role {
            Role::King => {
                if !king_attacks(king).contains(to)
                    || board
                        .attackers_to(to, them, board.occupied().without(king))
                        .any()
                {
                    return None;
                }
                king
            }
            Role::Pawn => {
                let last_rank = Bitboard::backrank(them).contains(to);
                if last_rank != p.promotion.is_some() {
                    return None;
                }
                let back = |sq: Square| match us {
                    Color::White => sq.offset(-8),
                    Color::Black => sq.offset(8),
                };
                let pawns = board.by_piece(Role::Pawn.of(us));
                match p.file {
                    None => {
                        if capture.is_some() {
                            return None;
                        }
                        let one = back(to)?;
                        if pawns.contains(one) {
                            one
                        } else if !board.occupied().contains(one)
                            && to.rank() == Rank::Fourth.relative_to(us)
                        {
                            let two = back(one)?;
                            if !pawns.contains(two) {
                                return None;
                            }
                            two
                        } else {
                            return None;
                        }
                    }
                    Some(file) => {
                        capture?;
                        let from = Square::from_coords(file, back(to)?.rank());
                        if !(pawn_attacks(us, from).contains(to) && pawns.contains(from)) {
                            return None;
                        }
                        from
                    }
                }
            }
            role => {
                let pieces = board.by_piece(role.of(us));
                let occ = board.occupied();
                let reach = match role {
                    Role::Knight => knight_attacks(to),
                    Role::Bishop => bishop_attacks(to, occ),
                    Role::Rook => rook_attacks(to, occ),
                    _ => bishop_attacks(to, occ) | rook_attacks(to, occ),
                };
                let candidates = reach & pieces;
                if p.file.is_none() && p.rank.is_none() {
                    candidates.single_square()?
                } else {
                    // Told apart as SAN does: among the legal moves, by the file if it
                    // suffices, else by the rank. Anything else is left to the general path.
                    let [a, b] = [candidates.first()?, candidates.last()?];
                    if a == b || candidates.count() != 2 {
                        return None;
                    }
                    let by_file = a.file() != b.file();
                    if by_file != p.file.is_some() {
                        return None;
                    }
                    let named = if by_file {
                        p.file.map(|f| f == a.file())?
                    } else {
                        p.rank.map(|r| r == a.rank())?
                    };
                    let (from, other) = if named { (a, b) } else { (b, a) };
                    if p.file.is_some_and(|f| f != from.file())
                        || p.rank.is_some_and(|r| r != from.rank())
                        || !is_legal(pos, us, king, other, to)
                    {
                        return None;
                    }
                    from
                }
            }
        };
        // Checks by a knight or a pawn are answered only by taking the checker; a slider's
        // check, like a pin, shows as an attack on the king after the move. (Straight-line
        // code: cheaper than branching on whether a pin is possible.)
        if p.role != Role::King && !is_legal(pos, us, king, from, to) {
            return None;
        }
        let mv = Move::Normal {
            role: p.role,
            from,
            capture,
            to,
            promotion: p.promotion,
        };
        Some((p, mv))
    }

    /// `true` if a variant position's legal moves of the board are standard chess's, for
    /// the move `token` names: crazyhouse, king of the hill and three-check while the game
    /// goes on, horde's black, and atomic's quiet moves while the kings stand apart.
    #[inline(never)]
    fn moves_as_in_chess(pos: &Position, token: &[u8]) -> bool {
        match pos.ruleset() {
            crate::Ruleset::Chess | crate::Ruleset::Crazyhouse => true,
            crate::Ruleset::KingOfTheHill | crate::Ruleset::ThreeCheck => !pos.is_variant_end(),
            crate::Ruleset::Horde => pos.king_of(pos.turn()).is_some(),
            // A move that takes nothing explodes nothing; with the kings apart (no check
            // cancelled by touching kings, and a king cannot step beside the other in
            // chess), a quiet move is legal in atomic exactly when it is in chess, and so
            // are the other moves of its piece to its square (telling it apart the same).
            crate::Ruleset::Atomic => {
                let board = pos.board();
                let kings_apart = match (board.king_of(Color::White), board.king_of(Color::Black)) {
                    (Some(white), Some(black)) => !king_attacks(white).contains(black),
                    _ => false,
                };
                kings_apart && quiet_target(pos, token)
            }
            _ => false,
        }
    }

    /// `true` if the square a token moves to holds nothing of the other side and is not the
    /// en-passant square (castling, which names none, included).
    fn quiet_target(pos: &Position, token: &[u8]) -> bool {
        let body = match token {
            [body @ .., b'+' | b'#'] => body,
            body => body,
        };
        let body = match body {
            [head @ .., b'=', _] => head,
            body => body,
        };
        match body {
            [.., f, r] if matches!(f, b'a'..=b'h') && matches!(r, b'1'..=b'8') => square(*f, *r)
                .is_some_and(|to| {
                    !pos.board().by_color(!pos.turn()).contains(to) && pos.ep_square() != Some(to)
                }),
            b"O-O" | b"O-O-O" => true,
            _ => false,
        }
    }

    /// [`find`] where the legality of chess is not the ruleset's (atomic, antichess, racing
    /// kings, horde's white): the few pseudo-legal moves of the named piece to the named
    /// square, each tested by the ruleset; a canonical token naming the only legal one.
    fn find_in_variant(pos: &Position, token: &[u8]) -> Option<(Parsed, Move)> {
        if pos.ruleset() == crate::Ruleset::Crazyhouse {
            return find_drop(pos, token);
        }
        let p = parse(token)?;
        if p.castle.is_some() || pos.is_variant_end() {
            return None;
        }
        let mut reaching = crate::MoveList::new();
        crate::variants::pseudo_moves_to(pos, p.role, p.to, &mut reaching);
        let mut legal = reaching
            .iter()
            .filter(|m| m.promotion() == p.promotion && crate::variants::is_legal(pos, m));
        let mv = *legal.next()?;
        if legal.next().is_some() {
            return None;
        }
        let from = mv.from()?;
        let canonical = match p.role {
            Role::Pawn => p.rank.is_none() && p.file == mv.is_capture().then_some(from.file()),
            _ => p.file.is_none() && p.rank.is_none(),
        };
        (canonical && p.capture == mv.is_capture()).then_some((p, mv))
    }

    /// Crazyhouse: a drop written as SAN writes it (`N@f3`, `P@e4`, with `+` or `#`), if legal.
    fn find_drop(pos: &Position, token: &[u8]) -> Option<(Parsed, Move)> {
        let (body, suffix) = match token {
            [body @ .., b'+'] => (body, Some(Suffix::Check)),
            [body @ .., b'#'] => (body, Some(Suffix::Checkmate)),
            body => (body, None),
        };
        let [letter, b'@', f, r] = *body else {
            return None;
        };
        let role = Role::from_upper_byte(letter).filter(|&role| role != Role::King)?;
        let to = square(f, r)?;
        let in_hand = pos.pockets()?.get(pos.turn()).has(role);
        let fits = !pos.board().occupied().contains(to)
            && (role != Role::Pawn || !Bitboard::BACKRANKS.contains(to));
        let mv = Move::Put { role, to };
        (in_hand && fits && crate::variants::is_legal(pos, &mv)).then_some((
            Parsed {
                role,
                file: None,
                rank: None,
                castle: None,
                capture: false,
                to,
                promotion: None,
                suffix,
            },
            mv,
        ))
    }

    /// What the general path forgives in a token `find` read, given the move's suffix.
    #[inline]
    fn forgiven(p: &Parsed, mv: &Move, suffix: Option<Suffix>) -> Forgiven {
        let mut forgiven = Forgiven::empty();
        if p.capture != mv.is_capture() {
            forgiven |= if p.capture {
                Forgiven::SUPERFLUOUS_CAPTURE
            } else {
                Forgiven::MISSING_CAPTURE
            };
        }
        if suffix != p.suffix {
            forgiven |= Forgiven::CHECK_SUFFIX;
        }
        forgiven
    }

    /// [`Position::resolve_san`]'s fast path.
    pub(super) fn resolve(pos: &Position, token: &[u8]) -> Option<Resolved> {
        let (p, mv) = find(pos, token)?;
        let after = pos.play(&mv);
        let suffix = Suffix::for_position(&after);
        Some(Resolved {
            mv,
            forgiven: forgiven(&p, &mv, suffix),
            after,
            san: SanPlus {
                san: match p.castle {
                    Some(side) => San::Castle(side),
                    None => San::Normal {
                        role: p.role,
                        file: p.file,
                        rank: p.rank,
                        capture: mv.is_capture(),
                        to: p.to,
                        promotion: p.promotion,
                    },
                },
                suffix,
            },
        })
    }

    /// The variants' fast path of [`Position::resolve_san`].
    pub(super) fn resolve_in_variant(pos: &Position, token: &[u8]) -> Option<Resolved> {
        let (p, mv) = find_in_variant(pos, token)?;
        let after = pos.play(&mv);
        let suffix = Suffix::for_position(&after);
        let san = match mv {
            Move::Put { role, to } => San::Put { role, to },
            _ => San::Normal {
                role: p.role,
                file: p.file,
                rank: p.rank,
                capture: mv.is_capture(),
                to: p.to,
                promotion: p.promotion,
            },
        };
        Some(Resolved {
            mv,
            forgiven: forgiven(&p, &mv, suffix),
            after,
            san: SanPlus { san, suffix },
        })
    }

    /// The variants' fast path of [`Position::play_san`].
    pub(super) fn play_in_variant(pos: &mut Position, token: &[u8]) -> Option<(Move, Forgiven)> {
        let (p, mv) = find_in_variant(pos, token)?;
        pos.play_mut(&mv);
        let suffix = Suffix::for_position(pos);
        Some((mv, forgiven(&p, &mv, suffix)))
    }

    /// [`Position::play_san`]'s fast path.
    #[inline]
    pub(super) fn play(pos: &mut Position, token: &[u8]) -> Option<(Move, Forgiven)> {
        let (p, mv) = find(pos, token)?;
        pos.play_mut(&mv);
        let suffix = Suffix::for_position(pos);
        Some((mv, forgiven(&p, &mv, suffix)))
    }
}

#[cfg(test)]
mod quick_tests {
    use super::{SanToken, quick};
    use crate::Position;

    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }
    }

    /// Spellings of a move: canonical, and departures the fast path must either leave to
    /// the general one or resolve exactly as it does.
    fn spellings(san: &str) -> Vec<String> {
        let bare = san.trim_end_matches(['+', '#']);
        let mut out = vec![
            san.to_owned(),
            bare.to_owned(),
            format!("{bare}+"),
            format!("{bare}#"),
            format!("{bare}++"),
        ];
        if bare.contains('x') {
            out.push(bare.replace('x', ""));
        } else if bare.len() >= 3 && bare.as_bytes()[0].is_ascii_uppercase() {
            out.push(format!("{}x{}", &bare[..1], &bare[1..]));
        } else if bare.len() == 2 {
            out.push(format!("{}x{bare}", (bare.as_bytes()[0] ^ 1) as char));
        }
        out
    }

    #[test]
    fn quick_path_agrees_with_the_general_one() {
        let mut rng = Rng(0x2545_f491_4f6c_dd1d);
        let starts = [
            Position::new(),
            Position::from_fen(
                "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            )
            .expect("fen"),
            Position::from_fen("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1").expect("fen"),
            Position::from_fen("n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1").expect("fen"),
        ];
        let (mut quick_hits, mut total) = (0u64, 0u64);
        for game in 0..300 {
            let mut pos = starts[game % starts.len()];
            for _ in 0..160 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                for m in &moves {
                    let san = pos.san(m).to_string();
                    for token in spellings(&san) {
                        let slow =
                            SanToken::from_ascii(token.as_bytes()).and_then(|t| t.resolve(&pos));
                        if let Some(fast) = quick::resolve(&pos, token.as_bytes()) {
                            assert_eq!(Ok(&fast), slow.as_ref(), "{token} in {pos:?}");
                            quick_hits += u64::from(token == san);
                        }
                        assert_eq!(pos.resolve_san(token.as_bytes()), slow, "{token}");
                        let mut played = pos;
                        let result = played.play_san(token.as_bytes());
                        match &slow {
                            Ok(r) => {
                                assert_eq!(result, Ok((r.mv, r.forgiven)), "{token}");
                                assert_eq!(played, r.after, "{token}");
                            }
                            Err(e) => {
                                assert_eq!(result.as_ref().err(), Some(e), "{token}");
                                assert_eq!(played, pos, "{token}");
                            }
                        }
                    }
                    total += 1;
                }
                let m = moves[(rng.next() % moves.len() as u64) as usize];
                pos = pos.play(&m);
            }
        }
        // Nearly every canonical token takes the fast path.
        assert!(quick_hits * 10 > total * 8, "{quick_hits} of {total}");
    }
}

#[cfg(test)]
mod writing_tests {
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
