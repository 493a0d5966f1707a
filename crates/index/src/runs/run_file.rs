//! A run's temporary file, written and read past the system's page cache where the file
//! system allows it (`O_DIRECT`, on Linux), through buffers aligned to its blocks.
//!
//! Why: a build of a million games writes 2.6 GB of runs once and reads them once.
//! Through the page cache each byte was copied into a page of the cache taken fresh and
//! copied out of it again: `write` alone took 15% of the build's CPU time on a virtual
//! machine whose fresh pages are dear (about 2 CPU-seconds a GB), while its disk wrote
//! 1.2 GB/s and read 0.9 GB/s unbuffered with the processor idle. Where the file system
//! refuses unbuffered access, the file is written and read through the cache as before.

use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::path::Path;

use bytemuck::{Pod, Zeroable};

/// What unbuffered access aligns to: the buffer's address, the file's offsets and the
/// lengths read and written (a multiple of every block size disks use, 512 and 4,096).
const ALIGN: usize = 4096;

/// A block of bytes at an address unbuffered access takes.
#[derive(Clone, Copy, Pod, Zeroable)]
#[repr(C, align(4096))]
struct Block([u8; ALIGN]);

const _: () = assert!(std::mem::size_of::<Block>() == ALIGN);

/// Bytes in whole blocks.
struct Aligned {
    blocks: Vec<Block>,
}

impl Aligned {
    /// Room for at least `bytes`, in whole blocks.
    fn new(bytes: usize) -> Aligned {
        Aligned {
            blocks: vec![Block::zeroed(); bytes.div_ceil(ALIGN).max(1)],
        }
    }

    fn bytes(&self) -> &[u8] {
        bytemuck::cast_slice(&self.blocks)
    }

    fn bytes_mut(&mut self) -> &mut [u8] {
        bytemuck::cast_slice_mut(&mut self.blocks)
    }
}

/// Asks for unbuffered access to `file` (`on`) or buffered; says whether it is now
/// unbuffered.
#[cfg(target_os = "linux")]
fn set_unbuffered(file: &File, on: bool) -> bool {
    use rustix::fs::{OFlags, fcntl_getfl, fcntl_setfl};
    let Ok(flags) = fcntl_getfl(file) else {
        return false;
    };
    let wanted = if on {
        flags | OFlags::DIRECT
    } else {
        flags - OFlags::DIRECT
    };
    match fcntl_setfl(file, wanted) {
        Ok(()) => on,
        Err(_) => flags.contains(OFlags::DIRECT),
    }
}

#[cfg(not(target_os = "linux"))]
fn set_unbuffered(_: &File, _: bool) -> bool {
    false
}

/// Whether an unbuffered access failed because the file system does not take it, so
/// that the same access buffered may succeed.
fn refused(e: &io::Error) -> bool {
    e.kind() == io::ErrorKind::InvalidInput
}

/// Writes a run's bytes to a new temporary file, block after block.
pub(super) struct RunWriter {
    file: File,
    unbuffered: bool,
    staged: Aligned,
    /// Bytes staged, not yet written.
    len: usize,
    /// Bytes written before them.
    written: u64,
}

/// How many bytes a [`RunWriter`] stages before it writes them.
const STAGED: usize = 1 << 20;

impl RunWriter {
    /// A new temporary file under `dir` (gone once closed, even if the process is
    /// killed).
    pub(super) fn create(dir: &Path) -> io::Result<RunWriter> {
        let file = tempfile::tempfile_in(dir)?;
        let unbuffered = set_unbuffered(&file, true);
        Ok(RunWriter {
            file,
            unbuffered,
            staged: Aligned::new(STAGED),
            len: 0,
            written: 0,
        })
    }

    pub(super) fn write(&mut self, mut bytes: &[u8]) -> io::Result<()> {
        while !bytes.is_empty() {
            let room = self.staged.bytes().len() - self.len;
            let take = room.min(bytes.len());
            self.staged.bytes_mut()[self.len..self.len + take].copy_from_slice(&bytes[..take]);
            self.len += take;
            bytes = &bytes[take..];
            if self.len == self.staged.bytes().len() {
                self.write_staged()?;
            }
        }
        Ok(())
    }

    /// Writes the bytes staged at their place in the file.
    fn write_staged(&mut self) -> io::Result<()> {
        if !(self.unbuffered && self.write_whole_blocks()?) {
            // Where a refused write left the file's cursor does not matter.
            self.file.seek(SeekFrom::Start(self.written))?;
            self.file.write_all(&self.staged.bytes()[..self.len])?;
        }
        self.written += self.len as u64;
        self.len = 0;
        Ok(())
    }

    /// Writes the bytes staged unbuffered, their last block whole (the bytes after them,
    /// never read, zeros); `false` when the file system refused, the file buffered since
    /// (an error if it stays unbuffered).
    fn write_whole_blocks(&mut self) -> io::Result<bool> {
        let whole = self.len.next_multiple_of(ALIGN);
        self.staged.bytes_mut()[self.len..whole].fill(0);
        match self.file.write_all(&self.staged.bytes()[..whole]) {
            Ok(()) => Ok(true),
            Err(e) if refused(&e) => {
                self.unbuffered = set_unbuffered(&self.file, false);
                if self.unbuffered {
                    return Err(io::Error::other(
                        "a file unbuffered access refused to write",
                    ));
                }
                Ok(false)
            }
            Err(e) => Err(e),
        }
    }

    /// Writes what is staged; gives the file, to be read from its start.
    pub(super) fn finish(mut self) -> io::Result<File> {
        if self.len > 0 {
            self.write_staged()?;
        }
        self.file.rewind()?;
        Ok(self.file)
    }
}

/// Readers of runs' files, each from its start, within [`READ_MEMORY`] together where
/// they can: unbuffered, in chunks of up to 1 MiB; but in chunks of 64 KiB through the
/// page cache when there are too many runs for chunks of 256 KiB (each unbuffered read
/// waits for the disk, where the cache's read-ahead reads for many small reads at once).
pub(super) fn readers(files: Vec<File>) -> Vec<RunReader> {
    let share = READ_MEMORY / files.len().max(1) / ALIGN * ALIGN;
    let unbuffered = share >= 256 << 10;
    let chunk = if unbuffered {
        share.min(1 << 20)
    } else {
        64 << 10
    };
    files
        .into_iter()
        .map(|file| RunReader::new(file, chunk, unbuffered))
        .collect()
}

/// The memory the readers of a sort's runs hold together, when there are few enough of
/// them.
const READ_MEMORY: usize = 32 << 20;

/// Reads a run's file from its start, `chunk` bytes at a time; unbuffered if the file
/// allows it and `unbuffered` is asked.
pub(super) struct RunReader {
    file: File,
    unbuffered: bool,
    buffer: Aligned,
    /// The bytes of `buffer` read and not yet taken.
    start: usize,
    end: usize,
    /// Where the next read from the file begins.
    offset: u64,
}

impl RunReader {
    fn new(file: File, chunk: usize, unbuffered: bool) -> RunReader {
        let unbuffered = set_unbuffered(&file, unbuffered);
        RunReader {
            file,
            unbuffered,
            buffer: Aligned::new(chunk),
            start: 0,
            end: 0,
            offset: 0,
        }
    }

    fn fill(&mut self) -> io::Result<()> {
        let read = match self.file.read(self.buffer.bytes_mut()) {
            Err(e) if self.unbuffered && refused(&e) => {
                self.unbuffered = set_unbuffered(&self.file, false);
                self.file.seek(SeekFrom::Start(self.offset))?;
                self.file.read(self.buffer.bytes_mut())?
            }
            read => read?,
        };
        self.offset += read as u64;
        self.start = 0;
        self.end = read;
        Ok(())
    }
}

impl Read for RunReader {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        if self.start == self.end {
            self.fill()?;
        }
        let take = (self.end - self.start).min(out.len());
        out[..take].copy_from_slice(&self.buffer.bytes()[self.start..self.start + take]);
        self.start += take;
        Ok(take)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Bytes that tell where they are.
    fn counted(len: usize) -> Vec<u8> {
        (0..len).map(|i| (i * 7 + i / 251) as u8).collect()
    }

    #[test]
    fn a_run_reads_back_as_written_unbuffered_or_not() {
        let dir = tempfile::tempdir().expect("a folder");
        // Pieces across the staging's and the blocks' bounds, and an end within a block.
        let pieces = [1, 4095, 4097, STAGED - 3, 10, STAGED * 2 + 5, 0, 333];
        let all = counted(pieces.iter().sum());
        for unbuffered in [true, false] {
            for chunk in [ALIGN, 3 * ALIGN, STAGED] {
                let mut writer = RunWriter::create(dir.path()).expect("a run");
                let mut at = 0;
                for len in pieces {
                    writer.write(&all[at..at + len]).expect("written");
                    at += len;
                }
                let file = writer.finish().expect("finished");
                let mut reader = RunReader::new(file, chunk, unbuffered);
                // Read in pieces of other sizes than written.
                let mut back = Vec::new();
                for len in pieces.iter().rev() {
                    let mut piece = vec![0; *len];
                    reader.read_exact(&mut piece).expect("read");
                    back.extend_from_slice(&piece);
                }
                assert!(back == all, "unbuffered {unbuffered}, chunk {chunk}");
            }
        }
    }
}
