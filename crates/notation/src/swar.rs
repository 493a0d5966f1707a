//! Bytes looked at eight at a time in a `u64` ("SIMD within a register"): for the short
//! tag values read and written by the million, where a byte-by-byte loop costs more
//! than the bytes are worth and a vector search does not pay for its set-up.

/// Each byte of a word of eight bytes set to `byte`.
const fn every_byte(byte: u8) -> u64 {
    u64::from_ne_bytes([byte; 8])
}

/// The high bit of each byte of `x` that is zero, and no other bit.
fn zero_bytes(x: u64) -> u64 {
    let high = every_byte(0x80);
    // A byte's low seven bits plus 0x7f carry into its high bit unless they are all
    // zero, and never into the next byte.
    !(((x & !high).wrapping_add(!high)) | x) & high
}

/// Whether `bytes` hold no ASCII control character (below a space, or DEL) and none of
/// `specials`: for tag values, read and written by the million, 10 to 30 bytes each.
pub(crate) fn free_of_controls_and<const N: usize>(bytes: &[u8], specials: [u8; N]) -> bool {
    let high = every_byte(0x80);
    let faults = |x: u64| {
        // A byte below 0x20 borrows into its high bit when 0x20 is taken from it, unless
        // its high bit was set (then it is not below 0x20): exact for whether any is.
        let below_space = x.wrapping_sub(every_byte(0x20)) & !x & high;
        specials.iter().fold(
            below_space | zero_bytes(x ^ every_byte(0x7f)),
            |found, &special| found | zero_bytes(x ^ every_byte(special)),
        )
    };
    let Some(&last) = bytes.last_chunk::<8>() else {
        // Fewer than eight bytes, in a word of letters.
        let x = bytes
            .iter()
            .enumerate()
            .fold(every_byte(b'a'), |x, (i, &b)| {
                x & !(0xff << (8 * i)) | u64::from(b) << (8 * i)
            });
        return faults(x) == 0;
    };
    // The last eight bytes overlap the words before them: a byte looked at twice is
    // found the same.
    let found = bytes
        .chunks_exact(8)
        .filter_map(|chunk| chunk.first_chunk::<8>())
        .fold(faults(u64::from_le_bytes(last)), |found, &chunk| {
            found | faults(u64::from_le_bytes(chunk))
        });
    found == 0
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

    /// Every byte value at every place of texts of 1 to 20 bytes among letters, with
    /// high bytes before it or not: a text is free of them exactly when no byte is an
    /// ASCII control character or one of the specials. With `\\` alone, that is a tag
    /// value the reader takes as it is; with `"` too, one the writer writes as it is.
    #[test]
    fn controls_and_specials_are_found_wherever_they_are() {
        fn check<const N: usize>(specials: [u8; N]) {
            for len in 1..=20 {
                for place in 0..len {
                    for b in 0..=255u8 {
                        let mut text = vec![b'k'; len];
                        text[place] = b;
                        let expected = !(specials.contains(&b) || b.is_ascii_control());
                        let found = free_of_controls_and(&text, specials);
                        assert_eq!(found, expected, "{b:#x} at {place} of {len}");
                        text[..place].fill(0xc3);
                        let found = free_of_controls_and(&text, specials);
                        assert_eq!(found, expected, "{b:#x} after high bytes");
                    }
                }
            }
            assert!(free_of_controls_and(b"", specials));
        }
        check([b'\\']);
        check([b'\\', b'"']);
    }
}
