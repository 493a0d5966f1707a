//! One segment of an index: the games of one build or one `--append`, in a file of its
//! own that is written once, committed, renamed into place and never written again.
//!
//! The file is a [redb](https://docs.rs/redb) database (why redb: ARCHITECTURE.md) with
//! these tables:
//!
//! | table | key | value |
//! |---|---|---|
//! | `meta` | a name | the segment's format version and its number of games |
//! | `games` | game number in the segment | a [`GameRecord`], its input numbered within the segment; then the game's kept line, if it has one ([`crate::line`]) |
//! | `positions` | the first key of a block | a block of positions, each with its postings: every game that reached it, with the move played |
//! | `tails` | the first prefix of a block | a block of rare positions: the high 32 bits of each one's key beside each game that reached it |
//! | `crowded` | a position's key (96 bits) and a piece number | the postings of a position reached by many games, in pieces |
//! | `summaries` | a position's key (96 bits) and a piece number | for a position many games reached, what the explorer needs of them ([`Summary`]), zstd-compressed after its length, in pieces |
//! | `wholes` | a position's key (96 bits) | for a position with a summary, the summary's whole cell (all its games as one), not compressed: what an explorer question with no filter reads |
//! | `player_names` | player id | the name as written when it was numbered |
//! | `players` | the name in lower case and a player id of it (a name met again only long after is numbered twice) | nothing |
//! | `labels` | a chunk's number and a piece number | the texts of an event, a site, an opening or a ruleset, in the order numbered (a text met again only long after may be numbered twice), [`LABEL_CHUNK`] labels to a chunk, each its length then its bytes, zstd-compressed after their length, in pieces |
//!
//! Positions are kept by the high 96 bits of their key (as lila's explorer keeps them: a
//! year of lichess gives no two positions the same 96 bits in practice), sorted, in blocks
//! of up to 32 positions or about 480 bytes: one store entry per block, not per position
//! (which took most of a build's time), and several blocks to a 4 KiB page of the store
//! (blocks of 4 KiB left half of each page unused). A block is its positions one after the
//! other: the key's difference from the one before (0 for the first, whose key is the
//! entry's), then the postings. A position is found in the last block whose first key is
//! not above its own.
//!
//! A value of more than a page would take a run of pages of the next power of two, a
//! third of it empty on average: the postings of a position that many games reached (in
//! `crowded`, not in a block) and the summaries are cut into pieces of [`PIECE`] bytes,
//! two to a page, stored under the position's key and the piece's number.
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

use redb::{ReadableDatabase, ReadableTable, TableDefinition};

use crate::codec::{BitReader, BitWriter, Cursor, put_varint, put_varint128, width};
use crate::error::IndexError;
use crate::key::PositionKey;
use crate::line;
use crate::record::{GameId, GameRecord, PlayerId, Posting};
use crate::rules::{IndexRules, MoveCode};
use crate::summary::{Cell, Summary};

const META: TableDefinition<&str, u64> = TableDefinition::new("meta");
const GAMES: TableDefinition<u32, &[u8]> = TableDefinition::new("games");
const POSITIONS: TableDefinition<u128, &[u8]> = TableDefinition::new("positions");
const TAILS: TableDefinition<u32, &[u8]> = TableDefinition::new("tails");
const CROWDED: TableDefinition<(u128, u32), &[u8]> = TableDefinition::new("crowded");
const SUMMARIES: TableDefinition<(u128, u32), &[u8]> = TableDefinition::new("summaries");
const WHOLES: TableDefinition<u128, &[u8]> = TableDefinition::new("wholes");
const PLAYER_NAMES: TableDefinition<u32, &str> = TableDefinition::new("player_names");
const PLAYERS: TableDefinition<(&str, u32), ()> = TableDefinition::new("players");
const LABELS: TableDefinition<(u128, u32), &[u8]> = TableDefinition::new("labels");

/// The version of a segment's tables: a segment of another version is not read.
pub(crate) const SEGMENT_FORMAT: u64 = 10;

/// The memory the store may hold for a segment's pages, written or read: redb's default
/// (1 GiB) took a build of a million games to 984 MB at its peak, near the 1 GiB the build
/// must stay under whatever its input.
const STORE_CACHE: usize = 192 << 20;

/// The memory the store may hold while it compacts a segment just committed. Compaction
/// reads the whole file again, page by page, and with [`STORE_CACHE`] it read most of it
/// from the file: 4.0 s of a 26 s build of a million games, 1.0 s with the file (464 MB)
/// held whole. By then the build has let go of its sorting buffers and its write cache, so
/// its peak stays under 1 GiB (682 MiB for that build).
const COMPACTION_CACHE: usize = 512 << 20;

/// The size of the pieces a large value is cut into: two of them, with the store's
/// bookkeeping, fill a 4 KiB page.
const PIECE: usize = 2_000;

/// A position whose postings take more bytes than this is written to `crowded`.
const CROWDED_BYTES: usize = PIECE;

/// The value written in pieces under `key`, empty when there is none.
fn get_pieces(
    table: &redb::ReadOnlyTable<(u128, u32), &'static [u8]>,
    key: u128,
) -> Result<Vec<u8>, redb::StorageError> {
    let mut bytes = Vec::new();
    for entry in table.range((key, 0)..=(key, u32::MAX))? {
        bytes.extend_from_slice(entry?.1.value());
    }
    Ok(bytes)
}

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
/// such blocks, with the store's bookkeeping, fill a 4 KiB page.
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

/// Entries for the tables a build fills, held until [`SegmentWriter::store`] stores them
/// and commits (once [`Pending::is_full`]).
///
/// Why: at its commit the store sums up (checksums) every page the transaction wrote, and
/// takes back into its cache each one it had to write out to keep within its cache. A
/// segment written in one transaction was written twice (440 MB more for a million
/// games) and its commit took 1.6 s of a 21 s build. Committed every few tens of MB (a
/// fraction of [`STORE_CACHE`], whose write buffer is half of it), the pages are summed
/// up while still in the cache.
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
/// [`SegmentWriter::commit`] has made it durable (and it is not in its place in the
/// index before); meanwhile each [`SegmentWriter::store`] commits what it stored, not
/// durably, and the file is written to the disk as it grows.
pub(crate) struct SegmentWriter {
    /// The transaction open, `None` only if a commit failed.
    txn: Option<redb::WriteTransaction>,
    db: redb::Database,
    path: PathBuf,
    /// Asks the system to write the file's new pages to the disk as they come, so that the
    /// last commit does not wait for all of them (a million games: 464 MB). Ends when
    /// dropped.
    writing_back: Option<WritingBack>,
}

/// A thread that has the system write a file to the disk every quarter of a second, until
/// dropped. What it fails at is left to the commit's own sync, which reports it.
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

impl SegmentWriter {
    pub(crate) fn create(path: &Path) -> Result<SegmentWriter, IndexError> {
        let db = redb::Builder::new()
            .set_cache_size(STORE_CACHE)
            .create(path)
            .map_err(|e| IndexError::store(path, e))?;
        let txn = db.begin_write().map_err(|e| IndexError::store(path, e))?;
        Ok(SegmentWriter {
            txn: Some(txn),
            db,
            path: path.to_owned(),
            writing_back: WritingBack::start(path),
        })
    }

    fn txn(&self) -> Result<&redb::WriteTransaction, redb::Error> {
        self.txn.as_ref().ok_or(redb::Error::TransactionPoisoned)
    }

    /// Stores what is pending, then commits it (not durably) and begins the next
    /// transaction.
    pub(crate) fn store(&mut self, pending: &mut Pending) -> Result<(), redb::Error> {
        self.insert(pending)?;
        let mut txn = self.txn.take().ok_or(redb::Error::TransactionPoisoned)?;
        txn.set_durability(redb::Durability::None)?;
        txn.commit()?;
        self.txn = Some(self.db.begin_write()?);
        Ok(())
    }

    /// Inserts the pending entries, each table's in the order they came, and empties it.
    fn insert(&self, pending: &mut Pending) -> Result<(), redb::Error> {
        let txn = self.txn()?;
        let mut games = txn.open_table(GAMES)?;
        let mut positions = txn.open_table(POSITIONS)?;
        let mut crowded = txn.open_table(CROWDED)?;
        let mut tails = txn.open_table(TAILS)?;
        let mut summaries = txn.open_table(SUMMARIES)?;
        let mut wholes = txn.open_table(WHOLES)?;
        let mut labels = txn.open_table(LABELS)?;
        let mut player_names = txn.open_table(PLAYER_NAMES)?;
        let mut players = txn.open_table(PLAYERS)?;
        let mut start = 0;
        for &(table, key, piece, end) in &pending.entries {
            let value = &pending.bytes[start..end];
            start = end;
            match table {
                Filled::Games => drop(games.insert(key as u32, value)?),
                Filled::Positions => drop(positions.insert(key, value)?),
                Filled::Crowded => drop(crowded.insert((key, piece), value)?),
                Filled::Tails => drop(tails.insert(key as u32, value)?),
                Filled::Summaries => drop(summaries.insert((key, piece), value)?),
                Filled::Wholes => drop(wholes.insert(key, value)?),
                Filled::Labels => drop(labels.insert((key, piece), value)?),
                Filled::Players => {
                    // Put as a `&str`: the bytes are UTF-8.
                    let name = std::str::from_utf8(value).unwrap_or_default();
                    player_names.insert(key as u32, name)?;
                    players.insert((name.to_lowercase().as_str(), key as u32), ())?;
                }
            }
        }
        pending.entries.clear();
        pending.bytes.clear();
        Ok(())
    }

    /// Stores what is pending and commits the segment, of `games` games, durably; then
    /// gives back the room the store left at the end of the file (it grows its file by
    /// large steps: a fifth of it, for a million games).
    pub(crate) fn commit(mut self, mut pending: Pending, games: u64) -> Result<(), redb::Error> {
        self.insert(&mut pending)?;
        let txn = self.txn.take().ok_or(redb::Error::TransactionPoisoned)?;
        {
            let mut meta = txn.open_table(META)?;
            meta.insert("format", SEGMENT_FORMAT)?;
            meta.insert("games", games)?;
        }
        txn.commit()?;
        drop(self.writing_back.take());
        // Closed and opened again with a larger cache for the compaction (the store sets
        // its cache when it opens a file). The file is not yet in its place in the index,
        // so no reader sees it meanwhile.
        let SegmentWriter { db, path, .. } = self;
        drop(db);
        let mut db = redb::Builder::new()
            .set_cache_size(COMPACTION_CACHE)
            .open(&path)?;
        db.compact()?;
        Ok(())
    }
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
    games: redb::ReadOnlyTable<u32, &'static [u8]>,
    positions: redb::ReadOnlyTable<u128, &'static [u8]>,
    crowded: redb::ReadOnlyTable<(u128, u32), &'static [u8]>,
    tails: redb::ReadOnlyTable<u32, &'static [u8]>,
    summaries: redb::ReadOnlyTable<(u128, u32), &'static [u8]>,
    wholes: redb::ReadOnlyTable<u128, &'static [u8]>,
    player_names: redb::ReadOnlyTable<u32, &'static str>,
    players: redb::ReadOnlyTable<(&'static str, u32), ()>,
    labels: redb::ReadOnlyTable<(u128, u32), &'static [u8]>,
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
        let store = |e: redb::Error| IndexError::store(path, e);
        let db = redb::Builder::new()
            .set_cache_size(STORE_CACHE)
            .open_read_only(path)
            .map_err(|e| store(e.into()))?;
        let txn = db.begin_read().map_err(|e| store(e.into()))?;
        let meta = txn.open_table(META).map_err(|e| store(e.into()))?;
        let get = |name: &str| -> Result<u64, IndexError> {
            meta.get(name)
                .map_err(|e| store(e.into()))?
                .map(|v| v.value())
                .ok_or_else(|| IndexError::Damaged {
                    path: path.to_owned(),
                    what: format!("its segment has no {name}"),
                })
        };
        let format = get("format")?;
        if format != SEGMENT_FORMAT {
            return Err(IndexError::Version {
                path: path.to_owned(),
                found: format,
                expected: SEGMENT_FORMAT,
            });
        }
        let count = get("games")?;
        let open = |e: redb::TableError| store(e.into());
        Ok(Segment {
            games: txn.open_table(GAMES).map_err(open)?,
            positions: txn.open_table(POSITIONS).map_err(open)?,
            crowded: txn.open_table(CROWDED).map_err(open)?,
            tails: txn.open_table(TAILS).map_err(open)?,
            summaries: txn.open_table(SUMMARIES).map_err(open)?,
            wholes: txn.open_table(WHOLES).map_err(open)?,
            player_names: txn.open_table(PLAYER_NAMES).map_err(open)?,
            players: txn.open_table(PLAYERS).map_err(open)?,
            labels: txn.open_table(LABELS).map_err(open)?,
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

    fn read_error(&self, e: impl Into<redb::Error>) -> IndexError {
        IndexError::store(std::path::Path::new(&self.name), e.into())
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
            .positions
            .range(..=wanted)
            .map_err(|e| self.read_error(e))?
            .next_back()
            .transpose()
            .map_err(|e| self.read_error(e))?;
        let from = out.len();
        if let Some((first, block)) = block {
            find_in_block(first.value(), block.value(), wanted, out)
                .filter(|()| out[from..].iter().all(|p| u64::from(p.game.0) < self.count))
                .ok_or_else(|| {
                    self.damaged(format!("the block of position {key} does not read"))
                })?;
        }
        if out.len() == from {
            let crowded = get_pieces(&self.crowded, wanted).map_err(|e| self.read_error(e))?;
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
            .tails
            .range(..=wanted)
            .map_err(|e| self.read_error(e))?
            .next_back()
            .transpose()
            .map_err(|e| self.read_error(e))?;
        let Some((first, block)) = block else {
            return Ok(());
        };
        let mut games = Vec::new();
        find_in_tails(first.value(), block.value(), wanted, &mut games)
            .filter(|()| games.iter().all(|&g| u64::from(g) < self.count))
            .ok_or_else(|| self.damaged(format!("the tails of position {key} do not read")))?;
        // Other positions of the same prefix interleave theirs.
        games.sort_unstable();
        games.dedup();
        let mut codes = Vec::new();
        for game in games {
            let value = self
                .games
                .get(game)
                .map_err(|e| self.read_error(e))?
                .ok_or_else(|| self.damaged(format!("game {game} is missing")))?;
            let mut c = Cursor::new(value.value());
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
            let Some(bytes) = self
                .wholes
                .get(stored(key))
                .map_err(|e| self.read_error(e))?
            else {
                return Ok(false);
            };
            Summary::read_whole(bytes.value(), &mut checked).ok_or_else(damaged)?;
        } else {
            let packed =
                get_pieces(&self.summaries, stored(key)).map_err(|e| self.read_error(e))?;
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
            .games
            .get(local)
            .map_err(|e| self.read_error(e))?
            .ok_or_else(|| self.damaged(format!("game {} is missing", game.0)))?;
        let mut record = GameRecord::read(&mut Cursor::new(value.value()))
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
            .player_names
            .get(player.0)
            .map_err(|e| self.read_error(e))?
            .map(|v| v.value().to_owned())
            .unwrap_or_else(|| "?".to_owned()))
    }

    /// Every player's name, by id.
    pub(crate) fn player_names(&self) -> Result<Vec<String>, IndexError> {
        read_texts(&self.player_names)
            .map_err(|e| self.read_error(e))?
            .ok_or_else(|| self.damaged("its players are not numbered in order"))
    }

    /// Every label's text, by id.
    pub(crate) fn label_texts(&self) -> Result<Vec<String>, IndexError> {
        let mut texts = Vec::new();
        for chunk in 0u128.. {
            let packed = get_pieces(&self.labels, chunk).map_err(|e| self.read_error(e))?;
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
        for entry in self.games.iter().map_err(|e| self.read_error(e))? {
            let (local, value) = entry.map_err(|e| self.read_error(e))?;
            let local = local.value();
            let mut record = GameRecord::read(&mut Cursor::new(value.value()))
                .filter(|_| u64::from(local) < self.count)
                .ok_or_else(|| self.damaged(format!("game {local} does not read")))?;
            record.source = record
                .source
                .checked_add(self.first_source)
                .ok_or_else(|| self.damaged(format!("game {local} names no input")))?;
            each(self.global(local), record);
        }
        Ok(())
    }

    /// A player's ids, by name in any case, ascending: none for a name the segment does
    /// not hold, more than one for a name met again only long after it was numbered.
    pub(crate) fn player(&self, name: &str) -> Result<Vec<PlayerId>, IndexError> {
        let name = name.to_lowercase();
        let ids = self
            .players
            .range((name.as_str(), 0)..=(name.as_str(), u32::MAX))
            .map_err(|e| self.read_error(e))?;
        ids.map(|entry| Ok(PlayerId(entry.map_err(|e| self.read_error(e))?.0.value().1)))
            .collect()
    }
}

/// The texts of a table numbered from 0 without a gap; `None` when it has one.
fn read_texts(
    table: &redb::ReadOnlyTable<u32, &'static str>,
) -> Result<Option<Vec<String>>, redb::StorageError> {
    let mut texts = Vec::new();
    for entry in table.iter()? {
        let (id, text) = entry?;
        if id.value() as usize != texts.len() {
            return Ok(None);
        }
        texts.push(text.value().to_owned());
    }
    Ok(Some(texts))
}

#[cfg(test)]
mod tests {
    use super::*;
    use redb::{ReadableTable, ReadableTableMetadata};

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
        let db = redb::Builder::new()
            .create_with_backend(redb::backends::InMemoryBackend::new())
            .expect("a store");
        let txn = db.begin_write().expect("a transaction");
        {
            let mut pending = Pending::new(usize::MAX);
            let mut tails = TailWriter::new(400, 3_000);
            // 300 prefixes, 7 apart, one or two games each: several blocks.
            for i in 0..300_u32 {
                let games: Vec<GameId> = (0..1 + i % 2).map(|g| GameId(i * 10 + g)).collect();
                tails.push(1_000 + 7 * i, &games, &mut pending);
            }
            tails.finish(&mut pending);
            let mut table = txn.open_table(TAILS).expect("a table");
            let mut start = 0;
            for &(_, key, _, end) in &pending.entries {
                table
                    .insert(key as u32, &pending.bytes[start..end])
                    .expect("written");
                start = end;
            }
        }
        let table = txn.open_table(TAILS).expect("a table");
        assert!(table.len().expect("a length") > 1);
        let find = |wanted: u32| {
            let (first, block) = table
                .range(..=wanted)
                .expect("a range")
                .next_back()
                .map(|e| e.expect("an entry"))
                .expect("a block");
            let mut out = Vec::new();
            find_in_tails(first.value(), block.value(), wanted, &mut out).map(|()| out)
        };
        for i in 0..300_u32 {
            let expected: Vec<u32> = (0..1 + i % 2).map(|g| i * 10 + g).collect();
            assert_eq!(find(1_000 + 7 * i), Some(expected));
            assert_eq!(find(1_001 + 7 * i), Some(vec![]));
        }
        // Cut, or not starting at its own prefix: does not read.
        let (first, block) = table.first().expect("read").expect("a block");
        let block = block.value().to_vec();
        let mut out = Vec::new();
        assert_eq!(
            find_in_tails(first.value(), &block[..block.len() - 2], 5_000, &mut out),
            None
        );
        let mut shifted = block.clone();
        shifted[4] |= 1;
        assert_eq!(
            find_in_tails(first.value(), &shifted, 5_000, &mut out),
            None
        );
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
            {
                let txn = writer.txn().expect("a transaction");
                txn.open_table(GAMES).expect("games");
                txn.open_table(POSITIONS).expect("positions");
                txn.open_table(CROWDED).expect("crowded");
                txn.open_table(TAILS).expect("tails");
                txn.open_table(SUMMARIES).expect("summaries");
                txn.open_table(WHOLES).expect("wholes");
                txn.open_table(PLAYER_NAMES).expect("names");
                txn.open_table(PLAYERS).expect("players");
            }
            writer.commit(pending, 0).expect("committed");
            let segment = Segment::open(&path, GameId(0), 0).expect("opened");
            assert_eq!(segment.label_texts().expect("read"), texts);
            // Compressed together, a lichess site takes a few bytes, not its 28.
            let size = std::fs::metadata(&path).expect("a file").len();
            assert!(size < 20 * texts.len() as u64, "{size} bytes");
        }
    }
}
