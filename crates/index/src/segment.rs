//! One segment of an index: the games of one build or one `--append`, in a file of its
//! own that is written once, made durable, renamed into place and never written again.
//!
//! The file holds sorted tables ([`crate::store`]; why not a store: ARCHITECTURE.md),
//! numbers in their keys big-endian; its directory holds the segment's format version and
//! its number of games. The tables:
//!
//! | table | key | value |
//! |---|---|---|
//! | `games` | game number in the segment | a [`GameRecord`], its input numbered within the segment; then the game's kept line, if it has one ([`crate::line`]) |
//! | `positions` | the first key of a block | a block of positions, each with its postings: every game that reached it, with the move played |
//! | `tails` | the first prefix of a block | a block of rare positions: the high 32 bits of each one's key beside each game that reached it |
//! | `crowded` | a position's key (96 bits) and a piece number | the postings of a position reached by many games, in pieces |
//! | `summaries` | a position's key (96 bits) and a piece number | for a position many games reached, what the explorer needs of them ([`Summary`]), zstd-compressed after its length, in pieces |
//! | `wholes` | a position's key (96 bits) | for a position with a summary, the summary's whole cell (all its games as one), not compressed: what an explorer question with no filter reads |
//! | `player_names` | player id | the name as written when it was numbered |
//! | `players` | the first 16 bytes of the name in lower case (zeros after a shorter one) and a player id of it (a name met again only long after is numbered twice) | nothing: a name is looked for among those sharing its first 16 bytes, each checked against its `player_names` |
//! | `labels` | a chunk's number and a piece number | the texts of an event, a site, an opening or a ruleset, in the order numbered (a text met again only long after may be numbered twice), [`LABEL_CHUNK`] labels to a chunk, each its length then its bytes, zstd-compressed after their length, in pieces |
//!
//! Positions are kept by the high 96 bits of their key (as lila's explorer keeps them: a
//! year of lichess gives no two positions the same 96 bits in practice), sorted, in blocks
//! of up to 32 positions or about 480 bytes: one entry per block, not per position (which
//! took most of a build's time in the B-tree store segments were kept in before), several
//! to a block of the file. A block is its positions one after the
//! other: the key's difference from the one before (0 for the first, whose key is the
//! entry's), then the postings. A position is found in the last block whose first key is
//! not above its own.
//!
//! The postings of a position that many games reached (in `crowded`, not in a block), the
//! summaries and the labels' chunks are cut into pieces of [`PIECE`] bytes, stored under
//! the value's key and the piece's number (the B-tree store took a run of pages of the
//! next power of two for a value past a page; the pieces stay, three to a block of the
//! file).
//!
//! Postings are a count, then for each game (ascending) the difference from the previous
//! game's number and the move's code, as variable-length integers: a game met twice in a
//! position (with two different moves from it) is listed twice.
//!
//! A position that fewer than [`TAIL_GAMES`] games reached, all of them on their kept
//! lines, is a tail: most positions are (after the opening, nearly every game is alone),
//! and a whole key took two thirds of an index's size. A tail block is a count, the Rice
//! parameter of its prefixes and the width in bits of its games, then for each entry (by
//! prefix, then game) the prefix's difference from the one before (0 for the first, whose
//! prefix is the entry's), Rice-coded, and the game, packed. A query plays each game its prefix names through the game's line and
//! keeps the plies whose whole key is the one asked; one that is in `positions` is no
//! tail.
//!
//! A segment numbers its games and its inputs from 0: where they stand in the index (its
//! first game's id, its first input's place) is the manifest's to say, so that a segment
//! file moves from one index to another as it is (`notate index --merge`).

use std::path::{Path, PathBuf};
use std::sync::mpsc;

use std::fs::File;
use std::io::{Read, Seek, Write};

use crate::codec::{BitReader, BitWriter, Cursor, put_varint, put_varint128, width};
use crate::error::IndexError;
use crate::key::PositionKey;
use crate::line;
use crate::record::{GameId, GameRecord, PlayerId, Posting};
use crate::rules::{IndexRules, MoveCode};
use crate::store::{Store, StoreWriter, Table};
use crate::summary::{Cell, Summary};

/// The version of a segment's tables: a segment of another version is not read.
pub(crate) const SEGMENT_FORMAT: u64 = 11;

/// The size of the pieces a large value is cut into (a block of the file ends once past
/// 4 KiB: three of them).
const PIECE: usize = 2_000;

/// A position whose postings take more bytes than this is written to `crowded`.
const CROWDED_BYTES: usize = PIECE;

/// A block is written when it holds this many positions…
const BLOCK_POSITIONS: u32 = 32;
/// …or this many bytes.
const BLOCK_BYTES: usize = 480;

/// The part of a key a segment keeps: its high 96 bits.
pub(crate) fn stored(key: PositionKey) -> u128 {
    key.0 >> 32
}

/// The zstd level summaries are written at: a third of their size, read back in tens of
/// microseconds.
const SUMMARY_LEVEL: i32 = 3;

/// The most bytes a summary may unpack to (a damaged length is an error, not an
/// allocation).
const SUMMARY_MOST: u64 = 256 << 20;

/// A summary's bytes as the `summaries` table holds them: their length, then compressed
/// (at [`SUMMARY_LEVEL`], the level `compressor` was made with).
fn pack_summary(
    compressor: &mut zstd::bulk::Compressor<'_>,
    bytes: &[u8],
    out: &mut Vec<u8>,
) -> std::io::Result<()> {
    out.clear();
    put_varint(out, bytes.len() as u64);
    out.extend_from_slice(&compressor.compress(bytes)?);
    Ok(())
}

/// What [`pack_summary`] packed, `None` when it does not unpack.
fn unpack_summary(packed: &[u8]) -> Option<Vec<u8>> {
    let mut c = Cursor::new(packed);
    let length = c.varint().filter(|&n| n <= SUMMARY_MOST)?;
    let bytes = zstd::bulk::decompress(c.rest(), length as usize).ok()?;
    (bytes.len() as u64 == length).then_some(bytes)
}

/// Labels are written this many to a chunk, compressed together: lichess gives every game
/// a site of its own (`https://lichess.org/` and eight random letters), and one store
/// entry per label took a tenth of an index's size.
const LABEL_CHUNK: usize = 4_096;

/// A position reached by fewer games than this, each on its kept line, is a tail.
pub(crate) const TAIL_GAMES: usize = 4;

/// A tail block is written when another entry would take it past this many bytes: four
/// such blocks fill a block of the file.
const TAIL_BLOCK_BYTES: usize = 1_000;

/// The part of a key a tail keeps: its high 32 bits.
pub(crate) fn tail_prefix(key: PositionKey) -> u32 {
    (key.0 >> 96) as u32
}

/// Tails written into blocks, in prefix order.
pub(crate) struct TailWriter {
    entries: Vec<(u32, u32)>,
    /// The bits the entries take.
    bits: usize,
    /// The Rice parameter of the prefixes' differences.
    rice: u32,
    /// The width of a game's number.
    game_width: u32,
    block: Vec<u8>,
}

impl TailWriter {
    /// A writer of about `expected` tails (more or fewer only costs a little room) of
    /// games numbered below `games`.
    pub(crate) fn new(expected: u64, games: u32) -> TailWriter {
        // The differences of evenly spread prefixes: a Rice code of parameter about the
        // log of their mean takes some two bits a difference less than a fixed width.
        let mean = (1_u64 << 32) / expected.max(1);
        TailWriter {
            entries: Vec::new(),
            bits: 0,
            rice: width(mean).saturating_sub(1),
            game_width: width(games.saturating_sub(1).into()),
            block: Vec::new(),
        }
    }

    /// Adds a tail (prefixes in ascending order) with its games (ascending, each once).
    pub(crate) fn push(&mut self, prefix: u32, games: &[GameId], out: &mut Pending) {
        let mut previous = self.entries.last().map_or(prefix, |e| e.0);
        for game in games {
            let delta = u64::from(prefix - previous);
            let bits = (delta >> self.rice) as usize + 1 + (self.rice + self.game_width) as usize;
            // The games of one prefix stay in one block, where a lookup finds them all.
            if previous != prefix && (self.bits + bits).div_ceil(8) + 6 > TAIL_BLOCK_BYTES {
                self.flush(out);
                self.bits = 1 + (self.rice + self.game_width) as usize;
            } else {
                self.bits += bits;
            }
            self.entries.push((prefix, game.0));
            previous = prefix;
        }
    }

    fn flush(&mut self, out: &mut Pending) {
        let Some(&(first, _)) = self.entries.first() else {
            return;
        };
        self.block.clear();
        put_varint(&mut self.block, self.entries.len() as u64);
        self.block.extend([self.rice as u8, self.game_width as u8]);
        let mut bits = BitWriter::new(&mut self.block);
        let mut previous = first;
        for &(prefix, game) in &self.entries {
            bits.put_rice((prefix - previous).into(), self.rice);
            bits.put(game.into(), self.game_width);
            previous = prefix;
        }
        bits.finish();
        out.put(Filled::Tails, first.into(), 0, &self.block);
        self.entries.clear();
        self.bits = 0;
    }

    /// Writes the last block.
    pub(crate) fn finish(mut self, out: &mut Pending) {
        self.flush(out);
    }
}

/// Appends the games of the tails of `wanted` prefix in a block (nothing when there are
/// none); `None` when the block does not read.
fn find_in_tails(first: u32, block: &[u8], wanted: u32, out: &mut Vec<u32>) -> Option<()> {
    let mut c = Cursor::new(block);
    let count = c.varint()?;
    let [rice, game_width] = c.array()?;
    let mut bits = BitReader::new(c.rest());
    let mut prefix = first;
    for i in 0..count {
        let delta = bits.get_rice(rice.into())?;
        if i == 0 && delta != 0 {
            return None;
        }
        prefix = prefix.checked_add(u32::try_from(delta).ok()?)?;
        let game = bits.get(game_width.into())?;
        if prefix > wanted {
            break;
        }
        if prefix == wanted {
            out.push(u32::try_from(game).ok()?);
        }
    }
    Some(())
}

/// Postings encoded as the `positions` table holds them.
pub(crate) fn encode_postings(postings: &[Posting], out: &mut Vec<u8>) {
    put_varint(out, postings.len() as u64);
    let mut previous = 0;
    for p in postings {
        put_varint(out, u64::from(p.game.0 - previous));
        put_varint(out, u64::from(p.code.0));
        previous = p.game.0;
    }
}

#[cfg(test)]
fn decode_postings(bytes: &[u8], out: &mut Vec<Posting>) -> Option<()> {
    let mut c = Cursor::new(bytes);
    read_postings(&mut c, Some(out))?;
    c.is_empty().then_some(())
}

/// Reads one position's postings, into `out` when given (else passes over them).
fn read_postings(c: &mut Cursor<'_>, mut out: Option<&mut Vec<Posting>>) -> Option<()> {
    let count = c.varint()?;
    if let Some(out) = out.as_deref_mut() {
        // Two bytes a posting at least: a damaged count reserves no more than the bytes
        // can hold.
        out.reserve(usize::try_from(count).map_or(0, |n| n.min(c.rest().len() / 2)));
    }
    let mut game = 0_u32;
    for _ in 0..count {
        game = game.checked_add(u32::try_from(c.varint()?).ok()?)?;
        let code = u16::try_from(c.varint()?).ok()?;
        if let Some(out) = out.as_deref_mut() {
            out.push(Posting {
                game: GameId(game),
                code: MoveCode(code),
            });
        }
    }
    Some(())
}

/// Positions written into blocks, in key order.
pub(crate) struct BlockWriter {
    postings: Vec<u8>,
    block: Vec<u8>,
    first: u128,
    last: u128,
    positions: u32,
}

impl BlockWriter {
    pub(crate) fn new() -> BlockWriter {
        BlockWriter {
            postings: Vec::new(),
            block: Vec::with_capacity(2 * BLOCK_BYTES),
            first: 0,
            last: 0,
            positions: 0,
        }
    }

    /// Adds a position (keys in ascending order) with its postings.
    pub(crate) fn push(&mut self, key: PositionKey, postings: &[Posting], out: &mut Pending) {
        let key = stored(key);
        self.postings.clear();
        encode_postings(postings, &mut self.postings);
        if self.postings.len() > CROWDED_BYTES {
            out.put_pieces(Filled::Crowded, key, &self.postings);
            return;
        }
        // Two keys of the same high bits stay in one block, where a lookup finds both.
        let full = self.positions >= BLOCK_POSITIONS || self.block.len() >= BLOCK_BYTES;
        if full && key != self.last {
            self.flush(out);
        }
        if self.positions == 0 {
            self.first = key;
            self.last = key;
        }
        put_varint128(&mut self.block, key - self.last);
        self.block.extend_from_slice(&self.postings);
        self.last = key;
        self.positions += 1;
    }

    fn flush(&mut self, out: &mut Pending) {
        if self.positions > 0 {
            out.put(Filled::Positions, self.first, 0, &self.block);
        }
        self.block.clear();
        self.positions = 0;
    }

    /// Writes the last block.
    pub(crate) fn finish(mut self, out: &mut Pending) {
        self.flush(out);
    }
}

/// Appends the postings of the positions of `wanted` key in a block (nothing when there
/// are none); `None` when the block does not read.
fn find_in_block(first: u128, block: &[u8], wanted: u128, out: &mut Vec<Posting>) -> Option<()> {
    let mut c = Cursor::new(block);
    let mut key = first;
    let mut start = true;
    while !c.is_empty() {
        let step = c.varint128()?;
        if start && step != 0 {
            return None;
        }
        start = false;
        key = key.checked_add(step)?;
        if key > wanted {
            break;
        }
        read_postings(&mut c, (key == wanted).then_some(&mut *out))?;
    }
    Some(())
}

/// The tables a segment's writer fills through [`Pending`].
#[derive(Clone, Copy, Debug)]
enum Filled {
    Games,
    Positions,
    Crowded,
    Tails,
    Summaries,
    Wholes,
    Labels,
    Players,
}

/// The fewest bytes an entry of a [`Pending`] takes on average, as far as a full one's
/// room is made for: a game's record and kept line take about a hundred.
const ENTRY_BYTES: usize = 64;

/// The most bytes a [`Pending`] makes room for from the start (past it, it grows).
const PENDING_ROOM_MOST: usize = 64 << 20;

/// Entries for the tables a build fills, held until [`SegmentWriter::store`] writes them
/// (once [`Pending::is_full`]), on a thread of its own: the threads that fill them hand
/// a full one over and go on with an empty one.
pub(crate) struct Pending {
    /// How many bytes it holds before it is full.
    limit: usize,
    bytes: Vec<u8>,
    /// Each entry's table, key, piece number (0 for a table without pieces) and where its
    /// value ends in `bytes`.
    entries: Vec<(Filled, u128, u32, usize)>,
}

impl Pending {
    pub(crate) fn new(limit: usize) -> Pending {
        // Room for a full one from the start (address space: a page is taken when first
        // written). Grown by doubling, each vector took every size on the way to full in
        // fresh pages: while a million games were read, a tenth of the samples of the
        // thread that takes them in order were in copying into them and in the system's
        // zeroing of their pages.
        let room = limit.min(PENDING_ROOM_MOST);
        Pending {
            limit,
            bytes: Vec::with_capacity(room + PIECE),
            entries: Vec::with_capacity(room / ENTRY_BYTES),
        }
    }

    fn put(&mut self, table: Filled, key: u128, piece: u32, value: &[u8]) {
        self.bytes.extend_from_slice(value);
        self.entries.push((table, key, piece, self.bytes.len()));
    }

    /// Puts `bytes` in pieces under `key`.
    fn put_pieces(&mut self, table: Filled, key: u128, bytes: &[u8]) {
        for (i, piece) in bytes.chunks(PIECE).enumerate() {
            self.put(table, key, i as u32, piece);
        }
    }

    /// A game's record (and its kept line), under its number in the segment.
    pub(crate) fn game(&mut self, game: GameId, record: &[u8]) {
        self.put(Filled::Games, game.0.into(), 0, record);
    }

    /// A player's name as written, under the number just given to it.
    pub(crate) fn player(&mut self, player: PlayerId, name: &str) {
        self.put(Filled::Players, player.0.into(), 0, name.as_bytes());
    }

    /// The summary of a position that [`SummaryPacker::pack`] packed: its cells, and
    /// apart its whole cell.
    pub(crate) fn summary(&mut self, summary: &PackedSummary) {
        self.put_pieces(Filled::Summaries, summary.key, &summary.cells);
        self.put(Filled::Wholes, summary.key, 0, &summary.whole);
    }

    /// An empty one, full at the same size.
    pub(crate) fn empty_like(&self) -> Pending {
        Pending::new(self.limit)
    }

    /// Whether enough is held to be stored.
    pub(crate) fn is_full(&self) -> bool {
        self.bytes.len() >= self.limit
    }
}

/// Writes a segment's labels as they are numbered, [`LABEL_CHUNK`] to a chunk, each chunk
/// put in a [`Pending`] once full: a build holds one chunk of them, not all (a site of
/// lichess's names one game: a month of lichess's games has 90 million).
pub(crate) struct LabelWriter {
    compressor: zstd::bulk::Compressor<'static>,
    /// The chunk being filled: each text's length, then its bytes.
    raw: Vec<u8>,
    in_chunk: usize,
    chunk: u128,
    packed: Vec<u8>,
}

impl LabelWriter {
    /// A writer whose first label, [`LabelId::NONE`](crate::record::LabelId::NONE), is the
    /// empty text.
    pub(crate) fn new() -> std::io::Result<LabelWriter> {
        let mut writer = LabelWriter {
            compressor: zstd::bulk::Compressor::new(SUMMARY_LEVEL)?,
            raw: Vec::new(),
            in_chunk: 0,
            chunk: 0,
            packed: Vec::new(),
        };
        writer.raw.push(0);
        writer.in_chunk = 1;
        Ok(writer)
    }

    /// Writes the text of the next label.
    pub(crate) fn push(&mut self, text: &str, out: &mut Pending) -> std::io::Result<()> {
        put_varint(&mut self.raw, text.len() as u64);
        self.raw.extend_from_slice(text.as_bytes());
        self.in_chunk += 1;
        if self.in_chunk == LABEL_CHUNK {
            self.flush(out)?;
        }
        Ok(())
    }

    fn flush(&mut self, out: &mut Pending) -> std::io::Result<()> {
        pack_summary(&mut self.compressor, &self.raw, &mut self.packed)?;
        out.put_pieces(Filled::Labels, self.chunk, &self.packed);
        self.raw.clear();
        self.in_chunk = 0;
        self.chunk += 1;
        Ok(())
    }

    /// Writes the last chunk, unless it is empty: a reader stops at a chunk of fewer than
    /// [`LABEL_CHUNK`] labels, or at none.
    pub(crate) fn finish(mut self, out: &mut Pending) -> std::io::Result<()> {
        if self.in_chunk > 0 {
            self.flush(out)?;
        }
        Ok(())
    }
}

/// A segment being written. Its file holds nothing a reader would take until
/// [`SegmentWriter::commit`] has written its directory and made it durable (and it is not
/// in its place in the index before); meanwhile each [`SegmentWriter::store`] writes
/// what it stored, past the page cache where the file system allows it.
pub(crate) struct SegmentWriter {
    store: StoreWriter,
    /// The `players` table's keys, sorted at the end (players are numbered as met, not
    /// by name).
    players: PlayerKeys,
    /// Where the file system refuses to write past the page cache: asks the system to
    /// write the file's new pages to the disk as they come, so that the last sync does
    /// not wait for all of them (a million games: 440 MB). Ends when dropped.
    writing_back: Option<WritingBack>,
}

/// A thread that has the system write a file to the disk every quarter of a second, until
/// dropped. What it fails at is left to the last sync, which reports it.
struct WritingBack {
    stop: Option<mpsc::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl WritingBack {
    fn start(path: &Path) -> Option<WritingBack> {
        let file = std::fs::OpenOptions::new().write(true).open(path).ok()?;
        let (stop, stopped) = mpsc::channel::<()>();
        let thread = std::thread::Builder::new()
            .name("segment writeback".into())
            .spawn(move || {
                while let Err(mpsc::RecvTimeoutError::Timeout) =
                    stopped.recv_timeout(std::time::Duration::from_millis(250))
                {
                    let _ = file.sync_data();
                }
            })
            .ok()?;
        Some(WritingBack {
            stop: Some(stop),
            thread: Some(thread),
        })
    }
}

impl Drop for WritingBack {
    fn drop(&mut self) {
        drop(self.stop.take());
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// The key of a player in the `players` table: the first 16 bytes of its name in lower
/// case (zeros after a shorter one), then its number. A name is found by its first 16
/// bytes, and each number found checked against its name in `player_names`.
fn player_key(lower: &str, player: u32) -> [u8; 20] {
    let mut key = [0; 20];
    let bytes = lower.as_bytes();
    let n = bytes.len().min(16);
    key[..n].copy_from_slice(&bytes[..n]);
    key[16..].copy_from_slice(&player.to_be_bytes());
    key
}

/// The `players` table's keys as players are numbered, sorted in runs of
/// [`PLAYER_KEYS_HELD`] written to temporary files, merged at the end: a build's memory
/// does not grow with its players.
struct PlayerKeys {
    held: Vec<[u8; 20]>,
    /// How many it holds before it writes them ([`PLAYER_KEYS_HELD`]; fewer in tests).
    held_most: usize,
    runs: Vec<File>,
    dir: PathBuf,
}

/// How many keys of players [`PlayerKeys`] holds before it writes them (20 MB).
const PLAYER_KEYS_HELD: usize = 1 << 20;

impl PlayerKeys {
    fn push(&mut self, key: [u8; 20]) -> std::io::Result<()> {
        self.held.push(key);
        if self.held.len() == self.held_most {
            self.held.sort_unstable();
            let mut run = std::io::BufWriter::new(tempfile::tempfile_in(&self.dir)?);
            run.write_all(self.held.as_flattened())?;
            let mut file = run.into_inner().map_err(|e| e.into_error())?;
            file.rewind()?;
            self.runs.push(file);
            self.held.clear();
        }
        Ok(())
    }

    /// Puts every key, in order, into the `players` table.
    fn finish(mut self, store: &mut StoreWriter) -> std::io::Result<()> {
        self.held.sort_unstable();
        let mut readers: Vec<_> = self.runs.into_iter().map(std::io::BufReader::new).collect();
        let next = |r: &mut std::io::BufReader<File>| -> std::io::Result<Option<[u8; 20]>> {
            let mut key = [0; 20];
            match r.read_exact(&mut key) {
                Ok(()) => Ok(Some(key)),
                Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => Ok(None),
                Err(e) => Err(e),
            }
        };
        // The smallest key of each run, and of what is held (the run numbered last).
        let mut heads = std::collections::BinaryHeap::new();
        for (i, r) in readers.iter_mut().enumerate() {
            if let Some(key) = next(r)? {
                heads.push(std::cmp::Reverse((key, i)));
            }
        }
        let mut held = self.held.into_iter();
        if let Some(key) = held.next() {
            heads.push(std::cmp::Reverse((key, readers.len())));
        }
        while let Some(std::cmp::Reverse((key, i))) = heads.pop() {
            store.put(Table::Players, &key, &[])?;
            let following = match readers.get_mut(i) {
                Some(r) => next(r)?,
                None => held.next(),
            };
            if let Some(key) = following {
                heads.push(std::cmp::Reverse((key, i)));
            }
        }
        Ok(())
    }
}

impl SegmentWriter {
    pub(crate) fn create(path: &Path) -> Result<SegmentWriter, IndexError> {
        let store = StoreWriter::create(path).map_err(|e| IndexError::io(path, e))?;
        let writing_back = if store.is_unbuffered() {
            None
        } else {
            WritingBack::start(path)
        };
        Ok(SegmentWriter {
            store,
            players: PlayerKeys {
                held: Vec::new(),
                held_most: PLAYER_KEYS_HELD,
                runs: Vec::new(),
                dir: path.parent().unwrap_or(Path::new(".")).to_owned(),
            },
            writing_back,
        })
    }

    /// Writes the entries pending, each table's in the order they came (ascending), and
    /// empties it.
    pub(crate) fn store(&mut self, pending: &mut Pending) -> std::io::Result<()> {
        let mut start = 0;
        for &(table, key, piece, end) in &pending.entries {
            let value = &pending.bytes[start..end];
            start = end;
            let store = &mut self.store;
            match table {
                Filled::Games => store.put(Table::Games, &(key as u32).to_be_bytes(), value)?,
                Filled::Positions => store.put(Table::Positions, &key.to_be_bytes(), value)?,
                Filled::Crowded => store.put(Table::Crowded, &pieced(key, piece), value)?,
                Filled::Tails => store.put(Table::Tails, &(key as u32).to_be_bytes(), value)?,
                Filled::Summaries => store.put(Table::Summaries, &pieced(key, piece), value)?,
                Filled::Wholes => store.put(Table::Wholes, &key.to_be_bytes(), value)?,
                Filled::Labels => store.put(Table::Labels, &pieced(key, piece), value)?,
                Filled::Players => {
                    store.put(Table::PlayerNames, &(key as u32).to_be_bytes(), value)?;
                    // The bytes are UTF-8 (`Pending::player` puts a `&str`).
                    let name = std::str::from_utf8(value).unwrap_or_default();
                    self.players
                        .push(player_key(&name.to_lowercase(), key as u32))?;
                }
            }
        }
        pending.entries.clear();
        pending.bytes.clear();
        Ok(())
    }

    /// Writes what is pending and the `players` table, then ends the segment, of `games`
    /// games, and makes it durable.
    pub(crate) fn commit(mut self, mut pending: Pending, games: u64) -> std::io::Result<()> {
        self.store(&mut pending)?;
        let SegmentWriter {
            mut store,
            players,
            writing_back,
        } = self;
        players.finish(&mut store)?;
        drop(writing_back);
        store.finish(SEGMENT_FORMAT, games)
    }
}

/// The key of a piece of a value kept in pieces: the value's key, then the piece's
/// number.
fn pieced(key: u128, piece: u32) -> [u8; 20] {
    let mut bytes = [0; 20];
    bytes[..16].copy_from_slice(&key.to_be_bytes());
    bytes[16..].copy_from_slice(&piece.to_be_bytes());
    bytes
}

/// A position's summary as a segment stores it, made ready on any thread (encoding and
/// compressing summaries took a quarter of the time the writing of a segment's positions
/// held its thread).
pub(crate) struct PackedSummary {
    key: u128,
    /// The cells, encoded and compressed ([`pack_summary`]).
    cells: Vec<u8>,
    /// The whole cell, encoded.
    whole: Vec<u8>,
}

/// Packs summaries, with a compression context kept from one to the next.
pub(crate) struct SummaryPacker {
    compressor: zstd::bulk::Compressor<'static>,
    bytes: Vec<u8>,
}

impl SummaryPacker {
    pub(crate) fn new() -> std::io::Result<SummaryPacker> {
        Ok(SummaryPacker {
            compressor: zstd::bulk::Compressor::new(SUMMARY_LEVEL)?,
            bytes: Vec::new(),
        })
    }

    /// The summary of the position of `key`, packed as [`Pending::summary`] stores it.
    pub(crate) fn pack(
        &mut self,
        key: PositionKey,
        summary: &Summary,
    ) -> std::io::Result<PackedSummary> {
        self.bytes.clear();
        summary.encode(&mut self.bytes);
        let mut cells = Vec::new();
        pack_summary(&mut self.compressor, &self.bytes, &mut cells)?;
        let mut whole = Vec::new();
        summary.whole.encode(&mut whole);
        Ok(PackedSummary {
            key: stored(key),
            cells,
            whole,
        })
    }
}

/// A segment open for reading.
pub(crate) struct Segment {
    store: Store,
    /// The id its first game has in the index.
    pub(crate) first: GameId,
    /// The place of its first input in the index's list.
    first_source: u32,
    /// How many games.
    pub(crate) count: u64,
    name: String,
}

impl Segment {
    /// Opens a segment whose first game has the id `first` in the index, and its first
    /// input the place `first_source`.
    pub(crate) fn open(
        path: &Path,
        first: GameId,
        first_source: u32,
    ) -> Result<Segment, IndexError> {
        let store = Store::open(path, SEGMENT_FORMAT)?;
        let count = store.games;
        Ok(Segment {
            store,
            first,
            first_source,
            count,
            name: path.display().to_string(),
        })
    }

    fn damaged(&self, what: impl Into<String>) -> IndexError {
        IndexError::Damaged {
            path: self.name.clone().into(),
            what: what.into(),
        }
    }

    /// The value kept in pieces under `key`, empty when there is none.
    fn pieces(&self, table: Table, key: u128) -> Result<Vec<u8>, IndexError> {
        let mut bytes = Vec::new();
        self.store.range(
            table,
            &pieced(key, 0),
            &pieced(key, u32::MAX),
            |_, piece| {
                bytes.extend_from_slice(piece);
                Ok(())
            },
        )?;
        Ok(bytes)
    }

    /// A game's value (its record, then its kept line), by its number in the segment.
    fn game_value(&self, local: u32) -> Result<Option<Vec<u8>>, IndexError> {
        self.store.get(Table::Games, &local.to_be_bytes())
    }

    /// Whether the game is one of this segment's.
    pub(crate) fn holds(&self, game: GameId) -> bool {
        u64::from(game.0) >= u64::from(self.first.0)
            && u64::from(game.0) < u64::from(self.first.0) + self.count
    }

    /// Appends the postings of a position to `out`, by game (then move): from its block,
    /// or, for a tail, from the lines of the games its prefix names.
    pub(crate) fn postings<R: IndexRules>(
        &self,
        rules: &R,
        key: PositionKey,
        out: &mut Vec<Posting>,
    ) -> Result<(), IndexError> {
        let wanted = stored(key);
        let block = self
            .store
            .last_at_most(Table::Positions, &wanted.to_be_bytes())?;
        let from = out.len();
        if let Some((first, block)) = block {
            let first = u128::from_be_bytes(first.try_into().unwrap_or_default());
            find_in_block(first, &block, wanted, out)
                .filter(|()| out[from..].iter().all(|p| u64::from(p.game.0) < self.count))
                .ok_or_else(|| {
                    self.damaged(format!("the block of position {key} does not read"))
                })?;
        }
        if out.len() == from {
            let crowded = self.pieces(Table::Crowded, wanted)?;
            if !crowded.is_empty() {
                let mut c = Cursor::new(&crowded);
                read_postings(&mut c, Some(out))
                    .filter(|()| c.is_empty())
                    .filter(|()| out[from..].iter().all(|p| u64::from(p.game.0) < self.count))
                    .ok_or_else(|| {
                        self.damaged(format!("the postings of position {key} do not read"))
                    })?;
            }
        }
        if out.len() == from {
            self.tail_postings(rules, key, out)?;
        }
        for posting in &mut out[from..] {
            posting.game = GameId(self.first.0 + posting.game.0);
        }
        Ok(())
    }

    /// Appends the postings of a tail, its games numbered within the segment.
    fn tail_postings<R: IndexRules>(
        &self,
        rules: &R,
        key: PositionKey,
        out: &mut Vec<Posting>,
    ) -> Result<(), IndexError> {
        let wanted = tail_prefix(key);
        let block = self
            .store
            .last_at_most(Table::Tails, &wanted.to_be_bytes())?;
        let Some((first, block)) = block else {
            return Ok(());
        };
        let first = u32::from_be_bytes(first.try_into().unwrap_or_default());
        let mut games = Vec::new();
        find_in_tails(first, &block, wanted, &mut games)
            .filter(|()| games.iter().all(|&g| u64::from(g) < self.count))
            .ok_or_else(|| self.damaged(format!("the tails of position {key} do not read")))?;
        // Other positions of the same prefix interleave theirs.
        games.sort_unstable();
        games.dedup();
        let mut codes = Vec::new();
        for game in games {
            let value = self
                .game_value(game)?
                .ok_or_else(|| self.damaged(format!("game {game} is missing")))?;
            let mut c = Cursor::new(&value);
            GameRecord::read(&mut c)
                .ok_or_else(|| self.damaged(format!("game {game} does not read")))?;
            let kept = c.rest();
            codes.clear();
            line::plies_at(rules, kept, key, &mut codes)
                .ok_or_else(|| self.damaged(format!("the line of game {game} does not read")))?;
            codes.sort_unstable();
            out.extend(codes.iter().map(|&code| Posting {
                game: GameId(game),
                code,
            }));
        }
        Ok(())
    }

    /// Gives `each` the cells of the summary of a position many of this segment's games
    /// reached, if it has one (then true): its whole cell alone when `whole`. Their games
    /// are numbered within the segment.
    pub(crate) fn summary(
        &self,
        key: PositionKey,
        whole: bool,
        mut each: impl FnMut(&Cell),
    ) -> Result<bool, IndexError> {
        let in_segment = |game: u32| u64::from(game) < self.count;
        let mut valid = true;
        let mut checked = |cell: &Cell| {
            valid &= cell.rows.iter().all(|r| in_segment(r.last))
                && cell
                    .top
                    .iter()
                    .chain(&cell.recent)
                    .all(|k| in_segment(k.game));
            if valid {
                each(cell);
            }
        };
        let damaged = || self.damaged(format!("the summary of position {key} does not read"));
        if whole {
            let Some(bytes) = self.store.get(Table::Wholes, &stored(key).to_be_bytes())? else {
                return Ok(false);
            };
            Summary::read_whole(&bytes, &mut checked).ok_or_else(damaged)?;
        } else {
            let packed = self.pieces(Table::Summaries, stored(key))?;
            if packed.is_empty() {
                return Ok(false);
            }
            unpack_summary(&packed)
                .and_then(|bytes| Summary::read_cells(&bytes, &mut checked))
                .ok_or_else(damaged)?;
        }
        if valid { Ok(true) } else { Err(damaged()) }
    }

    /// The id in the index of one of this segment's games.
    pub(crate) fn global(&self, local: u32) -> GameId {
        GameId(self.first.0 + local)
    }

    /// The record of a game of this segment (by its id in the index), its input placed
    /// in the index's list.
    pub(crate) fn game(&self, game: GameId) -> Result<GameRecord, IndexError> {
        let local = game.0.wrapping_sub(self.first.0);
        let value = self
            .game_value(local)?
            .ok_or_else(|| self.damaged(format!("game {} is missing", game.0)))?;
        let mut record = GameRecord::read(&mut Cursor::new(&value))
            .ok_or_else(|| self.damaged(format!("game {} does not read", game.0)))?;
        record.source = record
            .source
            .checked_add(self.first_source)
            .ok_or_else(|| self.damaged(format!("game {} names no input", game.0)))?;
        Ok(record)
    }

    /// A player's name.
    pub(crate) fn player_name(&self, player: PlayerId) -> Result<String, IndexError> {
        Ok(self
            .store
            .get(Table::PlayerNames, &player.0.to_be_bytes())?
            .and_then(|v| String::from_utf8(v).ok())
            .unwrap_or_else(|| "?".to_owned()))
    }

    /// Every player's name, by id.
    pub(crate) fn player_names(&self) -> Result<Vec<String>, IndexError> {
        let mut texts = Vec::new();
        self.store.for_each(Table::PlayerNames, |id, text| {
            let text = std::str::from_utf8(text)
                .ok()
                .filter(|_| id == (texts.len() as u32).to_be_bytes())
                .ok_or_else(|| self.damaged("its players are not numbered in order"))?;
            texts.push(text.to_owned());
            Ok(())
        })?;
        Ok(texts)
    }

    /// Every label's text, by id.
    pub(crate) fn label_texts(&self) -> Result<Vec<String>, IndexError> {
        let mut texts = Vec::new();
        for chunk in 0u128.. {
            let packed = self.pieces(Table::Labels, chunk)?;
            if packed.is_empty() {
                break;
            }
            let damaged = || self.damaged(format!("its labels' chunk {chunk} does not read"));
            let raw = unpack_summary(&packed).ok_or_else(damaged)?;
            let mut c = Cursor::new(&raw);
            let before = texts.len();
            while !c.is_empty() {
                let text = c
                    .varint()
                    .and_then(|n| c.take(usize::try_from(n).ok()?))
                    .and_then(|b| std::str::from_utf8(b).ok())
                    .ok_or_else(damaged)?;
                texts.push(text.to_owned());
            }
            if texts.len() - before != LABEL_CHUNK {
                break;
            }
        }
        Ok(texts)
    }

    /// Calls `each` with every game's record, in order, its input placed in the index's
    /// list.
    pub(crate) fn each_record(
        &self,
        mut each: impl FnMut(GameId, GameRecord),
    ) -> Result<(), IndexError> {
        self.store.for_each(Table::Games, |local, value| {
            let local = u32::from_be_bytes(local.try_into().unwrap_or_default());
            let mut record = GameRecord::read(&mut Cursor::new(value))
                .filter(|_| u64::from(local) < self.count)
                .ok_or_else(|| self.damaged(format!("game {local} does not read")))?;
            record.source = record
                .source
                .checked_add(self.first_source)
                .ok_or_else(|| self.damaged(format!("game {local} names no input")))?;
            each(self.global(local), record);
            Ok(())
        })
    }

    /// A player's ids, by name in any case, ascending: none for a name the segment does
    /// not hold, more than one for a name met again only long after it was numbered.
    pub(crate) fn player(&self, name: &str) -> Result<Vec<PlayerId>, IndexError> {
        let lower = name.to_lowercase();
        let mut candidates = Vec::new();
        self.store.range(
            Table::Players,
            &player_key(&lower, 0),
            &player_key(&lower, u32::MAX),
            |key, _| {
                candidates.push(u32::from_be_bytes(key[16..].try_into().unwrap_or_default()));
                Ok(())
            },
        )?;
        // Names alike in their first 16 bytes share them.
        let mut ids = Vec::new();
        for id in candidates {
            let written = self.store.get(Table::PlayerNames, &id.to_be_bytes())?;
            let written = written.as_deref().and_then(|w| std::str::from_utf8(w).ok());
            if written.is_some_and(|w| w.to_lowercase() == lower) {
                ids.push(PlayerId(id));
            }
        }
        Ok(ids)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn postings_round_trip_and_damage_is_seen() {
        let postings = [
            Posting {
                game: GameId(3),
                code: MoveCode(12),
            },
            Posting {
                game: GameId(3),
                code: MoveCode(700),
            },
            Posting {
                game: GameId(1_000_000),
                code: MoveCode::NONE,
            },
        ];
        let mut bytes = Vec::new();
        encode_postings(&postings, &mut bytes);
        let mut back = Vec::new();
        assert_eq!(decode_postings(&bytes, &mut back), Some(()));
        assert_eq!(back, postings);
        back.clear();
        assert_eq!(decode_postings(&bytes[..bytes.len() - 1], &mut back), None);
        let mut longer = bytes.clone();
        longer.push(0);
        assert_eq!(decode_postings(&longer, &mut Vec::new()), None);
    }

    #[test]
    fn a_block_gives_the_postings_of_its_positions_and_no_others() {
        let posting = |game| Posting {
            game: GameId(game),
            code: MoveCode(7),
        };
        // Keys 100, 150, 150 (the same high bits twice), 400.
        let entries = [(100_u128, 1), (150, 2), (150, 3), (400, 4)];
        let mut block = Vec::new();
        let mut last = entries[0].0;
        for (key, game) in entries {
            put_varint128(&mut block, key - last);
            encode_postings(&[posting(game)], &mut block);
            last = key;
        }
        let find = |wanted| {
            let mut out = Vec::new();
            find_in_block(100, &block, wanted, &mut out).map(|()| out)
        };
        assert_eq!(find(100), Some(vec![posting(1)]));
        assert_eq!(find(150), Some(vec![posting(2), posting(3)]));
        assert_eq!(find(400), Some(vec![posting(4)]));
        assert_eq!(find(120), Some(vec![]));
        assert_eq!(find(999), Some(vec![]));
        // Cut, or not starting at its own key: does not read.
        let mut out = Vec::new();
        assert_eq!(
            find_in_block(100, &block[..block.len() - 1], 400, &mut out),
            None
        );
        let mut shifted = vec![1];
        shifted.extend_from_slice(&block[1..]);
        assert_eq!(find_in_block(100, &shifted, 400, &mut out), None);
    }

    #[test]
    fn a_tail_block_gives_the_games_of_its_prefix_and_no_others() {
        let dir = tempfile::tempdir().expect("a folder");
        let path = dir.path().join("segment");
        let mut pending = Pending::new(usize::MAX);
        let mut tails = TailWriter::new(400, 3_000);
        // 300 prefixes, 7 apart, one or two games each: several blocks.
        for i in 0..300_u32 {
            let games: Vec<GameId> = (0..1 + i % 2).map(|g| GameId(i * 10 + g)).collect();
            tails.push(1_000 + 7 * i, &games, &mut pending);
        }
        tails.finish(&mut pending);
        let writer = SegmentWriter::create(&path).expect("created");
        writer.commit(pending, 3_000).expect("written");
        let store = Store::open(&path, SEGMENT_FORMAT).expect("opened");
        let block_of = |wanted: u32| {
            let (first, block) = store
                .last_at_most(Table::Tails, &wanted.to_be_bytes())
                .expect("read")
                .expect("a block");
            (
                u32::from_be_bytes(first.try_into().expect("4 bytes")),
                block,
            )
        };
        let find = |wanted: u32| {
            let (first, block) = block_of(wanted);
            let mut out = Vec::new();
            find_in_tails(first, &block, wanted, &mut out).map(|()| out)
        };
        assert_ne!(block_of(1_000).0, block_of(1_000 + 7 * 299).0, "one block");
        for i in 0..300_u32 {
            let expected: Vec<u32> = (0..1 + i % 2).map(|g| i * 10 + g).collect();
            assert_eq!(find(1_000 + 7 * i), Some(expected));
            assert_eq!(find(1_001 + 7 * i), Some(vec![]));
        }
        // Cut, or not starting at its own prefix: does not read.
        let (first, block) = block_of(1_000);
        let mut out = Vec::new();
        assert_eq!(
            find_in_tails(first, &block[..block.len() - 2], 5_000, &mut out),
            None
        );
        let mut shifted = block.clone();
        shifted[4] |= 1;
        assert_eq!(find_in_tails(first, &shifted, 5_000, &mut out), None);
    }

    #[test]
    fn players_keys_come_out_sorted_across_the_runs_written() {
        let dir = tempfile::tempdir().expect("a folder");
        let path = dir.path().join("segment");
        let mut store = StoreWriter::create(&path).expect("created");
        let mut keys = PlayerKeys {
            held: Vec::new(),
            held_most: 64,
            runs: Vec::new(),
            dir: dir.path().to_owned(),
        };
        // 1,000 players in an order far from their names' (several runs, and some held).
        let mut expected = Vec::new();
        for id in 0..1_000_u32 {
            let name = format!("player {:04}", (id * 7_919) % 1_000);
            let key = player_key(&name, id);
            keys.push(key).expect("held");
            expected.push(key.to_vec());
        }
        assert_eq!(keys.runs.len(), 1_000 / 64);
        keys.finish(&mut store).expect("merged");
        store.finish(SEGMENT_FORMAT, 0).expect("written");
        expected.sort();
        let mut read = Vec::new();
        Store::open(&path, SEGMENT_FORMAT)
            .expect("opened")
            .for_each(Table::Players, |key, _| {
                read.push(key.to_vec());
                Ok(())
            })
            .expect("read");
        assert_eq!(read, expected);
    }

    #[test]
    fn a_player_is_found_by_name_in_any_case_and_names_alike_in_their_first_bytes_apart() {
        let dir = tempfile::tempdir().expect("a folder");
        let path = dir.path().join("segment");
        let names = [
            "Grandmaster Alpha",
            "grandmaster alphabet",
            "GRANDMASTER ALPHA",
            "Ann",
            "ann\0",
        ];
        let writer = SegmentWriter::create(&path).expect("created");
        let mut pending = Pending::new(usize::MAX);
        for (id, name) in names.iter().enumerate() {
            pending.player(PlayerId(id as u32), name);
        }
        writer.commit(pending, 0).expect("written");
        let segment = Segment::open(&path, GameId(0), 0).expect("opened");
        let ids = |name: &str| {
            let found = segment.player(name).expect("read");
            found.into_iter().map(|p| p.0).collect::<Vec<_>>()
        };
        assert_eq!(ids("grandmaster ALPHA"), [0, 2]);
        assert_eq!(ids("Grandmaster Alphabet"), [1]);
        assert_eq!(ids("grandmaster alph"), Vec::<u32>::new());
        assert_eq!(ids("ANN"), [3]);
        assert_eq!(ids("ann\0"), [4]);
        assert_eq!(ids("Bob"), Vec::<u32>::new());
        assert_eq!(segment.player_names().expect("read"), names);
    }

    #[test]
    fn labels_come_back_in_order_across_chunks() {
        // With the empty text first: chunks of which the last is partly full, and chunks
        // all full (no chunk after them).
        for count in [2 * LABEL_CHUNK + 5, 2 * LABEL_CHUNK - 1] {
            let dir = tempfile::tempdir().expect("a folder");
            let path = dir.path().join("segment");
            let texts: Vec<String> = std::iter::once(String::new())
                .chain((0..count).map(|i| format!("https://lichess.org/{i:08}é")))
                .collect();
            let writer = SegmentWriter::create(&path).expect("created");
            let mut pending = Pending::new(usize::MAX);
            let mut labels = LabelWriter::new().expect("a compressor");
            for text in &texts[1..] {
                labels.push(text, &mut pending).expect("packed");
            }
            labels.finish(&mut pending).expect("packed");
            writer.commit(pending, 0).expect("committed");
            let segment = Segment::open(&path, GameId(0), 0).expect("opened");
            assert_eq!(segment.label_texts().expect("read"), texts);
            // Compressed together, a lichess site takes a few bytes, not its 28.
            let size = std::fs::metadata(&path).expect("a file").len();
            assert!(size < 20 * texts.len() as u64, "{size} bytes");
        }
    }
}
