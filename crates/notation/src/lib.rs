//! The generic notation layer shared by PGN (chess) and PDN (draughts).
//!
//! This crate knows no game. It reads and writes the notation both standards share:
//! tag pairs, brace and line comments, `%` escape lines, move numbers, annotation
//! glyphs and suffix annotations, nested variations, termination markers. A game's
//! rules plug in through the [`Rules`] trait: its positions, its moves, how a move token
//! is read and written. [`RawRules`] keeps moves as opaque tokens.
//!
//! Two ways to read, both streaming over any [`std::io::Read`] in constant memory:
//! - a [`Visitor`] receives callbacks per token with no allocation per token;
//! - [`GameReader`] builds an owned [`GameTree`] per game, playing every move with the rules.
//!
//! Reading is lenient: every departure from the standard that is forgiven becomes a
//! [`Diagnostic`] with its line and column, and an unreadable game is reported and
//! skipped, never lost silently. Writing is strict: [`write_game`] produces the export
//! format byte for byte.

mod builder;
mod collector;
mod diagnostic;
mod dialect;
#[doc(hidden)]
pub mod differential;
mod encoding;
mod lexer;
mod line_stack;
mod location;
mod nag;
mod options;
mod outcome;
mod raw;
mod reader;
mod rules;
mod second;
mod skim;
mod span;
mod stream;
mod swar;
mod tags;
mod tagvalue;
mod tree;
mod validate;
mod visitor;
mod writer;

pub use builder::{
    Ended, GameBuilder, GameReader, GameSink, KeepRaw, Place, ReadGame, TreeSink, check_tag_value,
    read_games,
};
pub use collector::{GameDiagnostics, ValidatedGame};
pub use diagnostic::{Diagnostic, DiagnosticKind, Severity};
pub use dialect::Dialect;
pub use encoding::decode;
pub use lexer::{Gap, Lexed, Token, lex};
pub use line_stack::{LineStack, NoVariation, OpenLine};
pub use location::{Location, count_line_ends};
pub use nag::Nag;
pub use options::ReadOptions;
pub use outcome::GameResult;
pub use raw::{RawMove, RawMoveError, RawPosition, RawRules};
pub use reader::{Reader, reserve_game_room};
pub use rules::{Forgiveness, MoveContext, Player, Rules, Setup, SetupError, Strict};
pub use second::SecondReading;
pub use span::Span;
pub use stream::{ExportText, Exported, write_text_to};
pub use tags::{CheckedTag, RawTags, Tag, TagLookup, TagNames, Tags};
pub use tagvalue::{
    Date, Rating, Round, SetUpTags, TagValueError, Time, TimeControl, TimePeriod, check_tags,
    tag_items,
};
pub use tree::{GameTree, Line, LineId, Node, NodeId, Tail};
pub use validate::{Validate, ValidatingReader};
pub use visitor::{At, GameText, RawGame, RawValue, Skip, Visitor};
pub use writer::{
    PGN_ROSTER, WriteError, WriteOptions, collapsed, export_len, push_collapsed, push_decimal,
    to_export_string, write_game, write_game_to, write_movetext_to, write_tags,
};
