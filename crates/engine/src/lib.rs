//! Chess engines as processes, knowing no game: a position goes in as text (a FEN record, a
//! variant's name), a score and a principal variation come out as the engine gave them.
//!
//! [`Uci`] speaks the Universal Chess Interface to an engine's program (Stockfish,
//! fairy-stockfish for the chess variants, any other UCI engine): it starts the process,
//! analyses each position from a clean state ([`Engine::analyse`]: a new game, so that a
//! result does not depend on what was analysed before), kills an engine that does not
//! answer within a timeout, and never panics on what an engine prints. [`Engine`] is what
//! every protocol gives, so that a draughts protocol can stand beside UCI.
//!
//! ```no_run
//! use std::time::Duration;
//! use engine::{Engine, EngineConfig, Limit, Query, Score, Uci};
//!
//! let mut stockfish = Uci::start(&EngineConfig::new("/usr/games/stockfish"))?;
//! let mate_in_one = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1";
//! let analysis = stockfish.analyse(&Query::chess(mate_in_one), Limit::Depth(5), Duration::from_secs(10))?;
//! assert_eq!(analysis.score, Score::Mate(1));
//! assert_eq!(analysis.pv, ["a1a8"]);
//! # Ok::<(), engine::EngineError>(())
//! ```
//!
//! - [`query`]: what is asked ([`Query`], [`Limit`]); [`analysis`]: what is answered
//!   ([`Analysis`], [`Score`]); [`error`]: what went wrong ([`EngineError`]).
//! - [`engine`](mod@engine): the [`Engine`] trait and how an engine is started
//!   ([`EngineConfig`]).
//! - [`info`]: UCI's `info` lines read ([`Info`]); [`uci`]: the process ([`Uci`]).

pub mod analysis;
pub mod engine;
pub mod error;
pub mod info;
mod lines;
pub mod query;
pub mod uci;

pub use analysis::{Analysis, Score};
pub use engine::{Engine, EngineConfig};
pub use error::EngineError;
pub use info::Info;
pub use query::{Limit, Query};
pub use uci::Uci;
