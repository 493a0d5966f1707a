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

use std::fmt;

use crate::builder::{Ended, GameBuilder, GameSink, Place};
use crate::nag::Nag;
use crate::options::ReadOptions;
use crate::outcome::GameResult;
use crate::reader::Reader;
use crate::rules::{Player, Rules};
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
        Ok(Some(written)) => written,
        // Reading bytes in memory cannot fail, and there is a game in them unless they
        // are empty: then no game is written, as no tree would be.
        Ok(None) | Err(_) => Ok((Tags::new(), GameResult::Unknown)),
    }
}

/// A move written up to its number, and what follows it until something else comes:
/// its glyphs go before its comments, whichever comes first in the input.
struct Pending {
    /// The move as the rules write it.
    word: String,
    nags: Vec<Nag>,
    comments: Vec<String>,
}

/// A [`GameSink`] that writes the movetext of each game in the export format as it is
/// read ([`write_text_to`]); a game gives its tags and the result its tags take.
struct ExportSink<'a, 'o, R: Rules, W: fmt::Write> {
    rules: &'a R,
    options: &'a WriteOptions,
    w: Movetext<'o, W>,
    /// Whether a second-player move written now needs its number (see the tree
    /// writer's walk).
    number_second: bool,
    pending: Option<Pending>,
    /// Variations open.
    depth: usize,
    /// Whether the main line has a move (else the game's end position is not needed).
    main_moves: bool,
    /// Whether movetext kept as text was written.
    tail_written: bool,
    nodes: u32,
    lines: u32,
    error: Option<WriteError>,
}

impl<'a, 'o, R: Rules, W: fmt::Write> ExportSink<'a, 'o, R, W> {
    fn new(rules: &'a R, options: &'a WriteOptions, out: &'o mut W) -> Self {
        ExportSink {
            rules,
            options,
            w: Movetext::new(out, options.line_width),
            number_second: true,
            pending: None,
            depth: 0,
            main_moves: false,
            tail_written: false,
            nodes: 0,
            lines: 1,
            error: None,
        }
    }

    /// Writes the move waiting for its glyphs and comments, and them.
    fn flush(&mut self) {
        if let Some(mut pending) = self.pending.take() {
            let options = self.options;
            if self
                .w
                .annotated_move(&mut pending.word, &pending.nags, &pending.comments, options)
            {
                self.number_second = true;
            }
        }
    }

    /// Whether what comes now is inside a variation, which the reduced format leaves out.
    fn skipped(&self) -> bool {
        self.options.reduced && self.depth > 0
    }

    fn fail(&mut self, error: WriteError) {
        if self.error.is_none() {
            self.error = Some(error);
        }
    }
}

impl<R: Rules, W: fmt::Write> GameSink<R> for ExportSink<'_, '_, R, W> {
    type Output = Result<(Tags, GameResult), WriteError>;

    fn push_move(&mut self, line: LineId, mv: R::Move, position: &R::Position) -> NodeId {
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
        let mut word = String::new();
        self.rules.write_move(position, &mv, &mut word);
        self.number_second = turn == Player::Second;
        self.pending = Some(Pending {
            word,
            nags: Vec::new(),
            comments: Vec::new(),
        });
        id
    }

    // A glyph or a comment of a move whose variations or set-up were written already
    // has no move waiting for it: the game is then not in the export format's order, which
    // the game's end says ([`Ended::in_export_order`]).
    fn nag(&mut self, _: NodeId, nag: Nag) {
        if self.skipped() || self.options.reduced {
            return;
        }
        if let Some(pending) = &mut self.pending {
            pending.nags.push(nag);
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
                let Some(pending) = &mut self.pending else {
                    return true;
                };
                let mut copy = String::new();
                if copy.try_reserve_exact(text.len()).is_err() {
                    // Not left out silently: the game is not written.
                    self.fail(WriteError::OutOfMemory { bytes: text.len() });
                    return true;
                }
                copy.push_str(text);
                pending.comments.push(copy);
            }
        }
        true
    }

    fn add_variation(&mut self, _: NodeId) -> LineId {
        self.lines = self.lines.saturating_add(1);
        self.depth += 1;
        if !self.options.reduced {
            self.flush();
            self.w.word("(");
            self.number_second = true;
        }
        LineId::new(self.lines - 1)
    }

    fn end_variation(&mut self, _: LineId) {
        self.depth = self.depth.saturating_sub(1);
        if !self.options.reduced {
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
        match self.error.take() {
            Some(error) => Err(error),
            None => Ok((ended.tags, result)),
        }
    }
}
