//! Reading and writing chess games: the notation layer's reader and writer with the
//! [`ChessRules`] rules plugged in.

use std::io::{self, Read};

use notation::{Diagnostic, KeepRaw, ReadOptions, WriteError, WriteOptions};

use crate::{ChessRules, Move};

/// A chess game: tags, moves with their comments, glyphs and variations, the result, and
/// the movetext kept as text after a move that could not be read.
pub type GameTree = notation::GameTree<Move>;

/// A chess game as read: the game, its diagnostics, where it was in the input.
pub type ReadGame = notation::ReadGame<Move>;

/// Reads chess games one by one from any [`io::Read`], playing every move; memory is
/// bounded by the largest game, not by the input.
///
/// Each game comes with its diagnostics: what was forgiven (warnings) and what could not be
/// read (errors). A move that cannot be read or played ends the moves of its game: the
/// moves before it are kept, and the rest of the movetext is kept as text
/// ([`GameTree::tail`](notation::GameTree::tail)), so that writing the game back loses nothing.
///
/// ```
/// use pgn::GameReader;
/// let input = b"[White \"Fischer\"]\n\n1. e4 e5 2. Ng1-f3 *\n\n1. d4 Ke7 *\n";
/// let mut reader = GameReader::new(&input[..]);
///
/// let first = reader.read_game()?.unwrap();
/// assert_eq!(first.game.mainline().count(), 3);
/// assert_eq!(
///     first.diagnostics[0].to_string(),
///     "3:13: warning: Ng1-f3: origin square given more fully than needed; \
///      move written in long algebraic notation (game 1)"
/// );
///
/// let second = reader.read_game()?.unwrap();
/// assert!(second.has_errors());
/// assert_eq!(second.game.tail.as_ref().map(|t| t.text.as_str()), Some("Ke7"));
/// assert!(reader.read_game()?.is_none());
/// # Ok::<(), std::io::Error>(())
/// ```
pub struct GameReader<R> {
    inner: notation::GameReader<'static, ChessRules, R>,
}

impl<R: Read> GameReader<R> {
    /// A lenient reader of `input`.
    pub fn new(input: R) -> GameReader<R> {
        GameReader::with_options(input, ReadOptions::default())
    }

    /// A reader of `input` with these options (strict reading, size limits).
    pub fn with_options(input: R, options: ReadOptions) -> GameReader<R> {
        GameReader {
            inner: notation::GameReader::new(&ChessRules, input, options),
        }
    }

    /// Sets when a game's raw bytes are kept in [`ReadGame::raw`](notation::ReadGame::raw)
    /// (by default, when it has an error).
    pub fn keep_raw(self, keep: KeepRaw) -> GameReader<R> {
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

impl<R: Read> Iterator for GameReader<R> {
    type Item = io::Result<ReadGame>;

    fn next(&mut self) -> Option<Self::Item> {
        self.read_game().transpose()
    }
}

/// Reads every chess game of an input into memory, leniently. An I/O error ends the list
/// with an error diagnostic in the last game read.
///
/// ```
/// let games = pgn::read_games(&b"1. e4 e5 (1... c5 2. Nf3) 2. Nf3 1-0"[..]);
/// let game = &games[0].game;
/// assert_eq!(game.node_count(), 5);
/// assert_eq!(game.result, pgn::GameResult::FirstWins);
/// ```
pub fn read_games<R: Read>(input: R) -> Vec<ReadGame> {
    read_games_with(input, ReadOptions::default())
}

/// Reads every chess game of an input into memory with these options; see [`read_games`].
///
/// ```
/// use pgn::{read_games_with, ReadOptions, Severity};
/// let games = read_games_with(&b"1. e4 e5 2. Ng1f3 *"[..], ReadOptions::strict());
/// assert!(games[0].diagnostics.iter().all(|d| d.severity == Severity::Error));
/// ```
pub fn read_games_with<R: Read>(input: R, options: ReadOptions) -> Vec<ReadGame> {
    notation::read_games(&ChessRules, input, options)
}

/// Writes a chess game in the PGN export format, appending to `out`: the seven tag
/// roster, the other tags in ASCII order, the movetext in canonical SAN on lines of fewer
/// than 80 characters, move numbers where the standard wants them.
///
/// On error nothing is appended.
///
/// # Errors
/// [`WriteError`] when the game's start position cannot be set up from its tags (and it has
/// moves), or a tag name cannot be written.
///
/// ```
/// use pgn::{read_games, write_game};
/// let games = read_games(&b"[White \"Tal\"]\n\n1. e2e4 e5 2. Ng1f3 *"[..]);
/// let mut out = String::new();
/// write_game(&games[0].game, &mut out)?;
/// assert!(out.ends_with("[White \"Tal\"]\n[Black \"?\"]\n[Result \"*\"]\n\n1. e4 e5 2. Nf3 *\n\n"));
/// # Ok::<(), pgn::WriteError>(())
/// ```
pub fn write_game(game: &GameTree, out: &mut String) -> Result<(), WriteError> {
    write_game_with(game, &WriteOptions::PGN, out)
}

/// Writes a chess game as `options` say (the reduced export format, suffix symbols,
/// other line widths), appending to `out`; see [`write_game`].
///
/// # Errors
/// As [`write_game`].
///
/// ```
/// use pgn::{read_games, write_game_with, WriteOptions};
/// let games = read_games(&b"1. e4 {best by test} e5 (1... c5) *"[..]);
/// let mut out = String::new();
/// let reduced = WriteOptions { reduced: true, ..WriteOptions::PGN };
/// write_game_with(&games[0].game, &reduced, &mut out)?;
/// assert!(out.ends_with("\n\n1. e4 e5 *\n\n"));
/// # Ok::<(), pgn::WriteError>(())
/// ```
pub fn write_game_with(
    game: &GameTree,
    options: &WriteOptions,
    out: &mut String,
) -> Result<(), WriteError> {
    notation::write_game(&ChessRules, game, options, out)
}

/// Writes a chess game into a new string; see [`write_game`].
///
/// # Errors
/// As [`write_game`].
///
/// ```
/// let games = pgn::read_games(&b"1. e4 {best by test} e5 *"[..]);
/// let text = pgn::to_export_string(&games[0].game)?;
/// assert!(text.ends_with("\n\n1. e4 {best by test} 1... e5 *\n\n"));
/// # Ok::<(), pgn::WriteError>(())
/// ```
pub fn to_export_string(game: &GameTree) -> Result<String, WriteError> {
    notation::to_export_string(&ChessRules, game, &WriteOptions::PGN)
}
