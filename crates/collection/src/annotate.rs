//! `notate annotate`: chess games analysed by UCI engines, written in the export format
//! with an evaluation after every move (`[%eval …]`, in lichess's form), the glyphs of
//! inaccuracies, mistakes and blunders by lichess's rule ([`crate::judgement`]), and the
//! engine's better line beside each mistake and blunder.
//!
//! The engines are processes ([`engine::Uci`]), as many as asked, each analysing one
//! position at a time from a clean state, so that an analysis depends on its position and
//! limit alone: with a node limit and one thread each, a run gives the same file whatever
//! the number of engines, and a position met again (openings above all) is analysed once
//! per run. Games are read ahead while the engines work and written in input order, each
//! as soon as it and the games before it are done.
//!
//! What a game holds is kept: its comments, glyphs and variations, and an evaluation
//! already written after a move unless [`Settings::overwrite`]. A game with an error passes
//! through unchanged, with a warning, as `fmt` passes it. An engine that crashes or stops
//! answering is started again and the position tried once more; a position that fails
//! twice leaves its games unannotated, with a warning, and the run goes on.

use std::collections::{HashMap, VecDeque};
use std::io::{self, Write};
use std::path::PathBuf;
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use engine::{Analysis, Engine, EngineConfig, EngineError, Limit, Query, Uci};
use notation::{
    GameReader, GameTree, KeepRaw, LineId, NodeId, ReadGame, ReadOptions, Rules, WriteOptions,
    write_game_to,
};
use pgn::commands::Score;
use pgn::uci::Uci as UciMove;
use pgn::{ChessRules, Color, Move, Outcome, Position};

use crate::fmt::as_written;
use crate::input::Format;
use crate::job::{Ended, Job, Stopped};
use crate::judgement;
use crate::large::IoText;
use crate::rules::FormatRules;

mod cache;
mod key;
mod resume;

pub use resume::{OtherRun, Resumable, Resumed};

use key::{Key, key_of};

/// The most moves of an engine's line written as a variation.
pub const BETTER_LINE_PLIES: usize = 12;

/// How a run analyses.
#[derive(Clone, Debug)]
pub struct Settings {
    /// How to start each engine.
    pub engine: EngineConfig,
    /// How long each position is searched.
    pub limit: Limit,
    /// How many engines run at once.
    pub engines: usize,
    /// How long an engine may take over one position before it is taken for dead;
    /// `None`: [`default_timeout`] of the limit.
    pub timeout: Option<Duration>,
    /// Whether evaluations already written are replaced.
    pub overwrite: bool,
    /// Whether each player's accuracy is written as tags (`WhiteAccuracy`,
    /// `BlackAccuracy`).
    pub accuracy_tags: bool,
    /// How the games are written.
    pub write: WriteOptions,
    /// A file that keeps the analyses from run to run, a line each, taken by a later run
    /// of the same engine, limit and options (`notate annotate --cache`).
    pub cache: Option<PathBuf>,
}

/// The run a record is of, on one line: each input's path, length and modification time,
/// the engine and its options, the limit, and the settings that shape the output (not
/// the number of engines, the timeout or the cache, which change nothing in it).
pub fn run_of(settings: &Settings, inputs: &[&std::path::Path]) -> String {
    let inputs: Vec<String> = inputs
        .iter()
        .map(|path| {
            let metadata = std::fs::metadata(path).ok();
            let modified = metadata
                .as_ref()
                .and_then(|m| m.modified().ok())
                .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
                .map(|t| t.as_nanos());
            let path = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
            format!("{path:?} {:?} {modified:?}", metadata.map(|m| m.len()))
        })
        .collect();
    let engine = &settings.engine;
    format!(
        "inputs {inputs:?} engine {:?} threads {:?} hash {:?} options {:?} limit {:?} \
         overwrite {} accuracy tags {} write {:?}",
        engine.path,
        engine.threads,
        engine.hash_mb,
        engine.options,
        settings.limit,
        settings.overwrite,
        settings.accuracy_tags,
        settings.write
    )
}

/// How long an analysis may take before its engine is taken for dead: ten times what the
/// limit is expected to take (a node limit at a slow 250,000 nodes a second), and no less
/// than five seconds; a minute for a depth, whose time no one can tell.
pub fn default_timeout(limit: Limit) -> Duration {
    let expected = match limit {
        Limit::MoveTime(time) => time,
        Limit::Nodes(nodes) => Duration::from_secs_f64(nodes as f64 / 250_000.0),
        Limit::Depth(_) => return Duration::from_secs(60),
    };
    (expected * 10).max(Duration::from_secs(5))
}

/// What a run did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Annotated {
    /// The engines' own time searching, summed over the positions they analysed (from
    /// each `go` to its `bestmove`): the run's wall time is this divided by the number of
    /// engines, and what the run adds.
    pub search_time: Duration,
    /// Games written with their analysis.
    pub games: u64,
    /// Games passed through unchanged: with an error, not chess, or whose analysis failed.
    pub unchanged: u64,
    /// Positions the engines analysed.
    pub analysed: u64,
    /// Positions met again, whose analysis was taken from earlier in the run.
    pub reused: u64,
    /// Positions whose analysis was taken from the cache file: from an earlier run, or
    /// from this one once the run let it go.
    pub cached: u64,
}

/// Where annotated games go: a writer told when a game ends, so that a file written in
/// place can record it ([`Resumable`]).
pub trait GameOutput: Write {
    /// What was written since the last call ends a game.
    ///
    /// # Errors
    /// The output's write errors.
    fn game_done(&mut self) -> io::Result<()> {
        Ok(())
    }
}

impl GameOutput for Resumable {
    fn game_done(&mut self) -> io::Result<()> {
        Resumable::game_done(self)
    }
}

/// Annotates every game of the job's inputs to `out`, in input order, but the first `skip`
/// (written by the run that `--resume` goes on with).
///
/// # Errors
/// [`Stopped::Failed`] when no engine can be started (reported: a path that does not
/// exist, a program that does not speak UCI) or the output cannot be written;
/// [`Stopped::Closed`] when whoever reads the output went away.
pub fn run(
    job: &mut Job<'_>,
    settings: &Settings,
    read: ReadOptions,
    out: &mut dyn GameOutput,
    skip: u64,
) -> Result<(Ended, Annotated), Stopped> {
    let timeout = settings
        .timeout
        .unwrap_or_else(|| default_timeout(settings.limit));
    // The first engine is started here, so that a wrong path is said once, at once.
    let first = match Uci::start(&settings.engine) {
        Ok(engine) => engine,
        Err(e) => {
            job.report.error(&e.to_string());
            job.failed = true;
            return Err(Stopped::Failed);
        }
    };
    let setting = cache::setting(first.name(), settings.limit, &settings.engine);
    let positions = Positions::default();
    let cache = match &settings.cache {
        Some(path) => match cache::Cache::open(path, setting) {
            Ok(cache) => Some(cache),
            Err(e) => {
                job.report
                    .error(&format!("the cache {}: {e}", path.display()));
                job.failed = true;
                return Err(Stopped::Failed);
            }
        },
        None => None,
    };
    let pool = Pool::start(first, settings, timeout);
    let mut run = Run {
        settings,
        pool,
        positions,
        cache,
        queue: VecDeque::new(),
        annotated: Annotated::default(),
        game_errors: false,
    };
    let rules = ChessRules;
    let mut read_in_all = 0u64;
    let each = job.each(|source, opened, job| {
        let chess = opened.format == Format::Pgn;
        if !chess {
            job.report.warning(&format!(
                "{}: draughts games are passed through unchanged: no draughts engine protocol is spoken yet",
                source.name
            ));
        }
        let mut games = GameReader::new(&rules, opened.reader, read).keep_raw(KeepRaw::Always);
        let mut number = 0;
        while let Some(game) = games.read_game()? {
            number += 1;
            read_in_all += 1;
            if read_in_all <= skip {
                // In the output already.
                continue;
            }
            run.add(game, format!("{}: game {number}", source.name), chess);
            run.write_ready(out, job, false)?;
        }
        // Text outside any game is not written: said, as `fmt` says it.
        let placed = source.placed(opened.rows);
        for d in games.take_orphans() {
            job.report.warning(&placed.diagnostic(&d));
        }
        Ok(())
    });
    let ended = each.and_then(|()| {
        run.write_ready(out, job, true)
            .or_else(|e| job.write_failed(&e))
    });
    run.pool.stop();
    ended?;
    job.flush(out)?;
    Ok((job.ended(run.game_errors), run.annotated))
}

/// A run's state: the engines, the positions asked of them, and the games waiting to be
/// written in order.
struct Run<'s> {
    settings: &'s Settings,
    pool: Pool,
    positions: Positions,
    /// The cache file, when there is one: a position no slot holds is looked up there
    /// before it is asked of the engines.
    cache: Option<cache::Cache>,
    queue: VecDeque<Pending>,
    annotated: Annotated,
    game_errors: bool,
}

/// A game read and waiting for its positions' analyses, or to be passed through.
struct Pending {
    name: String,
    kind: PendingKind,
}

enum PendingKind {
    /// Written as read: a game with an error, not chess, or that cannot be set up.
    Unchanged { raw: Vec<u8>, why: Option<String> },
    /// A chess game and its main line's positions.
    Game(Box<Walked>),
}

/// A game's main line walked: the position before each move and after the last, each with
/// what is asked of the engines.
struct Walked {
    game: GameTree<Move>,
    raw: Vec<u8>,
    /// The main line's moves.
    nodes: Vec<NodeId>,
    /// Before each move, then after the last: the positions.
    positions: Vec<Position>,
    /// For each position: its analysis asked of the engines, if it is.
    asked: Vec<Option<usize>>,
    /// The evaluations already written after each move (for White).
    written: Vec<Option<Score>>,
}

/// How many plies into a game a position is kept for the rest of the run once its games
/// are written: openings repeat from game to game, later positions seldom do, and keeping
/// every position would take memory that grows with the collection.
const KEPT_PLIES: usize = 40;

/// The positions asked of the engines in a run, each once while a game waits for it: by
/// key (its FEN without the move number, and its variant).
#[derive(Default)]
struct Positions {
    ids: HashMap<Key, usize>,
    slots: HashMap<usize, Slot>,
    /// The next position's id.
    next: usize,
    /// Positions asked and not answered.
    outstanding: usize,
}

/// A position's analysis, and who needs it.
struct Slot {
    state: State,
    /// The games waiting for it (not yet written).
    waiting: u32,
    /// Whether it is kept once no game waits for it: met early in a game.
    kept: bool,
    /// Whether its analysis was read from the cache file.
    cached: bool,
}

impl Positions {
    /// Adds a position under a new id.
    fn insert(&mut self, key: Key, state: State, kept: bool) -> usize {
        let id = self.next;
        self.next += 1;
        self.ids.insert(key, id);
        self.slots.insert(
            id,
            Slot {
                state,
                waiting: 0,
                kept,
                cached: false,
            },
        );
        id
    }

    fn state(&self, id: usize) -> Option<&State> {
        self.slots.get(&id).map(|slot| &slot.state)
    }

    /// A game that waited for the position is written: the position goes once no other
    /// game waits for it, unless it is kept.
    fn release(&mut self, id: usize, key: impl FnOnce() -> Key) {
        let Some(slot) = self.slots.get_mut(&id) else {
            return;
        };
        slot.waiting = slot.waiting.saturating_sub(1);
        if slot.waiting == 0 && !slot.kept && !matches!(slot.state, State::Asked) {
            self.slots.remove(&id);
            self.ids.remove(&key());
        }
    }
}

enum State {
    Asked,
    Done(Analysis),
    Failed(String),
}

impl Run<'_> {
    /// Reads a game into the queue, asking the engines for its positions.
    fn add(&mut self, mut read: ReadGame<Move>, name: String, chess: bool) {
        let raw = read.raw.take().unwrap_or_default();
        let unchanged = |raw, why| Pending {
            name: name.clone(),
            kind: PendingKind::Unchanged { raw, why },
        };
        if !chess {
            self.queue.push_back(unchanged(raw, None));
            return;
        }
        if read.has_errors() {
            self.game_errors = true;
            let why = read
                .diagnostics
                .iter()
                .find(|d| d.severity == notation::Severity::Error)
                .map(|d| d.kind.to_string());
            self.queue.push_back(unchanged(raw, why));
            return;
        }
        let Some(walked) = walk(read.game, raw.clone()) else {
            self.queue.push_back(unchanged(
                raw,
                Some("its start position cannot be set up".into()),
            ));
            return;
        };
        let mut walked = Box::new(walked);
        // The position before the first move, for that move's judgement; then after each
        // move whose evaluation is to be written (or judged from).
        for i in 0..walked.positions.len() {
            let needed = i == 0 || self.settings.overwrite || walked.written[i - 1].is_none();
            if needed && !is_over(&walked.positions[i]) {
                walked.asked[i] = Some(self.ask(&walked.positions[i], i));
            }
        }
        self.queue.push_back(Pending {
            name,
            kind: PendingKind::Game(walked),
        });
    }

    /// The id of the analysis of a position `ply` plies into a game, asked of the engines
    /// unless it was already.
    fn ask(&mut self, position: &Position, ply: usize) -> usize {
        let key = key_of(position);
        let kept = ply < KEPT_PLIES;
        let id = match self.positions.ids.get(&key) {
            Some(&id) => {
                if self
                    .positions
                    .slots
                    .get(&id)
                    .is_some_and(|slot| slot.cached)
                {
                    self.annotated.cached += 1;
                } else {
                    self.annotated.reused += 1;
                }
                id
            }
            None => match self.cache.as_mut().and_then(|cache| cache.get(&key)) {
                Some(analysis) => {
                    self.annotated.cached += 1;
                    let id = self.positions.insert(key, State::Done(analysis), kept);
                    if let Some(slot) = self.positions.slots.get_mut(&id) {
                        slot.cached = true;
                    }
                    id
                }
                None => {
                    self.positions.outstanding += 1;
                    self.pool.ask(Request {
                        id: self.positions.next,
                        key: key.clone(),
                    });
                    self.positions.insert(key, State::Asked, kept)
                }
            },
        };
        if let Some(slot) = self.positions.slots.get_mut(&id) {
            slot.waiting += 1;
            slot.kept |= kept;
        }
        id
    }

    /// Writes the games at the head of the queue that are done, waiting for the engines'
    /// answers while too much is asked (or, at the end, until all is written).
    ///
    /// # Errors
    /// The output's write errors.
    fn write_ready(
        &mut self,
        out: &mut dyn GameOutput,
        job: &Job<'_>,
        all: bool,
    ) -> io::Result<()> {
        // Enough asked ahead to keep every engine busy while the games before wait.
        let ahead = self.settings.engines.max(1) * 16;
        loop {
            while let Some(answer) = self.pool.try_answer() {
                self.take(answer);
            }
            while self.queue.front().is_some_and(|p| self.is_done(p)) {
                if let Some(pending) = self.queue.pop_front() {
                    self.write(pending, out, job)?;
                    out.game_done()?;
                }
            }
            if let Some(cache) = &mut self.cache
                && let Err(e) = cache.flush()
            {
                job.report
                    .warning(&format!("the cache could not be written: {e}"));
                self.cache = None;
            }
            let wait = if all {
                !self.queue.is_empty()
            } else {
                self.positions.outstanding > ahead
            };
            if !wait {
                return Ok(());
            }
            match self.pool.answer() {
                Some(answer) => self.take(answer),
                // Every engine's thread ended: what is left fails.
                None => {
                    for slot in self.positions.slots.values_mut() {
                        if matches!(slot.state, State::Asked) {
                            slot.state = State::Failed("no engine is left".into());
                        }
                    }
                    self.positions.outstanding = 0;
                }
            }
        }
    }

    fn take(&mut self, answer: Answer) {
        if let Some(Slot { state, .. }) = self.positions.slots.get_mut(&answer.id) {
            *state = match answer.result {
                Ok(analysis) => {
                    self.annotated.analysed += 1;
                    self.annotated.search_time += analysis.search_time;
                    if let Some(cache) = &mut self.cache {
                        cache.keep(&answer.key, &analysis);
                    }
                    State::Done(analysis)
                }
                Err(why) => State::Failed(why),
            };
            self.positions.outstanding = self.positions.outstanding.saturating_sub(1);
        }
    }

    fn is_done(&self, pending: &Pending) -> bool {
        match &pending.kind {
            PendingKind::Unchanged { .. } => true,
            PendingKind::Game(walked) => walked
                .asked
                .iter()
                .flatten()
                .all(|&id| !matches!(self.positions.state(id), Some(State::Asked))),
        }
    }

    /// Writes a game that is done, then lets go of the analyses it waited for.
    fn write(
        &mut self,
        pending: Pending,
        out: &mut dyn GameOutput,
        job: &Job<'_>,
    ) -> io::Result<()> {
        let held: Vec<(usize, Position)> = match &pending.kind {
            PendingKind::Game(walked) => walked
                .asked
                .iter()
                .zip(&walked.positions)
                .filter_map(|(&id, &position)| Some((id?, position)))
                .collect(),
            PendingKind::Unchanged { .. } => Vec::new(),
        };
        let written = self.write_game(pending, out, job);
        for (id, position) in held {
            self.positions.release(id, || key_of(&position));
        }
        written
    }

    fn write_game(
        &mut self,
        pending: Pending,
        out: &mut dyn GameOutput,
        job: &Job<'_>,
    ) -> io::Result<()> {
        let Pending { name, kind } = pending;
        let (bytes, why) =
            match kind {
                PendingKind::Unchanged { raw, why } => (raw, why),
                PendingKind::Game(walked) => {
                    let failed = walked.asked.iter().flatten().find_map(|&id| {
                        match self.positions.state(id) {
                            Some(State::Failed(why)) => Some(why.clone()),
                            _ => None,
                        }
                    });
                    match failed {
                        Some(why) => {
                            self.game_errors = true;
                            (walked.raw.clone(), Some(format!("not analysed: {why}")))
                        }
                        None => {
                            let game = annotate(*walked, &self.positions, self.settings);
                            let mut text = IoText::new(&mut *out);
                            let written =
                                write_game_to(&ChessRules, &game, &self.settings.write, &mut text);
                            text.finish()?;
                            match written {
                                Ok(()) => {
                                    self.annotated.games += 1;
                                    return Ok(());
                                }
                                Err(e) => (Vec::new(), Some(format!("cannot be written: {e}"))),
                            }
                        }
                    }
                }
            };
        self.annotated.unchanged += 1;
        if let Some(why) = why {
            job.report
                .warning(&format!("{name} passed through unchanged: {why}"));
        }
        let Some(bytes) = as_written(&bytes) else {
            job.report
                .error(&format!("{name} left out: no memory to hold it"));
            return Ok(());
        };
        if bytes.is_empty() {
            return Ok(());
        }
        out.write_all(&bytes)
    }
}

/// Whether a game is over in a position: no engine is asked about it.
fn is_over(position: &Position) -> bool {
    matches!(
        position.outcome(),
        Some(Outcome::Checkmate { .. } | Outcome::Stalemate | Outcome::Variant { .. })
    )
}

/// Walks a game's main line: `None` when its start cannot be set up.
fn walk(game: GameTree<Move>, raw: Vec<u8>) -> Option<Walked> {
    let rules = ChessRules;
    let start = rules.start_position(&game.tags).ok()?.position;
    let nodes = game.line(LineId::MAIN).moves.clone();
    let mut positions = Vec::with_capacity(nodes.len() + 1);
    crate::mainline::walk(&rules, start, &game, |position, _| {
        positions.push(*position);
        true
    });
    // A set-up that cannot be set up stops the walk: the moves after it are left alone.
    let nodes: Vec<NodeId> = nodes
        .into_iter()
        .take(positions.len().saturating_sub(1))
        .collect();
    positions.truncate(nodes.len() + 1);
    let written = nodes
        .iter()
        .map(|&node| judgement::written_eval(&game.node(node).comments))
        .collect();
    let asked = vec![None; positions.len()];
    Some(Walked {
        game,
        raw,
        nodes,
        positions,
        asked,
        written,
    })
}

/// An engine's score (for the side to move in `position`) for White.
fn for_white(score: engine::Score, position: &Position) -> Score {
    let white = position.turn() == Color::White;
    let sign = if white { 1 } else { -1 };
    match score {
        engine::Score::Centipawns(cp) => Score::Centipawns(cp.saturating_mul(sign)),
        engine::Score::Mate(n) => Score::Mate(n.saturating_mul(sign)),
    }
}

/// `[%eval …]` as lichess writes it: pawns with their trailing zeros cut (`0.0`, `0.18`,
/// `-1.5`, `12.0`), or `#N` for a mate in N, negative when Black mates.
pub fn eval_command(score: Score) -> String {
    match score {
        Score::Centipawns(cp) => {
            let sign = if cp < 0 { "-" } else { "" };
            let abs = cp.unsigned_abs();
            let (whole, hundredths) = (abs / 100, abs % 100);
            if hundredths % 10 == 0 {
                format!("[%eval {sign}{whole}.{}]", hundredths / 10)
            } else {
                format!("[%eval {sign}{whole}.{hundredths:02}]")
            }
        }
        Score::Mate(n) => format!("[%eval #{n}]"),
    }
}

/// Puts an evaluation in a move's comments: in place of the one written (when replacing
/// it), else before the first comment's text, as lichess writes `[%eval] [%clk]`, else as a
/// comment of its own.
fn put_eval(comments: &mut Vec<String>, command: &str) {
    for comment in comments.iter_mut() {
        if let Some(args) = pgn::commands::args_of(comment, "eval") {
            let old = format!("[%eval {args}]");
            if let Some(at) = comment.find(&old) {
                comment.replace_range(at..at + old.len(), command);
                return;
            }
        }
    }
    match comments.first_mut() {
        Some(first) => {
            let rest = std::mem::take(first);
            *first = if rest.trim().is_empty() {
                command.to_owned()
            } else {
                format!("{command} {}", rest.trim_start())
            };
        }
        None => comments.push(command.to_owned()),
    }
}

/// The game with its analysis in it.
fn annotate(walked: Walked, positions: &Positions, settings: &Settings) -> GameTree<Move> {
    let Walked {
        mut game,
        nodes,
        positions: boards,
        asked,
        written,
        ..
    } = walked;
    let analysis = |i: usize| match asked[i].and_then(|id| positions.state(id)) {
        Some(State::Done(a)) => Some(a),
        _ => None,
    };
    // The score after each position, for White: kept, analysed, or the game's end.
    let mut scores: Vec<Option<i32>> = Vec::with_capacity(boards.len());
    for (i, board) in boards.iter().enumerate() {
        let kept = (i > 0 && !settings.overwrite)
            .then(|| written[i - 1])
            .flatten();
        let score = match (kept, analysis(i)) {
            (Some(score), _) => judgement::centipawns(score),
            (None, Some(a)) => judgement::centipawns(for_white(a.score, board)),
            (None, None) => ChessRules.score_when_over(board),
        };
        scores.push(score);
    }
    for (i, &node) in nodes.iter().enumerate() {
        let before = &boards[i];
        let after = &boards[i + 1];
        // The evaluation after the move.
        let keep = written[i].is_some() && !settings.overwrite;
        if let (false, Some(a)) = (keep, analysis(i + 1)) {
            let command = eval_command(for_white(a.score, after));
            put_eval(&mut game.node_mut(node).comments, &command);
        }
        let (Some(from), Some(to)) = (scores[i], scores[i + 1]) else {
            continue;
        };
        let white = before.turn() == Color::White;
        let Some(judged) = judgement::judge_centipawns(from, to, white) else {
            continue;
        };
        let assessed = game
            .node(node)
            .nags
            .iter()
            .any(|nag| (1..=6).contains(&nag.0));
        if assessed {
            continue;
        }
        game.node_mut(node).nags.push(judged.nag());
        if judged.shows_better_line()
            && let Some(a) = analysis(i)
        {
            add_better_line(&mut game, node, before, &a.pv);
        }
    }
    if settings.accuracy_tags {
        let all: Option<Vec<i32>> = scores.iter().skip(1).copied().collect();
        if let Some(after_each) = all {
            let white_first = boards.first().is_some_and(|b| b.turn() == Color::White);
            let accuracy = judgement::game_accuracy(white_first, &after_each);
            for (name, value) in [
                ("WhiteAccuracy", accuracy.white),
                ("BlackAccuracy", accuracy.black),
            ] {
                if let Some(value) = value {
                    game.tags.set(name, format!("{}", value.round() as i64));
                }
            }
        }
    }
    game
}

/// Adds the engine's line from the position before `node` as a variation of it, unless it
/// starts with the move played or with a variation the game already has.
fn add_better_line(game: &mut GameTree<Move>, node: NodeId, before: &Position, pv: &[String]) {
    let mode = before.castling_mode();
    let mut position = *before;
    let mut moves = Vec::new();
    for text in pv.iter().take(BETTER_LINE_PLIES) {
        let Ok(uci) = UciMove::from_ascii(text.as_bytes()) else {
            break;
        };
        let Ok(mv) = uci.to_move(&position) else {
            break;
        };
        position = position.play(&mv);
        moves.push(mv);
    }
    let Some(first) = moves.first() else {
        return;
    };
    let same = |m: &Move| UciMove::from_move(m, mode) == UciMove::from_move(first, mode);
    if same(&game.node(node).mv) {
        return;
    }
    let shown = game.node(node).variations.iter().any(|&line| {
        game.line(line)
            .moves
            .first()
            .is_some_and(|&n| same(&game.node(n).mv))
    });
    if shown {
        return;
    }
    let line = game.add_variation(node);
    for mv in moves {
        game.push_move(line, mv);
    }
}

/// A position for an engine to analyse.
struct Request {
    id: usize,
    key: Key,
}

/// An engine's answer, or why there is none.
struct Answer {
    id: usize,
    key: Key,
    result: Result<Analysis, String>,
}

/// The engines, each on a thread of its own, taking positions from one queue.
struct Pool {
    requests: Option<Sender<Request>>,
    answers: Receiver<Answer>,
    threads: Vec<JoinHandle<()>>,
}

impl Pool {
    /// Starts `settings.engines` engine threads, the first with `first`, the others
    /// starting their own.
    fn start(first: Uci, settings: &Settings, timeout: Duration) -> Pool {
        let (requests, queue) = mpsc::channel::<Request>();
        let queue = Arc::new(Mutex::new(queue));
        let (answer, answers) = mpsc::channel();
        let mut first = Some(first);
        let threads = (0..settings.engines.max(1))
            .filter_map(|i| {
                let worker = Worker {
                    engine: first.take(),
                    config: settings.engine.clone(),
                    limit: settings.limit,
                    timeout,
                };
                let queue = Arc::clone(&queue);
                let answer = answer.clone();
                std::thread::Builder::new()
                    .name(format!("engine {i}"))
                    .spawn(move || worker.serve(&queue, &answer))
                    .ok()
            })
            .collect();
        Pool {
            requests: Some(requests),
            answers,
            threads,
        }
    }

    fn ask(&self, request: Request) {
        if let Some(requests) = &self.requests {
            // A send fails only when every engine thread has ended: `answer` says so.
            let _ = requests.send(request);
        }
    }

    fn try_answer(&self) -> Option<Answer> {
        self.answers.try_recv().ok()
    }

    /// The next answer; `None` when no engine thread is left.
    fn answer(&self) -> Option<Answer> {
        self.answers.recv().ok()
    }

    /// Ends the engines: their threads end once the queue is closed.
    fn stop(&mut self) {
        self.requests = None;
        for thread in self.threads.drain(..) {
            let _ = thread.join();
        }
    }
}

/// One engine's thread: it analyses the positions it takes from the queue, starting its
/// engine again when it crashed or stopped answering.
struct Worker {
    engine: Option<Uci>,
    config: EngineConfig,
    limit: Limit,
    timeout: Duration,
}

impl Worker {
    fn serve(mut self, queue: &Mutex<Receiver<Request>>, answers: &Sender<Answer>) {
        loop {
            let request = match queue.lock() {
                Ok(queue) => queue.recv(),
                Err(_) => return,
            };
            let Ok(request) = request else {
                return;
            };
            let result = self.analyse(&request);
            if answers
                .send(Answer {
                    id: request.id,
                    key: request.key,
                    result,
                })
                .is_err()
            {
                return;
            }
        }
    }

    /// Analyses a position, twice at most: a failed attempt starts the engine again.
    fn analyse(&mut self, request: &Request) -> Result<Analysis, String> {
        let (fen, variant, chess960) = &request.key;
        let query = Query {
            fen,
            variant: *variant,
            chess960: *chess960,
        };
        let mut last = String::new();
        for _ in 0..2 {
            let engine = match self.engine.take().filter(Uci::is_alive) {
                Some(engine) => engine,
                None => match Uci::start(&self.config) {
                    Ok(engine) => engine,
                    Err(e) => {
                        last = e.to_string();
                        continue;
                    }
                },
            };
            let mut engine = engine;
            match engine.analyse(&query, self.limit, self.timeout) {
                Ok(analysis) => {
                    self.engine = Some(engine);
                    return Ok(analysis);
                }
                Err(e) => {
                    last = describe(&e, fen);
                    // A refused option leaves the engine as it was: no use asking again.
                    if matches!(e, EngineError::Option { .. }) {
                        self.engine = Some(engine);
                        return Err(last);
                    }
                    if engine.is_alive() {
                        self.engine = Some(engine);
                    }
                }
            }
        }
        Err(last)
    }
}

fn describe(error: &EngineError, fen: &str) -> String {
    format!("{error} (position {fen})")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(n: u8) -> Key {
        (format!("position {n}"), None, false)
    }

    fn done() -> State {
        State::Failed("stands for an analysis".into())
    }

    /// What a run holds stays bounded: a position goes once no game waits for it, unless
    /// it came early in a game (openings repeat) or from the cache file.
    #[test]
    fn a_position_is_let_go_once_its_games_are_written_unless_it_is_kept() {
        let mut positions = Positions::default();
        let cached = positions.insert(key(0), done(), true);
        let late = positions.insert(key(1), done(), false);
        let asked = positions.insert(key(2), State::Asked, false);
        for id in [cached, late, late, asked] {
            positions.slots.get_mut(&id).expect("held").waiting += 1;
        }
        positions.release(late, || key(1));
        assert!(
            positions.state(late).is_some(),
            "a second game waits for it"
        );
        positions.release(late, || key(1));
        assert!(positions.state(late).is_none());
        assert!(!positions.ids.contains_key(&key(1)));
        positions.release(cached, || key(0));
        assert!(positions.state(cached).is_some(), "kept");
        // An answer still to come has somewhere to go.
        positions.release(asked, || key(2));
        assert!(positions.state(asked).is_some());
        assert_eq!(
            positions.insert(key(3), done(), false),
            3,
            "ids are never reused"
        );
    }
}
