//! The games table, built a game at a time.

use std::sync::Arc;

use arrow_array::builder::{
    ArrayBuilder, Date32Builder, Float64Builder, Int16Builder, Int32Builder, ListBuilder,
    StringBuilder, StructBuilder, Time64MicrosecondBuilder, UInt16Builder, UInt32Builder,
    UInt64Builder,
};
use arrow_array::{Array, ArrayRef, RecordBatch, UInt64Array};

use crate::schema::{
    Eval, TAG_COLUMNS, TypedTag, eval_fields, eval_item, games_schema, nags_item, nullable_item,
    string_item, tag_fields, tag_item,
};
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
    tags: ListBuilder<StructBuilder>,
    movetext: StringBuilder,
    moves_san: ListBuilder<StringBuilder>,
    moves_uci: ListBuilder<StringBuilder>,
    moves: ListBuilder<StringBuilder>,
    clocks: ListBuilder<Float64Builder>,
    evals: ListBuilder<StructBuilder>,
    nags: ListBuilder<ListBuilder<UInt16Builder>>,
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
        let tag_pair = StructBuilder::new(
            tag_fields(),
            vec![
                Box::new(StringBuilder::new()) as Box<dyn ArrayBuilder>,
                Box::new(StringBuilder::new()),
            ],
        );
        let eval = StructBuilder::new(
            eval_fields(),
            vec![
                Box::new(Int32Builder::new()) as Box<dyn ArrayBuilder>,
                Box::new(Int32Builder::new()),
            ],
        );
        let move_nags = ListBuilder::new(UInt16Builder::new()).with_field(Arc::new(
            arrow_schema::Field::new("item", arrow_schema::DataType::UInt16, false),
        ));
        GamesBuilder {
            file: StringBuilder::new(),
            game: UInt64Builder::new(),
            offset: UInt64Builder::new(),
            tag_columns: TAG_COLUMNS
                .iter()
                .map(|(_, typed)| TagColumn::new(*typed))
                .collect(),
            tags: ListBuilder::new(tag_pair).with_field(tag_item()),
            movetext: StringBuilder::new(),
            moves_san: strings(),
            moves_uci: strings(),
            moves: strings(),
            clocks: ListBuilder::new(Float64Builder::new())
                .with_field(nullable_item(arrow_schema::DataType::Float64)),
            evals: ListBuilder::new(eval).with_field(eval_item()),
            nags: ListBuilder::new(move_nags).with_field(nags_item()),
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
                self.moves_san.values().append_value(cell(m.san));
                self.moves_uci
                    .values()
                    .append_value(cell(m.uci.unwrap_or("")));
            }
            Notation::Draughts => self.moves.values().append_value(cell(m.san)),
        }
        self.bytes += m.san.len() + m.uci.map_or(0, str::len) + 16;
        self.clocks.values().append_option(m.clock);
        append_eval(self.evals.values(), m.eval);
        let nags = self.nags.values();
        nags.values().append_slice(m.nags);
        nags.append(true);
    }

    /// Ends the game whose moves were pushed: one row. Returns whether every text fit
    /// whole ([`MAX_CELL_BYTES`]).
    pub fn end_game(&mut self, g: &GameRecord<'_>) -> bool {
        self.file.append_value(cell(g.file));
        self.game.append_option(g.game);
        self.offset.append_value(g.offset);
        for ((name, _), column) in TAG_COLUMNS.iter().zip(&mut self.tag_columns) {
            let value = g.tags.iter().find(|(n, _)| n == name).map(|(_, v)| *v);
            column.append(value);
        }
        let pairs = self.tags.values();
        for (name, value) in g.tags {
            text_field(pairs, 0).append_value(cell(name));
            text_field(pairs, 1).append_value(cell(value));
            pairs.append(true);
            self.bytes += name.len() + value.len();
        }
        self.tags.append(true);
        self.movetext.append_value(cell(g.movetext));
        let chess = g.notation == Notation::Chess;
        self.moves_san.append(chess);
        self.moves_uci.append(chess);
        self.moves.append(!chess);
        self.clocks.append(true);
        self.evals.append(true);
        self.nags.append(true);
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

fn text_field(pairs: &mut StructBuilder, i: usize) -> &mut StringBuilder {
    pairs
        .field_builder::<StringBuilder>(i)
        .unwrap_or_else(|| unreachable!("tag pairs are two strings"))
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
