//! Validates PDN files with [`pdn::ValidatingReader`] and prints the games, moves and
//! diagnostics it found: a small program to profile the validating path with.
//!
//! ```sh
//! cargo run --release -p pdn --example draughts_validate -- FILE... [--repeat N]
//! ```
//!
//! The files are concatenated (with a blank line between them, so that each file's last
//! game ends before the next file's first) and read `N` times (1 by default).

use pdn::ValidatingReader;

fn main() -> std::io::Result<()> {
    let mut repeat = 1usize;
    let mut bytes = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        if arg == "--repeat" {
            repeat = args.next().and_then(|n| n.parse().ok()).unwrap_or(1);
            continue;
        }
        bytes.extend_from_slice(&std::fs::read(&arg)?);
        bytes.extend_from_slice(b"\n\n");
    }
    let (mut games, mut moves, mut diagnostics) = (0u64, 0u64, 0usize);
    for _ in 0..repeat {
        for game in ValidatingReader::new(&bytes[..]) {
            let game = game?;
            games += 1;
            moves += game.plies;
            diagnostics += game.diagnostics.len();
        }
    }
    println!("{games} games, {moves} moves, {diagnostics} diagnostics");
    Ok(())
}
