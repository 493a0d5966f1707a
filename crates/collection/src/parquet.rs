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
use std::fs::File;
use std::io::{self, Read, Write};
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};

use columnar::{
    DiagnosticsBuilder, GameRecord, GamesBuilder, MoveRecord, ParquetWriter, PositionRecord,
    PositionsBuilder, RecordBatch,
};
use notation::{
    At, Diagnostic, GameReader, GameResult, KeepRaw, LineId, Nag, Player, RawGame, RawValue,
    ReadGame, ReadOptions, Rules, Severity, Skip, Visitor, WriteOptions,
};

use crate::input::{Format, Placed};
use crate::job::{Ended, Job, Stopped, with_rules};
use crate::output::{self, AtomicFile, OutputError};
use crate::pipeline::{Input, OncePerInput, Origin, Task};
use crate::range::{self, ByteRange};
use crate::rules::FormatRules;
use crate::{mainline, pipeline};

/// A batch is handed on once its rows hold about this many bytes of text (one worker
/// reading a whole input alone would otherwise build it in one batch).
const BATCH_BYTES: usize = 32 << 20;

/// A batch is handed on once it holds this many positions too (about 10 MiB of rows):
/// the positions of [`BATCH_BYTES`] of text would take some 500 MiB.
const BATCH_POSITIONS: usize = 64 << 10;

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

/// What `parquet` needs of a game's rules beyond [`FormatRules`]: which columns a move
/// goes to and how it is written there, a position's key, what an end decides, a move's
/// clock and evaluation, and how a chunk's games are read into rows.
pub trait Columns: FormatRules {
    /// Which columns of the games table a game's moves go to: chess moves to `moves_san`
    /// and `moves_uci`, others to `moves` (the default).
    fn columnar_notation(&self) -> columnar::Notation {
        columnar::Notation::Draughts
    }

    /// Writes a move for the tables: its text in the game's notation to `text`, and for
    /// chess its UCI to `uci` (the default writes the text alone).
    fn move_columns(
        &self,
        position: &Self::Position,
        mv: &Self::Move,
        text: &mut String,
        uci: &mut String,
    ) {
        let _ = uci;
        self.write_move(position, mv, text);
    }

    /// Writes a move's columns as [`Columns::move_columns`] does and plays it: chess
    /// finds the check sign from the position it plays to, instead of playing the move
    /// once more to find it.
    fn play_with_columns(
        &self,
        position: &mut Self::Position,
        mv: &Self::Move,
        text: &mut String,
        uci: &mut String,
    ) {
        self.move_columns(position, mv, text, uci);
        self.play(position, mv);
    }

    /// A position's key for the positions table: for chess, its Polyglot key; `None` for
    /// rules with no such key (the default).
    fn position_key(&self, _position: &Self::Position) -> Option<u64> {
        None
    }

    /// What a position (the end of a main line) decides by the rules alone, for the
    /// `outcome` column: `checkmate`, `stalemate`, …; `None` when the game may go on
    /// (the default).
    fn outcome_name(&self, _end: &Self::Position) -> Option<&'static str> {
        None
    }

    /// The clock (seconds) and evaluation written in a move's comments; `position` is the
    /// one the move was played from.
    fn clock_and_eval(
        &self,
        _position: &Self::Position,
        _comments: &[String],
    ) -> (Option<f64>, Option<columnar::Eval>) {
        (None, None)
    }

    /// Reads the games of a chunk into rows for `task` ([`Task::run`]). The default reads
    /// each game into its tree, whose main line is walked for its rows; chess games
    /// without the positions table are read along the validator, without a tree.
    ///
    /// # Errors
    /// The input's I/O errors, and `sink`'s.
    fn read_rows(
        task: &ParquetTask<'_, Self>,
        input: Input<'_>,
        origin: Origin,
        sink: &mut dyn FnMut(Item) -> io::Result<()>,
    ) -> io::Result<u64>
    where
        Self: Sized,
    {
        task.run_tree(input, origin, sink)
    }
}

impl Columns for pgn::ChessRules {
    fn columnar_notation(&self) -> columnar::Notation {
        columnar::Notation::Chess
    }

    fn move_columns(
        &self,
        position: &pgn::Position,
        mv: &pgn::Move,
        text: &mut String,
        uci: &mut String,
    ) {
        position.san(mv).append_to(text);
        pgn::uci::Uci::from_move(mv, position.castling_mode()).append_to(uci);
    }

    fn play_with_columns(
        &self,
        position: &mut pgn::Position,
        mv: &pgn::Move,
        text: &mut String,
        uci: &mut String,
    ) {
        let san = pgn::san::San::from_move(position, mv);
        pgn::uci::Uci::from_move(mv, position.castling_mode()).append_to(uci);
        position.play_mut(mv);
        let suffix = pgn::san::Suffix::for_position(position);
        pgn::san::SanPlus { san, suffix }.append_to(text);
    }

    fn position_key(&self, position: &pgn::Position) -> Option<u64> {
        Some(pgn::polyglot::key(position))
    }

    fn outcome_name(&self, end: &pgn::Position) -> Option<&'static str> {
        Some(match end.outcome()? {
            pgn::Outcome::Checkmate { .. } => "checkmate",
            pgn::Outcome::Stalemate => "stalemate",
            pgn::Outcome::InsufficientMaterial => "insufficient material",
            pgn::Outcome::SeventyFiveMoves => "seventy-five moves",
            pgn::Outcome::Variant { end, .. } => end.description(),
        })
    }

    /// `[%clk]` (or `[%clock]`) and `[%eval]`, the first of each in the move's comments
    /// that reads.
    fn clock_and_eval(
        &self,
        _position: &pgn::Position,
        comments: &[String],
    ) -> (Option<f64>, Option<columnar::Eval>) {
        let (mut clock, mut eval) = (None, None);
        for comment in comments {
            let (c, e) = pgn::commands::clock_and_eval(comment);
            clock = clock.or(c);
            eval = eval.or(e);
        }
        chess_clock_and_eval_cells(clock, eval)
    }

    fn read_rows(
        task: &ParquetTask<'_, Self>,
        input: Input<'_>,
        origin: Origin,
        sink: &mut dyn FnMut(Item) -> io::Result<()>,
    ) -> io::Result<u64> {
        if task.positions {
            task.run_tree(input, origin, sink)
        } else {
            task.run_chess(task.rules, input, origin, sink)
        }
    }
}

impl Columns for pdn::DraughtsRules {
    fn outcome_name(&self, end: &pdn::PdnPosition) -> Option<&'static str> {
        Some(match end.position().outcome()? {
            pdn::Outcome::Decisive { .. } => "cannot move",
            pdn::Outcome::Draw => "draw",
        })
    }

    /// `[%clk]`/`[%clock]` (the mover's time where both sides' are written) and
    /// `[%eval]`, the first of each in the move's comments.
    fn clock_and_eval(
        &self,
        board: &pdn::PdnPosition,
        comments: &[String],
    ) -> (Option<f64>, Option<columnar::Eval>) {
        use pdn::commands::Command;
        let mover = board.position().turn();
        let (mut clock, mut eval) = (None, None);
        for comment in comments.iter().filter(|c| c.contains("[%")) {
            for command in pdn::commands::commands(comment) {
                match command {
                    Command::Clk(clocks) | Command::Clock(clocks) if clock.is_none() => {
                        let readings = [Some(clocks.first), clocks.second];
                        let mine = readings
                            .iter()
                            .flatten()
                            .find(|r| r.side == Some(mover))
                            .unwrap_or(&clocks.first);
                        clock = Some(mine.time.as_secs() as f64);
                    }
                    Command::Other { name, value } if name == "eval" && eval.is_none() => {
                        eval = read_eval(&value);
                    }
                    _ => {}
                }
            }
        }
        (clock, eval)
    }
}

impl Columns for notation::RawRules {}

/// An `[%eval …]`'s arguments as the tables hold them (the same in chess and draughts
/// files); `None` when they do not read.
fn read_eval(args: &str) -> Option<columnar::Eval> {
    args.parse().ok().map(columnar_eval)
}

/// A chess move's clock and evaluation as the tables hold them: seconds, and the score.
fn chess_clock_and_eval_cells(
    clock: Option<pgn::commands::ClockTime>,
    eval: Option<pgn::commands::Eval>,
) -> (Option<f64>, Option<columnar::Eval>) {
    let seconds = clock.map(|time| time.millis() as f64 / 1000.0);
    (seconds, eval.map(columnar_eval))
}

/// An evaluation as the tables hold it.
fn columnar_eval(eval: pgn::commands::Eval) -> columnar::Eval {
    match eval.score {
        pgn::commands::Score::Centipawns(cp) => columnar::Eval::Centipawns(cp),
        pgn::commands::Score::Mate(n) => columnar::Eval::Mate(n),
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
    fn new(positions: bool) -> Rows {
        Rows {
            games: GamesBuilder::new(),
            positions: positions.then(PositionsBuilder::new),
            diagnostics: Vec::new(),
            text: String::new(),
            uci: String::new(),
            movetext: String::new(),
            nags: Vec::new(),
        }
    }

    /// After the first game of a chunk of `chunk` bytes, which ends at its byte `end`:
    /// room for the rows of the rest of the chunk, at the rate of the first game's.
    fn after_first_game(&mut self, end: u64, chunk: Option<usize>) {
        if let Some(chunk) = chunk
            && self.games.len() == 1
            && let Ok(end) = usize::try_from(end)
        {
            self.games.reserve_for_rest(end, chunk);
        }
    }

    /// The rows so far, to write. The text buffers a large game grew are given back
    /// first: with one thread the rows are written while the worker's buffers live.
    fn take(&mut self) -> Item {
        for text in [&mut self.text, &mut self.uci, &mut self.movetext] {
            pipeline::shrink_kept(text, KEEP_BUFFER_BYTES);
        }
        pipeline::shrink_kept(&mut self.nags, KEEP_BUFFER_BYTES);
        Item {
            games: self.games.finish(),
            positions: self.positions.as_mut().map(PositionsBuilder::finish),
            diagnostics: std::mem::take(&mut self.diagnostics),
            orphans: Vec::new(),
        }
    }
}

/// The room a buffer kept from game to game may keep between batches: more (after a
/// large game) is given back before the rows are written ([`pipeline::shrink_kept`]).
const KEEP_BUFFER_BYTES: usize = 1 << 20;

impl<G: Columns> Task for ParquetTask<'_, G> {
    type Item = Item;

    fn run(
        &self,
        input: Input<'_>,
        origin: Origin,
        sink: &mut dyn FnMut(Item) -> io::Result<()>,
    ) -> io::Result<u64> {
        G::read_rows(self, input, origin, sink)
    }

    /// A chunk's positions rows take about 16 times its bytes (TWIC's games ×100: 10.3
    /// million rows of about 160 bytes from 100 MB): with them, chunks are a quarter of
    /// the usual size, so that the chunks in flight hold about as much as without.
    fn chunk_bytes(&self) -> usize {
        if self.positions {
            pipeline::CHUNK_BYTES / 4
        } else {
            pipeline::CHUNK_BYTES
        }
    }
}

impl<G: Columns> ParquetTask<'_, G> {
    /// [`Task::run`] for any rules: each game read into a tree, whose main line is
    /// walked for its rows ([`ParquetTask::add`]).
    fn run_tree(
        &self,
        mut input: Input<'_>,
        origin: Origin,
        sink: &mut dyn FnMut(Item) -> io::Result<()>,
    ) -> io::Result<u64> {
        let chunk = input.rest.is_none().then_some(input.bytes.len());
        let reader = input.reader(self.rules.dialect(), self.options);
        let mut reader = GameReader::from_reader(self.rules, reader).keep_raw(KeepRaw::Never);
        let mut rows = Rows::new(self.positions);
        let mut games = 0;
        while let Some(mut game) = reader.read_game()? {
            games += 1;
            for d in &mut game.diagnostics {
                origin.place(d);
            }
            let offset = self.placing.base() + origin.offset + game.span.start;
            let cut = self.add(&mut rows, &game, offset);
            rows.after_first_game(game.span.end, chunk);
            game.diagnostics.extend(cut);
            rows.diagnostics.push(game.diagnostics);
            if rows.games.bytes() >= BATCH_BYTES
                || rows.positions.as_ref().map_or(0, PositionsBuilder::len) >= BATCH_POSITIONS
            {
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

    /// [`Task::run`] for chess games without the positions table: the rows are built as
    /// the validator reads, without a tree ([`ChessRows`]).
    fn run_chess(
        &self,
        chess: &pgn::ChessRules,
        mut input: Input<'_>,
        origin: Origin,
        sink: &mut dyn FnMut(Item) -> io::Result<()>,
    ) -> io::Result<u64> {
        let task = ParquetTask {
            rules: chess,
            options: self.options,
            name: self.name,
            placing: self.placing,
            positions: false,
        };
        let chunk = input.rest.is_none().then_some(input.bytes.len());
        let mut reader = input.reader(chess.dialect(), self.options);
        let mut rows = ChessRows::new(task, origin, chunk);
        let mut games = 0;
        while reader.read_game(&mut rows)?.is_some() {
            games += 1;
            if rows.rows.games.bytes() >= BATCH_BYTES {
                sink(rows.take())?;
            }
        }
        let mut orphans = rows.validator.take_orphans();
        let buffer = reader.into_vec();
        input.give_back(buffer);
        for d in &mut orphans {
            origin.place(d);
        }
        if !rows.rows.games.is_empty() || !orphans.is_empty() {
            let mut item = rows.take();
            item.orphans = orphans;
            sink(item)?;
        }
        Ok(games)
    }

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
            mainline::walk_playing(rules, setup.position, game, |position, mv| {
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
                        notation::push_decimal(out, number_of_move);
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
            if cfg!(debug_assertions) && !crate::large::is_large(read.span) {
                // Test builds hold the walk's movetext to the writer's, game by game
                // (but a large one, which the check would hold once more: the memory
                // test measures what users run).
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
        let first_location = read.diagnostics.first().map(|d| d.location);
        let opening = openings.opening();
        let start = rules.start(game);
        let tags: Vec<(&str, &str)> = game
            .tags
            .iter()
            .map(|t| (t.name.as_str(), t.value.as_str()))
            .collect();
        let variant = rules.variant_from(game, start.as_ref());
        self.finish_row(
            rows,
            (&tags, &variant),
            read.index,
            first_location,
            plies,
            (
                start.as_ref().and_then(|p| rules.fen(p)).as_deref(),
                end.as_ref(),
            ),
            opening,
            offset,
        )
    }

    /// Ends a game's row, its movetext written in `rows.movetext`: its tags, FENs,
    /// outcome, variant and opening. Returns the diagnostic of a movetext too long for a
    /// cell, cut there (at the game's first diagnostic's place).
    #[allow(clippy::too_many_arguments)]
    fn finish_row(
        &self,
        rows: &mut Rows,
        (tags, variant): (&[(&str, &str)], &str),
        index: u64,
        first_location: Option<notation::Location>,
        plies: u32,
        (start_fen, end): (Option<&str>, Option<&G::Position>),
        opening: Option<&'static pgn::openings::Opening>,
        offset: u64,
    ) -> Option<Diagnostic> {
        let rules = self.rules;
        let notation = rules.columnar_notation();
        let number = match self.placing {
            Placing::Whole => Some(index + 1),
            Placing::From(_) => None,
        };
        let final_fen = end.and_then(|p| rules.fen(p));
        let outcome = end.and_then(|p| rules.outcome_name(p));
        let eco = opening.map(|o| o.eco().to_string());
        let whole = rows.games.end_game(&GameRecord {
            notation,
            file: self.name,
            game: number,
            offset,
            tags,
            movetext: &rows.movetext,
            plies,
            start_fen,
            final_fen: final_fen.as_deref(),
            outcome,
            variant,
            opening: eco.as_deref().zip(opening.map(|o| o.name())),
            errors: 0,
            warnings: 0,
            diagnostics: &[],
        });
        (!whole).then(|| Diagnostic {
            severity: Severity::Error,
            location: first_location.unwrap_or_default(),
            game: index,
            kind: notation::DiagnosticKind::TextOutOfMemory {
                what: "the movetext, cut in the table at its limit of a cell",
                bytes: rows.movetext.len(),
            },
        })
    }
}

/// The games table's rows of chess games, built as they are read: no tree, and no second
/// walk of the main line. [`pgn::Validator`] reads and checks every move (its diagnostics
/// are `check`'s); the rows read along. A main-line move's texts are written as it is
/// read, in the movetext too; its glyphs and comments are written after it as they
/// come, in the order the export format writes them, and its clock and evaluation once
/// the next move or the game's end comes. A game whose movetext only the export-format
/// writer can write (text left unread after an error, a set-up, a comment holding a `}`,
/// a comment too large to copy on the way), or whose start cannot be set up, is read
/// again from its text into a tree and goes the way of every game of other rules
/// ([`ParquetTask::add`]). A test holds the rows and diagnostics to that way's on every
/// corpus file.
struct ChessRows<'r> {
    task: ParquetTask<'r, pgn::ChessRules>,
    origin: Origin,
    /// The length of the chunk read, when the input is one.
    chunk: Option<usize>,
    rows: Rows,
    validator: pgn::Validator,
    /// The game being read.
    game: ChessGame,
    /// The last start position written, and its FEN.
    start_fen: Option<(pgn::Position, String)>,
}

impl ChessRows<'_> {
    /// The rows so far, to write, the large buffers of the last game given back first
    /// ([`Rows::take`]).
    fn take(&mut self) -> Item {
        let game = &mut self.game;
        for bytes in [&mut game.san, &mut game.uci, &mut game.movetext] {
            pipeline::shrink_kept(bytes, KEEP_BUFFER_BYTES);
        }
        for ends in [&mut game.san_ends, &mut game.uci_ends, &mut game.nag_ends] {
            pipeline::shrink_kept(ends, KEEP_BUFFER_BYTES);
        }
        pipeline::shrink_kept(&mut game.clocks, KEEP_BUFFER_BYTES);
        pipeline::shrink_kept(&mut game.evals, KEEP_BUFFER_BYTES);
        pipeline::shrink_kept(&mut game.nag_values, KEEP_BUFFER_BYTES);
        pipeline::shrink_kept(&mut game.folded, KEEP_BUFFER_BYTES);
        self.rows.take()
    }
}

/// What [`ChessRows`] holds of the game being read; its buffers are kept from game to
/// game.
#[derive(Default)]
struct ChessGame {
    /// Whether the rows are built as the game is read (else it is read again).
    plain: bool,
    /// Its start position, when it could be set up.
    start: Option<pgn::Position>,
    /// Its tag pairs as the tree keeps them: decoded, the first of each name.
    tags: TagTexts,
    /// Its result, as the reader gives it (its termination marker's, or its `Result`
    /// tag's); none given is `*`.
    result: Option<GameResult>,
    /// The last main-line move, its glyphs and comments still to come.
    pending: Option<PendingMove>,
    /// The main line's moves so far.
    plies: u32,
    /// Whether the next move of the second player is written with its number.
    number_second: bool,
    openings: pgn::openings::Classifier,
    /// The columns of the main line's moves written so far: texts one after another,
    /// each one's end; glyphs likewise. The texts, and the movetext, are gathered as
    /// bytes and made `str` once, at the game's end (a move's text is ASCII, a comment
    /// a `str`): a `String` takes text a `str` or a `char` at a time.
    san: Vec<u8>,
    san_ends: Vec<usize>,
    uci: Vec<u8>,
    uci_ends: Vec<usize>,
    movetext: Vec<u8>,
    clocks: Vec<Option<f64>>,
    evals: Vec<Option<columnar::Eval>>,
    nag_values: Vec<u16>,
    nag_ends: Vec<usize>,
    /// A comment folded, when folding it is more than trimming its ends.
    folded: String,
    /// Whether glyphs with a suffix (`!`, `?!`) are written as one after a move.
    suffix_symbols: bool,
}

/// A game's tag pairs, their texts one after another in one string kept from game to
/// game.
#[derive(Default)]
struct TagTexts {
    text: String,
    /// Each pair's name and value, as ranges of `text`.
    pairs: Vec<(std::ops::Range<usize>, std::ops::Range<usize>)>,
}

impl TagTexts {
    fn clear(&mut self) {
        self.text.clear();
        self.pairs.clear();
    }

    /// Adds a pair.
    fn push(&mut self, name: &str, value: &str) {
        let start = self.text.len();
        self.text.push_str(name);
        let middle = self.text.len();
        self.text.push_str(value);
        self.pairs.push((start..middle, middle..self.text.len()));
    }

    fn get(&self, name: &str) -> Option<&str> {
        self.pairs
            .iter()
            .find(|(n, _)| &self.text[n.clone()] == name)
            .map(|(_, v)| &self.text[v.clone()])
    }

    fn pairs(&self) -> impl Iterator<Item = (&str, &str)> {
        self.pairs
            .iter()
            .map(|(n, v)| (&self.text[n.clone()], &self.text[v.clone()]))
    }
}

/// The last main-line move read, its texts written (in the movetext too): its glyphs
/// and comments are written after it as they come, and its clock and evaluation, read
/// from its comments, are written once the next move or the game's end comes.
#[derive(Clone, Copy)]
struct PendingMove {
    turn: Player,
    /// Where its next glyph goes in the movetext: after its text and its glyphs so far
    /// (a glyph read after a comment is written before it, as the writer writes them).
    glyphs_end: usize,
    /// Whether it has a glyph, one written apart (`$4`), or a comment: after either of
    /// the last two the second player's move that follows is written with its number.
    glyphs: bool,
    apart: bool,
    commented: bool,
    clock: Option<pgn::commands::ClockTime>,
    eval: Option<pgn::commands::Eval>,
}

/// Comments longer than this are not copied on the way (their copy is not allocated
/// fallibly): such a game is read again into a tree, which copies them so.
const LARGE_COMMENT: usize = 1 << 20;

impl<'r> ChessRows<'r> {
    fn new(
        task: ParquetTask<'r, pgn::ChessRules>,
        origin: Origin,
        chunk: Option<usize>,
    ) -> ChessRows<'r> {
        let suffix_symbols = task.rules.write_options().suffix_symbols;
        ChessRows {
            validator: pgn::Validator::new(task.options),
            start_fen: None,
            task,
            origin,
            chunk,
            rows: Rows::new(false),
            game: ChessGame {
                suffix_symbols,
                ..ChessGame::default()
            },
        }
    }

    /// Adds the main-line move the validator just read from `token`.
    fn add_move(&mut self, token: &[u8]) {
        let ChessRows {
            task,
            validator,
            game,
            ..
        } = self;
        let Some((mv, forgiven, before, after)) = validator.last_move() else {
            return;
        };
        game.close_pending();
        let rules = task.rules;
        if !game.openings.is_done() {
            rules.see_opening(&mut game.openings, before);
        }
        let san_start = game.san.len();
        // A token read with nothing forgiven is its move's SAN, check sign included
        // (`pgn::Forgiven`: each flag is a departure from it).
        if forgiven.is_empty() {
            push_short(&mut game.san, token);
        } else {
            pgn::san::SanPlus {
                san: pgn::san::San::from_move(before, &mv),
                suffix: pgn::san::Suffix::for_position(after),
            }
            .append_ascii_to(&mut game.san);
        }
        game.san_ends.push(game.san.len());
        pgn::uci::Uci::from_move(&mv, before.castling_mode()).append_ascii_to(&mut game.uci);
        game.uci_ends.push(game.uci.len());
        // The movetext, as `ParquetTask::add` writes it.
        let turn = rules.turn(before);
        let out = &mut game.movetext;
        if turn == Player::First || game.number_second {
            push_move_number(out, rules.move_number(before), turn);
        }
        space_bytes(out);
        push_short(out, &game.san[san_start..]);
        game.pending = Some(PendingMove {
            turn,
            glyphs_end: out.len(),
            glyphs: false,
            apart: false,
            commented: false,
            clock: None,
            eval: None,
        });
        game.plies += 1;
    }

    /// A glyph read on the main line, after its last move.
    fn add_nag(&mut self, nag: Nag) {
        let game = &mut self.game;
        let Some(pending) = &mut game.pending else {
            return;
        };
        game.nag_values.push(nag.0);
        // As the writer does: the first glyph glued on where the format writes
        // suffixes, the others apart.
        let glued = nag
            .suffix()
            .filter(|_| !pending.glyphs && game.suffix_symbols);
        pending.glyphs = true;
        let mut apart = [0; 22];
        let text = match glued {
            Some(suffix) => suffix.as_bytes(),
            None => {
                pending.apart = true;
                let mut digits = [0; 20];
                let number = decimal(u64::from(nag.0), &mut digits);
                apart[..2].copy_from_slice(b" $");
                apart[2..2 + number.len()].copy_from_slice(number);
                &apart[..2 + number.len()]
            }
        };
        let at = pending.glyphs_end;
        if at == game.movetext.len() {
            game.movetext.extend_from_slice(text);
        } else {
            // After a comment of the move: rare.
            game.movetext.splice(at..at, text.iter().copied());
        }
        pending.glyphs_end += text.len();
    }

    /// A comment read on the main line: after its last move, or before its first.
    fn add_comment(&mut self, written: &[u8]) {
        let ChessGame {
            plain,
            pending,
            movetext,
            folded,
            ..
        } = &mut self.game;
        // The comment lichess writes after every move of a game without evaluations, read
        // and written at once: ` [%clk 0:02:57] ` (ASCII, nothing to fold).
        if let Some(pending) = pending
            && let Ok(written) = <&[u8; 16]>::try_from(written)
            && let Some(clock) = pgn::commands::lichess_clock(written)
        {
            pending.clock = pending.clock.or(Some(clock));
            pending.commented = true;
            push_clock_comment(movetext, written);
            return;
        }
        // Decoded as the tree builder decodes it (the validator reports what is not UTF-8).
        let (text, _) = notation::decode(written);
        // The comment of the move just read, as lichess writes one after every move:
        // nothing to fold, no brace, and its clock and evaluation read on the way.
        if let Some(pending) = pending
            && let Some((text, clock, eval)) = pgn::commands::lichess_comment(&text)
        {
            pending.clock = pending.clock.or(clock);
            pending.eval = pending.eval.or(eval);
            pending.commented = true;
            push_comment_bytes(movetext, text);
            return;
        }
        if text.len() > LARGE_COMMENT || text.contains('}') {
            *plain = false;
            return;
        }
        let text = notation::collapsed(&text, folded);
        match pending {
            Some(pending) => {
                let (clock, eval) = pgn::commands::clock_and_eval(text);
                pending.clock = pending.clock.or(clock);
                pending.eval = pending.eval.or(eval);
                pending.commented = true;
                push_comment_bytes(movetext, text);
            }
            None => push_comment_bytes(movetext, text),
        }
    }

    /// Ends the game's row, or reads the game again into a tree for it.
    fn end_row(&mut self, read: pgn::ValidatedGame, raw: &RawGame<'_>) {
        let offset = self.task.placing.base() + self.origin.offset + raw.span.start;
        let mut diagnostics = read.diagnostics;
        for d in &mut diagnostics {
            self.origin.place(d);
        }
        let first_location = diagnostics.first().map(|d| d.location);
        let plain = self.game.plain && !self.validator.is_stopped() && raw.held;
        let end = self
            .validator
            .main_line_position()
            .filter(|_| plain && self.game.start.is_some())
            .copied();
        let game = &mut self.game;
        if end.is_some() {
            game.close_pending();
        }
        if let Some(end) = &end
            && !game.openings.is_done()
        {
            self.task.rules.see_opening(&mut game.openings, end);
        }
        let game = &self.game;
        // Moves' texts are ASCII and comments `str`s: always text (else read again).
        let texts = end.and_then(|end| {
            let text = |bytes| std::str::from_utf8(bytes).ok();
            Some((
                end,
                text(&game.san)?,
                text(&game.uci)?,
                text(&game.movetext)?,
            ))
        });
        let cut = match texts {
            Some((end, san, uci, movetext)) => {
                self.rows.games.push_moves(&columnar::MoveColumns {
                    notation: columnar::Notation::Chess,
                    texts: san,
                    text_ends: &game.san_ends,
                    uci,
                    uci_ends: &game.uci_ends,
                    clocks: &game.clocks,
                    evals: &game.evals,
                    nags: &game.nag_values,
                    nag_ends: &game.nag_ends,
                });
                self.rows.movetext.clear();
                self.rows.movetext.push_str(movetext);
                space(&mut self.rows.movetext);
                let result = game.result.unwrap_or(GameResult::Unknown);
                self.rows.movetext.push_str(result.as_str());
                let tags: Vec<(&str, &str)> = game.tags.pairs().collect();
                // Nearly every game starts where the one before did: its FEN is written
                // once.
                let start_fen = match (&game.start, &mut self.start_fen) {
                    (Some(start), Some((last, fen))) if start == last => Some(fen.as_str()),
                    (Some(start), cache) => {
                        let (_, fen) = cache.insert((*start, start.to_fen()));
                        Some(fen.as_str())
                    }
                    (None, _) => None,
                };
                let variant =
                    crate::rules::chess::variant(game.start.as_ref(), game.tags.get("Variant"));
                self.task.finish_row(
                    &mut self.rows,
                    (&tags, &variant),
                    raw.index,
                    first_location,
                    game.plies,
                    (start_fen, Some(&end)),
                    game.openings.opening(),
                    offset,
                )
            }
            None => {
                // Read again into a tree, from the game's text; one not held whole is
                // its tags and result alone, as the tree builder gives it.
                let rules = self.task.rules;
                let reader = notation::Reader::game_text(
                    raw.bytes,
                    raw.starts_line,
                    rules.dialect(),
                    self.task.options,
                );
                let mut again = GameReader::from_reader(rules, reader).keep_raw(KeepRaw::Never);
                let read = match again.read_game() {
                    Ok(Some(read)) if raw.held => Some(read),
                    // Memory holds the text: no reading error; and a game's text holds a
                    // game.
                    _ => None,
                };
                let mut read = read.unwrap_or_else(|| {
                    let mut tree = notation::GameTree::new();
                    for (name, value) in game.tags.pairs() {
                        tree.tags.push(notation::Tag {
                            name: name.to_owned(),
                            value: value.to_owned(),
                            raw: None,
                        });
                    }
                    tree.result = game.result.unwrap_or(GameResult::Unknown);
                    ReadGame {
                        game: tree,
                        diagnostics: Vec::new(),
                        raw: None,
                        span: raw.span,
                        index: raw.index,
                        marked: false,
                        built: true,
                        streams: false,
                        passed_over: false,
                        held: raw.held,
                        starts_line: raw.starts_line,
                    }
                });
                read.index = raw.index;
                read.diagnostics = diagnostics.clone();
                self.task.add(&mut self.rows, &read, offset)
            }
        };
        diagnostics.extend(cut);
        self.rows.diagnostics.push(diagnostics);
        self.rows.after_first_game(raw.span.end, self.chunk);
    }
}

impl ChessGame {
    /// Writes the clock and evaluation of the pending move, now that its glyphs and
    /// comments are read.
    fn close_pending(&mut self) {
        // Read field by field where it is: copied out whole, the move would be read back
        // as wide words just after its fields were stored one by one, and wait for them.
        let Some(pending) = &self.pending else {
            return;
        };
        let (clock, eval) = chess_clock_and_eval_cells(pending.clock, pending.eval);
        self.number_second = pending.turn == Player::Second || pending.apart || pending.commented;
        self.pending = None;
        self.clocks.push(clock);
        self.evals.push(eval);
        self.nag_ends.push(self.nag_values.len());
    }
}

/// Every token goes to the validator first; what it read on the main line is then added
/// to the rows.
impl Visitor for ChessRows<'_> {
    type Output = ();

    fn begin_game(&mut self) {
        self.validator.begin_game();
        let game = &mut self.game;
        game.plain = true;
        game.start = None;
        game.tags.clear();
        game.result = None;
        game.pending = None;
        game.plies = 0;
        game.number_second = true;
        game.openings = pgn::openings::Classifier::new();
        game.san.clear();
        game.san_ends.clear();
        game.uci.clear();
        game.uci_ends.clear();
        game.movetext.clear();
        game.clocks.clear();
        game.evals.clear();
        game.nag_values.clear();
        game.nag_ends.clear();
    }

    fn tag(&mut self, name: &[u8], value: RawValue<'_>, at: At<'_>) -> ControlFlow<()> {
        let flow = self.validator.tag(name, value, at);
        // As the tree builder keeps them: decoded, the first of each name (the validator
        // compares names as written, which are ASCII but in broken files).
        let unescaped = value.unescaped();
        let (value, _) = notation::decode(&unescaped);
        let (name, lossy) = notation::decode(name);
        let tags = &mut self.game.tags;
        let duplicate = if name.is_ascii() && !lossy {
            self.validator.tag_was_duplicate()
        } else {
            tags.get(&name).is_some()
        };
        if !duplicate {
            tags.push(&name, &value);
        }
        flow
    }

    fn begin_movetext(&mut self) -> ControlFlow<()> {
        let flow = self.validator.begin_movetext();
        self.game.start = self.validator.position().copied();
        self.game.plain &= self.game.start.is_some();
        flow
    }

    fn move_number(&mut self, number: u64, ellipsis: bool, at: At<'_>) -> ControlFlow<()> {
        self.validator.move_number(number, ellipsis, at)
    }

    fn move_token(&mut self, token: &[u8], at: At<'_>) -> ControlFlow<()> {
        let flow = self.validator.move_token(token, at);
        if self.game.plain && self.validator.depth() == 1 {
            self.add_move(token);
        }
        flow
    }

    fn nag(&mut self, nag: Nag, at: At<'_>) -> ControlFlow<()> {
        let flow = self.validator.nag(nag, at);
        if self.game.plain && self.validator.depth() == 1 {
            self.add_nag(nag);
        }
        flow
    }

    fn comment(&mut self, text: &[u8], at: At<'_>) -> ControlFlow<()> {
        let flow = self.validator.comment(text, at);
        // Before the movetext (a comment before the tags) is before the first move.
        if self.game.plain && self.validator.depth() <= 1 {
            self.add_comment(text);
        }
        flow
    }

    fn begin_variation(&mut self, at: At<'_>) -> ControlFlow<(), Skip> {
        self.validator.begin_variation(at)
    }

    fn end_variation(&mut self, at: At<'_>) -> ControlFlow<()> {
        self.validator.end_variation(at)
    }

    fn setup(&mut self, text: &[u8], at: At<'_>) -> ControlFlow<()> {
        if self.validator.depth() <= 1 {
            // Only the writer writes a set-up.
            self.game.plain = false;
        }
        self.validator.setup(text, at)
    }

    fn result(&mut self, result: GameResult, at: At<'_>) -> ControlFlow<()> {
        self.game.result = Some(result);
        self.validator.result(result, at)
    }

    fn diagnostic(&mut self, diagnostic: Diagnostic) {
        self.validator.diagnostic(diagnostic);
    }

    fn end_game(&mut self, raw: RawGame<'_>) {
        let read = self.validator.end_game(raw);
        self.end_row(read, &raw);
    }
}

/// Whether the export-format writer would write a game's main line as the walk in
/// [`ParquetTask::add`] does: no text left unread, no set-up in the movetext, and no
/// comment holding a `}` (written as a `;` comment, which ends its line).
fn plain_main_line<M>(game: &notation::GameTree<M>) -> bool {
    let main = game.line(LineId::MAIN);
    let plain = |comments: &[String]| comments.iter().all(|c| !c.contains('}'));
    game.tail.is_none()
        && main.setup.is_none()
        && plain(&main.comments)
        && game
            .mainline()
            .all(|node| node.setup.is_none() && plain(&node.comments))
}

/// The ASCII digits of `n` in decimal, written in `digits`, without the formatter's
/// machinery (a number is written before every move).
fn decimal(n: u64, digits: &mut [u8; 20]) -> &[u8] {
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
    &digits[at..]
}

/// A move's number in a movetext gathered as bytes, after a space unless it is first:
/// `12.` before the first player's move, `12...` before the second's.
fn push_move_number(out: &mut Vec<u8>, n: u64, turn: Player) {
    if n >= 100 {
        space_bytes(out);
        out.extend_from_slice(decimal(n, &mut [0; 20]));
        out.extend_from_slice(if turn == Player::First { b"." } else { b"..." });
        return;
    }
    // Nearly every number is under 100: at most 6 bytes, put together in a register and
    // stored at once (see `push_short`).
    let (mut word, mut len) = (0u64, 0);
    let mut put = |b: u8| {
        word |= u64::from(b) << (8 * len);
        len += 1;
    };
    if !out.is_empty() {
        put(b' ');
    }
    if n >= 10 {
        put(b'0' + (n / 10) as u8);
    }
    put(b'0' + (n % 10) as u8);
    put(b'.');
    if turn == Player::Second {
        put(b'.');
        put(b'.');
    }
    let at = out.len();
    out.extend_from_slice(&word.to_le_bytes());
    out.truncate(at + len);
}

/// [`space`] in a movetext gathered as bytes.
fn space_bytes(out: &mut Vec<u8>) {
    if !out.is_empty() {
        out.push(b' ');
    }
}

/// Appends `bytes`, nearly always a move's few or a clock's comment: copied by stores of
/// known lengths where `extend_from_slice` would call `memcpy` (a move is copied so twice
/// or thrice).
#[inline(always)]
fn push_short(out: &mut Vec<u8>, bytes: &[u8]) {
    let n = bytes.len();
    let word = |at: usize| {
        let mut eight = [0; 8];
        eight.copy_from_slice(&bytes[at..at + 8]);
        u64::from_le_bytes(eight)
    };
    let at = out.len();
    match n {
        0 => {}
        1..=7 => {
            // Two words of four bytes that overlap for lengths under eight, or three
            // single bytes for lengths under four, put together in a register (put
            // together in memory, the word read back whole would wait for the stores of
            // its parts); the spare bytes are taken back.
            let word = if n >= 4 {
                let four = |at: usize| {
                    let mut four = [0; 4];
                    four.copy_from_slice(&bytes[at..at + 4]);
                    u64::from(u32::from_le_bytes(four))
                };
                four(0) | (four(n - 4) << (8 * (n - 4)))
            } else {
                let byte = |at: usize| u64::from(bytes[at]) << (8 * at);
                byte(0) | byte(n / 2) | byte(n - 1)
            };
            out.extend_from_slice(&word.to_le_bytes());
            out.truncate(at + n);
        }
        8..=16 => {
            // Two words of eight bytes that overlap for lengths under sixteen.
            let (first, last) = (word(0), word(n - 8));
            out.extend_from_slice(&first.to_le_bytes());
            out.truncate(at + n - 8);
            out.extend_from_slice(&last.to_le_bytes());
        }
        _ => out.extend_from_slice(bytes),
    }
}

/// [`push_comment_bytes`] of a comment written ` [%clk H:MM:SS] `, after a move: ` {`, its
/// 14 bytes between the spaces, and `}`, put together from its two words in registers and
/// stored as two words and a byte.
fn push_clock_comment(out: &mut Vec<u8>, written: &[u8; 16]) {
    let word = |at: usize| {
        let mut eight = [0; 8];
        eight.copy_from_slice(&written[at..at + 8]);
        u64::from_le_bytes(eight)
    };
    let (first, second) = (word(0), word(8));
    // ` {` and bytes 1 to 6; then bytes 7 to 14; then `}`.
    let opening = u64::from(b' ') | (u64::from(b'{') << 8) | ((first >> 8) << 16);
    let middle = (first >> 56) | (second << 8);
    if out.is_empty() {
        // Not after a move: as `push_comment_bytes` writes it.
        out.push(b'{');
        out.extend_from_slice(&written[1..15]);
    } else {
        out.extend_from_slice(&opening.to_le_bytes());
        out.extend_from_slice(&middle.to_le_bytes());
    }
    out.push(b'}');
}

/// [`push_comment`] in a movetext gathered as bytes.
fn push_comment_bytes(out: &mut Vec<u8>, text: &str) {
    space_bytes(out);
    out.push(b'{');
    out.extend_from_slice(text.as_bytes());
    out.push(b'}');
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
fn write_main_line<G: Columns>(rules: &G, game: &notation::GameTree<G::Move>, out: &mut String) {
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
        self.games.write(batch).map_err(table_error)
    }

    fn positions(&mut self, batch: &RecordBatch) -> io::Result<()> {
        match &mut self.positions {
            Some(writer) => writer.write(batch).map_err(table_error),
            None => Ok(()),
        }
    }
}

/// A table's write error as an I/O error: one carrying the [`OutputError`] of an output
/// file that failed, when that is the cause, so that the job reports the file and stops.
fn table_error(e: columnar::Error) -> io::Error {
    match OutputError::find_in(&e) {
        Some(output) => output.again().into_io(),
        None => io::Error::other(e),
    }
}

impl<W: Write + Send, P: Write + Send> ParquetFiles<W, P> {
    /// Writes the last row groups and the files' footers.
    pub fn close(self) -> Result<(), columnar::Error> {
        self.finish().map(drop)
    }

    /// Writes the last row groups and the files' footers, and gives back the outputs.
    pub fn finish(self) -> Result<(W, Option<P>), columnar::Error> {
        let games = self.games.into_inner()?;
        let positions = self.positions.map(ParquetWriter::into_inner).transpose()?;
        Ok((games, positions))
    }
}

/// Puts the rows in input order and hands them to their tables.
pub struct Emitter<'w> {
    /// Where the rows go.
    pub tables: &'w mut dyn Tables,
    /// The input's name, as diagnostics give it.
    pub name: String,
    /// Whether the input is a table, its diagnostics placed by row.
    pub by_row: bool,
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
    /// N)` (a table's by row); in a byte range, `name@offset:line:column: severity: message`, lines counted
    /// from the range's first byte and the game unnumbered.
    fn describe(&self, d: &Diagnostic, out: &mut String) {
        let _ = match self.placing {
            Placing::Whole => out.write_str(
                &Placed {
                    name: &self.name,
                    rows: self.by_row,
                }
                .diagnostic(d),
            ),
            Placing::From(offset) => write!(
                out,
                "{}@{offset}:{}: {}: {}",
                self.name, d.location, d.severity, d.kind
            ),
        };
    }
}

/// The games of one uncompressed file's byte range (`notate parquet --range`), opened.
pub struct Ranged {
    /// The file's name, as diagnostics give it.
    pub name: String,
    /// Its format.
    pub format: Format,
    /// The offset at which the range's reading starts (its first sure game boundary).
    pub start: u64,
    /// Exactly the range's bytes.
    pub reader: Box<dyn Read + Send>,
}

/// Opens a byte range of the one file `paths` names, read as `format` (else as its name
/// says: the middle of a file cannot be sniffed the way its start can).
///
/// # Errors
/// A message: `paths` is not one file, its format is not known, or the range cannot be
/// opened ([`range::open_range`]).
pub fn open_ranged(
    paths: &[PathBuf],
    format: Option<Format>,
    range: ByteRange,
) -> Result<Ranged, String> {
    let (path, format) = match paths {
        [path] if path.is_file() => (path, format.or_else(|| Format::from_path(path))),
        _ => return Err("--range reads one file (not a folder, not standard input)".to_owned()),
    };
    let Some(format) = format else {
        return Err(format!(
            "{}: --range cannot tell PGN from PDN by the name; give --format",
            path.display()
        ));
    };
    let (start, reader) = File::open(path)
        .and_then(|file| range::open_range(file, range))
        .map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(Ranged {
        name: path.display().to_string(),
        format,
        start,
        reader,
    })
}

/// The Parquet files a job writes to, on disk, each put in place whole when the job
/// ends well ([`AtomicFile`]).
pub type Files = ParquetFiles<io::BufWriter<AtomicFile>, io::BufWriter<AtomicFile>>;

pub use columnar::Codec;

/// Creates the games table's file at `games`, and the positions table's at `positions`
/// when given, compressed with `codec`: temporary files beside them until [`run`] puts
/// them in place.
///
/// # Errors
/// A message naming the file that cannot be made.
pub fn create_files(games: &Path, positions: Option<&Path>, codec: Codec) -> Result<Files, String> {
    let create = |path: &Path, schema| {
        let file = AtomicFile::create(path).map_err(|e| e.to_string())?;
        ParquetWriter::compressed(io::BufWriter::with_capacity(1 << 20, file), schema, codec)
            .map_err(|e| format!("{}: {e}", path.display()))
    };
    Ok(ParquetFiles {
        games: create(games, columnar::games_schema())?,
        positions: match positions {
            Some(path) => Some(create(path, columnar::positions_schema())?),
            None => None,
        },
    })
}

/// Closes the files and puts them in place together ([`output::commit_files`]).
///
/// # Errors
/// A file that cannot be finished or put in place; none is then put in place.
pub fn put_in_place(files: Files) -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    let (games, positions) = files.finish()?;
    let mut done = vec![games.into_inner().map_err(io::IntoInnerError::into_error)?];
    if let Some(positions) = positions {
        done.push(
            positions
                .into_inner()
                .map_err(io::IntoInnerError::into_error)?,
        );
    }
    Ok(output::commit_files(done)?)
}

/// `notate parquet`: writes every game of the job's inputs (or of `ranged`, one file's
/// byte range, instead) as rows of `files`, closes them and puts them in place, and says
/// how many games were written to `output` as a warning; when an input could not be read,
/// the files are removed instead. The job's games have errors when one has an error
/// diagnostic.
///
/// # Errors
/// [`Stopped::Failed`] when the files cannot be finished (reported); [`Stopped::Closed`]
/// does not happen (nothing is written to a pipe).
pub fn run(
    job: &mut Job<'_>,
    options: ReadOptions,
    mut files: Files,
    ranged: Option<Ranged>,
    output: &Path,
) -> Result<Ended, Stopped> {
    let (mut rows, mut errors) = (0, 0);
    let mut write = |name: &str,
                     format: Format,
                     placing: Placing,
                     reader: pipeline::Stream,
                     job: &Job<'_>|
     -> io::Result<()> {
        with_rules!(format, job.variant, |rules| {
            let task = ParquetTask {
                rules,
                options,
                name,
                placing,
                positions: files.positions.is_some(),
            };
            let mut emitter = Emitter {
                tables: &mut files,
                name: name.to_owned(),
                by_row: reader.rows,
                placing,
                once: OncePerInput::default(),
                rows: 0,
                errors: 0,
            };
            let result = pipeline::drive(&task, reader, job.jobs, &mut |item, before| {
                emitter.emit(item, before, &mut |m| job.report.warning(&m))
            });
            rows += emitter.rows;
            errors += emitter.errors;
            result
        })
    };
    match ranged {
        Some(Ranged {
            name,
            format,
            start,
            reader,
        }) => {
            if let Err(e) = write(&name, format, Placing::From(start), reader.into(), job) {
                job.failed = true;
                if let Some(output) = OutputError::carried_by(&e) {
                    job.report.error(&output.to_string());
                    return Err(Stopped::Failed);
                }
                job.report.error(&format!("{name}: {e}"));
            }
        }
        None => job.each(|source, opened, job| {
            write(
                &source.name,
                opened.format,
                Placing::Whole,
                opened.into(),
                job,
            )
        })?,
    }
    if job.failed {
        // The files are removed as they are dropped.
        job.report.error(&format!(
            "{}: not written, as the run failed",
            output.display()
        ));
        return Ok(job.ended(errors > 0));
    }
    if let Err(e) = put_in_place(files) {
        job.report.error(&match OutputError::find_in(&*e) {
            Some(output) => output.to_string(),
            None => format!("{}: {e}", output.display()),
        });
        return Err(Stopped::Failed);
    }
    job.report.warning(&format!(
        "{rows} games written to {} ({errors} with errors)",
        output.display()
    ));
    Ok(job.ended(errors > 0))
}

/// The rows of `text`'s chess games in batches, each with its games' diagnostics and,
/// last, those outside any game: built from each game's tree ([`ParquetTask::run_tree`])
/// or as the validator reads ([`ChessRows`]), to hold the two to each other
/// ([`crate::differential`]).
pub(crate) fn chess_rows(
    text: &[u8],
    without_tree: bool,
    options: ReadOptions,
) -> Vec<(RecordBatch, Vec<Vec<Diagnostic>>)> {
    let rules = crate::rules::chess();
    let task = ParquetTask {
        rules: &rules,
        options,
        name: "test.pgn",
        placing: Placing::Whole,
        positions: false,
    };
    let mut bytes = text.to_vec();
    let input = Input {
        bytes: &mut bytes,
        rest: None,
        cut_short: false,
        unseparated: false,
        rows: false,
    };
    let mut items = Vec::new();
    let mut keep = |item: Item| {
        let mut diagnostics = item.diagnostics;
        diagnostics.push(item.orphans);
        items.push((item.games, diagnostics));
        Ok(())
    };
    let origin = Origin::default();
    let read = if without_tree {
        task.run_chess(&rules, input, origin, &mut keep)
    } else {
        task.run_tree(input, origin, &mut keep)
    };
    // Memory gives no I/O error, and `keep` none either.
    let _ = read;
    items
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::differential::chess_rows_agree;

    #[test]
    fn move_numbers_are_written_in_decimal_with_their_periods() {
        for n in [0, 1, 9, 10, 42, 99, 100, 101, 12_345] {
            for (turn, periods) in [(Player::First, "."), (Player::Second, "...")] {
                let mut out = Vec::new();
                push_move_number(&mut out, n, turn);
                assert_eq!(out, format!("{n}{periods}").into_bytes());
                push_move_number(&mut out, n, turn);
                assert_eq!(out, format!("{n}{periods} {n}{periods}").into_bytes());
            }
        }
    }

    #[test]
    fn a_clock_comment_is_written_as_any_comment() {
        let written = b" [%clk 0:02:57] ";
        for before in [&b""[..], b"1. e4"] {
            let (mut fast, mut slow) = (before.to_vec(), before.to_vec());
            push_clock_comment(&mut fast, written);
            push_comment_bytes(&mut slow, "[%clk 0:02:57]");
            assert_eq!(fast, slow);
        }
    }

    #[test]
    fn short_copies_copy() {
        let bytes = b"abcdefghijklmnopqrstu";
        for n in 0..=bytes.len() {
            let mut out = b"x".to_vec();
            push_short(&mut out, &bytes[..n]);
            assert_eq!(out, [b"x", &bytes[..n]].concat());
        }
    }

    /// Chess games' rows built as they are read are the rows of their trees, with the
    /// same diagnostics, read leniently and strictly: on every PGN file of the corpus (and
    /// of the shared corpus, when there is one), whose games hold errors, set-ups, text
    /// left unread, comments with `}`, variations and glyphs in every order.
    #[test]
    fn chess_rows_without_a_tree_are_the_rows_of_the_tree() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let mut dirs = vec![root.join("corpus/pgn")];
        if let Some(shared) = std::env::var_os("NOTATION_SHARED_CORPUS") {
            // As `.ci/run` sets it: relative to the workspace.
            let shared = root.join(shared);
            assert!(shared.is_dir(), "no shared corpus at {}", shared.display());
            dirs.extend(
                ["pgn/bench", "pgn/python-chess", "pgn/scalachess"].map(|d| shared.join(d)),
            );
        }
        // And what the corpus may lack: a `;` comment holding a `}`, glyphs after
        // comments, comments after variations, before the first move and in variations, a
        // set-up in the movetext, a start that cannot be set up, an illegal move.
        let made = br#"[Event "a"]

{before} 1. e4 ; a } in a comment
e5 {c} $1 $14 2. Nf3 (2. Nc3 {v} Nc6 $2) {after the variation} 2... Nc6 $3 {x} 3. Bb5 1-0

[Event "b"]
[SetUp "1"]
[FEN "4k3/8/8/8/8/8/8/4K2R w K - 0 1"]

1. O-O+ Kd7 2. Rf7+ {[%clk 0:01:00] [%eval #3]} Ke6 *

[Event "c"]
[FEN "8/8/8/8/8/8/8/8 w - - 0 1"]

1. e4 *

[Event "d"]

1. e4 e5 2. Ke3 Nf6 *

[Event "e"]

1. d4 d5 /rnbqkbnr/ppp1pppp/8/3p4/3P4/8/PPP1PPPP/RNBQKBNR w KQkq - 0 2/ 2. c4 *

[Event "f"]

1. e4 {one} {two} e5 {[%clk 0:00:59.5]} 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0

[Event "g"]

1. e4 {[%eval 0.2]} $1 {[%clk 0:01:00]} $2 $13 e5 $146 {x} $3 2. Nf3 $4 {y} Nc6 *

[Event "h"]
[White "a"]
[White "b"]
[Result "1-0"]

1. e4 e5 2. Nf3

[Event "i"]

1. e4 e5 2. Nf3
"#;
        // Text that is not UTF-8 in a tag's name, a tag's value and a comment; an escape
        // line; a lenient move.
        let broken = b"[Ev\xe9nt \"a\"]\n[Ev\xe9nt \"b\"]\n[Site \"R\xe9ti\"]\n\n\
                       1. e4 {caf\xe9} e5\n% an escape line\n2. Ng1f3 *\n";
        let mut games = 0;
        for options in [ReadOptions::default(), ReadOptions::strict()] {
            for text in [&made[..], &broken[..]] {
                games += chess_rows_agree(text, options)
                    .unwrap_or_else(|d| panic!("the hand-made games: {d}"));
            }
        }
        for dir in dirs {
            let Ok(entries) = std::fs::read_dir(&dir) else {
                continue;
            };
            for entry in entries.flatten() {
                let path = entry.path();
                let Ok(text) = std::fs::read(&path) else {
                    continue;
                };
                for options in [ReadOptions::default(), ReadOptions::strict()] {
                    games += chess_rows_agree(&text, options)
                        .unwrap_or_else(|d| panic!("{}: {d}", path.display()));
                }
            }
        }
        assert!(games > 40, "{games} games");
    }

    /// Every move of the chess corpus's main lines: writing its columns while playing it
    /// gives the text, UCI and position that writing them and then playing it give.
    #[test]
    fn playing_with_columns_is_writing_them_then_playing() {
        let rules = crate::rules::chess();
        let corpus = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../corpus/pgn");
        let mut moves = 0;
        for entry in std::fs::read_dir(corpus).expect("the corpus") {
            let text = std::fs::read(entry.expect("an entry").path()).expect("a file");
            for read in GameReader::new(&rules, &text[..], ReadOptions::default()) {
                let game = read.expect("in memory").game;
                let Some(start) = rules.start(&game) else {
                    continue;
                };
                crate::mainline::walk(&rules, start, &game, |position, mv| {
                    let Some(mv) = mv else { return true };
                    let (mut text, mut uci) = (String::new(), String::new());
                    rules.move_columns(position, mv, &mut text, &mut uci);
                    let mut after = *position;
                    rules.play(&mut after, mv);
                    let mut played = *position;
                    let (mut text2, mut uci2) = (String::new(), String::new());
                    rules.play_with_columns(&mut played, mv, &mut text2, &mut uci2);
                    assert_eq!((text, uci), (text2, uci2));
                    assert_eq!(after, played);
                    moves += 1;
                    true
                });
            }
        }
        assert!(moves > 1000, "{moves} moves");
    }
}
