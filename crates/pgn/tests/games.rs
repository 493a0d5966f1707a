//! Chess games through the notation layer: the rules seam ([`pgn::ChessRules`]), reading and
//! writing games, the examples of the project's seed documents, illegal moves, set-up tags,
//! variants, and the validator.
#![allow(clippy::unwrap_used)]

use notation::{MoveContext, Rules, Tags};
use pgn::Forgiven;
use pgn::{
    ChessRules, DiagnosticKind, GameTree, LineId, Player, Position, ReadGame, Severity,
    ValidatingReader, read_games, to_export_string,
};

fn one(pgn: &str) -> ReadGame {
    let mut games = read_games(pgn.as_bytes());
    assert_eq!(games.len(), 1, "{pgn}");
    games.remove(0)
}

fn export(game: &GameTree) -> String {
    to_export_string(game).unwrap()
}

fn movetext(game: &GameTree) -> String {
    let text = export(game);
    let start = text.find("\n\n").map_or(0, |i| i + 2);
    text[start..].trim_end().to_owned()
}

fn sans(game: &GameTree, line: LineId) -> Vec<String> {
    // Replays the line from the start to write each move.
    let mut text = Vec::new();
    let start = ChessRules.start_position(&game.tags).unwrap().position;
    let mut pos = start;
    for node in game.moves(line) {
        text.push(pos.san(&node.mv).to_string());
        pos = pos.play(&node.mv);
    }
    text
}

/// Warnings and errors other than the layout ones of a bare movetext.
fn notable(game: &ReadGame) -> Vec<String> {
    game.diagnostics
        .iter()
        .filter(|d| {
            !matches!(
                d.kind,
                DiagnosticKind::NoTags | DiagnosticKind::MissingResult { .. }
            )
        })
        .map(ToString::to_string)
        .collect()
}

/// Reads the game back from its export and checks that nothing changed.
fn assert_round_trip(game: &ReadGame) {
    let exported = export(&game.game);
    let again = one(&exported);
    let mut a = game.game.clone();
    let mut b = again.game.clone();
    a.tags = Tags::new();
    b.tags = Tags::new();
    assert_eq!(a, b, "{exported}");
    assert_eq!(export(&again.game), exported);
}

#[test]
fn rules_seam() {
    let pos = Position::new();
    assert_eq!(ChessRules.turn(&pos), Player::First);
    assert_eq!(ChessRules.move_number(&pos), 1);
    let (mv, forgiven) = ChessRules
        .read_move(&pos, b"Ng1f3", MoveContext::default())
        .unwrap();
    assert_eq!(forgiven, Forgiven::OVER_DISAMBIGUATION);
    assert_eq!(
        forgiven.to_string(),
        "origin square given more fully than needed"
    );
    let mut out = String::new();
    ChessRules.write_move(&pos, &mv, &mut out);
    assert_eq!(out, "Nf3");
    let mut after = pos;
    ChessRules.play(&mut after, &mv);
    assert_eq!(ChessRules.turn(&after), Player::Second);
    assert_eq!(ChessRules.move_number(&after), 1);

    // Check and mate signs are written.
    let pos = Position::from_fen("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1").unwrap();
    let mate = pos.resolve_san(b"Ra8").unwrap();
    assert_eq!(mate.forgiven, Forgiven::CHECK_SUFFIX);
    out.clear();
    ChessRules.write_move(&pos, &mate.mv, &mut out);
    assert_eq!(out, "Ra8#");
    let pos = Position::from_fen("6k1/6pp/8/8/8/8/8/R5K1 w - - 0 1").unwrap();
    let check = pos.resolve_san(b"Ra8+").unwrap();
    out.clear();
    ChessRules.write_move(&pos, &check.mv, &mut out);
    assert_eq!(out, "Ra8+");
}

/// The seed document's disambiguation example: knights on c3 and g1, e2 empty. Both can go
/// to e2 (`Nce2`, `Nge2`), unless the c3 knight is pinned by a bishop on b4 against the king
/// on e1: then only one can, and the move is `Ne2`.
#[test]
fn seed_disambiguation_example() {
    let free = Position::from_fen("4k3/8/8/8/8/2N5/8/K5N1 w - - 0 1").unwrap();
    let mut writes: Vec<String> = free
        .legal_moves()
        .iter()
        .filter(|m| m.to() == Some(pgn::Square::E2))
        .map(|m| free.san(m).to_string())
        .collect();
    writes.sort();
    assert_eq!(writes, ["Nce2", "Nge2"]);

    let pinned = Position::from_fen("4k3/8/8/8/1b6/2N5/8/4K1N1 w - - 0 1").unwrap();
    let moves: Vec<String> = pinned
        .legal_moves()
        .iter()
        .filter(|m| m.to() == Some(pgn::Square::E2) && m.role() == Some(pgn::Role::Knight))
        .map(|m| pinned.san(m).to_string())
        .collect();
    assert_eq!(moves, ["Ne2"]);
    let r = pinned.resolve_san(b"Ne2").unwrap();
    assert_eq!(r.mv.from(), Some(pgn::Square::G1));
    assert!(r.forgiven.is_empty());
    assert_eq!(
        pinned.resolve_san(b"Nge2").unwrap().forgiven,
        Forgiven::OVER_DISAMBIGUATION
    );
    assert_eq!(
        pinned.resolve_san(b"Nce2").unwrap_err().to_string(),
        "illegal move `Nce2`: a knight could reach e2, but that would leave the white king in \
         check"
    );

    // Through the reader and the writer.
    let game = one(
        "[SetUp \"1\"]\n[FEN \"4k3/8/8/8/1b6/2N5/8/4K1N1 w - - 0 1\"]\n\n1. Nge2 Bxc3+ 2. Nxc3 *\n",
    );
    assert_eq!(
        notable(&game),
        ["4:4: warning: Nge2: origin square given more fully than needed (game 1)"]
    );
    assert_eq!(movetext(&game.game), "1. Ne2 Bxc3+ 2. Nxc3 *");
}

/// The seed document's first example: a game with comments after moves.
#[test]
fn seed_commented_game() {
    let text = "1.e4 {Белая пешка пошла с e2 на e4} 1...c5 {Чёрная пешка пошла с e7 на e5} 2.
Nf3 {Белый конь пошёл с g1 на f3} 2...Nc6 3.d4 cxd4 {Чёрная пешка с c5 забрала
белую пешку на d4} 4.Nxd4 g6 5.Nc3 Bg7 {Чёрный слон пошёл с f8 на g7} 6.Be3
Nf6 7.Bc4 Qa5 8.O-O {Белые произвели короткую рокировку} 8...O-O 9.Bb3 d6 10.
h3 Bd7 11.Re1 Rac8 {На c8 претендуют сразу две чёрные ладьи, поэтому
запускается механизм устранения противоречий. В итоге пошла ладья с a8 на c8}
12.Nd5 Rfe8 13.Nxe7+ {Конь с d5 забрал пешку на e7 с шахом} 13...Nxe7";
    let game = one(text);
    assert!(notable(&game).is_empty(), "{:?}", game.diagnostics);
    assert_eq!(game.game.mainline().count(), 26);
    let main = sans(&game.game, LineId::MAIN);
    assert_eq!(main[21], "Rac8");
    assert_eq!(main[23], "Rfe8");
    assert_eq!(main[24], "Nxe7+");
    let nodes: Vec<_> = game.game.mainline().collect();
    assert_eq!(
        nodes[21].comments,
        [
            "На c8 претендуют сразу две чёрные ладьи, поэтому запускается механизм устранения \
          противоречий. В итоге пошла ладья с a8 на c8"
        ]
    );
    assert_round_trip(&game);
}

/// The seed document's variation example: two alternatives to the first move, each with a
/// comment before it, and a variation with a variation inside.
#[test]
fn seed_variation_example() {
    let text = "1.e4 ({Популярно ещё такое начало} 1.d4) ({и такое} 1.Nf3) 1...Nf6 2.e5 Nd5 3.
d4 (3.c4 Nb6 4.Nc3 d6 5.Nf3 (5.exd6 cxd6)) 3...d6 4.c4 Nb6 5.f4 dxe5 6.fxe5
Nc6";
    let game = one(text);
    assert!(notable(&game).is_empty(), "{:?}", game.diagnostics);
    let g = &game.game;
    assert_eq!(
        sans(g, LineId::MAIN),
        [
            "e4", "Nf6", "e5", "Nd5", "d4", "d6", "c4", "Nb6", "f4", "dxe5", "fxe5", "Nc6"
        ]
    );
    let first: Vec<_> = g.mainline().collect();
    assert_eq!(first[0].variations.len(), 2);
    let d4 = g.line(first[0].variations[0]);
    assert_eq!(d4.comments, ["Популярно ещё такое начало"]);
    assert_eq!(g.line(first[0].variations[1]).comments, ["и такое"]);
    let c4 = first[4].variations[0];
    let c4_moves: Vec<_> = g.moves(c4).collect();
    assert_eq!(c4_moves.len(), 5);
    assert_eq!(c4_moves[4].variations.len(), 1);
    assert_eq!(g.line_count(), 5);
    assert_eq!(
        movetext(g),
        "1. e4 ( {Популярно ещё такое начало} 1. d4 ) ( {и такое} 1. Nf3 ) 1... Nf6 2.\n\
         e5 Nd5 3. d4 ( 3. c4 Nb6 4. Nc3 d6 5. Nf3 ( 5. exd6 cxd6 ) ) 3... d6 4. c4 Nb6\n\
         5. f4 dxe5 6. fxe5 Nc6 *"
    );
    assert_round_trip(&game);
}

/// An illegal move: the moves before it are kept, the rest of the movetext is kept as text,
/// the error names the token, its line and column, and the position; writing the game back
/// loses nothing.
#[test]
fn illegal_move_keeps_the_rest_as_text() {
    let text = "[Event \"Illegal\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 {Spanish} 3... a6 4. Bxc6\n\
                (4. Ba4 Nf6) 4... dxc6 5. Ke3 Nf6 (5... f6 6. d4)\n6. O-O {castles} 1-0\n";
    let game = one(text);
    let errors: Vec<_> = game
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .collect();
    assert_eq!(errors.len(), 1);
    let error = errors[0];
    assert_eq!((error.location.line, error.location.column), (4, 27));
    assert_eq!(
        error.to_string(),
        "4:27: error: Ke3: illegal move: no white king can move to e3 (position \
         r1bqkbnr/1pp2ppp/p1p5/4p3/4P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 0 5) (game 1)"
    );
    assert!(matches!(&error.kind, DiagnosticKind::BadMove { token, .. } if token == "Ke3"));
    let g = &game.game;
    assert_eq!(g.mainline().count(), 8);
    assert_eq!(g.node_count(), 10);
    let tail = g.tail.as_ref().unwrap();
    assert_eq!(tail.line, LineId::MAIN);
    assert_eq!(tail.text, "5. Ke3 Nf6 (5... f6 6. d4)\n6. O-O {castles}");
    assert_eq!(g.result, pgn::GameResult::FirstWins);
    assert!(game.raw.is_some());

    // Written back: every token is there, the moves in canonical SAN, the rest as it was.
    let exported = export(g);
    assert!(
        exported.ends_with(
            "1. e4 e5 2. Nf3 Nc6 3. Bb5 {Spanish} 3... a6 4. Bxc6 ( 4. Ba4 Nf6 ) 4... dxc6\n\
             5. Ke3 Nf6 (5... f6 6. d4) 6. O-O {castles} 1-0\n\n"
        ),
        "{exported}"
    );
    let again = one(&exported);
    assert_eq!(
        again.game.tail,
        g.tail.clone().map(|mut t| {
            t.text = t.text.replace('\n', " ");
            t
        })
    );
    assert_eq!(again.diagnostics.len(), 1);
    assert_eq!(export(&again.game), exported);

    // The validator reports the same error.
    let checked: Vec<_> = ValidatingReader::new(text.as_bytes())
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(checked[0].diagnostics, game.diagnostics);
    assert_eq!(checked[0].plies, 10);
}

#[test]
fn illegal_move_in_a_variation() {
    let game = one("1. e4 e5 (1... c5 2. Nf3 Qxf3 3. d4) 2. Nf3 *");
    let g = &game.game;
    let tail = g.tail.as_ref().unwrap();
    assert_ne!(tail.line, LineId::MAIN);
    assert_eq!(tail.text, "Qxf3 3. d4) 2. Nf3");
    assert_eq!(g.node_count(), 4);
    assert_eq!(
        movetext(g),
        "1. e4 e5 ( 1... c5 2. Nf3 Qxf3 3. d4) 2. Nf3 *"
    );
    let again = one(&movetext(g));
    assert_eq!(again.game.tail, g.tail);
    assert_eq!(movetext(&again.game), movetext(g));
}

#[test]
fn variant_games_are_played_by_their_rules() {
    for (variant, moves, fen) in [
        (
            "Atomic",
            "1. Nf3 d5 2. Ne5 Qd6 3. Nxf7# 1-0",
            "rnb4r/ppp1p1pp/3q4/3p4/8/8/PPPPPPPP/RNBQKB1R b KQ - 0 3",
        ),
        (
            "Crazyhouse",
            "1. e4 d5 2. exd5 Qxd5 3. Nc3 Qa5 4. P@b4 Qxb4 *",
            "rnb1kbnr/ppp1pppp/8/8/1q6/2N5/PPPP1PPP/R1BQKBNR[pp] w KQkq - 0 5",
        ),
        (
            "Antichess",
            "1. e3 b5 2. Bxb5 Bb7 3. Bxd7 Qxd7 *",
            "rn2kbnr/pbpqpppp/8/8/8/4P3/PPPP1PPP/RNBQK1NR w - - 0 4",
        ),
        (
            "Three-check",
            "1. e4 e5 2. Bc4 Nc6 3. Bxf7+ Kxf7 *",
            "r1bq1bnr/pppp1kpp/2n5/4p3/4P3/8/PPPP1PPP/RNBQK1NR w KQ - 0 4 +1+0",
        ),
        (
            "King of the Hill",
            "1. e4 d5 2. Ke2 dxe4 3. Ke3 Kd7 4. Kxe4# 1-0",
            "rnbq1bnr/pppkpppp/8/8/4K3/8/PPPP1PPP/RNBQ1BNR b - - 0 4",
        ),
        (
            "Horde",
            "1. e5 d6 2. exd6 cxd6 *",
            "rnbqkbnr/pp2pppp/3p4/1PP2PP1/PPPP1PPP/PPPPPPPP/PPPPPPPP/PPPPPPPP w kq - 0 3",
        ),
        (
            "Racing Kings",
            "1. Kg3 Ka3 *",
            "8/8/8/8/8/k5K1/1rbnNBR1/qrbnNBRQ w - - 2 2",
        ),
    ] {
        let pgn = format!("[Variant \"{variant}\"]\n\n{moves}\n");
        let game = one(&pgn);
        assert!(
            game.diagnostics.is_empty(),
            "{variant}: {:?}",
            game.diagnostics
        );
        assert!(game.game.tail.is_none(), "{variant}");
        assert_eq!(movetext(&game.game), moves, "{variant}");
        let ruleset = pgn::Ruleset::from_name(variant).unwrap();
        let mut pos = pgn::Position::start(ruleset);
        for node in game.game.mainline() {
            pos.play_mut(&node.mv);
        }
        assert_eq!(pos.to_fen(), fen, "{variant}");
        let checked: Vec<_> = ValidatingReader::new(pgn.as_bytes())
            .collect::<Result<_, _>>()
            .unwrap();
        assert_eq!(checked[0].diagnostics, game.diagnostics);
    }
}

#[test]
fn unknown_variants_are_kept_as_text() {
    let moves = "1. P-7f P-3d *";
    let pgn = format!("[Variant \"Shogi\"]\n\n{moves}\n");
    let game = one(&pgn);
    assert_eq!(game.game.node_count(), 0);
    assert_eq!(
        game.game.tail.as_ref().map(|t| t.text.as_str()),
        Some(&moves[..moves.len() - 2])
    );
    let unsupported: Vec<_> = game
        .diagnostics
        .iter()
        .filter(|d| matches!(d.kind, DiagnosticKind::Unsupported { .. }))
        .map(ToString::to_string)
        .collect();
    assert_eq!(
        unsupported,
        ["3:1: warning: variant Shogi is not supported; the game is kept as text (game 1)"]
    );
    assert_eq!(movetext(&game.game), moves);
    let checked: Vec<_> = ValidatingReader::new(pgn.as_bytes())
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(checked[0].diagnostics, game.diagnostics);
}

#[test]
fn set_up_tags() {
    // A FEN without SetUp: used, with a warning at the first movetext token.
    let game =
        one("[Event \"?\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 b - - 0 39\"]\n\n39... Kd7 40. e4 *\n");
    assert_eq!(
        notable(&game),
        ["4:1: warning: set-up: FEN tag without SetUp \"1\"; the FEN is used (game 1)"]
    );
    assert_eq!(movetext(&game.game), "39... Kd7 40. e4 *");

    // SetUp "1" without a FEN: the initial position.
    let game = one("[SetUp \"1\"]\n\n1. e4 e5 *\n");
    assert_eq!(game.game.mainline().count(), 2);
    assert_eq!(
        notable(&game),
        [
            "3:1: warning: set-up: SetUp \"1\" without a FEN tag; the game starts from the \
             initial position (game 1)"
        ]
    );

    // An invalid FEN: an error; the movetext is kept as text.
    let game = one("[SetUp \"1\"]\n[FEN \"8/8/8/8/8/8/8/8 w - - 0 1\"]\n\n1. e4 *\n");
    assert_eq!(
        notable(&game),
        [
            "4:1: error: cannot set up the start position: FEN \"8/8/8/8/8/8/8/8 w - - 0 1\": \
             impossible position: white has no king (game 1)"
        ]
    );
    assert_eq!(
        game.game.tail.as_ref().map(|t| t.text.as_str()),
        Some("1. e4")
    );
    assert_eq!(movetext(&game.game), "1. e4 *");

    // A lenient FEN: each departure is a warning.
    let game = one("[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/4P3/R3K3 w KQ\"]\n\n1. O-O-O *\n");
    assert_eq!(
        notable(&game),
        [
            "4:1: warning: set-up: FEN has 3 fields of 6; missing: en passant, half-move clock, \
             full-move number (taken as - - 0 1) (game 1)",
            "4:1: warning: set-up: FEN: castling right `K` is impossible: there is no rook on \
             that side of the king; dropped (game 1)",
        ]
    );
    assert_eq!(movetext(&game.game), "1. O-O-O *");
}

#[test]
fn chess960_castling() {
    // Shredder-FEN and X-FEN castling rights in Chess960 games.
    for fen in [
        "rbnnqkbr/pppppppp/8/8/8/8/PPPPPPPP/RBNNQKBR w HAha - 0 1",
        "rbnnqkbr/pppppppp/8/8/8/8/PPPPPPPP/RBNNQKBR w KQkq - 0 1",
    ] {
        let game = one(&format!(
            "[Variant \"Chess960\"]\n[SetUp \"1\"]\n[FEN \"{fen}\"]\n\n\
             1. f4 f5 2. Bf2 Bf7 3. O-O O-O *\n"
        ));
        assert!(notable(&game).is_empty(), "{:?}", game.diagnostics);
        assert_eq!(game.game.mainline().count(), 6);
        assert_round_trip(&game);
    }
    // A FEN whose castling rights only make sense in Chess960, without a Variant tag: read
    // as Chess960, with a warning.
    let game = one(
        "[SetUp \"1\"]\n[FEN \"rbnnqkbr/pppppppp/8/8/8/8/PPPPPPPP/RBNNQKBR w HAha - 0 1\"]\n\n\
         1. f4 f5 2. Bf2 Bf7 3. O-O O-O *\n",
    );
    assert_eq!(game.game.mainline().count(), 6);
    assert_eq!(
        notable(&game),
        [
            "4:1: warning: set-up: the FEN's castling rights only make sense in Chess960, which \
             no Variant tag says; castling is read as in Chess960 (game 1)"
        ]
    );
    assert_round_trip(&game);
}

#[test]
fn comments_with_commands_round_trip_through_the_tree() {
    let game = one(
        "[Event \"?\"]\n\n1. e4 { [%eval 0.17] [%clk 0:03:00] } 1... e5 {[%csl Ga4,Rb5][%cal \
         Ge2e4]  see [%unknown x y]} *\n",
    );
    let nodes: Vec<_> = game.game.mainline().collect();
    for node in &nodes {
        for comment in &node.comments {
            let segments = pgn::commands::parse(comment);
            assert_eq!(pgn::commands::write(&segments), *comment);
        }
    }
    let first: Vec<_> = pgn::commands::commands(&nodes[0].comments[0]).collect();
    assert_eq!(first.len(), 2);
    assert_eq!(first[1].to_string(), "[%clk 0:03:00]");
    let second: Vec<_> = pgn::commands::commands(&nodes[1].comments[0]).collect();
    assert_eq!(second.len(), 3);
    assert!(matches!(second[2], pgn::commands::Command::Other { .. }));
    let text = movetext(&game.game).replace('\n', " ");
    assert!(
        text.contains("{[%csl Ga4,Rb5][%cal Ge2e4] see [%unknown x y]}"),
        "{text}"
    );
}

#[test]
fn move_numbers_and_turns() {
    // A wrong move number is a warning; the game is numbered from the position.
    let game = one("[Event \"?\"]\n\n1. e4 e5 3. Nf3 *\n");
    assert_eq!(
        notable(&game),
        ["3:13: warning: move number 3 where 2 was expected (game 1)"]
    );
    assert_eq!(movetext(&game.game), "1. e4 e5 2. Nf3 *");
}

#[test]
fn a_passed_over_game_has_its_moves_neither_played_nor_checked() {
    let pgn = b"[White \"A\"]\n\n1. e4 e5 2. Ke3 *\n\n[White \"B\"]\n\n1. e4 e5 2. Ke3 *\n";
    let wanted = |tags: &notation::RawTags| tags.get("White").as_deref() == Some("B");
    let reader = notation::Reader::new(&pgn[..], notation::Dialect::PGN, Default::default());
    let mut games =
        notation::GameReader::from_reader(&ChessRules, reader).movetext_only_if(&wanted);
    let first = games.read_game().unwrap().unwrap();
    assert!(first.passed_over && first.diagnostics.is_empty());
    let second = games.read_game().unwrap().unwrap();
    assert!(!second.passed_over);
    assert_eq!(second.diagnostics[0].severity, Severity::Error);
    assert!(games.read_game().unwrap().is_none());
}

/// What each variant refuses, with the reason: moves legal in chess but not by the variant
/// (a non-capture where a capture is compulsory, a check in racing kings, a king capture in
/// atomic), moves after the variant ended the game, and a piece named from the wrong square.
#[test]
fn variant_moves_are_refused_by_the_variants_rules() {
    for (tags, moves, message) in [
        (
            "[Variant \"Antichess\"]",
            "1. e3 b5 2. a3 *",
            "a capture is possible, and captures are compulsory",
        ),
        (
            "[Variant \"Racing Kings\"]",
            "1. Nc3 *",
            "no white knight can move to c3",
        ),
        (
            "[Variant \"Atomic\"]\n[FEN \"4k3/8/8/8/8/8/3p4/4K3 w - - 0 1\"]",
            "1. Kxd2 *",
            "no white king can move to d2",
        ),
        (
            "[Variant \"King of the Hill\"]\n[FEN \"4k3/8/8/8/8/8/8/4K3 w - - 0 1\"]",
            "1. Ke2 Kd7 2. Ke3 Kd6 3. Kd4# Ke6 *",
            "the game is over (white wins: a king reached the hill)",
        ),
        (
            "[Variant \"Three-check\"]\n[FEN \"4k3/8/8/8/8/8/8/R3K3 w - - 0 1 +2+0\"]",
            "1. Ra8# Kd7 *",
            "the game is over (white wins: third check)",
        ),
        (
            "[Variant \"Racing Kings\"]\n[FEN \"8/6K1/k7/8/8/8/8/8 w - - 0 1\"]",
            "1. Kg8# Kb7 *",
            "the game is over (white wins: a king reached the eighth rank)",
        ),
        (
            "[Variant \"Crazyhouse\"]\n[FEN \"4k3/8/8/8/8/4K3/8/8 w - - 0 1\"]",
            "1. Ke1-d4 *",
            "no white king can move to d4",
        ),
        (
            "[Variant \"Crazyhouse\"]",
            "1. N@e4 *",
            "no white knight in hand can be dropped on e4",
        ),
    ] {
        let pgn = format!("{tags}\n[SetUp \"1\"]\n\n{moves}\n");
        let game = one(&pgn);
        let errors: Vec<String> = game
            .diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .map(ToString::to_string)
            .collect();
        assert_eq!(errors.len(), 1, "{moves}: {errors:?}");
        assert!(errors[0].contains(message), "{moves}: {}", errors[0]);
        let checked: Vec<_> = ValidatingReader::new(pgn.as_bytes())
            .collect::<Result<_, _>>()
            .unwrap();
        assert_eq!(checked[0].diagnostics, game.diagnostics, "{moves}");
    }
}
