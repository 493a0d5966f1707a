//! Benchmark of reading PDN with the draughts rules: every move resolved against the
//! legal moves and played (the whole reader: lexer, game builder, rules), in bytes per
//! second, next to the validating reader (the same rules, no tree) and the raw reader
//! that keeps moves as tokens.
//!
//! The input is the PDN 3.0 conformance corpus's `succeed/` folder, concatenated (from
//! `NOTATION_SHARED_CORPUS`, else `../shared/corpus` beside the workspace), or the
//! project's own `corpus/pdn` when neither is there.
//!
//! Run with `cargo bench -p pdn --bench read`.

use std::hint::black_box;
use std::path::{Path, PathBuf};

use criterion::{Criterion, Throughput, criterion_main};
use notation::{GameReader, RawRules, ReadOptions};
use pdn::{DraughtsRules, ValidatingReader};

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The input: the conformance corpus's `succeed/` files, or the project's corpus.
fn input() -> (String, Vec<u8>) {
    let shared = std::env::var_os("NOTATION_SHARED_CORPUS")
        .map(|d| workspace().join(d))
        .unwrap_or_else(|| workspace().join("../shared/corpus"));
    let succeed = shared.join("pdn/pdn3-conformance/succeed");
    let (name, dir) = if succeed.is_dir() {
        ("succeed", succeed)
    } else {
        ("corpus", workspace().join("corpus/pdn"))
    };
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map(|entries| entries.filter_map(Result::ok).map(|e| e.path()).collect())
        .unwrap_or_default();
    files.retain(|p| p.extension().is_some_and(|e| e == "pdn"));
    files.sort();
    let mut bytes = Vec::new();
    for file in files {
        if let Ok(content) = std::fs::read(&file) {
            bytes.extend_from_slice(&content);
            // Each file's last game ends before the next file's first.
            bytes.extend_from_slice(b"\n\n");
        }
    }
    (name.to_owned(), bytes)
}

fn read_benches(c: &mut Criterion) {
    let (name, bytes) = input();
    let mut group = c.benchmark_group("read");
    group.throughput(Throughput::Bytes(bytes.len() as u64));
    group.sample_size(20);
    let rules = DraughtsRules::new();
    group.bench_function(format!("draughts/{name}"), |b| {
        b.iter(|| {
            let reader = GameReader::new(&rules, black_box(&bytes[..]), ReadOptions::default());
            reader
                .filter_map(Result::ok)
                .map(|g| g.game.node_count())
                .sum::<usize>()
        })
    });
    group.bench_function(format!("validate/{name}"), |b| {
        b.iter(|| {
            ValidatingReader::with_rules(black_box(&bytes[..]), rules, ReadOptions::default())
                .filter_map(Result::ok)
                .map(|g| g.plies)
                .sum::<u64>()
        })
    });
    group.bench_function(format!("raw/{name}"), |b| {
        b.iter(|| {
            let reader = GameReader::new(
                &RawRules::PDN,
                black_box(&bytes[..]),
                ReadOptions::default(),
            );
            reader
                .filter_map(Result::ok)
                .map(|g| g.game.node_count())
                .sum::<usize>()
        })
    });
    group.finish();
}

/// Runs the benchmark group.
fn benches() {
    let mut c = Criterion::default().configure_from_args();
    read_benches(&mut c);
}

criterion_main!(benches);
