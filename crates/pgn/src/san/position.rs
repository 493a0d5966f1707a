//! The SAN methods of [`Position`]: reading a token by the fast path for canonical SAN
//! first and the lenient reader for the rest, and writing a move.

use super::error::SanError;
use super::forgiven::Forgiven;
use super::quick;
use super::resolve::Resolved;
use super::token::SanToken;
use super::writing::SanPlus;
use crate::{Move, Position};

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
    /// use pgn::{Position};
    /// use pgn::Forgiven;
    /// let mut pos = Position::new();
    /// let (_, forgiven) = pos.play_san(b"e4")?;
    /// assert!(forgiven.is_empty());
    /// let (_, forgiven) = pos.play_san(b"Ng8-f6")?;
    /// assert_eq!(forgiven, Forgiven::OVER_DISAMBIGUATION | Forgiven::LONG_ALGEBRAIC);
    /// assert!(pos.play_san(b"Ke3").is_err());
    /// assert_eq!(pos.to_fen(), "rnbqkb1r/pppppppp/5n2/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 1 2");
    /// # Ok::<(), pgn::san::SanError>(())
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
