//! Throughput of the raw reading pass: a visitor that only counts tokens, like a syntax
//! scan, over the project's corpus and (when available) the shared bench files.
//!
//! The shared corpus is found at `$NOTATION_SHARED_CORPUS` when that variable names a
//! directory, else at `../shared/corpus` next to the workspace.

// `criterion_group!` defines an undocumented public function.
#![allow(missing_docs)]

use std::hint::black_box;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use notation::{At, Dialect, Nag, RawGame, RawValue, ReadOptions, Reader, Visitor};

/// Counts what a syntax scan sees.
#[derive(Default)]
struct Counter {
    games: u64,
    tags: u64,
    moves: u64,
    nags: u64,
    comments: u64,
}

impl Visitor for Counter {
    type Output = ();

    fn tag(&mut self, _name: &[u8], _value: RawValue<'_>, _at: At<'_>) -> ControlFlow<()> {
        self.tags += 1;
        ControlFlow::Continue(())
    }

    fn move_token(&mut self, _token: &[u8], _at: At<'_>) -> ControlFlow<()> {
        self.moves += 1;
        ControlFlow::Continue(())
    }

    fn nag(&mut self, _nag: Nag, _at: At<'_>) -> ControlFlow<()> {
        self.nags += 1;
        ControlFlow::Continue(())
    }

    fn comment(&mut self, _text: &[u8], _at: At<'_>) -> ControlFlow<()> {
        self.comments += 1;
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, _raw: RawGame<'_>) {
        self.games += 1;
    }
}

fn scan(bytes: &[u8], dialect: Dialect) -> Counter {
    let mut counter = Counter::default();
    Reader::new(bytes, dialect, ReadOptions::default())
        .visit_all(&mut counter)
        .expect("reading from memory cannot fail");
    counter
}

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Every `.pgn` / `.pdn` file under `dir`, sorted, with its dialect.
fn corpus_files(dir: &Path) -> Vec<(PathBuf, Dialect)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            match path.extension().and_then(|e| e.to_str()) {
                Some("pgn") => out.push((path, Dialect::PGN)),
                Some("pdn") => out.push((path, Dialect::PDN)),
                _ => {}
            }
        }
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

fn shared_corpus() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("NOTATION_SHARED_CORPUS").filter(|v| !v.is_empty()) {
        let dir = PathBuf::from(dir);
        if dir.is_dir() {
            return Some(dir);
        }
    }
    let dir = workspace_root().join("../shared/corpus");
    dir.is_dir().then_some(dir)
}

/// The file repeated in memory to about `target` bytes (whole copies, at least one).
fn repeated(bytes: &[u8], target: usize) -> Vec<u8> {
    let copies = target.div_ceil(bytes.len().max(1)).max(1);
    let mut out = Vec::with_capacity(copies * (bytes.len() + 1));
    for _ in 0..copies {
        out.extend_from_slice(bytes);
        if !bytes.ends_with(b"\n") {
            out.push(b'\n');
        }
        out.push(b'\n');
    }
    out
}

fn visitor(c: &mut Criterion) {
    let mut group = c.benchmark_group("visitor");
    group.sample_size(10);
    group.warm_up_time(Duration::from_secs(1));
    group.measurement_time(Duration::from_secs(3));

    // The project's corpus, all files together in one pass each.
    let corpus = workspace_root().join("corpus");
    for (path, dialect) in corpus_files(&corpus) {
        let Ok(bytes) = std::fs::read(&path) else {
            continue;
        };
        let name = path
            .strip_prefix(&corpus)
            .unwrap_or(&path)
            .display()
            .to_string();
        group.throughput(Throughput::Bytes(bytes.len() as u64));
        group.bench_function(format!("corpus/{name}"), |b| {
            b.iter(|| black_box(scan(black_box(&bytes), dialect).moves))
        });
    }

    // The shared bench files, repeated in memory to about 20 MB.
    if let Some(shared) = shared_corpus() {
        for file in ["lichess_db_1000k.pgn", "twic1599_1000k.pgn"] {
            let path = shared.join("pgn/bench").join(file);
            let Ok(bytes) = std::fs::read(&path) else {
                eprintln!("skipping {}: not readable", path.display());
                continue;
            };
            let data = repeated(&bytes, 20 << 20);
            let counts = scan(&data, Dialect::PGN);
            eprintln!(
                "{file} x{}: {} bytes, {} games, {} tags, {} moves, {} nags, {} comments",
                data.len() / bytes.len().max(1),
                data.len(),
                counts.games,
                counts.tags,
                counts.moves,
                counts.nags,
                counts.comments
            );
            group.throughput(Throughput::Bytes(data.len() as u64));
            group.bench_function(format!("shared/{file}"), |b| {
                b.iter(|| black_box(scan(black_box(&data), Dialect::PGN).moves))
            });
        }
    }
    group.finish();
}

criterion_group!(benches, visitor);
criterion_main!(benches);
