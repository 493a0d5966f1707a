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
//! The lichess variants are played too: a position carries its [`Ruleset`], and its legal
//! moves, SAN, FEN and outcome follow it.
//!
//! ```
//! use pgn::{Outcome, Position, Ruleset, VariantEnd};
//! let mut pos = Position::start(Ruleset::Crazyhouse);
//! for san in ["e4", "d5", "exd5", "Qxd5", "Nc3", "Qa5", "P@b4"] {
//!     pos.play_san(san.as_bytes())?;
//! }
//! assert_eq!(pos.to_fen(), "rnb1kbnr/ppp1pppp/8/q7/1P6/2N5/PPPP1PPP/R1BQKBNR[p] b KQkq - 0 4");
//!
//! let mut pos = Position::start(Ruleset::KingOfTheHill);
//! for san in ["e4", "d5", "Ke2", "dxe4", "Ke3", "Kd7", "Kxe4#"] {
//!     pos.play_san(san.as_bytes())?;
//! }
//! assert_eq!(pos.outcome(), Some(Outcome::Variant {
//!     winner: Some(pgn::Color::White),
//!     end: VariantEnd::KingOnHill,
//! }));
//! # Ok::<(), pgn::SanError>(())
//! ```
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
//! # Reading and writing PGN
//!
//! [`ChessRules`] implements the notation layer's [`Rules`]: with it,
//! [`GameReader`] and [`read_games`] read PGN files into game trees (every move resolved
//! and played, every departure from the standard reported as a [`Diagnostic`]), and
//! [`write_game`] writes them back in the export format. [`Validator`] checks games on the
//! fly without building trees, for speed. [`commands`] reads `[%clk …]`, `[%eval …]` and the
//! other commands of comments. The notation types a chess program needs are re-exported
//! here, and the whole layer as [`notation`](mod@notation).
//!
//! ```
//! let pgn = b"[Event \"Casual\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 {Morphy} 4. Ba4 *\n";
//! let games = pgn::read_games(&pgn[..]);
//! let game = &games[0].game;
//! assert!(games[0].diagnostics.is_empty());
//! assert_eq!(game.mainline().count(), 7);
//! let text = pgn::to_export_string(game, &pgn::WriteOptions::default())?;
//! assert!(text.contains("3. Bb5 a6 {Morphy} 4. Ba4 *"));
//! # Ok::<(), pgn::WriteError>(())
//! ```
//!
//! # Modules
//! - [`fen`]: reading (lenient: X-FEN and Shredder-FEN castling, missing counters) and writing.
//! - [`san`]: SAN reading and writing; [`uci`]: UCI moves.
//! - [`chess960`]: the 960 start positions; castling on any files is built into [`Position`].
//! - [`outcome`]: checkmate, stalemate, insufficient material, repetitions.
//! - [`perft`](mod@perft): move-tree counts for testing move generation.
//! - [`Variant`]: the variants a PGN `Variant` tag can name; [`Ruleset`]: the rules a
//!   [`Position`] is played by (standard chess, crazyhouse with [`Pocket`]s and drops,
//!   atomic, antichess, king of the hill, three-check, horde, racing kings).
//! - [`rules`]: [`ChessRules`], the seam with the notation layer; start positions from the tags.
//! - [`commands`]: `[%clk]`, `[%emt]`, `[%eval]`, `[%csl]`, `[%cal]` in comments.
//! - [`validate`]: [`Validator`], checking games without building them.
//! - [`openings`]: the ECO code and name of a game's opening (lichess's table, embedded).
//! - [`svg`]: a position as an SVG picture, with the last move, check, `[%csl]` and `[%cal]`.

pub mod attacks;
mod bitboard;
mod board;
mod castling;
pub mod chess960;
mod color;
pub mod commands;
pub mod fen;
mod games;
mod movegen;
mod moves;
pub mod openings;
pub mod outcome;
pub mod perft;
mod pocket;
pub mod polyglot;
mod position;
mod role;
pub mod rules;
mod ruleset;
pub mod san;
mod square;
pub mod svg;
pub mod uci;
pub mod validate;
pub mod variant;
mod variants;
mod zobrist;

pub use notation;

pub use bitboard::Bitboard;
pub use board::Board;
pub use castling::{Castles, CastlingMode, CastlingRights, CastlingSide};
pub use color::{ByColor, Color};
pub use fen::{FenError, ParseFenError, Setup};
pub use moves::{MAX_MOVES, Move, MoveList};
pub use outcome::{Outcome, RepetitionTracker, VariantEnd};
pub use perft::perft;
pub use pocket::Pocket;
pub use position::{CastlingError, IllegalMoveError, Position, PositionError};
pub use role::{Piece, Role};
pub use ruleset::Ruleset;
pub use san::{Forgiven, San, SanError, SanPlus, SanToken};
pub use square::{File, ParseSquareError, Rank, Square};
pub use uci::Uci;
pub use variant::Variant;

pub use games::{
    GameReader, GameTree, ReadGame, read_games, read_games_with, to_export_string, write_game,
};
pub use rules::{ChessRules, MoveError, MoveProblem};
pub use validate::{GameOutline, ValidatedGame, ValidatingReader, Validator};

// The notation layer's types that a chess program uses, so that it depends on `pgn` alone.
// (`notation::Setup` and `notation::GameTree` are not re-exported under their names: `Setup` is
// this crate's FEN set-up, and [`GameTree`] is the notation layer's game with chess moves.)
pub use notation::{
    At, Diagnostic, DiagnosticKind, Dialect, Forgiveness, GameResult, KeepRaw, Line, LineId,
    Location, MoveContext, Nag, Node, NodeId, Player, RawGame, RawValue, ReadOptions, Reader,
    Rules, SetupError, Severity, Skip, Span, Tag, Tags, Tail, Visitor, WriteError, WriteOptions,
};
