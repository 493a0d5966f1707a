//! What every engine protocol gives, and how an engine is started.

use std::path::PathBuf;
use std::time::Duration;

use crate::{Analysis, EngineError, Limit, Query};

/// An engine that analyses positions: UCI now ([`crate::Uci`]), a draughts protocol (Scan's
/// Hub) later beside it.
pub trait Engine {
    /// Analyses `query` within `limit`, from a clean state: no memory of earlier searches, so
    /// that the result depends on the position and the limit alone, and a run with a node
    /// limit and one thread is reproducible. Gives up after `timeout`, the engine then being
    /// killed ([`EngineError::TimedOut`]).
    fn analyse(
        &mut self,
        query: &Query<'_>,
        limit: Limit,
        timeout: Duration,
    ) -> Result<Analysis, EngineError>;

    /// The engine's name as it gave it (UCI's `id name …`), else its path.
    fn name(&self) -> &str;
}

/// How to start an engine.
#[derive(Clone, Debug, Default)]
pub struct EngineConfig {
    /// The engine's program.
    pub path: PathBuf,
    /// The number of search threads (UCI's `Threads` option), or the engine's default.
    pub threads: Option<u32>,
    /// The size of the hash table in MiB (UCI's `Hash` option), or the engine's default.
    pub hash_mb: Option<u32>,
    /// Other options, as name and value, set in this order after `threads` and `hash_mb`.
    pub options: Vec<(String, String)>,
    /// How long the engine may take to answer its handshake; [`Duration::ZERO`] (the
    /// default) means [`EngineConfig::DEFAULT_START_TIMEOUT`].
    pub start_timeout: Duration,
}

impl EngineConfig {
    /// The start timeout when none is given: long enough for an engine loading a large
    /// network from a slow disk.
    pub const DEFAULT_START_TIMEOUT: Duration = Duration::from_secs(10);

    /// The configuration that starts the program at `path` with the engine's defaults.
    pub fn new(path: impl Into<PathBuf>) -> EngineConfig {
        EngineConfig {
            path: path.into(),
            ..EngineConfig::default()
        }
    }

    /// The start timeout in force: [`EngineConfig::start_timeout`], or the default for zero.
    pub fn effective_start_timeout(&self) -> Duration {
        if self.start_timeout.is_zero() {
            EngineConfig::DEFAULT_START_TIMEOUT
        } else {
            self.start_timeout
        }
    }
}
