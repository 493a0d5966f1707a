//! Attack tables: which squares a piece on a square attacks.
//!
//! Knight, king and pawn attacks are looked up in tables of 64 entries. Sliding pieces use
//! *magic bitboards*: the blockers on a rook's or bishop's lines are multiplied by a constant
//! chosen per square (found by `examples/find_magics.rs`) so that their top bits index a table
//! of precomputed attack sets. All tables are computed at compile time, so there is no start-up
//! cost.
//!
//! ```
//! use pgn::{attacks, Bitboard, Square};
//! assert_eq!(attacks::knight_attacks(Square::A1), Bitboard::from(Square::B3) | Square::C2);
//! let blockers = Bitboard::from(Square::A4);
//! assert_eq!(attacks::rook_attacks(Square::A1, blockers).count(), 3 + 7);
//! assert_eq!(attacks::between(Square::A1, Square::A4), Bitboard::from(Square::A2) | Square::A3);
//! ```

use crate::{Bitboard, Color, Piece, Role, Square};

const fn step_table(deltas: &[(i32, i32)]) -> [u64; 64] {
    let mut table = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        let (f, r) = ((sq % 8) as i32, (sq / 8) as i32);
        let mut i = 0;
        while i < deltas.len() {
            let (nf, nr) = (f + deltas[i].0, r + deltas[i].1);
            if nf >= 0 && nf < 8 && nr >= 0 && nr < 8 {
                table[sq] |= 1 << (nr * 8 + nf);
            }
            i += 1;
        }
        sq += 1;
    }
    table
}

static KNIGHT_ATTACKS: [u64; 64] = step_table(&[
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
]);
static KING_ATTACKS: [u64; 64] = step_table(&[
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
]);
static PAWN_ATTACKS: [[u64; 64]; 2] = [
    step_table(&[(-1, 1), (1, 1)]),
    step_table(&[(-1, -1), (1, -1)]),
];

const ROOK_DIRS: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const BISHOP_DIRS: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

/// Attacks of a slider on `sq` along `dirs`, stopping at (and including) the first blocker.
const fn slide(sq: usize, occ: u64, dirs: &[(i32, i32); 4]) -> u64 {
    let mut att = 0;
    let mut d = 0;
    while d < 4 {
        let (mut f, mut r) = ((sq % 8) as i32, (sq / 8) as i32);
        loop {
            f += dirs[d].0;
            r += dirs[d].1;
            if f < 0 || f >= 8 || r < 0 || r >= 8 {
                break;
            }
            let b = 1u64 << (r * 8 + f);
            att |= b;
            if occ & b != 0 {
                break;
            }
        }
        d += 1;
    }
    att
}

/// The squares whose occupancy matters for a slider on `sq`: its lines without the edge squares.
const fn relevant_mask(sq: usize, dirs: &[(i32, i32); 4]) -> u64 {
    let mut m = 0;
    let mut d = 0;
    while d < 4 {
        let (mut f, mut r) = ((sq % 8) as i32, (sq / 8) as i32);
        loop {
            f += dirs[d].0;
            r += dirs[d].1;
            let (nf, nr) = (f + dirs[d].0, r + dirs[d].1);
            if nf < 0 || nf >= 8 || nr < 0 || nr >= 8 {
                break;
            }
            m |= 1u64 << (r * 8 + f);
        }
        d += 1;
    }
    m
}

#[derive(Copy, Clone)]
struct Magic {
    mask: u64,
    factor: u64,
    shift: u32,
    offset: usize,
}

const fn magics(numbers: &[u64; 64], dirs: &[(i32, i32); 4], start: usize) -> ([Magic; 64], usize) {
    let mut out = [Magic {
        mask: 0,
        factor: 0,
        shift: 0,
        offset: 0,
    }; 64];
    let mut offset = start;
    let mut sq = 0;
    while sq < 64 {
        let mask = relevant_mask(sq, dirs);
        let bits = mask.count_ones();
        out[sq] = Magic {
            mask,
            factor: numbers[sq],
            shift: 64 - bits,
            offset,
        };
        offset += 1 << bits;
        sq += 1;
    }
    (out, offset)
}

const ROOK: ([Magic; 64], usize) = magics(&ROOK_MAGIC_NUMBERS, &ROOK_DIRS, 0);
const BISHOP: ([Magic; 64], usize) = magics(&BISHOP_MAGIC_NUMBERS, &BISHOP_DIRS, ROOK.1);
const TABLE_SIZE: usize = BISHOP.1;
static ROOK_MAGICS: [Magic; 64] = ROOK.0;
static BISHOP_MAGICS: [Magic; 64] = BISHOP.0;

/// Rays from each square in the eight directions (excluding the square): rook directions
/// first (north, east, south, west), then bishop directions (north-east, south-east,
/// south-west, north-west).
const fn ray_table() -> [[u64; 64]; 8] {
    let dirs = [
        (0, 1),
        (1, 0),
        (0, -1),
        (-1, 0),
        (1, 1),
        (1, -1),
        (-1, -1),
        (-1, 1),
    ];
    let mut rays = [[0u64; 64]; 8];
    let mut d = 0;
    while d < 8 {
        let mut sq = 0;
        while sq < 64 {
            let (mut f, mut r) = ((sq % 8) as i32, (sq / 8) as i32);
            loop {
                f += dirs[d].0;
                r += dirs[d].1;
                if f < 0 || f >= 8 || r < 0 || r >= 8 {
                    break;
                }
                rays[d][sq] |= 1 << (r * 8 + f);
            }
            sq += 1;
        }
        d += 1;
    }
    rays
}

const RAYS: [[u64; 64]; 8] = ray_table();

/// Slider attacks along the rays `first..first + 4` using the ray table: cut each ray behind
/// its nearest blocker. Directions 0, 1 and 4, 7 grow towards higher indices (nearest
/// blocker is the lowest bit); 2, 3, 5, 6 towards lower ones (nearest is the highest bit).
const fn slide_fast(sq: usize, occ: u64, first: usize) -> u64 {
    let mut att = 0;
    let mut d = first;
    while d < first + 4 {
        let ray = RAYS[d][sq];
        let blockers = ray & occ;
        att |= ray;
        if blockers != 0 {
            let up = matches!(d, 0 | 1 | 4 | 7);
            let nearest = if up {
                blockers.trailing_zeros()
            } else {
                63 - blockers.leading_zeros()
            };
            att &= !RAYS[d][nearest as usize];
        }
        d += 1;
    }
    att
}

const fn fill(table: &mut [u64; TABLE_SIZE], magics: &[Magic; 64], first_dir: usize) {
    let mut sq = 0;
    while sq < 64 {
        let m = magics[sq];
        let mut sub = 0u64;
        loop {
            let idx = (sub.wrapping_mul(m.factor) >> m.shift) as usize;
            table[m.offset + idx] = slide_fast(sq, sub, first_dir);
            sub = sub.wrapping_sub(m.mask) & m.mask;
            if sub == 0 {
                break;
            }
        }
        sq += 1;
    }
}

const fn slider_table() -> [u64; TABLE_SIZE] {
    let mut table = [0; TABLE_SIZE];
    fill(&mut table, &ROOK.0, 0);
    fill(&mut table, &BISHOP.0, 4);
    table
}

static SLIDER_ATTACKS: [u64; TABLE_SIZE] = slider_table();

const fn line_tables() -> ([[u64; 64]; 64], [[u64; 64]; 64]) {
    let mut between = [[0u64; 64]; 64];
    let mut line = [[0u64; 64]; 64];
    let dirs = [
        (1, 0),
        (-1, 0),
        (0, 1),
        (0, -1),
        (1, 1),
        (1, -1),
        (-1, 1),
        (-1, -1),
    ];
    let mut a = 0;
    while a < 64 {
        let mut d = 0;
        while d < 8 {
            let (df, dr) = dirs[d];
            // The full line through `a` in this direction, both ways, edge to edge.
            let mut full = 1u64 << a;
            let mut k = 0;
            while k < 2 {
                let (sf, sr) = if k == 0 { (df, dr) } else { (-df, -dr) };
                let (mut f, mut r) = ((a % 8) as i32, (a / 8) as i32);
                loop {
                    f += sf;
                    r += sr;
                    if f < 0 || f >= 8 || r < 0 || r >= 8 {
                        break;
                    }
                    full |= 1 << (r * 8 + f);
                }
                k += 1;
            }
            let (mut f, mut r) = ((a % 8) as i32, (a / 8) as i32);
            let mut path = 0u64;
            loop {
                f += df;
                r += dr;
                if f < 0 || f >= 8 || r < 0 || r >= 8 {
                    break;
                }
                let b = (r * 8 + f) as usize;
                between[a][b] = path;
                line[a][b] = full;
                path |= 1 << b;
            }
            d += 1;
        }
        a += 1;
    }
    (between, line)
}

static LINES: ([[u64; 64]; 64], [[u64; 64]; 64]) = line_tables();

/// Each square's lines to the board's edges along `dirs`, on an empty board.
const fn rays_table(dirs: &[(i32, i32); 4]) -> [u64; 64] {
    let mut table = [0; 64];
    let mut sq = 0;
    while sq < 64 {
        table[sq] = slide(sq, 0, dirs);
        sq += 1;
    }
    table
}

static ROOK_RAYS: [u64; 64] = rays_table(&ROOK_DIRS);
static BISHOP_RAYS: [u64; 64] = rays_table(&BISHOP_DIRS);

/// The squares a knight on `sq` attacks.
#[inline]
pub fn knight_attacks(sq: Square) -> Bitboard {
    Bitboard(KNIGHT_ATTACKS[sq.index()])
}

/// The squares a king on `sq` attacks.
#[inline]
pub fn king_attacks(sq: Square) -> Bitboard {
    Bitboard(KING_ATTACKS[sq.index()])
}

/// The squares a pawn of `color` on `sq` attacks (diagonally forward).
#[inline]
pub fn pawn_attacks(color: Color, sq: Square) -> Bitboard {
    Bitboard(PAWN_ATTACKS[color.index()][sq.index()])
}

#[inline]
fn magic_lookup(m: &Magic, occupied: Bitboard) -> Bitboard {
    let idx = ((occupied.0 & m.mask).wrapping_mul(m.factor) >> m.shift) as usize;
    Bitboard(SLIDER_ATTACKS.get(m.offset + idx).copied().unwrap_or(0))
}

/// The squares a rook on `sq` attacks, given the occupied squares (blockers are included).
#[inline]
pub fn rook_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    magic_lookup(&ROOK_MAGICS[sq.index()], occupied)
}

/// The squares a bishop on `sq` attacks, given the occupied squares (blockers are included).
#[inline]
pub fn bishop_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    magic_lookup(&BISHOP_MAGICS[sq.index()], occupied)
}

/// The squares a rook on `sq` attacks on an empty board: its rank and file. Every set
/// [`rook_attacks`] gives for `sq` is within it, so a caller that finds none of its
/// pieces there needs no lookup in the large table of [`rook_attacks`].
///
/// ```
/// use pgn::{attacks, Bitboard, Square};
/// assert_eq!(attacks::rook_rays(Square::A1), attacks::rook_attacks(Square::A1, Bitboard(0)));
/// assert_eq!(attacks::rook_rays(Square::D4).count(), 14);
/// ```
#[inline]
pub fn rook_rays(sq: Square) -> Bitboard {
    Bitboard(ROOK_RAYS[sq.index()])
}

/// The squares a bishop on `sq` attacks on an empty board: its diagonals (see
/// [`rook_rays`]).
///
/// ```
/// use pgn::{attacks, Square};
/// assert_eq!(attacks::bishop_rays(Square::D4).count(), 13);
/// ```
#[inline]
pub fn bishop_rays(sq: Square) -> Bitboard {
    Bitboard(BISHOP_RAYS[sq.index()])
}

/// The squares a queen on `sq` attacks, given the occupied squares (blockers are included).
#[inline]
pub fn queen_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    rook_attacks(sq, occupied) | bishop_attacks(sq, occupied)
}

/// The squares `piece` on `sq` attacks, given the occupied squares.
pub fn attacks(piece: Piece, sq: Square, occupied: Bitboard) -> Bitboard {
    match piece.role {
        Role::Pawn => pawn_attacks(piece.color, sq),
        Role::Knight => knight_attacks(sq),
        Role::Bishop => bishop_attacks(sq, occupied),
        Role::Rook => rook_attacks(sq, occupied),
        Role::Queen => queen_attacks(sq, occupied),
        Role::King => king_attacks(sq),
    }
}

/// The squares strictly between `a` and `b` if they share a rank, file or diagonal; else empty.
#[inline]
pub fn between(a: Square, b: Square) -> Bitboard {
    Bitboard(LINES.0[a.index()][b.index()])
}

/// The whole line (edge to edge) through `a` and `b` if they share a rank, file or diagonal;
/// else empty. Empty as well for `a == b`.
#[inline]
pub fn ray(a: Square, b: Square) -> Bitboard {
    Bitboard(LINES.1[a.index()][b.index()])
}

/// `true` if the three squares lie on one rank, file or diagonal.
#[inline]
pub fn aligned(a: Square, b: Square, c: Square) -> bool {
    ray(a, b).contains(c)
}

const ROOK_MAGIC_NUMBERS: [u64; 64] = [
    0x0980_0080_1140_0020,
    0x8340_0044_1000_2000,
    0x0880_2000_9000_8268,
    0x0080_0800_8010_0004,
    0x8100_1100_0402_0800,
    0x0300_0100_0400_0822,
    0x0880_1a00_2900_0080,
    0x8100_0500_0120_4882,
    0x0844_8000_8140_0320,
    0x0804_4020_1000_4000,
    0x0108_8020_0310_0480,
    0x0004_8080_0800_1000,
    0x0003_0018_0100_1014,
    0x0002_0002_0004_1008,
    0x0004_0081_0804_2210,
    0x0105_0001_0000_9042,
    0x0400_8080_0040_0021,
    0xc100_4040_1000_2000,
    0x0060_0080_1000_2088,
    0x0400_8080_0800_1000,
    0x4440_8080_0800_0400,
    0x1002_0080_0400_0280,
    0x4002_4400_300d_1248,
    0x0010_0200_0040_8104,
    0x0101_0082_0020_4200,
    0x8020_0020_4000_5000,
    0x4100_1000_8080_2000,
    0x4008_006a_8010_0280,
    0x1020_0800_8004_0080,
    0x0004_0100_4002_0040,
    0x0018_a124_0008_0290,
    0x6140_0042_0000_8104,
    0x4000_4000_2080_0090,
    0x2020_0020_8080_4000,
    0x0000_4082_0200_2010,
    0x0080_1005_0100_0820,
    0x0000_8004_0080_0800,
    0x000a_2004_0801_4010,
    0x0100_8002_0080_0100,
    0xa008_0057_0200_008c,
    0x0080_0040_6000_c010,
    0x1040_1000_2800_2000,
    0x0048_2001_0011_0040,
    0x0068_4902_1003_0020,
    0x1009_0800_0501_0010,
    0x2142_0008_0401_0100,
    0x1001_0801_1084_0002,
    0x1801_0044_0082_0001,
    0x0104_4020_8d02_0200,
    0x0000_4000_2000_8080,
    0x0200_2000_8010_0280,
    0x0000_1000_2009_0100,
    0x0204_0080_0802_0480,
    0x8104_0100_4002_0040,
    0x7800_0201_b008_0400,
    0x0040_8000_5100_2880,
    0x0050_1080_0100_2041,
    0x208a_8011_0061_4003,
    0x0006_0020_4208_9082,
    0x0011_0900_0420_1001,
    0x1002_0010_0420_0802,
    0x0005_0002_0804_0001,
    0x0002_0027_01ac_0822,
    0x0000_1025_0184_004a,
];

const BISHOP_MAGIC_NUMBERS: [u64; 64] = [
    0xc0a0_0122_0604_0ea0,
    0x8010_2282_0042_0001,
    0x0110_0082_2040_0400,
    0x0244_5c00_8010_6000,
    0x0044_0420_0400_8100,
    0x0880_9004_2040_8c05,
    0x0201_0801_1008_0002,
    0x0000_1080_9420_2000,
    0x0000_0420_0204_0108,
    0x0000_6230_2411_0042,
    0x0086_1000_9481_1002,
    0x0000_0445_0200_2080,
    0x0100_4602_1140_0040,
    0x0008_1090_0420_0004,
    0x0202_3200_8484_4000,
    0x8040_0424_2104_1009,
    0x2010_10c0_5102_008c,
    0x1020_8882_0802_4080,
    0x0108_000c_8029_0200,
    0x8048_0004_2042_5203,
    0x0005_0000_9040_2000,
    0x2080_4002_0110_4100,
    0x8820_4201_1110_1000,
    0x4ac0_3022_0882_1802,
    0x0004_4000_1002_a840,
    0x2002_2000_1004_1080,
    0x1012_0802_0100_4400,
    0x8440_0400_0241_0120,
    0x1090_8200_8401_0400,
    0x2084_8520_1202_1000,
    0x1204_0062_c101_1003,
    0x0200_8205_e109_0080,
    0x088c_1028_0804_2080,
    0x0802_1022_0090_4280,
    0x8020_2090_0208_0020,
    0x2200_0808_0006_0a00,
    0x20c0_0040_1001_0100,
    0x0802_0041_0082_1003,
    0x0008_0244_0000_8080,
    0x0000_8401_0200_8090,
    0x0030_a404_2024_4007,
    0x0a19_0842_1001_1282,
    0x0004_0820_9001_9806,
    0x6108_0042_0802_0080,
    0x0081_2004_1011_0100,
    0x1040_8107_0101_0208,
    0x0282_0478_3201_2080,
    0x0010_0200_9900_0020,
    0x000e_0104_2240_0840,
    0x1020_4208_b008_9090,
    0x0810_0444_0c04_8000,
    0x88c0_1800_8404_0001,
    0x3100_0208_0304_0080,
    0x8900_70a0_4121_0c00,
    0x0020_2001_0101_0a09,
    0x0004_1002_4041_0400,
    0x0006_0044_0208_0200,
    0x0801_0624_8404_2000,
    0x0001_0002_d744_1004,
    0x0810_0800_0020_8800,
    0x0000_0208_0803_0411,
    0x1450_0010_2001_4440,
    0x0040_6008_1081_a288,
    0x0044_0114_0410_8a00,
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sliders_match_slow_attacks() {
        let mut rng = 0x1234_5678_9abc_def1u64;
        for _ in 0..2000 {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            let occ = rng & (rng >> 3);
            for sq in Square::all() {
                assert_eq!(
                    rook_attacks(sq, Bitboard(occ)).0,
                    slide(sq.index(), occ, &ROOK_DIRS)
                );
                assert_eq!(
                    bishop_attacks(sq, Bitboard(occ)).0,
                    slide(sq.index(), occ, &BISHOP_DIRS)
                );
                assert_eq!(rook_attacks(sq, Bitboard(occ)).0 & !rook_rays(sq).0, 0);
                assert_eq!(bishop_attacks(sq, Bitboard(occ)).0 & !bishop_rays(sq).0, 0);
            }
        }
        for sq in Square::all() {
            assert_eq!(rook_rays(sq), rook_attacks(sq, Bitboard::EMPTY));
            assert_eq!(bishop_rays(sq), bishop_attacks(sq, Bitboard::EMPTY));
        }
    }

    #[test]
    fn lines() {
        assert_eq!(between(Square::A1, Square::H8).count(), 6);
        assert_eq!(between(Square::A1, Square::B3), Bitboard::EMPTY);
        assert_eq!(ray(Square::B2, Square::C3).count(), 8);
        assert!(aligned(Square::A1, Square::C3, Square::H8));
        assert!(!aligned(Square::A1, Square::C3, Square::H7));
        assert_eq!(
            pawn_attacks(Color::White, Square::A2),
            Bitboard::from(Square::B3)
        );
        assert_eq!(king_attacks(Square::E1).count(), 5);
    }
}
