//! Bytes looked at eight at a time in a `u64` ("SIMD within a register"): for the short
//! texts read by the million (tag values, comments), where a byte-by-byte loop costs more
//! than the bytes are worth and a vector search does not pay for its set-up.

/// Each byte of a word of eight bytes set to `byte`.
pub(crate) const fn every_byte(byte: u8) -> u64 {
    u64::from_ne_bytes([byte; 8])
}

/// The high bit of each byte of `x` that is zero, and no other bit.
pub(crate) fn zero_bytes(x: u64) -> u64 {
    let high = every_byte(0x80);
    // A byte's low seven bits plus 0x7f carry into its high bit unless they are all
    // zero, and never into the next byte.
    !(((x & !high).wrapping_add(!high)) | x) & high
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zero_bytes_are_found_exactly() {
        for b in 0..=255u8 {
            for place in 0..8 {
                let mut bytes = [0x55; 8];
                bytes[place] = b;
                let found = zero_bytes(u64::from_le_bytes(bytes));
                let expected = if b == 0 { 0x80 << (8 * place) } else { 0 };
                assert_eq!(found, expected, "byte {b:#x} at {place}");
            }
        }
        assert_eq!(zero_bytes(0), every_byte(0x80));
    }
}
