//! `cargo run --release -p pgn --example chess_validate -- [--tree] FILE...`: checks every game,
//! resolving every move of the main line and of all variations, and prints one line of
//! counts (as `peer-bench validate` does, to compare) and the time taken.
//!
//! With `--tree`, games are built as trees ([`pgn::GameReader`]) instead of checked on the
//! fly ([`pgn::Validator`]).

use std::fs::File;
use std::time::Instant;

use pgn::{GameReader, ValidatingReader};

fn main() {
    let mut tree = false;
    let mut paths = Vec::new();
    for arg in std::env::args().skip(1) {
        if arg == "--tree" {
            tree = true;
        } else {
            paths.push(arg);
        }
    }
    if paths.is_empty() {
        eprintln!("usage: validate [--tree] FILE...");
        std::process::exit(2);
    }
    let (mut games, mut plies, mut bad_games, mut errors, mut warnings) = (0u64, 0, 0, 0, 0);
    let start = Instant::now();
    for path in &paths {
        let file = match File::open(path) {
            Ok(file) => file,
            Err(e) => {
                eprintln!("{path}: {e}");
                std::process::exit(2);
            }
        };
        let mut count = |p: u64, e: usize, w: usize| {
            games += 1;
            plies += p;
            bad_games += u64::from(e > 0);
            errors += e;
            warnings += w;
        };
        let outcome = if tree {
            GameReader::new(file).try_for_each(|game| {
                game.map(|g| {
                    let e = g
                        .diagnostics
                        .iter()
                        .filter(|d| d.severity == pgn::Severity::Error);
                    let e = e.count();
                    count(g.game.node_count() as u64, e, g.diagnostics.len() - e);
                })
            })
        } else {
            ValidatingReader::new(file)
                .try_for_each(|game| game.map(|g| count(g.plies, g.errors(), g.warnings())))
        };
        if let Err(e) = outcome {
            eprintln!("{path}: {e}");
            std::process::exit(2);
        }
    }
    println!(
        "games={games} plies={plies} bad_games={bad_games} errors={errors} warnings={warnings}"
    );
    eprintln!("{:.3} s", start.elapsed().as_secs_f64());
}
