//! `notate parquet`: games, and optionally the positions of their main lines, as
//! Parquet tables ([`columnar`]) for DuckDB, Polars, pandas and Spark.
//!
//! Workers read a chunk each and build its rows as record batches; the emitter, the only
//! one who knows how many games came before a chunk, numbers the games, writes each
//! game's diagnostics as `check` prints them (dropping the notes an input gives once,
//! as a whole read would), and hands the batches to the Parquet writers in input order.
//! So `--jobs N` writes the same file as `--jobs 1`. Memory is bounded by the chunks in
//! flight and the row group being written, not by the input.

use std::fmt::Write as _;
use std::io::{self, Write};

use columnar::{
    DiagnosticsBuilder, GameRecord, GamesBuilder, MoveRecord, ParquetWriter, PositionRecord,
    PositionsBuilder, RecordBatch,
};
use notation::{
    Diagnostic, GameReader, KeepRaw, LineId, Player, ReadGame, ReadOptions, Severity, WriteOptions,
};

use crate::games::{Notate, walk_main_line_playing};
use crate::pipeline::{Input, OncePerInput, Origin, Task};

/// A batch is handed on once its rows hold about this many bytes of text (one worker
/// reading a whole input alone would otherwise build it in one batch).
const BATCH_BYTES: usize = 32 << 20;

/// Where the games of a read are in their input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Placing {
    /// The whole input: games are numbered, lines counted from its start.
    Whole,
    /// A byte range starting at this offset of the input (`--range`): the games before
    /// it are not counted, so the `game` column is null and diagnostics count lines
    /// from this byte (`name@offset:line:column: …`).
    From(u64),
}

impl Placing {
    fn base(self) -> u64 {
        match self {
            Placing::Whole => 0,
            Placing::From(offset) => offset,
        }
    }
}

/// Reads games and builds their rows.
pub struct ParquetTask<'r, G> {
    /// The rules.
    pub rules: &'r G,
    /// How to read.
    pub options: ReadOptions,
    /// The input's name, for the `file` column.
    pub name: &'r str,
    /// Where the games are in their input.
    pub placing: Placing,
    /// Whether to build the positions table too.
    pub positions: bool,
}

/// The rows of some games of a chunk.
pub struct Item {
    /// Their games table rows; the `game`, `errors`, `warnings` and `diagnostics`
    /// columns are the emitter's to fill.
    games: RecordBatch,
    /// Their positions table rows, when asked for.
    positions: Option<RecordBatch>,
    /// Each game's diagnostics, in row order.
    diagnostics: Vec<Vec<Diagnostic>>,
    /// Diagnostics outside any game.
    orphans: Vec<Diagnostic>,
}

/// What the worker reuses from game to game.
struct Rows {
    games: GamesBuilder,
    positions: Option<PositionsBuilder>,
    diagnostics: Vec<Vec<Diagnostic>>,
    text: String,
    uci: String,
    movetext: String,
    nags: Vec<u16>,
}

impl Rows {
    fn take(&mut self) -> Item {
        Item {
            games: self.games.finish(),
            positions: self.positions.as_mut().map(PositionsBuilder::finish),
            diagnostics: std::mem::take(&mut self.diagnostics),
            orphans: Vec::new(),
        }
    }
}

impl<G: Notate> Task for ParquetTask<'_, G> {
    type Item = Item;

    fn run(
        &self,
        mut input: Input<'_>,
        origin: Origin,
        sink: &mut dyn FnMut(Item) -> io::Result<()>,
    ) -> io::Result<u64> {
        let reader = input.reader(self.rules.dialect(), self.options);
        let mut reader = GameReader::from_reader(self.rules, reader).keep_raw(KeepRaw::Never);
        let mut rows = Rows {
            games: GamesBuilder::new(),
            positions: self.positions.then(PositionsBuilder::new),
            diagnostics: Vec::new(),
            text: String::new(),
            uci: String::new(),
            movetext: String::new(),
            nags: Vec::new(),
        };
        let mut games = 0;
        while let Some(mut game) = reader.read_game()? {
            games += 1;
            for d in &mut game.diagnostics {
                origin.place(d);
            }
            let offset = self.placing.base() + origin.offset + game.span.start;
            let cut = self.add(&mut rows, &game, offset);
            game.diagnostics.extend(cut);
            rows.diagnostics.push(game.diagnostics);
            if rows.games.bytes() >= BATCH_BYTES {
                sink(rows.take())?;
            }
        }
        let mut orphans = reader.take_orphans();
        let buffer = reader.into_reader().into_vec();
        input.give_back(buffer);
        for d in &mut orphans {
            origin.place(d);
        }
        if !rows.games.is_empty() || !orphans.is_empty() {
            let mut item = rows.take();
            item.orphans = orphans;
            sink(item)?;
        }
        Ok(games)
    }
}

impl<G: Notate> ParquetTask<'_, G> {
    /// Adds a game's rows. Its number is its index in the chunk, from 1: the emitter
    /// adds the games before the chunk. Returns the diagnostic of a movetext too long for
    /// a cell, cut there.
    fn add(&self, rows: &mut Rows, read: &ReadGame<G::Move>, offset: u64) -> Option<Diagnostic> {
        let rules = self.rules;
        let game = &read.game;
        let notation = rules.columnar_notation();
        let number = match self.placing {
            Placing::Whole => Some(read.index + 1),
            Placing::From(_) => None,
        };
        let main = &game.line(LineId::MAIN).moves;
        let mut plies: u32 = 0;
        let mut end = None;
        let start = rules.start_position(&game.tags).ok();
        // The movetext is written as the main line is walked, from the moves' text the
        // columns need anyway, when the game has nothing that only the export-format
        // writer knows how to write; else that writer writes it after the walk.
        let options = rules.write_options();
        let mut movetext = start.is_some() && plain_main_line(game);
        rows.movetext.clear();
        if movetext {
            for comment in &game.line(LineId::MAIN).comments {
                push_comment(&mut rows.movetext, comment);
            }
        }
        let mut number_second = true;
        let mut openings = pgn::openings::Classifier::new();
        // The clock and evaluation written after the move that led to a position.
        let mut after_last: (Option<f64>, Option<columnar::Eval>) = (None, None);
        if let Some(setup) = start {
            walk_main_line_playing(rules, setup.position, game, |position, mv| {
                if rules.names_openings() && !openings.is_done() {
                    rules.see_opening(&mut openings, position);
                }
                // The move played from the position and its node; none after the last.
                let played = match mv {
                    Some(mv) => match main.get(plies as usize) {
                        Some(&id) => Some((mv, game.node(id))),
                        None => return false,
                    },
                    None => None,
                };
                let chess = notation == columnar::Notation::Chess;
                // What the positions table needs of the position, before the move is
                // played from it.
                let position_row = rows
                    .positions
                    .is_some()
                    .then(|| (rules.fen(position), rules.position_key(position)));
                let Some((mv, node)) = played else {
                    if let (Some(positions), Some((fen, hash))) =
                        (&mut rows.positions, position_row)
                    {
                        positions.push(&PositionRecord {
                            file: self.name,
                            offset,
                            game: number,
                            ply: plies,
                            fen: fen.as_deref(),
                            hash,
                            move_san: None,
                            move_uci: None,
                            move_text: None,
                            clock: after_last.0,
                            eval: after_last.1,
                        });
                    }
                    end = Some(position.clone());
                    return true;
                };
                let (clock, eval) = rules.clock_and_eval(position, &node.comments);
                let turn = rules.turn(position);
                let number_of_move = rules.move_number(position);
                rows.text.clear();
                rows.uci.clear();
                rules.play_with_columns(position, mv, &mut rows.text, &mut rows.uci);
                if let (Some(positions), Some((fen, hash))) = (&mut rows.positions, position_row) {
                    let text = Some(rows.text.as_str());
                    positions.push(&PositionRecord {
                        file: self.name,
                        offset,
                        game: number,
                        ply: plies,
                        fen: fen.as_deref(),
                        hash,
                        move_san: text.filter(|_| chess),
                        move_uci: chess.then_some(rows.uci.as_str()),
                        move_text: text.filter(|_| !chess),
                        clock: after_last.0,
                        eval: after_last.1,
                    });
                }
                rows.nags.clear();
                rows.nags.extend(node.nags.iter().map(|nag| nag.0));
                if movetext {
                    let out = &mut rows.movetext;
                    if turn == Player::First || number_second {
                        space(out);
                        push_number(out, number_of_move);
                        out.push_str(if turn == Player::First { "." } else { "..." });
                    }
                    space(out);
                    out.push_str(&rows.text);
                    // As the writer does: the first glyph glued on where the format
                    // writes suffixes, the others apart.
                    let glued = node
                        .nags
                        .first()
                        .and_then(|nag| nag.suffix())
                        .filter(|_| options.suffix_symbols);
                    out.push_str(glued.unwrap_or_default());
                    let apart = &node.nags[usize::from(glued.is_some())..];
                    for nag in apart {
                        space(out);
                        let _ = write!(out, "{nag}");
                    }
                    for comment in &node.comments {
                        push_comment(out, comment);
                    }
                    number_second =
                        turn == Player::Second || !apart.is_empty() || !node.comments.is_empty();
                }
                rows.games.push_move(&MoveRecord {
                    notation,
                    san: &rows.text,
                    uci: chess.then_some(rows.uci.as_str()),
                    clock,
                    eval,
                    nags: &rows.nags,
                });
                after_last = (clock, eval);
                plies += 1;
                true
            });
        }
        if movetext && end.is_none() {
            // The walk stopped short (a set-up it could not play): the writer decides.
            movetext = false;
        }
        if movetext {
            let (result, _) = rules.game_result(&game.tags, end.as_ref(), game.result);
            space(&mut rows.movetext);
            rows.movetext.push_str(result.as_str());
            if cfg!(debug_assertions) {
                // Test builds hold the walk's movetext to the writer's, game by game.
                let mut written = String::new();
                write_main_line(rules, game, &mut written);
                assert_eq!(
                    rows.movetext, written,
                    "the walk writes the movetext as the writer does"
                );
            }
        } else {
            rows.movetext.clear();
            write_main_line(rules, game, &mut rows.movetext);
        }
        let tags: Vec<(&str, &str)> = game
            .tags
            .iter()
            .map(|t| (t.name.as_str(), t.value.as_str()))
            .collect();
        let start_fen = rules.start(game).and_then(|p| rules.fen(&p));
        let final_fen = end.as_ref().and_then(|p| rules.fen(p));
        let outcome = end.as_ref().and_then(|p| rules.outcome_name(p));
        let variant = rules.variant(game);
        let opening = openings.opening();
        let eco = opening.map(|o| o.eco().to_string());
        let whole = rows.games.end_game(&GameRecord {
            notation,
            file: self.name,
            game: number,
            offset,
            tags: &tags,
            movetext: &rows.movetext,
            plies,
            start_fen: start_fen.as_deref(),
            final_fen: final_fen.as_deref(),
            outcome,
            variant: &variant,
            opening: eco.as_deref().zip(opening.map(|o| o.name())),
            errors: 0,
            warnings: 0,
            diagnostics: &[],
        });
        (!whole).then(|| Diagnostic {
            severity: Severity::Error,
            location: read
                .diagnostics
                .first()
                .map(|d| d.location)
                .unwrap_or_default(),
            game: read.index,
            kind: notation::DiagnosticKind::TextOutOfMemory {
                what: "the movetext, cut in the table at its limit of a cell",
                bytes: rows.movetext.len(),
            },
        })
    }
}

/// Whether the export-format writer would write a game's main line as the walk in
/// [`ParquetTask::add`] does: no text left unread, no set-up in the movetext, and no
/// comment holding a `}` (written as a `;` comment, which ends its line).
fn plain_main_line<M>(game: &notation::Game<M>) -> bool {
    let main = game.line(LineId::MAIN);
    let plain = |comments: &[String]| comments.iter().all(|c| !c.contains('}'));
    game.tail.is_none()
        && main.setup.is_none()
        && plain(&main.comments)
        && game
            .mainline()
            .all(|node| node.setup.is_none() && plain(&node.comments))
}

/// A number in decimal, without the formatter's machinery (written before every move).
fn push_number(out: &mut String, n: u64) {
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    let mut rest = n;
    loop {
        at -= 1;
        digits[at] = b'0' + (rest % 10) as u8;
        rest /= 10;
        if rest == 0 {
            break;
        }
    }
    out.extend(digits[at..].iter().map(|&d| char::from(d)));
}

/// A space before the next word, unless it is the first.
fn space(out: &mut String) {
    if !out.is_empty() {
        out.push(' ');
    }
}

/// A brace comment as the writer writes it: its words between braces, one space apart,
/// as the reader keeps them in the tree (test builds hold the result to the writer's).
fn push_comment(out: &mut String, text: &str) {
    space(out);
    out.push('{');
    out.push_str(text);
    out.push('}');
}

/// The main line with its comments and glyphs in the export format, on one line, its
/// termination marker last. A game whose unread text continues a variation keeps its
/// variations; one whose moves cannot be written (its start position cannot be set up)
/// has an empty movetext, and its diagnostics say why.
fn write_main_line<G: Notate>(rules: &G, game: &notation::Game<G::Move>, out: &mut String) {
    let one_line = WriteOptions {
        line_width: usize::MAX,
        variations: false,
        ..rules.write_options()
    };
    let written = notation::write_movetext_to(rules, game, &one_line, out).or_else(|_| {
        out.clear();
        let options = WriteOptions {
            variations: true,
            ..one_line
        };
        notation::write_movetext_to(rules, game, &options, out)
    });
    if written.is_err() {
        out.clear();
    }
    let kept = out.trim_end().len();
    out.truncate(kept);
}

/// Where the rows go, in input order: the Parquet files of `notate parquet`, or a
/// program's Arrow record batches (the Python package's tables).
pub trait Tables {
    /// Takes rows of the games table.
    fn games(&mut self, batch: &RecordBatch) -> io::Result<()>;
    /// Takes rows of the positions table (only when the task builds them).
    fn positions(&mut self, batch: &RecordBatch) -> io::Result<()>;
}

/// The Parquet files `notate parquet` writes: the games table, and the positions table
/// when asked for.
pub struct ParquetFiles<W: Write + Send, P: Write + Send> {
    /// The games table.
    pub games: ParquetWriter<W>,
    /// The positions table, when asked for.
    pub positions: Option<ParquetWriter<P>>,
}

impl<W: Write + Send, P: Write + Send> Tables for ParquetFiles<W, P> {
    fn games(&mut self, batch: &RecordBatch) -> io::Result<()> {
        self.games.write(batch).map_err(io::Error::other)
    }

    fn positions(&mut self, batch: &RecordBatch) -> io::Result<()> {
        match &mut self.positions {
            Some(writer) => writer.write(batch).map_err(io::Error::other),
            None => Ok(()),
        }
    }
}

impl<W: Write + Send, P: Write + Send> ParquetFiles<W, P> {
    /// Writes the last row groups and the files' footers.
    pub fn close(self) -> Result<(), columnar::Error> {
        self.games.close()?;
        self.positions.map_or(Ok(()), ParquetWriter::close)
    }
}

/// Puts the rows in input order and hands them to their tables.
pub struct Emitter<'w> {
    /// Where the rows go.
    pub tables: &'w mut dyn Tables,
    /// The input's name, as diagnostics give it.
    pub name: String,
    /// Where the games are in their input.
    pub placing: Placing,
    /// The notes an input gives once.
    pub once: OncePerInput,
    /// Games written.
    pub rows: u64,
    /// Games with an error.
    pub errors: u64,
}

impl Emitter<'_> {
    /// Writes one item, its games renumbered by `before` (the games of earlier chunks);
    /// diagnostics outside any game go to `warn`.
    pub fn emit(
        &mut self,
        mut item: Item,
        before: u64,
        warn: &mut dyn FnMut(String),
    ) -> io::Result<()> {
        let mut columns = DiagnosticsBuilder::new();
        let mut line = String::new();
        for diagnostics in &mut item.diagnostics {
            diagnostics.retain(|d| self.once.keep(d));
            let mut counts = [0u32; 2];
            for d in diagnostics.iter_mut() {
                d.game += before;
                counts[usize::from(d.severity == Severity::Error)] += 1;
                line.clear();
                self.describe(d, &mut line);
                columns.push(&line);
            }
            columns.end_game(counts[1], counts[0]);
            self.errors += u64::from(counts[1] > 0);
        }
        self.rows += item.diagnostics.len() as u64;
        let games = columns.apply(&columnar::renumber(&item.games, before));
        self.tables.games(&games)?;
        if let Some(batch) = &item.positions {
            self.tables.positions(&columnar::renumber(batch, before))?;
        }
        item.orphans.retain(|d| self.once.keep(d));
        for d in &item.orphans {
            let mut text = String::new();
            self.describe(d, &mut text);
            warn(text);
        }
        Ok(())
    }

    /// A diagnostic as `check` prints it: `name:line:column: severity: message (game
    /// N)`; in a byte range, `name@offset:line:column: severity: message`, lines counted
    /// from the range's first byte and the game unnumbered.
    fn describe(&self, d: &Diagnostic, out: &mut String) {
        let _ = match self.placing {
            Placing::Whole => write!(out, "{}:{d}", self.name),
            Placing::From(offset) => write!(
                out,
                "{}@{offset}:{}: {}: {}",
                self.name, d.location, d.severity, d.kind
            ),
        };
    }
}
