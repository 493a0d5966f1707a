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
//! Whatever had to be overlooked to read the token is reported as [`Forgiven`](crate::Forgiven) flags, so
//! that a caller can warn:
//!
//! ```
//! use pgn::{Forgiven, Position};
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

// The files: `writing` (the SAN types, written canonically), `forgiven` and `error` (what
// reading reports), `token` (a token's shape) and `token_parser` (reading it), `resolve` (a
// token matched with standard chess's legal moves) and `variants` (with a variant's), `quick`
// (the fast path for canonical tokens), `position` (`Position`'s SAN methods, which try the
// fast path first).
mod error;
pub(crate) mod forgiven;
mod position;
mod quick;
mod resolve;
mod token;
mod token_parser;
mod variants;
mod writing;

pub use error::{IllegalReason, SanError};
pub use resolve::Resolved;
pub use token::SanToken;
pub use writing::{San, SanPlus, Suffix};
