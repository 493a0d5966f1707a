//! Where things are in the input as a person finds them: lines and columns, and how
//! they are counted from byte offsets.

use std::fmt;

/// A position a person can find in an editor: byte offset, 1-based line and column.
///
/// Columns count characters (UTF-8 sequences count once), so that they match what an
/// editor shows for text files.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Location {
    /// 1-based line number.
    pub line: u64,
    /// 1-based column number, in characters.
    pub column: u64,
    /// Byte offset from the start of the input.
    pub offset: u64,
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.line, self.column)
    }
}

/// Finds `at` (a stream offset) in `text`, whose first byte is at `start`.
///
/// Lines end at LF, CR LF or a lone CR; columns count characters, not bytes.
pub(crate) fn locate(text: &[u8], start: Location, at: u64) -> Location {
    let end = usize::try_from(at.saturating_sub(start.offset))
        .unwrap_or(usize::MAX)
        .min(text.len());
    let before = &text[..end];
    // Most files have no CR: one search tells, and spares a second one from the end.
    let has_cr = memchr::memchr(b'\r', before).is_some();
    let line = start.line
        + if has_cr {
            count_line_ends_with_cr(before)
        } else {
            memchr::memchr_iter(b'\n', before).count() as u64
        };
    // The last line starts after the last line end: the last line feed, or a CR after
    // it (a lone one).
    let last_lf = memchr::memrchr(b'\n', before);
    let line_start = match (last_lf, has_cr.then(|| memchr::memrchr(b'\r', before))) {
        (Some(lf), Some(Some(cr))) if cr > lf => Some(cr + 1),
        (Some(lf), _) => Some(lf + 1),
        (None, cr) => cr.flatten().map(|i| i + 1),
    };
    let chars = |bytes: &[u8]| {
        if bytes.is_ascii() {
            bytes.len() as u64
        } else {
            bytes.iter().filter(|&&b| (b & 0xc0) != 0x80).count() as u64
        }
    };
    let column = match line_start {
        Some(s) => chars(&before[s..]) + 1,
        None => start.column + chars(before),
    };
    Location {
        line,
        column,
        offset: at,
    }
}

/// How many lines end in `bytes` as a reader counts them: at each line feed, each CR LF
/// and each lone CR (a CR last in `bytes` is a lone one).
///
/// ```
/// assert_eq!(notation::count_line_ends(b"1. e4\r\n1... e5\r2. Nf3\n"), 3);
/// ```
pub fn count_line_ends(bytes: &[u8]) -> u64 {
    if memchr::memchr(b'\r', bytes).is_none() {
        return memchr::memchr_iter(b'\n', bytes).count() as u64;
    }
    count_line_ends_with_cr(bytes)
}

/// [`count_line_ends`] of bytes that hold a CR.
fn count_line_ends_with_cr(bytes: &[u8]) -> u64 {
    // One pass over each byte and the next, which the compiler vectorises: a line feed
    // ends a line, and so does a CR not followed by one. At most 255 ends are counted in
    // one byte-wide lane.
    let Some((&last, _)) = bytes.split_last() else {
        return 0;
    };
    let ends: u64 = bytes
        .chunks(255)
        .zip(bytes[1..].chunks(255))
        .map(|(this, next)| {
            let n = this.iter().zip(next).fold(0u8, |n, (&a, &b)| {
                n + u8::from(a == b'\n') + (u8::from(a == b'\r') & u8::from(b != b'\n'))
            });
            u64::from(n)
        })
        .sum();
    ends + u64::from(matches!(last, b'\n' | b'\r'))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`locate`] the plain way: byte by byte from the start.
    fn locate_naive(text: &[u8], start: Location, at: u64) -> Location {
        let end = usize::try_from(at - start.offset)
            .unwrap_or(usize::MAX)
            .min(text.len());
        let (mut line, mut column) = (start.line, start.column);
        for (i, &b) in text[..end].iter().enumerate() {
            let crlf = b == b'\r' && text[..end].get(i + 1) == Some(&b'\n');
            if b == b'\n' || (b == b'\r' && !crlf) {
                line += 1;
                column = 1;
            } else if b != b'\r' && (b & 0xc0) != 0x80 {
                column += 1;
            }
        }
        Location {
            line,
            column,
            offset: at,
        }
    }

    /// Lines end at LF, CR LF and a lone CR, and columns count characters, at every
    /// offset of texts longer than the passes' 255-byte lanes, with a CR LF across them.
    #[test]
    fn locate_counts_lines_and_characters_as_read_one_by_one() {
        let pieces: [&[u8]; 6] = [
            b"1. 32-28 ",
            b"\r\n",
            b"\n",
            b"\r",
            "\u{e9}t\u{e9} ".as_bytes(),
            b"{x}",
        ];
        let mut text = Vec::new();
        for i in 0..400usize {
            text.extend_from_slice(pieces[(i * 7 + i / 3) % pieces.len()]);
        }
        // A CR LF split across the first two lanes.
        text.splice(253..253, b"\r\n".iter().copied());
        let start = Location {
            line: 3,
            column: 5,
            offset: 100,
        };
        for at in 100..=100 + text.len() as u64 {
            assert_eq!(
                locate(&text, start, at),
                locate_naive(&text, start, at),
                "at {at}"
            );
        }
    }
}
