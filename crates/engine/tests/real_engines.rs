//! The real engines this project analyses with, Debian's `stockfish` and `fairy-stockfish`:
//! scores, lines, mates both ways, and the same answer for the same question whatever was
//! asked before. An engine that is not installed fails its tests, saying how to install it.

use std::path::PathBuf;
use std::time::Duration;

use engine::{Analysis, Engine, EngineConfig, EngineError, Limit, Query, Score, Uci};

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
const PAWN_ENDING: &str = "8/8/4k3/8/2K5/8/3P4/8 w - - 0 1";
/// White mates with Ra8.
const MATE_IN_ONE: &str = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1";
/// The fool's mate: White, to move, is mated.
const MATED: &str = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3";
/// A Chess960 position, castling rights in Shredder-FEN's files.
const CHESS960: &str = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9";
const CRAZYHOUSE_START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1";

const NODES: Limit = Limit::Nodes(20_000);
const TIMEOUT: Duration = Duration::from_secs(30);

/// The engine's program, looked for on `PATH`, then in `/usr/games` (Debian's place for it,
/// not on every user's `PATH`).
fn find(program: &str) -> PathBuf {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .chain([PathBuf::from("/usr/games")])
        .map(|folder| folder.join(program))
        .find(|candidate| candidate.is_file())
        .unwrap_or_else(|| {
            panic!("{program} is not installed: `apt-get install {program}` (the tests use it)")
        })
}

/// An engine on one thread with a small hash: deterministic to a node limit.
fn start(program: &str) -> Uci {
    let config = EngineConfig {
        threads: Some(1),
        hash_mb: Some(16),
        ..EngineConfig::new(find(program))
    };
    Uci::start(&config).unwrap_or_else(|error| panic!("{program}: {error}"))
}

fn analyse(engine: &mut Uci, query: &Query<'_>) -> Analysis {
    engine
        .analyse(query, NODES, TIMEOUT)
        .unwrap_or_else(|error| panic!("{}: {error}", query.fen))
}

/// What an analysis says apart from how long it took.
fn outcome(analysis: &Analysis) -> (Score, u32, u64, &[String]) {
    (analysis.score, analysis.depth, analysis.nodes, &analysis.pv)
}

/// A move as UCI writes it: two squares, and a promotion's piece.
fn looks_like_a_move(text: &str) -> bool {
    let bytes = text.as_bytes();
    let square =
        |file: u8, rank: u8| (b'a'..=b'h').contains(&file) && (b'1'..=b'8').contains(&rank);
    match bytes {
        [a, b, c, d] => square(*a, *b) && square(*c, *d),
        [a, b, c, d, piece] => square(*a, *b) && square(*c, *d) && b"qrbn".contains(piece),
        _ => false,
    }
}

#[test]
fn stockfish_scores_positions_with_a_line_a_depth_and_nodes() {
    let mut stockfish = start("stockfish");
    assert!(
        stockfish.name().starts_with("Stockfish"),
        "{}",
        stockfish.name()
    );
    for fen in [START, KIWIPETE, PAWN_ENDING] {
        let analysis = analyse(&mut stockfish, &Query::chess(fen));
        assert!(
            matches!(analysis.score, Score::Centipawns(_)),
            "{fen}: {analysis:?}"
        );
        assert!(
            analysis
                .pv
                .first()
                .is_some_and(|first| looks_like_a_move(first)),
            "{fen}: {analysis:?}"
        );
        assert!(
            analysis.depth > 0 && analysis.nodes > 0,
            "{fen}: {analysis:?}"
        );
        // A node limit is stopped at, give or take the last batch of nodes counted.
        assert!(analysis.nodes < 40_000, "{fen}: {analysis:?}");
    }
}

#[test]
fn stockfish_finds_a_mate_in_one_and_says_mate_in_zero_when_mated() {
    let mut stockfish = start("stockfish");
    let mate = analyse(&mut stockfish, &Query::chess(MATE_IN_ONE));
    assert_eq!(mate.score, Score::Mate(1));
    assert_eq!(mate.pv, ["a1a8"]);
    let mated = analyse(&mut stockfish, &Query::chess(MATED));
    assert_eq!(mated.score, Score::Mate(0));
    assert!(mated.pv.is_empty(), "{mated:?}");
}

#[test]
fn stockfish_answers_the_same_question_the_same_way_whatever_came_before() {
    let mut stockfish = start("stockfish");
    let first = analyse(&mut stockfish, &Query::chess(KIWIPETE));
    let again = analyse(&mut stockfish, &Query::chess(KIWIPETE));
    analyse(&mut stockfish, &Query::chess(START));
    let after_another = analyse(&mut stockfish, &Query::chess(KIWIPETE));
    assert_eq!(outcome(&first), outcome(&again));
    assert_eq!(outcome(&first), outcome(&after_another));
    // And another process gives it too.
    let fresh = analyse(&mut start("stockfish"), &Query::chess(KIWIPETE));
    assert_eq!(outcome(&first), outcome(&fresh));
}

#[test]
fn stockfish_plays_chess960_and_back() {
    let mut stockfish = start("stockfish");
    let standard = analyse(&mut stockfish, &Query::chess(START));
    let chess960 = Query {
        chess960: true,
        ..Query::chess(CHESS960)
    };
    let analysis = analyse(&mut stockfish, &chess960);
    assert!(
        analysis
            .pv
            .first()
            .is_some_and(|first| looks_like_a_move(first)),
        "{analysis:?}"
    );
    assert_eq!(
        outcome(&analyse(&mut stockfish, &Query::chess(START))),
        outcome(&standard)
    );
}

#[test]
fn stockfish_refuses_a_variant_and_lives_on() {
    let mut stockfish = start("stockfish");
    let crazyhouse = Query {
        variant: Some("crazyhouse"),
        ..Query::chess(CRAZYHOUSE_START)
    };
    match stockfish.analyse(&crazyhouse, NODES, TIMEOUT) {
        Err(EngineError::Option { name, said }) => {
            assert_eq!(name, "UCI_Variant");
            assert_eq!(said, "No such option: UCI_Variant");
        }
        other => panic!("expected Option, got {other:?}"),
    }
    assert!(stockfish.is_alive());
    analyse(&mut stockfish, &Query::chess(START));
}

#[test]
fn stockfish_refuses_an_option_it_does_not_have() {
    let config = EngineConfig {
        options: vec![("No Such Thing".to_owned(), "1".to_owned())],
        ..EngineConfig::new(find("stockfish"))
    };
    match Uci::start(&config) {
        Err(EngineError::Option { name, .. }) => assert_eq!(name, "No Such Thing"),
        other => panic!(
            "expected Option, got {:?}",
            other.map(|uci| uci.process_id())
        ),
    }
}

#[test]
fn fairy_stockfish_scores_crazyhouse_and_chess_the_same_whichever_comes_first() {
    let crazyhouse = Query {
        variant: Some("crazyhouse"),
        ..Query::chess(CRAZYHOUSE_START)
    };
    let mut fairy = start("fairy-stockfish");
    assert!(fairy.has_option("UCI_Variant"));
    let crazyhouse_first = analyse(&mut fairy, &crazyhouse);
    assert!(
        matches!(crazyhouse_first.score, Score::Centipawns(_)),
        "{crazyhouse_first:?}"
    );
    assert!(
        crazyhouse_first.depth > 0 && !crazyhouse_first.pv.is_empty(),
        "{crazyhouse_first:?}"
    );
    let chess_second = analyse(&mut fairy, &Query::chess(START));
    let mut fairy = start("fairy-stockfish");
    let chess_first = analyse(&mut fairy, &Query::chess(START));
    let crazyhouse_second = analyse(&mut fairy, &crazyhouse);
    assert_eq!(outcome(&chess_first), outcome(&chess_second));
    assert_eq!(outcome(&crazyhouse_first), outcome(&crazyhouse_second));
}
