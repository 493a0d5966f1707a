//! Benchmarks of the draughts move generator: perft from the start positions
//! (throughput in nodes per second), legal moves with paths, and reading
//! move text.
//!
//! Run with `cargo bench -p pdn`.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_main};
use pdn::{Position, Variant};

fn perft_benches(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft");
    group.sample_size(10);
    for (variant, depth) in [
        (Variant::International, 9),
        (Variant::International, 7),
        (Variant::English, 9),
        (Variant::Russian, 9),
        (Variant::Italian, 9),
        (Variant::Canadian, 7),
        (Variant::Frisian, 7),
        (Variant::Turkish, 6),
        (Variant::Thai, 8),
    ] {
        let pos = Position::new(variant);
        group.throughput(Throughput::Elements(pos.perft(depth)));
        group.bench_function(format!("{variant}-{depth}"), |b| {
            b.iter(|| black_box(&pos).perft(black_box(depth)))
        });
    }
    group.finish();
}

fn movegen_benches(c: &mut Criterion) {
    // The Woldouby position and a position with kings (FMJD forum).
    let woldouby = Position::from_fen_str(
        Variant::International,
        "W:B12,13,14,16,18,19,21,23,24,26:W25,27,28,30,32,33,34,35,37,38",
    )
    .expect("valid FEN");
    let kings = Position::from_fen_str(
        Variant::International,
        "B:BK17,K24:W6,9,10,11,20,21,22,23,30,K31,33,37,41,42,43,44,46",
    )
    .expect("valid FEN");
    c.bench_function("legal_moves/start", |b| {
        let pos = Position::new(Variant::International);
        b.iter(|| black_box(&pos).legal_moves())
    });
    c.bench_function("legal_moves/kings", |b| {
        b.iter(|| black_box(&kings).legal_moves())
    });
    c.bench_function("parse_move/capture", |b| {
        let pos =
            Position::from_fen_str(Variant::International, "W:W33:B28,18").expect("valid FEN");
        b.iter(|| black_box(&pos).parse_move(black_box("33x13")))
    });
    c.bench_function("to_fen/woldouby", |b| {
        b.iter(|| black_box(&woldouby).to_fen())
    });
}

/// Runs all benchmark groups.
fn benches() {
    let mut c = Criterion::default().configure_from_args();
    perft_benches(&mut c);
    movegen_benches(&mut c);
}

criterion_main!(benches);
