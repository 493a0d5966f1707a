//! `notate.index` and `notate.Index`: the position index ([`mod@index`]) from Python, answering
//! as `notate explore --json` and `notate find` do.

use std::path::PathBuf;

use ::index::{Filter, GameId, Index, Limits, Question};
use collection::job::{Job, Silent};
use collection::range::ByteRange;
use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::errors::{FenError, NotationError};

/// Builds an index of `paths` (files or folders, as `notate index` reads them) in the
/// folder `out`, or with `append` adds them to the index there; `variations` indexes the
/// positions of variations too. `range=(start, end)` indexes only the games that begin in
/// those bytes of the one uncompressed file `paths` names (`end` `None` for its end), as
/// `notate index --range` does: a shard. With `merge`, `paths` are indexes (shards) to
/// merge into `out`, as `notate index --merge` does. Returns the number of games indexed
/// by this call (merged: the games of `out`).
#[pyfunction]
#[pyo3(name = "index", signature = (
    paths, out, append=false, variant=None, range=None, merge=false, variations=false
))]
#[allow(clippy::too_many_arguments)]
pub fn build_index(
    py: Python<'_>,
    paths: Vec<PathBuf>,
    out: PathBuf,
    append: bool,
    variant: Option<&str>,
    range: Option<(u64, Option<u64>)>,
    merge: bool,
    variations: bool,
) -> PyResult<u64> {
    if merge {
        if append || range.is_some() || variations || variant.is_some() {
            return Err(PyValueError::new_err(
                "merge joins indexes as they are: append, range, variations and variant are \
                 for building one",
            ));
        }
        return py.detach(|| {
            ::index::merge(&paths, &out)
                .map(|built| built.total_games)
                .map_err(to_py)
        });
    }
    if let Some((start, Some(end))) = range
        && start > end
    {
        return Err(PyValueError::new_err(format!(
            "the range {start}..{end} starts after it ends"
        )));
    }
    let game_type = crate::source::game_type(variant)?;
    py.detach(|| {
        let sources = collection::input::collect(&paths).map_err(PyOSError::new_err)?;
        let jobs = std::thread::available_parallelism().map_or(1, |n| n.get());
        let mut job = Job::new(sources, jobs, &Silent);
        job.variant = game_type;
        let options = ::index::BuildOptions {
            append,
            variations,
            range: range.map(|(start, end)| ByteRange { start, end }),
            ..::index::BuildOptions::default()
        };
        let built = ::index::build(&mut job, &out, &options).map_err(to_py)?;
        if job.failed {
            return Err(PyOSError::new_err(format!(
                "some inputs could not be indexed ({} games were); `notate index` says which",
                built.games
            )));
        }
        Ok(built.games)
    })
}

fn to_py(e: ::index::IndexError) -> PyErr {
    match e {
        ::index::IndexError::Query(m) => FenError::new_err(m),
        ::index::IndexError::Io { .. } => PyOSError::new_err(e.to_string()),
        e => NotationError::new_err(e.to_string()),
    }
}

/// A position index, open for questions: `Index(path)`.
#[pyclass(frozen, module = "notate", name = "Index", unsendable)]
pub struct PyIndex {
    index: Index,
}

fn parse_all<T: std::str::FromStr<Err = String>>(values: Option<Vec<String>>) -> PyResult<Vec<T>> {
    values
        .unwrap_or_default()
        .iter()
        .map(|v| v.parse().map_err(PyValueError::new_err))
        .collect()
}

#[pymethods]
impl PyIndex {
    /// Opens the index in the folder `path`.
    #[new]
    fn new(path: PathBuf) -> PyResult<PyIndex> {
        Ok(PyIndex {
            index: Index::open(&path).map_err(to_py)?,
        })
    }

    /// The number of games in the index.
    #[getter]
    fn games(&self) -> u64 {
        self.index.games()
    }

    /// `"chess"` or `"draughts"`.
    #[getter]
    fn game(&self) -> &'static str {
        self.index.game().name()
    }

    /// What was played from a position and how it scored: the same dict as
    /// `notate explore --json` (lichess's explorer shape). The position is `fen` (default
    /// the start) and `moves` played from it (SAN, draughts moves or UCI, separated by
    /// spaces or commas); filters as lichess names them.
    #[pyo3(signature = (
        fen=None, moves=None, variant=None, since=None, until=None, ratings=None,
        speeds=None, player=None, color=None, max_moves=12, top_games=4, recent_games=4
    ))]
    #[allow(clippy::too_many_arguments)]
    fn explore(
        &self,
        py: Python<'_>,
        fen: Option<&str>,
        moves: Option<&str>,
        variant: Option<&str>,
        since: Option<&str>,
        until: Option<&str>,
        ratings: Option<Vec<String>>,
        speeds: Option<Vec<String>>,
        player: Option<String>,
        color: Option<&str>,
        max_moves: usize,
        top_games: usize,
        recent_games: usize,
    ) -> PyResult<Py<PyAny>> {
        let month = |m: Option<&str>| {
            m.map(|m| m.parse().map_err(PyValueError::new_err))
                .transpose()
        };
        let filter = Filter {
            since: month(since)?,
            until: month(until)?,
            ratings: parse_all(ratings)?,
            speeds: parse_all(speeds)?,
            color: color
                .map(|c| c.parse().map_err(PyValueError::new_err))
                .transpose()?,
            player,
        };
        let question = Question {
            fen,
            moves: moves.unwrap_or(""),
            variant,
        };
        let limits = Limits {
            moves: max_moves,
            top_games,
            recent_games,
        };
        let answer = self
            .index
            .explore_question(&question, &filter, limits)
            .map_err(to_py)?;
        let text = ::index::json::explored(&answer.explored).to_string();
        let json = py.import("json")?;
        Ok(json.call_method1("loads", (text,))?.unbind())
    }

    /// The games that reached a position, lazily, in the order they were indexed: dicts
    /// with `file`, `number` (from 1, as `notate show --game` counts) and `offset`.
    #[pyo3(signature = (fen=None, moves=None, variant=None, limit=None))]
    fn find(
        slf: Bound<'_, Self>,
        fen: Option<&str>,
        moves: Option<&str>,
        variant: Option<&str>,
        limit: Option<usize>,
    ) -> PyResult<Found> {
        let question = Question {
            fen,
            moves: moves.unwrap_or(""),
            variant,
        };
        let mut games = slf.get().index.find_question(&question).map_err(to_py)?;
        if let Some(limit) = limit {
            games.truncate(limit);
        }
        Ok(Found {
            index: slf.unbind(),
            games: games.into_iter(),
        })
    }

    fn __repr__(&self) -> String {
        format!(
            "<Index {} games of {} in {}>",
            self.index.games(),
            self.index.game().name(),
            self.index.dir().display()
        )
    }
}

/// The games `Index.find` found, as references read one at a time.
#[pyclass(module = "notate", unsendable)]
pub struct Found {
    index: Py<PyIndex>,
    games: std::vec::IntoIter<GameId>,
}

#[pymethods]
impl Found {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&mut self, py: Python<'_>) -> PyResult<Option<Py<PyDict>>> {
        let Some(id) = self.games.next() else {
            return Ok(None);
        };
        let index = &self.index.get().index;
        let record = index.record(id).map_err(to_py)?;
        let at = index.reference(&record);
        let dict = PyDict::new(py);
        dict.set_item("file", at.path)?;
        dict.set_item("number", at.number)?;
        dict.set_item("offset", at.offset)?;
        Ok(Some(dict.unbind()))
    }

    fn __len__(&self) -> usize {
        self.games.len()
    }
}

/// Adds the index's classes and function to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyIndex>()?;
    m.add_class::<Found>()?;
    m.add_function(wrap_pyfunction!(build_index, m)?)?;
    Ok(())
}
