//! Reading and writing SAN: canonical output, every forgiveness, errors, and a round trip
//! over every legal move of many positions.
#![allow(clippy::unwrap_used)]

use pgn::Forgiven;
use pgn::san::SanToken;
use pgn::san::{IllegalReason, SanError};
use pgn::uci::Uci;
use pgn::{CastlingMode, Move, Position, Role, Square};

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// Resolves `token` in `fen` and checks the canonical SAN of the move and the flags.
fn read(fen: &str, token: &str, san: &str, forgiven: Forgiven) {
    let p = pos(fen);
    let r = p
        .resolve_san(token.as_bytes())
        .unwrap_or_else(|e| panic!("{token} in {fen}: {e}"));
    assert_eq!(r.san().to_string(), san, "{token} in {fen}");
    assert_eq!(r.forgiven, forgiven, "{token} in {fen}");
    assert_eq!(r.after, p.play(&r.mv));
}

fn error(fen: &str, token: &str) -> SanError {
    match pos(fen).resolve_san(token.as_bytes()) {
        Ok(r) => panic!("{token} in {fen} resolved to {}", r.san()),
        Err(e) => e,
    }
}

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
/// After 1.e4 d5: exd5 is possible.
const SCANDI: &str = "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2";
/// White can castle both ways.
const CASTLES: &str = "r3k2r/pppq1ppp/2npbn2/2b1p3/2B1P3/2NPBN2/PPPQ1PPP/R3K2R w KQkq - 0 8";
/// White pawn on e7 can promote (also by capturing on d8/f8).
const PROMO: &str = "3r1r2/4P3/8/8/k7/8/8/4K3 w - - 0 1";
/// Rook mate on the back rank.
const MATE: &str = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1";
/// En passant on d6.
const EP: &str = "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3";

#[test]
fn canonical_tokens_forgive_nothing() {
    read(START, "e4", "e4", Forgiven::empty());
    read(START, "Nf3", "Nf3", Forgiven::empty());
    read(SCANDI, "exd5", "exd5", Forgiven::empty());
    read(CASTLES, "O-O", "O-O", Forgiven::empty());
    read(CASTLES, "O-O-O", "O-O-O", Forgiven::empty());
    read(PROMO, "e8=Q+", "e8=Q+", Forgiven::empty());
    read(PROMO, "exd8=N", "exd8=N", Forgiven::empty());
    read(MATE, "Ra8#", "Ra8#", Forgiven::empty());
    read(EP, "exd6", "exd6", Forgiven::empty());
}

#[test]
fn castling_with_zeros() {
    read(CASTLES, "0-0", "O-O", Forgiven::CASTLING_ZEROS);
    read(CASTLES, "0-0-0", "O-O-O", Forgiven::CASTLING_ZEROS);
    read(CASTLES, "o-o", "O-O", Forgiven::CASTLING_ZEROS);
}

#[test]
fn pawn_letter() {
    read(START, "Pe4", "e4", Forgiven::PAWN_LETTER);
    read(SCANDI, "Pexd5", "exd5", Forgiven::PAWN_LETTER);
    read(
        SCANDI,
        "Pxd5",
        "exd5",
        Forgiven::PAWN_LETTER | Forgiven::MISSING_PAWN_FILE,
    );
}

#[test]
fn missing_and_superfluous_capture() {
    read(SCANDI, "ed5", "exd5", Forgiven::MISSING_CAPTURE);
    read(SCANDI, "Bb5", "Bb5+", Forgiven::CHECK_SUFFIX);
    read(SCANDI, "Qxg4", "Qg4", Forgiven::SUPERFLUOUS_CAPTURE);
    read(
        "rnbqkbnr/pppp1ppp/8/4p3/8/5N2/PPPPPPPP/RNBQKB1R w KQkq - 0 2",
        "Ne5",
        "Nxe5",
        Forgiven::MISSING_CAPTURE,
    );
    read(START, "Nxf3", "Nf3", Forgiven::SUPERFLUOUS_CAPTURE);
    read(EP, "ed6", "exd6", Forgiven::MISSING_CAPTURE);
    read(SCANDI, "xd5", "exd5", Forgiven::MISSING_PAWN_FILE);
}

#[test]
fn over_disambiguation() {
    read(START, "Ng1f3", "Nf3", Forgiven::OVER_DISAMBIGUATION);
    read(START, "Ngf3", "Nf3", Forgiven::OVER_DISAMBIGUATION);
    read(START, "N1f3", "Nf3", Forgiven::OVER_DISAMBIGUATION);
    read(
        "rnbqkbnr/ppp2ppp/8/3pp3/3P4/8/PPP1PPPP/RNBQKBNR w KQkq - 0 3",
        "Nb1d2",
        "Nd2",
        Forgiven::OVER_DISAMBIGUATION,
    );
    read(
        START,
        "Ng1-f3",
        "Nf3",
        Forgiven::OVER_DISAMBIGUATION | Forgiven::LONG_ALGEBRAIC,
    );
    // Two knights can reach d2: the file is needed, the rank is another way to tell them apart.
    let fen = "4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1";
    read(fen, "Nbd2", "Nbd2", Forgiven::empty());
    read(fen, "N1d2", "Nbd2", Forgiven::OVER_DISAMBIGUATION);
    read(fen, "Nb1d2", "Nbd2", Forgiven::OVER_DISAMBIGUATION);
    read(fen, "Nfd2", "Nfd2", Forgiven::empty());
    read(SCANDI, "e4d5", "exd5", Forgiven::LONG_ALGEBRAIC);
    read(SCANDI, "e4xd5", "exd5", Forgiven::LONG_ALGEBRAIC);
    read(START, "e2e4", "e4", Forgiven::LONG_ALGEBRAIC);
    read(START, "e2-e4", "e4", Forgiven::LONG_ALGEBRAIC);
    read(
        START,
        "Pe2-e4",
        "e4",
        Forgiven::LONG_ALGEBRAIC | Forgiven::PAWN_LETTER | Forgiven::OVER_DISAMBIGUATION,
    );
    read(
        START,
        "e2xe4",
        "e4",
        Forgiven::LONG_ALGEBRAIC | Forgiven::SUPERFLUOUS_CAPTURE,
    );
    read(
        SCANDI,
        "e4-d5",
        "exd5",
        Forgiven::LONG_ALGEBRAIC | Forgiven::MISSING_CAPTURE,
    );
    read(START, "g1f3", "Nf3", Forgiven::LONG_ALGEBRAIC);
}

#[test]
fn uci_forms() {
    read(
        PROMO,
        "e7e8q",
        "e8=Q+",
        Forgiven::UCI | Forgiven::CHECK_SUFFIX,
    );
    read(PROMO, "e7d8n", "exd8=N", Forgiven::UCI);
    // Standard chess: the king's two-square step is long algebraic; king takes rook is UCI 960.
    read(CASTLES, "e1g1", "O-O", Forgiven::LONG_ALGEBRAIC);
    read(CASTLES, "e1c1", "O-O-O", Forgiven::LONG_ALGEBRAIC);
    read(CASTLES, "e1h1", "O-O", Forgiven::UCI);
    // Chess960: king on b1, rooks on a1 and h1.
    let fen = "rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w KQkq - 0 1";
    read(fen, "b1a1", "O-O-O", Forgiven::UCI);
    read(fen, "b1h1", "O-O", Forgiven::UCI);
    read(fen, "O-O-O", "O-O-O", Forgiven::empty());
    // `b1c1` is a plain king step there.
    read(fen, "b1c1", "Kc1", Forgiven::LONG_ALGEBRAIC);
}

#[test]
fn promotion_forms() {
    for token in ["e8Q", "e8(Q)", "e8/Q", "e8=q", "e8q"] {
        read(
            PROMO,
            &format!("{token}+"),
            "e8=Q+",
            Forgiven::PROMOTION_FORM,
        );
    }
    read(
        PROMO,
        "e7e8Q+",
        "e8=Q+",
        Forgiven::PROMOTION_FORM | Forgiven::LONG_ALGEBRAIC,
    );
    read(PROMO, "e7-e8=Q+", "e8=Q+", Forgiven::LONG_ALGEBRAIC);
    read(PROMO, "exf8R", "exf8=R", Forgiven::PROMOTION_FORM);
    read(PROMO, "exf8=b", "exf8=B", Forgiven::PROMOTION_FORM);
    read(
        PROMO,
        "e8♕+",
        "e8=Q+",
        Forgiven::PROMOTION_FORM | Forgiven::FIGURINE,
    );
}

#[test]
fn check_suffix() {
    read(MATE, "Ra8", "Ra8#", Forgiven::CHECK_SUFFIX);
    read(MATE, "Ra8+", "Ra8#", Forgiven::CHECK_SUFFIX);
    read(MATE, "Ra8++", "Ra8#", Forgiven::CHECK_SUFFIX);
    read(MATE, "Ra7+", "Ra7", Forgiven::CHECK_SUFFIX);
    read(MATE, "Ra7#", "Ra7", Forgiven::CHECK_SUFFIX);
    read(
        "6k1/6pp/8/8/8/8/8/R5K1 w - - 0 1",
        "Ra8#",
        "Ra8+",
        Forgiven::CHECK_SUFFIX,
    );
    read(
        "6k1/6pp/8/8/8/8/8/R5K1 w - - 0 1",
        "Ra8+",
        "Ra8+",
        Forgiven::empty(),
    );
}

#[test]
fn null_moves() {
    for token in ["--", "Z0", "0000"] {
        let r = pos(START).resolve_san(token.as_bytes()).unwrap();
        assert_eq!(r.mv, Move::Null);
        assert_eq!(r.forgiven, Forgiven::NULL_MOVE);
        assert_eq!(r.san().to_string(), "--");
        assert_eq!(r.after.turn(), pgn::Color::Black);
    }
    assert!(matches!(
        error("4k3/8/8/8/8/8/8/4R1K1 b - - 0 1", "--"),
        SanError::Illegal {
            reason: IllegalReason::NullMoveInCheck,
            ..
        }
    ));
}

#[test]
fn lower_case_pieces() {
    read(START, "nf3", "Nf3", Forgiven::LOWERCASE_PIECE);
    read(
        START,
        "ng1f3",
        "Nf3",
        Forgiven::LOWERCASE_PIECE | Forgiven::OVER_DISAMBIGUATION,
    );
    // `nf3` never means the pawn move f3.
    let no_knight = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/R1BQKB1R w KQkq - 0 1";
    assert!(matches!(error(no_knight, "nf3"), SanError::Illegal { .. }));
    read(no_knight, "f3", "f3", Forgiven::empty());
    // `bxc3`: a pawn capture when one is legal, a bishop capture only otherwise.
    let both = "4k3/8/8/4b3/1p6/2N5/8/4K3 b - - 0 1";
    read(both, "bxc3", "bxc3", Forgiven::empty());
    read(both, "Bxc3+", "Bxc3+", Forgiven::empty());
    let bishop_only = "4k3/8/8/4b3/8/2N5/8/4K3 b - - 0 1";
    read(
        bishop_only,
        "bxc3",
        "Bxc3+",
        Forgiven::LOWERCASE_PIECE | Forgiven::CHECK_SUFFIX,
    );
    read(bishop_only, "bxc3+", "Bxc3+", Forgiven::LOWERCASE_PIECE);
    read(bishop_only, "bd6", "Bd6", Forgiven::LOWERCASE_PIECE);
    read(
        bishop_only,
        "be5d6",
        "Bd6",
        Forgiven::LOWERCASE_PIECE | Forgiven::OVER_DISAMBIGUATION,
    );
    read(
        bishop_only,
        "be5-d6",
        "Bd6",
        Forgiven::LOWERCASE_PIECE | Forgiven::OVER_DISAMBIGUATION | Forgiven::LONG_ALGEBRAIC,
    );
    // Neither reading fits: the error is the pawn reading's.
    assert!(matches!(
        error(bishop_only, "bxb3"),
        SanError::Illegal {
            reason: IllegalReason::NoPiece {
                role: Role::Pawn,
                ..
            },
            ..
        }
    ));
    // Two pawns could take: ambiguous, not a bishop move.
    let two_pawns = "4k3/8/8/4b3/1p1p4/2N5/8/4K3 b - - 0 1";
    read(two_pawns, "bxc3", "bxc3", Forgiven::empty());
    assert!(matches!(
        error(two_pawns, "xc3"),
        SanError::Ambiguous { .. }
    ));
    read(
        START,
        "ng1-f3",
        "Nf3",
        Forgiven::LOWERCASE_PIECE | Forgiven::OVER_DISAMBIGUATION | Forgiven::LONG_ALGEBRAIC,
    );
}

#[test]
fn figurines() {
    read(START, "♘f3", "Nf3", Forgiven::FIGURINE);
    read(START, "♞f3", "Nf3", Forgiven::FIGURINE);
    read(
        START,
        "♙e4",
        "e4",
        Forgiven::FIGURINE | Forgiven::PAWN_LETTER,
    );
    let after_e4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
    read(after_e4, "♞f6", "Nf6", Forgiven::FIGURINE);
    read(after_e4, "♘c6", "Nc6", Forgiven::FIGURINE);
    read(
        SCANDI,
        "♕xg4",
        "Qg4",
        Forgiven::FIGURINE | Forgiven::SUPERFLUOUS_CAPTURE,
    );
}

#[test]
fn disambiguation_in_writing() {
    // A pinned knight does not count: `Ne2`, not `Nge2`.
    let pinned = "4k3/8/8/b7/8/2N5/8/4K1N1 w - - 0 1";
    read(pinned, "Ne2", "Ne2", Forgiven::empty());
    read(pinned, "Nge2", "Ne2", Forgiven::OVER_DISAMBIGUATION);
    assert!(matches!(
        error(pinned, "Nce2"),
        SanError::Illegal {
            reason: IllegalReason::KingInCheck {
                role: Role::Knight,
                to: Square::E2,
                ..
            },
            ..
        }
    ));
    // Without the pin both knights reach e2.
    let free = "4k3/8/8/8/8/2N5/8/4K1N1 w - - 0 1";
    read(free, "Nce2", "Nce2", Forgiven::empty());
    read(free, "Nge2", "Nge2", Forgiven::empty());
    match error(free, "Ne2") {
        SanError::Ambiguous { candidates, .. } => assert_eq!(candidates, vec!["Nge2", "Nce2"]),
        e => panic!("{e}"),
    }
    // Rooks on one file: the rank tells them apart.
    let rooks = "4k3/8/8/R7/8/8/8/R3K3 w - - 0 1";
    read(rooks, "R1a3", "R1a3", Forgiven::empty());
    read(rooks, "R5a3", "R5a3", Forgiven::empty());
    assert!(matches!(error(rooks, "Raa3"), SanError::Ambiguous { .. }));
    assert!(matches!(error(rooks, "Ra3"), SanError::Ambiguous { .. }));
}

#[test]
fn disambiguation_needing_both_coordinates() {
    // Queens on a1, a3 and c1 all reach b2: a1 shares the file with a3 and the rank with c1.
    let fen = "4k3/8/8/8/8/Q7/8/Q1Q1K3 w - - 0 1";
    read(fen, "Qa1b2", "Qa1b2", Forgiven::empty());
    read(fen, "Q3b2", "Q3b2", Forgiven::empty());
    read(fen, "Qcb2", "Qcb2", Forgiven::empty());
    read(fen, "Qc1b2", "Qcb2", Forgiven::OVER_DISAMBIGUATION);
    assert!(matches!(error(fen, "Qab2"), SanError::Ambiguous { .. }));
    assert!(matches!(error(fen, "Q1b2"), SanError::Ambiguous { .. }));
}

#[test]
fn errors_say_what_is_wrong() {
    for token in [
        "",
        "e9",
        "Nf",
        "xyz",
        "e8=P",
        "Ng1-",
        "N-f3",
        "e4!",
        "é4",
        "Qa1b2c3d4e5f6g7h8a1b2c3",
        "e8(Q",
    ] {
        assert!(
            matches!(
                pos(START).resolve_san(token.as_bytes()),
                Err(SanError::Unreadable { .. })
            ),
            "{token:?} should be unreadable"
        );
    }
    assert!(matches!(
        error(START, "e5"),
        SanError::Illegal {
            reason: IllegalReason::NoPiece {
                role: Role::Pawn,
                to: Square::E5,
                ..
            },
            ..
        }
    ));
    assert!(matches!(
        error(START, "O-O"),
        SanError::Illegal {
            reason: IllegalReason::Castling(_),
            ..
        }
    ));
    assert!(matches!(
        error(PROMO, "e8"),
        SanError::Illegal {
            reason: IllegalReason::MissingPromotion,
            ..
        }
    ));
    assert!(matches!(
        error(START, "e4=Q"),
        SanError::Illegal {
            reason: IllegalReason::BadPromotion,
            ..
        }
    ));
    assert!(matches!(
        error(START, "e3e4"),
        SanError::Illegal {
            reason: IllegalReason::EmptyOrigin { .. },
            ..
        }
    ));
    let e = error(START, "Nd2");
    assert_eq!(
        e.to_string(),
        "illegal move `Nd2`: no white knight can move to d2"
    );
    let e = error("4k3/8/8/8/8/2N5/8/4K1N1 w - - 0 1", "Ne2");
    assert_eq!(e.to_string(), "ambiguous move `Ne2`: could be Nge2 or Nce2");
    let e = pos(START).resolve_san(b"e9").unwrap_err();
    assert!(e.to_string().starts_with("`e9` is not a move"), "{e}");
}

#[test]
fn parsed_token_exposes_san() {
    let t = SanToken::from_ascii(b"Nbd2+").unwrap();
    assert_eq!(t.san().map(|s| s.to_string()), Some("Nbd2".to_string()));
    assert_eq!(t.suffix, Some(pgn::san::Suffix::Check));
    assert!(SanToken::from_ascii(b"e2e4").unwrap().san().is_none());
    let san: pgn::san::San = "exd8=Q".parse().unwrap();
    assert_eq!(san.to_string(), "exd8=Q");
    assert_eq!(
        san.to_move(&pos(PROMO)).unwrap().promotion(),
        Some(Role::Queen)
    );
}

/// Every legal move of every position reached within a few plies of the test positions:
/// written SAN reads back as the same move with nothing forgiven, and UCI likewise.
#[test]
fn san_and_uci_round_trip_on_every_legal_move() {
    let roots = [
        (START, CastlingMode::Standard, 3),
        (
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            CastlingMode::Standard,
            2,
        ),
        (
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            CastlingMode::Standard,
            4,
        ),
        (
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            CastlingMode::Standard,
            3,
        ),
        (
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            CastlingMode::Standard,
            2,
        ),
        (
            "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
            CastlingMode::Standard,
            2,
        ),
        (
            "4k3/8/8/Q7/8/Q1Q5/8/Q1Q1K3 w - - 0 1",
            CastlingMode::Standard,
            2,
        ),
        (
            "3k4/3p4/8/K1P4r/8/8/8/8 b - - 0 1",
            CastlingMode::Standard,
            4,
        ),
        (
            "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
            CastlingMode::Chess960,
            2,
        ),
        (
            "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w KQkq - 0 1",
            CastlingMode::Chess960,
            3,
        ),
    ];
    let mut checked = 0;
    for (fen, mode, depth) in roots {
        let root = Position::from_fen_with_mode(fen, mode).unwrap();
        walk(&root, depth, &mut checked);
    }
    assert!(checked > 50_000, "{checked}");
}

fn walk(pos: &Position, depth: u32, checked: &mut usize) {
    for m in pos.legal_moves() {
        let san = pos.san(&m).to_string();
        let r = pos
            .resolve_san(san.as_bytes())
            .unwrap_or_else(|e| panic!("{san} in {pos:?}: {e}"));
        assert_eq!(r.mv, m, "{san} in {pos:?}");
        assert!(r.forgiven.is_empty(), "{san} in {pos:?}: {:?}", r.forgiven);
        assert_eq!(r.san().to_string(), san);
        let uci = Uci::from_move(&m, pos.castling_mode());
        let back = Uci::from_ascii(uci.to_string().as_bytes())
            .unwrap()
            .to_move(pos);
        assert_eq!(back, Ok(m), "{uci} in {pos:?}");
        let after = pos.play(&m);
        let reparsed = Position::from_fen_with_mode(&after.to_fen(), pos.castling_mode()).unwrap();
        assert_eq!(reparsed, after, "{san} in {pos:?}");
        assert_eq!(
            reparsed.zobrist_hash(),
            after.zobrist_hash(),
            "{san} in {pos:?}"
        );
        *checked += 1;
        if depth > 1 {
            walk(&after, depth - 1, checked);
        }
    }
}

#[test]
fn castling_written_as_a_king_move() {
    let both = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    read(both, "Kg1", "O-O", Forgiven::KING_MOVE_CASTLING);
    read(both, "Kc1", "O-O-O", Forgiven::KING_MOVE_CASTLING);
    let black = "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1";
    read(black, "Kg8", "O-O", Forgiven::KING_MOVE_CASTLING);
    read(black, "Kc8", "O-O-O", Forgiven::KING_MOVE_CASTLING);
    // The king taking its own rook, as Chess960 programs write castling.
    read(both, "Kxh1", "O-O", Forgiven::KING_MOVE_CASTLING);
    read(both, "Ka1", "O-O-O", Forgiven::KING_MOVE_CASTLING);
    // Without the right, or through check, it stays an illegal move.
    assert!(matches!(
        error("r3k2r/8/8/8/8/8/8/R3K2R w Qkq - 0 1", "Kg1"),
        SanError::Illegal { .. }
    ));
    assert!(matches!(
        error("r3k2r/8/8/8/8/8/5r2/R3K2R w KQkq - 0 1", "Kg1"),
        SanError::Illegal { .. }
    ));
    // A king that can step there steps there.
    read(
        "4k3/8/8/8/8/8/8/4K2R w K - 0 1",
        "Kf1",
        "Kf1",
        Forgiven::empty(),
    );
}

/// Old files mark en passant captures with `e.p.` or `ep` before any check sign (the
/// lexer keeps a glued mark with its move). Read with a warning, written as SAN writes the capture.
#[test]
fn en_passant_mark() {
    for token in ["exd6 e.p.", "exd6e.p.", "exd6ep"] {
        read(EP, token, "exd6", Forgiven::EN_PASSANT_MARK);
    }
    read(
        EP,
        "exd6 e.p.+",
        "exd6",
        Forgiven::EN_PASSANT_MARK | Forgiven::CHECK_SUFFIX,
    );
}

/// `Forgiven` promises that each flag is a departure from canonical SAN, so that readers
/// may take a token read with nothing forgiven for the move's SAN (the Arrow rows do).
/// Every spelling of every legal move of positions with promotions, castling, en passant,
/// checks, mates and pieces that need disambiguating is read: none but the canonical
/// one is read with nothing forgiven.
#[test]
fn only_the_canonical_token_is_read_with_nothing_forgiven() {
    let roots = [
        START,
        CASTLES,
        PROMO,
        MATE,
        EP,
        "4k3/8/8/Q7/8/Q1Q5/8/Q1Q1K3 w - - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        "1k6/8/8/8/8/8/3N1N2/R3K2R w KQ - 0 1",
        "7k/5Q2/6K1/8/8/8/8/8 w - - 0 1",
    ];
    let (mut spellings, mut canonicals) = (0, 0);
    for fen in roots {
        let root = pos(fen);
        let mut positions = vec![root];
        positions.extend(root.legal_moves().iter().map(|m| root.play(m)));
        for p in &positions {
            for m in p.legal_moves() {
                for token in spellings_of(p, &m) {
                    spellings += 1;
                    if let Ok(r) = p.resolve_san(token.as_bytes()) {
                        if r.forgiven.is_empty() {
                            let canonical = p.san(&r.mv).to_string();
                            assert_eq!(token, canonical, "{token} in {p:?}");
                            canonicals += 1;
                        }
                    }
                }
            }
        }
    }
    assert!(spellings > 100_000, "{spellings}");
    assert!(canonicals > 1_000, "{canonicals}");
}

/// Ways files write a move: piece letters in both cases, every part of the origin square,
/// capture marks, promotion forms, check signs, castling with zeros.
fn spellings_of(p: &Position, m: &Move) -> Vec<String> {
    let (Some(from), Some(to), Some(role)) = (m.from(), m.to(), m.role()) else {
        return Vec::new();
    };
    let letters: Vec<String> = match role {
        Role::Pawn => vec![String::new(), "P".into()],
        _ => vec![role.upper_char().to_string(), role.char().to_string()],
    };
    let (file, rank) = (
        from.file().char().to_string(),
        from.rank().char().to_string(),
    );
    let origins = [
        String::new(),
        file.clone(),
        rank.clone(),
        format!("{file}{rank}"),
    ];
    let promotions: Vec<String> = match m.promotion() {
        Some(r) => {
            let (u, l) = (r.upper_char(), r.char());
            vec![
                format!("={u}"),
                format!("{u}"),
                format!("={l}"),
                format!("({u})"),
            ]
        }
        None => vec![String::new()],
    };
    let mut out = Vec::new();
    for letter in &letters {
        for origin in &origins {
            for mark in ["", "x", "-"] {
                for promotion in &promotions {
                    for sign in ["", "+", "#", "++"] {
                        out.push(format!("{letter}{origin}{mark}{to}{promotion}{sign}"));
                    }
                }
            }
        }
    }
    if m.is_castle() {
        for castle in ["O-O", "O-O-O", "0-0", "0-0-0", "o-o"] {
            for sign in ["", "+", "#"] {
                out.push(format!("{castle}{sign}"));
            }
        }
    }
    let uci = Uci::from_move(m, p.castling_mode()).to_string();
    out.push(uci);
    out
}
