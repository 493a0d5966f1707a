//! Benchmarks of the library's reading paths on whole files: the validator (every move of
//! every line resolved, no tree), the tree builder, and the export writer.
//!
//! Run with `cargo bench -p pgn --bench read`. The input is the shared corpus's benchmark
//! files when `NOTATION_SHARED_CORPUS` names it (or `../shared/corpus` exists beside the
//! workspace), else the project's own `corpus/pgn/` files.

use std::hint::black_box;
use std::path::{Path, PathBuf};

use criterion::{Criterion, Throughput, criterion_main};
use pgn::{GameReader, ValidatingReader};

/// The inputs: `(name, bytes)`.
fn inputs() -> Vec<(String, Vec<u8>)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let shared = std::env::var_os("NOTATION_SHARED_CORPUS")
        .map(PathBuf::from)
        .map(|p| if p.is_relative() { root.join(p) } else { p })
        .unwrap_or_else(|| root.join("../shared/corpus"));
    let bench = shared.join("pgn/bench");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&bench)
        .map(|d| d.filter_map(Result::ok).map(|e| e.path()).collect())
        .unwrap_or_default();
    if files.is_empty() {
        files = std::fs::read_dir(root.join("corpus/pgn"))
            .map(|d| d.filter_map(Result::ok).map(|e| e.path()).collect())
            .unwrap_or_default();
    }
    files.retain(|p| p.extension().is_some_and(|e| e == "pgn"));
    files.sort();
    files
        .into_iter()
        .filter_map(|p| {
            let name = p.file_stem()?.to_string_lossy().into_owned();
            Some((name, std::fs::read(&p).ok()?))
        })
        .collect()
}

fn read_benches(c: &mut Criterion) {
    for (name, bytes) in inputs() {
        let mut g = c.benchmark_group(format!("read/{name}"));
        g.sample_size(10);
        g.throughput(Throughput::Bytes(bytes.len() as u64));
        g.bench_function("validate", |b| {
            b.iter(|| {
                ValidatingReader::new(black_box(&bytes[..]))
                    .map(|g| g.map_or(0, |g| g.plies))
                    .sum::<u64>()
            })
        });
        g.bench_function("tree", |b| {
            b.iter(|| {
                GameReader::new(black_box(&bytes[..]))
                    .map(|g| g.map_or(0, |g| g.game.node_count()))
                    .sum::<usize>()
            })
        });
        let games = pgn::read_games(&bytes[..]);
        g.bench_function("export", |b| {
            b.iter(|| {
                let mut out = String::new();
                for game in &games {
                    let _ = pgn::write_game(&game.game, &mut out);
                }
                out.len()
            })
        });
        g.finish();
    }
}

mod group {
    //! `criterion_group!` makes an undocumented function: keep it in its own module.
    #![allow(missing_docs)]
    use super::read_benches;
    criterion::criterion_group!(benches, read_benches);
}
criterion_main!(group::benches);
