//! Writing record batches to a Parquet file: zstd (or another [`Codec`]), row groups of
//! [`ROW_GROUP_ROWS`] (fewer when they would take more than [`ROW_GROUP_MEMORY`]).

use std::io::Write;

use arrow_array::RecordBatch;
use arrow_schema::SchemaRef;
use parquet::arrow::ArrowWriter;
use parquet::basic::{Compression, ZstdLevel};

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
use parquet::errors::ParquetError;
use parquet::file::properties::WriterProperties;

/// The rows of a row group: lichess's size, large enough for engines to skip whole
/// groups by their statistics, small enough that writing one holds little memory.
pub const ROW_GROUP_ROWS: usize = 100_000;

/// The memory a row group being written may take: one of large games (a federation's
/// annotated archive, say) is written out before it has [`ROW_GROUP_ROWS`] rows, so
/// that memory does not grow with the size of the games.
pub const ROW_GROUP_MEMORY: usize = 32 << 20;

/// Why a Parquet file could not be written.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// Writing failed (the output, or a batch that does not fit the schema).
    #[error("{0}")]
    Parquet(#[from] ParquetError),
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
}

impl<W: Write + Send> ParquetWriter<W> {
    /// A writer of `schema` to `out`, zstd-compressed at level 3.
    pub fn new(out: W, schema: SchemaRef) -> Result<Self, Error> {
        Self::compressed(out, schema, Codec::default())
    }

    /// A writer of `schema` to `out`, compressed with `codec`.
    pub fn compressed(out: W, schema: SchemaRef, codec: Codec) -> Result<Self, Error> {
        let properties = WriterProperties::builder()
            .set_compression(codec.compression()?)
            .set_max_row_group_row_count(Some(ROW_GROUP_ROWS))
            .set_created_by(concat!("notate ", env!("CARGO_PKG_VERSION")).to_owned())
            .build();
        Ok(ParquetWriter {
            inner: ArrowWriter::try_new(out, schema, Some(properties))?,
        })
    }

    /// Writes a batch: its rows go into the current row group, which is written out
    /// once it holds [`ROW_GROUP_ROWS`], or takes [`ROW_GROUP_MEMORY`].
    pub fn write(&mut self, batch: &RecordBatch) -> Result<(), Error> {
        self.inner.write(batch)?;
        if self.inner.memory_size() >= ROW_GROUP_MEMORY {
            self.inner.flush()?;
        }
        Ok(())
    }

    /// Writes the last row group and the file's footer.
    pub fn close(self) -> Result<(), Error> {
        self.inner.close()?;
        Ok(())
    }

    /// Writes the last row group and the file's footer, and gives back the output,
    /// flushed: for an output that is then put in place (renamed, synced).
    pub fn into_inner(self) -> Result<W, Error> {
        Ok(self.inner.into_inner()?)
    }
}
