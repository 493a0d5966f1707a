//! Draughts (checkers) for PDN files: game types, boards, the rules of
//! fourteen variants, positions, FEN and move notation.
//!
//! The crate knows the PDN 3.0 `GameType` tag ([`GameType`]), the board
//! shape and square names it describes ([`Geometry`]), the rules of every
//! variant the standard numbers ([`Variant`], [`VariantRules`]), positions with
//! legal move generation ([`Position`], [`Move`]), the draughts FEN
//! ([`fen`]), move text like `32-28`, `28x17` or `c3:e5` ([`movetext`]) and
//! perft ([`perft`]); pictures of positions as SVG ([`svg`]).
//!
//! PDN files are read and written with the `notation` crate's reader and
//! writer and this crate's [`DraughtsRules`] rules: game types from the
//! `GameType` or `Variant` tag (inferred from the moves when a file declares
//! none), set-ups from `FEN` tags and `/FEN "…"/` in the movetext, moves
//! resolved against the legal moves and written back in their shortest PDN 3.0
//! form, results in each game type's tokens ([`PDN_WRITE`]). Clock commands
//! in comments are read by [`commands`].
//!
//! ```
//! use notation::{read_games, to_export_string, ReadOptions};
//! use pdn::{DraughtsRules, PDN_WRITE};
//!
//! let pdn = b"[GameType \"20\"]\n\n1. 32-28 19-23 2. 28x19 14x23 1-0\n";
//! let rules = DraughtsRules::new();
//! let games = read_games(&rules, &pdn[..], ReadOptions::default());
//! // PDN 2.0's 1-0 is international draughts' 2-0: forgiven, with a warning.
//! assert_eq!(games[0].diagnostics.len(), 1);
//! let text = to_export_string(&rules, &games[0].game, &PDN_WRITE)?;
//! assert!(text.ends_with("1. 32-28 19-23 2. 28x19 14x23 2-0\n\n"));
//! # Ok::<(), notation::WriteError>(())
//! ```
//!
//! Readers are lenient where real files are sloppy: they return what they
//! forgave as warnings next to the value, and fail only with an error that
//! says why.
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
//!     let (m, _warnings) = pos.parse_move(text)?;
//!     pos.play(&m)?;
//! }
//! assert_eq!(pos.turn(), Color::White);
//! assert_eq!(pos.piece_on(23).map(|p| p.color), Some(Color::Black));
//! assert_eq!(pos.to_fen(), "W:W31,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50:B1,2,3,4,5,6,7,8,9,10,11,12,13,15,16,17,18,20,23");
//! assert_eq!(pos.legal_moves().len(), 9);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod bits;
mod board;
mod color;
pub mod commands;
mod every_reading;
mod export;
pub mod fen;
mod forgiven;
pub mod gametype;
pub mod geometry;
mod inline_setup;
mod movegen;
mod moves;
pub mod movetext;
mod one_reading;
mod pdn_move;
mod pdn_position;
pub mod perft;
mod position;
pub mod result;
mod rules;
mod setups;
mod start_position;
pub mod svg;
mod validate;
pub mod variant;

pub use color::{Color, Piece, Role};
pub use export::{PDN_ROSTER, PDN_WRITE};
pub use fen::{FenError, FenWarning};
pub use forgiven::{Forgiven, Leniency};
pub use gametype::{GameType, GameTypeError, GameTypeWarning, UnsupportedGame, VariantTag};
pub use geometry::{
    Corner, Geometry, GeometryError, Notation, NotationKind, Square, SquareError, SquareName,
    SquareRef,
};
pub use moves::Move;
pub use movetext::{MoveError, MoveWarning};
pub use pdn_move::PdnMove;
pub use pdn_position::PdnPosition;
pub use position::{IllegalMove, Outcome, Position, PositionError};
pub use result::{GameResult, ResultType};
pub use rules::DraughtsRules;
pub use start_position::INFERRED_VARIANTS;
pub use validate::{ValidatedGame, ValidatingReader, Validator};
pub use variant::{
    BoardKind, Directions, KingRange, Landing, Precedence, Promotion, Removal, StartRows,
    UnknownVariant, Variant, VariantRules,
};
