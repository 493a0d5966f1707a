//! The export-format writer: a [`GameTree`] back to text, byte for byte as PGN §8 wants it.
//!
//! The export format fixes everything a reader may vary: the tag order (the seven tag
//! roster first, then the other tags in ASCII order of their names), one tag pair per
//! line, an empty line after the tags, movetext tokens separated by single spaces on
//! lines of fewer than 80 characters, move numbers before every first-player move and
//! before a second-player move only where something intervened, the termination marker
//! last, and an empty line after the game. Two programs that follow it write the same
//! bytes for the same game.
//!
//! The standard leaves the layout of comments and variations open ("needs definition
//! work"); this writer splits a comment into words that wrap like tokens, with the braces
//! attached to its first and last word (`{a good move}`), and writes the parentheses of a
//! variation as tokens of their own (`( 1. d4 d5 )`), so that even a variation nested
//! 100,000 deep wraps into lines of fewer than 80 characters.
//!
//! The tree is walked with an explicit stack, never by recursion: a hostile file may nest
//! variations as deep as it likes.
//!
//! [`write_game`] builds the whole game in a `String`. [`write_game_to`] writes to any
//! [`fmt::Write`] as it goes, holding no more than a line in memory: a token longer than
//! a line (a comment of one word of 50 MB) goes straight out, so that a large game is
//! not held again as text, nor copied on its way out.

use std::fmt::{self, Write as _};

use crate::nag::Nag;
use crate::outcome::GameResult;
use crate::rules::{Player, Rules, SetupError};
use crate::tags::Tags;
use crate::tree::{GameTree, LineId, NodeId};

/// The PGN seven tag roster (§8.1.1) with the values written when a tag is missing.
pub const PGN_ROSTER: &[(&str, &str)] = &[
    ("Event", "?"),
    ("Site", "?"),
    ("Date", "????.??.??"),
    ("Round", "?"),
    ("White", "?"),
    ("Black", "?"),
    ("Result", "*"),
];

/// How a game is written.
///
/// ```
/// use notation::WriteOptions;
/// let options = WriteOptions { suffix_symbols: true, ..WriteOptions::default() };
/// assert_eq!(options.line_width, 80);
/// assert_eq!(options.roster[0], ("Event", "?"));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WriteOptions {
    /// Movetext lines have fewer than this many characters (PGN: 80, so at most 79).
    /// A single token longer than that stands alone on its line. Tag pairs are never
    /// broken.
    pub line_width: usize,
    /// Write the glyphs `$1`..`$6` as the traditional suffixes `!`, `?`, `!!`, `??`,
    /// `!?`, `?!` attached to their move (at most one per move) instead of as `$n`.
    /// The export format wants `$n` (§8.2.3.8); the default is `false`.
    pub suffix_symbols: bool,
    /// The reduced export format (§3.2.4): the roster's tags only (and those that give the
    /// start position, `FEN`, `SetUp`, `Variant`, `GameType`, without which the game would
    /// not read back), no comments, no annotation glyphs, no variations.
    pub reduced: bool,
    /// Write the variations, as the export format does; `false` writes the main line
    /// alone, with its comments and glyphs (a table's one-line movetext, say).
    pub variations: bool,
    /// The tags written first, in this order, each with the value written when the game
    /// has no such tag. A tag named `Result` always gets the game's termination marker.
    pub roster: &'static [(&'static str, &'static str)],
}

impl WriteOptions {
    /// The PGN export format: lines under 80 characters, `$n` glyphs, the full game,
    /// the PGN seven tag roster.
    pub const PGN: WriteOptions = WriteOptions {
        line_width: 80,
        suffix_symbols: false,
        reduced: false,
        variations: true,
        roster: PGN_ROSTER,
    };
}

impl Default for WriteOptions {
    fn default() -> Self {
        WriteOptions::PGN
    }
}

/// Why a game cannot be written.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum WriteError {
    /// The start position given by the tags cannot be set up, so the moves cannot be
    /// numbered or written.
    #[error("cannot set up the start position: {0}")]
    Setup(SetupError),
    /// A set-up inside the movetext cannot be played.
    #[error("cannot play the set-up /{text}/: {error}")]
    InlineSetup {
        /// The set-up's text.
        text: String,
        /// Why the rules refused it.
        error: SetupError,
    },
    /// A set-up inside the movetext contains `/`, which would end it early.
    #[error("the set-up /{0}/ contains a '/' and cannot be written")]
    SetupText(String),
    /// A tag name that would not be read back as one tag name.
    #[error("tag name {0:?} cannot be written: it is empty or has a space, a quote or a bracket")]
    TagName(String),
    /// The reduced format leaves variations out, but the movetext that could not be read
    /// continues one of them: it cannot be written without the variation around it.
    #[error(
        "the unread movetext continues a variation, which the reduced export format leaves out"
    )]
    ReducedTail,
    /// [`write_text_to`](crate::write_text_to) writes a game as it reads it, and the
    /// game's glyphs, comments, variations or set-ups come in another order than the
    /// export format's: only its tree can be written.
    #[error("the game's annotations are not in the export format's order")]
    NotInExportOrder,
    /// [`write_text_to`](crate::write_text_to) could not have the memory to hold a
    /// comment of the move being written (its size comes from the input).
    #[error("not enough memory to hold a comment of {bytes} bytes")]
    OutOfMemory {
        /// The comment's size.
        bytes: usize,
    },
    /// The output of [`write_game_to`] refused the text (its own error says why).
    #[error("the output refused the text")]
    Output,
}

/// Writes a game in the export format, appending to `out`.
///
/// Positions are replayed from `rules.start_position(&game.tags)` to number the moves
/// and to let the rules write each one. The `Result` tag and the termination marker both
/// come from `game.result`, as [`Rules::game_result`] keeps it for the game. Output is LF-terminated and ends with an empty line.
///
/// On error nothing is appended.
///
/// ```
/// use notation::{write_game, GameTree, GameResult, LineId, Nag, RawMove, RawRules, WriteOptions};
/// let mut game: GameTree<RawMove> = GameTree::new();
/// game.tags.set("White", "Tal, Mikhail N.");
/// game.result = GameResult::FirstWins;
/// let e4 = game.push_move(LineId::MAIN, RawMove("e4".into()));
/// game.node_mut(e4).nags.push(Nag::GOOD);
/// let d4 = game.add_variation(e4);
/// game.push_move(d4, RawMove("d4".into()));
/// game.push_move(LineId::MAIN, RawMove("e5".into()));
///
/// let mut out = String::new();
/// write_game(&RawRules::PGN, &game, &WriteOptions::default(), &mut out)?;
/// assert_eq!(out, "[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n\
///                  [White \"Tal, Mikhail N.\"]\n[Black \"?\"]\n[Result \"1-0\"]\n\n\
///                  1. e4 $1 ( 1. d4 ) 1... e5 1-0\n\n");
/// # Ok::<(), notation::WriteError>(())
/// ```
pub fn write_game<R: Rules>(
    rules: &R,
    game: &GameTree<R::Move>,
    options: &WriteOptions,
    out: &mut String,
) -> Result<(), WriteError> {
    let start = out.len();
    // The movetext comes first: the result written in the tags and as the marker is the
    // one the rules keep for the position the main line ends in.
    let mut movetext = String::new();
    let written = write_movetext(rules, game, options, &mut movetext)
        .and_then(|result| write_tags(&game.tags, result, options, out));
    match written {
        Ok(()) => out.push_str(&movetext),
        Err(_) => out.truncate(start),
    }
    written
}

/// Writes a game's movetext section alone (its termination marker included, then the
/// empty line that ends the section), and gives the result written.
///
/// ```
/// use notation::{write_movetext_to, GameTree, RawMove, RawRules, WriteOptions};
/// let game: GameTree<RawMove> = GameTree::new();
/// let mut out = String::new();
/// write_movetext_to(&RawRules::PGN, &game, &WriteOptions::PGN, &mut out)?;
/// assert_eq!(out, "*\n\n");
/// # Ok::<(), notation::WriteError>(())
/// ```
pub fn write_movetext_to<R: Rules, W: fmt::Write>(
    rules: &R,
    game: &GameTree<R::Move>,
    options: &WriteOptions,
    out: &mut W,
) -> Result<GameResult, WriteError> {
    write_movetext(rules, game, options, out)
}

/// Counts the bytes written to it, and keeps none.
pub(crate) struct Count(pub(crate) usize);

impl fmt::Write for Count {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        self.0 += s.len();
        Ok(())
    }
}

/// The length in bytes of a game's export ([`write_game`]), or why it cannot be written:
/// the game is written, and the text thrown away as it comes. Nothing is held, so it
/// tells of a game of any size whether [`write_game_to`] will write it.
///
/// ```
/// use notation::{export_len, to_export_string, GameTree, RawMove, RawRules, WriteOptions};
/// let game: GameTree<RawMove> = GameTree::new();
/// let text = to_export_string(&RawRules::PGN, &game, &WriteOptions::default())?;
/// assert_eq!(export_len(&RawRules::PGN, &game, &WriteOptions::default())?, text.len());
/// # Ok::<(), notation::WriteError>(())
/// ```
pub fn export_len<R: Rules>(
    rules: &R,
    game: &GameTree<R::Move>,
    options: &WriteOptions,
) -> Result<usize, WriteError> {
    let mut count = Count(0);
    let result = write_movetext(rules, game, options, &mut count)?;
    write_tags_to(&game.tags, result, options, &mut count)?;
    Ok(count.0)
}

/// Writes a game in the export format to `out` as it goes: the same text as
/// [`write_game`], with no more than a line of it (and the tag pair being written) held
/// in memory, so that a game whose text is large is not held twice, as a tree and as
/// text.
///
/// The game is walked twice: first writing nothing, for the result its tags take (the
/// one the rules keep for the position its main line ends in) and to find out whether it
/// can be written, then to `out`. So on error nothing is written, except when `out`
/// itself fails ([`WriteError::Output`]): then what it took stays written.
///
/// ```
/// use notation::{write_game_to, to_export_string, GameTree, RawMove, RawRules, WriteOptions};
/// let mut game: GameTree<RawMove> = GameTree::new();
/// game.push_move(notation::LineId::MAIN, RawMove("e4".into()));
/// let mut out = String::new();
/// write_game_to(&RawRules::PGN, &game, &WriteOptions::default(), &mut out)?;
/// assert_eq!(out, to_export_string(&RawRules::PGN, &game, &WriteOptions::default())?);
/// # Ok::<(), notation::WriteError>(())
/// ```
pub fn write_game_to<R: Rules, W: fmt::Write>(
    rules: &R,
    game: &GameTree<R::Move>,
    options: &WriteOptions,
    out: &mut W,
) -> Result<(), WriteError> {
    let mut count = Count(0);
    let result = write_movetext(rules, game, options, &mut count)?;
    write_tags_to(&game.tags, result, options, &mut count)?;
    write_tags_to(&game.tags, result, options, out)?;
    write_movetext(rules, game, options, out)?;
    Ok(())
}

/// [`write_tags`] to any output, leaving what was written on error.
pub(crate) fn write_tags_to<W: fmt::Write>(
    tags: &Tags,
    result: GameResult,
    options: &WriteOptions,
    out: &mut W,
) -> Result<(), WriteError> {
    let mut any = false;
    write_tag_lines(tags, result, options, &mut any, out)?;
    if any {
        out.write_char('\n').map_err(|_| WriteError::Output)?;
    }
    Ok(())
}

/// Writes a game in the export format into a new string.
///
/// ```
/// use notation::{to_export_string, GameTree, RawMove, RawRules, WriteOptions};
/// let game: GameTree<RawMove> = GameTree::new();
/// let options = WriteOptions { reduced: true, ..WriteOptions::default() };
/// let text = to_export_string(&RawRules::PGN, &game, &options)?;
/// assert!(text.ends_with("[Result \"*\"]\n\n*\n\n"));
/// # Ok::<(), notation::WriteError>(())
/// ```
pub fn to_export_string<R: Rules>(
    rules: &R,
    game: &GameTree<R::Move>,
    options: &WriteOptions,
) -> Result<String, WriteError> {
    let mut out = String::new();
    write_game(rules, game, options, &mut out)?;
    Ok(out)
}

/// Writes the tag pair section, appending to `out`: the roster's tags in its order
/// (missing ones with their default values), then every other tag (in the reduced format,
/// only those that give the start position) in ASCII order of names (tags of the same name keep their order), each as
/// `[Name "value"]` on a line, then the empty line that ends the section. Writes nothing
/// at all when there is no tag to write.
///
/// A tag named `Result` gets `result`, so that it equals the termination marker. A roster
/// tag present twice is written once, with its first value. In values, `\` and `"` are
/// escaped as `\\` and `\"`; ASCII control characters (tabs, line ends), which the
/// export format does not allow in strings, become spaces (as the reader reads them).
///
/// On error nothing is appended.
///
/// ```
/// use notation::{write_tags, GameResult, Tags, WriteOptions};
/// let mut tags = Tags::new();
/// tags.set("WhiteElo", "2700");
/// tags.set("Annotator", "\"Kasparov\"");
/// let options = WriteOptions { roster: &[("Event", "?")], ..WriteOptions::default() };
/// let mut out = String::new();
/// write_tags(&tags, GameResult::Unknown, &options, &mut out)?;
/// assert_eq!(out, "[Event \"?\"]\n[Annotator \"\\\"Kasparov\\\"\"]\n[WhiteElo \"2700\"]\n\n");
/// # Ok::<(), notation::WriteError>(())
/// ```
pub fn write_tags(
    tags: &Tags,
    result: GameResult,
    options: &WriteOptions,
    out: &mut String,
) -> Result<(), WriteError> {
    let start = out.len();
    let written = write_tags_to(tags, result, options, out);
    if written.is_err() {
        out.truncate(start);
    }
    written
}

/// The tags that give a game's start position or rules (PGN §9.7, the de facto `Variant`,
/// PDN's `GameType`). The reduced export format keeps them: the standard's reduced format
/// has the roster only, which cannot hold a game from a set-up position, and a game written
/// without them would not read back.
const START_TAGS: [&str; 4] = ["FEN", "GameType", "SetUp", "Variant"];

/// Writes the tag lines; `any` tells whether there was one.
fn write_tag_lines<W: fmt::Write>(
    tags: &Tags,
    result: GameResult,
    options: &WriteOptions,
    any: &mut bool,
    out: &mut W,
) -> Result<(), WriteError> {
    for &(name, default) in options.roster {
        let value = tags.get(name).unwrap_or(default);
        write_tag(name, value, result, out)?;
        *any = true;
    }
    let mut others: Vec<_> = tags
        .iter()
        .filter(|tag| {
            !options
                .roster
                .iter()
                .any(|&(name, _)| crate::tags::same_name(name, &tag.name))
        })
        .filter(|tag| !options.reduced || START_TAGS.contains(&tag.name.as_str()))
        .collect();
    // `sort_by` is stable: tags of the same name keep their order.
    others.sort_by(|a, b| a.name.as_bytes().cmp(b.name.as_bytes()));
    for tag in others {
        write_tag(&tag.name, &tag.value, result, out)?;
        *any = true;
    }
    Ok(())
}

fn write_tag<W: fmt::Write>(
    name: &str,
    value: &str,
    result: GameResult,
    out: &mut W,
) -> Result<(), WriteError> {
    if !is_writable_tag_name(name) {
        return Err(WriteError::TagName(name.to_owned()));
    }
    let value = if name == "Result" {
        result.as_str()
    } else {
        value
    };
    let mut text = || -> fmt::Result {
        out.write_char('[')?;
        out.write_str(name)?;
        out.write_str(" \"")?;
        if crate::swar::free_of_controls_and(value.as_bytes(), [b'\\', b'"']) {
            // Nearly every value: nothing to escape.
            out.write_str(value)?;
            return out.write_str("\"]\n");
        }
        // Runs of plain characters go out whole; what needs escaping is ASCII, which
        // is never part of another character's bytes.
        let mut from = 0;
        for (i, b) in value.bytes().enumerate() {
            let escaped = match b {
                b'\\' => "\\\\",
                b'"' => "\\\"",
                b if b.is_ascii_control() => " ",
                _ => continue,
            };
            out.write_str(&value[from..i])?;
            out.write_str(escaped)?;
            from = i + 1;
        }
        out.write_str(&value[from..])?;
        out.write_str("\"]\n")
    };
    text().map_err(|_| WriteError::Output)
}

/// Whether a name reads back as a tag name: printable ASCII without the characters that
/// end a symbol or start another token. The standard wants letters, digits and `_` only;
/// the reader forgives other printable characters, so the writer keeps them.
fn is_writable_tag_name(name: &str) -> bool {
    !name.is_empty() && name.bytes().all(|b| TAG_NAME_BYTES[usize::from(b)])
}

/// The bytes [`is_writable_tag_name`] takes, looked up: every tag of every game is
/// written with its name checked.
const TAG_NAME_BYTES: [bool; 256] = {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 256 {
        let byte = b as u8;
        table[b] = byte.is_ascii_graphic()
            && !matches!(
                byte,
                b'"' | b'[' | b']' | b'{' | b'}' | b'(' | b')' | b'<' | b'>' | b';' | b'\\'
            );
        b += 1;
    }
    table
};

/// A variation being written: its line, the next move to write, the position before it.
struct Frame<P> {
    line: LineId,
    next: usize,
    position: P,
    /// Set after a move that has variations, until they are all written.
    pending: Option<Pending<P>>,
}

/// The variations of a move still to be written.
struct Pending<P> {
    node: NodeId,
    next_variation: usize,
    /// The position before the move: where its variations start.
    before: P,
}

fn write_movetext<R: Rules, W: fmt::Write>(
    rules: &R,
    game: &GameTree<R::Move>,
    options: &WriteOptions,
    out: &mut W,
) -> Result<GameResult, WriteError> {
    let mut w = Movetext::new(out, options.line_width);
    let main = game.line(LineId::MAIN);
    let end = if main.moves.is_empty() {
        // No move to write: the start position is not needed, which lets a game whose
        // rules are unsupported (its whole movetext kept as text) be written.
        if !options.reduced {
            for comment in &main.comments {
                w.comment(comment);
            }
        }
        if let Some(setup) = &main.setup {
            w.setup(setup)?;
        }
        if let Some(tail) = &game.tail {
            w.tail(&tail.text, &rules.dialect(), 0);
        }
        None
    } else {
        let position = rules
            .start_position(&game.tags)
            .map_err(WriteError::Setup)?
            .position;
        walk(rules, game, options, &mut w, position)?
    };
    let (result, _) = rules.game_result(&game.tags, end.as_ref(), game.result);
    w.word(result.as_str());
    w.end_line();
    // The empty line that follows the movetext section.
    w.put("\n");
    if w.failed {
        return Err(WriteError::Output);
    }
    Ok(result)
}

/// Writes the moves of every line, depth first in document order, with an explicit stack.
/// Returns the position the main line ends in (as far as its moves are in the tree).
fn walk<R: Rules, W: fmt::Write>(
    rules: &R,
    game: &GameTree<R::Move>,
    options: &WriteOptions,
    w: &mut Movetext<&mut W>,
    start: R::Position,
) -> Result<Option<R::Position>, WriteError> {
    let position = start_line(rules, game, options, w, LineId::MAIN, start)?;
    let mut stack = vec![Frame {
        line: LineId::MAIN,
        next: 0,
        position,
        pending: None,
    }];
    // Whether a second-player move written now needs its number (`12...`): at the start
    // of a line, and when anything intervened since the first-player move (§8.2.2.2).
    let mut number_second = true;
    let mut tail_written = false;
    let mut scratch = String::new();
    let mut main_end = None;

    while let Some(frame) = stack.last_mut() {
        if let Some(pending) = &mut frame.pending {
            let node = game.node(pending.node);
            if let Some(&variation) = node.variations.get(pending.next_variation) {
                pending.next_variation += 1;
                let before = pending.before.clone();
                w.word("(");
                let position = start_line(rules, game, options, w, variation, before)?;
                number_second = true;
                stack.push(Frame {
                    line: variation,
                    next: 0,
                    position,
                    pending: None,
                });
            } else {
                frame.pending = None;
                if let Some(setup) = &node.setup {
                    w.setup(setup)?;
                }
                // After `)` (or a set-up) a second-player move needs its number again.
                number_second = true;
            }
            continue;
        }

        if let Some(&id) = game.line(frame.line).moves.get(frame.next) {
            frame.next += 1;
            let node = game.node(id);
            let turn = w.move_number(rules, &frame.position, number_second);
            scratch.clear();
            rules.write_move(&frame.position, &node.mv, &mut scratch);
            // A second-player move right after a first-player move goes unnumbered;
            // after a second-player move, the next one (if the game allows it) is numbered.
            let intervened = w.annotated_move(&mut scratch, &node.nags, &node.comments, options);
            number_second = turn == Player::Second || intervened;

            let before = (!options.reduced && options.variations && !node.variations.is_empty())
                .then(|| frame.position.clone());
            rules.play(&mut frame.position, &node.mv);
            if let Some(setup) = &node.setup {
                frame.position = inline_setup(rules, &frame.position, setup)?;
            }
            match before {
                Some(before) => {
                    frame.pending = Some(Pending {
                        node: id,
                        next_variation: 0,
                        before,
                    });
                }
                None => {
                    if let Some(setup) = &node.setup {
                        w.setup(setup)?;
                        number_second = true;
                    }
                }
            }
            continue;
        }

        // The end of a line.
        if let Some(tail) = game.tail.as_ref().filter(|tail| tail.line == frame.line) {
            // Nothing after the tail's line is in the tree, and the tail text closes the
            // open variations itself (or is closed for it, if it is cut short).
            w.tail(&tail.text, &rules.dialect(), stack.len().saturating_sub(1));
            tail_written = true;
            break;
        }
        if let Some(done) = stack.pop() {
            if done.line == LineId::MAIN {
                main_end = Some(done.position);
            }
        }
        if !stack.is_empty() {
            w.word(")");
        }
    }
    // After a tail the main line's frame is still on the stack, at its bottom.
    let end = main_end.or_else(|| stack.into_iter().next().map(|main| main.position));

    match &game.tail {
        Some(_) if !tail_written && (options.reduced || !options.variations) => {
            // The tail continues a variation the reduced format leaves out.
            Err(WriteError::ReducedTail)
        }
        Some(tail) if !tail_written => {
            // The tail's line is not in this tree: keep the text rather than lose it.
            w.tail(&tail.text, &rules.dialect(), 0);
            Ok(end)
        }
        _ => Ok(end),
    }
}

/// Writes what comes before a line's first move (its comments and its set-up) and
/// returns the position its first move is played from.
fn start_line<R: Rules, W: fmt::Write>(
    rules: &R,
    game: &GameTree<R::Move>,
    options: &WriteOptions,
    w: &mut Movetext<&mut W>,
    id: LineId,
    mut position: R::Position,
) -> Result<R::Position, WriteError> {
    let line = game.line(id);
    if !options.reduced {
        for comment in &line.comments {
            w.comment(comment);
        }
    }
    if let Some(setup) = &line.setup {
        w.setup(setup)?;
        position = inline_setup(rules, &position, setup)?;
    }
    Ok(position)
}

fn inline_setup<R: Rules>(
    rules: &R,
    position: &R::Position,
    text: &str,
) -> Result<R::Position, WriteError> {
    if text.contains('/') {
        return Err(WriteError::SetupText(text.to_owned()));
    }
    rules
        .inline_setup(position, text)
        .map(|setup| setup.position)
        .map_err(|error| WriteError::InlineSetup {
            text: text.to_owned(),
            error,
        })
}

/// Where the last word of a line that does not start with `%` starts: a word starting
/// with `%` cannot start a line, and takes that word down with it when it must break.
#[derive(Clone, Copy, Debug)]
enum Anchor {
    /// At this byte offset (0: the line's first word).
    At(usize),
    /// In the brace comment that `line[start..end]` holds, placed whole: its last word
    /// that does not start with `%`, or the first. Found only when asked for, which is
    /// seldom (only movetext kept as text has words starting with `%`).
    InComment { start: usize, end: usize },
}

/// Lays movetext tokens out on lines of fewer than `width` characters.
pub(crate) struct Movetext<O: fmt::Write> {
    out: O,
    width: usize,
    /// The line being filled, without its line end (and without its start, when that
    /// went out already: see `written`).
    line: String,
    /// Characters in the line (not bytes: comments may hold any text); 0 when it is empty.
    chars: usize,
    /// Where in `line` its last word that does not start with `%` starts.
    anchor: Anchor,
    scratch: String,
    /// Whether the line's first word went straight out: a word too long for any line
    /// stands alone on its line, so nothing will move it, and it is not copied into
    /// `line` (a comment of one word of 50 MB is not held a second time).
    written: bool,
    /// Whether `out` refused text; nothing more is written then.
    pub(crate) failed: bool,
    /// Whether the line's last word went straight out and ends with `\r` written as two
    /// characters (see [`Movetext::end_line`]).
    written_cr: bool,
}

/// Appends `n` in decimal, as `write!(out, "{n}")` does, without the formatter's
/// machinery for the one to three digits of nearly every move number (this writer's and
/// the movetext that `columnar` gathers).
///
/// ```
/// let mut out = String::from("12");
/// notation::push_decimal(&mut out, 345);
/// assert_eq!(out, "12345");
/// ```
pub fn push_decimal(out: &mut String, n: u64) {
    let digit = |d: u64| char::from(b'0' + (d % 10) as u8);
    if n < 10 {
        out.push(digit(n));
    } else if n < 100 {
        out.push(digit(n / 10));
        out.push(digit(n));
    } else if n < 1000 {
        out.push(digit(n / 100));
        out.push(digit(n / 10));
        out.push(digit(n));
    } else {
        let _ = write!(out, "{n}");
    }
}

/// The characters of `text`. The words of movetext are nearly all ASCII, which is
/// quicker to tell than characters are to count.
fn char_count(text: &str) -> usize {
    if text.is_ascii() {
        text.len()
    } else {
        text.chars().count()
    }
}

/// Whether a word ends with `\r` written as two characters, which right before a line
/// end would be read as part of it (some programs write their carriage returns so): such
/// a word ends its line with a space after it.
fn ends_with_literal_cr(word: &str) -> bool {
    word.ends_with("\\r")
}

impl<O: fmt::Write> Movetext<O> {
    pub(crate) fn new(out: O, width: usize) -> Movetext<O> {
        Movetext {
            out,
            width,
            line: String::new(),
            chars: 0,
            anchor: Anchor::At(0),
            scratch: String::new(),
            written: false,
            failed: false,
            written_cr: false,
        }
    }

    /// Starts again on an empty line, for another game written to the same output.
    pub(crate) fn begin(&mut self) {
        self.line.clear();
        self.chars = 0;
        self.anchor = Anchor::At(0);
        self.written = false;
        self.failed = false;
        self.written_cr = false;
    }

    /// The output.
    pub(crate) fn out_mut(&mut self) -> &mut O {
        &mut self.out
    }

    /// Writes text to the output.
    pub(crate) fn put(&mut self, text: &str) {
        if !self.failed && self.out.write_str(text).is_err() {
            self.failed = true;
        }
    }

    /// Places one token: on the current line after a space if the line stays under the
    /// width, else at the start of a new line.
    pub(crate) fn word(&mut self, word: &str) {
        if word.is_empty() {
            return;
        }
        let n = char_count(word);
        if n >= self.width && !word.starts_with('%') {
            self.long_word(&[word], n);
            return;
        }
        if self.chars == 0 {
            self.chars = n;
            if word.starts_with('%') {
                // Nothing to lean on (the movetext's first word, or after a line that had
                // to end): a space keeps it out of column 1, where it would start an
                // escape line. Only movetext kept as text can have such a word.
                self.line.push(' ');
                self.chars += 1;
            }
            self.line.push_str(word);
            self.anchor = Anchor::At(0);
            return;
        }
        // A word that would end its line with a space after it leaves room for it.
        let room = n + usize::from(ends_with_literal_cr(word));
        if self.chars + 1 + room < self.width {
            if !word.starts_with('%') {
                self.anchor = Anchor::At(self.line.len() + 1);
            }
            self.line.push(' ');
            self.line.push_str(word);
            self.chars += 1 + n;
            return;
        }
        if word.starts_with('%') {
            // A line starting with `%` is an escape line that readers skip (§6), so a
            // word starting with `%` never starts a line: the last word before it moves
            // down with it. When there is no such word, the line grows past the width.
            let anchor = self.anchor_offset();
            if anchor == 0 {
                self.line.push(' ');
                self.line.push_str(word);
                self.chars += 1 + n;
                return;
            }
            let mut moved = self.line.split_off(anchor);
            self.line.pop(); // the space before the moved word
            self.end_line();
            moved.push(' ');
            moved.push_str(word);
            self.chars = moved.chars().count();
            self.line = moved;
            self.anchor = Anchor::At(0);
            return;
        }
        self.end_line();
        self.line.push_str(word);
        self.chars = n;
        self.anchor = Anchor::At(0);
    }

    /// Where in the line its last word that does not start with `%` starts.
    fn anchor_offset(&self) -> usize {
        match self.anchor {
            Anchor::At(offset) => offset,
            Anchor::InComment { start, end } => {
                let comment = &self.line.as_bytes()[start..end];
                (1..comment.len())
                    .rev()
                    .find(|&i| comment[i - 1] == b' ' && comment[i] != b'%')
                    .map_or(start, |i| start + i)
            }
        }
    }

    /// A word of `n` characters (its `parts` joined), at least a line's width, that does
    /// not start with `%`: it could share no line with the word before it, so it starts
    /// a new one, and it goes straight out, as [`Movetext::word`] would lay it out.
    fn long_word(&mut self, parts: &[&str], n: usize) {
        self.end_line();
        for part in parts {
            self.put(part);
        }
        self.chars = n;
        self.anchor = Anchor::At(0);
        self.written = true;
        self.written_cr = parts.last().is_some_and(|part| ends_with_literal_cr(part));
    }

    /// Ends the current line, if it has anything. A line that ends with `\r` written as
    /// two characters ends with a space after it, so that a reader does not take them for
    /// part of the line end.
    pub(crate) fn end_line(&mut self) {
        if self.chars > 0 {
            let line = std::mem::take(&mut self.line);
            self.put(&line);
            let cr = if line.is_empty() {
                self.written && self.written_cr
            } else {
                ends_with_literal_cr(&line)
            };
            // Each of a length known here: not a call to `memcpy`.
            if cr {
                self.put(" \n");
            } else {
                self.put("\n");
            }
            self.line = line;
            self.line.clear();
            self.chars = 0;
            self.anchor = Anchor::At(0);
            self.written = false;
            self.written_cr = false;
        }
    }

    /// Writes the number of a move played from `position` where the export format wants
    /// one: before every first-player move, and before a second-player move when
    /// `number_second` (at the start of a line, or after anything intervened since the
    /// first-player move, §8.2.2.2). Gives whose move it is.
    pub(crate) fn move_number<R: Rules>(
        &mut self,
        rules: &R,
        position: &R::Position,
        number_second: bool,
    ) -> Player {
        let turn = rules.turn(position);
        if turn == Player::First || number_second {
            let number = rules.move_number(position);
            let dots = if turn == Player::First { "." } else { "..." };
            let digits = match number {
                0..10 => Some(1),
                10..100 => Some(2),
                100..1000 => Some(3),
                _ => None,
            };
            // Nearly every number joins its line: placed as `word` places it (it does not
            // start with `%` or end with `\r`), without being written out first.
            let n = digits.map(|digits| digits + dots.len());
            if let Some(n) = n.filter(|n| self.chars > 0 && self.chars + 1 + n < self.width) {
                self.anchor = Anchor::At(self.line.len() + 1);
                self.line.push(' ');
                push_decimal(&mut self.line, number);
                // Of a length known here: not a call to `memcpy`.
                if turn == Player::First {
                    self.line.push('.');
                } else {
                    self.line.push_str("...");
                }
                self.chars += 1 + n;
                return turn;
            }
            let mut scratch = std::mem::take(&mut self.scratch);
            scratch.clear();
            push_decimal(&mut scratch, number);
            scratch.push_str(dots);
            self.word(&scratch);
            self.scratch = scratch;
        }
        turn
    }

    /// Writes a move (`word`, as the rules write it) and, unless the format is reduced,
    /// its glyphs and comments. Gives whether any of them was written apart from the
    /// move, so that a second-player move after it needs its number.
    pub(crate) fn annotated_move(
        &mut self,
        word: &mut String,
        nags: &[Nag],
        comments: &[String],
        options: &WriteOptions,
    ) -> bool {
        if options.reduced {
            self.word(word);
            return false;
        }
        // Only a first glyph can be glued on: reading puts a suffix first, so a later one
        // glued on would come back in another order. The suffix is part of the move
        // token, not an intervening annotation.
        let suffix = nags
            .first()
            .and_then(|nag| nag.suffix())
            .filter(|_| options.suffix_symbols);
        if let Some(suffix) = suffix {
            word.push_str(suffix);
        }
        self.word(word);
        let apart = &nags[usize::from(suffix.is_some())..];
        let mut scratch = std::mem::take(&mut self.scratch);
        for nag in apart {
            scratch.clear();
            let _ = write!(scratch, "{nag}");
            self.word(&scratch);
        }
        self.scratch = scratch;
        for comment in comments {
            self.comment(comment);
        }
        !apart.is_empty() || !comments.is_empty()
    }

    /// A brace comment, its words wrapping like tokens: `{first … last}`.
    pub(crate) fn comment(&mut self, text: &str) {
        let (start, end) = trimmed(text.as_bytes());
        // `}` is not white space: it is in the trimmed text if anywhere.
        let scan = Scan::of(&text.as_bytes()[start..end]);
        if scan.brace {
            // A brace comment ends at the first `}`; the text can only be written as a
            // rest-of-line comment (`;`), which ends its line.
            self.line_comment(text);
            return;
        }
        if scan.plain && start < end {
            // ASCII: a byte is a character.
            let n = end - start + 2;
            let fits = if self.chars == 0 {
                n < self.width
            } else {
                self.chars + 1 + n < self.width
            };
            // Both ends are at ASCII bytes: character boundaries.
            let inner = &text[start..end];
            if fits {
                self.comment_on_line(inner, n);
            } else if n < self.width && !scan.backslash && !scan.percent_word {
                self.comment_wrapped(inner);
            } else {
                self.comment_words(words_parted_by_spaces(inner).peekable());
            }
            return;
        }
        // ASCII text without a vertical tab (white space to `char`, not to `u8`) splits
        // the same at ASCII white space, which is quicker to find.
        if text.is_ascii() && !text.as_bytes().contains(&0x0b) {
            self.comment_words(text.split_ascii_whitespace().peekable());
        } else {
            self.comment_words(text.split_whitespace().peekable());
        }
    }

    /// A brace comment of `n` characters, `{inner}`, that fits on the current line: what
    /// placing its words one by one gives, in one step. `inner` is ASCII, its ends
    /// trimmed and its words parted by single spaces.
    ///
    /// Most comments of real files are such (lichess writes a clock after every move),
    /// and laying them out word by word was a tenth of `fmt`'s time.
    fn comment_on_line(&mut self, inner: &str, n: usize) {
        let follows = self.chars > 0;
        let start = self.line.len() + usize::from(follows);
        self.push_comment_part(inner, 0..inner.len(), follows);
        self.chars += usize::from(follows) + n;
        self.anchor = Anchor::InComment {
            start,
            end: self.line.len(),
        };
    }

    /// A brace comment, `{inner}`, that does not fit on the current line but is shorter
    /// than a line: what placing its words one by one gives, a line's run of words at a
    /// time. `inner` is ASCII, its ends trimmed and its words parted by single spaces;
    /// no word but the first starts with `%` and none holds a `\`, so every word may
    /// start a line and none needs room after it.
    ///
    /// A quarter of lichess's clock comments come here (a line is full before them).
    fn comment_wrapped(&mut self, inner: &str) {
        let bytes = inner.as_bytes();
        let len = bytes.len();
        // The words placed on the current line and not yet pushed to it, `inner[from..to]`;
        // whether they follow what the line had (after a space) or start it.
        let (mut from, mut to, mut follows) = (0, 0, true);
        // Where the last word placed starts in `inner`, if it did not start its line.
        let mut last_joined = None;
        // Not empty: else the comment, shorter than a line, would fit.
        let mut chars = self.chars;
        debug_assert!(chars > 0);
        let mut at = 0;
        while at < len {
            // Words are short: a loop finds their end sooner than a vector search.
            let end = bytes[at..]
                .iter()
                .position(|&b| b == b' ')
                .map_or(len, |space| at + space);
            // Each word is shorter than the line: the whole comment is.
            let n = end - at + usize::from(at == 0) + usize::from(end == len);
            if chars + 1 + n < self.width {
                if from == to {
                    from = at;
                }
                chars += 1 + n;
                last_joined = Some(at);
            } else {
                self.chars = chars;
                self.push_comment_part(inner, from..to, follows);
                self.end_line();
                (from, follows, chars, last_joined) = (at, false, n, None);
            }
            to = end;
            at = end + 1;
        }
        let line_start = self.line.len();
        self.push_comment_part(inner, from..to, follows);
        self.chars = chars;
        self.anchor = Anchor::At(last_joined.map_or(0, |at| {
            // Where the word starts on the line: after the space, if the words followed
            // the line's own, and after the `{` when they open the comment (but the `{`
            // is the first word's own).
            line_start + usize::from(follows) + usize::from(from == 0 && at > 0) + (at - from)
        }));
    }

    /// Pushes the words `inner[part]` of a brace comment to the line, with the comment's
    /// braces where the part holds its ends, after a space when they `follow` what the
    /// line has.
    #[inline(always)]
    fn push_comment_part(&mut self, inner: &str, part: std::ops::Range<usize>, follows: bool) {
        if part.is_empty() {
            return;
        }
        if follows {
            self.line.push(' ');
        }
        if part.start == 0 {
            self.line.push('{');
        }
        let closes = part.end == inner.len();
        // The part's ends are at ASCII bytes: character boundaries.
        self.line.push_str(&inner[part]);
        if closes {
            self.line.push('}');
        }
    }

    /// A brace comment of these words.
    fn comment_words<'t>(&mut self, mut words: std::iter::Peekable<impl Iterator<Item = &'t str>>) {
        let mut scratch = std::mem::take(&mut self.scratch);
        scratch.clear();
        scratch.push('{');
        if words.peek().is_none() {
            scratch.push('}');
            self.word(&scratch);
        }
        while let Some(word) = words.next() {
            let last = words.peek().is_none();
            // A word longer than a line goes out as it is, braces and all, uncopied.
            if word.len() + 2 >= self.width {
                let close = if last { "}" } else { "" };
                let n = scratch.len() + word.chars().count() + close.len();
                if n >= self.width {
                    self.long_word(&[&scratch, word, close], n);
                    scratch.clear();
                    continue;
                }
            }
            scratch.push_str(word);
            if last {
                scratch.push('}');
            }
            self.word(&scratch);
            scratch.clear();
        }
        self.scratch = scratch;
    }

    /// A rest-of-line comment: `;` and the text with its white space collapsed, then the
    /// end of the line.
    fn line_comment(&mut self, text: &str) {
        let n = 1 + collapsed_chars(text);
        if n >= self.width {
            // As a word of its own, it would stand alone on its line: out it goes, uncopied.
            self.end_line();
            self.put(";");
            for (i, word) in text.split_whitespace().enumerate() {
                if i > 0 {
                    self.put(" ");
                }
                self.put(word);
            }
            self.chars = n;
            self.anchor = Anchor::At(0);
            self.written = true;
            self.end_line();
            return;
        }
        let mut scratch = std::mem::take(&mut self.scratch);
        scratch.clear();
        scratch.push(';');
        push_collapsed(&mut scratch, text);
        self.word(&scratch);
        self.end_line();
        self.scratch = scratch;
    }

    /// An inline set-up, `/text/`, as one token.
    pub(crate) fn setup(&mut self, text: &str) -> Result<(), WriteError> {
        if text.contains('/') {
            return Err(WriteError::SetupText(text.to_owned()));
        }
        let mut scratch = std::mem::take(&mut self.scratch);
        scratch.clear();
        scratch.push('/');
        push_collapsed(&mut scratch, text);
        scratch.push('/');
        self.word(&scratch);
        self.scratch = scratch;
        Ok(())
    }

    /// Movetext kept as text, written token by token as the dialect's lexer reads it,
    /// so that it reads back as the same tokens: tokens glued together stay glued, the
    /// rest wrap like words; a `;` comment ends its line and a `%` line stays one; a brace
    /// comment, a string or a set-up cut short is closed, and so is every variation still
    /// open (the `open` ones around the tail, and those it opens itself). Otherwise the
    /// termination marker written after the tail could be swallowed or taken for text
    /// inside a variation, and every export would add one more.
    pub(crate) fn tail(&mut self, text: &str, dialect: &crate::dialect::Dialect, open: usize) {
        use crate::lexer::{Lexed, Token};
        let bytes = text.as_bytes();
        let mut depth = open;
        let mut word = String::new();
        let (mut pos, mut prev_end) = (0, None);
        let mut gap = crate::lexer::Gap::default();
        while let Lexed::Token { token, start, end } =
            crate::lexer::lex(bytes, pos, true, false, dialect, &mut gap)
        {
            if end <= pos {
                break;
            }
            if prev_end != Some(start) {
                self.word(&word);
                word.clear();
            }
            let source = String::from_utf8_lossy(&bytes[start..end]);
            match token {
                Token::Comment { text, .. } => {
                    self.word(&word);
                    word.clear();
                    self.comment(&String::from_utf8_lossy(text));
                }
                Token::LineComment(text) => {
                    self.word(&word);
                    word.clear();
                    self.line_comment(&String::from_utf8_lossy(text));
                }
                Token::Escape(text) => {
                    self.word(&word);
                    word.clear();
                    self.end_line();
                    self.put("%");
                    self.put(String::from_utf8_lossy(text).trim_end());
                    self.put("\n");
                }
                Token::String {
                    unterminated: true, ..
                } => {
                    let body = source.trim_end();
                    word.push_str(body);
                    // After an odd run of `\`, a quote would be escaped, not a close.
                    if (body.len() - body.trim_end_matches('\\').len()) % 2 == 1 {
                        word.push(' ');
                    }
                    word.push('"');
                }
                Token::Setup {
                    unterminated: true, ..
                } => {
                    word.push_str(source.trim_end());
                    word.push('/');
                }
                Token::VariationOpen => {
                    depth += 1;
                    word.push_str(&source);
                }
                Token::VariationClose => {
                    depth = depth.saturating_sub(1);
                    word.push_str(&source);
                }
                _ => word.push_str(&source),
            }
            prev_end = Some(end);
            pos = end;
        }
        self.word(&word);
        for _ in 0..depth {
            self.word(")");
        }
    }
}

/// The characters of `text` with each run of white space turned into one space and none
/// at the ends ([`push_collapsed`]).
fn collapsed_chars(text: &str) -> usize {
    text.split_whitespace()
        .enumerate()
        .map(|(i, word)| usize::from(i > 0) + word.chars().count())
        .sum()
}

/// Appends `text` with each run of white space (as Unicode defines it) turned into one
/// space and none at the ends: how comments are kept and written.
///
/// ```
/// let mut out = String::from("{");
/// notation::push_collapsed(&mut out, "  [%clk 0:03:00]\n\t good\u{a0}move ");
/// assert_eq!(out, "{[%clk 0:03:00] good move");
/// ```
pub fn push_collapsed(out: &mut String, text: &str) {
    match trimmed_if_collapsed(text) {
        Some(inner) => out.push_str(inner),
        None => push_words(out, text),
    }
}

/// `text` as [`push_collapsed`] writes it, without a copy where it can be had as a slice
/// of `text` (its white space, apart from its ends, is single spaces already), else
/// written in `scratch`.
///
/// ```
/// let mut scratch = String::new();
/// assert_eq!(notation::collapsed(" [%clk 0:03:00] ", &mut scratch), "[%clk 0:03:00]");
/// assert_eq!(notation::collapsed("a\n b", &mut scratch), "a b");
/// ```
pub fn collapsed<'t>(text: &'t str, scratch: &'t mut String) -> &'t str {
    match trimmed_if_collapsed(text) {
        Some(inner) => inner,
        None => {
            scratch.clear();
            push_words(scratch, text);
            scratch
        }
    }
}

/// `text` with its ends trimmed, when that is all collapsing it does: ASCII with single
/// spaces between its words. `None` for any other text, which
/// [`push_words`] collapses.
fn trimmed_if_collapsed(text: &str) -> Option<&str> {
    if text.len() < 64 {
        short_trimmed_if_collapsed(text)
    } else {
        long_trimmed_if_collapsed(text)
    }
}

/// [`trimmed_if_collapsed`] for a long text.
fn long_trimmed_if_collapsed(text: &str) -> Option<&str> {
    if !text.is_ascii() {
        return None;
    }
    // Comments are read by the million (a clock and an evaluation after every move of a
    // lichess game), nearly all of them ASCII, and most with single spaces between their
    // words: those are copied whole once their ends are trimmed. The ASCII white space
    // of `char::is_whitespace` includes the vertical tab.
    let (start, end) = trimmed(text.as_bytes());
    let inner = &text.as_bytes()[start..end];
    // Folds with no early exit over slices of one length, which the compiler vectorises.
    let controls = inner.iter().fold(false, |found, &b| found | (b < 0x20));
    let pairs = inner.iter().zip(inner.get(1..).unwrap_or_default());
    let doubled = pairs.fold(false, |found, (&a, &b)| found | ((a == b' ') & (b == b' ')));
    // Both ends are at ASCII bytes: character boundaries.
    (!controls && !doubled).then(|| &text[start..end])
}

/// [`trimmed_if_collapsed`] for a short text (a clock, an evaluation), scanned eight
/// bytes at a time where the vectorised folds cost more than they save.
fn short_trimmed_if_collapsed(text: &str) -> Option<&str> {
    let (start, end) = trimmed(text.as_bytes());
    // Both ends are at ASCII bytes: character boundaries.
    Scan::of(&text.as_bytes()[start..end])
        .plain
        .then(|| &text[start..end])
}

/// The words of a text whose words are parted by single spaces: what
/// `split_ascii_whitespace` gives of it, found without telling white space apart.
fn words_parted_by_spaces(text: &str) -> impl Iterator<Item = &str> {
    let mut rest = Some(text);
    std::iter::from_fn(move || {
        let text = rest?;
        match text.bytes().position(|b| b == b' ') {
            Some(space) => {
                // A space is ASCII: both sides are at character boundaries.
                rest = Some(&text[space + 1..]);
                Some(&text[..space])
            }
            None => {
                rest = None;
                Some(text)
            }
        }
    })
}

/// Where `bytes` start and end without the ASCII white space at their ends.
fn trimmed(bytes: &[u8]) -> (usize, usize) {
    let start = bytes
        .iter()
        .position(|&b| !ascii_space(b))
        .unwrap_or(bytes.len());
    let end = bytes
        .iter()
        .rposition(|&b| !ascii_space(b))
        .map_or(start, |last| last + 1);
    (start, end)
}

/// What a comment's text, its ends trimmed, holds that its layout depends on.
#[derive(Debug, PartialEq)]
struct Scan {
    /// ASCII without control characters (white space other than the space among them)
    /// and without two spaces in a row: the text is its collapsed form.
    plain: bool,
    /// A `}`, which cannot be in a brace comment.
    brace: bool,
    /// A `\`, which may end a word as `\r` written out (see [`ends_with_literal_cr`]).
    backslash: bool,
    /// A space followed by `%`: a word, not the first, that cannot start a line.
    percent_word: bool,
}

impl Scan {
    /// Scans `bytes` a block of 32 at a time, each block's bytes all alike, which the
    /// compiler turns into vector instructions. Comments are read by the million, most of
    /// them a clock or an evaluation of 15 to 30 bytes: one block.
    fn of(bytes: &[u8]) -> Scan {
        const BLOCK: usize = 32;
        let mut scan = Scan {
            plain: true,
            brace: false,
            backslash: false,
            percent_word: false,
        };
        let mut at = 0;
        loop {
            let end = bytes.len().min(at + BLOCK);
            // Padded with a letter, which changes nothing found; a byte more, so that each
            // byte is looked at with the one after it.
            let mut block = [b'a'; BLOCK + 1];
            block[..end - at].copy_from_slice(&bytes[at..end]);
            let (mut faults, mut braces, mut backslashes, mut percent_words) = (0, 0, 0, 0);
            for i in 0..BLOCK {
                let (b, after) = (block[i], block[i + 1]);
                let space = u8::from(b == b' ');
                faults |=
                    u8::from(b < 0x20) | u8::from(b >= 0x80) | space & u8::from(after == b' ');
                braces |= u8::from(b == b'}');
                backslashes |= u8::from(b == b'\\');
                percent_words |= space & u8::from(after == b'%');
            }
            scan.plain &= faults == 0;
            scan.brace |= braces != 0;
            scan.backslash |= backslashes != 0;
            scan.percent_word |= percent_words != 0;
            if end == bytes.len() {
                return scan;
            }
            // The blocks overlap by a byte: every pair of neighbours is in one of them.
            at = end - 1;
        }
    }
}

/// The ASCII bytes `char::is_whitespace` takes for white space (the vertical tab too).
fn ascii_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r')
}

/// Appends the words of `text` one space apart ([`push_collapsed`]'s general way).
fn push_words(out: &mut String, text: &str) {
    if !text.is_ascii() {
        for (i, word) in text.split_whitespace().enumerate() {
            if i > 0 {
                out.push(' ');
            }
            out.push_str(word);
        }
        return;
    }
    let bytes = text.as_bytes();
    let (mut at, mut first) = (0, true);
    while at < bytes.len() {
        while at < bytes.len() && ascii_space(bytes[at]) {
            at += 1;
        }
        let start = at;
        while at < bytes.len() && !ascii_space(bytes[at]) {
            at += 1;
        }
        if start < at {
            if !first {
                out.push(' ');
            }
            // Both ends are at ASCII bytes: character boundaries.
            out.push_str(&text[start..at]);
            first = false;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_numbers_are_written_in_decimal() {
        let mut numbers: Vec<u64> = (0..=1_100).collect();
        numbers.extend([9_999, 10_000, 123_456_789, u64::MAX]);
        for n in numbers {
            let mut out = String::from("x");
            push_decimal(&mut out, n);
            assert_eq!(out, format!("x{n}"));
        }
    }

    #[test]
    fn collapsing_white_space_keeps_the_words_one_space_apart() {
        // Every string of up to five characters from an alphabet of words, the ASCII
        // white space of `char::is_whitespace`, another control character and non-ASCII
        // white space: the fast ASCII paths (and the borrowing one) give what the words
        // joined by one space give.
        let alphabet = [
            'a', ' ', '\t', '\n', '\u{b}', '\u{c}', '\r', '\u{1}', '\u{a0}', 'é',
        ];
        let mut text = String::new();
        for n in 0..=5u32 {
            for code in 0..alphabet.len().pow(n) {
                text.clear();
                let mut rest = code;
                for _ in 0..n {
                    text.push(alphabet[rest % alphabet.len()]);
                    rest /= alphabet.len();
                }
                let mut out = String::from("x");
                push_collapsed(&mut out, &text);
                let words: Vec<&str> = text.split_whitespace().collect();
                assert_eq!(out, format!("x{}", words.join(" ")), "{text:?}");
                let mut scratch = String::from("left over");
                assert_eq!(collapsed(&text, &mut scratch), words.join(" "), "{text:?}");
            }
        }
    }
    use crate::nag::Nag;
    use crate::raw::{RawMove, RawRules};
    use crate::rules::{MoveContext, Setup, Strict};
    use crate::tree::Tail;

    /// Rules whose position is a ply counter: ply 0 is move 1 of the first player. The
    /// start ply comes from a `Ply` tag; a `Ply` tag that is not a number fails the
    /// set-up, and inline set-ups are ply numbers too.
    struct PlyRules;

    fn ply(text: &str) -> Result<Setup<u64>, SetupError> {
        text.trim()
            .parse()
            .map(|position| Setup {
                position,
                warnings: Vec::new(),
            })
            .map_err(|_| SetupError::Invalid(format!("bad ply {text:?}")))
    }

    impl Rules for PlyRules {
        type Position = u64;
        type Move = String;
        type Forgiven = Strict;
        type MoveError = std::convert::Infallible;

        fn dialect(&self) -> crate::dialect::Dialect {
            crate::dialect::Dialect::PGN
        }
        fn start_position(&self, tags: &Tags) -> Result<Setup<u64>, SetupError> {
            ply(tags.get("Ply").unwrap_or("0"))
        }
        fn inline_setup(&self, _current: &u64, text: &str) -> Result<Setup<u64>, SetupError> {
            ply(text)
        }
        fn read_move(
            &self,
            _position: &u64,
            token: &[u8],
            _context: MoveContext,
        ) -> Result<(String, Strict), Self::MoveError> {
            Ok((String::from_utf8_lossy(token).into_owned(), Strict))
        }
        fn write_move(&self, _position: &u64, mv: &String, out: &mut String) {
            out.push_str(mv);
        }
        fn play(&self, position: &mut u64, _mv: &String) {
            *position += 1;
        }
        fn turn(&self, position: &u64) -> Player {
            if position % 2 == 1 {
                Player::Second
            } else {
                Player::First
            }
        }
        fn move_number(&self, position: &u64) -> u64 {
            position / 2 + 1
        }
    }

    const STR_DEFAULT: &str = "[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n\
                               [Round \"?\"]\n[White \"?\"]\n[Black \"?\"]\n[Result \"*\"]\n\n";

    fn game(moves: &[&str]) -> GameTree<String> {
        let mut game = GameTree::new();
        for mv in moves {
            game.push_move(LineId::MAIN, (*mv).to_owned());
        }
        game
    }

    fn write(game: &GameTree<String>) -> String {
        write_with(game, &WriteOptions::default())
    }

    fn write_with(game: &GameTree<String>, options: &WriteOptions) -> String {
        match to_export_string(&PlyRules, game, options) {
            Ok(text) => text,
            Err(error) => panic!("cannot write: {error}"),
        }
    }

    /// The movetext: what follows the tag section.
    fn movetext(text: &str) -> &str {
        text.split_once("\n\n").map_or(text, |(_, rest)| rest)
    }

    #[test]
    fn empty_game_has_the_roster_defaults() {
        assert_eq!(write(&GameTree::new()), format!("{STR_DEFAULT}*\n\n"));
    }

    #[test]
    fn roster_first_then_other_tags_in_ascii_order() {
        let mut game = game(&[]);
        game.result = GameResult::Draw;
        for (name, value) in [
            ("annotator", "lower case sorts after upper case"),
            ("WhiteElo", "2700"),
            ("Result", "1-0"),
            ("Black", "Spassky, Boris V."),
            ("ECO", "B99"),
            ("Event", "F/S Return Match"),
            ("Date", "1992.11.04"),
        ] {
            game.tags.set(name, value);
        }
        game.tags.push(crate::tags::Tag {
            name: "ECO".into(),
            value: "second ECO".into(),
            raw: None,
        });
        game.tags.push(crate::tags::Tag {
            name: "Event".into(),
            value: "second Event".into(),
            raw: None,
        });
        assert_eq!(
            write(&game),
            "[Event \"F/S Return Match\"]\n[Site \"?\"]\n[Date \"1992.11.04\"]\n[Round \"?\"]\n\
             [White \"?\"]\n[Black \"Spassky, Boris V.\"]\n[Result \"1/2-1/2\"]\n\
             [ECO \"B99\"]\n[ECO \"second ECO\"]\n[WhiteElo \"2700\"]\n\
             [annotator \"lower case sorts after upper case\"]\n\n1/2-1/2\n\n"
        );
    }

    #[test]
    fn tag_values_are_escaped() {
        let mut game = game(&[]);
        game.tags.set("Event", r#"The "Big" \ Open"#);
        game.tags.set("Site", "tab\there\nnewline");
        let text = write(&game);
        assert!(
            text.starts_with(
                "[Event \"The \\\"Big\\\" \\\\ Open\"]\n[Site \"tab here newline\"]\n"
            )
        );
    }

    #[test]
    fn unwritable_tag_name_is_an_error_and_writes_nothing() {
        for name in ["", "Two words", "Quote\"", "Bracket]"] {
            let mut game = game(&["e4"]);
            game.tags.set(name, "x");
            let mut out = String::from("kept");
            let error = write_game(&PlyRules, &game, &WriteOptions::default(), &mut out);
            assert_eq!(error, Err(WriteError::TagName(name.to_owned())));
            assert_eq!(out, "kept");
        }
    }

    #[test]
    fn custom_roster_and_no_tags() {
        let options = WriteOptions {
            roster: &[("GameType", "20"), ("Result", "*")],
            ..WriteOptions::default()
        };
        let mut game = game(&["32-28"]);
        game.result = GameResult::FirstWinsTwo;
        assert_eq!(
            write_with(&game, &options),
            "[GameType \"20\"]\n[Result \"2-0\"]\n\n1. 32-28 2-0\n\n"
        );
        // With no tag at all there is no tag section and no empty line before the moves.
        let options = WriteOptions {
            roster: &[],
            ..WriteOptions::default()
        };
        assert_eq!(write_with(&game, &options), "1. 32-28 2-0\n\n");
    }

    #[test]
    fn first_moves_numbered_second_moves_not() {
        let game = game(&["e4", "e5", "Nf3", "Nc6", "Bb5"]);
        assert_eq!(movetext(&write(&game)), "1. e4 e5 2. Nf3 Nc6 3. Bb5 *\n\n");
    }

    #[test]
    fn game_starting_with_the_second_player() {
        let mut game = game(&["Kf7", "Kd2", "Ke6"]);
        game.tags.set("Ply", "41");
        assert_eq!(movetext(&write(&game)), "21... Kf7 22. Kd2 Ke6 *\n\n");
    }

    #[test]
    fn second_move_numbered_after_nag_comment_or_variation() {
        let mut game = game(&["e4", "e5", "Nf3", "Nc6", "Bb5", "a6"]);
        let main = game.line(LineId::MAIN).moves.clone();
        game.node_mut(main[0]).nags.push(Nag(10));
        game.node_mut(main[2]).comments.push("the knight".into());
        let variation = game.add_variation(main[4]);
        game.push_move(variation, "Bc4".into());
        game.push_move(variation, "Bc5".into());
        assert_eq!(
            movetext(&write(&game)),
            "1. e4 $10 1... e5 2. Nf3 {the knight} 2... Nc6 3. Bb5 ( 3. Bc4 Bc5 ) 3... a6 *\n\n"
        );
    }

    #[test]
    fn variation_of_a_second_player_move_starts_numbered() {
        let mut game = game(&["e4", "e5", "Nf3"]);
        let e5 = game.line(LineId::MAIN).moves[1];
        let first = game.add_variation(e5);
        game.push_move(first, "c5".into());
        game.push_move(first, "Nf3".into());
        let second = game.add_variation(e5);
        game.line_mut(second).comments.push("or".into());
        game.push_move(second, "e6".into());
        assert_eq!(
            movetext(&write(&game)),
            "1. e4 e5 ( 1... c5 2. Nf3 ) ( {or} 1... e6 ) 2. Nf3 *\n\n"
        );
    }

    #[test]
    fn order_per_node_move_nags_comments_variations() {
        let mut game = game(&["d4", "d5"]);
        game.line_mut(LineId::MAIN).comments.push("before".into());
        let d4 = game.line(LineId::MAIN).moves[0];
        game.node_mut(d4)
            .comments
            .extend(["one".into(), "two".into()]);
        game.node_mut(d4).nags.extend([Nag(1), Nag(14)]);
        let variation = game.add_variation(d4);
        let e4 = game.push_move(variation, "e4".into());
        let inner = game.add_variation(e4);
        game.push_move(inner, "c4".into());
        game.push_move(variation, "e5".into());
        assert_eq!(
            movetext(&write(&game)),
            "{before} 1. d4 $1 $14 {one} {two} ( 1. e4 ( 1. c4 ) 1... e5 ) 1... d5 *\n\n"
        );
    }

    #[test]
    fn empty_variation_and_empty_comment() {
        let mut game = game(&["e4"]);
        let e4 = game.line(LineId::MAIN).moves[0];
        game.node_mut(e4).comments.push(String::new());
        game.node_mut(e4).comments.push("  \n ".into());
        game.add_variation(e4);
        assert_eq!(movetext(&write(&game)), "1. e4 {} {} ( ) *\n\n");
    }

    #[test]
    fn suffix_symbols_attach_a_leading_suffix_glyph() {
        let mut game = game(&["e4", "e5", "Nf3"]);
        let moves = game.line(LineId::MAIN).moves.clone();
        game.node_mut(moves[0])
            .nags
            .extend([Nag(14), Nag::SPECULATIVE, Nag::GOOD]);
        game.node_mut(moves[2]).nags.push(Nag::BLUNDER);
        let options = WriteOptions {
            suffix_symbols: true,
            ..WriteOptions::default()
        };
        assert_eq!(
            movetext(&write_with(&game, &options)),
            "1. e4 $14 $5 $1 1... e5 2. Nf3?? *\n\n"
        );
        // Glyphs keep their order: only a first one is glued on (found by a property test:
        // `[$14, $1]` was written `e4! $14` and read back as `[$1, $14]`).
        game.node_mut(moves[0]).nags = vec![Nag::SPECULATIVE, Nag(14), Nag::GOOD];
        assert_eq!(
            movetext(&write_with(&game, &options)),
            "1. e4!? $14 $1 1... e5 2. Nf3?? *\n\n"
        );
        // A suffix alone is part of the move: the second-player move needs no number.
        game.node_mut(moves[0]).nags = vec![Nag::DUBIOUS];
        assert_eq!(
            movetext(&write_with(&game, &options)),
            "1. e4?! e5 2. Nf3?? *\n\n"
        );
        assert_eq!(movetext(&write(&game)), "1. e4 $6 1... e5 2. Nf3 $4 *\n\n");
    }

    #[test]
    fn reduced_export_format() {
        let mut game = game(&["e4", "e5"]);
        game.tags.set("ECO", "C20");
        game.tags.set("White", "Me");
        game.result = GameResult::SecondWins;
        game.line_mut(LineId::MAIN).comments.push("start".into());
        let e4 = game.line(LineId::MAIN).moves[0];
        game.node_mut(e4).nags.push(Nag::GOOD);
        game.node_mut(e4).comments.push("good".into());
        let variation = game.add_variation(e4);
        game.push_move(variation, "d4".into());
        let options = WriteOptions {
            reduced: true,
            suffix_symbols: true,
            ..WriteOptions::default()
        };
        assert_eq!(
            write_with(&game, &options),
            "[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n\
             [White \"Me\"]\n[Black \"?\"]\n[Result \"0-1\"]\n\n1. e4 e5 0-1\n\n"
        );
    }

    /// Moves `m` padded to `len` characters, to fill lines exactly.
    fn token(len: usize) -> String {
        "m".repeat(len)
    }

    #[test]
    fn lines_have_at_most_79_characters() {
        // "1. " + 73 + " " + 2 = 79 characters: one line.
        let fits = game(&[&token(73), &token(2)]);
        let text = write(&fits);
        assert_eq!(movetext(&text), format!("1. {} mm\n*\n\n", token(73)));
        // One more character would make 80: the last token goes to the next line.
        let long = game(&[&token(73), &token(3)]);
        assert_eq!(
            movetext(&write(&long)),
            format!("1. {}\nmmm *\n\n", token(73))
        );
    }

    #[test]
    fn line_width_counts_characters_not_bytes() {
        let mut game = game(&["e4"]);
        let e4 = game.line(LineId::MAIN).moves[0];
        // 76 two-byte characters: "1. e4" (5) + " " + 78 = 84, so the comment wraps;
        // "{" + 76 + "}" = 78 fits a line alone although it has 154 bytes.
        game.node_mut(e4).comments.push("é".repeat(76));
        assert_eq!(
            movetext(&write(&game)),
            format!("1. e4\n{{{}}}\n*\n\n", "é".repeat(76))
        );
    }

    #[test]
    fn token_longer_than_the_line_stands_alone() {
        let game = game(&["e4", &token(100), "Nf3"]);
        assert_eq!(
            movetext(&write(&game)),
            format!("1. e4\n{}\n2. Nf3 *\n\n", token(100))
        );
    }

    #[test]
    fn comments_wrap_word_by_word() {
        let mut game = game(&["e4", "e5"]);
        let e4 = game.line(LineId::MAIN).moves[0];
        let words: Vec<String> = (0..30).map(|i| format!("w{i:02}")).collect();
        game.node_mut(e4).comments.push(words.join("  \n\t"));
        let text = write(&game);
        let lines: Vec<&str> = movetext(&text).lines().collect();
        assert_eq!(
            lines,
            [
                "1. e4 {w00 w01 w02 w03 w04 w05 w06 w07 w08 w09 w10 w11 w12 w13 w14 w15 w16 w17",
                "w18 w19 w20 w21 w22 w23 w24 w25 w26 w27 w28 w29} 1... e5 *",
                "",
            ]
        );
        assert!(lines.iter().all(|line| line.chars().count() < 80));
    }

    #[test]
    fn comments_split_at_every_white_space_character() {
        let mut game = game(&["e4", "e5"]);
        let e4 = game.line(LineId::MAIN).moves[0];
        // ASCII (a vertical tab and a form feed among them; not the separators of the
        // 0x1c..0x1f range, which are no white space), then beyond ASCII.
        game.node_mut(e4)
            .comments
            .push("a\x0bb\x0cc\td\re\x1cf".to_owned());
        game.node_mut(e4)
            .comments
            .push("g\u{a0}h\u{2003}i\x0bj".to_owned());
        let text = write(&game);
        assert_eq!(
            movetext(&text),
            "1. e4 {a b c d e\x1cf} {g h i j} 1... e5 *\n\n"
        );
    }

    /// Lays `words` out with `Movetext::word`, then `comment` at every offset of a line.
    fn layouts(comment: &str, words: &[&str], by_words: bool) -> Vec<String> {
        (0..90)
            .map(|fill| {
                let mut movetext = Movetext::new(String::new(), 80);
                for word in words {
                    movetext.word(word);
                }
                if fill > 0 {
                    movetext.word(&token(fill));
                }
                if by_words {
                    movetext.comment_words(comment.split_whitespace().peekable());
                } else {
                    movetext.comment(comment);
                }
                // What follows shows where the anchor was left: a `%` word moves it down.
                movetext.word("%next");
                movetext.word("Nf3");
                movetext.end_line();
                movetext.out
            })
            .collect()
    }

    #[test]
    fn a_scan_by_blocks_finds_what_a_scan_byte_by_byte_finds() {
        let bytes = [
            b'a', b' ', b'}', b'%', b'\\', b'\t', 0x1f, 0x7e, 0x7f, 0x80, 0xc3, 0xff, 0,
        ];
        // Every text of up to three of these bytes, at every offset of a block.
        let mut texts = vec![Vec::new()];
        for len in 1..=3 {
            let mut text = vec![0; len];
            for mut code in 0..bytes.len().pow(len as u32) {
                for b in &mut text {
                    *b = bytes[code % bytes.len()];
                    code /= bytes.len();
                }
                texts.push(text.clone());
            }
        }
        for text in texts {
            for pad in 0..40 {
                // Before it, spaces fall at every place of a word and a block too.
                let mut padded = b"x x".repeat(pad / 3);
                padded.extend(b"x".repeat(pad % 3));
                padded.extend(&text);
                let plain = padded.iter().all(|&b| (0x20..0x80).contains(&b))
                    && !padded.windows(2).any(|w| w == b"  ");
                let expected = Scan {
                    plain,
                    brace: padded.contains(&b'}'),
                    backslash: padded.contains(&b'\\'),
                    percent_word: padded.windows(2).any(|w| w == b" %"),
                };
                assert_eq!(Scan::of(&padded), expected, "{padded:?}");
            }
        }
    }

    #[test]
    fn short_and_long_texts_are_found_collapsed_alike() {
        let texts = [
            "",
            " ",
            "a",
            " a ",
            "a b",
            "a  b",
            "a\tb",
            "\u{b}a",
            "a\u{b}",
            "a\u{7f}b",
            "é",
            " [%clk 0:03:00] ",
            "a\u{1}b",
            "\n[%eval 0.1]\r\n",
            "a \u{a0}b",
        ];
        for text in texts {
            for padded in [text.to_owned(), format!("{text}{}", " ".repeat(64))] {
                assert_eq!(
                    short_trimmed_if_collapsed(&padded),
                    long_trimmed_if_collapsed(&padded),
                    "{padded:?}"
                );
            }
            let long = format!("{text} {}", "word ".repeat(20));
            assert_eq!(
                short_trimmed_if_collapsed(&long),
                long_trimmed_if_collapsed(&long),
                "{long:?}"
            );
        }
    }

    /// A move number placed straight on its line is placed as its written word would be,
    /// at every offset of a line, with one to five digits, for either player.
    #[test]
    fn a_move_number_is_placed_as_its_word() {
        for ply in [
            0, 1, 16, 17, 18, 19, 196, 197, 198, 1996, 1997, 1998, 19_999, 20_000,
        ] {
            for number_second in [false, true] {
                for fill in 0..90 {
                    let layout = |by_word: bool| {
                        let mut movetext = Movetext::new(String::new(), 80);
                        if fill > 0 {
                            movetext.word(&token(fill));
                        }
                        if by_word {
                            let number = PlyRules.move_number(&ply);
                            match PlyRules.turn(&ply) {
                                Player::First => movetext.word(&format!("{number}.")),
                                Player::Second if number_second => {
                                    movetext.word(&format!("{number}..."));
                                }
                                Player::Second => {}
                            }
                        } else {
                            movetext.move_number(&PlyRules, &ply, number_second);
                        }
                        movetext.word("%next");
                        movetext.word("Nf3");
                        movetext.end_line();
                        movetext.out
                    };
                    assert_eq!(layout(false), layout(true), "ply {ply} after {fill}");
                }
            }
        }
    }

    #[test]
    fn a_comment_placed_whole_is_placed_as_its_words() {
        let comments = [
            "[%clk 0:03:00]",
            "  [%eval 0.17] [%clk 0:03:00]\n",
            "a %b %c",
            "%a %b",
            "%a b",
            "one",
            "ends with \\r",
            "a  b",
            "",
            "   ",
            "tab\tand new\nline",
            &"w ".repeat(40),
            &"x".repeat(77),
            &"x".repeat(78),
            "a bb ccc dddd eeeee ffffff ggggggg hhhhhhhh iiiiiiiii jjjjjjjjjj kkkkkkkk",
            "Black resigns: the knight on f3 is lost after 34. Qxh7+ Kf8 35. Qh8+",
        ];
        // Plain comments shorter than a line, of words of every length from 1 to 12 in
        // turn, so that every break falls at every place of a word.
        let mut generated = Vec::new();
        for len in (2..78).step_by(3) {
            let mut comment = String::new();
            let mut word = 1;
            while comment.len() < len {
                comment.push_str(&"abcdefghijkl"[..word.min(len - comment.len())]);
                comment.push(' ');
                word = word % 12 + 1;
            }
            generated.push(comment.trim_end().to_owned());
        }
        for comment in comments
            .iter()
            .copied()
            .chain(generated.iter().map(String::as_str))
        {
            for words in [&[][..], &["1."], &["%lead"], &[&"m".repeat(100)]] {
                assert_eq!(
                    layouts(comment, words, false),
                    layouts(comment, words, true),
                    "{comment:?} after {words:?}"
                );
            }
        }
    }

    /// Random comments of words that take every way through the layout (plain or not,
    /// `%` words, `\r` written out, words longer than a line, runs of white space) are
    /// placed as their words one by one.
    #[test]
    fn random_comments_are_placed_as_their_words() {
        let (long, longer) = ("y".repeat(70), "z".repeat(85));
        let plain = [
            "a",
            "bb",
            "ccc",
            "%d",
            "[%clk",
            "0:03:00]",
            "[%eval",
            "-1.25]",
            "twelve-chars",
        ];
        let spoilers = ["e\\r", "ééé", &long, &longer];
        let gaps = ["  ", "\t", "\n", "\u{b}"];
        // xorshift: the same comments on every run.
        let mut state = 0x2545_f491_4f6c_dd1d_u64;
        let mut next = |below: usize| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            usize::try_from(state % below as u64).unwrap_or(0)
        };
        for _ in 0..500 {
            // Most are plain, of one to ten words; one in eight of their words and gaps
            // is of another kind.
            let mut comment = String::new();
            if next(4) == 0 {
                comment.push(' ');
            }
            for i in 0..1 + next(10) {
                if i > 0 {
                    comment.push_str(if next(8) == 0 {
                        gaps[next(gaps.len())]
                    } else {
                        " "
                    });
                }
                comment.push_str(if next(8) == 0 {
                    spoilers[next(spoilers.len())]
                } else {
                    plain[next(plain.len())]
                });
            }
            if next(4) == 0 {
                comment.push(' ');
            }
            for words in [&[][..], &["1."], &["%lead"]] {
                assert_eq!(
                    layouts(&comment, words, false),
                    layouts(&comment, words, true),
                    "{comment:?} after {words:?}"
                );
            }
        }
    }

    #[test]
    fn narrow_width() {
        let game = game(&["e4", "e5", "Nf3"]);
        let options = WriteOptions {
            line_width: 6,
            ..WriteOptions::default()
        };
        assert_eq!(
            movetext(&write_with(&game, &options)),
            "1. e4\ne5 2.\nNf3 *\n\n"
        );
        let options = WriteOptions {
            line_width: 0,
            ..WriteOptions::default()
        };
        assert_eq!(
            movetext(&write_with(&game, &options)),
            "1.\ne4\ne5\n2.\nNf3\n*\n\n"
        );
    }

    #[test]
    fn comment_with_a_closing_brace_becomes_a_line_comment() {
        let mut game = game(&["e4", "e5"]);
        let e4 = game.line(LineId::MAIN).moves[0];
        game.node_mut(e4).comments.push("a } b\n c".into());
        assert_eq!(movetext(&write(&game)), "1. e4 ;a } b c\n1... e5 *\n\n");
    }

    #[test]
    fn a_word_starting_with_percent_never_starts_a_line() {
        let mut game = game(&["e4", "e5"]);
        let e4 = game.line(LineId::MAIN).moves[0];
        // "1. e4 {" + 66 + " xx" = 76 characters; "%50}" would make it 81.
        game.node_mut(e4)
            .comments
            .push(format!("{} xx %50", token(66)));
        assert_eq!(
            movetext(&write(&game)),
            format!("1. e4 {{{}\nxx %50}} 1... e5 *\n\n", token(66))
        );
    }

    #[test]
    fn start_position_error() {
        let mut game = game(&["e4"]);
        game.tags.set("Ply", "x");
        let mut out = String::new();
        let result = write_game(&PlyRules, &game, &WriteOptions::default(), &mut out);
        assert_eq!(
            result,
            Err(WriteError::Setup(SetupError::Invalid(
                "bad ply \"x\"".into()
            )))
        );
        assert_eq!(out, "");
        // With no moves the start position is not needed.
        let mut empty = GameTree::<String>::new();
        empty.tags.set("Ply", "x");
        assert!(to_export_string(&PlyRules, &empty, &WriteOptions::default()).is_ok());
    }

    #[test]
    fn inline_setups() {
        let mut game = game(&["a", "b"]);
        game.line_mut(LineId::MAIN).setup = Some("5".into());
        let b = game.line(LineId::MAIN).moves[1];
        game.node_mut(b).setup = Some("  10 ".into());
        let variation = game.add_variation(b);
        game.line_mut(variation).setup = Some("0".into());
        game.push_move(variation, "c".into());
        game.push_move(LineId::MAIN, "d".into());
        assert_eq!(
            movetext(&write(&game)),
            "/5/ 3... a 4. b ( /0/ 1. c ) /10/ 6. d *\n\n"
        );
        game.node_mut(b).setup = Some("a/b".into());
        assert_eq!(
            to_export_string(&PlyRules, &game, &WriteOptions::default()),
            Err(WriteError::SetupText("a/b".into()))
        );
        game.node_mut(b).setup = Some("x".into());
        assert!(matches!(
            to_export_string(&PlyRules, &game, &WriteOptions::default()),
            Err(WriteError::InlineSetup { .. })
        ));
    }

    #[test]
    fn setup_after_a_first_player_move_numbers_the_next() {
        let mut game = game(&["a", "b"]);
        let a = game.line(LineId::MAIN).moves[0];
        game.node_mut(a).setup = Some("1".into());
        assert_eq!(movetext(&write(&game)), "1. a /1/ 1... b *\n\n");
    }

    #[test]
    fn raw_rules_write_their_tokens() {
        let mut game: GameTree<RawMove> = GameTree::new();
        game.push_move(LineId::MAIN, RawMove("32-28".into()));
        game.push_move(LineId::MAIN, RawMove("19-23".into()));
        game.result = GameResult::DrawTwo;
        let text = to_export_string(&RawRules::PDN, &game, &WriteOptions::default());
        assert_eq!(text.as_deref().map(movetext), Ok("1. 32-28 19-23 1-1\n\n"));
    }

    /// The whole movetext kept as text: the game's rules are not supported.
    #[test]
    fn unsupported_game_is_all_tail() {
        let mut game: GameTree<String> = GameTree::new();
        game.tags.set("Ply", "not supported");
        game.result = GameResult::FirstWins;
        game.tail = Some(Tail {
            line: LineId::MAIN,
            text: "1. e4 {a\n comment} e5\n2. Qh5 ( 2. Nf3 )".into(),
        });
        assert_eq!(
            movetext(&write(&game)),
            "1. e4 {a comment} e5 2. Qh5 ( 2. Nf3 ) 1-0\n\n"
        );
    }

    #[test]
    fn tail_on_the_main_line_follows_the_moves() {
        let mut game = game(&["e4", "e5"]);
        let e5 = game.line(LineId::MAIN).moves[1];
        let variation = game.add_variation(e5);
        game.push_move(variation, "c5".into());
        game.tail = Some(Tail {
            line: LineId::MAIN,
            text: "2. Kxx9 Nc6".into(),
        });
        assert_eq!(
            movetext(&write(&game)),
            "1. e4 e5 ( 1... c5 ) 2. Kxx9 Nc6 *\n\n"
        );
        let reduced = WriteOptions {
            reduced: true,
            ..WriteOptions::default()
        };
        assert_eq!(
            movetext(&write_with(&game, &reduced)),
            "1. e4 e5 2. Kxx9 Nc6 *\n\n"
        );
    }

    #[test]
    fn tail_in_a_variation_closes_it_itself() {
        let mut game = game(&["e4"]);
        let e4 = game.line(LineId::MAIN).moves[0];
        let outer = game.add_variation(e4);
        let d4 = game.push_move(outer, "d4".into());
        let inner = game.add_variation(d4);
        game.push_move(inner, "c4".into());
        game.tail = Some(Tail {
            line: inner,
            text: "Zz9 ) ) 1... e5".into(),
        });
        assert_eq!(
            movetext(&write(&game)),
            "1. e4 ( 1. d4 ( 1. c4 Zz9 ) ) 1... e5 *\n\n"
        );
        let reduced = WriteOptions {
            reduced: true,
            ..WriteOptions::default()
        };
        assert_eq!(
            to_export_string(&PlyRules, &game, &reduced),
            Err(WriteError::ReducedTail)
        );
    }

    #[test]
    fn tail_cut_short_is_closed_before_the_marker() {
        // A variation the tail opens and a comment it leaves open are closed, so that the
        // marker after them reads back as the marker (found by the `pgn_games` fuzz target:
        // each export added one more `*`).
        let mut game = game(&["e4"]);
        let e4 = game.line(LineId::MAIN).moves[0];
        let variation = game.add_variation(e4);
        game.push_move(variation, "d4".into());
        game.tail = Some(Tail {
            line: variation,
            text: "Zz ( 1... e5 * {cut".into(),
        });
        let text = write(&game);
        assert_eq!(
            movetext(&text),
            "1. e4 ( 1. d4 Zz ( 1... e5 * {cut} ) ) *\n\n"
        );

        // A string ends at its line's end when read: written, it is closed.
        game.tail = Some(Tail {
            line: LineId::MAIN,
            text: "rs\"] a b\nc \"x\\\" y\" \"".into(),
        });
        assert_eq!(
            movetext(&write(&game)),
            "1. e4 ( 1. d4 ) rs\"] a b\" c \"x\\\" y\" \"\" *\n\n"
        );
    }

    #[test]
    fn tail_keeps_line_comments_and_escape_lines() {
        let mut game = game(&["e4"]);
        game.tail = Some(Tail {
            line: LineId::MAIN,
            text: "Bad {x ; y\n%z} e5;rest  of\tline\r\n%escape line\n Nf3 50%".into(),
        });
        assert_eq!(
            movetext(&write(&game)),
            "1. e4 Bad {x ; y %z} e5 ;rest of line\n%escape line\nNf3 50% *\n\n"
        );
    }

    #[test]
    fn nesting_100_000_variations_deep() {
        const DEPTH: usize = 100_000;
        let mut game = game(&["e4", "e5"]);
        let mut node = game.line(LineId::MAIN).moves[0];
        for _ in 0..DEPTH {
            let line = game.add_variation(node);
            node = game.push_move(line, "d4".into());
        }
        let text = write(&game);
        let body = movetext(&text);
        assert!(body.lines().all(|line| line.chars().count() < 80));
        assert_eq!(body.matches('(').count(), DEPTH);
        assert_eq!(body.matches(')').count(), DEPTH);
        assert!(body.starts_with("1. e4 ( 1. d4 ( 1. d4 ( 1. d4"));
        assert!(body.ends_with(") ) ) 1... e5 *\n\n"));
    }
    /// `write_game_to` and `export_len` write and count what `write_game` writes, on
    /// games whose words are longer than a line (which `write_game_to`'s layout sends
    /// straight out) in comments, line comments and kept text, next to `%` words and
    /// short words, in ASCII and not.
    #[test]
    fn streaming_writes_what_write_game_writes() {
        let long = "x".repeat(200);
        let wide = "\u{e9}".repeat(90);
        let narrow = "\u{e9}".repeat(40);
        let texts = [
            long.clone(),
            format!("a {long} b"),
            format!("{long}}} c"),
            format!("ab}} {long}"),
            format!("{wide} {narrow} {long}"),
            narrow.clone(),
            "short".to_owned(),
            String::new(),
        ];
        for text in &texts {
            for tail in [
                None,
                Some(format!("{long} %w e5")),
                Some(format!("%w {long} {{{text}}} e5 ;{text}\n %x")),
            ] {
                let mut game = game(&["e4", "e5", "Nf3"]);
                game.tags.set("Event", format!("\"{text}\\"));
                game.line_mut(LineId::MAIN).comments.push(text.clone());
                let e4 = game.line(LineId::MAIN).moves[0];
                game.node_mut(e4).comments.push(text.clone());
                game.node_mut(e4).comments.push("short".into());
                let variation = game.add_variation(e4);
                let d4 = game.push_move(variation, "d4".into());
                game.node_mut(d4).comments.push(format!("{text} {text}"));
                game.tail = tail.map(|text| Tail {
                    line: LineId::MAIN,
                    text,
                });
                let expected = write(&game);
                let options = WriteOptions::default();
                let mut streamed = String::new();
                assert_eq!(
                    write_game_to(&PlyRules, &game, &options, &mut streamed),
                    Ok(())
                );
                assert_eq!(streamed, expected);
                assert_eq!(export_len(&PlyRules, &game, &options), Ok(expected.len()));
                let body = movetext(&expected);
                assert!(body.lines().all(|line| line.chars().count() < 80
                    || !line.trim_start().contains(' ')
                    || line.contains(&long)
                    || line.contains(&wide)));
            }
        }
    }

    /// A long word stands alone on its line, as before the layout sent it straight out.
    #[test]
    fn a_word_longer_than_a_line_stands_alone() {
        let long = "y".repeat(100);
        let mut game = game(&["e4", "e5"]);
        let e4 = game.line(LineId::MAIN).moves[0];
        game.node_mut(e4).comments.push(format!("a {long} b"));
        game.tail = Some(Tail {
            line: LineId::MAIN,
            text: format!("{long} %w 2. Nf3"),
        });
        assert_eq!(
            movetext(&write(&game)),
            format!("1. e4 {{a\n{long}\nb}} 1... e5\n{long} %w\n2. Nf3 *\n\n")
        );
    }

    /// An output that refuses text is an error of its own, after what it took.
    #[test]
    fn an_output_that_fails_is_reported() {
        struct Full(usize);
        impl fmt::Write for Full {
            fn write_str(&mut self, s: &str) -> fmt::Result {
                self.0 = self.0.checked_sub(s.len()).ok_or(fmt::Error)?;
                Ok(())
            }
        }
        let game = game(&["e4", "e5"]);
        let options = WriteOptions::default();
        let len = export_len(&PlyRules, &game, &options).expect("writable");
        for room in [0, 10, len - 1] {
            let result = write_game_to(&PlyRules, &game, &options, &mut Full(room));
            assert_eq!(result, Err(WriteError::Output));
        }
        assert_eq!(
            write_game_to(&PlyRules, &game, &options, &mut Full(len)),
            Ok(())
        );
    }
}
