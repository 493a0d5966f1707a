//! Where things are in the input: byte spans and human positions.

use std::fmt;

/// A half-open range of byte offsets into the whole input stream.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Span {
    /// Offset of the first byte.
    pub start: u64,
    /// Offset one past the last byte.
    pub end: u64,
}

impl Span {
    /// A span from `start` to `end`.
    pub const fn new(start: u64, end: u64) -> Span {
        Span { start, end }
    }

    /// Number of bytes covered.
    pub const fn len(self) -> u64 {
        self.end - self.start
    }

    /// Whether the span covers no byte.
    pub const fn is_empty(self) -> bool {
        self.end == self.start
    }
}

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
