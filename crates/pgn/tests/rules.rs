//! Game rules around the move generator: outcomes, repetitions, variants, UCI, castling
//! rights, hashing.
#![allow(clippy::unwrap_used)]

use pgn::Forgiven;
use pgn::RepetitionTracker;
use pgn::san::SanError;
use pgn::uci::Uci;
use pgn::uci::{IllegalUciError, ParseUciError};
use pgn::{
    CastlingMode, CastlingRights, CastlingSide, Color, Move, Outcome, Position, Role, Square,
    Variant,
};

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn play(mut p: Position, tokens: &str) -> Position {
    for t in tokens.split_whitespace() {
        p = p
            .resolve_san(t.as_bytes())
            .unwrap_or_else(|e| panic!("{t}: {e}"))
            .after;
    }
    p
}

#[test]
fn checkmate_and_stalemate() {
    let fools = play(Position::new(), "f3 e5 g4 Qh4#");
    assert!(fools.is_check() && fools.is_checkmate());
    assert_eq!(
        fools.outcome(),
        Some(Outcome::Checkmate {
            winner: Color::Black
        })
    );
    assert_eq!(fools.outcome().map(Outcome::result), Some("0-1"));
    assert_eq!(fools.legal_moves().len(), 0);

    let stale = pos("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    assert!(stale.is_stalemate() && !stale.is_checkmate());
    assert_eq!(stale.outcome(), Some(Outcome::Stalemate));
    assert_eq!(Outcome::Stalemate.result(), "1/2-1/2");
    assert_eq!(Position::new().outcome(), None);
}

#[test]
fn insufficient_material() {
    for fen in [
        "8/8/4k3/8/8/4K3/8/8 w - - 0 1",    // K v K
        "8/8/4k3/8/8/3NK3/8/8 w - - 0 1",   // KN v K
        "8/8/4k3/8/8/3BK3/8/8 w - - 0 1",   // KB v K
        "8/8/2b1k3/8/8/3BK3/8/8 w - - 0 1", // bishops on one colour
    ] {
        assert!(pos(fen).is_insufficient_material(), "{fen}");
        assert_eq!(
            pos(fen).outcome(),
            Some(Outcome::InsufficientMaterial),
            "{fen}"
        );
    }
    for fen in [
        "8/8/4k3/8/8/3BK3/8/b7 w - - 0 1", // bishops on both colours
        "8/8/4k3/8/8/2NNK3/8/8 w - - 0 1", // two knights (mate is possible)
        "8/8/4k3/8/8/3NK3/8/7b w - - 0 1", // KN v KB
        "8/8/4k3/8/8/4K3/4P3/8 w - - 0 1", // a pawn
        "8/8/4k3/8/8/4K3/8/7R w - - 0 1",  // a rook
    ] {
        assert!(!pos(fen).is_insufficient_material(), "{fen}");
    }
    // A lone knight against a queen: the knight side cannot mate, the queen side can.
    let p = pos("8/8/4k3/8/8/3NK3/8/7q w - - 0 1");
    assert!(p.has_insufficient_material(Color::White));
    assert!(!p.has_insufficient_material(Color::Black));
}

#[test]
fn move_count_rules() {
    let p = pos("8/8/4k3/8/8/4K3/8/7R w - - 99 80");
    assert!(!p.is_fifty_moves());
    let p = play(p, "Rh2");
    assert!(p.is_fifty_moves() && !p.is_seventy_five_moves());
    assert_eq!(p.halfmoves(), 100);
    assert_eq!(p.outcome(), None);
    let p = pos("8/8/4k3/8/8/4K3/8/7R w - - 150 120");
    assert_eq!(p.outcome(), Some(Outcome::SeventyFiveMoves));
    // Counters: a pawn move resets the half-move clock; black's move ends a full move.
    let p = play(Position::new(), "Nf3 Nf6");
    assert_eq!((p.halfmoves(), p.fullmoves()), (2, 2));
    let p = play(p, "e4");
    assert_eq!((p.halfmoves(), p.fullmoves()), (0, 2));
}

#[test]
fn repetitions() {
    let start = Position::new();
    let mut reps = RepetitionTracker::new(&start);
    let mut p = start;
    let mut counts = Vec::new();
    for t in "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8".split_whitespace() {
        p = p.resolve_san(t.as_bytes()).unwrap().after;
        counts.push(reps.push(&p));
    }
    assert_eq!(counts[3], 2);
    assert_eq!(counts[7], 3);
    assert!(reps.is_fivefold());
    assert_eq!(p.zobrist_hash(), start.zobrist_hash());
    // The same pieces with different castling rights are a different position.
    let moved = play(start, "Nf3 Nf6 Rg1 Rg8 Rh1 Rh8 Ng1 Ng8");
    assert_eq!(moved.board(), start.board());
    assert_ne!(moved.zobrist_hash(), start.zobrist_hash());
    // An irreversible move clears the history.
    let mut reps = RepetitionTracker::new(&start);
    let p = play(start, "e4");
    assert_eq!(reps.push(&p), 1);
    assert_eq!(reps.count(&start), 0);
}

#[test]
fn en_passant_square_in_hash_only_when_capturable() {
    // After 1.e4 no black pawn can take en passant: the hash equals the same position reached
    // by another order, where no double step just happened.
    let a = play(Position::new(), "e4 Nf6 Nf3 Ng8 Ng1");
    let b = play(Position::new(), "e4");
    assert_eq!(a.board(), b.board());
    assert_eq!(a.ep_square(), None);
    assert_eq!(b.ep_square(), None);
    assert_eq!(a.zobrist_hash() ^ b.zobrist_hash(), 0);
    // A capturable one is kept.
    let c = play(Position::new(), "e4 Nf6 e5 d5");
    assert_eq!(c.ep_square(), Some(Square::D6));
    assert!(c.to_fen().contains(" d6 "));
}

#[test]
fn variants_from_tags() {
    use Variant::*;
    for (tag, v) in [
        ("Standard", Standard),
        ("standard", Standard),
        ("From Position", Standard),
        ("", Standard),
        ("Chess960", Chess960),
        ("chess960", Chess960),
        ("chess 960", Chess960),
        ("Chess 960", Chess960),
        ("fischerandom", Chess960),
        ("Fischerandom", Chess960),
        ("Fischer Random", Chess960),
        ("960", Chess960),
        ("Crazyhouse", Crazyhouse),
        ("Atomic", Atomic),
        ("Antichess", Antichess),
        ("Giveaway", Antichess),
        ("Suicide", Antichess),
        ("King of the Hill", KingOfTheHill),
        ("kingOfTheHill", KingOfTheHill),
        ("Three-check", ThreeCheck),
        ("threeCheck", ThreeCheck),
        ("3check", ThreeCheck),
        ("Horde", Horde),
        ("Racing Kings", RacingKings),
        ("racingKings", RacingKings),
    ] {
        assert_eq!(Variant::from_tag(tag), v, "{tag:?}");
    }
    assert_eq!(Variant::from_tag(" Shogi "), Unknown("Shogi".to_string()));
    assert_eq!(
        "Chess960".parse::<Variant>().unwrap().castling_mode(),
        CastlingMode::Chess960
    );
    assert_eq!(Variant::KingOfTheHill.to_string(), "King of the Hill");
    assert!(Standard.is_supported() && Chess960.is_supported());
    assert!(Crazyhouse.is_supported() && !Unknown("x".into()).is_supported());
}

#[test]
fn uci_reading_and_writing() {
    let p = Position::new();
    let m = Uci::from_ascii(b"g1f3").unwrap().to_move(&p).unwrap();
    assert_eq!(
        m,
        Move::Normal {
            role: Role::Knight,
            from: Square::G1,
            capture: None,
            to: Square::F3,
            promotion: None
        }
    );
    assert_eq!(m.to_uci(CastlingMode::Standard).to_string(), "g1f3");
    assert_eq!(
        Uci::from_ascii(b"0000").unwrap().to_move(&p),
        Ok(Move::Null)
    );
    assert_eq!("0000".parse::<Uci>().unwrap().to_string(), "0000");
    for bad in ["", "e2", "e2e9", "e7e8x", "e2e4e5", "i2i4", "K@e4", "N@e9"] {
        assert_eq!(
            Uci::from_ascii(bad.as_bytes()),
            Err(ParseUciError(bad.to_string())),
            "{bad}"
        );
    }
    for illegal in ["e2e5", "e7e5", "e1g1", "a1a3", "e3e4"] {
        let u = Uci::from_ascii(illegal.as_bytes()).unwrap();
        assert!(
            matches!(u.to_move(&p), Err(IllegalUciError { .. })),
            "{illegal}"
        );
    }
    let promo = pos("8/4P3/8/8/k7/8/8/4K3 w - - 0 1");
    let m = Uci::from_ascii(b"e7e8n").unwrap().to_move(&promo).unwrap();
    assert_eq!(m.promotion(), Some(Role::Knight));
    assert_eq!(
        Uci::from_move(&m, CastlingMode::Standard).to_string(),
        "e7e8n"
    );
    assert!(Uci::from_ascii(b"e7e8").unwrap().to_move(&promo).is_err());
    // En passant.
    let ep = play(Position::new(), "e4 Nf6 e5 d5");
    let m = Uci::from_ascii(b"e5d6").unwrap().to_move(&ep).unwrap();
    assert!(m.is_en_passant());
    // Chess960 castling: king takes rook; the standard two-step is read as well.
    let p960 =
        Position::from_fen_with_mode("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", CastlingMode::Chess960)
            .unwrap();
    let m = Uci::from_ascii(b"e1h1").unwrap().to_move(&p960).unwrap();
    assert_eq!(
        m,
        Move::Castle {
            king: Square::E1,
            rook: Square::H1
        }
    );
    assert_eq!(Uci::from_ascii(b"e1g1").unwrap().to_move(&p960), Ok(m));
    assert_eq!(Uci::from_move(&m, p960.castling_mode()).to_string(), "e1h1");
    assert_eq!(
        Uci::from_move(&m, CastlingMode::Standard).to_string(),
        "e1g1"
    );
}

#[test]
fn castling_rights_follow_the_pieces() {
    let p = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    assert_eq!(p.castling_rights(), CastlingRights::all());
    let after_rook = play(p, "Rb1");
    assert!(
        !after_rook
            .castles()
            .has(Color::White, CastlingSide::QueenSide)
    );
    assert!(
        after_rook
            .castles()
            .has(Color::White, CastlingSide::KingSide)
    );
    let after_capture = play(p, "Rxa8+");
    assert_eq!(
        after_capture.castling_rights(),
        CastlingRights::WHITE_KING_SIDE | CastlingRights::BLACK_KING_SIDE
    );
    let after_king = play(p, "Kf1");
    assert_eq!(after_king.castling_rights(), CastlingRights::BLACK);
    let castled = play(p, "O-O");
    assert_eq!(
        castled.piece_at(Square::G1).map(|p| p.role),
        Some(Role::King)
    );
    assert_eq!(
        castled.piece_at(Square::F1).map(|p| p.role),
        Some(Role::Rook)
    );
    assert_eq!(castled.to_fen(), "r3k2r/8/8/8/8/8/8/R4RK1 b kq - 1 1");
    // Castling out of, through or into check is not allowed.
    for (fen, side) in [
        ("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", None),
        (
            "r3k2r/8/8/8/4r3/8/8/R3K2R w KQkq - 0 1",
            Some("out of check"),
        ),
        ("r3k2r/8/8/8/5r2/8/8/R3K2R w KQkq - 0 1", Some("through f1")),
        ("r3k2r/8/8/8/6r1/8/8/R3K2R w KQkq - 0 1", Some("into g1")),
    ] {
        let p = pos(fen);
        let o_o = p.resolve_san(b"O-O");
        match side {
            None => assert!(o_o.is_ok()),
            Some(why) => assert!(matches!(o_o, Err(SanError::Illegal { .. })), "{why}"),
        }
    }
    // Queen side: b1 may be attacked, only the king's path matters.
    let p = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    assert!(p.resolve_san(b"O-O-O").is_ok());
    let p = pos("1r2k2r/8/8/8/8/8/8/R3K2R w KQk - 0 1");
    assert!(p.resolve_san(b"O-O-O").is_ok());
}

#[test]
fn chess960_castling() {
    // King on b1, rook on a1: queen-side castling puts the king on c1 and the rook on d1.
    let p =
        Position::from_fen_with_mode("r3k2r/8/8/8/8/8/8/RK5R w KQ - 0 1", CastlingMode::Chess960)
            .unwrap();
    let r = p.resolve_san(b"O-O-O").unwrap();
    assert_eq!(
        r.mv,
        Move::Castle {
            king: Square::B1,
            rook: Square::A1
        }
    );
    assert_eq!(r.after.to_fen(), "r3k2r/8/8/8/8/8/8/2KR3R b - - 1 1");
    // King side: the king crosses c1 to g1, the rook goes from h1 to f1.
    let r = p.resolve_san(b"O-O").unwrap();
    assert_eq!(r.after.to_fen(), "r3k2r/8/8/8/8/8/8/R4RK1 b - - 1 1");
    // A castling rook that shields the king's destination: castling would expose it.
    let p = Position::from_fen_with_mode("4k3/8/8/8/8/8/8/qR2K3 w Q - 0 1", CastlingMode::Chess960)
        .unwrap();
    assert!(p.resolve_san(b"O-O-O").is_err());
    // The king already on its destination (g1) with the rook on h1.
    let p = Position::from_fen_with_mode("4k3/8/8/8/8/8/8/6KR w K - 0 1", CastlingMode::Chess960)
        .unwrap();
    let r = p.resolve_san(b"O-O").unwrap();
    assert_eq!(r.after.to_fen(), "4k3/8/8/8/8/8/8/5RK1 b - - 1 1");
    assert_eq!(r.forgiven, Forgiven::empty());
}

#[test]
fn try_play_checks_legality() {
    let p = Position::new();
    let bad = Move::Normal {
        role: Role::Queen,
        from: Square::D1,
        capture: None,
        to: Square::D5,
        promotion: None,
    };
    assert!(p.try_play(&bad).is_err());
    assert!(!p.is_legal(&bad));
    assert!(!p.is_legal(&Move::Null));
    let good = Move::Normal {
        role: Role::Pawn,
        from: Square::D2,
        capture: None,
        to: Square::D4,
        promotion: None,
    };
    assert_eq!(p.try_play(&good).unwrap(), p.play(&good));
    // Garbage moves never panic.
    let king_capture = Move::Normal {
        role: Role::Queen,
        from: Square::D1,
        capture: Some(Role::King),
        to: Square::E8,
        promotion: None,
    };
    let broken = p.play(&king_capture);
    let _ = broken.legal_moves();
    let _ = broken.play(&king_capture).outcome();
}

#[test]
fn mode_switching() {
    let p = Position::new();
    assert_eq!(p.castling_mode(), CastlingMode::Standard);
    let p960 = p.with_castling_mode(CastlingMode::Chess960).unwrap();
    assert_eq!(p960.castling_mode(), CastlingMode::Chess960);
    let q = Position::from_fen("4k3/8/8/8/8/8/8/R1R1K3 w C - 0 1").unwrap();
    assert_eq!(q.castling_mode(), CastlingMode::Chess960);
    assert!(q.with_castling_mode(CastlingMode::Standard).is_err());
}
