//! `Game`, `Move`, `Eval` and `Diagnostic`: a read game as Python objects, its moves built
//! from its tree when first asked for.

use std::collections::HashMap;
use std::sync::OnceLock;

use collection::mainline;
use collection::parquet::Columns;
use collection::rules::FormatRules;
use notation::{Diagnostic as Found, GameTree as Tree, LineId, ReadGame, Severity};
use pdn::DraughtsRules;
use pgn::ChessRules;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

/// A game read from a file, with its rules.
pub enum Read {
    /// A chess game (PGN).
    Chess(ReadGame<pgn::Move>),
    /// A draughts game (PDN), with the rules that read it.
    Draughts(&'static DraughtsRules, ReadGame<pdn::PdnMove>),
}

/// Calls `$body` with `$rules` and `$read` bound to the game's rules and reading.
macro_rules! with_read {
    ($read:expr, |$rules:ident, $game:ident| $body:expr) => {
        match $read {
            Read::Chess($game) => {
                let $rules: &ChessRules = crate::source::chess_rules();
                $body
            }
            Read::Draughts(rules, $game) => {
                let $rules: &DraughtsRules = rules;
                $body
            }
        }
    };
}

/// A game: its tags, moves (with comments, glyphs, clocks, evaluations and variations),
/// result, positions, opening and everything its reading forgave or refused.
#[pyclass(frozen, module = "notate", name = "Game")]
pub struct PyGame {
    read: Read,
    /// What each move of its tree is, worked out when it was read.
    nodes: Vec<Option<NodeInfo>>,
    /// The input's name, as diagnostics give it.
    file: String,
    /// The byte offset of its first byte in its input.
    offset: u64,
    moves: OnceLock<Py<PyList>>,
}

impl PyGame {
    /// A game read from `file` at byte `offset`, with its moves worked out ([`prepare`]).
    pub fn new(read: Read, nodes: Vec<Option<NodeInfo>>, file: String, offset: u64) -> PyGame {
        PyGame {
            read,
            nodes,
            file,
            offset,
            moves: OnceLock::new(),
        }
    }

    fn index(&self) -> u64 {
        with_read!(&self.read, |_rules, read| read.index)
    }
}

#[pymethods]
impl PyGame {
    /// The game's number in its input, from 1, as `notate check` counts.
    #[getter]
    fn number(&self) -> u64 {
        self.index() + 1
    }

    /// The byte offset of the game's first byte in its input (decompressed).
    #[getter]
    fn offset(&self) -> u64 {
        self.offset
    }

    /// The input the game was read from.
    #[getter]
    fn file(&self) -> &str {
        &self.file
    }

    /// `"pgn"` for a chess game, `"pdn"` for a draughts game.
    #[getter]
    fn format(&self) -> &'static str {
        match self.read {
            Read::Chess(_) => "pgn",
            Read::Draughts(..) => "pdn",
        }
    }

    /// The tag pairs, in the order written: a `dict` of names to values.
    #[getter]
    fn tags<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let tags = PyDict::new(py);
        with_read!(&self.read, |_rules, read| {
            for tag in read.game.tags.iter() {
                tags.set_item(&tag.name, &tag.value)?;
            }
        });
        Ok(tags)
    }

    /// The result: `1-0`, `0-1`, `1/2-1/2`, `*` (PDN: `2-0`, `1-1`, … as its game type
    /// scores).
    #[getter]
    fn result(&self) -> String {
        with_read!(&self.read, |_rules, read| read
            .game
            .result
            .as_str()
            .to_owned())
    }

    /// The variant (chess) or game type (draughts) the game was read in.
    #[getter]
    fn variant(&self) -> String {
        with_read!(&self.read, |rules, read| rules.variant(&read.game))
    }

    /// The comments before the first move.
    #[getter]
    fn comments(&self) -> Vec<String> {
        with_read!(&self.read, |_rules, read| read
            .game
            .line(LineId::MAIN)
            .comments
            .clone())
    }

    /// The main line's moves, each with its comments, glyphs, clock, evaluation and
    /// variations; up to the first error, if any.
    #[getter]
    fn moves(&self, py: Python<'_>) -> PyResult<Py<PyList>> {
        if let Some(moves) = self.moves.get() {
            return Ok(moves.clone_ref(py));
        }
        let chess = matches!(self.read, Read::Chess(_));
        let built = with_read!(&self.read, |_rules, read| {
            build_moves(py, &read.game, &self.nodes, chess)
        })?;
        Ok(self.moves.get_or_init(|| built).clone_ref(py))
    }

    /// The evaluation written after each move of the main line (`[%eval]`, as
    /// `Move.eval` gives it), `None` after a move that has none: an entry for each of
    /// `moves`, without making the moves.
    fn evals(&self, py: Python<'_>) -> PyResult<Vec<Option<Py<Eval>>>> {
        with_read!(&self.read, |_rules, read| {
            read.game
                .line(LineId::MAIN)
                .moves
                .iter()
                // As `moves`: a move played from no position ends the line.
                .map_while(|node| self.nodes.get(node.index()).and_then(Option::as_ref))
                .map(|info| Eval::object(py, info.eval))
                .collect()
        })
    }

    /// The movetext after an error, as written (`None` when every move was read).
    #[getter]
    fn unread(&self) -> Option<String> {
        with_read!(&self.read, |_rules, read| read
            .game
            .tail
            .as_ref()
            .map(|tail| tail.text.clone()))
    }

    /// The FEN of the start position (`None` when it cannot be set up).
    #[getter]
    fn start_fen(&self) -> Option<String> {
        with_read!(&self.read, |rules, read| rules
            .start(&read.game)
            .and_then(|p| rules.fen(&p)))
    }

    /// The FEN at the end of the main line (`None` when the start cannot be set up).
    #[getter]
    fn final_fen(&self) -> Option<String> {
        with_read!(&self.read, |rules, read| {
            mainline::end(rules, &read.game).and_then(|p| rules.fen(&p))
        })
    }

    /// The FEN after each ply of the main line (chess and draughts alike).
    fn fens(&self) -> Vec<String> {
        with_read!(&self.read, |rules, read| {
            let mut fens = Vec::new();
            if let Some(start) = rules.start(&read.game) {
                let mut first = true;
                mainline::walk(rules, start, &read.game, |position, _| {
                    if !std::mem::take(&mut first) {
                        fens.extend(rules.fen(position));
                    }
                    true
                });
            }
            fens
        })
    }

    /// The opening its moves reach, as `(eco, name)` (chess; `None` for draughts or an
    /// opening the table does not name).
    #[getter]
    fn opening(&self) -> Option<(String, String)> {
        with_read!(&self.read, |rules, read| rules
            .opening(&read.game)
            .map(|o| (o.eco().to_string(), o.name().to_owned())))
    }

    /// What reading the game forgave (warnings) or refused (errors), in input order.
    #[getter]
    fn diagnostics(&self) -> Vec<Diagnostic> {
        with_read!(&self.read, |_rules, read| read
            .diagnostics
            .iter()
            .map(|d| Diagnostic::new(d, &self.file, Some(self.number())))
            .collect())
    }

    /// The game in PGN's export format (PDN's for a draughts game).
    fn to_pgn(&self) -> PyResult<String> {
        with_read!(&self.read, |rules, read| {
            notation::to_export_string(rules, &read.game, &rules.write_options())
                .map_err(|e| crate::errors::NotationError::new_err(e.to_string()))
        })
    }

    /// The game in PDN's export format (PGN's for a chess game).
    fn to_pdn(&self) -> PyResult<String> {
        self.to_pgn()
    }

    /// The game as `notate json` writes it, as a `dict`.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let mut text = String::from("{\"file\":");
        collection::escape::string(&self.file, &mut text);
        text.push_str(&format!(",\"game\":{},", self.number()));
        with_read!(&self.read, |rules, read| {
            collection::json::write_game(rules, &read.game, &mut text);
            collection::json::write_diagnostics(&read.diagnostics, &mut text);
        });
        py.import("json")?.call_method1("loads", (text,))
    }

    fn __repr__(&self) -> String {
        with_read!(&self.read, |_rules, read| {
            let tag = |name: &str| read.game.tags.get(name).unwrap_or("?").to_owned();
            format!(
                "<Game {} {}: {} - {} {}>",
                self.file,
                self.number(),
                tag("White"),
                tag("Black"),
                read.game.result.as_str()
            )
        })
    }
}

/// A move, with what is written after it.
#[pyclass(frozen, module = "notate")]
pub struct Move {
    /// Whether it is a chess move (SAN and UCI) rather than a draughts one.
    chess: bool,
    /// The move as its notation writes it: SAN for chess, PDN for draughts (`32-28`).
    #[pyo3(get)]
    text: String,
    /// Chess: the move in UCI (`g1f3`).
    uci: String,
    /// Comments after the move.
    #[pyo3(get)]
    comments: Vec<String>,
    /// Comments before it, at the start of a variation.
    #[pyo3(get)]
    comments_before: Vec<String>,
    /// Its annotation glyphs (NAGs: `!` is 1).
    #[pyo3(get)]
    nags: Vec<u16>,
    /// The mover's clock after the move, in seconds (`[%clk]`, `[%clock]`).
    #[pyo3(get)]
    clock: Option<f64>,
    /// The evaluation written after the move, made a Python object when asked for.
    eval: Option<columnar::Eval>,
    /// Alternatives to this move, each a list of moves played from the position before it.
    #[pyo3(get)]
    variations: Vec<Py<PyList>>,
}

#[pymethods]
impl Move {
    /// Chess: the move in SAN (`Nf3`, `exd8=Q+`); `None` for draughts.
    #[getter]
    fn san(&self) -> Option<&str> {
        self.chess.then_some(self.text.as_str())
    }

    /// Chess: the move in UCI (`g1f3`); `None` for draughts.
    #[getter]
    fn uci(&self) -> Option<&str> {
        self.chess.then_some(self.uci.as_str())
    }

    /// The evaluation written after the move (`[%eval]`).
    #[getter]
    fn eval(&self, py: Python<'_>) -> PyResult<Option<Py<Eval>>> {
        Eval::object(py, self.eval)
    }

    fn __repr__(&self) -> String {
        format!("<Move {}>", self.text)
    }

    fn __str__(&self) -> String {
        self.text.clone()
    }
}

/// An engine's evaluation (`[%eval]`): centipawns from White's side, or mate in so many
/// moves (negative when Black mates). One of the two is `None`.
#[pyclass(frozen, module = "notate", get_all)]
pub struct Eval {
    /// Centipawns, from White's side.
    cp: Option<i32>,
    /// Mate in this many moves: positive when White mates.
    mate: Option<i32>,
}

impl Eval {
    /// An evaluation read from a move's comments as a Python object (`None` for none).
    fn object(py: Python<'_>, eval: Option<columnar::Eval>) -> PyResult<Option<Py<Eval>>> {
        eval.map(|e| {
            let (cp, mate) = match e {
                columnar::Eval::Centipawns(cp) => (Some(cp), None),
                columnar::Eval::Mate(n) => (None, Some(n)),
            };
            Py::new(py, Eval { cp, mate })
        })
        .transpose()
    }
}

#[pymethods]
impl Eval {
    fn __repr__(&self) -> String {
        match (self.cp, self.mate) {
            (_, Some(n)) => format!("<Eval #{n}>"),
            (Some(cp), None) => format!("<Eval {cp}cp>"),
            (None, None) => "<Eval>".to_owned(),
        }
    }
}

/// A warning or an error found reading a game, where it was found.
#[pyclass(frozen, module = "notate", get_all)]
pub struct Diagnostic {
    /// The input.
    file: String,
    /// The game's number in its input (`None` for text outside any game).
    game: Option<u64>,
    /// The line, from 1.
    line: u64,
    /// The column, from 1.
    column: u64,
    /// `"warning"` or `"error"`.
    severity: &'static str,
    /// What was forgiven or refused.
    message: String,
}

impl Diagnostic {
    /// A diagnostic of `file`; `game` numbers it when it is one of a game.
    pub fn new(found: &Found, file: &str, game: Option<u64>) -> Diagnostic {
        Diagnostic {
            file: file.to_owned(),
            game,
            line: found.location.line,
            column: found.location.column,
            severity: match found.severity {
                Severity::Warning => "warning",
                Severity::Error => "error",
            },
            message: found.kind.to_string(),
        }
    }
}

#[pymethods]
impl Diagnostic {
    /// As `notate check` prints it: `file:line:column: severity: message (game N)`.
    fn __str__(&self) -> String {
        let game = self
            .game
            .map(|n| format!(" (game {n})"))
            .unwrap_or_default();
        format!(
            "{}:{}:{}: {}: {}{game}",
            self.file, self.line, self.column, self.severity, self.message
        )
    }

    fn __repr__(&self) -> String {
        format!("<Diagnostic {}>", self.__str__())
    }
}

/// What a move of a game's tree is, in the position it was played from: its text (and
/// UCI for chess), and the clock and evaluation written after it.
pub struct NodeInfo {
    text: String,
    uci: String,
    clock: Option<f64>,
    eval: Option<columnar::Eval>,
}

/// Works out every move of a game's tree (`None` for a move played from no position: after
/// a set-up that failed). Every line's moves are read in the position before them, the
/// lines in the order they were opened (a variation is opened after the line it branches
/// from): no recursion, however deep the variations nest. Done where the game is read,
/// with the interpreter let go.
pub fn prepare<G: Columns>(rules: &G, game: &Tree<G::Move>) -> Vec<Option<NodeInfo>> {
    let mut nodes: Vec<Option<NodeInfo>> = (0..game.node_count()).map(|_| None).collect();
    let Ok(start) = rules.start_position(&game.tags) else {
        return nodes;
    };
    // The position before each move that has variations: where they start.
    let mut branches: HashMap<usize, G::Position> = HashMap::new();
    for index in 0..game.line_count() {
        let line = game.line(LineId::new(index as u32));
        let from = match line.parent {
            None => Some(start.position.clone()),
            Some(node) => branches.get(&node.index()).cloned(),
        };
        let Some(mut position) = from else { continue };
        if let Some(text) = &line.setup {
            match rules.inline_setup(&position, text) {
                Ok(setup) => position = setup.position,
                Err(_) => continue,
            }
        }
        for &node_id in &line.moves {
            let node = game.node(node_id);
            let (clock, eval) = rules.clock_and_eval(&position, &node.comments);
            if !node.variations.is_empty() {
                branches.insert(node_id.index(), position.clone());
            }
            let (mut text, mut uci) = (String::new(), String::new());
            rules.play_with_columns(&mut position, &node.mv, &mut text, &mut uci);
            nodes[node_id.index()] = Some(NodeInfo {
                text,
                uci,
                clock,
                eval,
            });
            if let Some(text) = &node.setup {
                match rules.inline_setup(&position, text) {
                    Ok(setup) => position = setup.position,
                    Err(_) => break,
                }
            }
        }
    }
    nodes
}

/// The main line's moves as `Move` objects, variations nested, from the moves worked out
/// by [`prepare`]: made from the last line to the first, so that a move's variations exist
/// before it.
fn build_moves<M>(
    py: Python<'_>,
    game: &Tree<M>,
    nodes: &[Option<NodeInfo>],
    chess: bool,
) -> PyResult<Py<PyList>> {
    let lines = game.line_count();
    let mut built: Vec<Option<Py<PyList>>> = (0..lines).map(|_| None).collect();
    for index in (0..lines).rev() {
        let line = game.line(LineId::new(index as u32));
        let list = PyList::empty(py);
        for (i, &node_id) in line.moves.iter().enumerate() {
            let node = game.node(node_id);
            // A move played from no position (after a set-up that failed) ends its line.
            let Some(info) = nodes.get(node_id.index()).and_then(Option::as_ref) else {
                break;
            };
            let variations = node
                .variations
                .iter()
                .map(|l| {
                    built
                        .get_mut(l.index())
                        .and_then(Option::take)
                        .unwrap_or_else(|| PyList::empty(py).unbind())
                })
                .collect();
            let comments_before = if i == 0 && index > 0 {
                line.comments.clone()
            } else {
                Vec::new()
            };
            let mv = Move {
                chess,
                text: info.text.clone(),
                uci: info.uci.clone(),
                comments: node.comments.clone(),
                comments_before,
                nags: node.nags.iter().map(|n| n.0).collect(),
                clock: info.clock,
                eval: info.eval,
                variations,
            };
            list.append(Py::new(py, mv)?)?;
        }
        built[index] = Some(list.unbind());
    }
    Ok(built
        .first_mut()
        .and_then(Option::take)
        .unwrap_or_else(|| PyList::empty(py).unbind()))
}
