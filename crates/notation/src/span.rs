//! Where things are in the input, in bytes.

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
