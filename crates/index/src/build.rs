//! `notate index`: reads collections and writes (or adds) a segment of a position index.
//!
//! Games are read on every core (the `collection` pipeline, in input order); each game
//! gives its record, its players and, for every position of its main line, the position's
//! key and the move played from it. Records go into the segment as they come (stored a
//! few tens of MB at a time, [`Pending`], on a thread of their own); the positions go
//! through a [`Sorter`] (sorted runs on disk, merged) and are written grouped by key. The
//! segment is committed durably, renamed into place, and only then named by a new
//! manifest.

use std::borrow::Cow;
use std::collections::BTreeSet;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::mpsc;

use collection::input::{Format, Opened, Source};
use collection::job::Job;
use collection::pipeline::{self, Input, Origin, Task};
use collection::range::ByteRange;
use notation::{Diagnostic, GameReader, KeepRaw, ReadOptions, Severity};

use crate::error::IndexError;
use crate::key::PositionKey;
use crate::line::LineWriter;
use crate::manifest::{self, Manifest, SegmentEntry, SourceEntry, SourceRange};
use crate::record::{Described, GameId, GameRecord, LabelId, PlayerId, Posting};
use crate::rules::{Game, IndexRules, MoveCode};
use crate::runs::{Occurrence, Sorted, Sorter};
use crate::segment::{
    BlockWriter, LabelWriter, PackedSummary, Pending, SegmentWriter, SummaryPacker, TAIL_GAMES,
    TailWriter, tail_prefix,
};
use crate::summary::{Dims, Summary};

/// How a build runs.
#[derive(Clone, Debug)]
pub struct BuildOptions {
    /// Add the inputs to the index in the folder rather than build it anew.
    pub append: bool,
    /// The memory the sort of positions may hold before it writes a run to disk.
    pub sort_memory: usize,
    /// The bytes of the segment's games and positions held before they are stored in it
    /// together (on a thread of their own, while as many more are gathered).
    pub store_memory: usize,
    /// How games are read.
    pub read: ReadOptions,
    /// Index the positions of variations too, not the main line's alone.
    pub variations: bool,
    /// A position at least this many of a segment's games reached gets a summary, so that
    /// the explorer answers without reading its games one by one.
    pub popular: u64,
    /// Read only the games that begin in this byte range of the one input, an
    /// uncompressed file (as `notate parquet --range` reads them): the index is then a
    /// shard, which [`merge()`] joins to the shards of the rest of the file.
    pub range: Option<ByteRange>,
    /// How many players' names the build holds to give a name met again its number: one
    /// met again only after more than twice this many others is numbered anew, and the
    /// index answers for its numbers as for one player. Some 40 bytes each.
    pub players_held: usize,
}

impl Default for BuildOptions {
    fn default() -> BuildOptions {
        BuildOptions {
            append: false,
            sort_memory: 256 << 20,
            store_memory: 24 << 20,
            read: ReadOptions::default(),
            variations: false,
            popular: 256,
            range: None,
            players_held: 1 << 20,
        }
    }
}

/// What a build did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Built {
    /// Games indexed by this run.
    pub games: u64,
    /// Of them, games with an error: their moves up to it are indexed.
    pub games_with_errors: u64,
    /// Positions met (one per game and position).
    pub occurrences: u64,
    /// Different positions among them.
    pub positions: u64,
    /// Games in the index now.
    pub total_games: u64,
}

mod main_lines;
mod numbering;
mod spares;

use numbering::{LABELS_HELD, Numbered, Numbering};

/// A game read, as the index takes it.
#[derive(Clone, Debug, Default, PartialEq)]
struct IndexedGame {
    number: u64,
    offset: u64,
    described: Described,
    /// The plies of its main line.
    plies: u32,
    /// Each position met, the move played from it, and whether the game's kept line
    /// reaches it.
    positions: Vec<(PositionKey, MoveCode, bool)>,
    /// The main line kept ([`crate::line`]), when it can be.
    line: Option<Vec<u8>>,
    /// Its ruleset or game type ([`IndexRules::kind`]), when its start could be set up.
    kind: Option<Cow<'static, str>>,
    errors: Vec<Diagnostic>,
}

/// Reads one input (or chunk) into [`IndexedGame`]s.
struct IndexTask<'r, R> {
    rules: &'r R,
    read: ReadOptions,
    variations: bool,
}

impl<R: IndexRules> Task for IndexTask<'_, R> {
    type Item = IndexedGame;

    fn run(
        &self,
        mut input: Input<'_>,
        origin: Origin,
        sink: &mut dyn FnMut(IndexedGame) -> io::Result<()>,
    ) -> io::Result<u64> {
        let reader = input.reader(self.rules.dialect(), self.read);
        let mut reader = GameReader::from_reader(self.rules, reader).keep_raw(KeepRaw::Never);
        let mut games = 0;
        while let Some(read) = reader.read_game()? {
            games += 1;
            let game = &read.game;
            let main = game.line(notation::LineId::MAIN);
            let mut positions = Vec::with_capacity(main.moves.len() + 1);
            let mut line = None;
            let mut kind = None;
            if let Some(start) = self.rules.start(game) {
                kind = Some(self.rules.kind(&start));
                // A line with a set-up inside it is not kept: a replay from its start
                // would not reach its positions.
                let plain = main.setup.is_none() && game.mainline().all(|n| n.setup.is_none());
                line = plain.then(|| LineWriter::new(self.rules, &start)).flatten();
                let mut each = |position: &R::Position, mv: Option<&R::Move>, on_main: bool| {
                    let code = match mv {
                        Some(mv) => self.rules.move_code(position, mv),
                        None => MoveCode::NONE,
                    };
                    let on_line = on_main && line.is_some();
                    if on_line && let (Some(line), Some(mv)) = (line.as_mut(), mv) {
                        line.push(self.rules, position, mv);
                    }
                    positions.push((self.rules.key(position), code, on_line));
                };
                if self.variations {
                    every_line(self.rules, start, game, &mut each);
                } else {
                    collection::mainline::walk(self.rules, start, game, |position, mv| {
                        each(position, mv, true);
                        true
                    });
                }
            }
            let errors = read
                .diagnostics
                .iter()
                .filter(|d| d.severity == Severity::Error)
                .map(|d| {
                    let mut d = d.clone();
                    origin.place(&mut d);
                    d
                })
                .collect();
            sink(IndexedGame {
                number: read.index,
                offset: origin.offset + read.span.start,
                described: Described::of(&game.tags, game.result),
                plies: u32::try_from(main.moves.len()).unwrap_or(u32::MAX),
                positions,
                line: line.map(LineWriter::into_bytes),
                kind,
                errors,
            })?;
        }
        let buffer = reader.into_reader().into_vec();
        input.give_back(buffer);
        Ok(games)
    }
}

/// Calls `each` with every position of every line of a game (variations at any depth),
/// the move played from it (`None` at a line's end) and whether it is on the main line,
/// each line from the position its first move is played in. A line whose set-up cannot
/// be set up is passed over (the reader reported it). No recursion: a stack of lines to
/// walk.
fn every_line<R: IndexRules>(
    rules: &R,
    start: R::Position,
    game: &notation::GameTree<R::Move>,
    each: &mut impl FnMut(&R::Position, Option<&R::Move>, bool),
) {
    let setup = |position: &R::Position, text: &Option<String>| match text {
        Some(text) => rules.inline_setup(position, text).ok().map(|s| s.position),
        None => Some(position.clone()),
    };
    let mut lines = vec![(notation::LineId::MAIN, start)];
    while let Some((line_id, start)) = lines.pop() {
        let on_main = line_id == notation::LineId::MAIN;
        let line = game.line(line_id);
        let Some(mut position) = setup(&start, &line.setup) else {
            continue;
        };
        for &node_id in &line.moves {
            let node = game.node(node_id);
            for &variation in &node.variations {
                lines.push((variation, position.clone()));
            }
            each(&position, Some(&node.mv), on_main);
            rules.play(&mut position, &node.mv);
            if node.setup.is_some() {
                match setup(&position, &node.setup) {
                    Some(after) => position = after,
                    None => break,
                }
            }
        }
        each(&position, None, on_main);
    }
}

/// What a build gathers while it reads.
struct Gathering {
    /// Where each full [`Gathering::pending`] goes to be stored, on a thread of its own.
    to_store: Handover,
    /// Records not yet stored.
    pending: Pending,
    game: Option<Game>,
    next: GameId,
    /// The games the index has room for.
    room: u32,
    /// Positions met so far (for the progress bar).
    positions: u64,
    sorter: Sorter,
    /// The numbers of the players met lately, by name in lower case.
    players: Numbering,
    /// A name lowered, as [`Gathering::player`] looks it up.
    lower: String,
    /// The numbers of events, sites, openings and kinds met lately.
    labels: Numbering,
    /// The texts of the labels numbered, written as they are.
    label_writer: LabelWriter,
    built: Built,
    record: Vec<u8>,
    segment_path: PathBuf,
    /// The kinds of the current input's games ([`SourceEntry::kinds`]).
    kinds: BTreeSet<String>,
}

impl Gathering {
    fn player(&mut self, name: &str) -> Result<PlayerId, IndexError> {
        // Players are told apart case aside. Most names are ASCII and met before: those
        // are lowered into one buffer, kept from game to game, not a new string each.
        let lower = &mut self.lower;
        lower.clear();
        if name.is_ascii() {
            lower.push_str(name);
            lower.make_ascii_lowercase();
        } else {
            lower.push_str(&name.to_lowercase());
        }
        let numbered = self.players.number(lower).ok_or_else(|| {
            IndexError::Input("a segment holds at most 4,294,967,295 players' numbers".into())
        })?;
        Ok(match numbered {
            Numbered::Known(id) => PlayerId(id),
            Numbered::New(id) => {
                self.pending.player(PlayerId(id), name);
                PlayerId(id)
            }
        })
    }

    fn label(&mut self, text: &str) -> Result<LabelId, IndexError> {
        if text.is_empty() {
            return Ok(LabelId::NONE);
        }
        let numbered = self.labels.number(text).ok_or_else(|| {
            IndexError::Input(
                "a segment holds at most 4,294,967,295 labels (events, sites, openings)".into(),
            )
        })?;
        match numbered {
            Numbered::Known(id) => Ok(LabelId(id)),
            Numbered::New(id) => {
                self.label_writer
                    .push(text, &mut self.pending)
                    .map_err(|e| IndexError::io(&self.segment_path, e))?;
                Ok(LabelId(id))
            }
        }
    }

    fn take(&mut self, game: &IndexedGame, source: u32, before: u64) -> Result<(), IndexError> {
        let id = self.next;
        if id.0 >= self.room {
            return Err(IndexError::Input(
                "an index holds at most 4,294,967,295 games".into(),
            ));
        }
        self.next = GameId(id.0 + 1);
        let d = &game.described;
        let white = self.player(&d.white)?;
        let black = self.player(&d.black)?;
        let event = self.label(&d.event)?;
        let site = self.label(&d.site)?;
        let opening = self.label(&d.opening)?;
        let kind = self.label(game.kind.as_deref().unwrap_or(""))?;
        let record = GameRecord {
            source,
            number: before + game.number,
            offset: game.offset,
            white,
            black,
            white_rating: d.white_rating,
            black_rating: d.black_rating,
            day: d.day,
            month: d.month,
            speed: d.speed,
            winner: d.winner,
            rated: d.rated,
            event,
            site,
            opening,
            eco: d.eco,
            plies: game.plies,
            kind,
        };
        let dims = Dims::of(&record);
        self.record.clear();
        record.encode(&mut self.record);
        if let Some(line) = &game.line {
            self.record.extend_from_slice(line);
        }
        self.pending.game(id, &self.record);
        if !self.to_store.store_if_full(&mut self.pending) {
            // The storing stopped on an error, which the build gives.
            return Err(IndexError::Input("the storing of games stopped".into()));
        }
        for &(key, code, on_line) in &game.positions {
            self.sorter
                .push(Occurrence::new(key, id, code, dims, on_line))
                .map_err(|e| IndexError::io(&self.segment_path, e))?;
        }
        self.built.games += 1;
        if !game.errors.is_empty() {
            self.built.games_with_errors += 1;
        }
        if let Some(kind) = &game.kind
            && !self.kinds.contains(kind.as_ref())
        {
            self.kinds.insert(kind.to_string());
        }
        Ok(())
    }
}

/// Builds an index of the job's inputs in `dir` (made if missing), or with
/// [`BuildOptions::append`] adds them to the index there. A run that fails or is killed
/// leaves the index in `dir` as it was.
///
/// # Errors
/// An index in `dir` that cannot be read or written. An input that cannot be read, is of
/// another game than the index's, or is already in it is reported through the job and
/// passed over.
pub fn build(job: &mut Job<'_>, dir: &Path, options: &BuildOptions) -> Result<Built, IndexError> {
    fs::create_dir_all(dir).map_err(|e| IndexError::io(dir, e))?;
    let previous = match Manifest::load(dir) {
        Ok(m) => Some(m),
        Err(IndexError::NotAnIndex { .. }) => None,
        Err(e) if options.append => return Err(e),
        // Built anew: what was there does not matter.
        Err(_) => None,
    };
    if options.append && previous.is_none() {
        return Err(IndexError::NotAnIndex {
            path: dir.to_owned(),
        });
    }
    if let Some(previous) = previous.as_ref().filter(|_| options.append)
        && previous.variations != options.variations
    {
        return Err(IndexError::Input(format!(
            "{}: the index holds {}; append {} --variations",
            dir.display(),
            if previous.variations {
                "the positions of variations"
            } else {
                "the main lines' positions alone"
            },
            if previous.variations {
                "with"
            } else {
                "without"
            }
        )));
    }
    if let Some(previous) = previous.as_ref().filter(|_| options.append)
        && let Some(shard) = previous.sources.iter().find(|s| s.games_before().is_none())
    {
        return Err(IndexError::Input(format!(
            "{}: a shard of a range of {} (notate index --range); merge the shards \
             (notate index --merge) and append to the merged index",
            dir.display(),
            shard.path
        )));
    }
    let ranged = options
        .range
        .map(|range| open_range(job, range, options.append))
        .transpose()?;
    remove_strays(dir, previous.as_ref());
    let mut manifest = match (&previous, options.append) {
        (Some(m), true) => m.clone(),
        _ => Manifest::new(""),
    };
    manifest.variations = options.variations;
    let number = next_segment_number(dir);
    let file = format!("segment-{number:06}.seg");
    let partial = dir.join(format!("{file}.partial"));
    let mut writer = SegmentWriter::create(&partial)?;
    // The partial file is removed whatever happens, unless renamed into place.
    let cleanup = RemoveOnDrop(partial.clone());
    let first = GameId(
        u32::try_from(manifest.games())
            .map_err(|_| IndexError::Input("an index holds at most 4,294,967,295 games".into()))?,
    );
    let game = match manifest.game.as_str() {
        "chess" => Some(Game::Chess),
        "draughts" => Some(Game::Draughts),
        _ => None,
    };
    // The segment numbers its games from 0; the largest id it may reach in the index.
    let room = u32::MAX - first.0;
    // The records are stored on a thread of their own while the games are read.
    //
    // Why: stored on the thread that takes the games in order, each store (some 24 MB of
    // records) held that thread for about a quarter of a second, while the readers, all
    // their chunks read, waited: four times in a build of a million games, one of two
    // cores idle for that long. That thread's CPU time while the games were read fell from
    // 3.3–3.5 s to 2.7–3.3 s (three builds each). On two cores a build takes as long
    // (1.02×, 6 pairs; 0.99×, 12 pairs, beside another change not kept), the other
    // threads busy in the time idle before; on more, that thread is what bounds the
    // reading.
    let gathered = std::thread::scope(|scope| {
        let (to_store, storing) = handover(Pending::new(options.store_memory));
        let storing = scope.spawn(|| storing.store_all(&mut writer, &partial));
        let gathered = gather(
            job, to_store, &manifest, dir, &partial, game, room, options, ranged,
        );
        // Whatever the gathering gave, the storing ends once its Handover is dropped: its
        // error, if it had one, is the cause of the gathering's.
        let stored = storing
            .join()
            .map_err(|_| IndexError::Input("the storing of games stopped".into()))?;
        stored.and(gathered)
    })?;
    let mut pending = gathered.pending;
    gathered
        .label_writer
        .finish(&mut pending)
        .map_err(|e| IndexError::io(&partial, e))?;
    let mut built = gathered.built;
    let pending = write_positions(
        &mut writer,
        pending,
        gathered.sorter,
        gathered.next,
        &partial,
        options.popular,
        &mut built,
    )?;
    if let Some(game) = gathered.game {
        manifest.game = game.name().to_owned();
    }
    let count = u64::from(gathered.next.0);
    writer
        .commit(pending, count)
        .map_err(|e| IndexError::io(&partial, e))?;
    if count > 0 {
        manifest.segments.push(SegmentEntry {
            file: file.clone(),
            first_game: first.0,
            games: count,
            first_source: u32::try_from(manifest.sources.len())
                .map_err(|_| IndexError::Input("too many inputs".into()))?,
        });
    }
    built.total_games = manifest.games();
    let new_sources = gathered.sources;
    manifest.sources.extend(new_sources);
    if manifest.game.is_empty() {
        manifest.game = Game::Chess.name().to_owned();
    }
    if built.games > 0 {
        let path = dir.join(&file);
        fs::rename(&partial, &path).map_err(|e| IndexError::io(&path, e))?;
        manifest::sync_dir(dir)?;
    }
    drop(cleanup);
    manifest.store(dir)?;
    // The segments of the index replaced (a build anew) are no longer named.
    remove_strays(dir, Some(&manifest));
    Ok(built)
}

/// What the reading of the inputs gathered.
struct Gathered {
    sorter: Sorter,
    /// Records not yet stored.
    pending: Pending,
    label_writer: LabelWriter,
    built: Built,
    game: Option<Game>,
    next: GameId,
    sources: Vec<SourceEntry>,
}

/// Reads the job's inputs: each game's record into the segment's `games` table, its
/// players and positions gathered.
#[allow(clippy::too_many_arguments)]
fn gather(
    job: &mut Job<'_>,
    to_store: Handover,
    manifest: &Manifest,
    dir: &Path,
    partial: &Path,
    game: Option<Game>,
    room: u32,
    options: &BuildOptions,
    ranged: Option<(u64, Box<dyn io::Read + Send>)>,
) -> Result<Gathered, IndexError> {
    let mut gathering = Gathering {
        to_store,
        pending: Pending::new(options.store_memory),
        game,
        next: GameId(0),
        room,
        positions: 0,
        sorter: Sorter::new(dir, options.sort_memory),
        players: Numbering::new(0, options.players_held),
        lower: String::new(),
        labels: Numbering::new(LabelId::NONE.0 + 1, LABELS_HELD),
        label_writer: LabelWriter::new().map_err(|e| IndexError::io(partial, e))?,
        built: Built::default(),
        record: Vec::new(),
        segment_path: partial.to_owned(),
        kinds: BTreeSet::new(),
    };
    let mut sources: Vec<SourceEntry> = Vec::new();
    let mut ranged = ranged;
    let jobs = job.jobs;
    let read = options.read;
    let variations = options.variations;
    let stopped = job.each(|source, opened, job| {
        let entry = source_entry(source)?;
        if let Some(entry) = &entry
            && let Some(kept) = manifest
                .sources
                .iter()
                .chain(&sources)
                .find(|s| s.same_file(entry))
        {
            return Err(io::Error::other(format!(
                "already in the index (as {}); not read again",
                kept.path
            )));
        }
        let source_number =
            u32::try_from(sources.len()).map_err(|_| io::Error::other("too many inputs"))?;
        let before = gathering.built.games;
        // A range's games are read from its bytes alone, the file opened whole unread.
        let (opened, start) = match ranged.take() {
            Some((start, reader)) => (
                Opened {
                    format: opened.format,
                    reader,
                    rows: false,
                },
                Some(start),
            ),
            None => (opened, None),
        };
        gathering.kinds.clear();
        let outcome = read_source(
            &mut gathering,
            source,
            opened,
            job,
            jobs,
            read,
            variations,
            source_number,
            start,
        );
        // An input that failed partway keeps the games read before (reported with the
        // error), and its entry, which they name; one that gave none is left out.
        if outcome.is_err() && gathering.built.games == before {
            return outcome;
        }
        let mut entry = entry.unwrap_or_else(|| SourceEntry {
            path: "-".into(),
            size: 0,
            head: String::new(),
            tail: String::new(),
            games: 0,
            variant: None,
            range: None,
            kinds: None,
        });
        entry.games = gathering.built.games - before;
        if gathering.game == Some(Game::Draughts) {
            entry.variant = job.variant.map(|v| v.to_string());
        }
        entry.kinds = Some(std::mem::take(&mut gathering.kinds).into_iter().collect());
        if let Some(range) = options.range {
            let start = range.start.min(entry.size);
            entry.range = Some(SourceRange {
                start,
                end: range.end.unwrap_or(entry.size).min(entry.size),
                // A range that starts the file has no games before it.
                games_before: (start == 0).then_some(0),
            });
        }
        sources.push(entry);
        outcome
    });
    if stopped.is_err() {
        return Err(IndexError::Input("the build was stopped".into()));
    }
    Ok(Gathered {
        sorter: gathering.sorter,
        pending: gathering.pending,
        label_writer: gathering.label_writer,
        built: gathering.built,
        game: gathering.game,
        next: gathering.next,
        sources,
    })
}

/// The bytes of the job's one input that `range` reads: where its reading starts, and a
/// reader of them ([`collection::range::open_range`]).
fn open_range(
    job: &Job<'_>,
    range: ByteRange,
    append: bool,
) -> Result<(u64, Box<dyn io::Read + Send>), IndexError> {
    if append {
        return Err(IndexError::Input(
            "--range builds a shard anew: it cannot be appended to an index".into(),
        ));
    }
    let path = match job.sources.as_slice() {
        [
            Source {
                path: Some(path), ..
            },
        ] if path.is_file() => path,
        _ => {
            return Err(IndexError::Input(
                "--range reads one file (not a folder, not standard input)".into(),
            ));
        }
    };
    fs::File::open(path)
        .and_then(|file| collection::range::open_range(file, range))
        .map_err(|e| IndexError::Input(format!("{}: {e}", path.display())))
}

/// Joins the ranges of each file that shards read by ranges: they must come one after
/// another, in order, and cover the file from 0 to its size exactly; each then learns how
/// many games of the file come before it, and names the file as the first does.
fn join_ranges(sources: &mut [SourceEntry]) -> Result<(), IndexError> {
    let error = |path: &str, what: String| IndexError::Input(format!("{path}: {what}"));
    let mut i = 0;
    while i < sources.len() {
        if sources[i].range.is_none() {
            i += 1;
            continue;
        }
        // The file's ranges: this one and those right after it.
        let mut end = i + 1;
        while end < sources.len() && sources[end].same_file(&sources[i]) {
            end += 1;
        }
        let (file, rest) = sources[i..].split_at_mut(end - i);
        let path = file[0].path.clone();
        if let Some(apart) = rest.iter().find(|s| s.same_file(&file[0])) {
            return Err(error(
                &path,
                format!(
                    "its ranges are not one after another (another shard's input comes \
                     before the range {}): give the shards of a file together, in the \
                     order of their ranges",
                    apart
                        .range
                        .as_ref()
                        .map_or(String::new(), |r| format!("{}..{}", r.start, r.end)),
                ),
            ));
        }
        let size = file[0].size;
        let bounds = |entry: &SourceEntry| entry.range.as_ref().map(|r| (r.start, r.end));
        if let Some(pair) = file.windows(2).find(|w| bounds(&w[1]) < bounds(&w[0])) {
            let [(a, b), (c, d)] = [&pair[0], &pair[1]].map(|e| bounds(e).unwrap_or_default());
            return Err(error(
                &path,
                format!(
                    "its range {c}..{d} comes after the range {a}..{b}: give the shards of \
                     a file in the order of their ranges"
                ),
            ));
        }
        let mut covered = 0;
        let mut games_before = 0;
        for entry in file.iter_mut() {
            // `same_file` holds, and only ranges of a file may come twice.
            let Some(range) = entry.range.as_mut() else {
                return Err(error(&path, "held by two shards".into()));
            };
            if range.start > covered {
                return Err(error(
                    &path,
                    format!(
                        "no shard holds its bytes {covered}..{} (a shard of every range of \
                         the file is needed)",
                        range.start
                    ),
                ));
            }
            if range.start < covered {
                return Err(error(
                    &path,
                    format!(
                        "its bytes {}..{} are in two shards' ranges",
                        range.start,
                        range.end.min(covered)
                    ),
                ));
            }
            covered = range.end;
            range.games_before = Some(games_before);
            games_before += entry.games;
            entry.path.clone_from(&path);
        }
        if covered < size {
            return Err(error(
                &path,
                format!(
                    "no shard holds its bytes {covered}..{size} (a shard of every range of \
                     the file is needed)"
                ),
            ));
        }
        i = end;
    }
    Ok(())
}

/// Removes a file when dropped (if it is still there).
struct RemoveOnDrop(PathBuf);

impl Drop for RemoveOnDrop {
    fn drop(&mut self) {
        let _ = fs::remove_file(&self.0);
    }
}

/// The input's entry in the manifest, `None` for standard input.
fn source_entry(source: &Source) -> io::Result<Option<SourceEntry>> {
    match &source.path {
        Some(path) => manifest::fingerprint(path).map(Some),
        None => Ok(None),
    }
}

/// A number above every segment file's in the folder, named or not.
fn next_segment_number(dir: &Path) -> u64 {
    let mut highest = 0;
    if let Ok(entries) = fs::read_dir(dir) {
        for entry in entries.flatten() {
            let name = entry.file_name();
            let name = name.to_string_lossy();
            if let Some(rest) = name.strip_prefix("segment-")
                && let Some(number) = rest.split('.').next().and_then(|n| n.parse::<u64>().ok())
            {
                highest = highest.max(number);
            }
        }
    }
    highest + 1
}

/// Removes the segment files of the folder that the manifest does not name, and manifests
/// never finished: what a run killed before its end left, or what a build anew replaced.
fn remove_strays(dir: &Path, manifest: Option<&Manifest>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if name.starts_with(manifest::STRAY_PREFIX) && name.ends_with(".partial") {
            let _ = fs::remove_file(entry.path());
            continue;
        }
        if !name.starts_with("segment-") {
            continue;
        }
        let named = manifest.is_some_and(|m| m.segments.iter().any(|s| s.file == name));
        if !named {
            let _ = fs::remove_file(entry.path());
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn read_source(
    gathering: &mut Gathering,
    source: &Source,
    opened: Opened,
    job: &Job<'_>,
    jobs: usize,
    read: ReadOptions,
    variations: bool,
    source_number: u32,
    start: Option<u64>,
) -> io::Result<()> {
    let game = match opened.format {
        Format::Pgn => Game::Chess,
        Format::Pdn => Game::Draughts,
    };
    match gathering.game {
        Some(held) if held != game => {
            return Err(io::Error::other(format!(
                "{} games; the index holds {} games (one index per game)",
                game.name(),
                held.name()
            )));
        }
        _ => gathering.game = Some(game),
    }
    let placed = source.placed(opened.rows);
    let started = std::time::Instant::now();
    let at_start = gathering.built.games;
    // Takes a game and gives it back, taken.
    let emit = |mut g: IndexedGame, before: u64, gathering: &mut Gathering| {
        for d in &g.errors {
            job.report.error(&match start {
                None => placed.diagnostic(d),
                // Lines are counted from where the range's reading starts, as `notate
                // parquet --range` places them.
                Some(start) => format!(
                    "{}@{start}:{}: {}: {}",
                    source.name, d.location, d.severity, d.kind
                ),
            });
        }
        g.offset += start.unwrap_or(0);
        gathering.positions += g.positions.len() as u64;
        if gathering.built.games.is_multiple_of(4096) {
            let games = gathering.built.games - at_start;
            let rate = games as f64 / started.elapsed().as_secs_f64().max(1e-3);
            job.report.counts(&format!(
                "{} games ({rate:.0}/s), {} positions",
                gathering.built.games, gathering.positions
            ));
        }
        gathering
            .take(&g, source_number, before)
            .map_err(|e| io::Error::other(e.to_string()))?;
        Ok(g)
    };
    match game {
        Game::Chess => {
            let rules = collection::rules::chess();
            pgn::openings::prepare();
            if variations {
                let task = IndexTask {
                    rules: &rules,
                    read,
                    variations,
                };
                pipeline::drive(&task, opened, jobs, &mut |g, before| {
                    emit(g, before, gathering).map(drop)
                })
            } else {
                let spares = spares::Spares::default();
                let task = main_lines::ChessMainLines {
                    rules: &rules,
                    read,
                    spares: &spares,
                };
                let mut spent = Vec::with_capacity(spares::Spares::BATCH);
                pipeline::drive(&task, opened, jobs, &mut |g, before| {
                    spent.push(emit(g, before, gathering)?);
                    if spent.len() == spares::Spares::BATCH {
                        spares.give(&mut spent);
                    }
                    Ok(())
                })
            }
        }
        Game::Draughts => {
            let rules = collection::rules::draughts(job.variant);
            let task = IndexTask {
                rules: &rules,
                read,
                variations,
            };
            pipeline::drive(&task, opened, jobs, &mut |g, before| {
                emit(g, before, gathering).map(drop)
            })
        }
    }
}

/// Writes the sorted positions: each as a tail, or in a block with its postings (and a
/// summary when many games reached it), after the entries of `filling` not yet stored;
/// gives back the entries left to store. The positions are grouped and encoded on a thread
/// of their own ([`encode_positions`]), and the summaries made and compressed on another;
/// this thread stores what they encoded, a [`Pending`] at a time, while they go on.
///
/// Why: done on one thread, the store's inserts and commits took about a third of its
/// time and the grouping and encoding most of the rest, and it held the writing up: while
/// it ran, 1.65 of two cores were busy, against 1.95 while the games were read.
fn write_positions(
    writer: &mut SegmentWriter,
    filling: Pending,
    sorter: Sorter,
    games: GameId,
    path: &Path,
    popular: u64,
    built: &mut Built,
) -> Result<Pending, IndexError> {
    let pushed = sorter.pushed();
    let sorted = sorter.finish().map_err(|e| IndexError::io(path, e))?;
    let (to_store, storing) = handover(filling.empty_like());
    std::thread::scope(|scope| {
        let encoding = scope.spawn(move || {
            encode_positions(sorted, filling, to_store, games, pushed, path, popular)
        });
        storing.store_all(writer, path)?;
        let encoded = encoding
            .join()
            .map_err(|_| IndexError::Input("the writing of positions stopped".into()))??;
        built.positions += encoded.positions;
        built.occurrences += encoded.occurrences;
        Ok(encoded.pending)
    })
}

/// Where full [`Pending`]s are handed over to be stored, on another thread, and given
/// back empty: two at most, one filling while the other is stored.
fn handover(spare: Pending) -> (Handover, Storing) {
    let (full_out, full) = mpsc::sync_channel::<Pending>(0);
    let (stored_out, stored) = mpsc::channel::<Pending>();
    let to_store = Handover {
        full: full_out,
        stored,
        spare: Some(spare),
    };
    (to_store, Storing { full, stored_out })
}

/// How the gathering of games and [`encode_positions`] hand their full [`Pending`]s over
/// to be stored, and take them back empty.
struct Handover {
    full: mpsc::SyncSender<Pending>,
    stored: mpsc::Receiver<Pending>,
    /// An empty one, not yet handed over.
    spare: Option<Pending>,
}

impl Handover {
    /// Hands `pending` over if it is full, an empty one in its place; `false` when the
    /// storing has stopped (on an error, which it gives).
    fn store_if_full(&mut self, pending: &mut Pending) -> bool {
        if !pending.is_full() {
            return true;
        }
        let empty = match self.spare.take() {
            Some(empty) => empty,
            None => match self.stored.recv() {
                Ok(empty) => empty,
                Err(_) => return false,
            },
        };
        self.full.send(std::mem::replace(pending, empty)).is_ok()
    }
}

/// The storing end of a [`Handover`].
struct Storing {
    full: mpsc::Receiver<Pending>,
    stored_out: mpsc::Sender<Pending>,
}

impl Storing {
    /// Stores each Pending handed over, until the Handover is dropped.
    fn store_all(self, writer: &mut SegmentWriter, path: &Path) -> Result<(), IndexError> {
        for mut filled in self.full {
            writer
                .store(&mut filled)
                .map_err(|e| IndexError::io(path, e))?;
            if self.stored_out.send(filled).is_err() {
                break;
            }
        }
        Ok(())
    }
}

/// What [`encode_positions`] encoded: the entries not yet stored, and how many positions
/// and occurrences (games and position, each once) it met.
struct Encoded {
    pending: Pending,
    positions: u64,
    occurrences: u64,
}

/// Groups the sorted occurrences by position and encodes each position as a tail, or in
/// a block with its postings, into `pending`, handed over whenever full. The summaries
/// are made and compressed on a thread of their own, and put in as they come back.
fn encode_positions(
    mut sorted: Sorted,
    mut pending: Pending,
    mut to_store: Handover,
    games: GameId,
    pushed: u64,
    path: &Path,
    popular: u64,
) -> Result<Encoded, IndexError> {
    let mut blocks = BlockWriter::new();
    let mut tails = TailWriter::new(pushed, games.0);
    let (mut positions, mut occurrences) = (0, 0);
    std::thread::scope(|scope| {
        /// How many summaries may be packing or packed, not yet stored.
        const PACKING_AHEAD: usize = 64;
        let mut packing_ahead = 0;
        let (to_pack, packing_queue) =
            mpsc::sync_channel::<(PositionKey, Vec<(Posting, Dims)>)>(PACKING_AHEAD);
        let (packed_out, packed) = mpsc::channel::<io::Result<PackedSummary>>();
        let packing = scope.spawn(move || {
            let mut packer = SummaryPacker::new()?;
            for (key, postings) in packing_queue {
                let summary = Summary::of(&postings);
                if packed_out.send(packer.pack(key, &summary)).is_err() {
                    break;
                }
            }
            Ok(())
        });
        let store_packed = |summary: io::Result<PackedSummary>, pending: &mut Pending| {
            let summary = summary.map_err(|e| IndexError::io(path, e))?;
            pending.summary(&summary);
            Ok::<_, IndexError>(())
        };
        let mut current: Option<PositionKey> = None;
        let mut postings: Vec<(Posting, Dims)> = Vec::new();
        let mut on_lines = true;
        let mut plain: Vec<Posting> = Vec::new();
        let mut reaching: Vec<GameId> = Vec::new();
        let mut flush = |key: PositionKey,
                         postings: &mut Vec<(Posting, Dims)>,
                         on_lines: bool,
                         pending: &mut Pending|
         -> Result<bool, IndexError> {
            positions += 1;
            reaching.clear();
            reaching.extend(postings.iter().map(|(p, _)| p.game));
            reaching.dedup();
            occurrences += reaching.len() as u64;
            if on_lines && reaching.len() < TAIL_GAMES {
                tails.push(tail_prefix(key), &reaching, pending);
            } else {
                plain.clear();
                plain.extend(postings.iter().map(|(p, _)| *p));
                blocks.push(key, &plain, pending);
            }
            if reaching.len() as u64 >= popular {
                // The summaries are stored at the same points in every build of the same
                // input, whatever the threads' pace, so that it writes the same file.
                if packing_ahead == PACKING_AHEAD {
                    let Ok(summary) = packed.recv() else {
                        return Ok(false);
                    };
                    store_packed(summary, pending)?;
                    packing_ahead -= 1;
                }
                let taken = std::mem::take(postings);
                if to_pack.send((key, taken)).is_err() {
                    return Ok(false);
                }
                packing_ahead += 1;
            }
            postings.clear();
            Ok(to_store.store_if_full(pending))
        };
        let mut sending = true;
        while let Some(o) = sorted.next().map_err(|e| IndexError::io(path, e))? {
            if current != Some(o.key()) {
                if let Some(key) = current {
                    sending = flush(key, &mut postings, on_lines, &mut pending)?;
                    if !sending {
                        break;
                    }
                }
                current = Some(o.key());
                on_lines = true;
            }
            on_lines &= o.on_line();
            // A game that played the same move from the position on its main line and in
            // a variation counts once.
            if postings
                .last()
                .is_some_and(|(p, _)| p.game == o.game() && p.code == o.code())
            {
                continue;
            }
            postings.push((
                Posting {
                    game: o.game(),
                    code: o.code(),
                },
                o.dims(),
            ));
        }
        if sending && let Some(key) = current {
            sending = flush(key, &mut postings, on_lines, &mut pending)?;
        }
        drop(to_pack);
        // Stopped early, the packing thread gave up on an error, which its end gives (or
        // the storing did, which gives its own).
        if sending {
            for summary in packed {
                store_packed(summary, &mut pending)?;
            }
        }
        match packing.join() {
            Ok(Ok(())) if sending => Ok(()),
            Ok(Err(e)) => Err(IndexError::io(path, e)),
            _ => Err(IndexError::Input("the packing of summaries stopped".into())),
        }
    })?;
    tails.finish(&mut pending);
    blocks.finish(&mut pending);
    Ok(Encoded {
        pending,
        positions,
        occurrences,
    })
}

/// Merges indexes (shards built apart, one per machine or per part of a collection) into
/// one in `dir`: their segments copied as they are, in the order given, their games and
/// inputs numbered after those of the shards before. The answers are those of one build
/// over the shards' inputs in that order. What `dir` held is replaced, as by a build.
///
/// Shards of byte ranges of one file ([`BuildOptions::range`]) are joined: given one
/// after another, in the order of their ranges, which together cover the file (from 0
/// to its size, no byte left out or read twice), they answer as one build over the whole
/// file, each game numbered in the file as that build numbers it.
///
/// # Errors
/// A shard that is not an index, shards of different games or built one with variations
/// and one without, an input held by two shards (but for ranges of it), ranges of a file
/// that leave bytes out, overlap, come out of order or apart, or files that cannot be
/// copied.
pub fn merge(shards: &[PathBuf], dir: &Path) -> Result<Built, IndexError> {
    fs::create_dir_all(dir).map_err(|e| IndexError::io(dir, e))?;
    let mut merged: Option<Manifest> = None;
    let mut copies = Vec::new();
    let mut number = next_segment_number(dir);
    for shard in shards {
        // Opened whole, so that a damaged shard is an error before anything is copied.
        crate::Index::open_parts(shard)?;
        let manifest = Manifest::load(shard)?;
        let into = merged.get_or_insert_with(|| {
            let mut m = Manifest::new(&manifest.game);
            m.variations = manifest.variations;
            m
        });
        if into.game != manifest.game || into.variations != manifest.variations {
            return Err(IndexError::Input(format!(
                "{}: an index of {} games{}, and the shards before it are of {} games{}",
                shard.display(),
                manifest.game,
                if manifest.variations {
                    " with variations"
                } else {
                    ""
                },
                into.game,
                if into.variations {
                    " with variations"
                } else {
                    ""
                },
            )));
        }
        if let Some(twice) = manifest.sources.iter().find(|s| {
            into.sources
                .iter()
                .any(|o| o.same_file(s) && (o.range.is_none() || s.range.is_none()))
        }) {
            return Err(IndexError::Input(format!(
                "{}: holds {}, which a shard before it holds too",
                shard.display(),
                twice.path
            )));
        }
        let first_source = u32::try_from(into.sources.len())
            .map_err(|_| IndexError::Input("too many inputs".into()))?;
        for segment in &manifest.segments {
            let first_game = u32::try_from(into.games())
                .ok()
                .filter(|&f| u64::from(f) + segment.games <= u64::from(u32::MAX))
                .ok_or_else(|| {
                    IndexError::Input("an index holds at most 4,294,967,295 games".into())
                })?;
            let file = format!("segment-{number:06}.seg");
            number += 1;
            copies.push((shard.join(&segment.file), file.clone()));
            into.segments.push(SegmentEntry {
                file,
                first_game,
                games: segment.games,
                first_source: first_source + segment.first_source,
            });
        }
        into.sources.extend(manifest.sources.iter().cloned());
    }
    let Some(mut manifest) = merged else {
        return Err(IndexError::Input("no index to merge".into()));
    };
    join_ranges(&mut manifest.sources)?;
    // Copied under temporary names, then renamed into place, then named by the manifest:
    // a merge killed halfway leaves what `dir` held.
    let mut cleanups = Vec::new();
    for (from, file) in &copies {
        let partial = dir.join(format!("{file}.partial"));
        cleanups.push(RemoveOnDrop(partial.clone()));
        fs::copy(from, &partial).map_err(|e| IndexError::io(from, e))?;
        fs::File::open(&partial)
            .and_then(|f| f.sync_all())
            .map_err(|e| IndexError::io(&partial, e))?;
    }
    for (_, file) in &copies {
        let partial = dir.join(format!("{file}.partial"));
        let path = dir.join(file);
        fs::rename(&partial, &path).map_err(|e| IndexError::io(&path, e))?;
    }
    manifest::sync_dir(dir)?;
    drop(cleanups);
    manifest.store(dir)?;
    remove_strays(dir, Some(&manifest));
    Ok(Built {
        total_games: manifest.games(),
        games: manifest.games(),
        ..Built::default()
    })
}
