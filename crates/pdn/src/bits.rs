//! Bit sets over the generator's square layout, as `u64` or `u128`.
//!
//! Boards whose layout fits 64 bits (8×8, 10×10, 10×8, Turkish 8×8) use
//! `u64`; larger ones (Canadian 12×12) use `u128`. The generator is generic
//! over this trait so each width gets its own compiled code.

use std::fmt::Debug;
use std::hash::Hash;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not, Shl, Shr};

pub(crate) trait Bits:
    Copy
    + Eq
    + Hash
    + Debug
    + Default
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + BitAndAssign
    + BitOrAssign
    + BitXorAssign
    + Shl<u32, Output = Self>
    + Shr<u32, Output = Self>
    + Send
    + Sync
    + 'static
{
    const ZERO: Self;
    const ONE: Self;
    /// Number of bits.
    const WIDTH: u32;

    fn count(self) -> u32;
    /// Index of the lowest set bit; `WIDTH` if none.
    fn lowest(self) -> u32;
    /// `self` without its lowest set bit.
    fn without_lowest(self) -> Self;

    #[inline(always)]
    fn is_zero(self) -> bool {
        self == Self::ZERO
    }

    #[inline(always)]
    fn any(self) -> bool {
        self != Self::ZERO
    }

    #[inline(always)]
    fn bit(index: u32) -> Self {
        Self::ONE << index
    }

    #[inline(always)]
    fn has(self, index: u32) -> bool {
        (self & Self::bit(index)).any()
    }

    #[inline(always)]
    fn iter(self) -> BitIter<Self> {
        BitIter(self)
    }
}

impl Bits for u64 {
    const ZERO: Self = 0;
    const ONE: Self = 1;
    const WIDTH: u32 = 64;

    #[inline(always)]
    fn count(self) -> u32 {
        self.count_ones()
    }

    #[inline(always)]
    fn lowest(self) -> u32 {
        self.trailing_zeros()
    }

    #[inline(always)]
    fn without_lowest(self) -> Self {
        self & self.wrapping_sub(1)
    }
}

impl Bits for u128 {
    const ZERO: Self = 0;
    const ONE: Self = 1;
    const WIDTH: u32 = 128;

    #[inline(always)]
    fn count(self) -> u32 {
        self.count_ones()
    }

    #[inline(always)]
    fn lowest(self) -> u32 {
        self.trailing_zeros()
    }

    #[inline(always)]
    fn without_lowest(self) -> Self {
        self & self.wrapping_sub(1)
    }
}

/// Iterates the indices of the set bits, lowest first.
#[derive(Clone, Copy)]
pub(crate) struct BitIter<B>(B);

impl<B: Bits> Iterator for BitIter<B> {
    type Item = u32;

    #[inline(always)]
    fn next(&mut self) -> Option<u32> {
        if self.0.is_zero() {
            None
        } else {
            let i = self.0.lowest();
            self.0 = self.0.without_lowest();
            Some(i)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iterate() {
        let b: u128 = (1 << 3) | (1 << 70) | (1 << 127);
        assert_eq!(b.iter().collect::<Vec<_>>(), vec![3, 70, 127]);
        assert_eq!(Bits::count(b), 3);
        let c: u64 = 0b1010;
        assert_eq!(c.without_lowest(), 0b1000);
        assert!(c.has(1));
        assert!(!c.has(0));
    }
}
