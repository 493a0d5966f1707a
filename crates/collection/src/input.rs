//! Inputs: files, folders (recursively), standard input; transparent decompression;
//! the notation of each (by extension, else by content, unless forced).
//!
//! Opening an input reads a few bytes ahead twice: the first four raw bytes tell the
//! compression (by magic number, so a misnamed `.pgn` that is really gzip still reads),
//! and the first 64 KiB of decompressed text tell PGN from PDN when the name does not.
//! Both peeks are handed back to the reader in front of the rest of the stream, so
//! nothing is read twice and standard input works like a file.
//!
//! A Parquet file (`PAR1` first, whatever its name) is a table of games: it is read as
//! PGN text a record batch at a time ([`crate::table`]), straight from the file when it
//! has a path (Parquet is read from its footer, so a stream, standard input's or a
//! program's, is held in memory first).

use std::fmt;
use std::fs::File;
use std::io::{self, Cursor, Read};
use std::path::{Path, PathBuf};

use columnar::{PARQUET_MAGIC, TableReader};
use notation::Diagnostic;

use crate::table::{TableText, table_error};

/// The notation of an input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Chess: Portable Game Notation.
    Pgn,
    /// Draughts: Portable Draughts Notation.
    Pdn,
}

impl Format {
    /// The format a file name names, looking through a compression extension
    /// (`games.pgn.zst` is PGN).
    pub fn from_path(path: &Path) -> Option<Format> {
        let name = path.file_name()?.to_str()?.to_ascii_lowercase();
        let name = COMPRESSED_EXTENSIONS
            .iter()
            .find_map(|ext| name.strip_suffix(ext))
            .unwrap_or(&name);
        if name.ends_with(".pgn") {
            Some(Format::Pgn)
        } else if name.ends_with(".pdn") {
            Some(Format::Pdn)
        } else {
            None
        }
    }
}

/// Whether a file name is a Parquet file's (`.parquet`), which a folder's listing takes
/// in (a file named otherwise is read as a table all the same when it starts as one).
pub fn is_table_name(path: &Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case("parquet"))
}

/// Extensions of the compressions read transparently.
const COMPRESSED_EXTENSIONS: &[&str] = &[".gz", ".bz2", ".zst"];

/// How many decompressed bytes are looked at to guess the format from the content.
const SNIFF_BYTES: usize = 64 << 10;

/// One input named on the command line (or found in a folder), not yet opened.
#[derive(Clone, Debug)]
pub struct Source {
    /// The path, or `None` for standard input.
    pub path: Option<PathBuf>,
    /// The name printed in diagnostics.
    pub name: String,
}

impl Source {
    /// The input's name as its diagnostics are placed once it is opened: by line, or by
    /// row when it is a table ([`Opened::rows`]).
    pub fn placed(&self, rows: bool) -> Placed<'_> {
        Placed {
            name: &self.name,
            rows,
        }
    }

    /// Its size on disk, for the progress bar (unknown for standard input).
    pub fn size(&self) -> Option<u64> {
        let path = self.path.as_ref()?;
        std::fs::metadata(path).ok().map(|m| m.len())
    }
}

/// An input's name, and whether its diagnostics are placed by row: it prints as the name,
/// and [`Placed::diagnostic`] gives a diagnostic as `check` prints it.
#[derive(Clone, Copy, Debug)]
pub struct Placed<'a> {
    /// The input's name.
    pub name: &'a str,
    /// Whether it is a table, whose rows stand in for lines.
    pub rows: bool,
}

impl Placed<'_> {
    /// `name:line:column: severity: message (game N)`, or for a table
    /// `name:row N:column: …`, the column within the row's movetext.
    pub fn diagnostic(&self, d: &Diagnostic) -> String {
        if self.rows {
            format!("{}:row {d}", self.name)
        } else {
            format!("{}:{d}", self.name)
        }
    }
}

impl fmt::Display for Placed<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name)
    }
}

/// The inputs that `paths` name: files as given, every PGN/PDN file below a folder (by
/// extension, compressed or not) and every Parquet file (`.parquet`: a Hive-style tree
/// of `year=YYYY/month=MM/` folders reads in date order), sorted so that runs are
/// reproducible, and `-` for standard input. A path that does not exist is an error that names it.
pub fn collect(paths: &[PathBuf]) -> Result<Vec<Source>, String> {
    let mut sources = Vec::new();
    for path in paths {
        if path.as_os_str() == "-" {
            sources.push(Source {
                path: None,
                name: "-".to_owned(),
            });
        } else if path.is_dir() {
            let mut files = Vec::new();
            walk(path, &mut files).map_err(|e| format!("{}: {e}", path.display()))?;
            files.sort();
            sources.extend(files.into_iter().map(|file| Source {
                name: file.display().to_string(),
                path: Some(file),
            }));
        } else if path.exists() {
            sources.push(Source {
                name: path.display().to_string(),
                path: Some(path.clone()),
            });
        } else {
            return Err(format!("{}: no such file or folder", path.display()));
        }
    }
    Ok(sources)
}

/// Collects the PGN and PDN files below `dir`. Symbolic links to folders are not
/// followed, so that a link cycle cannot loop forever.
fn walk(dir: &Path, files: &mut Vec<PathBuf>) -> io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let path = entry.path();
        let kind = entry.file_type()?;
        if kind.is_dir() {
            walk(&path, files)?;
        } else if Format::from_path(&path).is_some() || is_table_name(&path) {
            files.push(path);
        }
    }
    Ok(())
}

/// An opened input: decompressed bytes and their format.
pub struct Opened {
    /// The format: forced, from the name, or guessed from the content.
    pub format: Format,
    /// The decompressed bytes.
    pub reader: Box<dyn Read + Send>,
    /// Whether the input is a table of games (Parquet) read as text, a row to
    /// [`crate::table::LINES_PER_ROW`] lines: its diagnostics are placed by row.
    pub rows: bool,
}

/// Tells `on_read` the bytes read from a file (before decompression, so that a progress
/// bar's total is the files' sizes on disk).
struct Counted<R, F> {
    inner: R,
    on_read: F,
}

impl<R: Read, F: FnMut(u64)> Read for Counted<R, F> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        (self.on_read)(n as u64);
        Ok(n)
    }
}

/// Opens a source: raw bytes, decompression by magic number, format. `on_read` is told
/// the size of every read of a file's raw bytes, for a progress bar (standard input's
/// are not counted: its size is unknown).
pub fn open(
    source: &Source,
    forced: Option<Format>,
    on_read: impl FnMut(u64) + Send + 'static,
) -> io::Result<Opened> {
    let raw: Box<dyn Read + Send> = match &source.path {
        None => Box::new(io::stdin()),
        Some(path) => {
            let mut file = File::open(path)?;
            if starts_as_table(&mut file)? {
                let size = file.metadata()?.len();
                let reader = TableReader::new(file).map_err(table_error)?;
                return open_text(TableText::new(reader, size, Box::new(on_read)), forced);
            }
            Box::new(Counted {
                inner: file,
                on_read,
            })
        }
    };
    open_stream(raw, source.path.as_deref(), forced)
}

/// Whether the file at `path` is read as it is, neither decompressed nor a table: an offset
/// in what is read of it is then one in the file, where a reader may seek.
///
/// # Errors
/// A file that cannot be opened or read.
pub fn is_read_as_is(path: &Path) -> io::Result<bool> {
    let mut magic = [0u8; 4];
    let n = fill_from(&mut File::open(path)?, &mut magic)?;
    let magic = &magic[..n];
    Ok(Compression::from_magic(magic).is_none() && magic != PARQUET_MAGIC)
}

/// Whether a file starts with Parquet's magic number; it is read again from its start.
fn starts_as_table(file: &mut File) -> io::Result<bool> {
    use std::io::{Seek, SeekFrom};
    let mut magic = [0u8; 4];
    let n = fill_from(file, &mut magic)?;
    file.seek(SeekFrom::Start(0))?;
    Ok(n == magic.len() && &magic == PARQUET_MAGIC)
}

/// Reads until `buf` is full or the stream ends; returns the bytes read.
fn fill_from(reader: &mut impl Read, buf: &mut [u8]) -> io::Result<usize> {
    let mut n = 0;
    while n < buf.len() {
        match reader.read(&mut buf[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(n)
}

/// A table's text, opened: its format forced, else guessed from the text (a table
/// `notate parquet` wrote may hold draughts games).
fn open_text(text: TableText, forced: Option<Format>) -> io::Result<Opened> {
    let (format, reader): (Format, Box<dyn Read + Send>) = match forced {
        Some(format) => (format, Box::new(text)),
        None => {
            let (head, rest) = peek(text, SNIFF_BYTES)?;
            (sniff(&head), Box::new(Cursor::new(head).chain(rest)))
        }
    };
    Ok(Opened {
        format,
        reader,
        rows: true,
    })
}

/// Opens a stream of raw bytes (a file's, or bytes a program holds): decompressed by
/// magic number, its format forced, else named by `path`, else guessed from its content.
/// A Parquet table of games is read whole into memory first (a file is better opened
/// with [`open`], which reads it a row group at a time).
///
/// ```
/// use collection::input::{Format, open_stream};
/// let opened = open_stream(Box::new(&b"1. 32-28 19-23 *"[..]), None, None)?;
/// assert_eq!(opened.format, Format::Pdn);
/// # Ok::<(), std::io::Error>(())
/// ```
pub fn open_stream(
    raw: Box<dyn Read + Send>,
    path: Option<&Path>,
    forced: Option<Format>,
) -> io::Result<Opened> {
    let (magic, rest) = peek(raw, 4)?;
    if magic == PARQUET_MAGIC {
        let mut bytes = magic;
        let mut rest = rest;
        rest.read_to_end(&mut bytes)?;
        let size = bytes.len() as u64;
        let reader = TableReader::from_bytes(bytes).map_err(table_error)?;
        return open_text(TableText::new(reader, size, Box::new(|_| {})), forced);
    }
    let reader = decompress(Box::new(Cursor::new(magic).chain(rest)))?;
    let by_name = path.and_then(Format::from_path);
    match forced.or(by_name) {
        Some(format) => Ok(Opened {
            format,
            reader,
            rows: false,
        }),
        None => {
            let (head, rest) = peek(reader, SNIFF_BYTES)?;
            let format = sniff(&head);
            Ok(Opened {
                format,
                reader: Box::new(Cursor::new(head).chain(rest)),
                rows: false,
            })
        }
    }
}

/// Reads up to `n` bytes from the front of `reader` (fewer only at its end).
fn peek<R: Read>(mut reader: R, n: usize) -> io::Result<(Vec<u8>, R)> {
    let mut head = Vec::with_capacity(n.min(1 << 16));
    (&mut reader).take(n as u64).read_to_end(&mut head)?;
    Ok((head, reader))
}

/// Wraps `raw` in the decompressor its first bytes call for: gzip (`1f 8b`), bzip2
/// (`BZh`) or Zstandard (`28 b5 2f fd`). Multi-member gzip and bzip2 files and multi-frame
/// Zstandard files (as made by `cat a.gz b.gz` or parallel compressors) read to the end.
fn decompress(raw: Box<dyn Read + Send>) -> io::Result<Box<dyn Read + Send>> {
    let (magic, rest) = peek(raw, 4)?;
    let kind = Compression::from_magic(&magic);
    let stream = Cursor::new(magic).chain(rest);
    Ok(match kind {
        None => Box::new(stream),
        Some(Compression::Gzip) => Box::new(flate2::read::MultiGzDecoder::new(stream)),
        Some(Compression::Bzip2) => Box::new(bzip2::read::MultiBzDecoder::new(stream)),
        Some(Compression::Zstd) => Box::new(zstd::stream::read::Decoder::new(stream)?),
    })
}

/// The compressions read transparently.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Compression {
    /// gzip (`1f 8b`).
    Gzip,
    /// bzip2 (`BZh`).
    Bzip2,
    /// Zstandard (`28 b5 2f fd`).
    Zstd,
}

impl Compression {
    /// The compression whose magic number a stream starts with (its first four bytes),
    /// if any.
    pub fn from_magic(magic: &[u8]) -> Option<Compression> {
        match magic {
            [0x1f, 0x8b, ..] => Some(Compression::Gzip),
            [b'B', b'Z', b'h', ..] => Some(Compression::Bzip2),
            [0x28, 0xb5, 0x2f, 0xfd, ..] => Some(Compression::Zstd),
            _ => None,
        }
    }

    /// Its name, for messages.
    pub fn name(self) -> &'static str {
        match self {
            Compression::Gzip => "gzip",
            Compression::Bzip2 => "bzip2",
            Compression::Zstd => "Zstandard",
        }
    }
}

/// Guesses the notation of a text from its first bytes: PDN when it has a `GameType` tag
/// or a draughts FEN, or when more of its move tokens look like draughts moves (`32-28`,
/// `28x19`, `c3:e5`) than like chess moves (`e4`, `Nf3`, `O-O`); PGN otherwise (the more
/// common case, and the one the reader of an empty input does not care about).
pub fn sniff(head: &[u8]) -> Format {
    let text = String::from_utf8_lossy(head);
    let lower = text.to_ascii_lowercase();
    if lower.contains("[gametype ")
        || lower.contains("[fen \"w:")
        || lower.contains("[fen \"b:")
        || lower.contains("[variant \"russian")
        || lower.contains("[variant \"brazilian")
    {
        return Format::Pdn;
    }
    let (mut draughts, mut chess) = (0u32, 0u32);
    let mut in_tag = false;
    let mut in_comment = false;
    for word in text.split_whitespace() {
        // Tags and comments hold words of any shape; skip them roughly.
        if in_comment {
            in_comment = !word.contains('}');
            continue;
        }
        if in_tag {
            in_tag = !word.ends_with(']');
            continue;
        }
        if word.starts_with('{') {
            in_comment = !word.contains('}');
            continue;
        }
        if word.starts_with('[') {
            in_tag = !word.ends_with(']');
            continue;
        }
        // `12.e4` and `12...32-28`: drop the move number.
        let token = word.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
        let token = if token.len() < word.len() && word.contains('.') {
            token
        } else {
            word
        };
        if looks_like_draughts_move(token) {
            draughts += 1;
        } else if looks_like_chess_move(token) {
            chess += 1;
        }
    }
    if draughts > chess {
        Format::Pdn
    } else {
        Format::Pgn
    }
}

/// `32-28`, `28x19`, `5x14x23`: squares by number joined by `-`, `x` or `:`.
fn looks_like_draughts_move(token: &str) -> bool {
    let token = token.trim_end_matches(['!', '?', '*', '+']);
    let mut parts = token.split(['-', 'x', ':']);
    let mut count = 0;
    for part in parts.by_ref() {
        if part.is_empty() || part.len() > 2 || !part.bytes().all(|b| b.is_ascii_digit()) {
            return false;
        }
        count += 1;
    }
    // `1-0` and `0-1` are results, also in PGN.
    count >= 2 && token != "1-0" && token != "0-1" && token != "0-0"
}

/// `e4`, `exd5`, `Nf3`, `O-O`, `e8=Q+`.
fn looks_like_chess_move(token: &str) -> bool {
    let bytes = token.as_bytes();
    match bytes.first() {
        Some(b'N' | b'B' | b'R' | b'Q' | b'K') => bytes.len() >= 3,
        Some(b'a'..=b'h') => bytes
            .get(1)
            .is_some_and(|b| matches!(b, b'1'..=b'8' | b'x')),
        Some(b'O') => token.starts_with("O-O"),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn format_from_name_looks_through_compression() {
        assert_eq!(Format::from_path(Path::new("a.pgn.zst")), Some(Format::Pgn));
        assert_eq!(Format::from_path(Path::new("a.PDN.gz")), Some(Format::Pdn));
        assert_eq!(Format::from_path(Path::new("a.txt")), None);
        assert_eq!(Format::from_path(Path::new("a.zst")), None);
    }

    #[test]
    fn sniffs_formats() {
        assert_eq!(sniff(b"[Event \"x\"]\n\n1. e4 e5 2. Nf3 *\n"), Format::Pgn);
        assert_eq!(
            sniff(b"[Event \"x\"]\n\n1. 32-28 19-23 2. 28x19 *\n"),
            Format::Pdn
        );
        assert_eq!(sniff(b"[GameType \"20\"]\n"), Format::Pdn);
        assert_eq!(sniff(b"1.e4 e5 1-0"), Format::Pgn);
        assert_eq!(sniff(b""), Format::Pgn);
    }

    #[test]
    fn compression_magic() {
        assert_eq!(
            Compression::from_magic(&[0x1f, 0x8b, 8, 0]),
            Some(Compression::Gzip)
        );
        assert_eq!(Compression::from_magic(b"BZh9"), Some(Compression::Bzip2));
        assert_eq!(Compression::from_magic(b"[Eve"), None);
    }
}
