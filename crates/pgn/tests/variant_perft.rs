//! Perft of every variant: published node counts (python-chess's `examples/perft`, chessops'
//! variant tests, Fairy-Stockfish's `tests/perft.sh`, shakmaty's `tests/`), from the start
//! positions and from positions chosen to exercise each variant's rules (drops and promoted
//! pieces, explosions beside kings and Chess960 castling in atomic, forced captures and king
//! promotion in antichess, the hill, check counters in both FEN forms, horde's first-rank
//! pawns and en passant, the racing kings finish).
//!
//! Counts up to [`FAST`] nodes run with the tests; the rest with `cargo xtask slow-tests`.
#![allow(clippy::unwrap_used, missing_docs)]

use pgn::fen::Setup;
use pgn::{Position, Ruleset, perft::count};

/// Counts above this many nodes are left to the ignored test.
const FAST: u64 = 400_000;

struct Case {
    ruleset: Ruleset,
    name: &'static str,
    fen: &'static str,
    counts: &'static [(u32, u64)],
}

const CASES: &[Case] = &[
    Case {
        ruleset: Ruleset::Crazyhouse,
        name: "start position",
        fen: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1",
        counts: &[(1, 20), (2, 400), (3, 8902), (4, 197281), (5, 4888832)],
    },
    Case {
        ruleset: Ruleset::Crazyhouse,
        name: "zh-all-drop-types",
        fen: "2k5/8/8/8/8/8/8/4K3[QRBNPqrbnp] w - -",
        counts: &[(1, 301), (2, 75353)],
    },
    Case {
        ruleset: Ruleset::Crazyhouse,
        name: "zh-drops",
        fen: "2k5/8/8/8/8/8/8/4K3[Qn] w - -",
        counts: &[(1, 67), (2, 3083), (3, 88634), (4, 932554)],
    },
    Case {
        ruleset: Ruleset::Crazyhouse,
        name: "zh-middlegame",
        fen: "r1bqk2r/pppp1ppp/2n1p3/4P3/1b1Pn3/2NB1N2/PPP2PPP/R1BQK2R[] b KQkq -",
        counts: &[(1, 42), (2, 1347), (3, 58057), (4, 2083382)],
    },
    Case {
        ruleset: Ruleset::Crazyhouse,
        name: "zh-promoted",
        fen: "4k3/1Q~6/8/8/4b3/8/Kpp5/8/ b - - 0 1",
        counts: &[(1, 20), (2, 360), (3, 5445), (4, 132758)],
    },
    Case {
        ruleset: Ruleset::Crazyhouse,
        name: "zh-midgame",
        fen: "2rn1b1r/1pp2n1p/B1PBk1pP/5p1P/P5p1/2P2RP1/RP1QNP2/1NBK4[QPp] w - -",
        counts: &[(1, 99), (2, 3932), (3, 314782), (4, 10118606)],
    },
    Case {
        ruleset: Ruleset::Atomic,
        name: "atomic-start",
        fen: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -",
        counts: &[
            (1, 20),
            (2, 400),
            (3, 8902),
            (4, 197326),
            (5, 4864979),
            (6, 118926425),
        ],
    },
    Case {
        ruleset: Ruleset::Atomic,
        name: "programfox-1",
        fen: "rn2kb1r/1pp1p2p/p2q1pp1/3P4/2P3b1/4PN2/PP3PPP/R2QKB1R b KQkq -",
        counts: &[(1, 40), (2, 1238), (3, 45237), (4, 1434825), (5, 50504249)],
    },
    Case {
        ruleset: Ruleset::Atomic,
        name: "programfox-2",
        fen: "rn1qkb1r/p5pp/2p5/3p4/N3P3/5P2/PPP4P/R1BQK3 w Qkq -",
        counts: &[(1, 28), (2, 833), (3, 23353), (4, 714499), (5, 21134061)],
    },
    Case {
        ruleset: Ruleset::Atomic,
        name: "atomic-checks",
        fen: "7r/2N2k1p/p1n3pb/3p1p2/6Pq/1PP1P3/P4P1P/R1BK1B1R w - - 3 17",
        counts: &[(1, 32), (2, 1275), (3, 39093), (4, 1425274)],
    },
    Case {
        ruleset: Ruleset::Atomic,
        name: "atomic-double-check",
        fen: "r3k1nr/ppp2ppp/8/8/P3q3/1n1b1P2/RPPb2PP/1NBQKBNR w Kkq - 1 18",
        counts: &[(1, 3), (2, 113), (3, 3011), (4, 110029), (5, 2972933)],
    },
    Case {
        ruleset: Ruleset::Atomic,
        name: "atomic960-castle-1",
        fen: "8/8/8/8/8/8/2k5/rR4KR w KQ -",
        counts: &[
            (1, 18),
            (2, 180),
            (3, 4364),
            (4, 61401),
            (5, 1603055),
            (6, 23969896),
        ],
    },
    Case {
        ruleset: Ruleset::Atomic,
        name: "atomic960-castle-2",
        fen: "r3k1rR/5K2/8/8/8/8/8/8 b kq -",
        counts: &[(1, 25), (2, 282), (3, 6753), (4, 98729), (5, 2587730)],
    },
    Case {
        ruleset: Ruleset::Atomic,
        name: "atomic960-castle-3",
        fen: "Rr2k1rR/3K4/3p4/8/8/8/7P/8 w kq -",
        counts: &[(1, 21), (2, 465), (3, 10631), (4, 241478), (5, 5800275)],
    },
    Case {
        ruleset: Ruleset::Atomic,
        name: "near-king-explosion",
        fen: "rnbqk2r/pp1p2pp/2p3Nn/5p2/1b2P1PP/8/PPP2P2/R1BQKB1R w KQkq -",
        counts: &[(1, 5), (2, 132), (3, 4973)],
    },
    Case {
        ruleset: Ruleset::Atomic,
        name: "fsf-atomic-4",
        fen: "r4b1r/2kb1N2/p2Bpnp1/8/2Pp3p/1P1PPP2/P5PP/R3K2R b KQ - 0 1",
        counts: &[(2, 148)],
    },
    Case {
        ruleset: Ruleset::Atomic,
        name: "fsf-atomic960-4",
        fen: "1R4kr/4K3/8/8/8/8/8/8 b k - 0 1",
        counts: &[(4, 17915)],
    },
    Case {
        ruleset: Ruleset::Antichess,
        name: "antichess-start",
        fen: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - -",
        counts: &[
            (1, 20),
            (2, 400),
            (3, 8067),
            (4, 153299),
            (5, 2732672),
            (6, 46264162),
        ],
    },
    Case {
        ruleset: Ruleset::Antichess,
        name: "a-pawn-vs-b-pawn",
        fen: "8/1p6/8/8/8/8/P7/8 w - -",
        counts: &[(1, 2), (2, 4), (3, 4), (4, 3), (5, 1), (6, 0), (7, 0)],
    },
    Case {
        ruleset: Ruleset::Antichess,
        name: "a-pawn-vs-c-pawn",
        fen: "8/2p5/8/8/8/8/P7/8 w - -",
        counts: &[
            (1, 2),
            (2, 4),
            (3, 4),
            (4, 4),
            (5, 4),
            (6, 4),
            (7, 4),
            (8, 4),
            (9, 12),
            (10, 36),
            (11, 312),
            (12, 2557),
            (13, 30873),
            (14, 343639),
        ],
    },
    Case {
        ruleset: Ruleset::KingOfTheHill,
        name: "start position",
        fen: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        counts: &[
            (1, 20),
            (2, 400),
            (3, 8902),
            (4, 197281),
            (5, 4865609),
            (6, 119060324),
        ],
    },
    Case {
        ruleset: Ruleset::KingOfTheHill,
        name: "shakmaty endgame",
        fen: "8/5k2/1pp2p2/8/3P1PP1/P3K3/1P6/8 b - -",
        counts: &[(1, 10), (2, 120), (3, 1000), (4, 12460), (5, 104314)],
    },
    Case {
        ruleset: Ruleset::KingOfTheHill,
        name: "kingofthehill-end",
        fen: "r1bq1bnr/pppp1ppp/2n1pk2/8/8/2N1PK2/PPPP1PPP/R1BQ1BNR w - - 6 5",
        counts: &[(1, 32), (2, 921), (3, 26371), (4, 749025), (5, 21562005)],
    },
    Case {
        ruleset: Ruleset::KingOfTheHill,
        name: "fsf-koth",
        fen: "rnb2b1r/ppp2ppp/3k4/8/1PKp1pn1/3Pq3/PBP1P2P/RN1Q1B1R w - - 4 12",
        counts: &[(3, 19003)],
    },
    Case {
        ruleset: Ruleset::ThreeCheck,
        name: "start position",
        fen: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 3+3 0 1",
        counts: &[
            (1, 20),
            (2, 400),
            (3, 8902),
            (4, 197281),
            (5, 4865609),
            (6, 119060324),
        ],
    },
    Case {
        ruleset: Ruleset::ThreeCheck,
        name: "3check-kiwipete",
        fen: "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 1+1",
        counts: &[(1, 48), (2, 2039), (3, 97848), (4, 4081798)],
    },
    Case {
        ruleset: Ruleset::ThreeCheck,
        name: "3check-castling",
        fen: "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 1+1",
        counts: &[(1, 26), (2, 562), (3, 13410), (4, 302770), (5, 7193131)],
    },
    Case {
        ruleset: Ruleset::ThreeCheck,
        name: "fsf-3check",
        fen: "7r/1p4p1/pk3p2/RN6/8/P5Pp/3p1P1P/4R1K1 w - - 1+3 1 39",
        counts: &[(3, 12407)],
    },
    Case {
        ruleset: Ruleset::ThreeCheck,
        name: "fsf-3check, lichess FEN",
        fen: "7r/1p4p1/pk3p2/RN6/8/P5Pp/3p1P1P/4R1K1 w - - 1 39 +2+0",
        counts: &[(3, 12407)],
    },
    Case {
        ruleset: Ruleset::Horde,
        name: "horde-start",
        fen: "rnbqkbnr/pppppppp/8/1PP2PP1/PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP w kq -",
        counts: &[
            (1, 8),
            (2, 128),
            (3, 1274),
            (4, 23310),
            (5, 265223),
            (6, 5396554),
        ],
    },
    Case {
        ruleset: Ruleset::Horde,
        name: "horde-open-flank",
        fen: "4k3/pp4q1/3P2p1/8/P3PP2/PPP2r2/PPP5/PPPP4 b - -",
        counts: &[
            (1, 30),
            (2, 241),
            (3, 6633),
            (4, 56539),
            (5, 1573347),
            (6, 14177327),
        ],
    },
    Case {
        ruleset: Ruleset::Horde,
        name: "horde-en-passant",
        fen: "k7/5p2/4p2P/3p2P1/2p2P2/1p2P2P/p2P2P1/2P2P2 w - -",
        counts: &[
            (1, 13),
            (2, 172),
            (3, 2205),
            (4, 33781),
            (5, 426584),
            (6, 7174007),
        ],
    },
    Case {
        ruleset: Ruleset::Horde,
        name: "horde-endgame",
        fen: "7r/1b2pppp/P5n1/P4k2/5b2/8/8/5N2 w - - 0 2",
        counts: &[
            (1, 6),
            (2, 164),
            (3, 1233),
            (4, 40474),
            (5, 371518),
            (6, 11514471),
        ],
    },
    Case {
        ruleset: Ruleset::Horde,
        name: "fsf-horde-4",
        fen: "4k3/7r/8/P7/2p1n2P/3p2P1/1P3P2/PPP1PPP1 w - - 0 1",
        counts: &[(4, 128809)],
    },
    Case {
        ruleset: Ruleset::Horde,
        name: "fsf-horde-5",
        fen: "rnbqkbnr/6p1/2p1Pp1P/P1PPPP2/Pp4PP/1p2PPPP/1P2PPPP/PP1nPPPP b kq a3 0 18",
        counts: &[(4, 197287)],
    },
    Case {
        ruleset: Ruleset::RacingKings,
        name: "racingkings-start",
        fen: "8/8/8/8/8/8/krbnNBRK/qrbnNBRQ w - -",
        counts: &[(1, 21), (2, 421), (3, 11264), (4, 296242), (5, 9472927)],
    },
    Case {
        ruleset: Ruleset::RacingKings,
        name: "occupied-goal",
        fen: "4brn1/2K2k2/8/8/8/8/8/8 w - -",
        counts: &[
            (1, 6),
            (2, 33),
            (3, 178),
            (4, 3151),
            (5, 12981),
            (6, 265932),
        ],
    },
    Case {
        ruleset: Ruleset::RacingKings,
        name: "fsf-rk-2",
        fen: "6r1/2K5/5k2/8/3R4/8/8/8 w - - 0 1",
        counts: &[(4, 86041)],
    },
    Case {
        ruleset: Ruleset::RacingKings,
        name: "fsf-rk-3",
        fen: "6R1/2k5/5K2/8/3r4/8/8/8 b - - 0 1",
        counts: &[(4, 86009)],
    },
];

fn position(case: &Case) -> Position {
    let setup = Setup::from_fen(case.fen)
        .unwrap_or_else(|e| panic!("{}: {}: {e}", case.ruleset, case.name));
    Position::from_setup_auto_in(case.ruleset, &setup)
        .unwrap_or_else(|e| panic!("{}: {}: {e}", case.ruleset, case.name))
}

fn check(limit: impl Fn(u64) -> bool) {
    let mut failures = Vec::new();
    for case in CASES {
        let pos = position(case);
        for &(depth, expected) in case.counts {
            if limit(expected) {
                let got = count(&pos, depth);
                if got != expected {
                    failures.push(format!(
                        "{} {} ({}) depth {depth}: {got}, expected {expected}",
                        case.ruleset, case.name, case.fen
                    ));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_variant_counts_as_published() {
    check(|n| n <= FAST);
}

#[test]
#[ignore = "deep counts: cargo xtask slow-tests"]
fn every_variant_counts_as_published_deep() {
    check(|n| n > FAST);
}

#[test]
fn every_case_reads_back_from_its_own_fen() {
    for case in CASES {
        let pos = position(case);
        let again =
            Position::from_setup_auto_in(case.ruleset, &Setup::from_fen(&pos.to_fen()).unwrap())
                .unwrap();
        assert_eq!(again, pos, "{} {}", case.ruleset, case.name);
    }
}
