//! What `source` arguments name: a path, bytes, or a binary file object; and the rules a
//! format is read with.

use std::collections::HashMap;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};

use collection::input::{self, Format, Opened};
use collection::rules;
use pdn::DraughtsRules;
use pgn::ChessRules;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes};

use crate::errors::NotationError;

/// A source of games as Python gave it.
pub enum Given {
    /// A file (compressed or not), by its path.
    Path(PathBuf),
    /// The bytes of a file.
    Bytes(Vec<u8>),
    /// A binary file object: anything with a `read(n)` method that returns bytes.
    File(Py<PyAny>),
}

impl Given {
    /// Reads a `source` argument: `bytes` or `bytearray`, a binary file object, or a
    /// path (`str` or `os.PathLike`).
    pub fn extract(source: &Bound<'_, PyAny>) -> PyResult<Given> {
        if let Ok(bytes) = source.cast::<PyBytes>() {
            return Ok(Given::Bytes(bytes.as_bytes().to_vec()));
        }
        if let Ok(bytes) = source.cast::<PyByteArray>() {
            return Ok(Given::Bytes(bytes.to_vec()));
        }
        if source.hasattr("read")? {
            return Ok(Given::File(source.clone().unbind()));
        }
        source.extract::<PathBuf>().map(Given::Path).map_err(|_| {
            PyTypeError::new_err(format!(
                "a source is a path, bytes or a binary file object, not {}",
                source
                    .get_type()
                    .name()
                    .map_or_else(|_| "this".into(), |n| n.to_string())
            ))
        })
    }

    /// The name diagnostics give: the path, the file object's `name`, or `<bytes>`.
    pub fn name(&self, py: Python<'_>) -> String {
        match self {
            Given::Path(path) => path.display().to_string(),
            Given::Bytes(_) => "<bytes>".to_owned(),
            Given::File(file) => file
                .bind(py)
                .getattr("name")
                .and_then(|name| name.str().map(|s| s.to_string()))
                .unwrap_or_else(|_| "<file>".to_owned()),
        }
    }

    /// Whether the source is an uncompressed file on disk that can be read from any
    /// byte (for ranges).
    pub fn path(&self) -> Option<&PathBuf> {
        match self {
            Given::Path(path) => Some(path),
            _ => None,
        }
    }

    /// Opens the source: decompressed, its format forced or found as `notate` finds it.
    pub fn open(self, forced: Option<Format>) -> io::Result<Opened> {
        match self {
            // As `notate` opens a file: a Parquet table is read a row group at a time.
            Given::Path(path) => input::open(
                &input::Source {
                    name: path.display().to_string(),
                    path: Some(path),
                },
                forced,
                |_| {},
            ),
            Given::Bytes(bytes) => {
                input::open_stream(Box::new(io::Cursor::new(bytes)), None, forced)
            }
            Given::File(file) => input::open_stream(Box::new(PyReader(file)), None, forced),
        }
    }

    /// The source as a file on disk, for a job that opens its inputs by path
    /// ([`collection::job::Job`]): a path as it is; bytes and a file object's content
    /// written to a temporary file, removed when the [`OnDisk`] is dropped.
    pub fn on_disk(self) -> io::Result<OnDisk> {
        let mut spooled = match self {
            Given::Path(path) => return Ok(OnDisk::Path(path)),
            Given::Bytes(bytes) => {
                let mut file = tempfile::NamedTempFile::new()?;
                file.write_all(&bytes)?;
                file
            }
            Given::File(file) => {
                let mut spooled = tempfile::NamedTempFile::new()?;
                io::copy(&mut PyReader(file), &mut spooled)?;
                spooled
            }
        };
        spooled.flush()?;
        Ok(OnDisk::Temporary(spooled.into_temp_path()))
    }
}

/// A source on disk: the path given, or a temporary file holding what was given.
pub enum OnDisk {
    /// The path given.
    Path(PathBuf),
    /// A temporary file, removed when dropped.
    Temporary(tempfile::TempPath),
}

impl OnDisk {
    /// Where the source is.
    pub fn path(&self) -> &Path {
        match self {
            OnDisk::Path(path) => path,
            OnDisk::Temporary(path) => path,
        }
    }
}

/// A Python binary file object read from Rust: each read takes the interpreter for the
/// call to its `read` method.
struct PyReader(Py<PyAny>);

impl Read for PyReader {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        Python::attach(|py| {
            let chunk = self
                .0
                .bind(py)
                .call_method1("read", (buf.len(),))
                .map_err(io::Error::other)?;
            if chunk.is_none() {
                return Ok(0);
            }
            let bytes = chunk.cast::<PyBytes>().map_err(|_| {
                io::Error::new(
                    io::ErrorKind::InvalidData,
                    "the file object's read() gave text, not bytes: open the file in binary mode",
                )
            })?;
            let bytes = bytes.as_bytes();
            let n = bytes.len().min(buf.len());
            buf[..n].copy_from_slice(&bytes[..n]);
            Ok(n)
        })
    }
}

/// Reads a `format` argument: `"pgn"`, `"pdn"` (any case), or `None` to find it.
pub fn format(format: Option<&str>) -> PyResult<Option<Format>> {
    match format.map(str::to_ascii_lowercase).as_deref() {
        None => Ok(None),
        Some("pgn") => Ok(Some(Format::Pgn)),
        Some("pdn") => Ok(Some(Format::Pdn)),
        Some(_) => Err(PyValueError::new_err(format!(
            "unknown format {:?}: \"pgn\" (chess) or \"pdn\" (draughts)",
            format.unwrap_or_default()
        ))),
    }
}

/// Reads a `variant` argument for reading draughts: a variant's name or a `GameType`,
/// for games that declare none (as `notate --variant`).
pub fn game_type(variant: Option<&str>) -> PyResult<Option<pdn::GameType>> {
    variant
        .map(|v| rules::parse_game_type(v).map_err(NotationError::new_err))
        .transpose()
}

/// The chess rules, for the life of the program.
pub fn chess_rules() -> &'static ChessRules {
    static CHESS: ChessRules = pgn::ChessRules;
    &CHESS
}

/// The draughts rules reading games that declare no type as `game_type` (or inferring
/// it): made once per game type and kept, so that iterators of games may hold them.
pub fn draughts_rules(game_type: Option<pdn::GameType>) -> &'static DraughtsRules {
    static MADE: OnceLock<Mutex<HashMap<String, &'static DraughtsRules>>> = OnceLock::new();
    let key = game_type.map(|t| t.to_string()).unwrap_or_default();
    let mut made = MADE
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    // A handful of game types at most: each is leaked once, on purpose.
    made.entry(key)
        .or_insert_with(|| Box::leak(Box::new(rules::draughts(game_type))))
}
