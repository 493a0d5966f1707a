//! `cargo run --release -p pgn --example chess_perft -- [FEN] [DEPTH]`: prints the perft count and the time.

use std::time::Instant;

use pgn::{Position, perft};

fn main() {
    let mut args = std::env::args().skip(1);
    let fen = args
        .next()
        .unwrap_or_else(|| "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1".to_string());
    let depth = args.next().and_then(|d| d.parse().ok()).unwrap_or(6);
    let pos = match Position::from_fen(&fen) {
        Ok(pos) => pos,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    };
    let t = Instant::now();
    let n = perft::count(&pos, depth);
    let dt = t.elapsed();
    println!(
        "{n} ({:.3} s, {:.0} Mnps)",
        dt.as_secs_f64(),
        n as f64 / dt.as_secs_f64() / 1e6
    );
}
