//! Chess games in PGN, and the chess underneath: positions, legal moves (standard chess,
//! Chess960 and the lichess variants), FEN, SAN, UCI, outcomes, openings and perft.
//!
//! Read a file's games, check them, write them back in the export format:
//!
//! ```
//! use pgn::{GameReader, Severity};
//!
//! let file = b"[Event \"Casual\"]\n\n1. e4 e5 2. Ng1-f3 Nc6 3. Bb5 a6 {Morphy} *\n\n1. d4 Ke7 *\n";
//! let mut written = String::new();
//! for game in GameReader::new(&file[..]) {
//!     let game = game?; // an I/O error; a bad game is a game with diagnostics
//!     for d in &game.diagnostics {
//!         println!("{d}"); // `line:column: warning|error: message (game N)`
//!     }
//!     if game.diagnostics.iter().any(|d| d.severity == Severity::Error) {
//!         continue; // the second game: the black king cannot go to e7
//!     }
//!     pgn::write_game(&game.game, &mut written)?;
//! }
//! // What was forgiven (the long algebraic Ng1-f3) is written as the standard wants it.
//! assert!(written.ends_with("1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 {Morphy} *\n\n"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Every game of a file is either read or reported: a move that cannot be read ends its
//! game's moves, its diagnostic says where and why, and the rest of the movetext is kept
//! as text so that writing the game back loses nothing. [`ValidatingReader`] checks games
//! faster, without building their trees; [`read_games`] reads a whole input into memory.
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
//! # Ok::<(), pgn::san::SanError>(())
//! ```
//!
//! ```
//! use pgn::{Position};
//! use pgn::Forgiven;
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
//! # What is where
//!
//! The crate's root holds the game: positions and moves, outcomes, variants, and the front door above (reading, checking, writing games), with
//! the notation layer's types a chess program meets (diagnostics, tags, the game tree's
//! parts, options). Modules hold what is used by its module's name:
//! - [`fen`]: FEN read leniently (X-FEN and Shredder-FEN castling, missing counters,
//!   the variants' pockets and counters) and written canonically; [`fen::Setup`].
//! - [`san`]: SAN read leniently, saying what was forgiven ([`Forgiven`]), and written
//!   canonically; [`uci`]: UCI moves.
//! - [`commands`]: `[%clk]`, `[%emt]`, `[%eval]`, `[%csl]`, `[%cal]` in comments.
//! - [`openings`]: the ECO code and name of a game's opening (lichess's table, embedded).
//! - [`polyglot`]: a position's Polyglot key, as opening books have it.
//! - [`svg`]: a position as an SVG picture, with the last move, check, `[%csl]` and `[%cal]`.
//! - [`perft`]: move-tree counts for testing move generation.
//! - [`chess960`]: the 960 start positions; castling on any files is built into [`Position`].
//! - [`attacks`]: the squares each piece attacks, from the magic-bitboard tables.
//!
//! [`ChessRules`] is the seam with the notation layer (`notation::Rules`): start
//! positions from the tags, lenient SAN in, canonical SAN out.

pub mod attacks;
mod bitboard;
mod board;
mod castling;
pub mod chess960;
mod color;
pub mod commands;
#[doc(hidden)]
pub mod differential;
pub mod fen;
mod games;
mod legal;
mod movegen;
mod moves;
pub mod openings;
mod outcome;
pub mod perft;
mod pocket;
pub mod polyglot;
mod position;
mod repetition;
mod role;
mod rules;
mod ruleset;
pub mod san;
mod setup;
mod square;
mod start;
pub mod svg;
pub mod uci;
mod validate;
mod variant;
mod variants;
mod zobrist;

// The front door: games read, checked and written.
pub use games::{
    GameReader, GameTree, ReadGame, read_games, read_games_with, to_export_string, write_game,
    write_game_with,
};
pub use rules::{ChessRules, MoveError, MoveProblem};
pub use san::forgiven::Forgiven;
pub use validate::{GameOutline, ValidatedGame, ValidatingReader, Validator};

// The game: positions, moves and their notations.
pub use bitboard::Bitboard;
pub use board::Board;
pub use castling::{Castles, CastlingMode, CastlingRights, CastlingSide};
pub use color::{ByColor, Color};
pub use moves::{MAX_MOVES, Move, MoveList};
pub use outcome::{Outcome, VariantEnd};
pub use pocket::Pocket;
pub use position::{CastlingError, IllegalMoveError, Position, PositionError};
pub use repetition::RepetitionTracker;
pub use role::{Piece, Role};
pub use ruleset::Ruleset;
pub use square::{File, ParseSquareError, Rank, Square};
pub use start::StartError;
pub use variant::Variant;

// The notation layer's types that a chess program meets, so that it depends on `pgn`
// alone. (`notation::Setup` is not among them: [`fen::Setup`] is this crate's FEN set-up.)
pub use notation::{
    At, Diagnostic, DiagnosticKind, Dialect, Forgiveness, GameResult, KeepRaw, Line, LineId,
    Location, MoveContext, Nag, Node, NodeId, Player, RawGame, RawValue, ReadOptions, Reader,
    Rules, SetupError, Severity, Skip, Span, Tag, Tags, Tail, Visitor, WriteError, WriteOptions,
};
