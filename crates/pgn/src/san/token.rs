//! A move token's shape ([`SanToken`]): the move it names, in SAN or one of the lenient
//! forms listed under [`Forgiven`], with what the spelling alone forgave. It is read by
//! [`SanToken::from_ascii`] (`token_parser`), and the move it names is found in a position by
//! [`SanToken::resolve`].

use std::fmt;

use super::error::{IllegalReason, SanError};
use super::forgiven::Forgiven;
use super::writing::{San, Suffix};
use crate::{Role, Square};

/// The original token, for error messages (at most 32 bytes are kept).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(super) struct Raw {
    len: u8,
    bytes: [u8; 32],
}

impl Raw {
    #[inline]
    pub(super) fn new(token: &[u8]) -> Raw {
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

impl SanToken {
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
