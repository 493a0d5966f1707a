//! The seam between the notation layer and a game: [`Rules`].
//!
//! Everything that depends on the game being played (its positions, its moves, how a
//! move token is read and written, whose turn it is) enters this crate through this
//! trait. The notation layer itself knows no game.

use std::fmt;

use crate::diagnostic::DiagnosticKind;
use crate::dialect::Dialect;
use crate::options::ReadOptions;
use crate::outcome::GameResult;
use crate::tags::Tags;
use crate::tree::GameTree;

/// Which player is to move: the one who moves first in the game, or the other.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Player {
    /// The player who makes the first move of the game (White in chess).
    First,
    /// The other player.
    Second,
}

/// What the move number written before a move said, if anything: `12.` or `12...`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MoveContext {
    /// The number written before the move.
    pub number: Option<u64>,
    /// Whether the number had three periods (a second-player move follows).
    pub ellipsis: bool,
}

/// What reading a move token forgave. `Display` says it to a person.
pub trait Forgiveness: fmt::Display {
    /// Whether nothing was forgiven.
    fn is_none(&self) -> bool;
}

/// Nothing to forgive: for rules that read only the standard form.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Strict;

impl fmt::Display for Strict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("nothing forgiven")
    }
}

impl Forgiveness for Strict {
    fn is_none(&self) -> bool {
        true
    }
}

/// A start position and what its set-up forgave.
#[derive(Clone, Debug)]
pub struct Setup<P> {
    /// The position.
    pub position: P,
    /// Each departure from the standard that was forgiven, for a person.
    pub warnings: Vec<String>,
}

/// Why a game's start position cannot be had.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// The rules are recognised but not supported (a chess variant, a board game
    /// with no rules here): the game is kept as text.
    #[error("{0}")]
    Unsupported(String),
    /// The set-up is invalid.
    #[error("{0}")]
    Invalid(String),
}

/// A game's rules, as the notation layer needs them.
///
/// Implemented by the chess crate, by the draughts crate, and by [`RawRules`](crate::RawRules),
/// whose moves are opaque tokens.
pub trait Rules {
    /// A position of the game.
    type Position: Clone;
    /// A move of the game.
    type Move: Clone + fmt::Debug + PartialEq;
    /// What reading a move token forgave.
    type Forgiven: Forgiveness;
    /// Why a move token could not be read or played.
    type MoveError: std::error::Error;

    /// The lexical dialect of this game's files.
    fn dialect(&self) -> Dialect;

    /// The start position given by the game's tags (for example `FEN`, `SetUp`,
    /// `Variant`, `GameType`).
    fn start_position(&self, tags: &Tags) -> Result<Setup<Self::Position>, SetupError>;

    /// A set-up written inside the movetext (PDN's `/FEN "…"/`), replacing `current`.
    ///
    /// The default refuses: most games have none.
    fn inline_setup(
        &self,
        current: &Self::Position,
        text: &str,
    ) -> Result<Setup<Self::Position>, SetupError> {
        let _ = (current, text);
        Err(SetupError::Unsupported(
            "set-ups inside the movetext are not part of this game's notation".to_owned(),
        ))
    }

    /// Told the move number written before the next move, before it is read.
    ///
    /// Games that know their positions ignore it (the default); a game that does not,
    /// such as [`RawRules`](crate::RawRules), follows it to number its moves.
    fn follow_move_number(&self, position: &mut Self::Position, context: MoveContext) {
        let _ = (position, context);
    }

    /// Whether a move token is cut short and continues in the next token: old
    /// column-aligned files write a space inside a move (`1- 7`). The reader then joins
    /// the token and the move token after it, with a space between, and reads them as
    /// one move.
    ///
    /// The default: never.
    fn move_continues(&self, token: &[u8]) -> bool {
        let _ = token;
        false
    }

    /// Reads a move token in a position, returning the move and what was forgiven.
    fn read_move(
        &self,
        position: &Self::Position,
        token: &[u8],
        context: MoveContext,
    ) -> Result<(Self::Move, Self::Forgiven), Self::MoveError>;

    /// Reads a move token in `position` and plays it there: [`Rules::read_move`], then
    /// [`Rules::play`]. On error `position` is unchanged.
    ///
    /// Rules that find the position after a move while reading it override it, so that
    /// a reader plays each move once.
    fn read_and_play(
        &self,
        position: &mut Self::Position,
        token: &[u8],
        context: MoveContext,
    ) -> Result<(Self::Move, Self::Forgiven), Self::MoveError> {
        let (mv, forgiven) = self.read_move(position, token, context)?;
        self.play(position, &mv);
        Ok((mv, forgiven))
    }

    /// Writes a move canonically, as the export format wants it.
    fn write_move(&self, position: &Self::Position, mv: &Self::Move, out: &mut String);

    /// Whether a move read with nothing forgiven ([`Forgiveness::is_none`]) is written
    /// back as the very token it was read from, so that a writer that writes as it
    /// reads may copy the token rather than write the move again. The default: no.
    fn writes_tokens_as_read(&self) -> bool {
        false
    }

    /// Plays a move (one that `read_move` returned for this position).
    fn play(&self, position: &mut Self::Position, mv: &Self::Move);

    /// Whose turn it is.
    fn turn(&self, position: &Self::Position) -> Player;

    /// The move number of the next move (the full-move number).
    fn move_number(&self, position: &Self::Position) -> u64;

    /// The result a game keeps, given its tags and the position at the end of its main
    /// line (`None` when its moves could not be played), with what was forgiven.
    ///
    /// Called by the reader with the game's termination marker (or the `Result` tag's
    /// value when the marker is missing), and by the writer before it writes the marker
    /// and the `Result` tag. Games whose result tokens depend on the rules map the marker
    /// to the one their game writes here (PDN: `1-0` in an international draughts game is
    /// the old spelling of `2-0`) and report each departure as a diagnostic.
    ///
    /// The default keeps the result and forgives nothing.
    fn game_result(
        &self,
        tags: &Tags,
        end: Option<&Self::Position>,
        result: GameResult,
    ) -> (GameResult, Vec<DiagnosticKind>) {
        let _ = (tags, end);
        (result, Vec::new())
    }

    /// The start position of a second reading of a game whose first reading, from
    /// [`start_position`](Rules::start_position), had an error; `None` when there is none
    /// (the default). Rules that leave out ways of reading a game that the common games
    /// never need, to read those fast, keep them here: PDN reads a game that declares no
    /// type in the game types it infers, and only a second reading tries the rarer ones.
    ///
    /// The tree builder and the validators read such a game again from its first byte,
    /// from this position, and keep the second reading (unless
    /// [`keeps_second_reading`](Rules::keeps_second_reading) says otherwise): it must
    /// read what the first read, up to where the first went wrong, the same way, so that
    /// it is never worse.
    fn second_reading(&self, tags: &Tags) -> Option<Result<Setup<Self::Position>, SetupError>> {
        let _ = tags;
        None
    }

    /// Whether the tree builder keeps the second reading of a game (see
    /// [`second_reading`](Rules::second_reading)), once read and settled, rather than its
    /// first (which is then read once more): rules whose second reading may give trees
    /// that cannot be written back or replayed from their tags alone refuse those. The
    /// validators ask it of the tree they do not build. The default: always.
    fn keeps_second_reading(&self, game: &GameTree<Self::Move>) -> bool {
        let _ = game;
        true
    }

    /// Settles a game just read into a tree, given its text and the position at the end
    /// of its main line: a game whose moves were read in several ways until they ruled
    /// all but one out (PDN's inferred game types) can be read again as what the moves
    /// settled, so that the tree holds that game's moves and tags that say so, and its
    /// export reads back as the same tree.
    ///
    /// Called by [`GameBuilder`](crate::GameBuilder) once a game is read; the
    /// diagnostics stay those of the game as read. The default keeps the game as read.
    fn settle(
        &self,
        game: &mut GameTree<Self::Move>,
        end: &Self::Position,
        text: &[u8],
        options: ReadOptions,
    ) {
        let _ = (game, end, text, options);
    }

    /// Whether [`settle`](Rules::settle) may change a game whose main line ends in `end`.
    /// A game read without its tree ([`GameBuilder::large_after`](crate::GameBuilder))
    /// is written as it is read again only when it does not; otherwise it is read again
    /// into a tree to be settled. The default: never, as the default `settle` changes
    /// nothing.
    fn settles(&self, end: &Self::Position) -> bool {
        let _ = end;
        false
    }
}
