//! The games table, built a game at a time.

use std::sync::Arc;

use arrow_array::builder::{
    Date32Builder, Int16Builder, Int32Builder, ListBuilder, StringBuilder, StructBuilder,
    Time64MicrosecondBuilder, UInt32Builder, UInt64Builder,
};
use arrow_array::{Array, ArrayRef, RecordBatch, UInt64Array};

use crate::lists::{ClockList, EvalList, NagList, Rest, TagList, TextList, Texts};
use crate::schema::{Eval, TAG_COLUMNS, TypedTag, games_schema, string_item};
use crate::values;

/// Which notation a game's moves are written in: chess moves fill `moves_san` and
/// `moves_uci`, draughts moves fill `moves`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Notation {
    /// SAN and UCI.
    #[default]
    Chess,
    /// PDN's numeric or alphanumeric moves.
    Draughts,
}

/// One move of a game's main line.
#[derive(Clone, Copy, Debug, Default)]
pub struct MoveRecord<'a> {
    /// Which table columns the move goes to.
    pub notation: Notation,
    /// The move as the game's notation writes it: SAN for chess (`Nf3`), PDN for
    /// draughts (`32-28`, `28x19`).
    pub san: &'a str,
    /// For chess, the move in UCI (`g1f3`).
    pub uci: Option<&'a str>,
    /// The mover's clock after the move, in seconds (`[%clk]`, or `[%clock]`).
    pub clock: Option<f64>,
    /// The evaluation after the move (`[%eval]`).
    pub eval: Option<Eval>,
    /// The move's glyphs (`$1`, or `!` read as `$1`).
    pub nags: &'a [u16],
}

/// A game's main line, column by column, for [`GamesBuilder::push_moves`]: each move's
/// texts one after another with where each ends, as a reader gathers them.
#[derive(Clone, Copy, Debug, Default)]
pub struct MoveColumns<'a> {
    /// Which table columns the moves go to.
    pub notation: Notation,
    /// The moves as the game's notation writes them (SAN for chess), one after another.
    pub texts: &'a str,
    /// Where each move's text ends in `texts` (at a character boundary).
    pub text_ends: &'a [usize],
    /// For chess, the moves in UCI, one after another.
    pub uci: &'a str,
    /// Where each move's UCI ends in `uci`.
    pub uci_ends: &'a [usize],
    /// Each move's clock, as [`MoveRecord::clock`].
    pub clocks: &'a [Option<f64>],
    /// Each move's evaluation.
    pub evals: &'a [Option<Eval>],
    /// The moves' glyphs, one move after another.
    pub nags: &'a [u16],
    /// Where each move's glyphs end in `nags`.
    pub nag_ends: &'a [usize],
}

/// A game's fields, given once its moves are in ([`GamesBuilder::end_game`]).
#[derive(Clone, Copy, Debug)]
pub struct GameRecord<'a> {
    /// The notation of its moves.
    pub notation: Notation,
    /// The input it came from.
    pub file: &'a str,
    /// Its number in its input, from 1; `None` where it is not known (a byte range).
    pub game: Option<u64>,
    /// The byte offset of its first byte in its input (decompressed).
    pub offset: u64,
    /// Its tag pairs as written, in order.
    pub tags: &'a [(&'a str, &'a str)],
    /// Its main line in the export format, with comments and glyphs.
    pub movetext: &'a str,
    /// The plies of its main line.
    pub plies: u32,
    /// The FEN of its start position, when it could be set up.
    pub start_fen: Option<&'a str>,
    /// The FEN at the end of its main line.
    pub final_fen: Option<&'a str>,
    /// What the final position decides by the rules (`checkmate`, `stalemate`, …).
    pub outcome: Option<&'a str>,
    /// The chess variant or draughts game type it is played in, as the rules read it
    /// (the `game_variant` column: the `Variant` tag as written has a column of its own,
    /// and engines that match names whatever their case, DuckDB and Spark, would take
    /// `variant` for it).
    pub variant: &'a str,
    /// The opening its moves reach, as the project's table names it: ECO code and name.
    pub opening: Option<(&'a str, &'a str)>,
    /// Errors found reading it.
    pub errors: u32,
    /// Warnings found reading it.
    pub warnings: u32,
    /// Its diagnostics as `notate check` prints them.
    pub diagnostics: &'a [String],
}

impl<'a> GameRecord<'a> {
    /// A record with every field empty, to be filled with struct update syntax.
    pub fn new(notation: Notation) -> GameRecord<'a> {
        GameRecord {
            notation,
            file: "",
            game: None,
            offset: 0,
            tags: &[],
            movetext: "",
            plies: 0,
            start_fen: None,
            final_fen: None,
            outcome: None,
            variant: "",
            opening: None,
            errors: 0,
            warnings: 0,
            diagnostics: &[],
        }
    }
}

/// The longest text a cell holds. Arrow's strings are indexed by 32-bit offsets: a
/// longer text (a game of more than a gigabyte) is cut at a character boundary, and
/// the caller, which knows ([`GamesBuilder::end_game`] says), reports it.
pub const MAX_CELL_BYTES: usize = 1 << 30;

/// The typed column of the tag `name`, if it has one: its index in [`TAG_COLUMNS`].
fn tag_column(name: &str) -> Option<usize> {
    Some(match name {
        "Event" => 0,
        "Site" => 1,
        "White" => 2,
        "Black" => 3,
        "Result" => 4,
        "UTCDate" => 5,
        "UTCTime" => 6,
        "WhiteElo" => 7,
        "BlackElo" => 8,
        "WhiteRatingDiff" => 9,
        "BlackRatingDiff" => 10,
        "ECO" => 11,
        "Opening" => 12,
        "Termination" => 13,
        "TimeControl" => 14,
        "Date" => 15,
        "Round" => 16,
        "WhiteTitle" => 17,
        "BlackTitle" => 18,
        "Variant" => 19,
        _ => return None,
    })
}

/// A typed tag column.
enum TagColumn {
    Text(StringBuilder),
    Date(Date32Builder),
    Time(Time64MicrosecondBuilder),
    Rating(Int16Builder),
}

impl TagColumn {
    fn new(typed: TypedTag) -> TagColumn {
        match typed {
            TypedTag::Text => TagColumn::Text(StringBuilder::new()),
            TypedTag::Date => TagColumn::Date(Date32Builder::new()),
            TypedTag::Time => TagColumn::Time(Time64MicrosecondBuilder::new()),
            TypedTag::Rating => TagColumn::Rating(Int16Builder::new()),
        }
    }

    fn append(&mut self, value: Option<&str>) {
        match self {
            TagColumn::Text(b) => b.append_option(value.map(cell)),
            TagColumn::Date(b) => b.append_option(value.and_then(values::date32)),
            TagColumn::Time(b) => b.append_option(value.and_then(values::time64_micros)),
            TagColumn::Rating(b) => b.append_option(value.and_then(values::int16)),
        }
    }

    fn finish(&mut self) -> ArrayRef {
        match self {
            TagColumn::Text(b) => Arc::new(b.finish()),
            TagColumn::Date(b) => Arc::new(b.finish()),
            TagColumn::Time(b) => Arc::new(b.finish()),
            TagColumn::Rating(b) => Arc::new(b.finish()),
        }
    }
}

/// Builds the games table a game at a time: [`push_move`](Self::push_move) for each
/// main-line move, then [`end_game`](Self::end_game); [`finish`](Self::finish) gives
/// the rows so far as a record batch and starts again.
pub struct GamesBuilder {
    file: StringBuilder,
    game: UInt64Builder,
    offset: UInt64Builder,
    tag_columns: Vec<TagColumn>,
    tags: TagList,
    movetext: Texts,
    moves_san: TextList,
    moves_uci: TextList,
    moves: TextList,
    clocks: ClockList,
    evals: EvalList,
    nags: NagList,
    plies: UInt32Builder,
    start_fen: StringBuilder,
    final_fen: StringBuilder,
    outcome: StringBuilder,
    variant: StringBuilder,
    opening_eco: StringBuilder,
    opening_name: StringBuilder,
    errors: UInt32Builder,
    warnings: UInt32Builder,
    diagnostics: ListBuilder<StringBuilder>,
    rows: usize,
    bytes: usize,
}

impl Default for GamesBuilder {
    fn default() -> Self {
        Self::new()
    }
}

fn strings() -> ListBuilder<StringBuilder> {
    ListBuilder::new(StringBuilder::new()).with_field(string_item())
}

impl GamesBuilder {
    /// An empty table.
    pub fn new() -> GamesBuilder {
        GamesBuilder {
            file: StringBuilder::new(),
            game: UInt64Builder::new(),
            offset: UInt64Builder::new(),
            tag_columns: TAG_COLUMNS
                .iter()
                .map(|(_, typed)| TagColumn::new(*typed))
                .collect(),
            tags: TagList::new(),
            movetext: Texts::new(),
            moves_san: TextList::new(),
            moves_uci: TextList::new(),
            moves: TextList::new(),
            clocks: ClockList::new(),
            evals: EvalList::new(),
            nags: NagList::new(),
            plies: UInt32Builder::new(),
            start_fen: StringBuilder::new(),
            final_fen: StringBuilder::new(),
            outcome: StringBuilder::new(),
            variant: StringBuilder::new(),
            opening_eco: StringBuilder::new(),
            opening_name: StringBuilder::new(),
            errors: UInt32Builder::new(),
            warnings: UInt32Builder::new(),
            diagnostics: strings(),
            rows: 0,
            bytes: 0,
        }
    }

    /// Adds a move to the main line of the game being built.
    pub fn push_move(&mut self, m: &MoveRecord<'_>) {
        match m.notation {
            Notation::Chess => {
                self.moves_san.push(cell(m.san));
                self.moves_uci.push(cell(m.uci.unwrap_or("")));
            }
            Notation::Draughts => self.moves.push(cell(m.san)),
        }
        self.bytes += m.san.len() + m.uci.map_or(0, str::len) + 16;
        self.clocks.extend(&[m.clock]);
        self.evals.extend(&[m.eval]);
        self.nags.push(m.nags);
    }

    /// Adds moves to the main line of the game being built, all at once: as many as
    /// [`push_move`](Self::push_move) for each, faster. The columns are of one length.
    ///
    /// ```
    /// use columnar::{GameRecord, GamesBuilder, MoveColumns, Notation};
    /// let mut table = GamesBuilder::new();
    /// table.push_moves(&MoveColumns {
    ///     notation: Notation::Chess,
    ///     texts: "e4e5Nf3",
    ///     text_ends: &[2, 4, 7],
    ///     uci: "e2e4e7e5g1f3",
    ///     uci_ends: &[4, 8, 12],
    ///     clocks: &[Some(180.0), Some(179.5), None],
    ///     evals: &[None, None, None],
    ///     nags: &[1],
    ///     nag_ends: &[0, 0, 1],
    /// });
    /// table.end_game(&GameRecord { plies: 3, ..GameRecord::new(Notation::Chess) });
    /// assert_eq!(table.finish().num_rows(), 1);
    /// ```
    pub fn push_moves(&mut self, m: &MoveColumns<'_>) {
        let moves = m.text_ends.len();
        let agree = m.clocks.len() == moves
            && m.evals.len() == moves
            && m.nag_ends.len() == moves
            && (m.notation == Notation::Draughts || m.uci_ends.len() == moves);
        let whole = m.texts.len() + m.uci.len() <= MAX_CELL_BYTES;
        if !agree || !whole {
            // Not as documented, or texts to cut: a move at a time.
            self.push_moves_one_by_one(m);
            return;
        }
        match m.notation {
            Notation::Chess => {
                self.moves_san.extend(m.texts, m.text_ends);
                self.moves_uci.extend(m.uci, m.uci_ends);
            }
            Notation::Draughts => self.moves.extend(m.texts, m.text_ends),
        }
        self.bytes += m.texts.len() + m.uci.len() + 16 * moves;
        self.clocks.extend(m.clocks);
        self.evals.extend(m.evals);
        self.nags.extend(m.nags, m.nag_ends);
    }

    fn push_moves_one_by_one(&mut self, m: &MoveColumns<'_>) {
        fn piece<'t>(texts: &'t str, ends: &[usize], i: usize) -> &'t str {
            let start = i.checked_sub(1).and_then(|j| ends.get(j)).copied();
            let end = ends.get(i).copied();
            texts
                .get(start.unwrap_or(0)..end.unwrap_or(0))
                .unwrap_or("")
        }
        for i in 0..m.text_ends.len() {
            let nags = i.checked_sub(1).and_then(|j| m.nag_ends.get(j)).copied();
            let nag_end = m.nag_ends.get(i).copied().unwrap_or(0);
            self.push_move(&MoveRecord {
                notation: m.notation,
                san: piece(m.texts, m.text_ends, i),
                uci: (m.notation == Notation::Chess).then(|| piece(m.uci, m.uci_ends, i)),
                clock: m.clocks.get(i).copied().flatten(),
                eval: m.evals.get(i).copied().flatten(),
                nags: m.nags.get(nags.unwrap_or(0)..nag_end).unwrap_or_default(),
            });
        }
    }

    /// Ends the game whose moves were pushed: one row. Returns whether every text fit
    /// whole ([`MAX_CELL_BYTES`]).
    pub fn end_game(&mut self, g: &GameRecord<'_>) -> bool {
        self.file.append_value(cell(g.file));
        self.game.append_option(g.game);
        self.offset.append_value(g.offset);
        // Each typed column takes the first tag of its name.
        let mut typed = [None; TAG_COLUMNS.len()];
        for (name, value) in g.tags {
            if let Some(slot) = tag_column(name).and_then(|i| typed.get_mut(i)) {
                slot.get_or_insert(*value);
            }
            self.tags.push(cell(name), cell(value));
            self.bytes += name.len() + value.len();
        }
        for (column, value) in self.tag_columns.iter_mut().zip(typed) {
            column.append(value);
        }
        self.tags.end_row();
        self.movetext.push(cell(g.movetext));
        let chess = g.notation == Notation::Chess;
        self.moves_san.end_row(chess);
        self.moves_uci.end_row(chess);
        self.moves.end_row(!chess);
        self.clocks.end_row();
        self.evals.end_row();
        self.nags.end_row();
        self.plies.append_value(g.plies);
        self.start_fen.append_option(g.start_fen.map(cell));
        self.final_fen.append_option(g.final_fen.map(cell));
        self.outcome.append_option(g.outcome);
        self.variant.append_value(cell(g.variant));
        self.opening_eco.append_option(g.opening.map(|o| o.0));
        self.opening_name.append_option(g.opening.map(|o| o.1));
        self.errors.append_value(g.errors);
        self.warnings.append_value(g.warnings);
        for d in g.diagnostics {
            self.diagnostics.values().append_value(cell(d));
            self.bytes += d.len();
        }
        self.diagnostics.append(true);
        self.rows += 1;
        self.bytes += g.movetext.len() + 256;
        g.movetext.len() <= MAX_CELL_BYTES
    }

    /// Makes room at once for the rows of the rest of an input, at the rate of the rows
    /// built so far from its first `read` bytes of `total`: a reader that knows how long
    /// its input is (a chunk of a file) spares its columns growing step by step, each
    /// step a copy into fresh memory. Only the columns that grow with the moves and the
    /// movetext are made room for.
    ///
    /// ```
    /// use columnar::{GameRecord, GamesBuilder, Notation};
    /// let mut table = GamesBuilder::new();
    /// table.end_game(&GameRecord { movetext: "1. e4 *", ..GameRecord::new(Notation::Chess) });
    /// // The game was the first 30 bytes of a chunk of 1,000,000.
    /// table.reserve_for_rest(30, 1_000_000);
    /// assert_eq!(table.finish().num_rows(), 1);
    /// ```
    pub fn reserve_for_rest(&mut self, read: usize, total: usize) {
        let rest = Rest { read, total };
        self.tags.reserve(rest);
        self.movetext.reserve(rest);
        self.moves_san.reserve(rest);
        self.moves_uci.reserve(rest);
        self.moves.reserve(rest);
        self.clocks.reserve(rest);
        self.evals.reserve(rest);
        self.nags.reserve(rest);
    }

    /// The rows built since the last [`finish`](Self::finish).
    pub fn len(&self) -> usize {
        self.rows
    }

    /// Whether no row was built since the last [`finish`](Self::finish).
    pub fn is_empty(&self) -> bool {
        self.rows == 0
    }

    /// About how many bytes the rows built so far hold: a caller finishes a batch well
    /// before its texts near Arrow's 2 GiB limit on a column of a batch.
    pub fn bytes(&self) -> usize {
        self.bytes
    }

    /// The rows built so far, as a record batch of [`games_schema`]; the builder is
    /// empty again.
    pub fn finish(&mut self) -> RecordBatch {
        let mut columns: Vec<ArrayRef> = vec![
            Arc::new(self.file.finish()),
            Arc::new(self.game.finish()),
            Arc::new(self.offset.finish()),
        ];
        columns.extend(self.tag_columns.iter_mut().map(TagColumn::finish));
        columns.extend([
            Arc::new(self.tags.finish()) as ArrayRef,
            Arc::new(self.movetext.finish()),
            Arc::new(self.moves_san.finish()),
            Arc::new(self.moves_uci.finish()),
            Arc::new(self.moves.finish()),
            Arc::new(self.clocks.finish()),
            Arc::new(self.evals.finish()),
            Arc::new(self.nags.finish()),
            Arc::new(self.plies.finish()),
            Arc::new(self.start_fen.finish()),
            Arc::new(self.final_fen.finish()),
            Arc::new(self.outcome.finish()),
            Arc::new(self.variant.finish()),
            Arc::new(self.opening_eco.finish()),
            Arc::new(self.opening_name.finish()),
            Arc::new(self.errors.finish()),
            Arc::new(self.warnings.finish()),
            Arc::new(self.diagnostics.finish()),
        ]);
        self.rows = 0;
        self.bytes = 0;
        RecordBatch::try_new(games_schema(), columns)
            .unwrap_or_else(|e| unreachable!("the builders follow the schema: {e}"))
    }
}

/// Adds `add` to every game number of a batch of either table (nulls stay null): a
/// batch built from a part of an input numbers its games from the part's start.
pub fn renumber(batch: &RecordBatch, add: u64) -> RecordBatch {
    if add == 0 {
        return batch.clone();
    }
    let Ok(index) = batch.schema().index_of("game") else {
        return batch.clone();
    };
    let Some(games) = batch.column(index).as_any().downcast_ref::<UInt64Array>() else {
        return batch.clone();
    };
    let renumbered: UInt64Array = games.iter().map(|g| g.map(|g| g + add)).collect();
    with_column(batch, index, Arc::new(renumbered))
}

/// The games table's `errors`, `warnings` and `diagnostics` columns, built apart from
/// the rest of a batch: by whoever knows the games' numbers, which the diagnostics name.
pub struct DiagnosticsBuilder {
    errors: UInt32Builder,
    warnings: UInt32Builder,
    lines: ListBuilder<StringBuilder>,
}

impl Default for DiagnosticsBuilder {
    fn default() -> Self {
        Self::new()
    }
}

impl DiagnosticsBuilder {
    /// No game yet.
    pub fn new() -> DiagnosticsBuilder {
        DiagnosticsBuilder {
            errors: UInt32Builder::new(),
            warnings: UInt32Builder::new(),
            lines: strings(),
        }
    }

    /// Adds a diagnostic of the current game, as it is to be read.
    pub fn push(&mut self, line: &str) {
        self.lines.values().append_value(cell(line));
    }

    /// Ends the current game's diagnostics: its counts of errors and warnings.
    pub fn end_game(&mut self, errors: u32, warnings: u32) {
        self.lines.append(true);
        self.errors.append_value(errors);
        self.warnings.append_value(warnings);
    }

    /// `batch` (of the games table, one game per row, as many as were ended here) with
    /// these columns in place of its own; the builder is empty again.
    pub fn apply(&mut self, batch: &RecordBatch) -> RecordBatch {
        let mut batch = batch.clone();
        let columns: [(&str, ArrayRef); 3] = [
            ("errors", Arc::new(self.errors.finish())),
            ("warnings", Arc::new(self.warnings.finish())),
            ("diagnostics", Arc::new(self.lines.finish())),
        ];
        for (name, column) in columns {
            if let Ok(index) = batch.schema().index_of(name) {
                batch = with_column(&batch, index, column);
            }
        }
        batch
    }
}

/// `batch` with its column `index` replaced by `column`, of the same type and length.
fn with_column(batch: &RecordBatch, index: usize, column: ArrayRef) -> RecordBatch {
    let mut columns = batch.columns().to_vec();
    columns[index] = column;
    RecordBatch::try_new(batch.schema(), columns)
        .unwrap_or_else(|e| unreachable!("the column keeps its type and length: {e}"))
}

pub(crate) fn append_eval(evals: &mut StructBuilder, eval: Option<Eval>) {
    let (cp, mate) = match eval {
        Some(Eval::Centipawns(cp)) => (Some(cp), None),
        Some(Eval::Mate(n)) => (None, Some(n)),
        None => (None, None),
    };
    for (i, value) in [cp, mate].into_iter().enumerate() {
        evals
            .field_builder::<Int32Builder>(i)
            .unwrap_or_else(|| unreachable!("an evaluation is two integers"))
            .append_option(value);
    }
    evals.append(eval.is_some());
}

/// `text`, cut to [`MAX_CELL_BYTES`] at a character boundary.
pub(crate) fn cell(text: &str) -> &str {
    if text.len() <= MAX_CELL_BYTES {
        return text;
    }
    let mut end = MAX_CELL_BYTES;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Three games' moves: chess with clocks, evaluations and glyphs, draughts, and a
    /// game without moves.
    fn games() -> Vec<(Notation, Vec<MoveRecord<'static>>)> {
        let chess = |san, uci, clock, eval, nags| MoveRecord {
            notation: Notation::Chess,
            san,
            uci: Some(uci),
            clock,
            eval,
            nags,
        };
        let draughts = |text| MoveRecord {
            notation: Notation::Draughts,
            san: text,
            ..MoveRecord::default()
        };
        vec![
            (
                Notation::Chess,
                vec![
                    chess("e4", "e2e4", Some(180.0), Some(Eval::Centipawns(17)), &[]),
                    chess("e5", "e7e5", None, None, &[1, 14]),
                    chess("Qh5", "d1h5", Some(179.5), Some(Eval::Mate(-3)), &[]),
                    chess("Nc6", "b8c6", Some(178.0), None, &[2]),
                ],
            ),
            (
                Notation::Draughts,
                vec![draughts("32-28"), draughts("19x28")],
            ),
            (Notation::Chess, Vec::new()),
        ]
    }

    fn table(by_columns: bool) -> RecordBatch {
        let mut table = GamesBuilder::new();
        for (notation, moves) in games() {
            if by_columns {
                let (mut texts, mut text_ends, mut uci, mut uci_ends) =
                    (String::new(), Vec::new(), String::new(), Vec::new());
                let (mut nags, mut nag_ends) = (Vec::new(), Vec::new());
                for m in &moves {
                    texts.push_str(m.san);
                    text_ends.push(texts.len());
                    uci.push_str(m.uci.unwrap_or(""));
                    uci_ends.push(uci.len());
                    nags.extend_from_slice(m.nags);
                    nag_ends.push(nags.len());
                }
                let clocks: Vec<_> = moves.iter().map(|m| m.clock).collect();
                let evals: Vec<_> = moves.iter().map(|m| m.eval).collect();
                table.push_moves(&MoveColumns {
                    notation,
                    texts: &texts,
                    text_ends: &text_ends,
                    uci: &uci,
                    uci_ends: &uci_ends,
                    clocks: &clocks,
                    evals: &evals,
                    nags: &nags,
                    nag_ends: &nag_ends,
                });
            } else {
                for m in &moves {
                    table.push_move(m);
                }
            }
            table.end_game(&GameRecord::new(notation));
        }
        table.finish()
    }

    #[test]
    fn a_main_line_pushed_whole_is_its_moves_pushed_one_by_one() {
        let (whole, one_by_one) = (table(true), table(false));
        assert_eq!(whole, one_by_one);
        assert_eq!(whole.num_rows(), 3);
        // One chess move without a clock, and the draughts moves.
        let clocks = whole.column_by_name("clocks").map(|c| c.to_data());
        assert_eq!(clocks.map(|c| c.child_data()[0].null_count()), Some(3));
    }

    #[test]
    fn each_typed_tag_column_is_found_by_its_name() {
        for (i, (name, _)) in TAG_COLUMNS.iter().enumerate() {
            assert_eq!(tag_column(name), Some(i), "{name}");
        }
        assert_eq!(tag_column("event"), None);
        assert_eq!(tag_column("Annotator"), None);
    }

    #[test]
    fn columns_of_unequal_lengths_are_read_as_far_as_they_go() {
        let mut table = GamesBuilder::new();
        table.push_moves(&MoveColumns {
            notation: Notation::Chess,
            texts: "e4e5",
            text_ends: &[2, 4],
            uci: "e2e4",
            uci_ends: &[4],
            clocks: &[Some(1.0)],
            ..MoveColumns::default()
        });
        table.end_game(&GameRecord::new(Notation::Chess));
        let batch = table.finish();
        let uci = batch.column_by_name("moves_uci").map(|c| c.to_data());
        // Two moves, the second with no UCI, clock, evaluation or glyph.
        assert_eq!(uci.map(|c| c.child_data()[0].len()), Some(2));
    }

    #[test]
    fn ends_out_of_order_or_inside_a_character_give_the_pieces_that_are_text() {
        let texts = "Réti";
        for ends in [[1, 2, 5], [3, 1, 5], [1, 3, 9], [0, 0, 5]] {
            let mut table = GamesBuilder::new();
            table.push_moves(&MoveColumns {
                notation: Notation::Draughts,
                texts,
                text_ends: &ends,
                clocks: &[None; 3],
                evals: &[None; 3],
                nag_ends: &[0; 3],
                ..MoveColumns::default()
            });
            table.end_game(&GameRecord::new(Notation::Draughts));
            let batch = table.finish();
            let moves = batch.column_by_name("moves").map(|c| c.to_data());
            let items = moves.map(|c| arrow_array::StringArray::from(c.child_data()[0].clone()));
            let expected: Vec<&str> = ends
                .iter()
                .scan(0, |start, &end| {
                    let piece = texts.get(*start..end).unwrap_or("");
                    *start = end;
                    Some(piece)
                })
                .collect();
            let got: Vec<&str> = items.iter().flatten().flatten().collect();
            assert_eq!(got, expected, "{ends:?}");
        }
    }
}
