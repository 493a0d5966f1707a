//! The occurrences of positions in games, sorted by key in bounded memory: held in a
//! buffer up to a budget, each full buffer placed in buckets by the top bits of its keys
//! and written to a temporary file (a run), bucket after bucket. At the end each bucket is
//! gathered from every run and sorted in memory, the buckets in the keys' order, so that a
//! build's memory does not grow with its input.
//!
//! Placing a buffer in buckets is one pass over it, and a bucket (about 17,000
//! occurrences for a million games) sorts within the processor's caches: a build of
//! 300,000 games took 6% less CPU time than with runs sorted whole and merged through a
//! heap, its segment byte for byte the same. A bucket too large for its share of the
//! memory (the start position's, in a build of a million games or more, which every game
//! reaches) is sorted as the whole was before: in sorted runs of its own, merged.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::fs::File;
use std::io::{self, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::thread;

use bytemuck::{Pod, Zeroable};

use crate::key::PositionKey;
use crate::record::GameId;
use crate::rules::MoveCode;
use crate::summary::Dims;

pub(crate) mod run_file;

use run_file::RunWriter;

/// A position met in a game, and the move the game played from it.
///
/// 32 bytes: the game's values laid out field by field, and whether its kept line reaches
/// the position in the top bit of its winner's code, so that no byte is padding. Sorting
/// and placing the occurrences is bound by memory; at 40 bytes each, as a [`Dims`] and a
/// flag beside it took, a buffer held a fifth fewer.
///
/// The derived order is the order the segment is written in: by key, then game and move.
/// The game's values come between the game and the move but are the game's own, equal
/// wherever the game is, so they order nothing.
///
/// Plain old data (`repr(C)`, no padding): a run is written and read back as the bytes of
/// its occurrences, on the machine that wrote it, with no encoding (encoding and decoding
/// them one by one took 2% of a build's CPU time).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Pod, Zeroable)]
#[repr(C)]
pub(crate) struct Occurrence {
    key_high: u64,
    key_low: u64,
    game: u32,
    day: u32,
    code: u16,
    month: u16,
    average: u16,
    cell: u8,
    /// The winner's code, and [`ON_LINE`].
    winner: u8,
}

/// The bit of [`Occurrence::winner`] set when the game's kept line reaches the position
/// ([`crate::line`]); a winner's code is below it.
const ON_LINE: u8 = 0x80;

const _: () = assert!(std::mem::size_of::<Occurrence>() == 32);

impl Occurrence {
    pub(crate) fn new(
        key: PositionKey,
        game: GameId,
        code: MoveCode,
        dims: Dims,
        on_line: bool,
    ) -> Occurrence {
        debug_assert!(dims.winner < ON_LINE);
        Occurrence {
            key_high: (key.0 >> 64) as u64,
            key_low: key.0 as u64,
            game: game.0,
            day: dims.day,
            code: code.0,
            month: dims.month,
            average: dims.average,
            cell: dims.cell,
            winner: dims.winner & !ON_LINE | if on_line { ON_LINE } else { 0 },
        }
    }

    pub(crate) fn on_line(&self) -> bool {
        self.winner & ON_LINE != 0
    }

    pub(crate) fn dims(&self) -> Dims {
        Dims {
            month: self.month,
            cell: self.cell,
            winner: self.winner & !ON_LINE,
            average: self.average,
            day: self.day,
        }
    }

    pub(crate) fn key(&self) -> PositionKey {
        PositionKey(u128::from(self.key_high) << 64 | u128::from(self.key_low))
    }

    pub(crate) fn game(&self) -> GameId {
        GameId(self.game)
    }

    pub(crate) fn code(&self) -> MoveCode {
        MoveCode(self.code)
    }

    /// Reads the next occurrence of a run, `None` at its end.
    fn read(input: &mut impl Read) -> io::Result<Option<Occurrence>> {
        let mut o = Occurrence::zeroed();
        match input.read_exact(bytemuck::bytes_of_mut(&mut o)) {
            Ok(()) => Ok(Some(o)),
            Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => Ok(None),
            Err(e) => Err(e),
        }
    }
}

/// Occurrences gathered, then given back sorted and without repeats.
///
/// A full buffer is placed in buckets and written as a run on a thread of its own while
/// the next one fills (the reading of games goes on meanwhile: sorting on the reading
/// thread held the readers up for a third of a build), so that two buffers are held at
/// most; and the buckets are gathered and sorted on a thread of their own while the
/// segment is written.
pub(crate) struct Sorter {
    buffer: Parts,
    /// How many occurrences a buffer holds.
    capacity: usize,
    dir: PathBuf,
    runs: Vec<Run>,
    pushed: u64,
    /// The run being written, which gives its buffer back.
    spilling: Option<thread::JoinHandle<Spilled>>,
}

/// How many top bits of a key choose its bucket.
const BUCKET_BITS: u32 = 12;
const BUCKETS: usize = 1 << BUCKET_BITS;

/// The bucket of an occurrence: the top bits of its key (keys are hashes, spread evenly).
fn bucket(o: &Occurrence) -> usize {
    (o.key_high >> (64 - BUCKET_BITS)) as usize
}

/// A buffer written bucket after bucket, and how many occurrences of each bucket it holds.
struct Run {
    file: File,
    counts: Vec<u64>,
}

/// Sorts occurrences by key, then game and move (the order the segment is written in; the
/// rest of an occurrence breaks ties, as in the merge of the runs), and drops repeats.
fn sort(buffer: &mut Vec<Occurrence>) {
    sort_by_key_bytes(buffer, 56);
    buffer.dedup();
}

/// Sorts `slice` in [`Occurrence`]'s order, first placing its occurrences by the byte of
/// their key's high half at `shift` (keys are hashes, spread evenly), then the next byte
/// down in buckets still large. Sorting each small bucket alone halves the instructions
/// of one sort of the whole, and takes a fifth less time: moving the occurrences about is
/// bound by memory either way.
fn sort_by_key_bytes(slice: &mut [Occurrence], shift: u32) {
    /// Buckets smaller than this are sorted, not placed by another byte.
    const PLACED_FROM: usize = 1 << 10;
    if slice.len() < PLACED_FROM || shift < 8 {
        slice.sort_unstable();
        return;
    }
    let ends = place(slice, 256, |o| (o.key_high >> shift) as u8 as usize);
    let mut start = 0;
    for end in ends {
        sort_by_key_bytes(&mut slice[start..end], shift - 8);
        start = end;
    }
}

/// The bits of a key a bucket's sort places by, after its own top bits: two digits of this
/// many bits each.
const DIGIT_BITS: u32 = 11;
const DIGITS: usize = 1 << DIGIT_BITS;
/// The lowest bit of the key's high half those digits read.
const DIGITS_FROM: u32 = 64 - BUCKET_BITS - 2 * DIGIT_BITS;

/// Sorts a bucket's occurrences (their keys' top [`BUCKET_BITS`] alike) in
/// [`Occurrence`]'s order and drops repeats: placed by the next two digits of their keys,
/// least significant first (each placing keeps the order the one before left), through
/// `scratch`; then each run of occurrences whose keys share those bits, nearly always one
/// position's, is sorted whole.
///
/// Why: a bucket (about 17,000 occurrences for a million games) was placed by one byte
/// and its sub-buckets of some 66 occurrences sorted by comparisons: 48 ns an occurrence,
/// 3.3 of the 4.5 CPU-seconds the sorting thread took while a segment's positions were
/// written. Keys are hashes: few occurrences share their top 34 bits but those of one
/// position.
fn sort_bucket(bucket: &mut Vec<Occurrence>, scratch: &mut Vec<Occurrence>) {
    /// Smaller buckets are sorted by comparisons alone: the digits' counts would cost
    /// more.
    const PLACED_FROM: usize = 1 << 12;
    if bucket.len() < PLACED_FROM {
        bucket.sort_unstable();
        bucket.dedup();
        return;
    }
    debug_assert!(
        bucket
            .iter()
            .all(|o| self::bucket(o) == self::bucket(&bucket[0]))
    );
    let digit = |o: &Occurrence, place: u32| {
        (o.key_high >> (DIGITS_FROM + place * DIGIT_BITS)) as usize & (DIGITS - 1)
    };
    let mut starts = [[0_usize; DIGITS]; 2];
    for o in bucket.iter() {
        starts[0][digit(o, 0)] += 1;
        starts[1][digit(o, 1)] += 1;
    }
    for counts in &mut starts {
        let mut sum = 0;
        for count in counts.iter_mut() {
            let here = *count;
            *count = sum;
            sum += here;
        }
    }
    // Written whole by the first placing: grown when too small, never cleared (writing it
    // over with zeros for each bucket took a tenth of the sorting thread's time).
    if scratch.len() < bucket.len() {
        scratch.resize(bucket.len(), Occurrence::zeroed());
    }
    let scratch = &mut scratch[..bucket.len()];
    let scatter =
        |from: &[Occurrence], to: &mut [Occurrence], next: &mut [usize; DIGITS], place| {
            for o in from {
                let d = digit(o, place);
                to[next[d]] = *o;
                next[d] += 1;
            }
        };
    let [mut low, mut high] = starts;
    scatter(bucket, scratch, &mut low, 0);
    scatter(scratch, bucket, &mut high, 1);
    let prefix = |o: &Occurrence| o.key_high >> DIGITS_FROM;
    let mut start = 0;
    while start < bucket.len() {
        let shared = prefix(&bucket[start]);
        let end = bucket[start..]
            .iter()
            .position(|o| prefix(o) != shared)
            .map_or(bucket.len(), |n| start + n);
        if end - start > 1 {
            bucket[start..end].sort_unstable();
        }
        start = end;
    }
    bucket.dedup();
}

/// Places the occurrences of `slice` in `buckets` buckets by `bucket_of`, bucket 0 first
/// (an American flag sort's pass, in place); gives where each bucket ends.
fn place(
    slice: &mut [Occurrence],
    buckets: usize,
    bucket_of: impl Fn(&Occurrence) -> usize,
) -> Vec<usize> {
    let mut ends = vec![0; buckets];
    for o in slice.iter() {
        ends[bucket_of(o)] += 1;
    }
    let mut sum = 0;
    for end in &mut ends {
        sum += *end;
        *end = sum;
    }
    // Where each bucket's next unplaced occurrence goes: each occurrence taken out is
    // swapped into its bucket until one of the bucket being filled comes back.
    let mut next = vec![0; buckets];
    next[1..].copy_from_slice(&ends[..buckets - 1]);
    for bucket in 0..buckets {
        while next[bucket] < ends[bucket] {
            let mut o = slice[next[bucket]];
            let mut home = bucket_of(&o);
            while home != bucket {
                std::mem::swap(&mut o, &mut slice[next[home]]);
                next[home] += 1;
                home = bucket_of(&o);
            }
            slice[next[bucket]] = o;
            next[bucket] += 1;
        }
    }
    ends
}

/// How many top bits of a key choose its part in a [`Parts`]: half of the bucket's.
const PART_BITS: u32 = BUCKET_BITS / 2;
const PARTS: usize = 1 << PART_BITS;

/// A buffer of occurrences held apart by the top bits of their keys ([`PART_BITS`]) as
/// they come, each part in chunks of one pool, so that the buffer is placed in its
/// [`BUCKETS`] buckets by one pass within each part alone, each part's occurrences
/// gathered, then placed by the next bits.
///
/// Why: placing a whole buffer (128 MB) by those top bits took a pass over it whose
/// every move missed the processor's caches, two thirds of the placing's time; pushed
/// into its part, an occurrence is written where the part's next one goes. (Placed in
/// one pass by all twelve bits, each occurrence went to one of 4,096 places spread over
/// the buffer, nearly each on a page the address cache no longer held.) Parts reached by
/// more games take more chunks: the start position, in every game, fills no part early.
struct Parts {
    /// The chunks, one after another, taken from the start.
    pool: Vec<Occurrence>,
    /// How many occurrences a chunk holds.
    chunk: usize,
    /// How many chunks were taken.
    taken: usize,
    /// Where each part's chunks start in the pool, in the order taken.
    chunks: Vec<Vec<usize>>,
    /// Where each part's next occurrence goes, and where the part's last chunk ends.
    next: [usize; PARTS],
    end: [usize; PARTS],
    len: usize,
    /// Where [`write_run`] places each part in turn, kept from one run to the next: taken
    /// fresh for each run, on a machine whose fresh pages are dear, the system's zeroing of
    /// its pages was about half of the time of the threads writing runs.
    placing: Vec<Occurrence>,
}

impl Parts {
    /// Room for `capacity` occurrences, in whole chunks; once no chunk is left, each
    /// part's last may be partly empty. Its pages are taken when first written.
    fn new(capacity: usize) -> Parts {
        // Chunks of 64 KiB in a buffer of 128 MB, 32 for each part; in a smaller buffer
        // 16 for each part, down to chunks of 16 occurrences, then fewer: one for each
        // part in the smallest buffer (1,024 occurrences).
        let chunk = (capacity / PARTS / 16).clamp(16, 2048);
        let chunks = capacity.div_ceil(chunk);
        Parts {
            pool: bytemuck::zeroed_vec(chunks * chunk),
            chunk,
            taken: 0,
            chunks: vec![Vec::new(); PARTS],
            next: [0; PARTS],
            end: [0; PARTS],
            len: 0,
            placing: Vec::new(),
        }
    }

    /// Holds `o` in its part; `false` when the pool has no chunk left for it.
    fn push(&mut self, o: Occurrence) -> bool {
        let part = bucket(&o) >> PART_BITS;
        if self.next[part] == self.end[part] {
            if (self.taken + 1) * self.chunk > self.pool.len() {
                return false;
            }
            let start = self.taken * self.chunk;
            self.taken += 1;
            self.chunks[part].push(start);
            self.next[part] = start;
            self.end[part] = start + self.chunk;
        }
        self.pool[self.next[part]] = o;
        self.next[part] += 1;
        self.len += 1;
        // The part's next pushes write a line or two further on: asked for now, it is in
        // the cache by then.
        prefetch_for_write(
            self.pool
                .as_ptr()
                .wrapping_add(self.next[part] + PREFETCH_AHEAD),
        );
        true
    }

    /// Appends the occurrences of `part` to `out`, placed in the part's buckets; gives
    /// where each of those buckets ends in `out`.
    fn place_part(&self, part: usize, out: &mut Vec<Occurrence>) -> Vec<usize> {
        let start = out.len();
        let chunks = &self.chunks[part];
        for (i, &chunk) in chunks.iter().enumerate() {
            let until = if i + 1 == chunks.len() {
                self.next[part]
            } else {
                chunk + self.chunk
            };
            out.extend_from_slice(&self.pool[chunk..until]);
        }
        let ends = place(&mut out[start..], 1 << PART_BITS, |o| {
            bucket(o) & ((1 << PART_BITS) - 1)
        });
        ends.into_iter().map(|e| start + e).collect()
    }

    /// Every occurrence held, placed in the [`BUCKETS`] buckets, and where each ends.
    fn placed(&self) -> (Vec<Occurrence>, Vec<usize>) {
        let mut out = Vec::with_capacity(self.len);
        let mut ends = Vec::with_capacity(BUCKETS);
        for part in 0..PARTS {
            ends.extend(self.place_part(part, &mut out));
        }
        (out, ends)
    }

    /// Empties the buffer, its pool kept.
    fn clear(&mut self) {
        self.taken = 0;
        self.chunks.iter_mut().for_each(Vec::clear);
        self.next = [0; PARTS];
        self.end = [0; PARTS];
        self.len = 0;
    }
}

/// How many places past a part's next occurrence [`Parts::push`] has the processor fetch
/// for writing: three occurrences (96 bytes), in the next cache line or the one after it.
const PREFETCH_AHEAD: usize = 3;

/// Asks the processor to bring the cache line at `at` into its caches, to be written
/// (`prefetchw` where the build targets processors that have it, `prefetcht0` otherwise).
///
/// Why: a part's next occurrence goes to a line last touched 64 parts' pushes before, long
/// out of the caches; each push waited for its line to be read before it could be written
/// over, and [`Parts::push`] took 6% of a build's CPU time (2.4 CPU seconds of a million
/// games, on the thread that reads the games in order). Fetched ahead, it took 1.6%.
#[allow(unsafe_code)]
#[inline]
fn prefetch_for_write(at: *const Occurrence) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch is a hint that reads and writes nothing: an address outside the
    // pool (past a part's last chunk, or past the pool's end) is never dereferenced and
    // cannot fault. `_mm_prefetch` is unsafe only for the SSE it needs, which every x86-64
    // processor has.
    unsafe {
        std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_ET0 }>(at.cast());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = at;
}

/// How many occurrences of each bucket `slice`, placed by [`place`], holds.
fn counts_of(ends: &[usize]) -> Vec<u64> {
    let mut start = 0;
    ends.iter()
        .map(|&end| {
            let count = (end - start) as u64;
            start = end;
            count
        })
        .collect()
}

/// A run written, and the buffer it was placed in, given back empty.
type Spilled = io::Result<(Run, Parts)>;

/// Writes a buffer to a new run under `dir`, part after part, each placed in its
/// buckets; gives the buffer back, empty. A part is placed apart from the pool, in a 64th
/// of a buffer on average (more for a part many games reach).
fn write_run(mut buffer: Parts, dir: &Path) -> Spilled {
    let mut writer = RunWriter::create(dir)?;
    let mut counts = Vec::with_capacity(BUCKETS);
    let mut placed = std::mem::take(&mut buffer.placing);
    for part in 0..PARTS {
        placed.clear();
        let ends = buffer.place_part(part, &mut placed);
        counts.extend(counts_of(&ends));
        writer.write(bytemuck::cast_slice(&placed))?;
    }
    let file = writer.finish()?;
    buffer.clear();
    buffer.placing = placed;
    Ok((Run { file, counts }, buffer))
}

/// Writes occurrences to a new temporary file under `dir`, read from its start.
fn write_occurrences(occurrences: &[Occurrence], dir: &Path) -> io::Result<File> {
    let mut file = tempfile::tempfile_in(dir)?;
    file.write_all(bytemuck::cast_slice(occurrences))?;
    std::io::Seek::rewind(&mut file)?;
    Ok(file)
}

/// What a thread of the sorter gave, or why it gave nothing.
fn joined<T>(handle: thread::JoinHandle<io::Result<T>>) -> io::Result<T> {
    handle
        .join()
        .map_err(|_| io::Error::other("the sort of positions stopped"))?
}

impl Sorter {
    /// A sorter that holds at most `budget` bytes of occurrences in memory (two buffers
    /// of half that) and writes its runs under `dir` (files that are gone once closed,
    /// even if the process is killed).
    pub(crate) fn new(dir: &Path, budget: usize) -> Sorter {
        let capacity = (budget / 2 / std::mem::size_of::<Occurrence>()).max(1024);
        Sorter {
            // Made whole (address space, not memory: a page is taken when first written),
            // so that the buffer never grows by copying: growing it by doubling took a
            // quarter of a build's time in copies and fresh zeroed pages.
            buffer: Parts::new(capacity),
            capacity,
            dir: dir.to_owned(),
            runs: Vec::new(),
            pushed: 0,
            spilling: None,
        }
    }

    pub(crate) fn push(&mut self, occurrence: Occurrence) -> io::Result<()> {
        if !self.buffer.push(occurrence) {
            self.spill()?;
            // An empty buffer has a chunk for every part (`Parts::new`).
            let held = self.buffer.push(occurrence);
            debug_assert!(held);
        }
        self.pushed += 1;
        Ok(())
    }

    /// How many occurrences were pushed (repeats included).
    pub(crate) fn pushed(&self) -> u64 {
        self.pushed
    }

    /// Hands the full buffer to a thread that sorts and writes it, once the run before it
    /// is written (whose buffer is filled next).
    fn spill(&mut self) -> io::Result<()> {
        let next = match self.spilling.take() {
            Some(handle) => {
                let (file, buffer) = joined(handle)?;
                self.runs.push(file);
                buffer
            }
            None => Parts::new(self.capacity),
        };
        let full = std::mem::replace(&mut self.buffer, next);
        let dir = self.dir.clone();
        self.spilling = Some(thread::spawn(move || write_run(full, &dir)));
        Ok(())
    }

    /// Every occurrence pushed, sorted, each once.
    pub(crate) fn finish(mut self) -> io::Result<Sorted> {
        if let Some(handle) = self.spilling.take() {
            self.runs.push(joined(handle)?.0);
        }
        let (mut last, ends) = self.buffer.placed();
        drop(self.buffer);
        if self.runs.is_empty() {
            sort(&mut last);
            return Ok(Sorted::Memory(last.into_iter()));
        }
        let runs = std::mem::take(&mut self.runs);
        // Beside the last buffer: the bucket being gathered and the one being written, each
        // of at most a quarter of a buffer, and as many waiting as half a buffer holds on
        // average, so that the gathering runs ahead while the writing is slow (with two
        // waiting, a build of a million games took 3% longer): no more than the two buffers.
        let bucket_capacity = (self.capacity / 4).max(1024);
        let average = (self.pushed / BUCKETS as u64).max(1);
        let waiting = (self.capacity as u64 / 2 / average).clamp(2, 256) as usize;
        let dir = self.dir.clone();
        let (sender, receiver) = mpsc::sync_channel(waiting);
        let (give_back, given_back) = mpsc::channel();
        let merging = thread::spawn(move || {
            let buckets = Buckets { sender, given_back };
            gather_buckets(runs, (last, ends), bucket_capacity, &dir, &buckets)
        });
        // A bucket's memory is used again when it holds no more than twice an average one's
        // (or a batch of a merge): a few buckets much larger than the others (the start
        // position's) are let go, so that the room of the buckets waiting stays near what
        // their occurrences take.
        let kept_up_to = (2 * average as usize).max(BATCH);
        Ok(Sorted::Merged {
            receiver,
            batch: Vec::new(),
            taken: 0,
            give_back,
            kept_up_to,
            merging: Some(merging),
        })
    }
}

/// Where the gathering sends each bucket, sorted, and takes back the memory of those
/// written.
///
/// Why: each bucket gathered in memory taken fresh, and let go on the thread that wrote
/// it, had its pages zeroed by the system again: on a machine whose fresh pages are dear,
/// a third of the gathering thread's time, while the threads writing the segment waited
/// for it.
struct Buckets {
    sender: mpsc::SyncSender<Vec<Occurrence>>,
    given_back: mpsc::Receiver<Vec<Occurrence>>,
}

impl Buckets {
    /// Room for `capacity` occurrences, empty: the memory of a bucket written if there is
    /// one.
    fn room(&self, capacity: usize) -> Vec<Occurrence> {
        let mut room = self.given_back.try_recv().unwrap_or_default();
        room.clear();
        // Exactly: grown by doubling, the room of every bucket would soon be twice its own.
        room.reserve_exact(capacity);
        room
    }

    /// Sends `bucket`; `false` when the receiver is gone.
    fn send(&self, bucket: Vec<Occurrence>) -> bool {
        self.sender.send(bucket).is_ok()
    }
}

/// Gathers each bucket from the runs and from the last buffer (placed in buckets, with
/// where each ends), in the order of the buckets, and sends it sorted, each occurrence
/// once; stops when the receiver is gone. A bucket of more than `capacity` occurrences is
/// sorted in runs of its own, merged.
fn gather_buckets(
    runs: Vec<Run>,
    (last, last_ends): (Vec<Occurrence>, Vec<usize>),
    capacity: usize,
    dir: &Path,
    buckets: &Buckets,
) -> io::Result<()> {
    let (files, counts): (Vec<File>, Vec<Vec<u64>>) =
        runs.into_iter().map(|run| (run.file, run.counts)).unzip();
    let mut readers = run_file::readers(files)?;
    let mut scratch = Vec::new();
    let mut last_start = 0;
    for (b, &last_end) in last_ends.iter().enumerate() {
        let in_memory = &last[last_start..last_end];
        last_start = last_end;
        let total = counts.iter().map(|c| c[b]).sum::<u64>() + in_memory.len() as u64;
        if total == 0 {
            continue;
        }
        if total > capacity as u64 {
            // Sorted by pieces of `capacity`, each a run, and the runs merged.
            let mut pieces = Vec::new();
            let mut piece = Vec::with_capacity(capacity);
            for (reader, counts) in readers.iter_mut().zip(&counts) {
                let mut left = counts[b];
                while left > 0 {
                    let take = left.min((capacity - piece.len()) as u64);
                    read_occurrences(reader, take, &mut piece)?;
                    left -= take;
                    if piece.len() == capacity {
                        sort(&mut piece);
                        pieces.push(write_occurrences(&piece, dir)?);
                        piece.clear();
                    }
                }
            }
            piece.extend_from_slice(in_memory);
            sort(&mut piece);
            if !merge(pieces, piece, buckets)? {
                return Ok(());
            }
            continue;
        }
        let mut gathered = buckets.room(total as usize);
        for (reader, counts) in readers.iter_mut().zip(&counts) {
            read_occurrences(reader, counts[b], &mut gathered)?;
        }
        gathered.extend_from_slice(in_memory);
        sort_bucket(&mut gathered, &mut scratch);
        if !buckets.send(gathered) {
            return Ok(());
        }
    }
    Ok(())
}

/// Reads `count` occurrences from a run onto the end of `out`.
fn read_occurrences(
    reader: &mut impl Read,
    count: u64,
    out: &mut Vec<Occurrence>,
) -> io::Result<()> {
    let start = out.len();
    let end = usize::try_from(count)
        .ok()
        .and_then(|c| c.checked_add(start))
        .ok_or_else(|| io::Error::other("a bucket too large to read"))?;
    out.resize(end, Occurrence::zeroed());
    reader.read_exact(bytemuck::cast_slice_mut(&mut out[start..]))
}

/// How many occurrences the merging thread hands over at a time.
const BATCH: usize = 1 << 14;

/// Merges sorted runs and a sorted buffer into batches sent in order, each occurrence
/// once; stops when the receiver is gone, and says whether it is still there.
fn merge(runs: Vec<File>, last: Vec<Occurrence>, buckets: &Buckets) -> io::Result<bool> {
    let mut readers: Vec<BufReader<File>> = runs
        .into_iter()
        .map(|f| BufReader::with_capacity(1 << 16, f))
        .collect();
    let mut memory = last.into_iter();
    // The buffer is the source numbered after the runs.
    let mut next_of = |i: usize, readers: &mut Vec<BufReader<File>>| match readers.get_mut(i) {
        Some(reader) => Occurrence::read(reader),
        None => Ok(memory.next()),
    };
    let mut heap = BinaryHeap::new();
    for i in 0..=readers.len() {
        if let Some(o) = next_of(i, &mut readers)? {
            heap.push(Reverse((o, i)));
        }
    }
    let mut batch = buckets.room(BATCH);
    let mut previous: Option<Occurrence> = None;
    while let Some(mut top) = heap.peek_mut() {
        let Reverse((o, i)) = *top;
        // The source's next takes its place (one sift, where a pop and a push take two).
        match next_of(i, &mut readers)? {
            Some(next) => *top = Reverse((next, i)),
            None => {
                let _ = std::collections::binary_heap::PeekMut::pop(top);
            }
        }
        if previous == Some(o) {
            continue;
        }
        previous = Some(o);
        batch.push(o);
        if batch.len() == BATCH {
            let full = std::mem::replace(&mut batch, buckets.room(BATCH));
            if !buckets.send(full) {
                return Ok(false);
            }
        }
    }
    Ok(batch.is_empty() || buckets.send(batch))
}

/// The sorted occurrences: from memory, or merged from runs on another thread.
pub(crate) enum Sorted {
    Memory(std::vec::IntoIter<Occurrence>),
    Merged {
        receiver: mpsc::Receiver<Vec<Occurrence>>,
        /// The bucket (or batch) being given, and how many of it were.
        batch: Vec<Occurrence>,
        taken: usize,
        /// Where a bucket given whole goes back to the gathering ([`Buckets`]), if its
        /// room is no more than `kept_up_to`.
        give_back: mpsc::Sender<Vec<Occurrence>>,
        kept_up_to: usize,
        merging: Option<thread::JoinHandle<io::Result<()>>>,
    },
}

impl Sorted {
    /// The next occurrence in order, each once.
    pub(crate) fn next(&mut self) -> io::Result<Option<Occurrence>> {
        match self {
            Sorted::Memory(iter) => Ok(iter.next()),
            Sorted::Merged {
                receiver,
                batch,
                taken,
                give_back,
                kept_up_to,
                merging,
            } => loop {
                if let Some(&o) = batch.get(*taken) {
                    *taken += 1;
                    return Ok(Some(o));
                }
                match receiver.recv() {
                    Ok(next) => {
                        let given = std::mem::replace(batch, next);
                        *taken = 0;
                        if (1..=*kept_up_to).contains(&given.capacity()) {
                            // A gathering that has ended takes no more.
                            let _ = give_back.send(given);
                        }
                    }
                    // The merge ended: all sent, or an error to give.
                    Err(_) => {
                        return match merging.take() {
                            Some(handle) => joined(handle).map(|()| None),
                            None => Ok(None),
                        };
                    }
                }
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn drain(mut sorted: Sorted) -> Vec<Occurrence> {
        let mut out = Vec::new();
        while let Some(o) = sorted.next().expect("read back") {
            out.push(o);
        }
        out
    }

    /// What one sort of the whole gives, each occurrence once: what every way of sorting
    /// must give.
    fn one_sort(all: &[Occurrence]) -> Vec<Occurrence> {
        let mut sorted = all.to_vec();
        sorted.sort();
        sorted.dedup();
        sorted
    }

    /// Occurrences with keys drawn as `key` makes them from a counter, several to a game
    /// and some repeated whole.
    fn occurrences(count: u32, key: impl Fn(u64) -> PositionKey) -> Vec<Occurrence> {
        let mut state = 99_u64;
        (0..count)
            .map(|i| {
                state = state
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let game = i / 40 % 1000;
                Occurrence::new(
                    key(state >> 11),
                    GameId(game),
                    MoveCode((state % 3) as u16),
                    Dims {
                        month: game as u16,
                        ..Dims::default()
                    },
                    game % 2 == 0,
                )
            })
            .collect()
    }

    #[test]
    fn occurrences_placed_by_key_bytes_then_sorted_are_in_one_sort_s_order() {
        let spread = |r: u64| {
            PositionKey(u128::from(r.wrapping_mul(0x9E37_79B9_7F4A_7C15)) << 64 | u128::from(r % 5))
        };
        let few = |r: u64| PositionKey(u128::from(r % 37) << 64 | u128::from(r % 3));
        let top_alike = |r: u64| PositionKey(u128::from(0xAB00_0000_0000_0000 | (r % 9000)) << 64);
        for (count, key) in [
            (300_000, &spread as &dyn Fn(u64) -> PositionKey),
            (50_000, &few),
            (50_000, &top_alike),
            (1_000, &spread),
            (0, &spread),
        ] {
            let all = occurrences(count, key);
            let expected = one_sort(&all);
            let mut sorted = all;
            sort(&mut sorted);
            assert!(sorted == expected, "{count} occurrences");
        }
    }

    #[test]
    fn a_bucket_placed_by_its_digits_is_in_one_sort_s_order() {
        // Keys of one bucket: spread over the digits, or a few positions many games
        // reached (runs of one key to sort whole), or keys alike in the digits' bits alone.
        let top = 0x5A5_u64 << (64 - BUCKET_BITS);
        let spread = |r: u64| {
            let high = top | r.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> BUCKET_BITS;
            PositionKey(u128::from(high) << 64 | u128::from(r % 5))
        };
        let popular = |r: u64| {
            let high = top | (r % 7) << 40 | (r % 3);
            PositionKey(u128::from(high) << 64 | u128::from(r % 2))
        };
        let digits_alike = |r: u64| {
            let high = top | 0x3_1234 << DIGITS_FROM | (r % 1000);
            PositionKey(u128::from(high) << 64 | u128::from(r % 11))
        };
        let mut scratch = Vec::new();
        for (count, key) in [
            (200_000, &spread as &dyn Fn(u64) -> PositionKey),
            (60_000, &popular),
            (30_000, &digits_alike),
            (5_000, &spread),
            (100, &spread),
        ] {
            let all = occurrences(count, key);
            assert!(all.iter().all(|o| bucket(o) == bucket(&all[0])));
            let expected = one_sort(&all);
            let mut sorted = all;
            sort_bucket(&mut sorted, &mut scratch);
            assert!(sorted == expected, "{count} occurrences");
        }
    }

    #[test]
    fn runs_merge_to_what_one_sort_gives() {
        // Keys whose top bits are all alike: one bucket, too large for its share of the
        // memory, sorted in runs of its own.
        runs_give_what_one_sort_gives(1, |state| {
            PositionKey(u128::from(state >> 50) << 70 | u128::from(state % 7))
        });
        // Keys spread over the buckets, many repeated: each bucket gathered from the runs.
        runs_give_what_one_sort_gives(1000, |state| {
            let high = (state % 1999).wrapping_mul(0x9E37_79B9_7F4A_7C15);
            PositionKey(u128::from(high) << 64 | u128::from(state % 3))
        });
    }

    fn runs_give_what_one_sort_gives(buckets: usize, key_of: impl Fn(u64) -> PositionKey) {
        let dir = tempfile::tempdir().expect("a folder");
        let mut state = 12345_u64;
        let mut all = Vec::new();
        for i in 0..10_000_u32 {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let key = key_of(state);
            // A game's values go with it through the runs.
            let dims = Dims {
                month: (i % 300) as u16,
                day: i % 300 * 7,
                average: 1000 + (i % 300) as u16,
                ..Dims::default()
            };
            all.push(Occurrence::new(
                key,
                GameId(i % 300),
                MoveCode((state % 5) as u16),
                dims,
                i % 3 == 0,
            ));
        }
        // A budget of a few hundred occurrences: many runs.
        let mut small = Sorter::new(dir.path(), 1);
        let mut large = Sorter::new(dir.path(), 1 << 30);
        for &o in &all {
            small.push(o).expect("pushed");
            large.push(o).expect("pushed");
        }
        assert!(small.runs.len() > 5);
        let used: std::collections::BTreeSet<usize> = all.iter().map(bucket).collect();
        assert!(used.len() >= buckets, "{} buckets", used.len());
        let expected = one_sort(&all);
        assert_eq!(drain(small.finish().expect("merged")), expected);
        assert_eq!(drain(large.finish().expect("sorted")), expected);
    }
}
