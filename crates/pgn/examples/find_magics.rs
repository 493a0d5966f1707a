//! Searches magic multipliers for the sliding-attack tables in `src/attacks.rs`.
//!
//! Run with `cargo run --release -p pgn --example find_magics` and paste the printed arrays
//! over `ROOK_MAGIC_NUMBERS` and `BISHOP_MAGIC_NUMBERS`. Each multiplier maps every subset of
//! the square's relevant-occupancy mask to an index (`(occupancy * magic) >> (64 - bits)`)
//! without two subsets with different attacks sharing an index.

const ROOK_DIRS: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const BISHOP_DIRS: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

fn slide(sq: u32, occ: u64, dirs: &[(i32, i32); 4]) -> u64 {
    let mut att = 0;
    for &(df, dr) in dirs {
        let (mut f, mut r) = ((sq % 8) as i32, (sq / 8) as i32);
        loop {
            f += df;
            r += dr;
            if !(0..8).contains(&f) || !(0..8).contains(&r) {
                break;
            }
            let b = 1u64 << (r * 8 + f);
            att |= b;
            if occ & b != 0 {
                break;
            }
        }
    }
    att
}

fn mask(sq: u32, dirs: &[(i32, i32); 4]) -> u64 {
    let mut m = 0;
    for &(df, dr) in dirs {
        let (mut f, mut r) = ((sq % 8) as i32, (sq / 8) as i32);
        loop {
            f += df;
            r += dr;
            let (nf, nr) = (f + df, r + dr);
            if !(0..8).contains(&nf) || !(0..8).contains(&nr) {
                break;
            }
            m |= 1u64 << (r * 8 + f);
        }
    }
    m
}

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn sparse(&mut self) -> u64 {
        self.next() & self.next() & self.next()
    }
}

fn find(sq: u32, dirs: &[(i32, i32); 4], rng: &mut Rng) -> u64 {
    let m = mask(sq, dirs);
    let bits = m.count_ones();
    let mut occs = Vec::new();
    let mut sub = 0u64;
    loop {
        occs.push((sub, slide(sq, sub, dirs)));
        sub = sub.wrapping_sub(m) & m;
        if sub == 0 {
            break;
        }
    }
    let mut used = vec![(0u32, 0u64); 1 << bits];
    let mut attempt = 0u32;
    loop {
        let magic = rng.sparse();
        if (m.wrapping_mul(magic) >> 56).count_ones() < 6 {
            continue;
        }
        attempt += 1;
        let ok = occs.iter().all(|&(occ, att)| {
            let idx = (occ.wrapping_mul(magic) >> (64 - bits)) as usize;
            let slot = &mut used[idx];
            if slot.0 != attempt {
                *slot = (attempt, att);
                true
            } else {
                slot.1 == att
            }
        });
        if ok {
            return magic;
        }
    }
}

fn main() {
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    for (name, dirs) in [("ROOK", &ROOK_DIRS), ("BISHOP", &BISHOP_DIRS)] {
        println!("const {name}_MAGIC_NUMBERS: [u64; 64] = [");
        for sq in 0..64 {
            println!("    {:#018x},", find(sq, dirs, &mut rng));
        }
        println!("];");
    }
}
