//! Reading games back from Parquet: lichess's published tables and `notate parquet`'s
//! own games table, a record batch at a time, each row as its tag pairs and movetext.
//!
//! Two shapes are recognised by their columns:
//! - **notate's games table** (a `tags` column of `{name, value}` pairs and `movetext`):
//!   the tags as they were written, in their order;
//! - **lichess's tables** (the `Lichess/standard-chess-games` dataset and its variant
//!   siblings: `movetext` and the tags as typed columns, `Event`, `Site`, `White`, …):
//!   the tags in the order lichess's PGN export writes them, with its forms (`UTCDate`
//!   as `YYYY.MM.DD`, `UTCTime` as `HH:MM:SS`, a rating difference with its sign), and
//!   the `Date` and `Round` tags its export adds (`Date` as `UTCDate`, `Round` `-`).
//!
//! A null leaves its tag out, except where the Seven Tag Roster needs one: `Event`,
//! `Site`, `White` and `Black` become `?`, `Date` `????.??.??` and `Result` `*`, as
//! lichess's PGN writes an unknown value. A null movetext is an empty one. A variant
//! table has no `Variant` column: the variant is read from `Event` (`Rated Atomic
//! game`), as lichess names it there.
//!
//! Reading holds one record batch of [`BATCH_ROWS`] rows (and the pages of the row
//! group it comes from) at a time, whatever the size of the file.

use std::fmt::Write as _;

use arrow_array::cast::AsArray;
use arrow_array::types::{
    Date32Type, Int8Type, Int16Type, Int32Type, Int64Type, Time32MillisecondType, Time32SecondType,
    Time64MicrosecondType, Time64NanosecondType, UInt8Type, UInt16Type, UInt32Type, UInt64Type,
};
use arrow_array::{Array, ArrayRef, RecordBatch};
use arrow_schema::{DataType, TimeUnit};
use parquet::arrow::ProjectionMask;
use parquet::arrow::arrow_reader::{ParquetRecordBatchReader, ParquetRecordBatchReaderBuilder};
use parquet::errors::ParquetError;
use parquet::file::reader::ChunkReader;

/// The rows of a record batch read at a time: a few megabytes of lichess's games.
pub const BATCH_ROWS: usize = 1024;

/// The four bytes a Parquet file starts (and ends) with.
pub const PARQUET_MAGIC: &[u8; 4] = b"PAR1";

/// Why a Parquet file of games could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// The file is not Parquet, is cut short, or a page of it is damaged.
    #[error("not a readable Parquet file: {0}")]
    Parquet(#[from] ParquetError),
    /// A batch of rows could not be decoded.
    #[error("a row group could not be read: {0}")]
    Arrow(#[from] arrow_schema::ArrowError),
    /// The table has no `movetext` column of strings: it holds no games.
    #[error("no movetext column of strings: not a table of games")]
    NoMovetext,
}

/// How a table holds its games.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TableShape {
    /// `notate parquet`'s games table: every tag in its `tags` column.
    Notate,
    /// lichess's published tables: a column per tag.
    Lichess,
}

/// The tags of lichess's tables, in the order its PGN export writes them, with what a
/// null becomes (`None`: the tag is left out). `Date` and `Round` are the export's own,
/// taken from their columns when a table has them.
const LICHESS_ORDER: [(&str, Option<&str>); 20] = [
    ("Event", Some("?")),
    ("Site", Some("?")),
    ("Date", Some("????.??.??")),
    ("Round", Some("-")),
    ("White", Some("?")),
    ("Black", Some("?")),
    ("Result", Some("*")),
    ("UTCDate", None),
    ("UTCTime", None),
    ("WhiteElo", None),
    ("BlackElo", None),
    ("WhiteRatingDiff", None),
    ("BlackRatingDiff", None),
    ("WhiteTitle", None),
    ("BlackTitle", None),
    ("Variant", None),
    ("ECO", None),
    ("Opening", None),
    ("TimeControl", None),
    ("Termination", None),
];

/// The variants lichess names in a game's `Event`, as the `Variant` tag names them.
const EVENT_VARIANTS: [&str; 8] = [
    "Antichess",
    "Atomic",
    "Chess960",
    "Crazyhouse",
    "Horde",
    "King of the Hill",
    "Racing Kings",
    "Three-check",
];

/// One tag's column of a lichess table.
struct TagColumn {
    name: &'static str,
    /// The column's index in the projected batch; `None` when the table has none.
    index: Option<usize>,
    /// What a null (or a missing column) becomes.
    null: Option<&'static str>,
}

/// A Parquet file of games, read a record batch at a time.
pub struct TableReader {
    batches: ParquetRecordBatchReader,
    shape: TableShape,
    /// For [`TableShape::Notate`], the `tags` column's index in the batch.
    tags: usize,
    movetext: usize,
    columns: Vec<TagColumn>,
    rows: u64,
}

impl TableReader {
    /// Opens a Parquet file (or its bytes in memory) and recognises its shape.
    ///
    /// # Errors
    /// [`ReadError::Parquet`] when it is not a readable Parquet file (its footer is
    /// missing when it was cut short), [`ReadError::NoMovetext`] when it is not a table
    /// of games.
    pub fn new<T: ChunkReader + 'static>(input: T) -> Result<TableReader, ReadError> {
        let builder = ParquetRecordBatchReaderBuilder::try_new(input)?;
        let rows = u64::try_from(builder.metadata().file_metadata().num_rows()).unwrap_or(0);
        let schema = builder.schema().clone();
        let find = |name: &str| schema.index_of(name).ok();
        let is_text = |i: usize| {
            matches!(
                schema.field(i).data_type(),
                DataType::Utf8 | DataType::LargeUtf8 | DataType::Utf8View
            )
        };
        let movetext = find("movetext")
            .filter(|&i| is_text(i))
            .ok_or(ReadError::NoMovetext)?;
        let tags = find("tags").filter(|&i| is_tag_list(schema.field(i).data_type()));
        let (shape, wanted) = match tags {
            Some(tags) => (TableShape::Notate, vec![tags, movetext]),
            None => {
                let mut wanted: Vec<usize> = LICHESS_ORDER
                    .iter()
                    .filter_map(|(name, _)| find(name))
                    .collect();
                wanted.push(movetext);
                (TableShape::Lichess, wanted)
            }
        };
        let mask = ProjectionMask::roots(builder.parquet_schema(), wanted.iter().copied());
        // A projected batch holds the wanted columns in the file's order.
        let mut sorted = wanted.clone();
        sorted.sort_unstable();
        let at = |i: usize| sorted.iter().position(|&j| j == i);
        let columns = LICHESS_ORDER
            .iter()
            .map(|&(name, null)| TagColumn {
                name,
                index: find(name).and_then(at),
                null,
            })
            .collect();
        let batches = builder
            .with_projection(mask)
            .with_batch_size(BATCH_ROWS)
            .build()?;
        Ok(TableReader {
            batches,
            shape,
            tags: tags.and_then(at).unwrap_or(0),
            movetext: at(movetext).unwrap_or(0),
            columns,
            rows,
        })
    }

    /// Reads a Parquet file held in memory (standard input's, or a program's bytes).
    ///
    /// # Errors
    /// As [`TableReader::new`].
    pub fn from_bytes(bytes: Vec<u8>) -> Result<TableReader, ReadError> {
        TableReader::new(bytes::Bytes::from(bytes))
    }

    /// Its shape.
    pub fn shape(&self) -> TableShape {
        self.shape
    }

    /// The rows of the file, as its footer says.
    pub fn rows(&self) -> u64 {
        self.rows
    }

    /// The next record batch, `None` at the end of the file.
    ///
    /// # Errors
    /// [`ReadError::Arrow`] when a page is damaged.
    pub fn next_batch(&mut self) -> Option<Result<GameBatch<'_>, ReadError>> {
        let batch = match self.batches.next()? {
            Ok(batch) => batch,
            Err(e) => return Some(Err(e.into())),
        };
        Some(Ok(GameBatch {
            reader: self,
            batch,
        }))
    }
}

/// Whether a column is `notate parquet`'s `tags`: a list of `{name, value}` strings.
fn is_tag_list(data_type: &DataType) -> bool {
    let DataType::List(item) = data_type else {
        return false;
    };
    let DataType::Struct(fields) = item.data_type() else {
        return false;
    };
    fields.len() == 2
        && fields[0].name() == "name"
        && fields[1].name() == "value"
        && fields
            .iter()
            .all(|f| matches!(f.data_type(), DataType::Utf8))
}

/// A record batch of games.
pub struct GameBatch<'r> {
    reader: &'r TableReader,
    batch: RecordBatch,
}

impl GameBatch<'_> {
    /// Its rows.
    pub fn len(&self) -> usize {
        self.batch.num_rows()
    }

    /// Whether it has no rows.
    pub fn is_empty(&self) -> bool {
        self.batch.num_rows() == 0
    }

    /// Calls `game` with each row's tag pairs (name, value) and movetext, in order.
    pub fn for_each(&self, mut game: impl FnMut(&[(&str, &str)], &str)) {
        let movetext = self.batch.column(self.reader.movetext);
        match self.reader.shape {
            TableShape::Notate => {
                let tags = self.batch.column(self.reader.tags).as_list::<i32>();
                let fields = tags.values().as_struct();
                let names = fields.column(0).as_string::<i32>();
                let values = fields.column(1).as_string::<i32>();
                let offsets = tags.value_offsets();
                let mut pairs = Vec::new();
                for row in 0..self.batch.num_rows() {
                    pairs.clear();
                    let start = usize::try_from(offsets[row]).unwrap_or(0);
                    let end = usize::try_from(offsets[row + 1]).unwrap_or(start);
                    for i in start..end {
                        pairs.push((names.value(i), values.value(i)));
                    }
                    game(&pairs, text_at(movetext, row).unwrap_or(""));
                }
            }
            TableShape::Lichess => {
                let mut texts: Vec<String> = vec![String::new(); self.reader.columns.len()];
                let mut present = vec![false; self.reader.columns.len()];
                let has_variant = self
                    .reader
                    .columns
                    .iter()
                    .any(|c| c.name == "Variant" && c.index.is_some());
                for row in 0..self.batch.num_rows() {
                    for (k, column) in self.reader.columns.iter().enumerate() {
                        texts[k].clear();
                        present[k] = match column.index {
                            Some(i) => {
                                write_value(self.batch.column(i), row, column.name, &mut texts[k])
                            }
                            None => false,
                        };
                    }
                    self.fill_derived(&mut texts, &mut present, has_variant);
                    let mut pairs: Vec<(&str, &str)> = Vec::with_capacity(texts.len());
                    for (k, column) in self.reader.columns.iter().enumerate() {
                        if present[k] {
                            pairs.push((column.name, &texts[k]));
                        } else if let Some(null) = column.null {
                            pairs.push((column.name, null));
                        }
                    }
                    game(&pairs, text_at(movetext, row).unwrap_or(""));
                }
            }
        }
    }

    /// The tags lichess's export derives from others: `Date` from `UTCDate`, and the
    /// `Variant` its `Event` names.
    fn fill_derived(&self, texts: &mut [String], present: &mut [bool], has_variant: bool) {
        let slot = |name: &str| LICHESS_ORDER.iter().position(|(n, _)| *n == name);
        let (Some(date), Some(utc_date), Some(event), Some(variant)) = (
            slot("Date"),
            slot("UTCDate"),
            slot("Event"),
            slot("Variant"),
        ) else {
            return;
        };
        if !present[date] && present[utc_date] {
            texts[date] = texts[utc_date].clone();
            present[date] = true;
        }
        if !has_variant
            && present[event]
            && let Some(name) = variant_in_event(&texts[event])
        {
            texts[variant] = name.to_owned();
            present[variant] = true;
        }
    }
}

/// The variant lichess's `Event` names (`Rated Atomic game`, `Casual Three-check
/// game`), as the `Variant` tag names it; `None` for standard chess.
///
/// ```
/// use columnar::variant_in_event;
/// assert_eq!(variant_in_event("Rated Atomic game"), Some("Atomic"));
/// assert_eq!(variant_in_event("Rated King of the Hill tournament https://lichess.org/tournament/x"), Some("King of the Hill"));
/// assert_eq!(variant_in_event("Rated Blitz game"), None);
/// ```
pub fn variant_in_event(event: &str) -> Option<&'static str> {
    EVENT_VARIANTS.into_iter().find(|name| {
        event.match_indices(name).any(|(at, _)| {
            let before = event[..at].chars().next_back();
            let after = event[at + name.len()..].chars().next();
            before.is_none_or(|c| c == ' ') && after.is_none_or(|c| c == ' ')
        })
    })
}

/// A string column's value at `row`, `None` when null.
fn text_at(column: &ArrayRef, row: usize) -> Option<&str> {
    if column.is_null(row) {
        return None;
    }
    match column.data_type() {
        DataType::Utf8 => Some(column.as_string::<i32>().value(row)),
        DataType::LargeUtf8 => Some(column.as_string::<i64>().value(row)),
        DataType::Utf8View => Some(column.as_string_view().value(row)),
        _ => None,
    }
}

/// Writes a tag column's value at `row` as lichess's PGN writes it; false when it is
/// null or of a type no tag is written from.
fn write_value(column: &ArrayRef, row: usize, name: &str, out: &mut String) -> bool {
    if column.is_null(row) {
        return false;
    }
    if let Some(text) = text_at(column, row) {
        out.push_str(text);
        return true;
    }
    let signed = name.ends_with("RatingDiff");
    let number = |n: i64, out: &mut String| {
        if signed && n > 0 {
            out.push('+');
        }
        let _ = write!(out, "{n}");
        true
    };
    match column.data_type() {
        DataType::Int8 => number(column.as_primitive::<Int8Type>().value(row).into(), out),
        DataType::Int16 => number(column.as_primitive::<Int16Type>().value(row).into(), out),
        DataType::Int32 => number(column.as_primitive::<Int32Type>().value(row).into(), out),
        DataType::Int64 => number(column.as_primitive::<Int64Type>().value(row), out),
        DataType::UInt8 => number(column.as_primitive::<UInt8Type>().value(row).into(), out),
        DataType::UInt16 => number(column.as_primitive::<UInt16Type>().value(row).into(), out),
        DataType::UInt32 => number(column.as_primitive::<UInt32Type>().value(row).into(), out),
        DataType::UInt64 => match i64::try_from(column.as_primitive::<UInt64Type>().value(row)) {
            Ok(n) => number(n, out),
            Err(_) => false,
        },
        DataType::Date32 => {
            let days = column.as_primitive::<Date32Type>().value(row);
            let (y, m, d) = civil_from_days(i64::from(days));
            let _ = write!(out, "{y:04}.{m:02}.{d:02}");
            true
        }
        DataType::Time32(TimeUnit::Second) => {
            let s = column.as_primitive::<Time32SecondType>().value(row);
            write_time(i64::from(s), out)
        }
        DataType::Time32(TimeUnit::Millisecond) => {
            let ms = column.as_primitive::<Time32MillisecondType>().value(row);
            write_time(i64::from(ms) / 1000, out)
        }
        DataType::Time64(TimeUnit::Microsecond) => {
            let us = column.as_primitive::<Time64MicrosecondType>().value(row);
            write_time(us / 1_000_000, out)
        }
        DataType::Time64(TimeUnit::Nanosecond) => {
            let ns = column.as_primitive::<Time64NanosecondType>().value(row);
            write_time(ns / 1_000_000_000, out)
        }
        _ => false,
    }
}

/// `HH:MM:SS` of the seconds since midnight; false when they are not a time of day.
fn write_time(seconds: i64, out: &mut String) -> bool {
    if !(0..86_400).contains(&seconds) {
        return false;
    }
    let _ = write!(
        out,
        "{:02}:{:02}:{:02}",
        seconds / 3600,
        seconds / 60 % 60,
        seconds % 60
    );
    true
}

/// The proleptic Gregorian date (year, month, day) of the days since 1970-01-01
/// (Howard Hinnant's `civil_from_days`).
fn civil_from_days(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::values::date32;

    #[test]
    fn days_give_back_the_dates_they_came_from() {
        for date in [
            "1970.01.01",
            "2024.02.29",
            "1999.12.31",
            "1851.06.21",
            "2100.03.01",
        ] {
            let days = date32(date).expect("a date");
            let (y, m, d) = civil_from_days(i64::from(days));
            assert_eq!(format!("{y:04}.{m:02}.{d:02}"), date);
        }
    }

    #[test]
    fn times_of_day_only() {
        let mut out = String::new();
        assert!(write_time(41_521, &mut out));
        assert_eq!(out, "11:32:01");
        assert!(!write_time(86_400, &mut out));
        assert!(!write_time(-1, &mut out));
    }

    #[test]
    fn variants_named_as_words_of_the_event() {
        assert_eq!(
            variant_in_event("Casual Three-check game"),
            Some("Three-check")
        );
        assert_eq!(variant_in_event("Rated Horde game"), Some("Horde"));
        assert_eq!(variant_in_event("Rated Hordes game"), None);
        assert_eq!(variant_in_event(""), None);
    }
}
