//! The command line's own types: what clap parses into, before it is handed to the
//! library ([`collection`]), which knows no command line.

use clap::{Args, ValueEnum};
use collection::{dedupe, input, select};

/// The notation of an input (the library's [`input::Format`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// Chess: Portable Game Notation.
    Pgn,
    /// Draughts: Portable Draughts Notation.
    Pdn,
}

impl From<Format> for input::Format {
    fn from(format: Format) -> input::Format {
        match format {
            Format::Pgn => input::Format::Pgn,
            Format::Pdn => input::Format::Pdn,
        }
    }
}

/// What makes two games the same (the library's [`dedupe::By`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum By {
    /// The same start position and the same main-line moves.
    Moves,
    /// The same final position after the same number of plies.
    Position,
}

impl From<By> for dedupe::By {
    fn from(by: By) -> dedupe::By {
        match by {
            By::Moves => dedupe::By::Moves,
            By::Position => dedupe::By::Position,
        }
    }
}

/// Which of the duplicates stays (the library's [`dedupe::Keep`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Keep {
    /// The first in input order.
    First,
    /// The one with the most comments, variations and tags, where the first stood.
    Richest,
}

impl From<Keep> for dedupe::Keep {
    fn from(keep: Keep) -> dedupe::Keep {
        match keep {
            Keep::First => dedupe::Keep::First,
            Keep::Richest => dedupe::Keep::Richest,
        }
    }
}

/// `select`'s criteria as the command line gives them (the library's
/// [`select::Given`]): a game is selected when it matches all of them.
#[derive(Args, Clone, Debug, Default)]
pub struct Criteria {
    /// A tag test: `Name=value` (equal), `Name~text` (contains, ignoring case and
    /// accents), `Name>=value` (also `>`, `<`, `<=`, `!=`), `Name=LOW..HIGH`, `Name`
    /// (present), `!Name` (absent). Numbers, dates (`Date>=2020.01.01`), ECO codes and
    /// rounds compare as such. Repeatable: all must hold.
    #[arg(long = "tag", value_name = "TEST")]
    pub tags: Vec<String>,
    /// White or Black contains NAME, ignoring case and accents. Repeatable: all must hold.
    #[arg(long = "player", value_name = "NAME")]
    pub players: Vec<String>,
    /// The result: 1-0, 0-1, 1/2-1/2, *, or draughts' 2-0, 0-2, 1-1, 0-0 (a win is a
    /// win on either scale). Repeatable: any of them.
    #[arg(long = "result", value_name = "RESULT")]
    pub results: Vec<String>,
    /// Plies in the main line: MIN..MAX, MIN.., ..MAX or N.
    #[arg(long, value_name = "MIN..MAX")]
    pub plies: Option<String>,
    /// Moves in the main line (plies / 2, rounded up): MIN..MAX, MIN.., ..MAX or N.
    #[arg(long, value_name = "MIN..MAX")]
    pub moves: Option<String>,
    /// The main line starts with these moves, compared as moves: "1. e4 c5 2. Nf3".
    #[arg(long, value_name = "MOVES")]
    pub opening: Option<String>,
    /// A position of the main line: a FEN (chess: placement and side to move, placement
    /// alone for either side; draughts: either square notation, `?` for either side).
    #[arg(long, value_name = "FEN")]
    pub position: Option<String>,
    /// A position of the main line has exactly this material: chess `KQRPPkqrp`
    /// (upper case White), draughts men and kings per side `W:3m1k B:2m`.
    #[arg(long, value_name = "PIECES")]
    pub material: Option<String>,
    /// As --material, at least these pieces.
    #[arg(long, value_name = "PIECES")]
    pub material_at_least: Option<String>,
    /// The main line ends in checkmate (chess).
    #[arg(long)]
    pub checkmate: bool,
    /// The main line ends in stalemate (chess).
    #[arg(long)]
    pub stalemate: bool,
    /// A main-line pawn promotes to a rook, bishop or knight (chess).
    #[arg(long)]
    pub underpromotion: bool,
    /// A main-line position occurs a third time (chess).
    #[arg(long)]
    pub threefold: bool,
    /// The main line reaches fifty moves without a capture or pawn move (chess).
    #[arg(long)]
    pub fifty_moves: bool,
    /// Only games with an error (written as they were read).
    #[arg(long)]
    pub with_errors: bool,
    /// Only games without an error.
    #[arg(long)]
    pub without_errors: bool,
    /// Only games with a warning.
    #[arg(long)]
    pub with_warnings: bool,
}

impl From<Criteria> for select::Given {
    fn from(c: Criteria) -> select::Given {
        select::Given {
            tags: c.tags,
            players: c.players,
            results: c.results,
            plies: c.plies,
            moves: c.moves,
            opening: c.opening,
            position: c.position,
            material: c.material,
            material_at_least: c.material_at_least,
            checkmate: c.checkmate,
            stalemate: c.stalemate,
            underpromotion: c.underpromotion,
            threefold: c.threefold,
            fifty_moves: c.fifty_moves,
            with_errors: c.with_errors,
            without_errors: c.without_errors,
            with_warnings: c.with_warnings,
        }
    }
}
