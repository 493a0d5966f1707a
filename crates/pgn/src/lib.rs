//! Chess rules and notation for the PGN toolkit: positions, legal moves, FEN, SAN, UCI,
//! Chess960, game outcomes and perft.
//!
//! The board is a set of [`Bitboard`]s; sliding attacks come from magic-bitboard tables built
//! at compile time ([`attacks`]). A [`Position`] is a small `Copy` value: playing a move makes
//! a new position (copy-make) and updates its Zobrist hash on the way. Legal moves are
//! generated directly (check and pin masks, no make-and-test), into a [`MoveList`] on the
//! stack.
//!
//! Reading SAN is lenient and says what it forgave ([`Forgiven`]); writing is canonical.
//!
//! ```
//! use pgn::{Forgiven, Position};
//!
//! // A position from FEN (missing move counters are fine).
//! let pos = Position::from_fen("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")?;
//!
//! // Resolve a move token: the legal move, what was forgiven, the position after it.
//! let r = pos.resolve_san(b"Bb5")?;
//! assert!(r.forgiven.is_empty());
//! let pos = r.after;
//!
//! // Lenient input is accepted and reported.
//! let r = pos.resolve_san(b"a7a6")?;
//! assert_eq!(r.forgiven, Forgiven::LONG_ALGEBRAIC);
//! assert_eq!(r.san().to_string(), "a6");
//!
//! // Canonical SAN out, with check signs.
//! let pos = r.after;
//! let m = pos.resolve_san(b"Bxc6")?.mv;
//! assert_eq!(pos.san(&m).to_string(), "Bxc6");
//! let pos = pos.play(&m);
//! assert_eq!(pos.to_fen(), "r1bqkbnr/1ppp1ppp/p1B5/4p3/4P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 0 4");
//! assert!(!pos.is_check() && pos.outcome().is_none());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Modules
//! - [`fen`]: reading (lenient: X-FEN and Shredder-FEN castling, missing counters) and writing.
//! - [`san`]: SAN reading and writing; [`uci`]: UCI moves.
//! - [`chess960`]: the 960 start positions; castling on any files is built into [`Position`].
//! - [`outcome`]: checkmate, stalemate, insufficient material, repetitions.
//! - [`perft`](mod@perft): move-tree counts for testing move generation.
//! - [`Variant`]: the variants a PGN `Variant` tag can name.

pub mod attacks;
mod bitboard;
mod board;
mod castling;
pub mod chess960;
mod color;
pub mod fen;
mod movegen;
mod moves;
pub mod outcome;
pub mod perft;
mod position;
mod role;
pub mod san;
mod square;
pub mod uci;
pub mod variant;
mod zobrist;

pub use bitboard::Bitboard;
pub use board::Board;
pub use castling::{Castles, CastlingMode, CastlingRights, CastlingSide};
pub use color::{ByColor, Color};
pub use fen::{FenError, ParseFenError, Setup};
pub use moves::{MAX_MOVES, Move, MoveList};
pub use outcome::{Outcome, RepetitionTracker};
pub use perft::perft;
pub use position::{CastlingError, IllegalMoveError, Position, PositionError};
pub use role::{Piece, Role};
pub use san::{Forgiven, San, SanError, SanPlus, SanToken};
pub use square::{File, ParseSquareError, Rank, Square};
pub use uci::Uci;
pub use variant::Variant;
