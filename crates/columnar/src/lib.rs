//! Games as Apache Arrow record batches and Parquet files: the columnar shape of
//! `notate parquet`, for DuckDB, Polars, pandas and Spark.
//!
//! This crate knows the tables and nothing of any game's rules: a caller that has read a
//! game (with `pgn` or `pdn`) hands its fields over as plain values ([`GameRecord`],
//! [`MoveRecord`], [`PositionRecord`]), and gets record batches back. It lives apart from
//! `pgn` and `pdn` so that a program using only those never builds Arrow.
//!
//! Two tables:
//! - the games table ([`games_schema`]), one row per game, with the columns of lichess's
//!   own Parquet copies of its database under the same names and types, and every tag,
//!   move, clock, evaluation and diagnostic besides;
//! - the positions table ([`positions_schema`]), one row per position of a game's main
//!   line.
//!
//! ```
//! use columnar::{GameRecord, GamesBuilder, MoveRecord, Notation};
//!
//! let mut games = GamesBuilder::new();
//! games.push_move(&MoveRecord { san: "e4", uci: Some("e2e4"), clock: Some(59.0), ..MoveRecord::default() });
//! games.end_game(&GameRecord {
//!     file: "club.pgn",
//!     game: Some(1),
//!     tags: &[("White", "Ann"), ("WhiteElo", "1820"), ("UTCDate", "2024.05.01")],
//!     movetext: "1. e4 { [%clk 0:00:59] } *",
//!     ..GameRecord::new(Notation::Chess)
//! });
//! let batch = games.finish();
//! assert_eq!(batch.num_rows(), 1);
//! assert_eq!(batch.schema().field_with_name("WhiteElo")?.data_type(), &arrow_schema::DataType::Int16);
//! # Ok::<(), arrow_schema::ArrowError>(())
//! ```

mod games;
mod lists;
mod positions;
mod reader;
mod schema;
pub mod values;
mod writer;

pub use games::{
    DiagnosticsBuilder, GameRecord, GamesBuilder, MAX_CELL_BYTES, MoveColumns, MoveRecord,
    Notation, renumber,
};
pub use positions::{PositionRecord, PositionsBuilder};
pub use reader::{
    BATCH_ROWS, GameBatch, PARQUET_MAGIC, ReadError, TableReader, TableShape, variant_in_event,
};
pub use schema::{Eval, games_schema, positions_schema};
pub use writer::{Codec, Error, ParquetWriter, ROW_GROUP_MEMORY, ROW_GROUP_ROWS};

pub use arrow_array::RecordBatch;
