//! Reading and writing draughts games: the notation layer's reader and writer with PDN's
//! rules ([`DraughtsRules`]) plugged in, so that a program that depends on `pdn` alone
//! reads and writes PDN files as one that depends on `pgn` alone reads and writes PGN.

use std::io::{self, Read};

use notation::{Diagnostic, KeepRaw, ReadOptions, WriteError, WriteOptions};

use crate::{DraughtsRules, PDN_WRITE, PdnMove};

/// A draughts game: tags, moves with their comments, glyphs and variations, the result,
/// and the movetext kept as text after a move that could not be read.
pub type GameTree = notation::GameTree<PdnMove>;

/// A draughts game as read: the game, its diagnostics, where it was in the input.
pub type ReadGame = notation::ReadGame<PdnMove>;

/// PDN's rules: international draughts unless a game's tags or moves say otherwise.
static PDN: DraughtsRules = DraughtsRules::new();

/// Reads draughts games one by one from any [`io::Read`], playing every move; memory is
/// bounded by the largest game, not by the input.
///
/// Each game comes with its diagnostics: what was forgiven (warnings) and what could not
/// be read (errors). A game that declares no game type is read as the game type its
/// moves fit (see [`DraughtsRules`]), and says so in a warning and in the `GameType` tag
/// its tree is given. A move that cannot be read or played ends the moves of its game:
/// the moves before it are kept, and the rest of the movetext is kept as text
/// ([`GameTree::tail`](notation::GameTree::tail)), so that writing the game back loses
/// nothing.
///
/// The lifetime is the rules': [`GameReader::with_rules`] reads with rules of the
/// caller's; PDN's own live for the whole program.
///
/// ```
/// use pdn::GameReader;
/// let input = b"[GameType \"20\"]\n\n1. 32-28 19-23 2. 28x19 14x23 *\n\n1. 11-15 23-19 *\n";
/// let mut reader = GameReader::new(&input[..]);
///
/// let first = reader.read_game()?.unwrap();
/// assert_eq!(first.game.mainline().count(), 4);
/// assert!(first.diagnostics.is_empty());
///
/// // No GameType tag, and an English opening move: read as English draughts.
/// let second = reader.read_game()?.unwrap();
/// assert_eq!(second.game.tags.get("GameType"), Some("21"));
/// assert_eq!(second.diagnostics.len(), 1);
/// assert!(reader.read_game()?.is_none());
/// # Ok::<(), std::io::Error>(())
/// ```
pub struct GameReader<'r, R> {
    inner: notation::GameReader<'r, DraughtsRules, R>,
}

impl<R: Read> GameReader<'static, R> {
    /// A lenient reader of `input` with PDN's rules.
    pub fn new(input: R) -> GameReader<'static, R> {
        GameReader::with_options(input, ReadOptions::default())
    }

    /// A reader of `input` with PDN's rules and these options (strict reading, size
    /// limits).
    pub fn with_options(input: R, options: ReadOptions) -> GameReader<'static, R> {
        GameReader::with_rules(&PDN, input, options)
    }
}

impl<'r, R: Read> GameReader<'r, R> {
    /// A reader of `input` with these rules (a game type for the games that declare
    /// none, whether to infer it from their moves) and options.
    ///
    /// ```
    /// use pdn::{DraughtsRules, GameReader, GameType, ReadOptions, Variant};
    /// let russian = DraughtsRules::with_default(GameType::new(Variant::Russian)).inferring(false);
    /// let mut reader = GameReader::with_rules(&russian, &b"1. c3-d4 f6-g5 *"[..], ReadOptions::default());
    /// let game = reader.read_game()?.unwrap();
    /// assert!(game.diagnostics.is_empty());
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn with_rules(rules: &'r DraughtsRules, input: R, options: ReadOptions) -> Self {
        GameReader {
            inner: notation::GameReader::new(rules, input, options),
        }
    }

    /// Sets when a game's raw bytes are kept in [`ReadGame::raw`](notation::ReadGame::raw)
    /// (by default, when it has an error).
    pub fn keep_raw(self, keep: KeepRaw) -> Self {
        GameReader {
            inner: self.inner.keep_raw(keep),
        }
    }

    /// Reads the next game; `None` at the end of the input.
    ///
    /// # Errors
    /// The input's I/O errors.
    pub fn read_game(&mut self) -> io::Result<Option<ReadGame>> {
        self.inner.read_game()
    }

    /// Diagnostics about text outside any game (after the last one, or an input without
    /// games).
    pub fn take_orphans(&mut self) -> Vec<Diagnostic> {
        self.inner.take_orphans()
    }
}

impl<R: Read> Iterator for GameReader<'_, R> {
    type Item = io::Result<ReadGame>;

    fn next(&mut self) -> Option<Self::Item> {
        self.read_game().transpose()
    }
}

/// Reads every draughts game of an input into memory, leniently, with PDN's rules. An
/// I/O error ends the list with an error diagnostic in the last game read.
///
/// ```
/// let games = pdn::read_games(&b"1. 32-28 19-23 (1... 18-23) 2. 28x19 14x23 2-0"[..]);
/// let game = &games[0].game;
/// assert_eq!(game.node_count(), 5);
/// assert_eq!(game.result, pdn::GameResult::FirstWinsTwo);
/// ```
pub fn read_games<R: Read>(input: R) -> Vec<ReadGame> {
    read_games_with(input, ReadOptions::default())
}

/// Reads every draughts game of an input into memory with these options; see
/// [`read_games`].
///
/// ```
/// use pdn::{read_games_with, ReadOptions, Severity};
/// // PDN 2.0's 1-0 in an international game: forgiven, but not when reading strictly.
/// let games = read_games_with(&b"[GameType \"20\"]\n\n1. 32-28 19-23 1-0"[..], ReadOptions::strict());
/// assert!(games[0].diagnostics.iter().all(|d| d.severity == Severity::Error));
/// ```
pub fn read_games_with<R: Read>(input: R, options: ReadOptions) -> Vec<ReadGame> {
    notation::read_games(&PDN, input, options)
}

/// Writes a draughts game in PDN 3.0's export form ([`PDN_WRITE`]), appending to `out`:
/// the mandatory tags, the other tags in ASCII order, the movetext with each move in its
/// shortest form and the game type's capture separator, on lines of fewer than 80
/// characters, the result in the game type's own tokens.
///
/// On error nothing is appended.
///
/// # Errors
/// [`WriteError`] when the game's start position cannot be set up from its tags (and it
/// has moves), or a tag name cannot be written.
///
/// ```
/// use pdn::{read_games, write_game};
/// let games = read_games(&b"[White \"Sijbrands\"]\n\n1. 32-28 19-23 2. 28x19 14x23 *"[..]);
/// let mut out = String::new();
/// write_game(&games[0].game, &mut out)?;
/// assert!(out.ends_with("[White \"Sijbrands\"]\n[Black \"?\"]\n[Result \"*\"]\n\n1. 32-28 19-23 2. 28x19 14x23 *\n\n"));
/// # Ok::<(), pdn::WriteError>(())
/// ```
pub fn write_game(game: &GameTree, out: &mut String) -> Result<(), WriteError> {
    write_game_with(game, &PDN_WRITE, out)
}

/// Writes a draughts game as `options` say (the reduced form, other line widths),
/// appending to `out`; see [`write_game`].
///
/// # Errors
/// As [`write_game`].
pub fn write_game_with(
    game: &GameTree,
    options: &WriteOptions,
    out: &mut String,
) -> Result<(), WriteError> {
    notation::write_game(&PDN, game, options, out)
}

/// Writes a draughts game into a new string; see [`write_game`].
///
/// # Errors
/// As [`write_game`].
///
/// ```
/// let games = pdn::read_games(&b"1. 32-28 {the classical opening} 19-23 *"[..]);
/// let text = pdn::to_export_string(&games[0].game)?;
/// assert!(text.ends_with("\n\n1. 32-28 {the classical opening} 1... 19-23 *\n\n"));
/// # Ok::<(), pdn::WriteError>(())
/// ```
pub fn to_export_string(game: &GameTree) -> Result<String, WriteError> {
    notation::to_export_string(&PDN, game, &PDN_WRITE)
}
