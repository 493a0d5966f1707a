//! Draughts (checkers) games in PDN, and the draughts underneath: game types, boards and
//! their square names, the rules of fourteen variants, positions with legal moves, the
//! draughts FEN, move notation and perft.
//!
//! Read a file's games, check them, write them back in PDN 3.0's form:
//!
//! ```
//! use pdn::{GameReader, Severity};
//!
//! let file = b"[GameType \"20\"]\n\n1. 32-28 19-23 2. 28x19 14x23 1-0\n\n1. 11-15 23-19 *\n\n1. 32-27 *\n";
//! let mut written = String::new();
//! for game in GameReader::new(&file[..]) {
//!     let game = game?; // an I/O error; a bad game is a game with diagnostics
//!     for d in &game.diagnostics {
//!         println!("{d}"); // `line:column: warning|error: message (game N)`
//!     }
//!     if game.diagnostics.iter().any(|d| d.severity == Severity::Error) {
//!         continue; // the third game: 32-27 is no move in any game type read
//!     }
//!     pdn::write_game(&game.game, &mut written)?;
//! }
//! // PDN 2.0's 1-0 is international draughts' 2-0: forgiven, and written as 2-0. The
//! // second game declares no type: its moves are English draughts', and it says so.
//! assert!(written.contains("1. 32-28 19-23 2. 28x19 14x23 2-0\n"));
//! assert!(written.contains("[GameType \"21\"]"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Every game of a file is either read or reported: a move that cannot be read ends its
//! game's moves, its diagnostic says where and why, and the rest of the movetext is kept
//! as text so that writing the game back loses nothing. [`ValidatingReader`] checks games
//! faster, without building their trees; [`read_games`] reads a whole input into memory.
//! A game's type comes from its `GameType` or lidraughts' `Variant` tag, and is inferred
//! from its moves when a file declares none ([`DraughtsRules`]).
//!
//! Below the games, the draughts: positions read leniently, saying what they forgave.
//!
//! ```
//! use pdn::{Color, GameType, Position};
//!
//! // [GameType "20"] and [FEN "W:W31-50:B1-20"] describe the usual start.
//! let game_type: GameType = "20".parse()?;
//! let (mut pos, warnings) = Position::from_fen(game_type, "W:W31-50:B1-20")?;
//! assert!(warnings.is_empty());
//!
//! // Play 1. 32-28 19-23 2. 28x19 14x23 and look at the result.
//! for text in ["32-28", "19-23", "28x19", "14x23"] {
//!     pos = pos.resolve_move(text)?.after;
//! }
//! assert_eq!(pos.turn(), Color::White);
//! assert_eq!(pos.piece_on(23).map(|p| p.color), Some(Color::Black));
//! assert_eq!(pos.to_fen(), "W:W31,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50:B1,2,3,4,5,6,7,8,9,10,11,12,13,15,16,17,18,20,23");
//! assert_eq!(pos.legal_moves().len(), 9);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # What is where
//!
//! The crate's root holds the game: the `GameType` tag ([`GameType`]), the board shape
//! and square names it describes ([`Geometry`]), the rules of every variant the standard
//! numbers ([`Variant`], [`VariantRules`]), positions with legal move generation
//! ([`Position`], [`Move`]), results on each game type's scale ([`DraughtsResult`]),
//! and the front door above, with the notation layer's types a draughts program meets
//! (diagnostics, tags, the game tree's parts, options). Modules hold what is used by its
//! module's name:
//! - [`fen`]: the draughts FEN, read leniently and written canonically.
//! - [`movetext`]: move text read leniently, saying what was forgiven ([`MoveWarning`]),
//!   and written in its shortest form; [`movetext::Resolved`], a move read in a position
//!   and played.
//! - [`commands`]: `[%clock]`, `[%clk]` and the other commands of comments.
//! - [`svg`]: a position as an SVG picture, on any board, with the last move.
//! - [`perft`]: move-tree counts for testing move generation.
//!
//! [`DraughtsRules`] is the seam with the notation layer (`notation::Rules`): game types
//! from the tags or the moves, set-ups from `FEN` tags and `/FEN "…"/` in the movetext,
//! moves resolved against the legal moves and written back in their shortest PDN 3.0
//! form, results in each game type's tokens ([`PDN_WRITE`]).

mod bits;
mod board;
mod color;
pub mod commands;
mod every_reading;
mod export;
pub mod fen;
mod forgiven;
mod games;
mod gametype;
mod geometry;
mod inline_setup;
mod movegen;
mod moves;
pub mod movetext;
mod movetext_errors;
mod one_reading;
mod pdn_move;
mod pdn_position;
pub mod perft;
mod position;
mod result;
mod rules;
mod setups;
mod start_position;
pub mod svg;
mod validate;
mod variant;

// The front door: games read, checked and written.
pub use games::{
    GameReader, GameTree, ReadGame, read_games, read_games_with, to_export_string, write_game,
    write_game_with,
};
pub use rules::DraughtsRules;
pub use validate::{ValidatedGame, ValidatingReader, Validator};

// The game: game types, boards, variants, positions, moves and their notation.
pub use color::{Color, Piece, Role};
pub use export::{PDN_ROSTER, PDN_WRITE};
pub use forgiven::{Forgiven, Leniency};
pub use gametype::{GameType, GameTypeError, GameTypeWarning, UnsupportedGame, VariantTag};
pub use geometry::{
    Corner, Geometry, GeometryError, MAX_SQUARES, Notation, NotationKind, Square, SquareError,
    SquareName, SquareRef,
};
pub use moves::Move;
pub use movetext_errors::{MoveError, MoveWarning};
pub use pdn_move::PdnMove;
pub use pdn_position::PdnPosition;
pub use position::{IllegalMove, Outcome, Position, PositionError};
pub use result::{DraughtsResult, ResultType};
pub use start_position::INFERRED_VARIANTS;
pub use variant::{
    BoardKind, Directions, KingRange, Landing, Precedence, Promotion, Removal, StartRows,
    UnknownVariant, Variant, VariantRules,
};

// The notation layer's types that a draughts program meets, so that it depends on `pdn`
// alone.
pub use notation::{
    At, Diagnostic, DiagnosticKind, Dialect, Forgiveness, GameResult, KeepRaw, Line, LineId,
    Location, MoveContext, Nag, Node, NodeId, Player, RawGame, RawValue, ReadOptions, Reader,
    Rules, SetupError, Severity, Skip, Span, Tag, Tags, Tail, Visitor, WriteError, WriteOptions,
};
