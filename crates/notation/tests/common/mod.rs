//! What the reader's integration tests share.

use std::io::Read;

/// An `io::Read` that hands out one byte per call: every token crosses a buffer edge.
pub struct Trickle<'a>(pub &'a [u8]);

impl Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        match (self.0.split_first(), buf.first_mut()) {
            (Some((&b, rest)), Some(slot)) => {
                *slot = b;
                self.0 = rest;
                Ok(1)
            }
            _ => Ok(0),
        }
    }
}
