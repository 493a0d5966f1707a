//! `notate annotate -o OUT`: OUT written in place, game by game, with a record beside it
//! (`.OUT.notate-resume`) of how many whole games it holds and its length then, so that a
//! run killed at any moment can be resumed (`--resume`): OUT is cut back to its last whole
//! game, and the games after it are analysed and written. The record is removed when the
//! run ends well. A signal cuts OUT back to its last whole game too
//! ([`crate::output::abandon_in_place`]).
//!
//! The record begins with the run it is of (its inputs as they were, and what shapes its
//! output: [`run_of`](super::run_of)): a resumed run that would read other inputs, or
//! analyse otherwise, is refused rather than left to give a file no run would give.

use std::fs::{self, File, OpenOptions};
use std::io::{self, BufWriter, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use crate::output::{OutputError, forget_in_place, keep_whole};

/// A run resumed onto an output that another run began.
#[derive(Debug, thiserror::Error)]
#[error(
    "{}: begun by another run (other inputs, engine, limit or settings); run without --resume to start it afresh",
    path.display()
)]
pub struct OtherRun {
    /// The output.
    pub path: PathBuf,
}

/// The record's first line: the run it is of.
fn run_line(run: &str) -> String {
    // `run_of` writes paths and values escaped: no line end can be in them.
    format!("run {}\n", run.replace('\n', " "))
}

/// An output written in place game by game, resumable.
pub struct Resumable {
    out: BufWriter<File>,
    record: File,
    record_path: PathBuf,
    path: PathBuf,
    /// Whole games written, and the file's length after them.
    games: u64,
    whole: u64,
    /// The file's length.
    bytes: u64,
}

/// What `--resume` finds.
pub enum Resumed {
    /// A run to go on with, that wrote this many whole games.
    From(Resumable, u64),
    /// No record beside the output: the run that wrote it ended well.
    Finished,
}

/// The record's path: beside the output, hidden.
fn record_path(path: &Path) -> PathBuf {
    let name = path
        .file_name()
        .map_or_else(|| "output".into(), |n| n.to_string_lossy().into_owned());
    path.with_file_name(format!(".{name}.notate-resume"))
}

fn create_error(path: &Path, source: io::Error) -> io::Error {
    io::Error::other(OutputError::Create {
        path: path.to_owned(),
        source,
    })
}

fn write_error(path: &Path, source: io::Error) -> io::Error {
    io::Error::other(OutputError::Write {
        path: path.to_owned(),
        source,
    })
}

impl Resumable {
    /// Starts `path` afresh (an earlier file of that name is replaced) for the run `run`
    /// ([`run_of`](super::run_of)).
    ///
    /// # Errors
    /// The file or its record cannot be made ([`OutputError::Create`]).
    pub fn create(path: &Path, run: &str) -> io::Result<Resumable> {
        let record_path = record_path(path);
        // The record first: a run killed before its first game leaves one to resume.
        let mut record = File::create(&record_path).map_err(|e| create_error(path, e))?;
        record
            .write_all(format!("{}0 0\n", run_line(run)).as_bytes())
            .map_err(|e| create_error(path, e))?;
        let file = File::create(path).map_err(|e| create_error(path, e))?;
        keep_whole(path, 0);
        Ok(Resumable {
            out: BufWriter::with_capacity(1 << 16, file),
            record,
            record_path,
            path: path.to_owned(),
            games: 0,
            whole: 0,
            bytes: 0,
        })
    }

    /// Goes on with the run that wrote `path`, cutting it back to its last whole game,
    /// when that run is `run` ([`run_of`](super::run_of)).
    ///
    /// # Errors
    /// The file or its record cannot be read or written; the record is of another run
    /// ([`OtherRun`]).
    pub fn resume(path: &Path, run: &str) -> io::Result<Resumed> {
        let record_path = record_path(path);
        let text = match fs::read_to_string(&record_path) {
            Ok(text) => text,
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                return Ok(if path.exists() {
                    Resumed::Finished
                } else {
                    Resumed::From(Resumable::create(path, run)?, 0)
                });
            }
            Err(e) => return Err(create_error(path, e)),
        };
        if !text.starts_with(&run_line(run)) {
            return Err(io::Error::other(OtherRun {
                path: path.to_owned(),
            }));
        }
        // The last line written whole.
        let (games, whole) = text
            .split_inclusive('\n')
            .filter(|line| line.ends_with('\n'))
            .filter_map(|line| {
                let (games, bytes) = line.trim_end().split_once(' ')?;
                Some((games.parse::<u64>().ok()?, bytes.parse::<u64>().ok()?))
            })
            .next_back()
            .unwrap_or((0, 0));
        let mut file = OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(false)
            .open(path)
            .map_err(|e| create_error(path, e))?;
        file.set_len(whole).map_err(|e| write_error(path, e))?;
        file.seek(SeekFrom::End(0))
            .map_err(|e| write_error(path, e))?;
        let mut record = OpenOptions::new()
            .append(true)
            .open(&record_path)
            .map_err(|e| create_error(path, e))?;
        if !text.ends_with('\n') {
            record.write_all(b"\n").map_err(|e| write_error(path, e))?;
        }
        keep_whole(path, whole);
        let resumable = Resumable {
            out: BufWriter::with_capacity(1 << 16, file),
            record,
            record_path,
            path: path.to_owned(),
            games,
            whole,
            bytes: whole,
        };
        Ok(Resumed::From(resumable, games))
    }

    /// Says that what was written so far ends a game: it goes to the file, and the record
    /// says so.
    ///
    /// # Errors
    /// The file or its record cannot be written ([`OutputError::Write`]).
    pub fn game_done(&mut self) -> io::Result<()> {
        self.out.flush().map_err(|e| write_error(&self.path, e))?;
        self.games += 1;
        self.whole = self.bytes;
        keep_whole(&self.path, self.whole);
        let line = format!("{} {}\n", self.games, self.whole);
        self.record
            .write_all(line.as_bytes())
            .map_err(|e| write_error(&self.path, e))
    }

    /// Ends the run well: the file is whole, and its record removed.
    ///
    /// # Errors
    /// The file cannot be written or its record removed.
    pub fn finish(mut self) -> io::Result<()> {
        self.out.flush().map_err(|e| write_error(&self.path, e))?;
        forget_in_place(&self.path);
        fs::remove_file(&self.record_path).map_err(|e| write_error(&self.path, e))
    }
}

impl Write for Resumable {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self
            .out
            .write(buf)
            .map_err(|e| write_error(&self.path, e))?;
        self.bytes += n as u64;
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.out.flush().map_err(|e| write_error(&self.path, e))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_resumed_file_is_cut_back_to_its_last_whole_game() {
        let dir = tempfile::tempdir().expect("a folder");
        let path = dir.path().join("out.pgn");
        let mut out = Resumable::create(&path, "a run").expect("made");
        out.write_all(b"game one\n\n").expect("written");
        out.game_done().expect("recorded");
        out.write_all(b"game two, cut sh").expect("written");
        out.flush().expect("written");
        drop(out);
        let refused = Resumable::resume(&path, "another run").err();
        assert!(
            refused.is_some_and(|e| e.to_string().contains("begun by another run")),
            "another run's record is refused"
        );
        assert_eq!(
            fs::read(&path).expect("untouched"),
            b"game one\n\ngame two, cut sh"
        );
        let Resumed::From(mut out, games) = Resumable::resume(&path, "a run").expect("resumed")
        else {
            panic!("a run to resume");
        };
        assert_eq!(games, 1);
        assert_eq!(fs::read(&path).expect("the file"), b"game one\n\n");
        out.write_all(b"game two\n\n").expect("written");
        out.game_done().expect("recorded");
        out.finish().expect("finished");
        assert_eq!(
            fs::read(&path).expect("the file"),
            b"game one\n\ngame two\n\n"
        );
        assert!(!record_path(&path).exists());
        assert!(matches!(
            Resumable::resume(&path, "a run").expect("looked at"),
            Resumed::Finished
        ));
    }
}
