//! Text decoding: UTF-8 where it is, Windows-1252 where it is not.
//!
//! Old PGN files are Latin-1 (the standard's character set) or Windows-1252; newer ones
//! are UTF-8. A value that is valid UTF-8 is taken as such; anything else is decoded as
//! Windows-1252, a superset of Latin-1's printable characters, and reported.

use std::borrow::Cow;

/// Windows-1252's characters for bytes 0x80 to 0x9F (the rest match Latin-1). The five
/// bytes it leaves undefined map to the C1 control of the same number.
const CP1252_HIGH: [char; 32] = [
    '\u{20AC}', '\u{81}', '\u{201A}', '\u{0192}', '\u{201E}', '\u{2026}', '\u{2020}', '\u{2021}',
    '\u{02C6}', '\u{2030}', '\u{0160}', '\u{2039}', '\u{0152}', '\u{8D}', '\u{017D}', '\u{8F}',
    '\u{90}', '\u{2018}', '\u{2019}', '\u{201C}', '\u{201D}', '\u{2022}', '\u{2013}', '\u{2014}',
    '\u{02DC}', '\u{2122}', '\u{0161}', '\u{203A}', '\u{0153}', '\u{9D}', '\u{017E}', '\u{0178}',
];

/// Decodes bytes to text. The flag is true when the bytes were not UTF-8 and were read
/// as Windows-1252.
///
/// ```
/// use notation::decode;
/// assert_eq!(decode("Réti".as_bytes()), ("Réti".into(), false));
/// assert_eq!(decode(b"R\xe9ti"), ("Réti".into(), true));
/// ```
pub fn decode(bytes: &[u8]) -> (Cow<'_, str>, bool) {
    match utf8(bytes) {
        Some(text) => (Cow::Borrowed(text), false),
        None => (Cow::Owned(bytes.iter().map(|&b| cp1252(b)).collect()), true),
    }
}

/// The bytes as text if they are UTF-8: `std::str::from_utf8`, quicker for the short
/// ASCII texts read by the million.
#[allow(unsafe_code)]
pub(crate) fn utf8(bytes: &[u8]) -> Option<&str> {
    // Nearly every tag value, comment and move is a few ASCII bytes: testing them for
    // ASCII, a word at a time, costs a fraction of a UTF-8 validation of so short a text
    // (`notate parquet --jobs 1` on the lichess file ×10: 53 M instructions in
    // `from_utf8` for its 465,000 comments and tags, and 45 M fewer in all with this test
    // first; `notate fmt --jobs 1` on the lichess file: 1.7 M of its 82 M in `from_utf8`
    // for the moves alone, and a twentieth of its mispredicted branches).
    if bytes.is_ascii() {
        // SAFETY: ASCII bytes are UTF-8.
        return Some(unsafe { std::str::from_utf8_unchecked(bytes) });
    }
    std::str::from_utf8(bytes).ok()
}

fn cp1252(b: u8) -> char {
    match b {
        0x80..=0x9f => CP1252_HIGH[usize::from(b - 0x80)],
        _ => char::from(b),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn windows_1252_specials() {
        assert_eq!(decode(b"\x80 \x93quoted\x94 \xff").0, "€ “quoted” ÿ");
    }

    #[test]
    fn ascii_is_borrowed_as_it_is() {
        for text in ["", "e4", " [%clk 0:03:00] ", "\t\n\x00\x7f"] {
            assert!(matches!(decode(text.as_bytes()), (Cow::Borrowed(t), false) if t == text));
        }
    }

    /// Every text of short lengths over the bytes where the ways part (ASCII, UTF-8's
    /// leading and continuation bytes, Windows-1252's specials): UTF-8 is kept, and the
    /// rest read as Windows-1252 and flagged.
    #[test]
    fn ascii_utf8_and_the_rest() {
        let bytes = [b'a', 0x7f, 0x80, 0x9f, 0xa9, 0xc3, 0xe2, 0xff];
        let mut text = Vec::new();
        for n in 0..bytes.len().pow(3) {
            text.clear();
            let mut rest = n;
            for _ in 0..3 {
                text.push(bytes[rest % bytes.len()]);
                rest /= bytes.len();
            }
            let (decoded, lossy) = decode(&text);
            match std::str::from_utf8(&text) {
                Ok(utf8) => assert_eq!((decoded.as_ref(), lossy), (utf8, false)),
                Err(_) => {
                    let cp1252: String = text.iter().map(|&b| cp1252(b)).collect();
                    assert_eq!((decoded.as_ref(), lossy), (cp1252.as_str(), true));
                }
            }
        }
    }

    #[test]
    fn utf8_is_borrowed() {
        assert!(matches!(decode("♘f3".as_bytes()).0, Cow::Borrowed(_)));
    }
}
