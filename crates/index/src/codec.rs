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

    pub(crate) fn varint(&mut self) -> Option<u64> {
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

    pub(crate) fn u8(&mut self) -> Option<u8> {
        self.array::<1>().map(|[b]| b)
    }

    pub(crate) fn u16(&mut self) -> Option<u16> {
        self.array().map(u16::from_be_bytes)
    }

    pub(crate) fn u32(&mut self) -> Option<u32> {
        self.array().map(u32::from_be_bytes)
    }

    pub(crate) fn u64(&mut self) -> Option<u64> {
        self.array().map(u64::from_be_bytes)
    }
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
        assert_eq!(Cursor::new(&[1, 2, 3]).u32(), None);
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
}
