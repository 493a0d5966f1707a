//! SAN: any token read in any reachable position gives the same answer on the fast path
//! and the general path, and every legal move's SAN reads back to that move.
//!
//! The input is a list of move choices, then `0xFF`, then the token: the choices walk a game
//! from one of a few start positions to a position where the token is read.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pgn::{CastlingMode, Position};
use pgn::san::SanToken;
use pgn::Forgiven;

const STARTS: [&str; 4] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
];

fuzz_target!(|data: &[u8]| {
    let Some((&start, rest)) = data.split_first() else {
        return;
    };
    let fen = STARTS[usize::from(start) % STARTS.len()];
    let mode = if start % 4 == 2 {
        CastlingMode::Chess960
    } else {
        CastlingMode::Standard
    };
    let mut pos = Position::from_fen_with_mode(fen, mode).expect("a valid start");
    let (choices, token) = notation_fuzz::split_walk(rest);
    for &choice in choices {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        pos = pos.play(&moves[usize::from(choice) % moves.len()]);
    }

    // The fast path and the general path agree on the token, and playing it in place does
    // what resolving it says.
    let general = SanToken::from_ascii(token).and_then(|t| t.resolve(&pos));
    let resolved = pos.resolve_san(token);
    assert_eq!(
        resolved,
        general,
        "{:?} in {pos:?}",
        String::from_utf8_lossy(token)
    );
    let mut played = pos;
    match (played.play_san(token), &resolved) {
        (Ok((mv, forgiven)), Ok(r)) => {
            assert_eq!((mv, forgiven), (r.mv, r.forgiven));
            assert_eq!(played, r.after);
        }
        (Err(e), Err(f)) => {
            assert_eq!(&e, f);
            assert_eq!(played, pos, "a refused token leaves the position alone");
        }
        (a, b) => panic!("play_san {a:?} but resolve_san {b:?}"),
    }

    // Every legal move's SAN reads back to it, with nothing forgiven.
    for mv in pos.legal_moves() {
        let san = pos.san(&mv).to_string();
        let back = pos
            .resolve_san(san.as_bytes())
            .expect("canonical SAN reads back");
        assert_eq!(back.mv, mv, "{san} in {pos:?}");
        assert_eq!(back.forgiven, Forgiven::empty(), "{san} in {pos:?}");
    }
});
