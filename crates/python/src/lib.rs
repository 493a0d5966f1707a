//! `notate._notate`: the Rust half of the Python package `notate` (the Python half,
//! `python/notate/`, re-exports it and adds what is plain Python: Spark, python-chess).
//!
//! Games are read by the workspace's crates as the `notate` command reads them; the
//! interpreter is let go while a game is read, so other Python threads run meanwhile.
//! Every function takes a `source`: a path (compressed or not), `bytes`, or a binary
//! file object. `annotate` runs UCI engines over a source's chess games.

mod annotating;
mod errors;
mod game;
mod indexing;
mod reading;
mod source;
mod tables;

use collection::input::Format;
use notation::ReadOptions;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use errors::{FenError, NotationError};
use game::{Diagnostic, Eval, Move, PyGame};
use reading::Games;
use source::Given;

/// The readers' workers allocate and free many small things (tags, trees, each move's
/// text): with mimalloc rather than the C library's allocator, `to_arrow` on the lichess
/// bench file ×10 took 0.069 s instead of 0.087 s (warm, median of 8).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Options of a reading: strict or lenient.
fn read_options(strict: bool) -> ReadOptions {
    if strict {
        ReadOptions::strict()
    } else {
        ReadOptions::default()
    }
}

/// Reads the games of `source` lazily (a few dozen ahead, on every core): a path (`.gz`, `.bz2` and `.zst` are
/// decompressed), `bytes`, or a binary file object. `format` is `"pgn"` or `"pdn"`
/// (else found from the name or the content); `variant` reads draughts games that
/// declare no game type as that one (`"russian"`, `"20"`, …). A game that cannot be read
/// is yielded all the same, with its moves up to the error and its diagnostics.
#[pyfunction]
#[pyo3(signature = (source, format=None, variant=None, strict=false))]
fn read(
    py: Python<'_>,
    source: &Bound<'_, PyAny>,
    format: Option<&str>,
    variant: Option<&str>,
    strict: bool,
) -> PyResult<Games> {
    let given = Given::extract(source)?;
    let file = given.name(py);
    let forced = source::format(format)?;
    let game_type = source::game_type(variant)?;
    let opened = py.detach(|| given.open(forced))?;
    if opened.format == Format::Pgn && variant.is_some() {
        return Err(PyValueError::new_err(
            "variant is for draughts games; chess games name theirs in a Variant tag",
        ));
    }
    Ok(Games::new(opened, file, game_type, read_options(strict)))
}

/// What `check` found: counts, and every diagnostic.
#[pyclass(frozen, module = "notate", get_all)]
struct Summary {
    /// Games read.
    games: u64,
    /// Moves played, variations included.
    moves: u64,
    /// Errors found.
    errors: u64,
    /// Warnings found.
    warnings: u64,
    /// Every diagnostic, in input order.
    diagnostics: Vec<Py<Diagnostic>>,
}

#[pymethods]
impl Summary {
    fn __repr__(&self) -> String {
        format!(
            "<Summary games={} moves={} errors={} warnings={}>",
            self.games, self.moves, self.errors, self.warnings
        )
    }
}

/// Reads every game of `source` and plays every move, as `notate check` does, on every
/// core; returns the counts and the diagnostics.
#[pyfunction]
#[pyo3(signature = (source, format=None, variant=None, strict=false))]
fn check(
    py: Python<'_>,
    source: &Bound<'_, PyAny>,
    format: Option<&str>,
    variant: Option<&str>,
    strict: bool,
) -> PyResult<Summary> {
    let given = Given::extract(source)?;
    let file = given.name(py);
    let forced = source::format(format)?;
    let game_type = source::game_type(variant)?;
    let options = read_options(strict);
    let jobs = std::thread::available_parallelism().map_or(1, |n| n.get());
    let ((games, moves), found) = py.detach(|| -> std::io::Result<_> {
        let opened = given.open(forced)?;
        let (mut games, mut moves) = (0, 0);
        let mut found = Vec::new();
        let mut once = collection::pipeline::OncePerInput::default();
        let mut emit = |item: collection::check::Item, offset: u64| {
            games += item.games;
            moves += item.moves;
            for mut d in item.diagnostics {
                if once.keep(&d) {
                    d.game += offset;
                    found.push(d);
                }
            }
            Ok(())
        };
        match opened.format {
            Format::Pgn => {
                let task = collection::check::CheckTask {
                    rules: source::chess_rules(),
                    options,
                };
                collection::pipeline::drive(&task, opened, jobs, &mut emit)?;
            }
            Format::Pdn => {
                let task = collection::check::CheckTask {
                    rules: source::draughts_rules(game_type),
                    options,
                };
                collection::pipeline::drive(&task, opened, jobs, &mut emit)?;
            }
        }
        Ok(((games, moves), found))
    })?;
    let diagnostics = found
        .iter()
        .map(|d| Py::new(py, Diagnostic::new(d, &file, Some(d.game + 1))))
        .collect::<PyResult<_>>()?;
    Ok(Summary {
        games,
        moves,
        errors: found
            .iter()
            .filter(|d| d.severity == notation::Severity::Error)
            .count() as u64,
        warnings: found
            .iter()
            .filter(|d| d.severity == notation::Severity::Warning)
            .count() as u64,
        diagnostics,
    })
}

/// The number of leaf positions `depth` plies below `fen` (the start position when
/// `None`): chess, `"chess960"`, a chess variant (`"crazyhouse"`, `"atomic"`,
/// `"antichess"`, `"kingofthehill"`, `"threecheck"`, `"horde"`, `"racingkings"`), or a
/// draughts variant by name or `GameType` number.
#[pyfunction]
#[pyo3(signature = (fen, depth, variant=None))]
fn perft(py: Python<'_>, fen: Option<&str>, depth: u32, variant: Option<&str>) -> PyResult<u64> {
    let game = match variant {
        Some(name) => collection::perft::BoardGame::parse(name).map_err(NotationError::new_err)?,
        None if fen.is_some_and(looks_like_draughts_fen) => {
            collection::perft::BoardGame::Draughts(pdn::Variant::International)
        }
        None => collection::perft::BoardGame::Chess,
    };
    let (start, _) = collection::perft::Start::new(game, fen).map_err(FenError::new_err)?;
    let jobs = std::thread::available_parallelism().map_or(1, |n| n.get());
    Ok(py.detach(|| collection::perft::count(&start, depth, jobs)))
}

/// Whether a FEN is a draughts FEN (`W:W31,32:B1,2`) rather than a chess one.
fn looks_like_draughts_fen(fen: &str) -> bool {
    let fen = fen.trim_start_matches(|c: char| c == '"' || c.is_whitespace());
    matches!(fen.as_bytes().get(..2), Some([b'W' | b'B', b':']))
}

/// The Rust half of the Python package `notate`.
#[pymodule]
fn _notate(m: &Bound<'_, PyModule>) -> PyResult<()> {
    errors::register(m)?;
    m.add_class::<PyGame>()?;
    m.add_class::<Move>()?;
    m.add_class::<Eval>()?;
    m.add_class::<Diagnostic>()?;
    m.add_class::<Games>()?;
    m.add_class::<Summary>()?;
    m.add_function(wrap_pyfunction!(read, m)?)?;
    m.add_function(wrap_pyfunction!(check, m)?)?;
    m.add_function(wrap_pyfunction!(perft, m)?)?;
    m.add_function(wrap_pyfunction!(annotating::annotate, m)?)?;
    tables::register(m)?;
    indexing::register(m)?;
    Ok(())
}
