//! A position index of game collections: which games reached a position, what was played
//! from it and how it scored, filtered by month, rating group, speed and player, as
//! lichess's opening explorer answers — for chess (every variant) and draughts (every game
//! type), over the user's own files.
//!
//! - [`build()`] reads PGN or PDN inputs (through `collection`: folders, compressed files,
//!   standard input) into an index folder, or adds them to one.
//! - [`Index`] answers: [`Index::explore`] (the explorer) and [`Index::find`] (the games);
//!   [`Index::find_placement`] the games of a placement as `select --position` gives it.
//! - [`catalogue::Catalogue`] lists the games that match a search (players, event, date,
//!   result, ratings…), sorted and a page at a time.
//! - [`position_of`] reads a position as a query gives it: a FEN and moves.
//! - [`merge()`] joins indexes built apart into one: of other files, or shards of byte
//!   ranges of one file ([`BuildOptions::range`]), as one build over them all.
//!
//! An index is a folder: `index.json` (the [`manifest`]) and one segment file per build or
//! append, each a file of sorted tables written once. See the `segment` module for the
//! tables and the `store` module for the file.
//!
//! ```
//! use collection::job::{Job, Silent};
//! use index::{BuildOptions, Filter, Index, Limits, build, position_of};
//!
//! let dir = tempfile::tempdir()?;
//! let sources = collection::input::collect(&["../../corpus/pgn/model.pgn".into()])?;
//! let mut job = Job::new(sources, 1, &Silent);
//! let built = build(&mut job, dir.path(), &BuildOptions::default())?;
//! assert!(built.games > 0);
//!
//! let index = Index::open(dir.path())?;
//! let rules = pgn::ChessRules;
//! let start = position_of(&rules, None, None, "")?;
//! let explored = index.explore(&rules, &start.position, &Filter::default(), Limits::default())?;
//! assert!(explored.white + explored.draws + explored.black > 0);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod build;
pub mod catalogue;
mod codec;
pub mod dims;
mod error;
mod filter;
pub mod games;
pub mod json;
pub mod key;
mod line;
pub mod manifest;
mod placement;
mod query;
pub mod record;
pub mod rules;
mod runs;
mod segment;
mod store;
mod summary;

pub use build::{BuildOptions, Built, build, merge};
pub use error::IndexError;
pub use filter::{Color, Filter};
pub use key::PositionKey;
pub use query::{
    Answer, Asked, Explored, GameRef, GameSummary, Index, Limits, MoveStats, PlayerSummary,
    Question, position_of,
};
pub use record::{GameId, GameRecord, Posting};
pub use rules::{Game, IndexRules, MoveCode};
