//! Arbitrary input never panics: random move tokens, FEN records and UCI strings are either
//! read or rejected with an error.

use pgn::Position;
use pgn::fen::Setup;
use pgn::san::SanToken;
use pgn::uci::Uci;

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn pick<'a>(&mut self, items: &'a [&'a str]) -> &'a str {
        items[(self.next() % items.len() as u64) as usize]
    }
}

const TOKEN_PIECES: &[&str] = &[
    "K", "Q", "R", "B", "N", "P", "k", "q", "r", "b", "n", "p", "a", "c", "d", "e", "f", "g", "h",
    "1", "2", "3", "4", "5", "6", "7", "8", "9", "0", "x", "-", "=", "+", "#", "(", ")", "/", "O",
    "o", "Z", "♔", "♞", "♙", "é", "\u{0}",
];

#[test]
fn random_move_tokens() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let positions = [
        Position::new(),
        Position::from_fen("r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1")
            .expect("fen"),
        Position::from_fen("8/8/1k6/2b5/2pP4/8/5K2/8 b - d3 0 1").expect("fen"),
    ];
    let mut read = 0;
    for _ in 0..200_000 {
        let len = 1 + rng.next() % 7;
        let token: String = (0..len).map(|_| rng.pick(TOKEN_PIECES)).collect();
        if let Ok(t) = SanToken::from_ascii(token.as_bytes()) {
            for pos in &positions {
                if t.resolve(pos).is_ok() {
                    read += 1;
                }
            }
        }
        let _ = Uci::from_ascii(token.as_bytes()).map(|u| u.to_move(&positions[0]));
    }
    assert!(read > 100, "{read}");
}

#[test]
fn random_fen_records() {
    let mut rng = Rng(0x1234_5678_9abc_def1);
    let parts = [
        "r", "n", "b", "q", "k", "p", "R", "N", "B", "Q", "K", "P", "1", "2", "3", "4", "7", "8",
        "9", "/", "/", "/",
    ];
    let tails = [
        " w",
        " b",
        " w KQkq",
        " b kq",
        " w HAha e3",
        " w - e6 0 1",
        " b - - 99 1000",
        " w Kk",
        " w A - x",
        " w - - 0 0",
        "",
        " w - c6 5",
        " w BCbc",
    ];
    let mut ok = 0;
    for _ in 0..100_000 {
        let mut fen = String::new();
        for _ in 0..(rng.next() % 40) {
            fen.push_str(rng.pick(&parts));
        }
        fen.push_str(rng.pick(&tails));
        if let Ok(pos) = Position::from_fen(&fen) {
            ok += 1;
            let _ = pos.legal_moves();
            let _ = pos.outcome();
            assert_eq!(Position::from_fen(&pos.to_fen()).ok(), Some(pos), "{fen}");
        }
        let _ = Setup::from_fen(&fen).map(|s| Position::from_setup_repairing(&s, None));
    }
    let _ = ok;
    // Valid boards with random extras.
    for tail in [
        " w KQkq e3",
        " w KQkq - 0 1 extra",
        " w Q",
        " b KQkq d6 0 1",
    ] {
        let fen = format!("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR{tail}");
        let _ = Position::from_fen(&fen);
    }
}

#[test]
fn small_types() {
    // Positions are copied on every move: keep them compact.
    assert!(
        std::mem::size_of::<Position>() <= 160,
        "{}",
        std::mem::size_of::<Position>()
    );
    assert!(std::mem::size_of::<pgn::Move>() <= 8);
}
