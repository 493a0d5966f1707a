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
use std::sync::mpsc;

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

/// Writes a file block after block, past the page cache where the file system allows it:
/// a run's temporary file, or a segment's ([`crate::store`]).
pub(crate) struct RunWriter {
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
        Ok(RunWriter::over(tempfile::tempfile_in(dir)?))
    }

    /// A new file at `path` (truncated if there was one), written past the page cache
    /// where the file system allows it.
    pub(crate) fn create_at(path: &Path) -> io::Result<RunWriter> {
        Ok(RunWriter::over(File::create(path)?))
    }

    /// Writes `file` (empty) from its start, unbuffered if it can.
    fn over(file: File) -> RunWriter {
        let unbuffered = set_unbuffered(&file, true);
        RunWriter {
            file,
            unbuffered,
            staged: Aligned::new(STAGED),
            len: 0,
            written: 0,
        }
    }

    /// Whether it writes past the page cache.
    pub(crate) fn is_unbuffered(&self) -> bool {
        self.unbuffered
    }

    /// Writes what is staged and cuts the file to the bytes written (the last block's
    /// zeros after them gone); gives the file.
    pub(crate) fn finish_exact(mut self) -> io::Result<File> {
        let end = self.written + self.len as u64;
        if self.len > 0 {
            self.write_staged()?;
        }
        self.file.set_len(end)?;
        Ok(self.file)
    }

    pub(crate) fn write(&mut self, mut bytes: &[u8]) -> io::Result<()> {
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
/// they can: unbuffered, in chunks of up to 1 MiB; but in chunks of 32 KiB through the
/// page cache when there are too many runs for chunks of 128 KiB (each unbuffered read
/// waits for the disk, where the cache's read-ahead reads for many small reads at once).
/// Each reads its next chunk ahead ([`read_ahead`]), so that a reader holds two: when the
/// runs are many (some 1,700 for a month of lichess's games), 64 KiB a run, as before the
/// reading ahead, not twice that.
pub(super) fn readers(files: Vec<File>) -> io::Result<Vec<RunReader>> {
    let share = READ_MEMORY / files.len().max(1) / 2 / ALIGN * ALIGN;
    let unbuffered = share >= 128 << 10;
    let chunk = if unbuffered {
        share.min(1 << 20)
    } else {
        32 << 10
    };
    read_ahead(files, chunk, unbuffered)
}

/// The memory the readers of a sort's runs hold together, when there are few enough of
/// them.
const READ_MEMORY: usize = 32 << 20;

/// Readers of `files` in chunks of `chunk` bytes, unbuffered if the files allow it and
/// `unbuffered` is asked, with a thread of their own that reads each one's next chunk
/// while the one before is taken (the thread ends when the readers are gone).
///
/// Why: the gathering of the sort's buckets reads the runs whole (2.6 GB for a million
/// games) and sorts what it read; reading in turn, it waited for the disk for 1.1 s of the
/// 3.9 s a build of a million games took to write its segment, while the threads after it
/// waited for it.
fn read_ahead(files: Vec<File>, chunk: usize, unbuffered: bool) -> io::Result<Vec<RunReader>> {
    let (reading, requests) = mpsc::channel::<Request>();
    std::thread::Builder::new()
        .name("run reading".into())
        .spawn(move || {
            for request in requests {
                let Request { chunk, reply } = request;
                // A reader gone has nothing left to take.
                let _ = reply.send(chunk.read_next());
            }
        })?;
    Ok(files
        .into_iter()
        .map(|file| {
            let unbuffered = set_unbuffered(&file, unbuffered);
            let first = Chunk {
                file,
                unbuffered,
                buffer: Aligned::new(chunk),
                offset: 0,
                read: 0,
            };
            RunReader {
                buffer: Aligned::new(chunk),
                start: 0,
                end: 0,
                ahead: Some(ask(&reading, first)),
                reading: reading.clone(),
            }
        })
        .collect())
}

/// A chunk of a run read, with the file it was read from (handed to the reading thread
/// and back).
struct Chunk {
    file: File,
    unbuffered: bool,
    buffer: Aligned,
    /// Where in the file the bytes read begin, and how many were read (0 at its end).
    offset: u64,
    read: usize,
}

impl Chunk {
    /// The file's chunk after this one, read into this one's buffer.
    fn read_next(mut self) -> io::Result<Chunk> {
        self.offset += self.read as u64;
        self.read = match self.file.read(self.buffer.bytes_mut()) {
            Err(e) if self.unbuffered && refused(&e) => {
                self.unbuffered = set_unbuffered(&self.file, false);
                self.file.seek(SeekFrom::Start(self.offset))?;
                self.file.read(self.buffer.bytes_mut())?
            }
            read => read?,
        };
        Ok(self)
    }
}

/// A chunk for the reading thread to read the next of, and where to give it back.
struct Request {
    chunk: Chunk,
    reply: mpsc::SyncSender<io::Result<Chunk>>,
}

/// Has the reading thread read the chunk after `chunk`; gives where it comes back.
fn ask(reading: &mpsc::Sender<Request>, chunk: Chunk) -> mpsc::Receiver<io::Result<Chunk>> {
    let (reply, receiver) = mpsc::sync_channel(1);
    // A thread gone drops the reply's sender, which the receiver reports.
    let _ = reading.send(Request { chunk, reply });
    receiver
}

/// Reads a run's file from its start, a chunk at a time, the next one read ahead.
pub(super) struct RunReader {
    /// The chunk being taken, and the bytes of it not yet taken.
    buffer: Aligned,
    start: usize,
    end: usize,
    /// The next chunk, being read; `None` once the file's end was read.
    ahead: Option<mpsc::Receiver<io::Result<Chunk>>>,
    reading: mpsc::Sender<Request>,
}

impl RunReader {
    /// Takes the chunk read ahead and has the one after it read into the buffer let go.
    fn fill(&mut self) -> io::Result<()> {
        self.start = 0;
        self.end = 0;
        let Some(ahead) = self.ahead.take() else {
            return Ok(());
        };
        let mut chunk = ahead
            .recv()
            .map_err(|_| io::Error::other("the reading of the sort's runs stopped"))??;
        std::mem::swap(&mut self.buffer, &mut chunk.buffer);
        self.end = chunk.read;
        if chunk.read > 0 {
            self.ahead = Some(ask(&self.reading, chunk));
        }
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
                let mut readers = read_ahead(vec![file], chunk, unbuffered).expect("a reader");
                let mut reader = readers.pop().expect("one reader");
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
