//! `notate.annotate`: chess games analysed by UCI engines, as `notate annotate` analyses
//! them (`collection::annotate::run`, the same evaluations, glyphs, better lines and cache
//! file), handed back as `Game`s.
//!
//! The run writes the annotated games into memory; they are then read back as `read` reads
//! a source. The engines run with the interpreter let go. What the run warns of (a game
//! passed through unchanged, text outside any game) becomes a Python warning; nothing is
//! printed.

use std::cell::RefCell;
use std::ffi::CString;
use std::io::{self, Write};
use std::path::PathBuf;
use std::time::Duration;

use collection::annotate::{GameOutput, Settings};
use collection::input::{self, Format, Source};
use collection::job::{Job, Report, Stopped};
use engine::{EngineConfig, EngineError, Limit, Uci};
use notation::{ReadOptions, WriteOptions};
use pyo3::exceptions::{PyOSError, PyUserWarning, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict};

use crate::errors;
use crate::game::PyGame;
use crate::reading::Games;
use crate::source::Given;

/// Analyses every chess game of `source` (a path, `bytes` or a binary file object, as
/// `read` takes it) with the UCI engine at `engine`, as `notate annotate` does, and returns
/// the games annotated, in input order: an evaluation after every main-line move
/// (`[%eval]`, from White's side), the glyphs of inaccuracies, mistakes and blunders by
/// lichess's rule, and the engine's better line beside each mistake and blunder.
///
/// One limit per position: `nodes`, `depth` or `movetime` (milliseconds); 100,000 nodes
/// when none is given. `engines` processes run at once (all cores by default), each with
/// `threads` threads (1 keeps a node limit's results the same from run to run), `hash` MB
/// of hash table, and `options` (a `dict` of UCI option names to values) set as given.
/// `timeout` is how many seconds an engine may take over one position before it is taken
/// for dead (ten times what the limit should take, at least 5, by default). `overwrite`
/// replaces the evaluations already written; `accuracy_tags` writes each player's accuracy
/// as `WhiteAccuracy` and `BlackAccuracy` tags; `cache` names a file that keeps the
/// analyses from run to run.
///
/// A game with an error, or whose analysis failed twice, is returned unchanged, with a
/// `UserWarning`. The games are read back from the annotated text: their `offset` is in
/// it. Raises `EngineError` when the engine cannot be started or does not speak UCI,
/// `ValueError` for a draughts source (no draughts engine protocol is spoken yet), and
/// `OSError` when the source or the cache cannot be read or written.
#[pyfunction]
#[pyo3(signature = (
    source,
    engine,
    *,
    nodes=None,
    depth=None,
    movetime=None,
    engines=None,
    threads=1,
    hash=None,
    options=None,
    timeout=None,
    overwrite=false,
    accuracy_tags=false,
    cache=None,
))]
#[allow(clippy::too_many_arguments)] // Python's keyword arguments, as the command's options.
pub fn annotate(
    py: Python<'_>,
    source: &Bound<'_, PyAny>,
    engine: PathBuf,
    nodes: Option<u64>,
    depth: Option<u32>,
    movetime: Option<u64>,
    engines: Option<usize>,
    threads: u32,
    hash: Option<u32>,
    options: Option<&Bound<'_, PyDict>>,
    timeout: Option<f64>,
    overwrite: bool,
    accuracy_tags: bool,
    cache: Option<PathBuf>,
) -> PyResult<Vec<PyGame>> {
    if engines == Some(0) || threads == 0 {
        return Err(PyValueError::new_err("engines and threads are at least 1"));
    }
    let settings = Settings {
        engine: EngineConfig {
            path: engine,
            threads: Some(threads),
            hash_mb: hash,
            options: options.map(engine_options).transpose()?.unwrap_or_default(),
            ..EngineConfig::default()
        },
        limit: limit(nodes, depth, movetime)?,
        engines: engines
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())),
        timeout: timeout.map(seconds).transpose()?,
        overwrite,
        accuracy_tags,
        write: WriteOptions::default(),
        cache,
    };
    let given = Given::extract(source)?;
    let file = given.name(py);
    let (text, warnings) = py
        .detach(|| run(given, &file, &settings))
        .map_err(|failure| failure.into_err(&file))?;
    for warning in warnings {
        // A game's text quoted in a message may hold a NUL byte, which a C string cannot.
        let warning = CString::new(warning.replace('\0', "\u{FFFD}")).unwrap_or_default();
        PyErr::warn(py, &py.get_type::<PyUserWarning>(), &warning, 1)?;
    }
    let opened = Given::Bytes(text).open(Some(Format::Pgn))?;
    Games::new(opened, file, None, ReadOptions::default()).all(py)
}

/// The limit of `nodes`, `depth` and `movetime`, of which one at most is given: 100,000
/// nodes when none is.
fn limit(nodes: Option<u64>, depth: Option<u32>, movetime: Option<u64>) -> PyResult<Limit> {
    match (nodes, depth, movetime) {
        (nodes, None, None) => Ok(Limit::Nodes(nodes.unwrap_or(100_000))),
        (None, Some(depth), None) => Ok(Limit::Depth(depth)),
        (None, None, Some(ms)) => Ok(Limit::MoveTime(Duration::from_millis(ms))),
        _ => Err(PyValueError::new_err(
            "one limit at most: nodes, depth or movetime",
        )),
    }
}

/// A timeout in seconds, which must be a positive number.
fn seconds(timeout: f64) -> PyResult<Duration> {
    if timeout.is_finite() && timeout > 0.0 {
        Ok(Duration::from_secs_f64(timeout))
    } else {
        Err(PyValueError::new_err(format!(
            "timeout is a number of seconds above 0, not {timeout}"
        )))
    }
}

/// UCI options from a `dict`, in its order: a `bool` as UCI's `true` or `false`, any other
/// value as `str` gives it.
fn engine_options(options: &Bound<'_, PyDict>) -> PyResult<Vec<(String, String)>> {
    options
        .iter()
        .map(|(name, value)| {
            let value = match value.cast::<PyBool>() {
                Ok(flag) => flag.is_true().to_string(),
                Err(_) => value.str()?.to_string(),
            };
            Ok((name.str()?.to_string(), value))
        })
        .collect()
}

/// Why a run gave no games.
enum Failure {
    /// The source could not be read.
    Io(io::Error),
    /// The source holds draughts games.
    Draughts,
    /// The engine could not be started.
    Engine(EngineError),
    /// The run failed, for the reasons it reported.
    Run(Vec<String>),
}

impl Failure {
    /// The Python exception of a run over the source named `file`.
    fn into_err(self, file: &str) -> PyErr {
        match self {
            Failure::Io(e) => e.into(),
            Failure::Draughts => PyValueError::new_err(format!(
                "{file}: draughts analysis is not offered: no draughts engine protocol is \
                 spoken yet (annotate analyses chess games)"
            )),
            Failure::Engine(e) => errors::EngineError::new_err(e.to_string()),
            Failure::Run(said) => PyOSError::new_err(said.join("; ")),
        }
    }
}

/// Annotates the source given, named `file`, into memory: the annotated text and the run's
/// warnings.
fn run(given: Given, file: &str, settings: &Settings) -> Result<(Vec<u8>, Vec<String>), Failure> {
    // annotate's job opens its inputs by path, as the command's do: bytes and file objects
    // are written to a temporary file first, a copy that is nothing beside the engines'
    // search.
    let on_disk = given.on_disk().map_err(Failure::Io)?;
    let source = Source {
        path: Some(on_disk.path().to_owned()),
        name: file.to_owned(),
    };
    let format = input::open(&source, None, |_| {})
        .map_err(Failure::Io)?
        .format;
    if format == Format::Pdn {
        return Err(Failure::Draughts);
    }
    // An engine that cannot be started is said as itself, not as a failed run.
    Uci::start(&settings.engine).map_err(Failure::Engine)?;
    let said = Said::default();
    let mut job = Job::new(vec![source], 1, &said);
    let mut out = InMemory::default();
    let ran = collection::annotate::run(&mut job, settings, ReadOptions::default(), &mut out, 0);
    let Said { warnings, errors } = said;
    match ran {
        Ok((ended, _)) if !ended.failed => Ok((out.0, warnings.into_inner())),
        Ok(_) | Err(Stopped::Failed | Stopped::Closed) => {
            let mut errors = errors.into_inner();
            if errors.is_empty() {
                errors.push(format!("{file}: the analysis stopped"));
            }
            Err(Failure::Run(errors))
        }
    }
}

/// What a run reported, kept for Python.
#[derive(Default)]
struct Said {
    warnings: RefCell<Vec<String>>,
    errors: RefCell<Vec<String>>,
}

impl Report for Said {
    fn warning(&self, message: &str) {
        self.warnings.borrow_mut().push(message.to_owned());
    }

    fn error(&self, message: &str) {
        self.errors.borrow_mut().push(message.to_owned());
    }
}

/// The annotated games, in memory.
#[derive(Default)]
struct InMemory(Vec<u8>);

impl Write for InMemory {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.write(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

impl GameOutput for InMemory {}
