//! The positions table, built a position at a time.

use std::sync::Arc;

use arrow_array::builder::{
    ArrayBuilder, Float64Builder, Int32Builder, StringBuilder, StructBuilder, UInt32Builder,
    UInt64Builder,
};
use arrow_array::{ArrayRef, RecordBatch};

use crate::games::{append_eval, cell};
use crate::schema::{Eval, eval_fields, positions_schema};

/// One position of a game's main line.
#[derive(Clone, Copy, Debug, Default)]
pub struct PositionRecord<'a> {
    /// The input the game came from.
    pub file: &'a str,
    /// The byte offset of the game in its input.
    pub offset: u64,
    /// The game's number in its input, from 1; `None` where it is not known.
    pub game: Option<u64>,
    /// Plies played before the position: 0 for the start.
    pub ply: u32,
    /// The position's FEN.
    pub fen: Option<&'a str>,
    /// For chess, the position's Polyglot key (as opening books index positions).
    pub hash: Option<u64>,
    /// The move played from the position in SAN (chess); `None` at the end.
    pub move_san: Option<&'a str>,
    /// The move played from the position in UCI (chess); `None` at the end.
    pub move_uci: Option<&'a str>,
    /// The move played from the position in PDN (draughts); `None` at the end.
    pub move_text: Option<&'a str>,
    /// The clock written after the move that led to the position, in seconds.
    pub clock: Option<f64>,
    /// The evaluation written after the move that led to the position: the
    /// position's own.
    pub eval: Option<Eval>,
}

/// Builds the positions table a position at a time.
pub struct PositionsBuilder {
    file: StringBuilder,
    offset: UInt64Builder,
    game: UInt64Builder,
    ply: UInt32Builder,
    fen: StringBuilder,
    hash: UInt64Builder,
    move_san: StringBuilder,
    move_uci: StringBuilder,
    move_text: StringBuilder,
    clock: Float64Builder,
    eval: StructBuilder,
    rows: usize,
}

impl Default for PositionsBuilder {
    fn default() -> Self {
        Self::new()
    }
}

impl PositionsBuilder {
    /// An empty table.
    pub fn new() -> PositionsBuilder {
        PositionsBuilder {
            file: StringBuilder::new(),
            offset: UInt64Builder::new(),
            game: UInt64Builder::new(),
            ply: UInt32Builder::new(),
            fen: StringBuilder::new(),
            hash: UInt64Builder::new(),
            move_san: StringBuilder::new(),
            move_uci: StringBuilder::new(),
            move_text: StringBuilder::new(),
            clock: Float64Builder::new(),
            eval: StructBuilder::new(
                eval_fields(),
                vec![
                    Box::new(Int32Builder::new()) as Box<dyn ArrayBuilder>,
                    Box::new(Int32Builder::new()),
                ],
            ),
            rows: 0,
        }
    }

    /// Adds a row.
    pub fn push(&mut self, p: &PositionRecord<'_>) {
        self.file.append_value(cell(p.file));
        self.offset.append_value(p.offset);
        self.game.append_option(p.game);
        self.ply.append_value(p.ply);
        self.fen.append_option(p.fen);
        self.hash.append_option(p.hash);
        self.move_san.append_option(p.move_san);
        self.move_uci.append_option(p.move_uci);
        self.move_text.append_option(p.move_text);
        self.clock.append_option(p.clock);
        append_eval(&mut self.eval, p.eval);
        self.rows += 1;
    }

    /// The rows added since the last [`finish`](Self::finish).
    pub fn len(&self) -> usize {
        self.rows
    }

    /// Whether no row was added since the last [`finish`](Self::finish).
    pub fn is_empty(&self) -> bool {
        self.rows == 0
    }

    /// The rows so far, as a record batch of [`positions_schema`]; the builder is
    /// empty again.
    pub fn finish(&mut self) -> RecordBatch {
        let columns: Vec<ArrayRef> = vec![
            Arc::new(self.file.finish()),
            Arc::new(self.offset.finish()),
            Arc::new(self.game.finish()),
            Arc::new(self.ply.finish()),
            Arc::new(self.fen.finish()),
            Arc::new(self.hash.finish()),
            Arc::new(self.move_san.finish()),
            Arc::new(self.move_uci.finish()),
            Arc::new(self.move_text.finish()),
            Arc::new(self.clock.finish()),
            Arc::new(self.eval.finish()),
        ];
        self.rows = 0;
        RecordBatch::try_new(positions_schema(), columns)
            .unwrap_or_else(|e| unreachable!("the builders follow the schema: {e}"))
    }
}
