//! Integers as the index files write them: LEB128 variable-length integers, and a cursor
//! that reads them back without panicking on a cut or damaged value.

/// Appends `value` as a LEB128 variable-length integer (7 bits a byte, low first).
pub(crate) fn put_varint(out: &mut Vec<u8>, mut value: u64) {
    while value >= 0x80 {
        out.push((value as u8) | 0x80);
        value >>= 7;
    }
    out.push(value as u8);
}

/// Appends a 128-bit `value` as a LEB128 variable-length integer.
pub(crate) fn put_varint128(out: &mut Vec<u8>, mut value: u128) {
    while value >= 0x80 {
        out.push((value as u8) | 0x80);
        value >>= 7;
    }
    out.push(value as u8);
}

/// Reads values back from bytes; every read says `None` where the bytes end early or
/// hold a value too large, so that a damaged file gives an error, never a panic.
pub(crate) struct Cursor<'a> {
    bytes: &'a [u8],
}

impl<'a> Cursor<'a> {
    pub(crate) fn new(bytes: &'a [u8]) -> Cursor<'a> {
        Cursor { bytes }
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }

    /// The bytes not read yet.
    pub(crate) fn rest(&self) -> &'a [u8] {
        self.bytes
    }

    pub(crate) fn varint(&mut self) -> Option<u64> {
        // Most are one byte (a posting's distance to the game before it, its move).
        if let Some((&byte, rest)) = self.bytes.split_first()
            && byte & 0x80 == 0
        {
            self.bytes = rest;
            return Some(u64::from(byte));
        }
        let mut value = 0_u64;
        for (i, &byte) in self.bytes.iter().enumerate().take(10) {
            let bits = u64::from(byte & 0x7f);
            if i == 9 && bits > 1 {
                return None;
            }
            value |= bits << (7 * i);
            if byte & 0x80 == 0 {
                self.bytes = &self.bytes[i + 1..];
                return Some(value);
            }
        }
        None
    }

    pub(crate) fn varint128(&mut self) -> Option<u128> {
        let mut value = 0_u128;
        for (i, &byte) in self.bytes.iter().enumerate().take(19) {
            let bits = u128::from(byte & 0x7f);
            if i == 18 && bits > 3 {
                return None;
            }
            value |= bits << (7 * i);
            if byte & 0x80 == 0 {
                self.bytes = &self.bytes[i + 1..];
                return Some(value);
            }
        }
        None
    }

    pub(crate) fn array<const N: usize>(&mut self) -> Option<[u8; N]> {
        let (head, rest) = self.bytes.split_first_chunk::<N>()?;
        self.bytes = rest;
        Some(*head)
    }

    /// The next `n` bytes, `None` when fewer are left.
    pub(crate) fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        let (head, rest) = self.bytes.split_at_checked(n)?;
        self.bytes = rest;
        Some(head)
    }

    pub(crate) fn u8(&mut self) -> Option<u8> {
        self.array::<1>().map(|[b]| b)
    }
}

/// Values of given widths (at most 32 bits each) packed into bytes, low bits first.
pub(crate) struct BitWriter<'a> {
    out: &'a mut Vec<u8>,
    pending: u64,
    bits: u32,
}

impl<'a> BitWriter<'a> {
    pub(crate) fn new(out: &'a mut Vec<u8>) -> BitWriter<'a> {
        BitWriter {
            out,
            pending: 0,
            bits: 0,
        }
    }

    /// Appends the low `width` bits of `value`.
    pub(crate) fn put(&mut self, value: u64, width: u32) {
        debug_assert!(width <= 32 && (width == 32 || value < 1 << width));
        // Fewer than 32 bits wait, so that `width` more fit in `pending`; they go out four
        // bytes at a time, which writes a tail block in a third fewer instructions than a
        // byte at a time.
        self.pending |= value << self.bits;
        self.bits += width;
        if self.bits >= 32 {
            self.out
                .extend_from_slice(&(self.pending as u32).to_le_bytes());
            self.pending >>= 32;
            self.bits -= 32;
        }
    }

    /// Appends `value` Rice-coded with parameter `k` (at most 32): its high part in unary
    /// (that many ones, then a zero), then its low `k` bits.
    pub(crate) fn put_rice(&mut self, value: u64, k: u32) {
        let mut high = value >> k;
        while high >= 32 {
            self.put(u64::from(u32::MAX), 32);
            high -= 32;
        }
        self.put((1 << high) - 1, high as u32 + 1);
        self.put(value & ((1 << k) - 1), k);
    }

    /// Writes the bits still waiting, the last byte partly filled.
    pub(crate) fn finish(self) {
        let bytes = self.bits.div_ceil(8) as usize;
        self.out
            .extend_from_slice(&self.pending.to_le_bytes()[..bytes]);
    }
}

/// Reads what a [`BitWriter`] wrote, `None` past the end.
pub(crate) struct BitReader<'a> {
    bytes: &'a [u8],
    pending: u64,
    bits: u32,
}

impl<'a> BitReader<'a> {
    pub(crate) fn new(bytes: &'a [u8]) -> BitReader<'a> {
        BitReader {
            bytes,
            pending: 0,
            bits: 0,
        }
    }

    /// The next `width` bits (at most 32).
    pub(crate) fn get(&mut self, width: u32) -> Option<u64> {
        if width > 32 {
            return None;
        }
        while self.bits < width {
            let (&byte, rest) = self.bytes.split_first()?;
            self.pending |= u64::from(byte) << self.bits;
            self.bits += 8;
            self.bytes = rest;
        }
        let value = self.pending & ((1 << width) - 1);
        self.pending >>= width;
        self.bits -= width;
        Some(value)
    }

    /// A value [`BitWriter::put_rice`] wrote with parameter `k`.
    pub(crate) fn get_rice(&mut self, k: u32) -> Option<u64> {
        let mut high = 0_u64;
        while self.get(1)? == 1 {
            high += 1;
        }
        let low = self.get(k)?;
        high.checked_shl(k)?.checked_add(low)
    }
}

/// The bits `value` needs.
pub(crate) fn width(value: u64) -> u32 {
    64 - value.leading_zeros()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn varints_round_trip_and_damage_reads_as_none() {
        let values = [0, 1, 127, 128, 300, u64::from(u32::MAX), u64::MAX];
        let mut bytes = Vec::new();
        for v in values {
            put_varint(&mut bytes, v);
        }
        let mut cursor = Cursor::new(&bytes);
        for v in values {
            assert_eq!(cursor.varint(), Some(v));
        }
        assert!(cursor.is_empty());
        assert_eq!(cursor.varint(), None);
        // Cut in the middle of a value.
        assert_eq!(Cursor::new(&[0x80, 0x80]).varint(), None);
        // Eleven bytes of continuation: too large.
        assert_eq!(Cursor::new(&[0xff; 11]).varint(), None);
        assert_eq!(Cursor::new(&[1, 2, 3]).array::<4>(), None);
        let wide = [0, 1, 1 << 70, u128::MAX];
        let mut bytes = Vec::new();
        for v in wide {
            put_varint128(&mut bytes, v);
        }
        let mut cursor = Cursor::new(&bytes);
        for v in wide {
            assert_eq!(cursor.varint128(), Some(v));
        }
        assert_eq!(Cursor::new(&[0xff; 19]).varint128(), None);
    }

    #[test]
    fn packed_bits_round_trip_and_stop_at_the_end() {
        let values = [
            (0, 0),
            (1, 1),
            (5, 3),
            (300, 9),
            (u64::from(u32::MAX), 32),
            (7, 20),
        ];
        let mut bytes = Vec::new();
        let mut writer = BitWriter::new(&mut bytes);
        for (value, width) in values {
            writer.put(value, width);
        }
        writer.finish();
        assert_eq!(bytes.len(), (1 + 3 + 9 + 32 + 20_usize).div_ceil(8));
        let mut reader = BitReader::new(&bytes);
        for (value, width) in values {
            assert_eq!(reader.get(width), Some(value));
        }
        assert_eq!(reader.get(8), None);
        assert_eq!(BitReader::new(&bytes).get(33), None);
        assert_eq!((width(0), width(1), width(255), width(256)), (0, 1, 8, 9));

        // The bytes are the segment's format: each value's bits follow the last one's,
        // the lowest first, from the lowest bit of the first byte on.
        let mut expected = Vec::new();
        let mut at = 0;
        for (value, width) in values {
            for i in 0..width {
                if at % 8 == 0 {
                    expected.push(0);
                }
                expected[at / 8] |= (((value >> i) & 1) as u8) << (at % 8);
                at += 1;
            }
        }
        assert_eq!(bytes, expected);

        let values = [0, 1, 5, 72, 73, 400, 9_000, 1 << 31];
        for k in [0, 3, 6, 12] {
            let mut bytes = Vec::new();
            let mut writer = BitWriter::new(&mut bytes);
            for v in values {
                writer.put_rice(v, k);
            }
            writer.finish();
            let mut reader = BitReader::new(&bytes);
            for v in values {
                assert_eq!(reader.get_rice(k), Some(v), "k {k}");
            }
        }
    }
}
