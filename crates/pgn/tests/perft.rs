//! Perft counts of well-known test positions: every standard position to depth 5 here;
//! deeper ones are `#[ignore]`d (`cargo xtask slow-tests` runs them).

use pgn::{CastlingMode, Position, perft::count};

fn check(fen: &str, mode: CastlingMode, counts: &[u64], max_depth: usize) {
    let pos = Position::from_fen_with_mode(fen, mode).unwrap_or_else(|e| panic!("{fen}: {e}"));
    for (i, &expected) in counts.iter().enumerate().take(max_depth) {
        let depth = i as u32 + 1;
        assert_eq!(count(&pos, depth), expected, "{fen} depth {depth}");
    }
}

const STANDARD: &[(&str, &[u64])] = &[
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        &[20, 400, 8902, 197281, 4865609, 119060324],
    ),
    (
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        &[48, 2039, 97862, 4085603, 193690690],
    ),
    (
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        &[14, 191, 2812, 43238, 674624, 11030083],
    ),
    (
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        &[6, 264, 9467, 422333, 15833292],
    ),
    (
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        &[44, 1486, 62379, 2103487, 89941194],
    ),
    (
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
        &[46, 2079, 89890, 3894594, 164075551],
    ),
];

/// One test per position, so that the test runner spreads them over the cores.
macro_rules! depth_5 {
    ($($name:ident: $index:expr;)*) => {$(
        #[test]
        fn $name() {
            let (fen, counts) = STANDARD[$index];
            check(fen, CastlingMode::Standard, counts, 5);
        }
    )*};
}

depth_5! {
    start_position_to_depth_5: 0;
    kiwipete_to_depth_5: 1;
    endgame_to_depth_5: 2;
    promotions_to_depth_5: 3;
    talkchess_to_depth_5: 4;
    steven_edwards_to_depth_5: 5;
}

#[test]
fn mirrored_positions_match() {
    // The mirror image (colours swapped) of a position has the same counts.
    let fen = "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1";
    check(fen, CastlingMode::Standard, &[6, 264, 9467, 422333], 4);
}

#[test]
#[ignore = "slow: a few seconds in release"]
fn standard_positions_full_depth() {
    for (fen, counts) in STANDARD {
        check(fen, CastlingMode::Standard, counts, counts.len());
    }
}

/// Chess960 positions with published counts (the `fischer.epd` suite).
const CHESS960: &[(&str, &[u64])] = &[
    (
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
        &[21, 528, 12189, 326672, 8146062, 227689589],
    ),
    (
        "2nnrbkr/p1qppppp/8/1ppb4/6PP/3PP3/PPP2P2/BQNNRBKR w HEhe - 1 9",
        &[21, 807, 18002, 667366, 16253601, 590751109],
    ),
    (
        "b1q1rrkb/pppppppp/3nn3/8/P7/1PPP4/4PPPP/BQNNRKRB w GE - 1 9",
        &[20, 479, 10471, 273318, 6417013, 177654692],
    ),
    (
        "b1qr1krb/pp1ppppp/n2n4/8/2p5/2P3P1/PP1PPP1P/BNQRNKRB w GDgd -",
        &[28, 707, 19721, 549506, 15583376],
    ),
    (
        "1qrkrnbb/1p1p1ppp/pnp1p3/8/3PP3/P6P/1PP2PP1/NQRKRNBB w ECec -",
        &[24, 688, 17342, 511444, 13322502],
    ),
    (
        "1brnqknr/2p1pppp/p2p4/1P6/6P1/4Nb2/PP1PPP1P/BBR1QKNR w HChc -",
        &[34, 1019, 32982, 1003103, 33322477],
    ),
    (
        "brkrqb1n/1pppp1pp/p7/3n1p2/P5P1/3PP3/1PP2P1P/BRKRQBNN w DBdb -",
        &[27, 669, 18682, 484259, 13956472],
    ),
    (
        "brkqnrnb/1p1pp1p1/p4p2/2p4p/8/P2PP3/1PP1QPPP/BRK1NRNB w FBfb -",
        &[24, 479, 12584, 280081, 7830230],
    ),
    (
        "qbbnnrkr/2pp2pp/p7/1p2pp2/8/P3PP2/1PPP1KPP/QBBNNR1R w hf - 0 9",
        &[0, 0, 0, 382958],
    ),
];

#[test]
fn chess960_positions_to_depth_4() {
    for (fen, counts) in CHESS960 {
        let pos = Position::from_fen_with_mode(fen, CastlingMode::Chess960)
            .unwrap_or_else(|e| panic!("{fen}: {e}"));
        for (i, &expected) in counts.iter().enumerate().take(4) {
            if expected != 0 {
                assert_eq!(count(&pos, i as u32 + 1), expected, "{fen} depth {}", i + 1);
            }
        }
    }
}

#[test]
fn chess960_positions_depth_5() {
    for (fen, counts) in CHESS960.iter().take(3) {
        check(fen, CastlingMode::Chess960, counts, 5);
    }
}

#[test]
#[ignore = "slow: about ten seconds in release"]
fn chess960_positions_full_depth() {
    for (fen, counts) in CHESS960 {
        if counts[0] != 0 {
            check(fen, CastlingMode::Chess960, counts, counts.len());
        }
    }
}

#[test]
fn chess960_start_positions_read_back() {
    // The Chess960 start positions from their numbers, read back from their FEN.
    for n in [0, 1, 100, 518, 959] {
        let pos = Position::chess960(n).expect("0..960");
        let again =
            Position::from_fen_with_mode(&pos.to_fen(), CastlingMode::Chess960).expect("own FEN");
        assert_eq!(pos, again, "{n}");
        assert_eq!(count(&pos, 1), count(&again, 1));
    }
    // Number 518 is the standard start: the same counts.
    let pos = Position::chess960(518).expect("518");
    assert_eq!(count(&pos, 4), 197281);
}

/// Edge cases: en passant exposing the king along a rank or a diagonal, en passant giving
/// check, castling giving check, castling through attacked squares, promotions, stalemate.
const EDGE_CASES: &[(&str, u32, u64)] = &[
    ("3k4/3p4/8/K1P4r/8/8/8/8 b - - 0 1", 6, 1134888),
    ("8/8/4k3/8/2p5/8/B2P2K1/8 w - - 0 1", 6, 1015133),
    ("8/8/1k6/2b5/2pP4/8/5K2/8 b - d3 0 1", 6, 1440467),
    ("5k2/8/8/8/8/8/8/4K2R w K - 0 1", 6, 661072),
    ("3k4/8/8/8/8/8/8/R3K3 w Q - 0 1", 6, 803711),
    ("r3k2r/1b4bq/8/8/8/8/7B/R3K2R w KQkq - 0 1", 4, 1274206),
    ("r3k2r/8/3Q4/8/8/5q2/8/R3K2R b KQkq - 0 1", 4, 1720476),
    ("2K2r2/4P3/8/8/8/8/8/3k4 w - - 0 1", 6, 3821001),
    ("8/8/1P2K3/8/2n5/1q6/8/5k2 b - - 0 1", 5, 1004658),
    ("4k3/1P6/8/8/8/8/K7/8 w - - 0 1", 6, 217342),
    ("8/P1k5/K7/8/8/8/8/8 w - - 0 1", 6, 92683),
    ("K1k5/8/P7/8/8/8/8/8 w - - 0 1", 6, 2217),
    ("8/k1P5/8/1K6/8/8/8/8 w - - 0 1", 7, 567584),
    ("8/8/2k5/5q2/5n2/8/5K2/8 b - - 0 1", 4, 23527),
    ("8/8/8/2k5/2pP4/8/B7/4K3 b - d3 0 3", 1, 8),
    ("3k4/8/8/K1Pp3r/8/8/8/8 w - d6 0 2", 1, 6),
    ("r6r/1b2k1bq/8/8/7B/8/8/R3K2R b KQ - 3 2", 1, 8),
    (
        "r3k2r/p1pp1pb1/bn2Qnp1/2qPN3/1p2P3/2N5/PPPBBPPP/R3K2R b KQkq - 3 2",
        1,
        5,
    ),
    (
        "2kr3r/p1ppqpb1/bn2Qnp1/3PN3/1p2P3/2N5/PPPBBPPP/R3K2R b KQ - 3 2",
        1,
        44,
    ),
    (
        "rnb2k1r/pp1Pbppp/2p5/q7/2B5/8/PPPQNnPP/RNB1K2R w KQ - 3 9",
        1,
        39,
    ),
    ("2r5/3pk3/8/2P5/8/2K5/8/8 w - - 5 4", 1, 9),
    ("1k6/1b6/8/8/7R/8/8/4K2R b K - 0 1", 5, 1063513),
    ("4k3/8/8/8/8/8/8/4K2R w K - 0 1", 6, 764643),
    ("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1", 6, 846648),
    ("4k2r/8/8/8/8/8/8/4K3 w k - 0 1", 6, 899442),
    ("r3k3/8/8/8/8/8/8/4K3 w q - 0 1", 6, 1001523),
];

#[test]
fn edge_cases() {
    for &(fen, depth, expected) in EDGE_CASES {
        let pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        assert_eq!(count(&pos, depth), expected, "{fen} depth {depth}");
    }
}

#[test]
fn divide_sums_to_perft() {
    let pos = Position::from_fen(STANDARD[1].0).expect("kiwipete");
    let divided = pgn::perft::divide(&pos, 3);
    assert_eq!(divided.len(), 48);
    assert_eq!(divided.iter().map(|(_, n)| n).sum::<u64>(), 97862);
    assert!(pgn::perft::divide(&pos, 0).is_empty());
    assert_eq!(count(&pos, 0), 1);
}
