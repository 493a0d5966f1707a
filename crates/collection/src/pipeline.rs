//! Reading one input with one thread or several, with output in input order.
//!
//! One thread reads the input straight through the notation reader: memory is bounded
//! by the largest game.
//!
//! Several threads: a splitter cuts the decompressed stream into chunks of about
//! [`CHUNK_BYTES`] at game boundaries, a pool of workers reads each chunk as if it were a
//! file of its own, and the calling thread puts the workers' results back in input order
//! and emits them. A fixed number of credits bounds the chunks in flight (read, being
//! worked on, or waiting for an earlier chunk), so memory stays constant however long the
//! input and however uneven the chunks. A credit is a chunk's buffer, handed back once
//! the chunk is emitted: buffers are allocated once, not once per chunk (the pages of a
//! fresh megabyte are cleared by the kernel, and freeing it in another thread than the
//! one that allocated it costs both).
//!
//! A worker reads a chunk in place: the chunk's buffer becomes its reader's buffer
//! ([`notation::Reader::from_vec`]), so that a large game is held once, in the chunk, and
//! not copied into a reader's buffer as large. A chunk's buffer grows to hold the game it
//! ends with; one grown far past [`CHUNK_BYTES`] (for a large game) is not kept as a
//! credit, so that the games after a large one do not keep its memory.
//!
//! The splitter's buffer grows by fallible allocation: when it cannot hold more of a
//! game, the chunk goes out as it is, marked as cut short, and the rest of the game is
//! skipped up to the next line that starts with `[`, as the reader skips a game too
//! large; the worker's reader reports the game ([`notation::DiagnosticKind::GameOutOfMemory`]).
//!
//! A chunk read on its own numbers its lines and games from zero. Its [`Origin`] (the
//! lines and bytes before it, counted by the splitter) puts lines back right in the
//! worker; games are renumbered by the emitter, the only one who knows how many games
//! the earlier chunks held. The text of a table (a Parquet input, [`crate::table`]) is
//! placed by row: its origins say so ([`Origin::rows`]).

use std::collections::BTreeMap;
use std::io::{self, Read};
use std::sync::mpsc::{Receiver, SyncSender, channel, sync_channel};
use std::sync::{Arc, Mutex};

use notation::{Diagnostic, DiagnosticKind, Dialect, ReadOptions, Reader, count_line_ends};

use crate::input::Opened;
use crate::table::place_in_row;

/// The size a chunk is cut at (the next game boundary after it).
pub const CHUNK_BYTES: usize = 1 << 20;

/// A chunk's buffer larger than this (it held a large game) is dropped once its chunk is
/// emitted rather than kept for the next chunk.
const KEPT_BUFFER_BYTES: usize = 4 * CHUNK_BYTES;

/// A buffer kept from one chunk or game to the next: what [`shrink_kept`] measures.
pub(crate) trait Kept: Default {
    /// The bytes it has room for.
    fn room(&self) -> usize;
}

impl<T> Kept for Vec<T> {
    fn room(&self) -> usize {
        self.capacity().saturating_mul(size_of::<T>())
    }
}

impl Kept for String {
    fn room(&self) -> usize {
        self.capacity()
    }
}

/// Replaces `buffer` with an empty one when it has room for more than `bytes` (it held
/// a large game), so that a buffer kept for reuse does not keep a large game's memory.
pub(crate) fn shrink_kept<B: Kept>(buffer: &mut B, bytes: usize) {
    if buffer.room() > bytes {
        *buffer = B::default();
    }
}

/// Where a chunk starts in its input.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Origin {
    /// Lines before the chunk.
    pub lines: u64,
    /// Bytes before the chunk.
    pub offset: u64,
    /// Whether the input is a table's text: a diagnostic's line is then made its row,
    /// and its column the column within the row's movetext
    /// ([`crate::table::place_in_row`]).
    pub rows: bool,
}

impl Origin {
    /// Moves a diagnostic found in the chunk to its place in the input (for a table,
    /// its row). A diagnostic with no known location (line 0) keeps it.
    pub fn place(&self, d: &mut Diagnostic) {
        if d.location.line > 0 {
            d.location.line += self.lines;
            d.location.offset += self.offset;
            if self.rows {
                place_in_row(&mut d.location);
            }
        }
    }
}

/// What a job's pipeline reads: an input's text, and whether it is a table's
/// ([`Opened::rows`]).
pub struct Stream {
    /// The text.
    pub reader: Box<dyn Read + Send>,
    /// Whether it is a table's, placed by row.
    pub rows: bool,
}

impl From<Box<dyn Read + Send>> for Stream {
    fn from(reader: Box<dyn Read + Send>) -> Stream {
        Stream {
            reader,
            rows: false,
        }
    }
}

impl From<Opened> for Stream {
    fn from(opened: Opened) -> Stream {
        Stream {
            reader: opened.reader,
            rows: opened.rows,
        }
    }
}

/// What a task reads: bytes already in memory, then a stream. With one thread, no bytes
/// and the whole input; with several, a chunk and nothing after it.
pub struct Input<'a> {
    /// A chunk, read in place: taken over as the reader's buffer, to be handed back
    /// ([`Input::give_back`]) for the next chunk to reuse.
    pub bytes: &'a mut Vec<u8>,
    /// What follows the bytes: nothing when they are a chunk (`None`).
    pub rest: Option<&'a mut dyn Read>,
    /// Whether the bytes end inside a game that could not be held in memory (the stream
    /// goes on after it): the reader reports that game.
    pub cut_short: bool,
    /// Whether they start right after a game that ended with a termination marker, with
    /// no empty line between them.
    pub unseparated: bool,
    /// Whether they are a table's text, whose lines are as long as its rows' movetexts:
    /// a long line is not noted.
    pub rows: bool,
}

impl<'a> Input<'a> {
    /// A notation reader of the input, which takes the bytes over.
    pub fn reader(
        &mut self,
        dialect: Dialect,
        options: ReadOptions,
    ) -> Reader<&mut (dyn Read + 'a)> {
        let bytes = std::mem::take(self.bytes);
        let whole = self.rest.is_none();
        let rest: &mut (dyn Read + 'a) = match &mut self.rest {
            Some(rest) => &mut **rest,
            // Never read (see `ends_with_bytes`). `Empty` has no size: leaking a box of
            // it allocates nothing.
            None => Box::leak(Box::new(io::empty())),
        };
        let mut reader = Reader::from_vec(rest, bytes, dialect, options);
        if self.cut_short {
            reader = reader.cut_short();
        }
        if whole {
            reader = reader.ends_with_bytes();
        }
        if self.unseparated {
            reader = reader.follows_marked_game();
        }
        if self.rows {
            reader = reader.long_lines_allowed();
        }
        reader
    }

    /// Hands a reader's buffer back, for the next chunk (a task that returns early
    /// need not: the next chunk then gets a buffer of its own).
    pub fn give_back(&mut self, buffer: Vec<u8>) {
        *self.bytes = buffer;
    }
}

/// The work of a subcommand on one stream: a whole input, or one chunk of it.
pub trait Task: Sync {
    /// What is emitted, in input order: typically one per game.
    type Item: Send;

    /// Reads `input`, passing each item to `sink`. Returns the number of games read, by
    /// which the games of later chunks are renumbered.
    fn run(
        &self,
        input: Input<'_>,
        origin: Origin,
        sink: &mut dyn FnMut(Self::Item) -> io::Result<()>,
    ) -> io::Result<u64>;

    /// The size of the chunks the input is cut into for the workers. Every chunk in
    /// flight holds its items until they are emitted: a task whose items are large
    /// beside the text they come from takes smaller chunks, so that the memory they
    /// hold stays bounded by about the same amount.
    fn chunk_bytes(&self) -> usize {
        CHUNK_BYTES
    }
}

/// Runs `task` over `input` (an input [`Opened`], or a stream of text) with `jobs`
/// threads, calling `emit` with each item in input order and the number of games
/// before the item's chunk (0 with one thread), to add to the chunk-relative game
/// indexes the item holds.
pub fn drive<T: Task>(
    task: &T,
    input: impl Into<Stream>,
    jobs: usize,
    emit: &mut dyn FnMut(T::Item, u64) -> io::Result<()>,
) -> io::Result<()> {
    let Stream {
        reader: mut input,
        rows,
    } = input.into();
    if jobs <= 1 {
        let input = Input {
            bytes: &mut Vec::new(),
            rest: Some(&mut input),
            cut_short: false,
            unseparated: false,
            rows,
        };
        let origin = Origin {
            rows,
            ..Origin::default()
        };
        task.run(input, origin, &mut |item| emit(item, 0))?;
        return Ok(());
    }
    parallel(task, input, rows, jobs, emit)
}

/// What a worker hands back for one chunk.
struct Done<I> {
    items: Vec<I>,
    games: u64,
}

type Job = (u64, Chunk);

/// A worker's report on a chunk: its place, what it gave, and its buffer to reuse.
type Report<I> = (u64, io::Result<Done<I>>, Vec<u8>);

fn parallel<T: Task>(
    task: &T,
    input: Box<dyn Read + Send>,
    rows: bool,
    jobs: usize,
    emit: &mut dyn FnMut(T::Item, u64) -> io::Result<()>,
) -> io::Result<()> {
    // Credits: a chunk is read only with one, and gives it back once emitted.
    let in_flight = 2 * jobs + 2;
    let (credit_tx, credit_rx) = sync_channel::<Vec<u8>>(in_flight);
    for _ in 0..in_flight {
        // The channel has room for every credit; a failure is impossible and harmless.
        let _ = credit_tx.send(Vec::new());
    }
    let (work_tx, work_rx) = sync_channel::<Job>(jobs);
    // The workers hold the only handles on the jobs: once they have all stopped (the
    // emitter failed), the splitter's next job finds no receiver and it stops too,
    // rather than wait for room in the queue forever.
    let work_rx = Arc::new(Mutex::new(work_rx));
    let workers_rx: Vec<_> = (0..jobs).map(|_| Arc::clone(&work_rx)).collect();
    drop(work_rx);
    let (done_tx, done_rx) = channel::<Report<T::Item>>();

    std::thread::scope(|scope| {
        let splitter_done = done_tx.clone();
        let chunk_bytes = task.chunk_bytes();
        scope.spawn(move || split(input, rows, chunk_bytes, credit_rx, work_tx, splitter_done));
        for work_rx in workers_rx {
            let done_tx = done_tx.clone();
            scope.spawn(move || work(task, &work_rx, &done_tx));
        }
        drop(done_tx);
        let result = reorder(done_rx, &credit_tx, emit);
        // Whatever happened, let the other threads run out: without credits the
        // splitter stops, and without a receiver the workers do.
        drop(credit_tx);
        result
    })
}

/// The splitter's loop: a credit, a chunk, a job; an I/O error ends the input as the
/// last "chunk", so that it is reported after everything read before it.
fn split(
    input: Box<dyn Read + Send>,
    rows: bool,
    chunk_bytes: usize,
    credits: Receiver<Vec<u8>>,
    work: SyncSender<Job>,
    done: std::sync::mpsc::Sender<Report<impl Send>>,
) {
    let mut splitter = Splitter::new(input, chunk_bytes);
    splitter.origin.rows = rows;
    let mut seq = 0;
    loop {
        let Ok(buffer) = credits.recv() else {
            return;
        };
        match splitter.next_chunk_in(buffer) {
            Ok(Some(chunk)) => {
                if work.send((seq, chunk)).is_err() {
                    return;
                }
            }
            Ok(None) if seq == 0 => {
                // An empty input is read all the same, as one thread reads it: its reader
                // says that it holds no game.
                let empty = Chunk {
                    bytes: Vec::new(),
                    origin: splitter.origin,
                    cut_short: false,
                    unseparated: false,
                };
                let _ = work.send((seq, empty));
                return;
            }
            Ok(None) => return,
            Err(e) => {
                let _ = done.send((seq, Err(e), Vec::new()));
                return;
            }
        }
        seq += 1;
    }
}

fn work<T: Task>(
    task: &T,
    jobs: &Mutex<Receiver<Job>>,
    done: &std::sync::mpsc::Sender<Report<T::Item>>,
) {
    loop {
        // A poisoned lock means another worker panicked; stop quietly, the emitter
        // reports the missing chunk as an error.
        let job = match jobs.lock() {
            Ok(rx) => rx.recv(),
            Err(_) => return,
        };
        let Ok((seq, mut chunk)) = job else {
            return;
        };
        let mut items = Vec::new();
        let input = Input {
            bytes: &mut chunk.bytes,
            rest: None,
            cut_short: chunk.cut_short,
            unseparated: chunk.unseparated,
            rows: chunk.origin.rows,
        };
        let result = task
            .run(input, chunk.origin, &mut |item| {
                items.push(item);
                Ok(())
            })
            .map(|games| Done { items, games });
        if done.send((seq, result, chunk.bytes)).is_err() {
            return;
        }
    }
}

/// Puts the chunks back in order and emits them.
fn reorder<I>(
    done: Receiver<Report<I>>,
    credits: &SyncSender<Vec<u8>>,
    emit: &mut dyn FnMut(I, u64) -> io::Result<()>,
) -> io::Result<()> {
    let mut waiting = BTreeMap::new();
    let mut next = 0u64;
    let mut games = 0u64;
    for (seq, result, mut buffer) in done {
        // A buffer that held a large game is freed now, before the chunk's items are
        // emitted.
        shrink_kept(&mut buffer, KEPT_BUFFER_BYTES);
        waiting.insert(seq, (result, buffer));
        while let Some((result, buffer)) = waiting.remove(&next) {
            let chunk = result?;
            for item in chunk.items {
                emit(item, games)?;
            }
            games += chunk.games;
            next += 1;
            // The splitter may have stopped already; a lost credit is then harmless.
            let _ = credits.try_send(buffer);
        }
    }
    if waiting.is_empty() {
        Ok(())
    } else {
        Err(io::Error::other(
            "a worker thread stopped before finishing its part of the input",
        ))
    }
}

/// A piece of the input, for a worker to read as if it were a file of its own.
pub struct Chunk {
    /// The bytes.
    pub bytes: Vec<u8>,
    /// Where they start in the input.
    pub origin: Origin,
    /// Whether they end inside a game that could not be held in memory; the input goes
    /// on at a later line (see [`Splitter::next_chunk_in`]).
    pub cut_short: bool,
    /// Whether they start right after a game that ended with a termination marker, with
    /// no empty line between them (files of one game to a line).
    pub unseparated: bool,
}

/// Cuts a stream into chunks that end at game boundaries.
///
/// A boundary is the start of a line that opens a tag (`[`), after an empty line, after
/// a termination marker: where every reader agrees that a game ends and the next begins,
/// so that a chunk read alone gives what the whole input read at once gives. A stream
/// with no such place for a long stretch is cut at weaker places (an empty line before
/// `[`, then any line end) rather than held whole in memory.
pub struct Splitter<R> {
    inner: R,
    carry: Vec<u8>,
    eof: bool,
    target: usize,
    origin: Origin,
    /// Whether the next chunk starts right after a game ended by a termination marker,
    /// with no empty line between them.
    next_unseparated: bool,
    /// The error that ended the input, given after the chunk of what was read before it.
    failed: Option<io::Error>,
}

impl<R: Read> Splitter<R> {
    /// A splitter aiming at chunks of `target` bytes.
    pub fn new(inner: R, target: usize) -> Self {
        Splitter {
            inner,
            carry: Vec::new(),
            eof: false,
            target: target.max(1024),
            origin: Origin::default(),
            next_unseparated: false,
            failed: None,
        }
    }

    /// The splitter of a table's text (`rows`: [`Origin::rows`]), whose chunks' lines are
    /// its rows.
    pub fn placed_by_row(mut self, rows: bool) -> Self {
        self.origin.rows = rows;
        self
    }

    /// The next chunk, or `None` at the end of the stream. The chunk is read into `buf`,
    /// an earlier chunk's buffer to reuse (what it holds is dropped).
    ///
    /// The buffer grows with the game the chunk ends with, by fallible allocation: a
    /// game's size comes from the input, and one that does not fit in the memory left
    /// must be reported as that game's error, not abort the program. When the buffer
    /// cannot grow, the chunk is what it holds, cut short inside that game, and the rest
    /// of the game is skipped, up to the next line that starts with `[` (as the reader
    /// skips a game too large): the worker's reader reports the game.
    ///
    /// An input that fails gives first what it held before the error (its last game cut
    /// short, which the worker's reader reports), then the error.
    pub fn next_chunk_in(&mut self, mut buf: Vec<u8>) -> io::Result<Option<Chunk>> {
        if let Some(e) = self.failed.take() {
            return Err(e);
        }
        // The buffer's bytes are written over, not cleared: the part of it an earlier
        // chunk used is not filled with zeros again before the input is read into it.
        // `filled` is how much of it holds this chunk.
        let carried = self.carry.len();
        if buf.len() < carried {
            let more = carried - buf.len();
            if !make_room(&mut buf, more, 4 * self.target) {
                buf.clear();
                return self.cut_short(buf).map(Some);
            }
            buf.resize(carried, 0);
        }
        buf[..carried].copy_from_slice(&self.carry);
        let mut filled = carried;
        // Room for a chunk and the start of the next game, taken once: a buffer reused
        // for chunk after chunk is not grown (and copied whole) each time. (If even that
        // cannot be had, the loop below grows it as it must, and says so if it cannot.)
        let room = self.target + self.target / 4;
        if buf.capacity() < room {
            let more = room.saturating_sub(buf.len());
            let _ = make_room(&mut buf, more, 4 * self.target);
        }
        let mut goal = self.target;
        let mut searched = 0;
        loop {
            if !self.eof && filled < goal {
                if buf.len() < goal {
                    let more = goal - buf.len();
                    if !make_room(&mut buf, more, 4 * self.target) {
                        buf.truncate(filled);
                        return self.cut_short(buf).map(Some);
                    }
                    buf.resize(goal, 0);
                }
                filled += self.fill(&mut buf[filled..goal]);
            }
            if self.eof {
                if filled == 0 {
                    return self.failed.take().map_or(Ok(None), Err);
                }
                buf.truncate(filled);
                return Ok(Some(self.cut(buf, None)));
            }
            // Look near the end, and take the last boundary there, so that the chunk is
            // close to its target and little is carried over into the next one.
            let text = &buf[..filled];
            let from = searched.max(filled.saturating_sub(self.target / 4));
            let strength = if filled < 16 * self.target {
                Strength::AfterMarker
            } else if filled < 64 * self.target {
                Strength::BlankLine
            } else {
                Strength::LineEnd
            };
            if let Some(boundary) = find_boundary(text, from, strength) {
                buf.truncate(filled);
                let chunk = self.cut(buf, Some(boundary.at));
                // Said of the chunk that starts there, the next one.
                self.next_unseparated = boundary.unseparated;
                return Ok(Some(chunk));
            }
            searched = filled.saturating_sub(16);
            goal = filled + self.target;
        }
    }

    /// Reads until `buf` is full or the input ends (or fails: the error is kept for after
    /// the bytes read before it); returns the bytes read.
    fn fill(&mut self, buf: &mut [u8]) -> usize {
        let mut n = 0;
        while n < buf.len() {
            match self.inner.read(&mut buf[n..]) {
                Ok(0) => break,
                Ok(k) => n += k,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => {
                    self.failed = Some(e);
                    break;
                }
            }
        }
        self.eof = n < buf.len();
        n
    }

    fn cut(&mut self, mut buf: Vec<u8>, at: Option<usize>) -> Chunk {
        self.carry.clear();
        if let Some(at) = at {
            self.carry.extend_from_slice(&buf[at..]);
            buf.truncate(at);
        }
        let origin = self.origin;
        self.origin.lines += count_line_ends(&buf);
        self.origin.offset += buf.len() as u64;
        Chunk {
            bytes: buf,
            origin,
            cut_short: false,
            unseparated: std::mem::take(&mut self.next_unseparated),
        }
    }

    /// The chunk `buf`, cut short inside a game that could not be held; the input is
    /// skipped up to the next line that starts with `[` (or its end), where the next
    /// chunk starts.
    fn cut_short(&mut self, buf: Vec<u8>) -> io::Result<Chunk> {
        let mut chunk = self.cut(buf, None);
        chunk.cut_short = true;
        let mut line_feed = chunk.bytes.last() == Some(&b'\n');
        let mut carriage_return = chunk.bytes.last() == Some(&b'\r');
        let mut block = [0u8; 1 << 13];
        while !self.eof {
            let n = self.fill(&mut block);
            let block = &block[..n];
            let start = if line_feed && block.first() == Some(&b'[') {
                Some(0)
            } else {
                memchr::memmem::find(block, b"\n[").map(|i| i + 1)
            };
            let skipped = &block[..start.unwrap_or(n)];
            // A CR LF split between two blocks is one line end, not two.
            let split = carriage_return && skipped.first() == Some(&b'\n');
            self.origin.lines += count_line_ends(skipped) - u64::from(split);
            self.origin.offset += skipped.len() as u64;
            if let Some(start) = start {
                self.carry.extend_from_slice(&block[start..]);
                break;
            }
            line_feed = block.last() == Some(&b'\n');
            carriage_return = block.last() == Some(&b'\r');
        }
        Ok(chunk)
    }
}

/// Makes room for `more` bytes in `buf`, by fallible allocation; false when even `more`
/// cannot be had. Past `large` bytes the buffer holds a large game, and grows as the
/// reader grows one ([`notation::reserve_game_room`]).
fn make_room(buf: &mut Vec<u8>, more: usize, large: usize) -> bool {
    if buf.len() < large {
        return buf.capacity() - buf.len() >= more || buf.try_reserve(more).is_ok();
    }
    notation::reserve_game_room(buf, more)
}

/// How sure a boundary must be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Strength {
    /// `marker`, empty line, `[`.
    AfterMarker,
    /// Empty line, `[`.
    BlankLine,
    /// Any line end.
    LineEnd,
}

/// Where a chunk may end and the next begin.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Boundary {
    /// The index where the next chunk starts.
    at: usize,
    /// Whether the game before ended with a termination marker and no empty line
    /// separates them.
    unseparated: bool,
}

/// The last boundary at or after `from`.
///
/// After a termination marker, a line that opens a tag starts a new game, empty line or
/// not (files of one game to a line have none), unless the marker and the tag are in a
/// comment: without an empty line, the line must look like a tag pair (`[Name "`) and no
/// brace comment may be open before it, as far as the chunk shows (a `{` in a string
/// may make it seem so: that boundary is then passed over).
fn find_boundary(buf: &[u8], from: usize, strength: Strength) -> Option<Boundary> {
    let from = from.min(buf.len());
    if strength == Strength::LineEnd {
        return memchr::memrchr(b'\n', &buf[from..]).map(|i| Boundary {
            at: from + i + 1,
            unseparated: false,
        });
    }
    for i in memchr::memmem::rfind_iter(&buf[from..], b"\n[") {
        let at = from + i + 1;
        let before = &buf[..at - 1];
        let blank = ends_blank_line(before);
        let boundary = |unseparated| Some(Boundary { at, unseparated });
        match strength {
            Strength::BlankLine if blank => return boundary(false),
            Strength::AfterMarker if ends_with_marker(before) => {
                if blank {
                    return boundary(false);
                }
                if looks_like_a_tag(&buf[at..]) && !in_brace_comment(before) {
                    return boundary(true);
                }
            }
            _ => {}
        }
    }
    None
}

/// Whether `text` starts as a tag pair does: `[`, a name that starts with a capital, a
/// space and a quote.
pub fn looks_like_a_tag(text: &[u8]) -> bool {
    let name = text
        .iter()
        .skip(1)
        .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_')
        .count();
    text.get(1).is_some_and(u8::is_ascii_uppercase) && text[1 + name..].starts_with(b" \"")
}

/// Whether a brace comment is open at the end of `text`, which starts outside one: its
/// last `{` comes after its last `}`.
fn in_brace_comment(text: &[u8]) -> bool {
    match (memchr::memrchr(b'{', text), memchr::memrchr(b'}', text)) {
        (Some(open), Some(close)) => open > close,
        (Some(_), None) => true,
        (None, _) => false,
    }
}

/// Whether the text before a line feed ends with an empty line: a line feed, then
/// nothing the reader would not read as white space of that line end (a carriage
/// return, or the `\r` some programs write as text before each line end).
fn ends_blank_line(before: &[u8]) -> bool {
    let line = before.strip_suffix(b"\r").unwrap_or(before);
    let line = line.strip_suffix(b"\\r").unwrap_or(line);
    line.ends_with(b"\n")
}

/// Whether the text ends (before white space, and the `\r` written as text before line
/// ends) with a termination marker standing as a token of its own.
pub fn ends_with_marker(text: &[u8]) -> bool {
    let mut text = text;
    loop {
        let trimmed = text.trim_ascii_end();
        match trimmed.strip_suffix(b"\\r") {
            Some(rest) => text = rest,
            None => {
                text = trimmed;
                break;
            }
        }
    }
    let start = text
        .iter()
        .rposition(|b| b.is_ascii_whitespace() || matches!(b, b')' | b'}'))
        .map_or(0, |i| i + 1);
    matches!(
        &text[start..],
        b"1-0" | b"0-1" | b"1/2-1/2" | b"*" | b"2-0" | b"0-2" | b"1-1" | b"0-0" | b"-"
    )
}

/// Drops the notes a reader gives once per input (a byte order mark, tabs, lone carriage
/// returns, `\r` written as text, a long line) when a later chunk gives them again: read
/// whole, the input would have given each once.
#[derive(Default)]
pub struct OncePerInput {
    seen: [bool; 5],
}

impl OncePerInput {
    /// Whether to keep `d`.
    pub fn keep(&mut self, d: &Diagnostic) -> bool {
        let slot = match d.kind {
            DiagnosticKind::ByteOrderMark => 0,
            DiagnosticKind::Tab => 1,
            DiagnosticKind::LoneCarriageReturn => 2,
            DiagnosticKind::LongLine { .. } => 3,
            DiagnosticKind::LiteralCarriageReturn => 4,
            _ => return true,
        };
        !std::mem::replace(&mut self.seen[slot], true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chunks(text: &[u8], target: usize) -> Vec<(Vec<u8>, Origin)> {
        let mut s = Splitter::new(text, target);
        let mut out = Vec::new();
        while let Some(c) = s.next_chunk_in(Vec::new()).expect("in memory") {
            assert!(!c.cut_short);
            out.push((c.bytes, c.origin));
        }
        out
    }

    #[test]
    fn cuts_after_markers_only() {
        let game = b"[Event \"x\"]\n[Site \"y\"]\n\n1. e4 { a\n\n[not a tag] } e5 1-0\n\n";
        let text = game.repeat(200);
        let parts = chunks(&text, 1024);
        assert!(parts.len() > 3);
        let joined: Vec<u8> = parts.iter().flat_map(|(c, _)| c.clone()).collect();
        assert_eq!(joined, text);
        let mut lines = 0;
        let mut offset = 0;
        for (chunk, origin) in &parts {
            assert!(chunk.starts_with(b"[Event"));
            assert_eq!(origin.lines, lines);
            assert_eq!(origin.offset, offset);
            lines += count_line_ends(chunk);
            offset += chunk.len() as u64;
        }
    }

    #[test]
    fn cuts_text_without_boundaries_at_line_ends() {
        let text = b"e4 e5 Nf3
"
        .repeat(20_000);
        let parts = chunks(&text, 1024);
        assert!(parts.len() > 1);
        assert!(parts.iter().all(|(c, _)| c.ends_with(b"\n")));
    }

    #[test]
    fn cuts_between_games_written_with_literal_carriage_returns() {
        // A game's first tag line has none; every other line ends with `\r`, and a line
        // holding only `\r` is the empty line between games.
        let game = b"[Event \"x\"]\n[Site \"y\"]\\r\n\\r\n1. 32-28 19-23\\r\n2. 33-29 -\\r\n\\r\n";
        let text = game.repeat(200);
        let parts = chunks(&text, 1024);
        assert!(parts.len() > 3);
        assert!(parts.iter().all(|(c, _)| c.starts_with(b"[Event")));
        assert!(ends_with_marker(b"2. 33-29 *\\r\n\\r"));
        assert!(ends_blank_line(b"2-0\r\n\\r\r"));
        assert!(!ends_blank_line(b"2-0\\r"));
    }

    #[test]
    fn a_chunk_cut_short_skips_its_game_to_the_next_tag_line() {
        // The splitter held `held` and could hold no more: the rest of the game, over
        // several of the blocks it skips in, a CR LF split between two of them, is
        // skipped up to the next line that starts with `[`.
        let held = b"[Event \"a\"]\n\n1. e4 *\n\n[Event \"b\"]\n\n1. d4 {".to_vec();
        let mut rest = vec![b'x'; (1 << 13) - 1];
        rest.extend_from_slice(b"\r\n [x\r\nyy\n\n");
        rest.extend(std::iter::repeat_n(b'y', 20_000));
        rest.extend_from_slice(b"} *\n[Event \"c\"]\n\n1. c4 *\n");
        let mut s = Splitter::new(&rest[..], 1024);
        let chunk = s.cut_short(held.clone()).expect("in memory");
        assert!(chunk.cut_short);
        assert_eq!(chunk.bytes, held);
        assert_eq!(chunk.origin, Origin::default());
        let next = s
            .next_chunk_in(Vec::new())
            .expect("in memory")
            .expect("a chunk");
        assert_eq!(next.bytes, b"[Event \"c\"]\n\n1. c4 *\n");
        let skipped = rest.len() - next.bytes.len();
        let mut whole = held.clone();
        whole.extend_from_slice(&rest[..skipped]);
        assert_eq!(next.origin.offset, whole.len() as u64);
        assert_eq!(next.origin.lines, count_line_ends(&whole));
        assert!(s.next_chunk_in(Vec::new()).expect("in memory").is_none());
    }

    #[test]
    fn cuts_between_games_of_one_line_each_after_their_markers() {
        let game = b"[Event \"x\"]\n[Result \"-\"]\n1.32-28 19-23 2.28x19 14x23 -\n";
        let text = game.repeat(200);
        let mut s = Splitter::new(&text[..], 1024);
        let mut chunks = Vec::new();
        while let Some(c) = s.next_chunk_in(Vec::new()).expect("in memory") {
            chunks.push(c);
        }
        assert!(chunks.len() > 3);
        let joined: Vec<u8> = chunks.iter().flat_map(|c| c.bytes.clone()).collect();
        assert_eq!(joined, text);
        assert!(chunks.iter().all(|c| c.bytes.starts_with(b"[Event")));
        // Each chunk but the first starts right after a game, with no empty line.
        assert!(!chunks[0].unseparated);
        assert!(chunks[1..].iter().all(|c| c.unseparated));
        // Not inside a comment, and only before a line like a tag pair.
        assert_eq!(
            find_boundary(b"1. e4 {x 1-0\n[Event \"y\"]", 0, Strength::AfterMarker),
            None
        );
        assert_eq!(
            find_boundary(b"1. e4 1-0\n[not a tag]", 0, Strength::AfterMarker),
            None
        );
        assert_eq!(
            find_boundary(b"1. e4 {x} 1-0\n[Event \"y\"]", 0, Strength::AfterMarker),
            Some(Boundary {
                at: 14,
                unseparated: true
            })
        );
    }

    #[test]
    fn markers() {
        assert!(ends_with_marker(b"1. e4 1-0\n\n"));
        assert!(ends_with_marker(b"1. e4 *\r\n"));
        assert!(!ends_with_marker(b"1. e4 e5\n"));
        assert!(!ends_with_marker(b"[Result \"1-0\"]\n"));
        assert_eq!(count_line_ends(b"a\r\nb\rc\n"), 3);
    }
    /// A reader of `text` that fails once it has given `good` bytes of it.
    struct FailsAfter<'a> {
        text: &'a [u8],
        good: usize,
    }

    impl Read for FailsAfter<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            if self.good == 0 {
                return Err(io::Error::other("the disk failed"));
            }
            let n = buf.len().min(self.good).min(100);
            buf[..n].copy_from_slice(&self.text[..n]);
            self.text = &self.text[n..];
            self.good -= n;
            Ok(n)
        }
    }

    #[test]
    fn an_input_that_fails_gives_what_it_read_before_the_error() {
        let game = b"[Event \"x\"]\n\n1. e4 e5 1-0\n\n";
        let text = game.repeat(500);
        for good in [0, 1, 700, 5000, text.len() - 3] {
            let mut s = Splitter::new(FailsAfter { text: &text, good }, 1024);
            let mut read = Vec::new();
            let error = loop {
                match s.next_chunk_in(Vec::new()) {
                    Ok(Some(c)) => read.extend_from_slice(&c.bytes),
                    Ok(None) => panic!("{good}: the input ended without its error"),
                    Err(e) => break e,
                }
            };
            assert_eq!(read, &text[..good], "{good}");
            assert_eq!(error.to_string(), "the disk failed");
            assert!(s.next_chunk_in(Vec::new()).expect("ended").is_none());
        }
    }

    /// Each chunk one item, its size; every chunk but the first read slowly, so that
    /// the reading is ahead of the emitting when the emitting fails.
    struct SlowChunks;

    impl Task for SlowChunks {
        type Item = usize;

        fn run(
            &self,
            input: Input<'_>,
            origin: Origin,
            sink: &mut dyn FnMut(usize) -> io::Result<()>,
        ) -> io::Result<u64> {
            if origin.offset > 0 {
                std::thread::sleep(std::time::Duration::from_millis(50));
            }
            sink(input.bytes.len())?;
            Ok(1)
        }

        fn chunk_bytes(&self) -> usize {
            1024
        }
    }

    #[test]
    fn an_output_that_fails_ends_the_run_while_the_input_is_read_ahead() {
        let game = b"[Event \"x\"]\n\n1. e4 e5 1-0\n\n";
        let text = game.repeat(2000);
        let (done_tx, done_rx) = std::sync::mpsc::channel();
        // On a thread of its own: a run that never ends fails the test, not the suite.
        std::thread::spawn(move || {
            let input: Box<dyn Read + Send> = Box::new(io::Cursor::new(text));
            let result = drive(&SlowChunks, input, 2, &mut |_, _| {
                Err(io::Error::other("the disk is full"))
            });
            let _ = done_tx.send(result);
        });
        let result = done_rx
            .recv_timeout(std::time::Duration::from_secs(60))
            .expect("the run ended");
        assert_eq!(result.expect_err("failed").to_string(), "the disk is full");
    }
}
