//! Property tests of the variants through the export format: random legal games of every
//! variant, from the start and from set-up positions, are written, read back and written
//! again. Reading must give the same moves with nothing forgiven and no diagnostic, the
//! second export must equal the first (a fixed point), the fast validator must agree, and
//! the result the games were given (the variant's own when it ended them) must hold.
#![allow(clippy::unwrap_used, missing_docs)]

use pgn::{
    GameResult, GameTree, LineId, Move, Position, Ruleset, ValidatingReader, read_games,
    to_export_string,
};

/// A small deterministic generator (xorshift), so that failures reproduce.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// A random legal move, drops and captures as likely as the rest.
fn pick(rng: &mut Rng, pos: &Position) -> Option<Move> {
    let moves = pos.legal_moves();
    (!moves.is_empty()).then(|| moves[rng.below(moves.len())])
}

/// A random game of `ruleset` of up to `plies` moves, from the start or from a set-up
/// position reached by random moves; its result is the outcome's when the game ended.
fn random_game(
    rng: &mut Rng,
    ruleset: Ruleset,
    set_up: bool,
    plies: usize,
) -> (GameTree, Position) {
    let mut game = GameTree::new();
    game.tags.set("Variant", ruleset.name());
    let mut pos = Position::start(ruleset);
    if set_up {
        for _ in 0..rng.below(30) {
            match pick(rng, &pos) {
                Some(mv) => pos.play_mut(&mv),
                None => break,
            }
        }
        game.tags.set("SetUp", "1");
        game.tags.set("FEN", pos.to_fen());
    }
    for _ in 0..plies {
        let Some(mv) = pick(rng, &pos) else {
            break;
        };
        game.push_move(LineId::MAIN, mv);
        pos.play_mut(&mv);
    }
    game.result = match pos.outcome().map(|o| o.winner()) {
        Some(Some(pgn::Color::White)) => GameResult::FirstWins,
        Some(Some(pgn::Color::Black)) => GameResult::SecondWins,
        Some(None) => GameResult::Draw,
        None => GameResult::Unknown,
    };
    (game, pos)
}

#[test]
fn random_games_of_every_variant_round_trip() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    for ruleset in Ruleset::ALL {
        let mut ended = 0;
        for index in 0..60 {
            let (game, end) = random_game(&mut rng, ruleset, index % 3 == 2, 200);
            if end.outcome().is_some() {
                ended += 1;
            }
            let text = to_export_string(&game).unwrap();
            let read = read_games(text.as_bytes());
            assert_eq!(read.len(), 1, "{ruleset} game {index}:\n{text}");
            let again = &read[0];
            assert!(
                again.diagnostics.is_empty(),
                "{ruleset} game {index}: {:?}\n{text}",
                again.diagnostics
            );
            let moves = |g: &GameTree| g.mainline().map(|n| n.mv).collect::<Vec<_>>();
            assert_eq!(moves(&again.game), moves(&game), "{ruleset} game {index}");
            assert_eq!(again.game.result, game.result, "{ruleset} game {index}");
            let second = to_export_string(&again.game).unwrap();
            assert_eq!(
                second, text,
                "{ruleset} game {index}: export is not a fixed point"
            );

            let checked: Vec<_> = ValidatingReader::new(text.as_bytes())
                .collect::<Result<_, _>>()
                .unwrap();
            assert_eq!(checked.len(), 1);
            assert!(
                checked[0].diagnostics.is_empty(),
                "{ruleset} game {index}: {:?}",
                checked[0].diagnostics
            );

            // The final position, written as FEN and read back by the ruleset, is the same.
            let setup = pgn::fen::Setup::from_fen(&end.to_fen()).unwrap();
            let back = Position::from_setup_auto_in(ruleset, &setup).unwrap();
            assert_eq!(back, end, "{ruleset} game {index}: {}", end.to_fen());
        }
        // Random play ends some games of every variant but standard chess within 200 plies
        // (the variants' ends come quickly); at least make sure the ends were reached.
        if ruleset != Ruleset::Chess {
            assert!(ended > 0, "{ruleset}: no random game ended");
        }
    }
}

/// Every move a variant position allows is written in SAN that reads back as that move with
/// nothing forgiven, and in UCI that reads back too; whether a move exists and whether the
/// side to move is in check, found without the move list, agree with it.
#[test]
fn every_legal_move_reads_back_from_its_san_and_uci() {
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    for ruleset in Ruleset::ALL {
        for _ in 0..40 {
            let mut pos = Position::start(ruleset);
            for _ in 0..rng.below(60) {
                match pick(&mut rng, &pos) {
                    Some(mv) => pos.play_mut(&mv),
                    None => break,
                }
            }
            // The shortcuts agree with the move list and the checkers.
            assert_eq!(
                pos.has_legal_moves(),
                !pos.legal_moves().is_empty(),
                "{ruleset} {}",
                pos.to_fen()
            );
            assert_eq!(
                pos.is_check(),
                pos.checkers().any(),
                "{ruleset} {}",
                pos.to_fen()
            );
            for mv in pos.legal_moves() {
                let san = pos.san(&mv).to_string();
                let read = pos
                    .resolve_san(san.as_bytes())
                    .unwrap_or_else(|e| panic!("{ruleset} {}: {san}: {e}", pos.to_fen()));
                assert_eq!(read.mv, mv, "{ruleset} {}: {san}", pos.to_fen());
                assert!(
                    read.forgiven.is_empty(),
                    "{ruleset} {}: {san}",
                    pos.to_fen()
                );
                let uci = pgn::uci::Uci::from_move(&mv, pos.castling_mode());
                assert_eq!(
                    uci.to_move(&pos),
                    Ok(mv),
                    "{ruleset} {}: {uci}",
                    pos.to_fen()
                );
                // The bytes the tables take are the text.
                let mut ascii = b"x".to_vec();
                uci.append_ascii_to(&mut ascii);
                assert_eq!(ascii, format!("x{uci}").into_bytes());
            }
        }
    }
}

/// Set-ups each ruleset refuses or allows by its own rules.
#[test]
fn set_ups_are_judged_by_the_ruleset() {
    let read = |ruleset: Ruleset, fen: &str| {
        let setup = pgn::fen::Setup::from_fen(fen).unwrap();
        Position::from_setup_auto_in(ruleset, &setup)
    };
    // Racing kings: no check, whichever side.
    assert!(read(Ruleset::RacingKings, "k7/8/8/8/8/8/8/R6K b - - 0 1").is_err());
    assert!(read(Ruleset::RacingKings, "k7/8/8/8/8/8/8/R6K w - - 0 1").is_err());
    assert!(read(Ruleset::RacingKings, "k7/8/8/8/8/8/8/1R5K w - - 0 1").is_ok());
    // Horde: no white king, pawns on white's first rank; none on black's.
    assert!(read(Ruleset::Horde, "4k3/8/8/8/8/8/8/PPPPPPPP b - - 0 1").is_ok());
    assert!(read(Ruleset::Horde, "4k3/8/8/8/8/8/8/pPPPPPPP b - - 0 1").is_err());
    assert!(read(Ruleset::Chess, "4k3/8/8/8/8/8/8/PPPPPPPP b - - 0 1").is_err());
    // Antichess: any number of kings, and no castling (the right is dropped when repaired).
    assert!(read(Ruleset::Antichess, "kk6/8/8/8/8/8/8/KKK5 w - - 0 1").is_ok());
    assert!(read(Ruleset::Antichess, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").is_err());
    // Atomic: kings side by side are no check; the side that just moved may be in check
    // only once its move blew up the other king.
    assert!(read(Ruleset::Atomic, "8/8/8/3kK3/8/8/8/8 w - - 0 1").is_ok());
    assert!(read(Ruleset::Atomic, "8/8/8/8/8/8/8/q3K3 w - - 0 1").is_ok());
    assert!(read(Ruleset::Atomic, "4k3/8/8/8/8/8/8/4K2r b - - 0 1").is_err());
}

/// How each variant's games end, and who can still win.
#[test]
fn outcomes_and_insufficient_material_follow_each_variant() {
    use pgn::{Color, Outcome, VariantEnd};
    let read = |ruleset: Ruleset, fen: &str| {
        let setup = pgn::fen::Setup::from_fen(fen).unwrap();
        Position::from_setup_auto_in(ruleset, &setup).unwrap()
    };
    let won = |winner: Color, end: VariantEnd| {
        Some(Outcome::Variant {
            winner: Some(winner),
            end,
        })
    };
    for (ruleset, fen, outcome) in [
        (
            Ruleset::Atomic,
            "rnb4r/ppp1p1pp/3q4/3p4/8/8/PPPPPPPP/RNBQKB1R b KQ - 0 3",
            won(Color::White, VariantEnd::KingExploded),
        ),
        (
            Ruleset::Antichess,
            "8/8/8/8/8/8/8/4K3 b - - 0 30",
            won(Color::Black, VariantEnd::AllPiecesLost),
        ),
        // Black's pawn is blocked: black cannot move, and so wins.
        (
            Ruleset::Antichess,
            "8/8/8/8/8/p7/P7/8 b - - 0 30",
            won(Color::Black, VariantEnd::NoMoveLeft),
        ),
        (
            Ruleset::KingOfTheHill,
            "4k3/8/8/8/3K4/8/8/8 b - - 0 9",
            won(Color::White, VariantEnd::KingOnHill),
        ),
        (
            Ruleset::ThreeCheck,
            "4k3/4R3/8/8/8/8/8/4K3 b - - 0 9 +3+0",
            won(Color::White, VariantEnd::ThirdCheck),
        ),
        (
            Ruleset::Horde,
            "4k3/8/8/8/8/8/8/8 w - - 0 40",
            won(Color::Black, VariantEnd::HordeGone),
        ),
        (
            Ruleset::RacingKings,
            "1k6/6K1/8/8/8/8/8/8 w - - 0 1",
            won(Color::Black, VariantEnd::KingHome),
        ),
        // White is home, and black cannot follow at once: white wins.
        (
            Ruleset::RacingKings,
            "2KR4/k7/2Q5/4q3/8/8/8/2N5 b - - 0 1",
            won(Color::White, VariantEnd::KingHome),
        ),
        // White is home, and black can follow: the game goes on.
        (Ruleset::RacingKings, "1K6/7k/8/8/8/8/8/8 b - - 0 1", None),
        (
            Ruleset::RacingKings,
            "kr3NK1/1q2R3/8/8/8/5n2/2N5/1rb2B1R w - - 11 14",
            Some(Outcome::Variant {
                winner: None,
                end: VariantEnd::BothKingsHome,
            }),
        ),
    ] {
        let pos = read(ruleset, fen);
        assert_eq!(pos.outcome(), outcome, "{ruleset} {fen}");
        assert_eq!(pos.has_legal_moves(), outcome.is_none(), "{ruleset} {fen}");
    }

    // Who can still win.
    for (ruleset, fen, white, black) in [
        // A bare king cannot explode anything; a lone knight cannot against a bare king.
        (
            Ruleset::Atomic,
            "8/3k4/8/8/2N5/8/3K4/8 b - - 0 1",
            true,
            true,
        ),
        // A rook can be blown up beside its own king: the knight's side can win.
        (
            Ruleset::Atomic,
            "8/3k4/4r3/8/2N5/8/3K4/8 b - - 0 1",
            false,
            false,
        ),
        (
            Ruleset::KingOfTheHill,
            "8/3k4/8/8/8/8/3K4/8 w - - 0 1",
            false,
            false,
        ),
        (
            Ruleset::RacingKings,
            "8/8/8/8/8/8/k6K/8 w - - 0 1",
            false,
            false,
        ),
        // Any piece gives checks; a bare king does not.
        (
            Ruleset::ThreeCheck,
            "8/3k4/8/8/8/8/3K3N/8 w - - 0 1 +0+0",
            false,
            true,
        ),
        // Bishops on squares of opposite colours can never meet.
        (
            Ruleset::Antichess,
            "8/8/8/8/8/8/b7/B7 w - - 0 1",
            true,
            true,
        ),
        (
            Ruleset::Crazyhouse,
            "8/3k4/8/8/8/8/3K3N/8[] w - - 0 1",
            true,
            true,
        ),
        // A pawn in hand can be dropped and promote.
        (
            Ruleset::Crazyhouse,
            "8/3k4/8/8/8/8/3K4/8[p] w - - 0 1",
            false,
            false,
        ),
        // The horde's two knights cannot mate a bare king; the king's side can always win.
        (
            Ruleset::Horde,
            "8/5k2/8/8/8/4NN2/8/8 w - - 0 1",
            true,
            false,
        ),
    ] {
        let pos = read(ruleset, fen);
        assert_eq!(
            (
                pos.has_insufficient_material(Color::White),
                pos.has_insufficient_material(Color::Black)
            ),
            (white, black),
            "{ruleset} {fen}"
        );
    }
}
