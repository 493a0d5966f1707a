//! Helpers for the workspace-level tests over `corpus/` (the tests are in `tests/tests/`).

use std::path::{Path, PathBuf};

/// A small deterministic random number generator (xorshift): generated corpora and damaged
/// copies come out the same on every run.
#[derive(Clone, Debug)]
pub struct Rng(pub u64);

impl Rng {
    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A number below `n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n.max(1) as u64) as usize
    }

    /// True once in `n` times.
    pub fn one_in(&mut self, n: usize) -> bool {
        self.below(n) == 0
    }

    /// A generator for one of many independent streams of a seed (stream `i` for the `i`th
    /// game, say): the pair is mixed by SplitMix64, so that neighbouring streams share
    /// nothing, and never gives the state 0, where xorshift would stay.
    pub fn stream(seed: u64, stream: u64) -> Rng {
        let mut z = seed ^ stream.wrapping_add(1).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^= z >> 31;
        Rng(if z == 0 { 0x2545_f491_4f6c_dd1d } else { z })
    }

    /// A number in `[0, 1)`.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// A number of the standard normal distribution (Box-Muller).
    pub fn normal(&mut self) -> f64 {
        let u = 1.0 - self.unit();
        let v = self.unit();
        (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
    }

    /// True with probability `p`.
    pub fn chance(&mut self, p: f64) -> bool {
        self.unit() < p
    }
}

/// The workspace root.
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_default()
}

/// The files of `corpus/<kind>` with the given extension, sorted by name.
pub fn corpus_files(kind: &str, extension: &str) -> Vec<PathBuf> {
    files_in(&workspace_root().join("corpus").join(kind), extension)
}

/// The files of a folder with the given extension, sorted by name; none if it is missing.
pub fn files_in(dir: &Path, extension: &str) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|e| e == extension))
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    files
}

/// The shared corpus of real files written by others, when `NOTATION_SHARED_CORPUS`
/// names it: an extra tier of tests that runs only where it is present.
pub fn shared_corpus() -> Option<PathBuf> {
    let dir = PathBuf::from(std::env::var_os("NOTATION_SHARED_CORPUS")?);
    let dir = if dir.is_relative() {
        workspace_root().join(dir)
    } else {
        dir
    };
    dir.is_dir().then_some(dir)
}

pub mod arbitrary;
pub mod arbitrary_chess;
pub mod arbitrary_draughts;
pub mod chess_gen;
pub mod lichess_like;

#[cfg(doctest)]
mod readmes;
