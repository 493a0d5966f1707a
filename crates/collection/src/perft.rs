//! `notate perft`: leaf counts of the legal-move tree, chess (and the lichess variants) or
//! draughts.
//!
//! The count is split by first move over `--jobs` threads: the subtrees of the root's
//! moves are independent, so the work divides without any sharing but a counter of
//! which move is next.

use std::io::Write;
use std::sync::atomic::{AtomicUsize, Ordering};

use pgn::uci::Uci;
use pgn::{CastlingMode, Ruleset};

/// A game `perft` and `show` know, by the name `--variant` gives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoardGame {
    /// Standard chess.
    Chess,
    /// Chess960: Chess960 castling notation.
    Chess960,
    /// A chess variant lichess plays (crazyhouse, atomic, antichess, king of the hill,
    /// three-check, horde, racing kings), by its ruleset. [`BoardGame::parse`] gives
    /// [`BoardGame::Chess`] for standard chess, never `ChessVariant(Ruleset::Chess)` (which plays
    /// as standard chess all the same).
    ChessVariant(Ruleset),
    /// A draughts variant.
    Draughts(pdn::Variant),
}

impl BoardGame {
    /// Reads a variant name (lower-case English, any case accepted) or a PDN `GameType`
    /// number (0 is chess). The chess variants are named as a PGN `Variant` tag names them,
    /// ignoring case, spaces, `-` and `_` (`crazyhouse`, `King of the Hill`, `3check`,
    /// `giveaway`, `racing-kings`, …).
    ///
    /// ```
    /// use collection::perft::BoardGame;
    /// assert_eq!(BoardGame::parse("king-of-the-hill"), Ok(BoardGame::ChessVariant(pgn::Ruleset::KingOfTheHill)));
    /// assert_eq!(BoardGame::parse("Russian"), Ok(BoardGame::Draughts(pdn::Variant::Russian)));
    /// ```
    ///
    /// # Errors
    /// A message listing the names it knows.
    pub fn parse(name: &str) -> Result<BoardGame, String> {
        let lower = name.trim().to_ascii_lowercase();
        // Before the numbers: 960 is no GameType.
        match lower.as_str() {
            "chess" | "standard" | "0" => return Ok(BoardGame::Chess),
            "chess960" | "960" | "fischerandom" => return Ok(BoardGame::Chess960),
            _ => {}
        }
        if let Ok(number) = lower.parse::<u16>() {
            return pdn::Variant::from_game_type_number(number)
                .map(BoardGame::Draughts)
                .ok_or_else(|| {
                    format!("GameType {number} is not a draughts variant notate plays")
                });
        }
        if let Ok(variant) = lower.parse::<pdn::Variant>() {
            return Ok(BoardGame::Draughts(variant));
        }
        match pgn::Variant::from_tag(&lower) {
            _ if lower.is_empty() => Err(unknown(name)),
            pgn::Variant::Chess960 => Ok(BoardGame::Chess960),
            variant => match variant.ruleset() {
                Some(Ruleset::Chess) => Ok(BoardGame::Chess),
                Some(ruleset) => Ok(BoardGame::ChessVariant(ruleset)),
                None => Err(unknown(name)),
            },
        }
    }
}

/// The message for a name [`BoardGame::parse`] does not know.
fn unknown(name: &str) -> String {
    format!(
        "unknown variant {name:?}; expected chess, chess960, crazyhouse, atomic, antichess, \
         kingofthehill, threecheck, horde, racingkings, international, english, italian, \
         pool, spanish, russian, brazilian, canadian, portuguese, czech, turkish, thai, \
         frisian, spantsiretti, or a GameType number"
    )
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
    pub fn new(game: BoardGame, fen: Option<&str>) -> Result<(Start, Vec<String>), String> {
        match (game, fen) {
            (BoardGame::Chess, None) => Ok((Start::Chess(pgn::Position::new()), Vec::new())),
            (BoardGame::Chess960, None) => pgn::chess960::start_position(518)
                .map(|p| (Start::Chess(p), Vec::new()))
                .ok_or_else(|| "no Chess960 start position 518".to_owned()),
            (BoardGame::Chess, Some(fen)) => pgn::Position::from_fen(fen)
                .map(|p| (Start::Chess(p), Vec::new()))
                .map_err(|e| format!("{fen:?}: {e}")),
            (BoardGame::Chess960, Some(fen)) => {
                pgn::Position::from_fen_with_mode(fen, CastlingMode::Chess960)
                    .map(|p| (Start::Chess(p), Vec::new()))
                    .map_err(|e| format!("{fen:?}: {e}"))
            }
            (BoardGame::ChessVariant(ruleset), None) => {
                Ok((Start::Chess(pgn::Position::start(ruleset)), Vec::new()))
            }
            // Read by the ruleset's rules (a horde FEN has no white king, …), the castling
            // mode as the FEN's rights need it.
            (BoardGame::ChessVariant(ruleset), Some(fen)) => pgn::fen::Setup::from_fen(fen)
                .map_err(pgn::fen::FenError::from)
                .and_then(|setup| {
                    pgn::Position::from_setup_auto_in(ruleset, &setup)
                        .map_err(pgn::fen::FenError::from)
                })
                .map(|p| (Start::Chess(p), Vec::new()))
                .map_err(|e| format!("{fen:?}: {e}")),
            (BoardGame::Draughts(variant), None) => {
                Ok((Start::Draughts(pdn::Position::new(variant)), Vec::new()))
            }
            (BoardGame::Draughts(variant), Some(fen)) => {
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
/// use collection::perft::{BoardGame, Start, count};
/// let (start, _) = Start::new(BoardGame::Chess, None).map_err(std::io::Error::other)?;
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
                (Vec::new(), vec![pgn::perft::count(pos, depth)])
            } else {
                let moves = pos.legal_moves();
                let list: Vec<_> = moves.into_iter().collect();
                let counts = parallel(&list, jobs, |m| pgn::perft::count(&pos.play(m), depth - 1));
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
                (Vec::new(), vec![pdn::perft::count(pos, depth)])
            } else {
                let list = pos.legal_moves();
                let counts = parallel(&list, jobs, |m| {
                    let mut after = pos.clone();
                    after.play_unchecked(m);
                    pdn::perft::count(&after, depth - 1)
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

    fn count(game: BoardGame, fen: Option<&str>, depth: u32, divide: bool, jobs: usize) -> String {
        let (start, _) = Start::new(game, fen).expect("position");
        let mut out = Vec::new();
        run(&start, depth, divide, jobs, &mut out).expect("in memory");
        String::from_utf8(out).expect("text")
    }

    #[test]
    fn chess_counts() {
        assert_eq!(count(BoardGame::Chess, None, 3, false, 1), "8902\n");
        assert_eq!(count(BoardGame::Chess, None, 3, false, 2), "8902\n");
        let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
        assert_eq!(
            count(BoardGame::Chess, Some(kiwipete), 2, false, 2),
            "2039\n"
        );
        let divided = count(BoardGame::Chess, None, 2, true, 2);
        assert!(divided.contains("a2a3: 20\n"));
        assert!(divided.ends_with("\n\n400\n"));
    }

    /// Published counts (lichess's and python-chess's perft suites) of every chess variant,
    /// from its start position and from FENs read by its rules.
    #[test]
    fn chess_variant_counts() {
        let variant = |name: &str| BoardGame::parse(name).expect("a chess variant");
        let cases: [(&str, Option<&str>, u32, &str); 9] = [
            ("crazyhouse", None, 3, "8902\n"),
            ("atomic", None, 4, "197326\n"),
            ("antichess", None, 4, "153299\n"),
            ("horde", None, 4, "23310\n"),
            ("racingkings", None, 3, "11264\n"),
            ("kingofthehill", None, 3, "8902\n"),
            (
                "threecheck",
                Some("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 1+1"),
                3,
                "13410\n",
            ),
            (
                "crazyhouse",
                Some("2k5/8/8/8/8/8/8/4K3[Qn] w - -"),
                2,
                "3083\n",
            ),
            (
                "kingofthehill",
                Some("8/5k2/1pp2p2/8/3P1PP1/P3K3/1P6/8 b - -"),
                4,
                "12460\n",
            ),
        ];
        for (name, fen, depth, expected) in cases {
            for jobs in [1, 3] {
                assert_eq!(
                    count(variant(name), fen, depth, false, jobs),
                    expected,
                    "{name} {fen:?} depth {depth}, {jobs} jobs"
                );
            }
        }
    }

    #[test]
    fn chess_variants_start_from_their_own_position_and_read_fens_by_their_rules() {
        let fen = |game: BoardGame, fen: Option<&str>| match Start::new(game, fen) {
            Ok((Start::Chess(pos), _)) => (pos.ruleset(), pos.to_fen()),
            Ok((Start::Draughts(_), _)) => panic!("{game:?}: a draughts position"),
            Err(e) => panic!("{game:?} {fen:?}: {e}"),
        };
        for ruleset in pgn::Ruleset::ALL {
            let game = BoardGame::parse(ruleset.name()).expect("the ruleset's own name");
            let (read, start) = fen(game, None);
            assert_eq!(read, ruleset);
            assert_eq!(start, pgn::Position::start(ruleset).to_fen());
        }
        // Horde's white has no king: not a chess position, a horde one.
        let horde = pgn::Ruleset::Horde.start_fen();
        assert!(Start::new(BoardGame::Chess, Some(horde)).is_err());
        assert_eq!(
            fen(BoardGame::ChessVariant(pgn::Ruleset::Horde), Some(horde)),
            (pgn::Ruleset::Horde, horde.to_owned())
        );
        // Chess960 castling rights are read as such in a variant too.
        let (ruleset, atomic960) = fen(
            BoardGame::ChessVariant(pgn::Ruleset::Atomic),
            Some("bqrkrnnb/pppppppp/8/8/8/8/PPPPPPPP/BQRKRNNB w KQkq - 0 1"),
        );
        assert_eq!(ruleset, pgn::Ruleset::Atomic);
        assert!(atomic960.contains(" w KQkq "), "{atomic960}");
    }

    #[test]
    fn chess_variant_divide_names_drops() {
        let fen = "2k5/8/8/8/8/8/8/4K3[Qn] w - -";
        let divided = count(
            BoardGame::ChessVariant(pgn::Ruleset::Crazyhouse),
            Some(fen),
            2,
            true,
            2,
        );
        let lines: Vec<&str> = divided.lines().collect();
        // A move per line, a blank line, and the total, which is the lines' sum.
        let (total, moves) = lines.split_last().expect("a total");
        assert_eq!(*total, "3083");
        let sum: u64 = moves
            .iter()
            .filter(|l| !l.is_empty())
            .map(|l| {
                let (_, n) = l.split_once(": ").expect("move: count");
                n.parse::<u64>().expect("a count")
            })
            .sum();
        assert_eq!(sum, 3083);
        // Five king moves and the queen dropped on each of the 62 empty squares.
        assert_eq!(
            moves.iter().filter(|l| !l.is_empty()).count(),
            67,
            "{divided}"
        );
        assert_eq!(moves.iter().filter(|l| l.starts_with("Q@")).count(), 62);
        assert!(moves.iter().any(|l| l.starts_with("e1d2: ")), "{divided}");
    }

    #[test]
    fn draughts_counts() {
        assert_eq!(
            count(
                BoardGame::Draughts(pdn::Variant::English),
                None,
                4,
                false,
                2
            ),
            "1469\n"
        );
    }

    #[test]
    fn variant_names() {
        assert_eq!(BoardGame::parse("chess"), Ok(BoardGame::Chess));
        assert_eq!(
            BoardGame::parse("20"),
            Ok(BoardGame::Draughts(pdn::Variant::International))
        );
        assert_eq!(
            BoardGame::parse("Frisian"),
            Ok(BoardGame::Draughts(pdn::Variant::Frisian))
        );
        assert!(BoardGame::parse("go").is_err());
        assert!(BoardGame::parse("").is_err());
        for (name, ruleset) in [
            ("crazyhouse", pgn::Ruleset::Crazyhouse),
            ("Atomic", pgn::Ruleset::Atomic),
            ("antichess", pgn::Ruleset::Antichess),
            ("giveaway", pgn::Ruleset::Antichess),
            ("kingofthehill", pgn::Ruleset::KingOfTheHill),
            ("king-of-the-hill", pgn::Ruleset::KingOfTheHill),
            ("King of the Hill", pgn::Ruleset::KingOfTheHill),
            ("threecheck", pgn::Ruleset::ThreeCheck),
            ("3check", pgn::Ruleset::ThreeCheck),
            ("horde", pgn::Ruleset::Horde),
            ("racingkings", pgn::Ruleset::RacingKings),
            ("racing-kings", pgn::Ruleset::RacingKings),
        ] {
            assert_eq!(
                BoardGame::parse(name),
                Ok(BoardGame::ChessVariant(ruleset)),
                "{name}"
            );
        }
        assert_eq!(BoardGame::parse("chess960"), Ok(BoardGame::Chess960));
        assert_eq!(BoardGame::parse("Fischer Random"), Ok(BoardGame::Chess960));
        // The draughts names are still draughts, standard still chess.
        assert_eq!(BoardGame::parse("standard"), Ok(BoardGame::Chess));
        assert_eq!(
            BoardGame::parse("pool"),
            Ok(BoardGame::Draughts(pdn::Variant::Pool))
        );
        let message = BoardGame::parse("shogi").expect_err("not a game notate plays");
        for name in ["crazyhouse", "racingkings", "threecheck", "frisian"] {
            assert!(message.contains(name), "{message}");
        }
    }
}
