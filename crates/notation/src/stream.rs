//! Writing a game in the export format as it is read, with no tree: for games too large
//! to be held as a tree (a game of millions of moves takes some twenty times its text as
//! one).
//!
//! [`write_text_to`] reads a game's text twice with a [`GameBuilder`] whose sink writes
//! each move, glyph, comment, variation and set-up as it comes ([`ExportSink`]): first to
//! nowhere, for the result the tags take and to find out whether the game can be
//! written, then to the output, after the tags. It holds the game's text, the moves'
//! positions along the open lines, and a line of output; of the game's annotations, only
//! the comments of the move being written (a glyph may still follow them, and goes first).
//!
//! [`ExportText`] is the same sink writing into text it holds, game after game as a
//! reader reads them: the movetext of each game written as it is read, with no tree, for
//! a caller that holds games' texts anyway (`notate fmt` writes each game in the worker
//! that reads it).

use std::fmt;

use crate::builder::{Ended, GameBuilder, GameSink, Place};
use crate::diagnostic::Diagnostic;
use crate::nag::Nag;
use crate::options::ReadOptions;
use crate::outcome::GameResult;
use crate::reader::Reader;
use crate::rules::{Player, Rules};
use crate::span::Span;
use crate::tags::Tags;
use crate::tree::{LineId, NodeId};
use crate::visitor::GameText;
use crate::writer::{Count, Movetext, WriteError, WriteOptions, write_tags_to};

/// Writes the game that `text` holds (its bytes as written, [`ReadGame::span`]) in the
/// export format to `out` as it reads it, holding no tree: the same text as
/// [`write_game_to`](crate::write_game_to) writes for the tree a [`GameReader`] reads
/// from it, with `read` as the options. Only the first game of `text` is written.
///
/// That holds for a game read with no error whose glyphs, comments, variations and
/// set-ups come in the export format's order ([`ReadGame::streams`]). One whose
/// annotations come in another order is refused with [`WriteError::NotInExportOrder`],
/// before anything is written; one that does not stream for another reason (its rules
/// would settle its tree, or read it a second time) is written as it reads, which may not
/// be what its tree gives: a caller looks at [`ReadGame::streams`] first. A game with an
/// error is written as far as it was read, as its tree would be.
///
/// `text` (the game's bytes, and whether they began a line) is lent so that it is read
/// where it is, not copied into a reader's buffer; it is given back unchanged. On error nothing is written, except
/// when `out` itself fails ([`WriteError::Output`]).
///
/// [`ReadGame::span`]: crate::ReadGame::span
/// [`ReadGame::streams`]: crate::ReadGame::streams
/// [`GameReader`]: crate::GameReader
///
/// ```
/// use notation::{write_text_to, to_export_string, GameReader, GameText, RawRules, ReadOptions, WriteOptions};
/// let pgn = b"[White \"A\"]\n\n1. e4 {good} $1 (1. d4 d5) e5 *\n";
/// let (rules, read, write) = (RawRules::PGN, ReadOptions::default(), WriteOptions::default());
/// let tree = GameReader::new(&rules, &pgn[..], read).next().expect("a game")?.game;
///
/// let mut text = GameText { bytes: pgn.to_vec(), starts_line: true };
/// let mut out = String::new();
/// write_text_to(&rules, &mut text, read, &write, &mut out)?;
/// assert_eq!(out, to_export_string(&rules, &tree, &write)?);
/// assert_eq!(text.bytes, pgn);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn write_text_to<R: Rules, W: fmt::Write>(
    rules: &R,
    text: &mut GameText,
    read: ReadOptions,
    options: &WriteOptions,
    out: &mut W,
) -> Result<(), WriteError> {
    let mut count = Count(0);
    let (tags, result) = export_movetext(rules, text, read, options, &mut count)?;
    write_tags_to(&tags, result, options, &mut count)?;
    write_tags_to(&tags, result, options, out)?;
    export_movetext(rules, text, read, options, out)?;
    Ok(())
}

/// Reads the first game of `text` and writes its movetext to `out`; gives its tags and
/// the result its tags take.
fn export_movetext<R: Rules, W: fmt::Write>(
    rules: &R,
    text: &mut GameText,
    read: ReadOptions,
    options: &WriteOptions,
    out: &mut W,
) -> Result<(Tags, GameResult), WriteError> {
    let sink = ExportSink::new(rules, options, out);
    let mut builder = GameBuilder::with_sink(rules, read, sink);
    let written = Reader::lend(text, rules.dialect(), read, |reader| {
        reader.read_game(&mut builder)
    });
    match written {
        Ok(Some(exported)) => exported.written.map(|result| (exported.tags, result)),
        // Reading bytes in memory cannot fail, and there is a game in them unless they
        // are empty: then no game is written, as no tree would be.
        Ok(None) | Err(_) => Ok((Tags::new(), GameResult::Unknown)),
    }
}

/// A move written up to its number, and what follows it until something else comes:
/// its glyphs go before its comments, whichever comes first in the input. Its buffers
/// are kept from move to move.
#[derive(Default)]
struct Pending {
    /// Whether a move is waiting.
    waiting: bool,
    /// The move as the rules write it.
    word: String,
    nags: Vec<Nag>,
    /// Its comments: the first `comments_used` of these.
    comments: Vec<String>,
    comments_used: usize,
}

/// A comment kept from move to move takes no more than this; a larger one's buffer is
/// let go once it is written.
const KEPT_COMMENT_BYTES: usize = 1 << 16;

/// Where an [`ExportSink`] writes: text it holds, emptied as each game begins, or
/// another's output.
trait SinkOutput: fmt::Write {
    /// A game begins.
    fn begin_game(&mut self) {}
}

impl<W: fmt::Write + ?Sized> SinkOutput for &mut W {}

impl SinkOutput for String {
    fn begin_game(&mut self) {
        self.clear();
    }
}

/// A [`GameSink`] that writes the movetext of each game in the export format as it is
/// read ([`write_text_to`], [`ExportText`]); a game gives its tags and the result its
/// tags take ([`Exported`]).
struct ExportSink<'a, R: Rules, O: SinkOutput> {
    rules: &'a R,
    options: &'a WriteOptions,
    w: Movetext<O>,
    /// Whether a second-player move written now needs its number (see the tree
    /// writer's walk).
    number_second: bool,
    pending: Pending,
    /// Variations open.
    depth: usize,
    /// Whether the main line has a move (else the game's end position is not needed).
    main_moves: bool,
    /// Whether movetext kept as text was written.
    tail_written: bool,
    nodes: u32,
    lines: u32,
    error: Option<WriteError>,
    /// Whether the game was found large ([`GameSink::large`]): nothing more of it is
    /// written.
    large: bool,
}

impl<'a, R: Rules, O: SinkOutput> ExportSink<'a, R, O> {
    fn new(rules: &'a R, options: &'a WriteOptions, out: O) -> Self {
        ExportSink {
            rules,
            options,
            w: Movetext::new(out, options.line_width),
            number_second: true,
            pending: Pending::default(),
            depth: 0,
            main_moves: false,
            tail_written: false,
            nodes: 0,
            lines: 1,
            error: None,
            large: false,
        }
    }

    /// Writes the move waiting for its glyphs and comments, and them.
    fn flush(&mut self) {
        let pending = &mut self.pending;
        if !std::mem::take(&mut pending.waiting) {
            return;
        }
        let comments = &mut pending.comments[..pending.comments_used];
        if self
            .w
            .annotated_move(&mut pending.word, &pending.nags, comments, self.options)
        {
            self.number_second = true;
        }
        for comment in comments {
            if comment.capacity() > KEPT_COMMENT_BYTES {
                *comment = String::new();
            }
        }
    }

    /// Whether what comes now is not written: inside a variation, which the reduced
    /// format leaves out, or in a game found large.
    fn skipped(&self) -> bool {
        self.large || (self.options.reduced && self.depth > 0)
    }

    fn fail(&mut self, error: WriteError) {
        if self.error.is_none() {
            self.error = Some(error);
        }
    }
}

impl<R: Rules, O: SinkOutput> GameSink<R> for ExportSink<'_, R, O> {
    type Output = Exported;

    fn begin_game(&mut self) {
        self.w.out_mut().begin_game();
        self.w.begin();
        self.number_second = true;
        self.pending.waiting = false;
        self.depth = 0;
        self.main_moves = false;
        self.tail_written = false;
        self.nodes = 0;
        self.lines = 1;
        self.error = None;
        self.large = false;
    }

    fn large(&mut self) {
        self.large = true;
        self.pending.waiting = false;
    }

    fn push_move(&mut self, line: LineId, mv: R::Move, position: &R::Position) -> NodeId {
        self.push_move_as_read(line, mv, position, None)
    }

    fn push_move_as_read(
        &mut self,
        line: LineId,
        mv: R::Move,
        position: &R::Position,
        token: Option<&str>,
    ) -> NodeId {
        self.nodes = self.nodes.saturating_add(1);
        let id = NodeId::new(self.nodes - 1);
        if self.skipped() {
            return id;
        }
        self.flush();
        if line == LineId::MAIN {
            self.main_moves = true;
        }
        let turn = self.w.move_number(self.rules, position, self.number_second);
        let pending = &mut self.pending;
        pending.word.clear();
        match token {
            Some(token) => {
                pending.word.push_str(token);
                if cfg!(debug_assertions) {
                    let mut written = String::new();
                    self.rules.write_move(position, &mv, &mut written);
                    debug_assert_eq!(pending.word, written, "a token written back as read");
                }
            }
            None => self.rules.write_move(position, &mv, &mut pending.word),
        }
        pending.nags.clear();
        pending.comments_used = 0;
        pending.waiting = true;
        self.number_second = turn == Player::Second;
        id
    }

    // A glyph or a comment of a move whose variations or set-up were written already
    // has no move waiting for it: the game is then not in the export format's order, which
    // the game's end says ([`Ended::in_export_order`]).
    fn nag(&mut self, _: NodeId, nag: Nag) {
        if self.skipped() || self.options.reduced {
            return;
        }
        if self.pending.waiting {
            self.pending.nags.push(nag);
        }
    }

    fn comment(&mut self, place: Place, text: &str) -> bool {
        if self.skipped() || self.options.reduced {
            return true;
        }
        match place {
            // At a line's start: nothing can come before it.
            Place::Line(_) => self.w.comment(text),
            Place::Node(_) => {
                let pending = &mut self.pending;
                if !pending.waiting {
                    return true;
                }
                if pending.comments_used == pending.comments.len() {
                    pending.comments.push(String::new());
                }
                let copy = &mut pending.comments[pending.comments_used];
                copy.clear();
                if copy.capacity() < text.len() && copy.try_reserve_exact(text.len()).is_err() {
                    // Not left out silently: the game is not written.
                    self.fail(WriteError::OutOfMemory { bytes: text.len() });
                    return true;
                }
                copy.push_str(text);
                pending.comments_used += 1;
            }
        }
        true
    }

    fn add_variation(&mut self, _: NodeId) -> LineId {
        self.lines = self.lines.saturating_add(1);
        self.depth += 1;
        if !self.options.reduced && !self.large {
            self.flush();
            self.w.word("(");
            self.number_second = true;
        }
        LineId::new(self.lines - 1)
    }

    fn end_variation(&mut self, _: LineId) {
        self.depth = self.depth.saturating_sub(1);
        if !self.options.reduced && !self.large {
            self.flush();
            self.w.word(")");
            self.number_second = true;
        }
    }

    fn setup(&mut self, _: Place, text: &str) {
        if self.skipped() {
            return;
        }
        self.flush();
        if let Err(e) = self.w.setup(text) {
            self.fail(e);
        }
        self.number_second = true;
    }

    fn keep_tail(&mut self, _: LineId, text: &str) -> bool {
        if self.skipped() {
            // The tail continues a variation the reduced format leaves out.
            self.fail(WriteError::ReducedTail);
            return true;
        }
        self.flush();
        // The tail closes the variations open around it itself.
        self.w.tail(text, &self.rules.dialect(), self.depth);
        self.tail_written = true;
        true
    }

    fn end_game(&mut self, ended: Ended<'_, R>) -> Self::Output {
        let streams = ended.in_export_order
            && !ended.second
            && !ended.end.is_some_and(|end| ended.rules.settles(end));
        let mut exported = Exported {
            written: Err(WriteError::NotInExportOrder),
            tags: Tags::new(),
            result: ended.result,
            passed_over: ended.passed_over,
            diagnostics: ended.diagnostics,
            span: ended.span,
            index: ended.index,
            held: ended.held,
            starts_line: ended.starts_line,
            large: self.large,
            streams,
        };
        if self.large {
            exported.tags = ended.tags;
            return exported;
        }
        self.flush();
        if !self.tail_written && !self.options.reduced {
            // Variations left open: the tree writer closes each at its end.
            for _ in 0..self.depth {
                self.w.word(")");
            }
        }
        let end = if self.main_moves { ended.end } else { None };
        let (result, _) = self.rules.game_result(&ended.tags, end, ended.result);
        self.w.word(result.as_str());
        self.w.end_line();
        // The empty line that follows the movetext section.
        self.w.put("\n");
        if !ended.in_export_order {
            self.fail(WriteError::NotInExportOrder);
        }
        if self.w.failed {
            self.fail(WriteError::Output);
        }
        exported.written = match self.error.take() {
            Some(error) => Err(error),
            None => Ok(result),
        };
        exported.tags = ended.tags;
        exported
    }
}

/// A game as [`ExportText`] read it: written in the export format, or why not, and what
/// its reading said.
#[derive(Debug)]
pub struct Exported {
    /// The result its tags take, its movetext written ([`ExportText::movetext`]); or
    /// why it could not be written as it was read (a game not in the export format's
    /// order is [`WriteError::NotInExportOrder`]). Meaningful only when it
    /// [`Exported::streams`] and is not [`Exported::large`]: then its tags and its
    /// movetext are what the tree writer writes of its tree.
    pub written: Result<GameResult, WriteError>,
    /// Its tags, as its tree keeps them (the first of each name); none for a game passed
    /// over ([`Exported::passed_over`]).
    pub tags: Tags,
    /// Its result, as the rules keep it ([`GameTree::result`](crate::GameTree)).
    pub result: GameResult,
    /// Whether its movetext was passed over because its tags did not pass the builder's
    /// filter ([`GameBuilder::movetext_only_if`]).
    pub passed_over: bool,
    /// Its warnings and errors, in input order ([`ReadGame::diagnostics`]).
    ///
    /// [`ReadGame::diagnostics`]: crate::ReadGame::diagnostics
    pub diagnostics: Vec<Diagnostic>,
    /// Where it is in the input.
    pub span: Span,
    /// The 0-based index of the game in the input.
    pub index: u64,
    /// Whether the reader held the game whole ([`crate::RawGame::held`]).
    pub held: bool,
    /// Whether its text begins a line of the input.
    pub starts_line: bool,
    /// Whether it was found large ([`GameBuilder::large_after`]): then nothing of it was
    /// written.
    pub large: bool,
    /// Whether what is written as it is read is what its tree would give
    /// ([`ReadGame::streams`]): its annotations came in the export format's order, and
    /// its rules neither read it a second time nor settle it.
    ///
    /// [`ReadGame::streams`]: crate::ReadGame::streams
    pub streams: bool,
}

/// A [`GameSink`] for a [`GameBuilder`] that writes each game's movetext in the export
/// format as it is read, with no tree, into text it holds until the next game begins.
/// A game that [`Exported::streams`] is then the tags written by
/// [`write_tags`](crate::write_tags) for its [`Exported::written`], and this movetext:
/// what [`write_game`](crate::write_game) writes of its tree.
///
/// ```
/// use notation::{
///     ExportText, GameBuilder, GameReader, RawRules, ReadOptions, Reader, Rules,
///     WriteOptions, to_export_string, write_tags,
/// };
/// let pgn = b"[White \"A\"]\n\n1. e4 {good} $1 (1. d4 d5) e5 *\n\n1. d4 *\n";
/// let (rules, read, write) = (RawRules::PGN, ReadOptions::default(), WriteOptions::default());
/// let mut builder = GameBuilder::with_sink(&rules, read, ExportText::new(&rules, &write));
/// let mut reader = Reader::new(&pgn[..], rules.dialect(), read);
/// let mut trees = GameReader::new(&rules, &pgn[..], read);
/// while let Some(exported) = reader.read_game(&mut builder)? {
///     assert!(exported.streams);
///     let result = exported.written?;
///     let mut text = String::new();
///     write_tags(&exported.tags, result, &write, &mut text)?;
///     text.push_str(builder.sink_mut().movetext());
///     let tree = trees.next().expect("a game")?.game;
///     assert_eq!(text, to_export_string(&rules, &tree, &write)?);
/// }
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct ExportText<'a, R: Rules>(ExportSink<'a, R, String>);

impl<'a, R: Rules> ExportText<'a, R> {
    /// A sink writing with these rules and options.
    pub fn new(rules: &'a R, options: &'a WriteOptions) -> Self {
        ExportText(ExportSink::new(rules, options, String::new()))
    }

    /// The movetext of the game read last, its termination marker and the empty line
    /// after it included.
    pub fn movetext(&mut self) -> &str {
        self.0.w.out_mut()
    }
}

impl<R: Rules> GameSink<R> for ExportText<'_, R> {
    type Output = Exported;

    fn begin_game(&mut self) {
        self.0.begin_game();
    }

    fn large(&mut self) {
        GameSink::<R>::large(&mut self.0);
    }

    fn push_move(&mut self, line: LineId, mv: R::Move, position: &R::Position) -> NodeId {
        self.0.push_move(line, mv, position)
    }

    fn push_move_as_read(
        &mut self,
        line: LineId,
        mv: R::Move,
        position: &R::Position,
        token: Option<&str>,
    ) -> NodeId {
        self.0.push_move_as_read(line, mv, position, token)
    }

    fn nag(&mut self, node: NodeId, nag: Nag) {
        GameSink::<R>::nag(&mut self.0, node, nag);
    }

    fn comment(&mut self, place: Place, text: &str) -> bool {
        GameSink::<R>::comment(&mut self.0, place, text)
    }

    fn add_variation(&mut self, node: NodeId) -> LineId {
        GameSink::<R>::add_variation(&mut self.0, node)
    }

    fn end_variation(&mut self, line: LineId) {
        GameSink::<R>::end_variation(&mut self.0, line);
    }

    fn setup(&mut self, place: Place, text: &str) {
        GameSink::<R>::setup(&mut self.0, place, text);
    }

    fn keep_tail(&mut self, line: LineId, text: &str) -> bool {
        GameSink::<R>::keep_tail(&mut self.0, line, text)
    }

    fn end_game(&mut self, ended: Ended<'_, R>) -> Exported {
        self.0.end_game(ended)
    }
}
