//! What was overlooked to read a move token ([`Forgiven`]): each departure from canonical
//! SAN, found in the spelling or when the token is matched with its move.

use std::fmt;

use bitflags::bitflags;

use crate::{File, Move, Rank, Role};

bitflags! {
    /// What was overlooked to read a move token: each flag is a departure from canonical SAN.
    /// So a token read with nothing forgiven is its move's SAN, check sign included, as
    /// [`Position::san`](crate::Position::san) writes it.
    ///
    /// ```
    /// use pgn::{Forgiven, Position};
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

/// What a piece move's token forgave in its capture mark and in the part of its origin it
/// wrote (`file`, `rank`), given how much of it SAN shows (`need`).
pub(super) fn origin_forgiveness(
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
