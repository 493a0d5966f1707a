//! Lines too long for the export format (255 bytes), found in the text the cursor
//! passes over.

/// The first line of `text` longer than 255 bytes that ends in it (at a line feed), as
/// its start (clamped to `text`) and its length in bytes without the line end. The first
/// line starts at column `column`.
///
/// Lines are not visited one by one: from a line's start, the last line feed among the
/// next 256 bytes ends a line of at most 255 bytes, and so does every line feed before
/// it, so the search leaps to the line after it. Only a window with no line feed needs
/// a closer look.
pub(super) fn first_long_line(text: &[u8], column: u64) -> Option<(usize, u64)> {
    const WINDOW: i64 = 256;
    // The start of the current line, before `text` for the first one.
    let mut begin: i64 = -(column as i64 - 1);
    loop {
        let from = begin.max(0) as usize;
        let to = (begin + WINDOW).max(0) as usize;
        if to >= text.len() {
            // Every line ending in the rest of the text is short.
            return None;
        }
        if let Some(i) = memchr::memrchr(b'\n', &text[from..to]) {
            begin = (from + i) as i64 + 1;
            continue;
        }
        // No line end in the window: the line is long unless a CR LF ends it just past it.
        let end = to + memchr::memchr(b'\n', &text[to..])?;
        let mut content_end = end;
        if content_end > 0 && text[content_end - 1] == b'\r' {
            content_end -= 1;
        }
        let length = content_end as i64 - begin;
        if length > 255 {
            return Some((from, length as u64));
        }
        begin = end as i64 + 1;
    }
}

/// The last, unfinished line of `text` (whose first byte is at `column`), if it is
/// already longer than 255 bytes: whatever ends it later, it is too long (a 50 MB
/// single-line file has no line end at all).
pub(super) fn long_last_line(text: &[u8], column: u64) -> Option<(usize, u64)> {
    let (begin, length) = match memchr::memrchr(b'\n', text) {
        Some(i) => (i + 1, (text.len() - i - 1) as u64),
        None => (0, text.len() as u64 + column.saturating_sub(1)),
    };
    (length > 255).then_some((begin, length))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`first_long_line`] the plain way: every line, one by one.
    fn first_long_line_naive(text: &[u8], column: u64) -> Option<(usize, u64)> {
        let mut line_begin: i64 = -(column as i64 - 1);
        for i in memchr::memchr_iter(b'\n', text) {
            let mut end = i;
            if end > 0 && text[end - 1] == b'\r' {
                end -= 1;
            }
            let length = end as i64 - line_begin;
            if length > 255 {
                return Some((line_begin.max(0) as usize, length as u64));
            }
            line_begin = i as i64 + 1;
        }
        None
    }

    #[test]
    fn long_lines_are_found_as_line_by_line() {
        // Lines of lengths around the limit, with LF or CR LF ends, from various columns.
        let mut seed = 12345u64;
        let mut next = |n: u64| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) % n
        };
        for _ in 0..2000 {
            let mut text = Vec::new();
            for _ in 0..next(6) {
                let len = match next(4) {
                    0 => next(20),
                    1 => 250 + next(10),
                    _ => next(600),
                };
                text.extend(std::iter::repeat_n(b'x', len as usize));
                match next(3) {
                    0 => text.extend_from_slice(b"\r\n"),
                    1 => text.push(b'\n'),
                    _ => text.push(b'\r'),
                }
            }
            let column = 1 + next(300);
            assert_eq!(
                first_long_line(&text, column),
                first_long_line_naive(&text, column),
                "{column} {:?}",
                String::from_utf8_lossy(&text)
            );
        }
    }
}
