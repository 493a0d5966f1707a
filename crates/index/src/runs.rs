//! The occurrences of positions in games, sorted by key in bounded memory: held in a
//! buffer up to a budget, each full buffer sorted and written to a temporary file (a run),
//! and the runs merged at the end, so that a build's memory does not grow with its input.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::fs::File;
use std::io::{self, BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

use crate::key::PositionKey;
use crate::record::GameId;
use crate::rules::MoveCode;
use crate::summary::Dims;

/// A position met in a game, and the move the game played from it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Occurrence {
    key_high: u64,
    key_low: u64,
    game: u32,
    code: u16,
    /// The game's values, carried along so that a position's summary needs no lookup.
    dims: Dims,
    /// Whether the game's kept line reaches it ([`crate::line`]).
    on_line: bool,
}

const OCCURRENCE_BYTES: usize = 8 + 8 + 4 + 2 + 2 + 1 + 1 + 2 + 4 + 1;

impl Occurrence {
    pub(crate) fn new(
        key: PositionKey,
        game: GameId,
        code: MoveCode,
        dims: Dims,
        on_line: bool,
    ) -> Occurrence {
        Occurrence {
            key_high: (key.0 >> 64) as u64,
            key_low: key.0 as u64,
            game: game.0,
            code: code.0,
            dims,
            on_line,
        }
    }

    pub(crate) fn on_line(&self) -> bool {
        self.on_line
    }

    pub(crate) fn dims(&self) -> Dims {
        self.dims
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

    fn write(&self, out: &mut impl Write) -> io::Result<()> {
        let mut bytes = [0; OCCURRENCE_BYTES];
        bytes[..8].copy_from_slice(&self.key_high.to_be_bytes());
        bytes[8..16].copy_from_slice(&self.key_low.to_be_bytes());
        bytes[16..20].copy_from_slice(&self.game.to_be_bytes());
        bytes[20..22].copy_from_slice(&self.code.to_be_bytes());
        let d = &self.dims;
        bytes[22..24].copy_from_slice(&d.month.to_be_bytes());
        bytes[24] = d.cell;
        bytes[25] = d.winner;
        bytes[26..28].copy_from_slice(&d.average.to_be_bytes());
        bytes[28..32].copy_from_slice(&d.day.to_be_bytes());
        bytes[32] = u8::from(self.on_line);
        out.write_all(&bytes)
    }

    fn read(input: &mut impl Read) -> io::Result<Option<Occurrence>> {
        let mut bytes = [0; OCCURRENCE_BYTES];
        match input.read_exact(&mut bytes) {
            Ok(()) => {}
            Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => return Ok(None),
            Err(e) => return Err(e),
        }
        let u64_at = |i: usize| {
            let mut b = [0; 8];
            b.copy_from_slice(&bytes[i..i + 8]);
            u64::from_be_bytes(b)
        };
        Ok(Some(Occurrence {
            key_high: u64_at(0),
            key_low: u64_at(8),
            game: u32::from_be_bytes([bytes[16], bytes[17], bytes[18], bytes[19]]),
            code: u16::from_be_bytes([bytes[20], bytes[21]]),
            dims: Dims {
                month: u16::from_be_bytes([bytes[22], bytes[23]]),
                cell: bytes[24],
                winner: bytes[25],
                average: u16::from_be_bytes([bytes[26], bytes[27]]),
                day: u32::from_be_bytes([bytes[28], bytes[29], bytes[30], bytes[31]]),
            },
            on_line: bytes[32] == 1,
        }))
    }
}

/// Occurrences gathered, then given back sorted and without repeats.
pub(crate) struct Sorter {
    buffer: Vec<Occurrence>,
    capacity: usize,
    dir: PathBuf,
    runs: Vec<File>,
    pushed: u64,
}

impl Sorter {
    /// A sorter that holds at most `budget` bytes of occurrences in memory and writes its
    /// runs under `dir` (files that are gone once closed, even if the process is killed).
    pub(crate) fn new(dir: &Path, budget: usize) -> Sorter {
        let capacity = (budget / std::mem::size_of::<Occurrence>()).max(1024);
        Sorter {
            // Reserved whole (address space, not memory: a page is taken when first
            // written), so that the buffer never grows by copying: growing it by doubling
            // took a quarter of a build's time in copies and fresh zeroed pages.
            buffer: Vec::with_capacity(capacity),
            capacity,
            dir: dir.to_owned(),
            runs: Vec::new(),
            pushed: 0,
        }
    }

    pub(crate) fn push(&mut self, occurrence: Occurrence) -> io::Result<()> {
        if self.buffer.len() >= self.capacity {
            self.spill()?;
        }
        self.buffer.push(occurrence);
        self.pushed += 1;
        Ok(())
    }

    /// How many occurrences were pushed (repeats included).
    pub(crate) fn pushed(&self) -> u64 {
        self.pushed
    }

    fn sorted_buffer(&mut self) -> Vec<Occurrence> {
        let mut buffer = std::mem::take(&mut self.buffer);
        buffer.sort_unstable();
        buffer.dedup();
        buffer
    }

    fn spill(&mut self) -> io::Result<()> {
        let buffer = self.sorted_buffer();
        let mut file = BufWriter::with_capacity(1 << 20, tempfile::tempfile_in(&self.dir)?);
        for o in &buffer {
            o.write(&mut file)?;
        }
        let mut file = file.into_inner().map_err(io::IntoInnerError::into_error)?;
        std::io::Seek::rewind(&mut file)?;
        self.runs.push(file);
        // The buffer's memory is kept for the next run.
        self.buffer = buffer;
        self.buffer.clear();
        Ok(())
    }

    /// Every occurrence pushed, sorted, each once.
    pub(crate) fn finish(mut self) -> io::Result<Sorted> {
        if self.runs.is_empty() {
            let buffer = self.sorted_buffer();
            return Ok(Sorted::Memory(buffer.into_iter()));
        }
        if !self.buffer.is_empty() {
            self.spill()?;
        }
        self.buffer = Vec::new();
        let mut readers: Vec<BufReader<File>> = self
            .runs
            .into_iter()
            .map(|f| BufReader::with_capacity(1 << 16, f))
            .collect();
        let mut heap = BinaryHeap::new();
        for (i, reader) in readers.iter_mut().enumerate() {
            if let Some(o) = Occurrence::read(reader)? {
                heap.push(Reverse((o, i)));
            }
        }
        Ok(Sorted::Merge {
            readers,
            heap,
            last: None,
        })
    }
}

/// The sorted occurrences: from memory, or merged from runs.
pub(crate) enum Sorted {
    Memory(std::vec::IntoIter<Occurrence>),
    Merge {
        readers: Vec<BufReader<File>>,
        heap: BinaryHeap<Reverse<(Occurrence, usize)>>,
        last: Option<Occurrence>,
    },
}

impl Sorted {
    /// The next occurrence in order, each once.
    pub(crate) fn next(&mut self) -> io::Result<Option<Occurrence>> {
        match self {
            Sorted::Memory(iter) => Ok(iter.next()),
            Sorted::Merge {
                readers,
                heap,
                last,
            } => loop {
                let Some(Reverse((o, i))) = heap.pop() else {
                    return Ok(None);
                };
                if let Some(next) = Occurrence::read(&mut readers[i])? {
                    heap.push(Reverse((next, i)));
                }
                if *last != Some(o) {
                    *last = Some(o);
                    return Ok(Some(o));
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

    #[test]
    fn runs_merge_to_what_one_sort_gives() {
        let dir = tempfile::tempdir().expect("a folder");
        let mut state = 12345_u64;
        let mut all = Vec::new();
        for i in 0..10_000_u32 {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let key = PositionKey(u128::from(state >> 50) << 70 | u128::from(state % 7));
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
        let mut expected = all.clone();
        expected.sort();
        expected.dedup();
        assert_eq!(drain(small.finish().expect("merged")), expected);
        assert_eq!(drain(large.finish().expect("sorted")), expected);
    }
}
