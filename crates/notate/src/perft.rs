//! `notate perft`: leaf counts of the legal-move tree, chess or draughts.
//!
//! The count is split by first move over `--jobs` threads: the subtrees of the root's
//! moves are independent, so the work divides without any sharing but a counter of
//! which move is next.

use std::io::Write;
use std::sync::atomic::{AtomicUsize, Ordering};

use pgn::{CastlingMode, Uci};

/// A game `perft` and `show` know, by the name `--variant` gives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Game {
    /// Standard chess.
    Chess,
    /// Chess960: Chess960 castling notation.
    Chess960,
    /// A draughts variant.
    Draughts(pdn::Variant),
}

impl Game {
    /// Reads a variant name (lower-case English, any case accepted) or a PDN `GameType`
    /// number (0 is chess).
    pub fn parse(name: &str) -> Result<Game, String> {
        let lower = name.trim().to_ascii_lowercase();
        match lower.as_str() {
            "chess" | "standard" | "0" => return Ok(Game::Chess),
            "chess960" | "960" | "fischerandom" => return Ok(Game::Chess960),
            _ => {}
        }
        if let Ok(number) = lower.parse::<u16>() {
            return pdn::Variant::from_game_type_number(number)
                .map(Game::Draughts)
                .ok_or_else(|| {
                    format!("GameType {number} is not a draughts variant notate plays")
                });
        }
        lower
            .parse::<pdn::Variant>()
            .map(Game::Draughts)
            .map_err(|_| {
                format!(
                    "unknown variant {name:?}; expected chess, chess960, international, english, \
                 italian, pool, spanish, russian, brazilian, canadian, portuguese, czech, \
                 turkish, thai, frisian, spantsiretti, or a GameType number"
                )
            })
    }
}

/// A position to count from.
pub enum Start {
    /// Chess.
    Chess(pgn::Position),
    /// Draughts.
    Draughts(pdn::Position),
}

impl Start {
    /// The position `fen` describes in `game`, or the game's start position.
    pub fn new(game: Game, fen: Option<&str>) -> Result<(Start, Vec<String>), String> {
        match (game, fen) {
            (Game::Chess, None) => Ok((Start::Chess(pgn::Position::new()), Vec::new())),
            (Game::Chess960, None) => pgn::chess960::start_position(518)
                .map(|p| (Start::Chess(p), Vec::new()))
                .ok_or_else(|| "no Chess960 start position 518".to_owned()),
            (Game::Chess, Some(fen)) => pgn::Position::from_fen(fen)
                .map(|p| (Start::Chess(p), Vec::new()))
                .map_err(|e| format!("{fen:?}: {e}")),
            (Game::Chess960, Some(fen)) => {
                pgn::Position::from_fen_with_mode(fen, CastlingMode::Chess960)
                    .map(|p| (Start::Chess(p), Vec::new()))
                    .map_err(|e| format!("{fen:?}: {e}"))
            }
            (Game::Draughts(variant), None) => {
                Ok((Start::Draughts(pdn::Position::new(variant)), Vec::new()))
            }
            (Game::Draughts(variant), Some(fen)) => {
                pdn::Position::from_fen(pdn::GameType::new(variant), fen)
                    .map(|(p, warnings)| {
                        let warnings = warnings.iter().map(|w| w.to_string()).collect();
                        (Start::Draughts(p), warnings)
                    })
                    .map_err(|e| format!("{fen:?}: {e}"))
            }
        }
    }
}

/// Runs perft and prints the count as the last line (with `divide`, each first move and
/// its count before it).
pub fn run(
    start: &Start,
    depth: u32,
    divide: bool,
    jobs: usize,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    let (moves, counts) = divided(start, depth, divide, jobs);
    if divide {
        for (name, count) in moves.iter().zip(&counts) {
            writeln!(out, "{name}: {count}")?;
        }
        writeln!(out)?;
    }
    writeln!(out, "{}", counts.iter().sum::<u64>())?;
    Ok(())
}

/// The leaf count at `depth` from `start`, on up to `jobs` threads.
///
/// ```
/// use notate::perft::{Game, Start, count};
/// let (start, _) = Start::new(Game::Chess, None).map_err(std::io::Error::other)?;
/// assert_eq!(count(&start, 3, 2), 8902);
/// # Ok::<(), std::io::Error>(())
/// ```
pub fn count(start: &Start, depth: u32, jobs: usize) -> u64 {
    divided(start, depth, false, jobs).1.iter().sum()
}

/// The count under each first move, with the moves' names when `divide` (else the
/// counts may be one total, or split by first move to spread them over `jobs` threads).
fn divided(start: &Start, depth: u32, divide: bool, jobs: usize) -> (Vec<String>, Vec<u64>) {
    match start {
        Start::Chess(pos) => {
            if depth == 0 {
                (Vec::new(), vec![1])
            } else if !divide && (depth < 3 || jobs <= 1) {
                (Vec::new(), vec![pgn::perft::perft(pos, depth)])
            } else {
                let moves = pos.legal_moves();
                let list: Vec<_> = moves.into_iter().collect();
                let counts = parallel(&list, jobs, |m| pgn::perft::perft(&pos.play(m), depth - 1));
                let mode = pos.castling_mode();
                let names = list
                    .iter()
                    .map(|m| Uci::from_move(m, mode).to_string())
                    .collect();
                (names, counts)
            }
        }
        Start::Draughts(pos) => {
            if depth == 0 {
                (Vec::new(), vec![1])
            } else if !divide && (depth < 3 || jobs <= 1) {
                (Vec::new(), vec![pdn::perft::perft(pos, depth)])
            } else {
                let list = pos.legal_moves();
                let counts = parallel(&list, jobs, |m| {
                    let mut after = pos.clone();
                    after.play_unchecked(m);
                    pdn::perft::perft(&after, depth - 1)
                });
                let names = list.iter().map(|m| pos.move_to_text(m)).collect();
                (names, counts)
            }
        }
    }
}

/// `count` of every item, on up to `jobs` threads, in the items' order.
fn parallel<T: Sync>(items: &[T], jobs: usize, count: impl Fn(&T) -> u64 + Sync) -> Vec<u64> {
    let next = AtomicUsize::new(0);
    let threads = jobs.clamp(1, items.len().max(1));
    let mut results = vec![0u64; items.len()];
    let parts: Vec<Vec<(usize, u64)>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut done = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(item) = items.get(i) else {
                            return done;
                        };
                        done.push((i, count(item)));
                    }
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_default())
            .collect()
    });
    for (i, n) in parts.into_iter().flatten() {
        results[i] = n;
    }
    results
}

#[cfg(test)]
mod tests {
    use super::*;

    fn count(game: Game, fen: Option<&str>, depth: u32, divide: bool, jobs: usize) -> String {
        let (start, _) = Start::new(game, fen).expect("position");
        let mut out = Vec::new();
        run(&start, depth, divide, jobs, &mut out).expect("in memory");
        String::from_utf8(out).expect("text")
    }

    #[test]
    fn chess_counts() {
        assert_eq!(count(Game::Chess, None, 3, false, 1), "8902\n");
        assert_eq!(count(Game::Chess, None, 3, false, 2), "8902\n");
        let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
        assert_eq!(count(Game::Chess, Some(kiwipete), 2, false, 2), "2039\n");
        let divided = count(Game::Chess, None, 2, true, 2);
        assert!(divided.contains("a2a3: 20\n"));
        assert!(divided.ends_with("\n\n400\n"));
    }

    #[test]
    fn draughts_counts() {
        assert_eq!(
            count(Game::Draughts(pdn::Variant::English), None, 4, false, 2),
            "1469\n"
        );
    }

    #[test]
    fn variant_names() {
        assert_eq!(Game::parse("chess"), Ok(Game::Chess));
        assert_eq!(
            Game::parse("20"),
            Ok(Game::Draughts(pdn::Variant::International))
        );
        assert_eq!(
            Game::parse("Frisian"),
            Ok(Game::Draughts(pdn::Variant::Frisian))
        );
        assert!(Game::parse("go").is_err());
    }
}
