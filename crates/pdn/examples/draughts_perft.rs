//! Prints perft counts and speed.
//!
//! `cargo run --release -p pdn --example draughts_perft -- GAME DEPTH [FEN|start] [merge|keep]`
//! where GAME is a variant name (`international`) or a `GameType` value
//! (`20,W,14,14,N2,0`).

use std::time::Instant;

use pdn::perft::{Duplicates, count_with};
use pdn::{GameType, Position, Variant};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let game = args.get(1).map_or("international", String::as_str);
    let game_type = match game.parse::<Variant>() {
        Ok(v) => GameType::new(v),
        Err(_) => match GameType::parse(game) {
            Ok(gt) => gt,
            Err(e) => {
                eprintln!("{e}");
                std::process::exit(2);
            }
        },
    };
    let depth: u32 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(6);
    let pos = match args.get(3).map(String::as_str) {
        Some(fen) if fen != "start" => match Position::from_fen(game_type, fen) {
            Ok((p, _)) => p,
            Err(e) => {
                eprintln!("bad FEN: {e}");
                std::process::exit(2);
            }
        },
        _ => Position::start(game_type),
    };
    let duplicates = match args.get(4).map(String::as_str) {
        Some("merge") => Duplicates::Merge,
        Some("keep") => Duplicates::Keep,
        _ => Duplicates::Variant,
    };
    for d in 1..=depth {
        let t = Instant::now();
        let n = count_with(&pos, d, duplicates);
        let s = t.elapsed().as_secs_f64();
        println!(
            "{} perft({d}) = {n}  {s:.3}s  {:.1} Mnodes/s",
            game_type.variant(),
            n as f64 / s.max(1e-9) / 1e6
        );
    }
}
