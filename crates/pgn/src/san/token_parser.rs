//! Reading a move token's shape ([`SanToken::from_ascii`]): its spelling made ASCII
//! ([`Spelling`]), then taken apart from both ends inward by a [`TokenParser`], one part at a
//! time: the check sign, the forms that are a whole token (a null move, a drop, castling), the
//! promotion, the target square, the separator, the piece letter and the origin. What each
//! part forgave is noted on the way.

use super::error::SanError;
use super::forgiven::Forgiven;
use super::token::{Kind, Raw, SanToken, Separator};
use super::writing::{San, Suffix};
use crate::{CastlingSide, File, Rank, Role, Square};

/// The longest spelling read, in ASCII bytes.
const MAX: usize = 24;

// Reasons given in more than one place.
const TOO_LONG: &str = "too long for a move";
const BAD_PROMOTION: &str = "promotion must be to Q, R, B or N (or K in antichess)";

/// The part of the origin square a token writes: its file, its rank, both or neither.
type Origin = (Option<File>, Option<Rank>);

impl SanToken {
    /// Reads a move token (SAN and the lenient forms listed under [`Forgiven`]), with an
    /// optional `+`, `#` or `++` suffix. Annotation signs (`!`, `?`) must already be gone.
    ///
    /// # Errors
    /// [`SanError::Unreadable`] if the token is not a move in any accepted form.
    pub fn from_ascii(token: &[u8]) -> Result<SanToken, SanError> {
        let (spelling, forgiven) = Spelling::read(token)?;
        let mut parser = TokenParser::new(token, spelling.bytes(), forgiven);
        parser.check_sign();
        if let Some(kind) = parser.whole_token()? {
            return Ok(parser.finish(kind));
        }
        parser.promotion()?;
        let to = parser.target_square()?;
        parser.separator();
        parser.piece_letter();
        let (from, bishop_from) = parser.origin()?;
        let kind = parser.kind(from, bishop_from, to)?;
        Ok(parser.finish(kind))
    }
}

fn unreadable(token: &[u8], reason: &'static str) -> SanError {
    SanError::Unreadable {
        token: String::from_utf8_lossy(token).into_owned(),
        reason,
    }
}

/// A token's spelling in ASCII, as the parser reads it: the token itself, or a copy where
/// figurines, Unicode dashes or an `e.p.` mark had to be rewritten.
enum Spelling<'a> {
    /// The token as written.
    Written(&'a [u8]),
    /// The rewritten copy: its first `len` bytes.
    Rewritten { bytes: [u8; MAX], len: usize },
}

impl<'a> Spelling<'a> {
    /// Reads a token's spelling, with what rewriting it forgave.
    ///
    /// # Errors
    /// A character that is not ASCII, a figurine or a dash, or more than [`MAX`] bytes.
    #[inline]
    fn read(token: &'a [u8]) -> Result<(Spelling<'a>, Forgiven), SanError> {
        let mut forgiven = Forgiven::empty();
        let spelling = if token.is_ascii() {
            if token.len() > MAX {
                return Err(unreadable(token, TOO_LONG));
            }
            Spelling::Written(token)
        } else {
            Spelling::from_unicode(token, &mut forgiven)?
        };
        Ok((spelling.without_en_passant_mark(&mut forgiven), forgiven))
    }

    /// Rewrites a token that is not all ASCII: figurines become letters, dashes `-`.
    fn from_unicode(token: &'a [u8], forgiven: &mut Forgiven) -> Result<Spelling<'a>, SanError> {
        let mut bytes = [0; MAX];
        let mut len = 0;
        let mut rest = token;
        while !rest.is_empty() {
            let Some((b, after, what)) = ascii_char(rest) else {
                return Err(unreadable(
                    token,
                    "unexpected character (not ASCII, a chess figurine or a dash)",
                ));
            };
            *forgiven |= what;
            match bytes.get_mut(len) {
                Some(slot) => *slot = b,
                None => return Err(unreadable(token, TOO_LONG)),
            }
            len += 1;
            rest = after;
        }
        Ok(Spelling::Rewritten { bytes, len })
    }

    /// Takes out `e.p.` (or `ep`) at the end, before the check signs or after them, and
    /// keeps the signs: `exd6e.p.+` and `exd6+e.p.` are read as `exd6+`.
    #[inline]
    fn without_en_passant_mark(self, forgiven: &mut Forgiven) -> Spelling<'a> {
        let s = self.bytes();
        let signs = s
            .iter()
            .rev()
            .take_while(|&&b| matches!(b, b'+' | b'#'))
            .count();
        let (body, signs) = s.split_at(s.len() - signs);
        let Some(move_part) = body
            .strip_suffix(b"e.p.")
            .or_else(|| body.strip_suffix(b"ep"))
        else {
            return self;
        };
        let move_part = move_part.trim_ascii_end();
        *forgiven |= Forgiven::EN_PASSANT_MARK;
        // Shorter than the spelling it is taken from, so within `MAX`.
        let len = move_part.len() + signs.len();
        let mut bytes = [0; MAX];
        bytes[..move_part.len()].copy_from_slice(move_part);
        bytes[move_part.len()..len].copy_from_slice(signs);
        Spelling::Rewritten { bytes, len }
    }

    #[inline]
    fn bytes(&self) -> &[u8] {
        match self {
            Spelling::Written(token) => token,
            Spelling::Rewritten { bytes, len } => &bytes[..*len],
        }
    }
}

/// The ASCII byte that the character at the start of `s` is read as, the bytes after the
/// character, and what reading it so forgave: an ASCII character is itself, a figurine
/// (U+2654 to U+265F) its piece's letter, and a hyphen or dash (U+2010 to U+2015) or the minus
/// sign (U+2212) `-`. `None` for any other character.
fn ascii_char(s: &[u8]) -> Option<(u8, &[u8], Forgiven)> {
    match *s {
        [b, ref after @ ..] if b.is_ascii() => Some((b, after, Forgiven::empty())),
        [0xe2, 0x99, x @ 0x94..=0x9f, ref after @ ..] => {
            // White's six figurines, then black's, each in the order K, Q, R, B, N, P.
            let letter = b"KQRBNP"[usize::from(x - 0x94) % 6];
            Some((letter, after, Forgiven::FIGURINE))
        }
        [0xe2, 0x80, 0x90..=0x95, ref after @ ..] | [0xe2, 0x88, 0x92, ref after @ ..] => {
            Some((b'-', after, Forgiven::UNICODE_DASH))
        }
        _ => None,
    }
}

/// A move token being read: its spelling, taken apart from both ends inward, what has been
/// read of it so far, and what was forgiven on the way.
struct TokenParser<'a> {
    /// The token as written, for errors and for [`Raw`].
    token: &'a [u8],
    /// What is left to read of its spelling.
    rest: &'a [u8],
    forgiven: Forgiven,
    /// The check or mate sign.
    suffix: Option<Suffix>,
    /// The piece a pawn promotes to.
    promotion: Option<Role>,
    /// `Some(lower)` for a promotion written as a bare letter right after the square (`e8Q`,
    /// `e7e8q`), `lower` if that letter is in lower case.
    bare_promotion: Option<bool>,
    separator: Separator,
    /// The piece letter, if one was written (or a leading `b` when only the bishop reads).
    role: Option<Role>,
}

impl<'a> TokenParser<'a> {
    #[inline]
    fn new(token: &'a [u8], spelling: &'a [u8], forgiven: Forgiven) -> TokenParser<'a> {
        TokenParser {
            token,
            rest: spelling,
            forgiven,
            suffix: None,
            promotion: None,
            bare_promotion: None,
            separator: Separator::None,
            role: None,
        }
    }

    fn unreadable(&self, reason: &'static str) -> SanError {
        unreadable(self.token, reason)
    }

    /// The token read, once what it names is known.
    #[inline]
    fn finish(self, kind: Kind) -> SanToken {
        SanToken {
            kind,
            suffix: self.suffix,
            forgiven: self.forgiven,
            raw: Raw::new(self.token),
        }
    }

    /// Reads the check or mate sign at the end: `+`, `#`, or `++` (forgiven, as a check).
    #[inline]
    fn check_sign(&mut self) {
        let (rest, suffix) = if let Some(rest) = self.rest.strip_suffix(b"++") {
            self.forgiven |= Forgiven::CHECK_SUFFIX;
            (rest, Suffix::Check)
        } else if let Some(rest) = self.rest.strip_suffix(b"#") {
            (rest, Suffix::Checkmate)
        } else if let Some(rest) = self.rest.strip_suffix(b"+") {
            (rest, Suffix::Check)
        } else {
            return;
        };
        self.rest = rest;
        self.suffix = Some(suffix);
    }

    /// Reads the forms that are a whole token: a null move (`--`, `Z0`, `0000`), a drop
    /// (`N@f3`, `@e4`) or castling. `None` for a token of any other form.
    #[inline]
    fn whole_token(&mut self) -> Result<Option<Kind>, SanError> {
        let castle = |side| Kind::San(San::Castle(side));
        let kind = match *self.rest {
            [b'-', b'-'] | [b'Z', b'0'] | [b'0', b'0', b'0', b'0'] => {
                self.forgiven |= Forgiven::NULL_MOVE;
                Kind::San(San::Null)
            }
            [ref piece @ .., b'@', file, rank] if piece.len() <= 1 => {
                self.drop(piece.first().copied(), [file, rank])?
            }
            [b'O', b'-', b'O'] => castle(CastlingSide::KingSide),
            [b'O', b'-', b'O', b'-', b'O'] => castle(CastlingSide::QueenSide),
            _ => return Ok(self.castling_with_zeros().map(castle)),
        };
        Ok(Some(kind))
    }

    /// Reads a drop onto `square`: of the piece a letter names (`N@f3`, or `n@f3` forgiven),
    /// or without a letter a pawn's (`@e4`, forgiven).
    fn drop(&mut self, piece: Option<u8>, square: [u8; 2]) -> Result<Kind, SanError> {
        let to = Square::from_ascii(&square)
            .map_err(|_| self.unreadable("no square (such as e4) after `@`"))?;
        let role = match piece {
            None => {
                self.forgiven |= Forgiven::BARE_PAWN_DROP;
                Role::Pawn
            }
            Some(c) => {
                let role = Role::from_upper_byte(c.to_ascii_uppercase())
                    .filter(|&r| r != Role::King)
                    .ok_or_else(|| self.unreadable("only P, N, B, R or Q can be dropped"))?;
                if c.is_ascii_lowercase() {
                    self.forgiven |= Forgiven::LOWERCASE_PIECE;
                }
                role
            }
        };
        Ok(Kind::San(San::Put { role, to }))
    }

    /// Reads castling written with zeros or lower-case `o`s (`0-0`, `o-o-o`), forgiven: the
    /// side, or `None` for a token of another form.
    #[inline]
    fn castling_with_zeros(&mut self) -> Option<CastlingSide> {
        let side = match self.rest.len() {
            3 => CastlingSide::KingSide,
            5 => CastlingSide::QueenSide,
            _ => return None,
        };
        let castle = self.rest.iter().enumerate().all(|(i, &c)| {
            if i % 2 == 1 {
                c == b'-'
            } else {
                matches!(c, b'O' | b'0' | b'o')
            }
        });
        if !castle {
            return None;
        }
        self.forgiven |= Forgiven::CASTLING_ZEROS;
        Some(side)
    }

    /// Reads a promotion at the end: `=Q`, or forgiven `=q`, `(Q)`, `/Q` and a bare letter
    /// right after the square (`e8Q`, `e7e8q`; whether a bare letter is forgiven depends on
    /// the form of the rest, and is decided in [`TokenParser::kind`]).
    #[inline]
    fn promotion(&mut self) -> Result<(), SanError> {
        let s = self.rest;
        if let Some(inner) = s.strip_suffix(b")") {
            return self.promotion_in_parentheses(inner);
        }
        let [ref head @ .., separator, letter] = *s else {
            return Ok(());
        };
        match (separator, promotion_role(letter)) {
            (b'=', Some((role, lower))) if head.len() >= 2 => {
                if lower {
                    self.forgiven |= Forgiven::PROMOTION_FORM;
                }
                self.promotion = Some(role);
                self.rest = head;
            }
            (b'/', Some((role, _))) if head.len() >= 2 => {
                self.forgiven |= Forgiven::PROMOTION_FORM;
                self.promotion = Some(role);
                self.rest = head;
            }
            (b'1'..=b'8', Some((role, lower))) if !head.is_empty() => {
                self.promotion = Some(role);
                self.bare_promotion = Some(lower);
                self.rest = &s[..s.len() - 1];
            }
            (b'=' | b'/', None) => return Err(self.unreadable(BAD_PROMOTION)),
            _ => {}
        }
        Ok(())
    }

    /// Reads a promotion in parentheses (`e8(Q)`), forgiven; `inner` is what comes before
    /// the closing parenthesis.
    fn promotion_in_parentheses(&mut self, inner: &'a [u8]) -> Result<(), SanError> {
        let [ref head @ .., b'(', letter] = *inner else {
            return Err(self.unreadable("unexpected `)`"));
        };
        if head.len() < 2 {
            return Err(self.unreadable("unexpected `)`"));
        }
        let (role, _) = promotion_role(letter).ok_or_else(|| self.unreadable(BAD_PROMOTION))?;
        self.promotion = Some(role);
        self.forgiven |= Forgiven::PROMOTION_FORM;
        self.rest = head;
        Ok(())
    }

    /// Reads the target square, the last two bytes left.
    #[inline]
    fn target_square(&mut self) -> Result<Square, SanError> {
        let Some((rest, to)) = self.rest.split_last_chunk::<2>() else {
            return Err(self.unreadable("no target square"));
        };
        let to = Square::from_ascii(to)
            .map_err(|_| self.unreadable("no target square (such as e4) at the end"))?;
        self.rest = rest;
        Ok(to)
    }

    /// Reads the separator before the target square: `x` for a capture, or `-`.
    #[inline]
    fn separator(&mut self) {
        if let Some(rest) = self.rest.strip_suffix(b"x") {
            self.separator = Separator::Capture;
            self.rest = rest;
        } else if let Some(rest) = self.rest.strip_suffix(b"-") {
            self.separator = Separator::Dash;
            self.rest = rest;
        }
    }

    /// Reads the piece letter at the start, if any: `K`, `Q`, `R`, `B`, `N`, or forgiven a
    /// pawn's `P` and a lower-case letter. A lower-case `b` is left to [`TokenParser::origin`]:
    /// it may be a pawn's file.
    #[inline]
    fn piece_letter(&mut self) {
        let [c, ref rest @ ..] = *self.rest else {
            return;
        };
        let (role, lower) = match c {
            b'K' | b'Q' | b'R' | b'B' | b'N' => (Role::from_upper_byte(c), false),
            b'P' => {
                self.forgiven |= Forgiven::PAWN_LETTER;
                (Some(Role::Pawn), false)
            }
            b'p' => {
                self.forgiven |= Forgiven::PAWN_LETTER;
                (Some(Role::Pawn), true)
            }
            b'k' | b'q' | b'r' | b'n' => (Role::from_upper_byte(c.to_ascii_uppercase()), true),
            _ => return,
        };
        if lower {
            self.forgiven |= Forgiven::LOWERCASE_PIECE;
        }
        self.role = role;
        self.rest = rest;
    }

    /// Reads the origin, all that is left: the part of the origin square written. Without a
    /// piece letter, a leading `b` may be a bishop's letter as well as a pawn's file: the
    /// bishop's origin comes second when both read (`bxc3`), and when only it does (`bb1c2`)
    /// the token is the bishop's move, forgiven as a lower-case letter.
    #[inline]
    fn origin(&mut self) -> Result<(Origin, Option<Origin>), SanError> {
        let s = std::mem::take(&mut self.rest);
        let bishop_from = match s {
            [b'b', after @ ..] if self.role.is_none() => origin(after),
            _ => None,
        };
        match (origin(s), bishop_from) {
            (Some(from), _) => Ok((from, bishop_from)),
            (None, Some(from)) => {
                self.role = Some(Role::Bishop);
                self.forgiven |= Forgiven::LOWERCASE_PIECE;
                Ok((from, None))
            }
            (None, None) => Err(self.unreadable("cannot read the origin before the target square")),
        }
    }

    /// What the token names, from what was read: coordinates when there was no piece letter
    /// and the whole origin square was written, else a SAN move (or, with the bishop's
    /// origin, a pawn's move or a bishop's).
    // Always inlined: called, it kept the parser in memory (10% more instructions in
    // `from_ascii` on lenient tokens).
    #[inline(always)]
    fn kind(
        &mut self,
        from: Origin,
        bishop_from: Option<Origin>,
        to: Square,
    ) -> Result<Kind, SanError> {
        if let (None, (Some(file), Some(rank))) = (self.role, from) {
            return Ok(self.coordinates(Square::from_coords(file, rank), to));
        }
        if self.separator == Separator::Dash {
            self.long_algebraic(from)?;
        }
        if self.bare_promotion.is_some() {
            // `e8Q` or `e8q`: a bare letter after the square.
            self.forgiven |= Forgiven::PROMOTION_FORM;
        }
        Ok(match (self.role, bishop_from) {
            (Some(role), _) => Kind::San(self.normal(role, from, to)),
            (None, Some(bishop_from)) => Kind::PawnOrBishop {
                pawn: self.normal(Role::Pawn, from, to),
                bishop: self.normal(Role::Bishop, bishop_from, to),
            },
            (None, None) => Kind::San(self.normal(Role::Pawn, from, to)),
        })
    }

    /// Coordinates: the piece is whatever stands on the origin.
    #[inline]
    fn coordinates(&mut self, from: Square, to: Square) -> Kind {
        if self.bare_promotion == Some(false) {
            // `e7e8Q`: a bare upper-case letter.
            self.forgiven |= Forgiven::PROMOTION_FORM;
        }
        Kind::Coordinates {
            from,
            to,
            separator: self.separator,
            promotion: self.promotion,
            uci_promotion: self.bare_promotion == Some(true),
        }
    }

    /// A piece move written with `-` (`Ng1-f3`), forgiven as long algebraic notation: the
    /// `-` needs the piece letter and the whole origin square.
    fn long_algebraic(&mut self, from: Origin) -> Result<(), SanError> {
        if self.role.is_none() || from.0.is_none() || from.1.is_none() {
            return Err(self.unreadable("a `-` needs the full origin square, as in Ng1-f3"));
        }
        self.forgiven |= Forgiven::LONG_ALGEBRAIC;
        Ok(())
    }

    /// The SAN move of `role` from `from` to `to`, with what was read of capture and
    /// promotion.
    #[inline]
    fn normal(&self, role: Role, (file, rank): Origin, to: Square) -> San {
        San::Normal {
            role,
            file,
            rank,
            capture: self.separator == Separator::Capture,
            to,
            promotion: self.promotion,
        }
    }
}

/// Reads `[file][rank]` (each optional) covering all of `s`.
fn origin(s: &[u8]) -> Option<Origin> {
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

/// The piece a promotion letter names, and whether the letter is in lower case.
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

#[cfg(test)]
mod tests {
    use super::{MAX, Spelling};
    use crate::Forgiven;
    use crate::san::SanError;

    fn read(token: impl AsRef<[u8]>) -> Result<(String, Forgiven), SanError> {
        let (spelling, forgiven) = Spelling::read(token.as_ref())?;
        let ascii = String::from_utf8(spelling.bytes().to_vec()).expect("ASCII");
        Ok((ascii, forgiven))
    }

    fn reason(result: Result<(String, Forgiven), SanError>) -> &'static str {
        match result {
            Err(SanError::Unreadable { reason, .. }) => reason,
            other => panic!("read: {other:?}"),
        }
    }

    #[test]
    fn spelling_is_rewritten_as_ascii() {
        let read = |token| read(token).expect("readable");
        assert_eq!(read("Nf3"), ("Nf3".into(), Forgiven::empty()));
        assert_eq!(read("♘f3"), ("Nf3".into(), Forgiven::FIGURINE));
        assert_eq!(read("♚e7"), ("Ke7".into(), Forgiven::FIGURINE));
        assert_eq!(read("O‑O"), ("O-O".into(), Forgiven::UNICODE_DASH));
        let both = Forgiven::FIGURINE | Forgiven::UNICODE_DASH;
        assert_eq!(read("♗b1−h7"), ("Bb1-h7".into(), both));
    }

    #[test]
    fn en_passant_mark_is_taken_out_and_the_signs_kept() {
        let read = |token| read(token).expect("readable");
        let mark = Forgiven::EN_PASSANT_MARK;
        assert_eq!(read("exd6e.p."), ("exd6".into(), mark));
        assert_eq!(read("exd6 ep+"), ("exd6+".into(), mark));
        assert_eq!(read("exd6e.p.#"), ("exd6#".into(), mark));
        let dash = mark | Forgiven::UNICODE_DASH;
        assert_eq!(read("e5–d6e.p."), ("e5-d6".into(), dash));
        // Written after the sign, it is taken out too.
        assert_eq!(read("exd6+e.p."), ("exd6+".into(), mark));
    }

    #[test]
    fn a_refused_spelling_is_refused_for_its_first_fault() {
        let too_long = "too long for a move";
        let unexpected = "unexpected character (not ASCII, a chess figurine or a dash)";
        let long = "a".repeat(MAX + 1);
        assert_eq!(reason(read(&long)), too_long);
        assert_eq!(read(&long[1..]).map(|(s, _)| s.len()), Ok(MAX));
        assert_eq!(reason(read("♘".repeat(MAX + 1))), too_long);
        assert_eq!(reason(read("Nf3é")), unexpected);
        // A figurine cut short is no character that reads.
        assert_eq!(reason(read(b"\xe2\x99f3")), unexpected);
        // Which fault comes first decides.
        assert_eq!(reason(read("♘".repeat(MAX + 1) + "é")), too_long);
        assert_eq!(reason(read("é".to_owned() + &long)), unexpected);
    }
}
