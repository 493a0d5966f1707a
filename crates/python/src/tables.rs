//! `to_arrow`, `to_arrow_reader` and `write_parquet`: the games and positions tables of
//! `notate parquet` (same schema, same rows), as Arrow data handed to pyarrow through the
//! Arrow C stream interface (no copy), or as Parquet files.

use std::io;
use std::sync::mpsc::{Receiver, sync_channel};

use arrow_array::{RecordBatch, RecordBatchIterator, RecordBatchReader};
use arrow_pyarrow::IntoPyArrow;
use arrow_schema::{ArrowError, SchemaRef};
use collection::input::Format;
use collection::parquet::{Emitter, ParquetTask, Placing, Tables};
use collection::pipeline::{OncePerInput, Stream};
use collection::range::ByteRange;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::errors::NotationError;
use crate::source::{self, Given};

/// What to read and how: the arguments the three functions share.
struct Request {
    given: Given,
    file: String,
    forced: Option<Format>,
    game_type: Option<pdn::GameType>,
    range: Option<ByteRange>,
    strict: bool,
}

impl Request {
    fn new(
        py: Python<'_>,
        source: &Bound<'_, PyAny>,
        format: Option<&str>,
        variant: Option<&str>,
        range: Option<(u64, Option<u64>)>,
        strict: bool,
    ) -> PyResult<Request> {
        let given = Given::extract(source)?;
        if range.is_some() && given.path().is_none() {
            return Err(PyValueError::new_err(
                "range reads a byte range of a file on disk: give its path",
            ));
        }
        Ok(Request {
            file: given.name(py),
            given,
            forced: source::format(format)?,
            game_type: source::game_type(variant)?,
            range: range.map(|(start, end)| ByteRange { start, end }),
            strict,
        })
    }

    /// Reads the games into `tables` on every core; returns the rows written and the
    /// games with an error.
    fn run(self, positions: bool, tables: &mut dyn Tables) -> io::Result<(u64, u64)> {
        let (format, placing, reader) = match (self.range, self.given.path()) {
            (Some(range), Some(path)) => {
                // A range's middle cannot be sniffed the way a start can.
                let format = self
                    .forced
                    .or_else(|| Format::from_path(path))
                    .ok_or_else(|| {
                        io::Error::new(
                            io::ErrorKind::InvalidInput,
                            format!(
                                "{}: a range cannot tell PGN from PDN by the name; give format",
                                path.display()
                            ),
                        )
                    })?;
                let (start, reader) =
                    collection::range::open_range(std::fs::File::open(path)?, range)?;
                (format, Placing::From(start), Stream::from(reader))
            }
            _ => {
                let opened = self.given.open(self.forced)?;
                (opened.format, Placing::Whole, Stream::from(opened))
            }
        };
        let options = if self.strict {
            notation::ReadOptions::strict()
        } else {
            notation::ReadOptions::default()
        };
        let jobs = std::thread::available_parallelism().map_or(1, |n| n.get());
        let mut emitter = Emitter {
            tables,
            name: self.file.clone(),
            by_row: reader.rows,
            placing,
            once: OncePerInput::default(),
            rows: 0,
            errors: 0,
        };
        // Text outside any game is in the games' diagnostics of the CLI's output only.
        let mut ignore = |_: String| {};
        match format {
            Format::Pgn => {
                let task = ParquetTask {
                    rules: source::chess_rules(),
                    options,
                    name: &self.file,
                    placing,
                    positions,
                };
                collection::pipeline::drive(&task, reader, jobs, &mut |item, before| {
                    emitter.emit(item, before, &mut ignore)
                })?;
            }
            Format::Pdn => {
                let task = ParquetTask {
                    rules: source::draughts_rules(self.game_type),
                    options,
                    name: &self.file,
                    placing,
                    positions,
                };
                collection::pipeline::drive(&task, reader, jobs, &mut |item, before| {
                    emitter.emit(item, before, &mut ignore)
                })?;
            }
        }
        Ok((emitter.rows, emitter.errors))
    }
}

/// The schema of the table asked for.
fn schema(positions: bool) -> SchemaRef {
    if positions {
        columnar::positions_schema()
    } else {
        columnar::games_schema()
    }
}

/// One of the two tables, its batches handed to `take` in order.
struct OneTable<F> {
    positions: bool,
    take: F,
}

impl<F: FnMut(&RecordBatch) -> io::Result<()>> Tables for OneTable<F> {
    fn games(&mut self, batch: &RecordBatch) -> io::Result<()> {
        if self.positions {
            return Ok(());
        }
        (self.take)(batch)
    }

    fn positions(&mut self, batch: &RecordBatch) -> io::Result<()> {
        if !self.positions {
            return Ok(());
        }
        (self.take)(batch)
    }
}

/// The games table of `source` (with `positions=True`, its positions table instead) as a
/// `pyarrow.Table`: one row per game, as `notate parquet` writes them. `range=(start,
/// end)` reads only the games that begin in those bytes of an uncompressed file (`end`
/// `None` for its end), as `notate parquet --range` does.
#[pyfunction]
#[pyo3(signature = (source, positions=false, range=None, format=None, variant=None, strict=false))]
fn to_arrow(
    py: Python<'_>,
    source: &Bound<'_, PyAny>,
    positions: bool,
    range: Option<(u64, Option<u64>)>,
    format: Option<&str>,
    variant: Option<&str>,
    strict: bool,
) -> PyResult<Py<PyAny>> {
    let request = Request::new(py, source, format, variant, range, strict)?;
    let mut batches = Vec::new();
    py.detach(|| {
        let mut kept = OneTable {
            positions,
            take: |batch: &RecordBatch| {
                batches.push(batch.clone());
                Ok(())
            },
        };
        request.run(positions, &mut kept)
    })?;
    // Handed over as one stream, read whole by pyarrow: the schema crosses once. (A
    // `Table` crosses a batch at a time, each batch with its own stream and schema: four
    // times as long for the lichess file ×10, and all of it after the reading.)
    let schema = schema(positions);
    if let Some(batch) = batches.iter().find(|b| b.schema() != schema) {
        let e = ArrowError::SchemaError(format!("a batch of another schema: {}", batch.schema()));
        return Err(NotationError::new_err(e.to_string()));
    }
    let stream: Box<dyn RecordBatchReader + Send> = Box::new(RecordBatchIterator::new(
        batches.into_iter().map(Ok),
        schema,
    ));
    let reader = stream.into_pyarrow(py)?;
    Ok(reader.call_method0("read_all")?.unbind())
}

/// The batches a reading thread sends, as an Arrow record batch reader.
struct Received {
    schema: SchemaRef,
    from: Receiver<Result<RecordBatch, ArrowError>>,
}

impl Iterator for Received {
    type Item = Result<RecordBatch, ArrowError>;

    fn next(&mut self) -> Option<Self::Item> {
        // Waiting lets the interpreter go: the reading thread may need it (a file object).
        let from = &mut self.from;
        Python::attach(|py| py.detach(move || from.recv().ok()))
    }
}

impl RecordBatchReader for Received {
    fn schema(&self) -> SchemaRef {
        self.schema.clone()
    }
}

/// As `to_arrow`, as a `pyarrow.RecordBatchReader` read as the games are: memory stays
/// bounded by a few batches whatever the size of the input.
#[pyfunction]
#[pyo3(signature = (source, positions=false, range=None, format=None, variant=None, strict=false))]
fn to_arrow_reader(
    py: Python<'_>,
    source: &Bound<'_, PyAny>,
    positions: bool,
    range: Option<(u64, Option<u64>)>,
    format: Option<&str>,
    variant: Option<&str>,
    strict: bool,
) -> PyResult<Py<PyAny>> {
    let request = Request::new(py, source, format, variant, range, strict)?;
    let (to, from) = sync_channel(4);
    let errors = to.clone();
    std::thread::spawn(move || {
        // A batch at a time, a few ahead; once the reader is dropped, the reading stops.
        let mut sent = OneTable {
            positions,
            take: |batch: &RecordBatch| {
                to.send(Ok(batch.clone()))
                    .map_err(|_| io::Error::from(io::ErrorKind::BrokenPipe))
            },
        };
        if let Err(e) = request.run(positions, &mut sent)
            && e.kind() != io::ErrorKind::BrokenPipe
        {
            let _ = errors.send(Err(ArrowError::IoError(e.to_string(), e)));
        }
    });
    let reader: Box<dyn RecordBatchReader + Send> = Box::new(Received {
        schema: schema(positions),
        from,
    });
    Ok(reader.into_pyarrow(py)?.unbind())
}

/// Writes the games table of `source` to the Parquet file `path` (zstd at level 3 unless
/// `compression` says `zstd`, `lz4`, `snappy` or `none`, and `level` zstd's level; row
/// groups of 100,000 games), and its positions table to `positions` when given, as `notate
/// parquet` does. Returns the number of games written.
#[pyfunction]
#[pyo3(signature = (source, path, positions=None, range=None, format=None, variant=None, strict=false, compression="zstd", level=None))]
#[allow(clippy::too_many_arguments)]
fn write_parquet(
    py: Python<'_>,
    source: &Bound<'_, PyAny>,
    path: std::path::PathBuf,
    positions: Option<std::path::PathBuf>,
    range: Option<(u64, Option<u64>)>,
    format: Option<&str>,
    variant: Option<&str>,
    strict: bool,
    compression: &str,
    level: Option<u8>,
) -> PyResult<u64> {
    let codec = collection::parquet::Codec::named(compression, level)
        .map_err(pyo3::exceptions::PyValueError::new_err)?;
    let request = Request::new(py, source, format, variant, range, strict)?;
    let rows = py.detach(|| -> io::Result<u64> {
        // Written beside their targets and put in place together when whole, as the
        // command writes them: an error leaves any earlier files as they were.
        let mut files = collection::parquet::create_files(&path, positions.as_deref(), codec)
            .map_err(io::Error::other)?;
        let wants_positions = files.positions.is_some();
        let (rows, _) = request.run(wants_positions, &mut files)?;
        collection::parquet::put_in_place(files).map_err(io::Error::other)?;
        Ok(rows)
    })?;
    Ok(rows)
}

/// Adds the functions to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(to_arrow, m)?)?;
    m.add_function(wrap_pyfunction!(to_arrow_reader, m)?)?;
    m.add_function(wrap_pyfunction!(write_parquet, m)?)?;
    Ok(())
}
