//! Writing record batches to a Parquet file: zstd (or another [`Codec`]), row groups of
//! [`ROW_GROUP_ROWS`] (fewer when they would take more than [`ROW_GROUP_MEMORY`]), the
//! same bytes however the rows were batched.

use std::io::Write;

use arrow_array::cast::AsArray;
use arrow_array::{RecordBatch, StringArray};
use arrow_buffer::ArrowNativeType;
use arrow_schema::{ArrowError, SchemaRef};
use arrow_select::concat::concat_batches;
use parquet::arrow::ArrowWriter;
use parquet::basic::{Compression, ZstdLevel};
use parquet::errors::ParquetError;
use parquet::file::properties::{EnabledStatistics, WriterProperties};
use parquet::schema::types::ColumnPath;

use crate::schema::column_writing;

/// How a Parquet file's pages are compressed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Codec {
    /// Zstandard at a level from 1 (fastest) to 22 (smallest); 3 by default, as lichess's
    /// own files and most writers use.
    Zstd(u8),
    /// LZ4 (Parquet's `LZ4_RAW`): faster to write and to read, larger.
    Lz4,
    /// Snappy: as fast as LZ4, what older Spark and Hive setups expect.
    Snappy,
    /// No compression.
    Uncompressed,
}

impl Default for Codec {
    fn default() -> Codec {
        Codec::Zstd(3)
    }
}

impl Codec {
    /// The codec a name gives (`zstd`, `lz4`, `snappy`, `none`), with zstd's level when
    /// given: an unknown name, a level out of 1–22, or a level for another codec is a
    /// message.
    ///
    /// ```
    /// use columnar::Codec;
    /// assert_eq!(Codec::named("zstd", Some(9)), Ok(Codec::Zstd(9)));
    /// assert_eq!(Codec::named("lz4", None), Ok(Codec::Lz4));
    /// assert!(Codec::named("lz4", Some(9)).is_err());
    /// ```
    pub fn named(name: &str, level: Option<u8>) -> Result<Codec, String> {
        let codec = match name {
            "zstd" => Codec::Zstd(level.unwrap_or(3)),
            "lz4" => Codec::Lz4,
            "snappy" => Codec::Snappy,
            "none" => Codec::Uncompressed,
            _ => {
                return Err(format!(
                    "no compression {name:?}: zstd, lz4, snappy or none"
                ));
            }
        };
        match (codec, level) {
            (Codec::Zstd(l), _) if !(1..=22).contains(&l) => {
                Err(format!("zstd's level is from 1 to 22, not {l}"))
            }
            (Codec::Zstd(_), _) | (_, None) => Ok(codec),
            (_, Some(_)) => Err(format!("a level is zstd's alone, not {name}'s")),
        }
    }

    fn compression(self) -> Result<Compression, ParquetError> {
        Ok(match self {
            Codec::Zstd(level) => Compression::ZSTD(ZstdLevel::try_new(i32::from(level))?),
            Codec::Lz4 => Compression::LZ4_RAW,
            Codec::Snappy => Compression::SNAPPY,
            Codec::Uncompressed => Compression::UNCOMPRESSED,
        })
    }
}

/// A column's Parquet path (`moves_san.list.item`) as the writer's properties name it.
fn path(dotted: &str) -> ColumnPath {
    ColumnPath::new(dotted.split('.').map(str::to_owned).collect())
}

/// The rows of a row group: lichess's size, large enough for engines to skip whole
/// groups by their statistics, small enough that writing one holds little memory.
pub const ROW_GROUP_ROWS: usize = 100_000;

/// The memory a row group being written may take: one of large games (a federation's
/// annotated archive, say) is written out before it has [`ROW_GROUP_ROWS`] rows, so
/// that memory does not grow with the size of the games.
pub const ROW_GROUP_MEMORY: usize = 32 << 20;

/// The rows of each write to the Parquet writer at most, whatever batches they came in:
/// where it cuts pages (and row groups by memory) depends on where its writes begin, and
/// a file must not depend on how its rows were batched (`--jobs`, chunk sizes). The
/// writer's own step (its `write_batch_size`), so that only the rows across the end of
/// a batch are copied.
const WRITE_ROWS: usize = 1024;

/// The text a write holds at most, beyond its last row: the rows held back for the next
/// write stay small when the games are large. Counted row by row (the lengths of the
/// string columns), so that where writes begin depends on the rows alone.
const WRITE_TEXT_BYTES: usize = 1 << 20;

/// Why a Parquet file could not be written.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// Writing failed (the output, or a batch that does not fit the schema).
    #[error("{0}")]
    Parquet(#[from] ParquetError),
    /// A batch that does not fit the schema.
    #[error("{0}")]
    Arrow(#[from] ArrowError),
}

/// A Parquet file being written, batch after batch.
///
/// ```
/// use columnar::{GameRecord, GamesBuilder, Notation, ParquetWriter, games_schema};
/// let mut games = GamesBuilder::new();
/// games.end_game(&GameRecord { file: "a.pgn", movetext: "*", variant: "Standard", ..GameRecord::new(Notation::Chess) });
/// let mut out = Vec::new();
/// let mut writer = ParquetWriter::new(&mut out, games_schema())?;
/// writer.write(&games.finish())?;
/// writer.close()?;
/// assert_eq!(&out[..4], b"PAR1");
/// # Ok::<(), columnar::Error>(())
/// ```
pub struct ParquetWriter<W: Write + Send> {
    inner: ArrowWriter<W>,
    /// Rows given but not yet written, fewer than [`WRITE_ROWS`] and with less text
    /// than [`WRITE_TEXT_BYTES`]: copied out of their batch, so as not to keep all of it.
    pending: Option<RecordBatch>,
    /// The bytes of their string columns.
    pending_text: usize,
}

impl<W: Write + Send> ParquetWriter<W> {
    /// A writer of `schema` to `out`, zstd-compressed at level 3.
    pub fn new(out: W, schema: SchemaRef) -> Result<Self, Error> {
        Self::compressed(out, schema, Codec::default())
    }

    /// A writer of `schema` to `out`, compressed with `codec`.
    pub fn compressed(out: W, schema: SchemaRef, codec: Codec) -> Result<Self, Error> {
        let mut properties = WriterProperties::builder()
            .set_compression(codec.compression()?)
            .set_max_row_group_row_count(Some(ROW_GROUP_ROWS))
            .set_write_batch_size(WRITE_ROWS)
            .set_created_by(concat!("notate ", env!("CARGO_PKG_VERSION")).to_owned());
        let writing = column_writing(&schema);
        for &column in writing.without_dictionary {
            properties = properties.set_column_dictionary_enabled(path(column), false);
        }
        for &column in writing.without_statistics {
            properties =
                properties.set_column_statistics_enabled(path(column), EnabledStatistics::None);
        }
        let properties = properties.build();
        Ok(ParquetWriter {
            inner: ArrowWriter::try_new(out, schema, Some(properties))?,
            pending: None,
            pending_text: 0,
        })
    }

    /// Writes a batch: its rows go into the current row group, which is written out
    /// once it holds [`ROW_GROUP_ROWS`], or takes [`ROW_GROUP_MEMORY`]. The file is the
    /// same whether the rows come in one batch or in many.
    pub fn write(&mut self, batch: &RecordBatch) -> Result<(), Error> {
        let texts: Vec<&StringArray> = batch
            .columns()
            .iter()
            .filter_map(|column| column.as_string_opt::<i32>())
            .collect();
        let mut held = self.pending.as_ref().map_or(0, RecordBatch::num_rows);
        let mut from = 0;
        for row in 0..batch.num_rows() {
            self.pending_text += texts
                .iter()
                .map(|column| column.value_length(row).as_usize())
                .sum::<usize>();
            if held + row + 1 - from < WRITE_ROWS && self.pending_text < WRITE_TEXT_BYTES {
                continue;
            }
            let rows = self.after_pending(batch.slice(from, row + 1 - from))?;
            self.write_rows(&rows)?;
            (held, self.pending_text) = (0, 0);
            from = row + 1;
        }
        if from < batch.num_rows() {
            // Copied out of the batch (once, joined to the rows already pending), so as
            // not to keep all of it.
            let rest = batch.slice(from, batch.num_rows() - from);
            let pending = match self.pending.take() {
                Some(pending) => concat_batches(&batch.schema(), [&pending, &rest])?,
                None => concat_batches(&batch.schema(), [&rest])?,
            };
            self.pending = Some(pending);
        }
        Ok(())
    }

    /// The pending rows (taken) followed by `rows`, as one batch.
    fn after_pending(&mut self, rows: RecordBatch) -> Result<RecordBatch, Error> {
        Ok(match self.pending.take() {
            Some(pending) => concat_batches(&rows.schema(), [&pending, &rows])?,
            None => rows,
        })
    }

    /// Hands rows to the Parquet writer, and writes the row group out when it takes
    /// [`ROW_GROUP_MEMORY`].
    fn write_rows(&mut self, batch: &RecordBatch) -> Result<(), Error> {
        self.inner.write(batch)?;
        if self.inner.memory_size() >= ROW_GROUP_MEMORY {
            self.inner.flush()?;
        }
        Ok(())
    }

    /// Writes the rows still pending.
    fn finish_rows(&mut self) -> Result<(), Error> {
        self.pending_text = 0;
        match self.pending.take() {
            Some(pending) => self.write_rows(&pending),
            None => Ok(()),
        }
    }

    /// Writes the last row group and the file's footer.
    pub fn close(mut self) -> Result<(), Error> {
        self.finish_rows()?;
        self.inner.close()?;
        Ok(())
    }

    /// Writes the last row group and the file's footer, and gives back the output,
    /// flushed: for an output that is then put in place (renamed, synced).
    pub fn into_inner(mut self) -> Result<W, Error> {
        self.finish_rows()?;
        Ok(self.inner.into_inner()?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{PositionRecord, PositionsBuilder, positions_schema};

    /// Rows enough for several pages and two row groups, their FENs all different; with
    /// `text`, a text of up to that many bytes in each, of varied lengths.
    fn positions(rows: usize, text: usize) -> RecordBatch {
        let mut builder = PositionsBuilder::new();
        for i in 0..rows {
            let fen = format!("{i:x}/8/8/8/8/8/8/8 w - - 0 1");
            let long = "x".repeat((i * 7919) % (text + 1));
            let ply = u32::try_from(i % 300).expect("small");
            builder.push(&PositionRecord {
                file: "a.pgn",
                offset: (i / 80) as u64,
                game: Some((i / 80) as u64 + 1),
                ply,
                fen: Some(&fen),
                hash: Some((i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)),
                move_san: Some("Nf3"),
                move_text: (text > 0).then_some(long.as_str()),
                clock: (i % 3 == 0).then_some(f64::from(ply)),
                ..PositionRecord::default()
            });
        }
        builder.finish()
    }

    fn written(batches: &[RecordBatch]) -> Vec<u8> {
        let mut out = Vec::new();
        let mut writer = ParquetWriter::new(&mut out, positions_schema()).expect("writer");
        for batch in batches {
            writer.write(batch).expect("write");
        }
        writer.close().expect("close");
        out
    }

    /// `rows` cut into batches of the given sizes, over and over.
    fn cut(rows: &RecordBatch, sizes: &[usize]) -> Vec<RecordBatch> {
        let mut batches = Vec::new();
        let mut start = 0;
        for &size in sizes.iter().cycle() {
            if start == rows.num_rows() {
                break;
            }
            let size = size.min(rows.num_rows() - start);
            batches.push(rows.slice(start, size));
            start += size;
        }
        batches
    }

    #[test]
    fn the_file_does_not_depend_on_how_its_rows_were_batched() {
        for rows in [positions(130_000, 0), positions(3_000, 20_000)] {
            batched_as_one(&rows);
        }
    }

    #[test]
    fn every_column_written_otherwise_is_a_column_of_the_games_table() {
        let parquet = parquet::arrow::ArrowSchemaConverter::new()
            .convert(&crate::games_schema())
            .expect("the games table converts");
        let columns: Vec<String> = parquet
            .columns()
            .iter()
            .map(|c| c.path().string())
            .collect();
        let writing = column_writing(&crate::games_schema());
        for column in writing
            .without_dictionary
            .iter()
            .chain(writing.without_statistics)
        {
            assert!(
                columns.iter().any(|c| c == column),
                "{column} is not among {columns:?}"
            );
        }
    }

    #[test]
    fn a_games_file_keeps_statistics_where_queries_prune_and_no_dictionary_of_unique_texts() {
        use parquet::file::reader::{FileReader, SerializedFileReader};
        let mut games = crate::GamesBuilder::new();
        for (i, elo) in ["1500", "2100", "1800"].into_iter().enumerate() {
            let movetext = format!("{i}. e4 *");
            let fen = format!("{}/8/8/8/8/8/8/8 w - - 0 1", i + 1);
            games.end_game(&crate::GameRecord {
                file: "a.pgn",
                offset: 100 * i as u64,
                tags: &[("WhiteElo", elo), ("White", "Anna")],
                movetext: &movetext,
                final_fen: Some(&fen),
                variant: "Standard",
                ..crate::GameRecord::new(crate::Notation::Chess)
            });
        }
        let mut out = Vec::new();
        let mut writer = ParquetWriter::new(&mut out, crate::games_schema()).expect("writer");
        writer.write(&games.finish()).expect("write");
        writer.close().expect("close");
        let file = SerializedFileReader::new(bytes::Bytes::from(out)).expect("a Parquet file");
        let group = file.metadata().row_group(0);
        let column = |name: &str| {
            let at = (0..group.num_columns())
                .find(|&i| group.column(i).column_path().string() == name)
                .unwrap_or_else(|| panic!("no column {name}"));
            group.column(at)
        };
        let elo = column("WhiteElo")
            .statistics()
            .expect("WhiteElo's statistics");
        assert_eq!(elo.min_bytes_opt(), Some(&1500_i32.to_le_bytes()[..]));
        assert_eq!(elo.max_bytes_opt(), Some(&2100_i32.to_le_bytes()[..]));
        assert!(column("White").dictionary_page_offset().is_some());
        for plain in ["offset", "final_fen"] {
            assert!(column(plain).dictionary_page_offset().is_none(), "{plain}");
        }
        for without in ["movetext", "moves_san.list.item", "tags.list.item.value"] {
            assert!(column(without).statistics().is_none(), "{without}");
        }
    }

    fn batched_as_one(rows: &RecordBatch) {
        let whole = written(std::slice::from_ref(rows));
        for sizes in [
            &[1, 7, 1000][..],
            &[1023, 1025, 8193],
            &[WRITE_ROWS],
            &[20_000, 0, 3],
            &[65_536],
        ] {
            assert!(
                written(&cut(rows, sizes)) == whole,
                "batches of {sizes:?} rows give the bytes of one batch"
            );
        }
    }
}
