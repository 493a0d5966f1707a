//! Benchmarks: perft on standard test positions, legal move generation, and SAN reading and
//! writing.
//!
//! Run with `cargo bench -p pgn`.

use std::hint::black_box;

use criterion::{Criterion, criterion_main};
use pgn::{Position, perft};

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
const ENDGAME: &str = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1";

fn perft_benches(c: &mut Criterion) {
    let mut g = c.benchmark_group("perft");
    g.sample_size(10);
    for (name, fen, depth) in [
        ("start-5", START, 5),
        ("kiwipete-4", KIWIPETE, 4),
        ("endgame-5", ENDGAME, 5),
    ] {
        let pos = Position::from_fen(fen).expect("valid FEN");
        g.bench_function(name, |b| b.iter(|| perft::count(black_box(&pos), depth)));
    }
    g.finish();
}

fn movegen_benches(c: &mut Criterion) {
    let pos = Position::from_fen(KIWIPETE).expect("valid FEN");
    c.bench_function("legal_moves/kiwipete", |b| {
        b.iter(|| black_box(&pos).legal_moves())
    });
    c.bench_function("count_legal_moves/kiwipete", |b| {
        b.iter(|| black_box(&pos).count_legal_moves())
    });
}

/// A game's worth of SAN tokens, played from the start.
const GAME: &[&str] = &[
    "e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O", "Be7", "Re1", "b5", "Bb3", "d6",
    "c3", "O-O", "h3", "Nb8", "d4", "Nbd7", "c4", "c6", "cxb5", "axb5", "Nc3", "Bb7", "Bg5", "b4",
    "Nb1", "h6", "Bh4", "c5", "dxe5", "Nxe4", "Bxe7", "Qxe7", "exd6", "Qf6", "Nbd2", "Nxd6", "Nc4",
    "Nxc4", "Bxc4", "Nb6", "Ne5", "Rae8", "Bxf7+", "Rxf7", "Nxf7", "Rxe1+", "Qxe1", "Kxf7", "Qe3",
    "Qg5", "Qxg5", "hxg5", "b3", "Ke6", "a3", "Kd6", "axb4", "cxb4", "Ra5", "Nd5", "f3", "Bc8",
    "Kf2", "Bf5", "Ra7", "g6", "Ra6+", "Kc5", "Ke1", "Nf4", "g3", "Nxh3", "Kd2", "Kb5", "Rd6",
    "Kc5", "Ra6", "Nf2", "g4", "Bd3", "Re6",
];

fn san_benches(c: &mut Criterion) {
    c.bench_function("san/resolve-game", |b| {
        b.iter(|| {
            let mut pos = Position::new();
            for token in GAME {
                pos = pos.resolve_san(token.as_bytes()).expect("legal").after;
            }
            pos
        })
    });
    let pos = Position::from_fen(KIWIPETE).expect("valid FEN");
    let moves = pos.legal_moves();
    c.bench_function("san/write-kiwipete-moves", |b| {
        b.iter(|| {
            moves
                .iter()
                .map(|m| pos.san(m).to_string().len())
                .sum::<usize>()
        })
    });
}

mod group {
    //! `criterion_group!` makes an undocumented function: keep it in its own module.
    #![allow(missing_docs)]
    use super::{movegen_benches, perft_benches, san_benches};
    criterion::criterion_group!(benches, perft_benches, movegen_benches, san_benches);
}
criterion_main!(group::benches);
