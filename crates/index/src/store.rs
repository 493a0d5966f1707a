//! A segment's file: sorted tables, written once from start to end, read with positional
//! reads, every byte read checked against a hash kept where it was found from.
//!
//! Why not a store (redb, before segment format 11): a segment is never written again
//! once renamed into place, and its entries come sorted, table by table. A B-tree store
//! made each insert walk its tree, its commit sum up and write its pages, and its
//! allocator leave pages above a hole that only a compaction, reading the whole file
//! again, moved down: about 1.3 s of an 11.5 s build of a million games, and 1.5 s of
//! system time copying pages. What a segment needs of a store is what an SST of
//! LevelDB or RocksDB is: blocks of sorted entries, an index of their first keys, a
//! footer; atomicity comes from the rename, as before.
//!
//! The file:
//!
//! | part | what |
//! |---|---|
//! | data blocks | a table's entries in key order, each its key (the table's width), its value's length (a variable-length integer), its value; a block ends once it holds [`BLOCK_BYTES`] |
//! | index blocks | for [`INDEX_ENTRIES`] data blocks of a table each: its first key, offset, length and xxh3 hash |
//! | directory | the segment format and game count; for each table: its key width, entry count, and the same four for each of its index blocks |
//! | footer | [`MAGIC`], the directory's offset, length and hash ([`FOOTER`] bytes, the file's last) |
//!
//! The tables' blocks interleave in the file as they were written. Keys are compared as
//! bytes: numbers are written big-endian, so that their order is the numbers'.

use std::fs::File;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use xxhash_rust::xxh3::xxh3_64;

use crate::codec::{Cursor, put_varint};
use crate::error::IndexError;

/// The last bytes of a segment file begin with these.
const MAGIC: &[u8; 8] = b"notateIX";

/// The footer's length: [`MAGIC`], then the directory's offset, length and hash.
const FOOTER: usize = 32;

/// A data block is written once it holds this many bytes (one entry longer than that is
/// a block of its own): a page of the system's cache.
const BLOCK_BYTES: usize = 4096;

/// How many data blocks an index block lists.
const INDEX_ENTRIES: usize = 128;

/// Bytes an index entry takes besides its key: offset, length, hash.
const REFERENCE: usize = 8 + 4 + 8;

/// The most bytes a directory may take (a damaged length is an error, not an
/// allocation).
const DIRECTORY_MOST: u64 = 1 << 30;

/// The tables of a segment file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Table {
    /// A game's number in the segment (u32) → its record and kept line.
    Games,
    /// The first key (high 96 bits, u128) of a block of positions → the block.
    Positions,
    /// The first prefix (u32) of a block of tails → the block.
    Tails,
    /// A position's key (u128) and a piece number (u32) → a piece of its postings.
    Crowded,
    /// A position's key (u128) and a piece number (u32) → a piece of its summary.
    Summaries,
    /// A position's key (u128) → its summary's whole cell.
    Wholes,
    /// A player's number (u32) → the name as written.
    PlayerNames,
    /// The first 16 bytes of a player's name in lower case (padded with zeros) and its
    /// number (u32) → nothing (the name is checked against `PlayerNames`).
    Players,
    /// A chunk's number (u128) and a piece number (u32) → a piece of the chunk.
    Labels,
}

impl Table {
    const ALL: [Table; 9] = [
        Table::Games,
        Table::Positions,
        Table::Tails,
        Table::Crowded,
        Table::Summaries,
        Table::Wholes,
        Table::PlayerNames,
        Table::Players,
        Table::Labels,
    ];

    /// How many bytes its keys take.
    pub(crate) fn key_width(self) -> usize {
        match self {
            Table::Games | Table::Tails | Table::PlayerNames => 4,
            Table::Positions | Table::Wholes => 16,
            Table::Crowded | Table::Summaries | Table::Players | Table::Labels => 20,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Table::Games => "games",
            Table::Positions => "positions",
            Table::Tails => "tails",
            Table::Crowded => "crowded",
            Table::Summaries => "summaries",
            Table::Wholes => "wholes",
            Table::PlayerNames => "player names",
            Table::Players => "players",
            Table::Labels => "labels",
        }
    }
}

/// A reference to a block: its first key, where it is, and its hash.
struct Reference<'a> {
    first: &'a [u8],
    offset: u64,
    len: u32,
    hash: u64,
}

fn put_reference(out: &mut Vec<u8>, first: &[u8], offset: u64, len: usize, hash: u64) {
    out.extend_from_slice(first);
    out.extend_from_slice(&offset.to_le_bytes());
    out.extend_from_slice(&(len as u32).to_le_bytes());
    out.extend_from_slice(&hash.to_le_bytes());
}

/// The `i`th of the references in `bytes`, each of a key of `width` bytes.
fn reference(bytes: &[u8], width: usize, i: usize) -> Reference<'_> {
    let at = &bytes[i * (width + REFERENCE)..(i + 1) * (width + REFERENCE)];
    let (first, rest) = at.split_at(width);
    let number = |from: usize, to: usize| {
        rest[from..to]
            .iter()
            .rev()
            .fold(0u64, |n, &b| n << 8 | u64::from(b))
    };
    Reference {
        first,
        offset: number(0, 8),
        len: number(8, 12) as u32,
        hash: number(12, 20),
    }
}

/// The index among `count` references of the last whose first key is not above `key`.
fn last_at_most(bytes: &[u8], width: usize, count: usize, key: &[u8]) -> Option<usize> {
    let mut low = 0;
    let mut high = count;
    while low < high {
        let mid = (low + high) / 2;
        if reference(bytes, width, mid).first <= key {
            low = mid + 1;
        } else {
            high = mid;
        }
    }
    low.checked_sub(1)
}

/// A table being written.
struct TableWriter {
    width: usize,
    entries: u64,
    /// The last key put.
    last: Vec<u8>,
    /// The data block being filled, and its first key.
    block: Vec<u8>,
    block_first: Vec<u8>,
    /// The references of the index block being filled, and how many.
    index: Vec<u8>,
    index_count: usize,
    /// The references of the index blocks written.
    top: Vec<u8>,
}

/// Where blocks are written, and how far.
struct Sink {
    out: crate::runs::run_file::RunWriter,
    at: u64,
}

impl Sink {
    /// Writes `bytes` (a block: at most 4 GiB, as a reference gives its length in 32
    /// bits); gives their offset and hash.
    fn write(&mut self, bytes: &[u8]) -> io::Result<(u64, u64)> {
        if u32::try_from(bytes.len()).is_err() {
            return Err(io::Error::other("a block of 4 GiB or more"));
        }
        let offset = self.at;
        self.out.write(bytes)?;
        self.at += bytes.len() as u64;
        Ok((offset, xxh3_64(bytes)))
    }
}

impl TableWriter {
    fn new(width: usize) -> TableWriter {
        TableWriter {
            width,
            entries: 0,
            last: Vec::new(),
            block: Vec::with_capacity(2 * BLOCK_BYTES),
            block_first: Vec::new(),
            index: Vec::with_capacity(INDEX_ENTRIES * (width + REFERENCE)),
            index_count: 0,
            top: Vec::new(),
        }
    }

    fn flush_block(&mut self, sink: &mut Sink) -> io::Result<()> {
        if self.block.is_empty() {
            return Ok(());
        }
        let (offset, hash) = sink.write(&self.block)?;
        put_reference(
            &mut self.index,
            &self.block_first,
            offset,
            self.block.len(),
            hash,
        );
        self.index_count += 1;
        self.block.clear();
        if self.index_count == INDEX_ENTRIES {
            self.flush_index(sink)?;
        }
        Ok(())
    }

    fn flush_index(&mut self, sink: &mut Sink) -> io::Result<()> {
        if self.index_count == 0 {
            return Ok(());
        }
        let (offset, hash) = sink.write(&self.index)?;
        let first = reference(&self.index, self.width, 0).first.to_vec();
        put_reference(&mut self.top, &first, offset, self.index.len(), hash);
        self.index.clear();
        self.index_count = 0;
        Ok(())
    }
}

/// Writes a segment file, each table's entries in ascending order of their keys.
pub(crate) struct StoreWriter {
    sink: Sink,
    tables: Vec<TableWriter>,
    path: PathBuf,
}

impl StoreWriter {
    /// A new file at `path` (truncated if there was one).
    pub(crate) fn create(path: &Path) -> io::Result<StoreWriter> {
        Ok(StoreWriter {
            sink: Sink {
                out: crate::runs::run_file::RunWriter::create_at(path)?,
                at: 0,
            },
            tables: Table::ALL
                .iter()
                .map(|t| TableWriter::new(t.key_width()))
                .collect(),
            path: path.to_owned(),
        })
    }

    /// Whether it writes past the page cache (when the file system allows it).
    pub(crate) fn is_unbuffered(&self) -> bool {
        self.sink.out.is_unbuffered()
    }

    /// Puts an entry; its key must be above every key put in its table before.
    pub(crate) fn put(&mut self, table: Table, key: &[u8], value: &[u8]) -> io::Result<()> {
        let t = &mut self.tables[table as usize];
        if key.len() != t.width || (t.entries > 0 && key <= t.last.as_slice()) {
            return Err(io::Error::other(format!(
                "{}: an entry of table {} out of order",
                self.path.display(),
                table.name()
            )));
        }
        if t.block.is_empty() {
            t.block_first.clear();
            t.block_first.extend_from_slice(key);
        }
        t.block.extend_from_slice(key);
        put_varint(&mut t.block, value.len() as u64);
        t.block.extend_from_slice(value);
        t.last.clear();
        t.last.extend_from_slice(key);
        t.entries += 1;
        if t.block.len() >= BLOCK_BYTES {
            t.flush_block(&mut self.sink)?;
        }
        Ok(())
    }

    /// Writes what is left, the directory (with the segment `format` and its number of
    /// `games`) and the footer, and makes the file durable.
    pub(crate) fn finish(mut self, format: u64, games: u64) -> io::Result<()> {
        let mut directory = Vec::new();
        directory.extend_from_slice(&format.to_le_bytes());
        directory.extend_from_slice(&games.to_le_bytes());
        for t in &mut self.tables {
            t.flush_block(&mut self.sink)?;
            t.flush_index(&mut self.sink)?;
            directory.extend_from_slice(&(t.width as u32).to_le_bytes());
            directory.extend_from_slice(&t.entries.to_le_bytes());
            directory.extend_from_slice(&(t.top.len() as u64).to_le_bytes());
            directory.extend_from_slice(&t.top);
        }
        let (offset, hash) = self.sink.write(&directory)?;
        let mut footer = Vec::with_capacity(FOOTER);
        footer.extend_from_slice(MAGIC);
        footer.extend_from_slice(&offset.to_le_bytes());
        footer.extend_from_slice(&(directory.len() as u64).to_le_bytes());
        footer.extend_from_slice(&hash.to_le_bytes());
        self.sink.write(&footer)?;
        self.sink.out.finish_exact()?.sync_all()
    }
}

/// Reads `buf.len()` bytes of `file` at `offset`.
fn read_at(file: &File, buf: &mut [u8], offset: u64) -> io::Result<()> {
    #[cfg(unix)]
    {
        std::os::unix::fs::FileExt::read_exact_at(file, buf, offset)
    }
    #[cfg(windows)]
    {
        let mut done = 0;
        while done < buf.len() {
            let n = std::os::windows::fs::FileExt::seek_read(
                file,
                &mut buf[done..],
                offset + done as u64,
            )?;
            if n == 0 {
                return Err(io::ErrorKind::UnexpectedEof.into());
            }
            done += n;
        }
        Ok(())
    }
}

/// The blocks of a table read last, kept for the next read: games are read in order (a
/// `find` of a position a million games reached reads them all), several to a block, and
/// a block's index block serves 128 blocks.
///
/// Why: read again and checked for each game, the blocks made `find` of the start
/// position of a million games take 2.0 s where 0.37 s with the store before.
#[derive(Default)]
struct Recent {
    /// Two blocks by their offset, and which of them to replace next (the one not used
    /// last: a table's index block and its data block both stay).
    held: Mutex<([Option<Held>; 2], usize)>,
}

/// A block held, by its offset.
type Held = (u64, Arc<[u8]>);

impl Recent {
    /// The block at `offset` if held; the other one is then the one replaced next.
    fn get(&self, offset: u64) -> Option<Arc<[u8]>> {
        let mut held = self.held.lock().ok()?;
        let slot = held
            .0
            .iter()
            .position(|h| h.as_ref().is_some_and(|(at, _)| *at == offset))?;
        held.1 = 1 - slot;
        held.0[slot].as_ref().map(|(_, bytes)| Arc::clone(bytes))
    }

    fn put(&self, offset: u64, bytes: &Arc<[u8]>) {
        if let Ok(mut held) = self.held.lock() {
            let next = held.1;
            held.0[next] = Some((offset, Arc::clone(bytes)));
            held.1 = 1 - next;
        }
    }
}

/// An entry read: its key and its value.
pub(crate) type Entry = (Vec<u8>, Vec<u8>);

/// A table's index blocks, as the directory lists them.
struct TableIndex {
    width: usize,
    top: Vec<u8>,
    top_count: usize,
}

/// A segment file open for reading.
pub(crate) struct Store {
    file: File,
    /// Each table's blocks read last.
    recent: Vec<Recent>,
    /// The file's length.
    len: u64,
    path: PathBuf,
    tables: Vec<TableIndex>,
    /// How many games its segment holds.
    pub(crate) games: u64,
}

impl Store {
    /// Opens a file whose directory names the format `expected` (a segment's), its
    /// directory read and checked.
    pub(crate) fn open(path: &Path, expected: u64) -> Result<Store, IndexError> {
        let file = File::open(path).map_err(|e| IndexError::io(path, e))?;
        let damaged = |what: &str| IndexError::Damaged {
            path: path.to_owned(),
            what: what.to_owned(),
        };
        let len = file.metadata().map_err(|e| IndexError::io(path, e))?.len();
        if len < FOOTER as u64 {
            return Err(damaged("its segment is cut short"));
        }
        let mut footer = [0; FOOTER];
        read_at(&file, &mut footer, len - FOOTER as u64).map_err(|e| IndexError::io(path, e))?;
        if &footer[..8] != MAGIC {
            return Err(damaged("its segment is cut short or not a segment"));
        }
        let number =
            |at: usize| u64::from_le_bytes(footer[at..at + 8].try_into().unwrap_or_default());
        let (offset, dir_len, hash) = (number(8), number(16), number(24));
        if dir_len > DIRECTORY_MOST || offset.checked_add(dir_len) != Some(len - FOOTER as u64) {
            return Err(damaged(
                "its segment's directory is not where its footer says",
            ));
        }
        let mut directory = vec![0; dir_len as usize];
        read_at(&file, &mut directory, offset).map_err(|e| IndexError::io(path, e))?;
        if xxh3_64(&directory) != hash {
            return Err(damaged("its segment's directory is damaged"));
        }
        let mut c = Cursor::new(&directory);
        let u64_le = |c: &mut Cursor<'_>| -> Option<u64> {
            Some(u64::from_le_bytes(c.take(8)?.try_into().ok()?))
        };
        let format = u64_le(&mut c).ok_or_else(|| damaged("its directory does not read"))?;
        if format != expected {
            return Err(IndexError::Version {
                path: path.to_owned(),
                found: format,
                expected,
            });
        }
        let games = u64_le(&mut c).ok_or_else(|| damaged("its directory does not read"))?;
        let mut tables = Vec::with_capacity(Table::ALL.len());
        for table in Table::ALL {
            let read = (|| {
                let width = u32::from_le_bytes(c.take(4)?.try_into().ok()?) as usize;
                // The entry count, written for whoever inspects a file.
                u64_le(&mut c)?;
                let top_len = usize::try_from(u64_le(&mut c)?).ok()?;
                let top = c.take(top_len)?.to_vec();
                (width == table.key_width() && top_len.is_multiple_of(width + REFERENCE)).then(
                    || TableIndex {
                        width,
                        top_count: top_len / (width + REFERENCE),
                        top,
                    },
                )
            })();
            tables.push(read.ok_or_else(|| damaged("its directory does not read"))?);
        }
        if !c.is_empty() {
            return Err(damaged("its directory does not read"));
        }
        Ok(Store {
            file,
            recent: Table::ALL.iter().map(|_| Recent::default()).collect(),
            len,
            path: path.to_owned(),
            tables,
            games,
        })
    }

    fn damaged(&self, table: Table, what: impl std::fmt::Display) -> IndexError {
        IndexError::Damaged {
            path: self.path.clone(),
            what: format!("its table {}: {what}", table.name()),
        }
    }

    /// The bytes a reference points to, checked against its hash.
    fn read(&self, table: Table, r: &Reference<'_>) -> Result<Arc<[u8]>, IndexError> {
        if let Some(bytes) = self.recent[table as usize].get(r.offset) {
            return Ok(bytes);
        }
        if r.offset
            .checked_add(r.len.into())
            .is_none_or(|end| end > self.len)
        {
            return Err(self.damaged(table, format_args!("no block at offset {}", r.offset)));
        }
        let mut bytes = vec![0; r.len as usize];
        read_at(&self.file, &mut bytes, r.offset)
            .map_err(|_| self.damaged(table, format_args!("no block at offset {}", r.offset)))?;
        if xxh3_64(&bytes) != r.hash {
            return Err(self.damaged(
                table,
                format_args!("the block at offset {} is damaged", r.offset),
            ));
        }
        let bytes: Arc<[u8]> = bytes.into();
        self.recent[table as usize].put(r.offset, &bytes);
        Ok(bytes)
    }

    /// A cursor on the data block that would hold `key` (the last whose first key is
    /// not above it), or on the first block when `key` is `None` or below them all.
    fn seek(&self, table: Table, key: Option<&[u8]>) -> Result<Blocks<'_>, IndexError> {
        let t = &self.tables[table as usize];
        let top_at = key
            .and_then(|k| last_at_most(&t.top, t.width, t.top_count, k))
            .unwrap_or(0);
        let mut blocks = Blocks {
            store: self,
            table,
            top_at,
            index: Arc::from([]),
            index_count: 0,
            at: 0,
        };
        if top_at < t.top_count {
            blocks.load_index()?;
            if let Some(k) = key {
                blocks.at =
                    last_at_most(&blocks.index, t.width, blocks.index_count, k).unwrap_or(0);
            }
        }
        Ok(blocks)
    }

    /// The entry of the greatest key not above `key`, if there is one.
    pub(crate) fn last_at_most(
        &self,
        table: Table,
        key: &[u8],
    ) -> Result<Option<Entry>, IndexError> {
        let mut blocks = self.seek(table, Some(key))?;
        let Some(block) = blocks.next_block()? else {
            return Ok(None);
        };
        let width = self.tables[table as usize].width;
        let mut found = None;
        let mut c = Cursor::new(&block);
        while !c.is_empty() {
            let (k, v) =
                entry(&mut c, width).ok_or_else(|| self.damaged(table, "a block does not read"))?;
            if k > key {
                break;
            }
            found = Some((k, v));
        }
        Ok(found.map(|(k, v)| (k.to_vec(), v.to_vec())))
    }

    /// The value of `key`, if the table holds it.
    pub(crate) fn get(&self, table: Table, key: &[u8]) -> Result<Option<Vec<u8>>, IndexError> {
        Ok(self
            .last_at_most(table, key)?
            .filter(|(k, _)| k == key)
            .map(|(_, v)| v))
    }

    /// Gives `each` every entry whose key is between `low` and `high` (both included), in
    /// order.
    pub(crate) fn range(
        &self,
        table: Table,
        low: &[u8],
        high: &[u8],
        mut each: impl FnMut(&[u8], &[u8]) -> Result<(), IndexError>,
    ) -> Result<(), IndexError> {
        let mut blocks = self.seek(table, Some(low))?;
        while let Some(block) = blocks.next_block()? {
            let mut past = false;
            self.each_entry(table, &block, |k, v| {
                if k > high {
                    past = true;
                    return Ok(false);
                }
                if k >= low {
                    each(k, v)?;
                }
                Ok(true)
            })?;
            if past {
                break;
            }
        }
        Ok(())
    }

    /// Gives `each` every entry of a table, in order.
    pub(crate) fn for_each(
        &self,
        table: Table,
        mut each: impl FnMut(&[u8], &[u8]) -> Result<(), IndexError>,
    ) -> Result<(), IndexError> {
        let mut blocks = self.seek(table, None)?;
        while let Some(block) = blocks.next_block()? {
            self.each_entry(table, &block, |k, v| each(k, v).map(|()| true))?;
        }
        Ok(())
    }

    /// Gives `each` the entries of a block in order, until it says `false`.
    fn each_entry(
        &self,
        table: Table,
        block: &[u8],
        mut each: impl FnMut(&[u8], &[u8]) -> Result<bool, IndexError>,
    ) -> Result<(), IndexError> {
        let width = self.tables[table as usize].width;
        let mut c = Cursor::new(block);
        while !c.is_empty() {
            let Some((key, value)) = entry(&mut c, width) else {
                return Err(self.damaged(table, "a block does not read"));
            };
            if !each(key, value)? {
                break;
            }
        }
        Ok(())
    }
}

/// The next entry of a block: its key (of `width` bytes) and its value.
fn entry<'a>(c: &mut Cursor<'a>, width: usize) -> Option<(&'a [u8], &'a [u8])> {
    let key = c.take(width)?;
    let len = usize::try_from(c.varint()?).ok()?;
    Some((key, c.take(len)?))
}

/// The data blocks of a table from one on, in order.
struct Blocks<'a> {
    store: &'a Store,
    table: Table,
    /// The index block read, by its place among the table's.
    top_at: usize,
    index: Arc<[u8]>,
    index_count: usize,
    /// The next data block's place in the index block.
    at: usize,
}

impl Blocks<'_> {
    fn load_index(&mut self) -> Result<(), IndexError> {
        let t = &self.store.tables[self.table as usize];
        let r = reference(&t.top, t.width, self.top_at);
        self.index = self.store.read(self.table, &r)?;
        if !self.index.len().is_multiple_of(t.width + REFERENCE) {
            return Err(self
                .store
                .damaged(self.table, "an index block does not read"));
        }
        self.index_count = self.index.len() / (t.width + REFERENCE);
        self.at = 0;
        Ok(())
    }

    fn next_block(&mut self) -> Result<Option<Arc<[u8]>>, IndexError> {
        let t = &self.store.tables[self.table as usize];
        loop {
            if self.top_at >= t.top_count {
                return Ok(None);
            }
            if self.at < self.index_count {
                let r = reference(&self.index, t.width, self.at);
                self.at += 1;
                return self.store.read(self.table, &r).map(Some);
            }
            self.top_at += 1;
            if self.top_at < t.top_count {
                self.load_index()?;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A file with 3,000 games (keys 0, 3, 6…, values of 1 to 300 bytes: many blocks and
    /// several index blocks) and nothing else.
    fn written(dir: &Path) -> (PathBuf, Vec<(u32, Vec<u8>)>) {
        let path = dir.join("tables");
        let entries: Vec<(u32, Vec<u8>)> = (0..3_000_u32)
            .map(|i| (3 * i, vec![i as u8; 1 + (i as usize * 7) % 300]))
            .collect();
        let mut writer = StoreWriter::create(&path).expect("created");
        for (key, value) in &entries {
            writer
                .put(Table::Games, &key.to_be_bytes(), value)
                .expect("put");
        }
        writer.finish(7, 3_000).expect("finished");
        (path, entries)
    }

    fn open(path: &Path) -> Result<Store, IndexError> {
        Store::open(path, 7)
    }

    #[test]
    fn entries_come_back_by_key_by_the_last_key_not_above_and_in_ranges() {
        let dir = tempfile::tempdir().expect("a folder");
        let (path, entries) = written(dir.path());
        let store = open(&path).expect("opened");
        assert_eq!(store.games, 3_000);
        assert!(matches!(
            Store::open(&path, 8),
            Err(IndexError::Version { found: 7, .. })
        ));
        for (key, value) in entries.iter().step_by(37) {
            let got = store.get(Table::Games, &key.to_be_bytes()).expect("read");
            assert_eq!(got.as_ref(), Some(value));
            // A key between two is not there; the entry before it is the last not above.
            let between = (key + 1).to_be_bytes();
            assert_eq!(store.get(Table::Games, &between).expect("read"), None);
            let (k, v) = store
                .last_at_most(Table::Games, &between)
                .expect("read")
                .expect("an entry");
            assert_eq!((k, &v), (key.to_be_bytes().to_vec(), value));
        }
        let mut all = Vec::new();
        store
            .for_each(Table::Games, |k, v| {
                all.push((
                    u32::from_be_bytes(k.try_into().expect("4 bytes")),
                    v.to_vec(),
                ));
                Ok(())
            })
            .expect("read");
        assert_eq!(all, entries);
        let mut some = Vec::new();
        store
            .range(
                Table::Games,
                &1_000_u32.to_be_bytes(),
                &5_000_u32.to_be_bytes(),
                |k, _| {
                    some.push(u32::from_be_bytes(k.try_into().expect("4 bytes")));
                    Ok(())
                },
            )
            .expect("read");
        let expected: Vec<u32> = (1_000..=5_000).filter(|k| k % 3 == 0).collect();
        assert_eq!(some, expected);
        // Below every key, and a table with nothing.
        assert_eq!(
            store
                .last_at_most(Table::Games, &[0, 0, 0, 0])
                .expect("read")
                .map(|e| e.0),
            Some(vec![0; 4])
        );
        assert_eq!(store.get(Table::Tails, &[0, 0, 0, 1]).expect("read"), None);
        assert_eq!(
            store
                .last_at_most(Table::Wholes, &[0xff; 16])
                .expect("read"),
            None
        );
    }

    #[test]
    fn keys_out_of_order_are_refused() {
        let dir = tempfile::tempdir().expect("a folder");
        let mut writer = StoreWriter::create(&dir.path().join("tables")).expect("created");
        writer.put(Table::Tails, &[0, 0, 0, 5], b"a").expect("put");
        assert!(writer.put(Table::Tails, &[0, 0, 0, 5], b"b").is_err());
        assert!(writer.put(Table::Tails, &[0, 0, 0, 4], b"b").is_err());
        assert!(
            writer.put(Table::Tails, &[0, 0, 5], b"b").is_err(),
            "a key too short"
        );
    }

    #[test]
    fn a_damaged_or_cut_file_is_an_error_never_a_wrong_answer() {
        let dir = tempfile::tempdir().expect("a folder");
        let (path, entries) = written(dir.path());
        let bytes = std::fs::read(&path).expect("the file");
        let damaged = |e: IndexError| matches!(e, IndexError::Damaged { .. });
        // Cut anywhere: no footer, or a directory not where it says.
        for cut in [0, 10, bytes.len() / 2, bytes.len() - 1] {
            std::fs::write(&path, &bytes[..cut]).expect("cut");
            assert!(open(&path).err().is_some_and(damaged), "cut at {cut}");
        }
        // A byte changed anywhere: the file does not open, or every entry either reads
        // as written or is an error.
        for at in (0..bytes.len()).step_by(997) {
            let mut changed = bytes.clone();
            changed[at] ^= 0x20;
            std::fs::write(&path, &changed).expect("written");
            let Ok(store) = open(&path) else { continue };
            let mut errors = 0;
            for (key, value) in &entries {
                match store.get(Table::Games, &key.to_be_bytes()) {
                    Ok(got) => assert_eq!(got.as_ref(), Some(value), "byte {at} changed"),
                    Err(e) => {
                        assert!(damaged(e));
                        errors += 1;
                    }
                }
            }
            assert!(errors > 0, "byte {at} changed, and nothing saw it");
        }
    }
}
