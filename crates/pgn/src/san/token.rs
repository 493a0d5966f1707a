//! Reading a move token's shape: SAN and the lenient forms listed under [`Forgiven`], with
//! what the spelling alone forgave. The move it names is found in a position by
//! [`SanToken::resolve`].

use std::fmt;

use super::error::{IllegalReason, SanError};
use super::forgiven::Forgiven;
use super::writing::{San, Suffix};
use crate::{CastlingSide, File, Rank, Role, Square};

/// The original token, for error messages (at most 32 bytes are kept).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(super) struct Raw {
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
    pub(super) fn from_display(x: &impl fmt::Display) -> Raw {
        Raw::new(x.to_string().as_bytes())
    }
    pub(super) fn text(&self) -> String {
        String::from_utf8_lossy(&self.bytes[..usize::from(self.len).min(32)]).into_owned()
    }
}

/// A coordinate token's separator.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub(super) enum Separator {
    None,
    Dash,
    Capture,
}

/// What a token names, as read: a SAN move, a move that a leading `b` leaves to the
/// position (a pawn's file or a bishop), or coordinates.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub(super) enum Kind {
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
/// use pgn::{Forgiven, Position, san::SanToken};
/// let token = SanToken::from_ascii("♘f3".as_bytes())?;
/// let r = token.resolve(&Position::new())?;
/// assert_eq!(r.forgiven, Forgiven::FIGURINE);
/// assert_eq!(r.san().to_string(), "Nf3");
/// # Ok::<(), pgn::san::SanError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SanToken {
    pub(super) kind: Kind,
    /// The check or mate sign written after the move.
    pub suffix: Option<Suffix>,
    /// What was forgiven in the spelling alone (more is found when resolving).
    pub forgiven: Forgiven,
    pub(super) raw: Raw,
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

    pub(super) fn illegal(&self, reason: IllegalReason) -> SanError {
        SanError::Illegal {
            token: self.raw.text(),
            reason,
        }
    }
}

impl std::str::FromStr for SanToken {
    type Err = SanError;
    fn from_str(s: &str) -> Result<SanToken, SanError> {
        SanToken::from_ascii(s.as_bytes())
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
