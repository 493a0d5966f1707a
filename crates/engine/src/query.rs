//! What an analysis is asked: a position and how long to search it.

use std::time::Duration;

/// How long an analysis may search.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Limit {
    /// Until the engine has searched this many nodes. With one thread, a search from a clean
    /// state to a node limit gives the same result every time.
    Nodes(u64),
    /// Until the engine has searched to this depth, in plies.
    Depth(u32),
    /// For this long (UCI counts it in milliseconds; a limit under one is sent as one).
    MoveTime(Duration),
}

/// A position to analyse, in terms no protocol owns.
#[derive(Clone, Copy, Debug)]
pub struct Query<'a> {
    /// The position as a FEN record, as the engine expects it for its variant.
    pub fen: &'a str,
    /// The engine's name for the variant (UCI's `UCI_Variant` option, which fairy-stockfish
    /// reads: `"crazyhouse"`, `"atomic"`, …), or `None` for standard chess.
    pub variant: Option<&'a str>,
    /// Whether castling follows Chess960's rules (UCI's `UCI_Chess960` option).
    pub chess960: bool,
}

impl<'a> Query<'a> {
    /// A position of standard chess, with the usual castling rules.
    pub fn chess(fen: &'a str) -> Query<'a> {
        Query {
            fen,
            variant: None,
            chess960: false,
        }
    }
}
