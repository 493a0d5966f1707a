//! Parquet inputs: a table of games (lichess's published tables, or `notate parquet`'s
//! games table) read as PGN text, a record batch at a time, so that every job reads it
//! as it reads a file of text.
//!
//! Each row is written in four lines, whatever it holds: its tag pairs on one line, an
//! empty line, its movetext on one line, an empty line. The lines of the text thus say
//! the row and the column of the movetext a diagnostic is about ([`place_in_row`]):
//! a reader of a table reports `file:row N` in place of a line. Line breaks in a
//! movetext (`notate parquet` keeps the export format's 79-character lines) are written
//! as spaces, and a `;` comment, which ends at a line end, as a brace comment; one that
//! holds a `}` cannot be, and keeps its line end (the rows after it are then placed a
//! line later, which a diagnostic's row number shows).
//!
//! Memory is the record batch being written out (and the row group's pages the
//! Parquet reader holds): reading does not grow with the size of the file.

use std::io::{self, Read};

use columnar::{ReadError, TableReader};
use notation::Location;

/// The lines of the text each row is written in.
pub const LINES_PER_ROW: u64 = 4;

/// A table of games as PGN text: [`Read`] gives the rows' text, a batch at a time.
pub struct TableText {
    reader: TableReader,
    /// The text of the batch being read out, and how much of it was.
    text: Vec<u8>,
    read: usize,
    /// Told the share of the file's bytes each batch stands for (a progress bar's).
    on_rows: Box<dyn FnMut(u64) + Send>,
    /// The file's size, shared out over its rows for `on_rows`.
    size: u64,
    /// Whether the file's end (or an error) was met.
    done: bool,
}

impl TableText {
    /// The text of `reader`'s games. `on_rows` is told, for each batch, its share of
    /// `size` (the file's bytes, for a progress bar).
    pub fn new(reader: TableReader, size: u64, on_rows: Box<dyn FnMut(u64) + Send>) -> Self {
        TableText {
            reader,
            text: Vec::new(),
            read: 0,
            on_rows,
            size,
            done: false,
        }
    }

    /// Writes the next batch's rows into `self.text`; false at the end of the file.
    fn next_batch(&mut self) -> io::Result<bool> {
        self.text.clear();
        self.read = 0;
        let rows = self.reader.rows().max(1);
        let batch = match self.reader.next_batch() {
            None => return Ok(false),
            Some(Ok(batch)) => batch,
            Some(Err(e)) => return Err(io::Error::other(e)),
        };
        let share = u64::try_from(batch.len())
            .unwrap_or(0)
            .saturating_mul(self.size)
            / rows;
        let text = &mut self.text;
        batch.for_each(|tags, movetext| write_row(tags, movetext, text));
        (self.on_rows)(share);
        Ok(true)
    }
}

impl Read for TableText {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        while self.read == self.text.len() {
            if self.done {
                return Ok(0);
            }
            match self.next_batch() {
                Ok(true) => {}
                Ok(false) => {
                    self.done = true;
                    return Ok(0);
                }
                Err(e) => {
                    self.done = true;
                    return Err(e);
                }
            }
        }
        let n = buf.len().min(self.text.len() - self.read);
        buf[..n].copy_from_slice(&self.text[self.read..self.read + n]);
        self.read += n;
        Ok(n)
    }
}

/// A table that cannot be read, as an error of reading its input.
pub fn table_error(e: ReadError) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, e)
}

/// Writes one row in its four lines.
fn write_row(tags: &[(&str, &str)], movetext: &str, out: &mut Vec<u8>) {
    for (i, (name, value)) in tags.iter().enumerate() {
        if i > 0 {
            out.push(b' ');
        }
        out.push(b'[');
        out.extend_from_slice(name.as_bytes());
        out.extend_from_slice(b" \"");
        for &b in value.as_bytes() {
            match b {
                b'"' | b'\\' => out.extend_from_slice(&[b'\\', b]),
                b'\n' | b'\r' => out.push(b' '),
                _ => out.push(b),
            }
        }
        out.extend_from_slice(b"\"]");
    }
    out.extend_from_slice(b"\n\n");
    write_movetext(movetext.as_bytes(), out);
    out.extend_from_slice(b"\n\n");
}

/// Writes a movetext on one line: line ends as spaces, `;` comments as brace comments
/// (one that holds a `}` keeps its line end).
fn write_movetext(text: &[u8], out: &mut Vec<u8>) {
    let mut in_brace = false;
    let mut i = 0;
    while i < text.len() {
        let b = text[i];
        match b {
            b'{' if !in_brace => in_brace = true,
            b'}' if in_brace => in_brace = false,
            b';' if !in_brace => {
                let end = memchr::memchr2(b'\n', b'\r', &text[i..]).map_or(text.len(), |n| i + n);
                let comment = &text[i + 1..end];
                if memchr::memchr(b'}', comment).is_some() {
                    out.extend_from_slice(&text[i..end]);
                    out.push(b'\n');
                    let line_end = &text[end..];
                    i = end + if line_end.starts_with(b"\r\n") { 2 } else { 1 };
                } else {
                    out.push(b'{');
                    out.extend_from_slice(comment);
                    out.push(b'}');
                    // Its line end is written as a space, below.
                    i = end;
                }
                continue;
            }
            _ => {}
        }
        out.push(if b == b'\n' || b == b'\r' { b' ' } else { b });
        i += 1;
    }
}

/// Moves a location in a table's text to its row: `line` becomes the row (counted from
/// 1 across the file), `column` the column within the row's movetext, or 0 when the
/// location is in the row's tags or between its lines. A location with no line (0)
/// keeps it.
///
/// ```
/// use collection::table::place_in_row;
/// use notation::Location;
/// let mut at = Location { line: 7, column: 12, offset: 400 };
/// place_in_row(&mut at);
/// assert_eq!((at.line, at.column), (2, 12));
/// ```
pub fn place_in_row(at: &mut Location) {
    if at.line == 0 {
        return;
    }
    let line = at.line - 1;
    at.line = line / LINES_PER_ROW + 1;
    if line % LINES_PER_ROW != 2 {
        at.column = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(tags: &[(&str, &str)], movetext: &str) -> String {
        let mut out = Vec::new();
        write_row(tags, movetext, &mut out);
        String::from_utf8(out).expect("UTF-8 in, UTF-8 out")
    }

    #[test]
    fn a_row_is_four_lines() {
        let text = row(
            &[("Event", "a \"b\" c\\"), ("Site", "x\ny")],
            "1. e4\ne5 { a\nb } 2. Nf3 *",
        );
        assert_eq!(
            text,
            "[Event \"a \\\"b\\\" c\\\\\"] [Site \"x y\"]\n\n1. e4 e5 { a b } 2. Nf3 *\n\n"
        );
        assert_eq!(row(&[], ""), "\n\n\n\n");
    }

    #[test]
    fn semicolon_comments_become_brace_comments_when_they_can() {
        assert_eq!(
            row(&[], "1. e4 ;fine\r\ne5 { ; } *"),
            "\n\n1. e4 {fine}  e5 { ; } *\n\n"
        );
        assert_eq!(row(&[], "1. e4 ;a } b\ne5 *"), "\n\n1. e4 ;a } b\ne5 *\n\n");
    }

    #[test]
    fn places_by_row() {
        let at = |line, column| {
            let mut l = Location {
                line,
                column,
                offset: 0,
            };
            place_in_row(&mut l);
            (l.line, l.column)
        };
        assert_eq!(at(1, 30), (1, 0));
        assert_eq!(at(3, 5), (1, 5));
        assert_eq!(at(4, 1), (1, 0));
        assert_eq!(at(403, 9), (101, 9));
        assert_eq!(at(0, 0), (0, 0));
    }
}
