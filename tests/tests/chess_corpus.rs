//! The project's chess games (`corpus/pgn/`) read with the chess rules: snapshots of the
//! export format and of the diagnostics, round trips, the PGN standard's model game byte for
//! byte, the lenient file's warnings, the generated files kept up to date, and the fast
//! validator against the tree builder.
#![allow(clippy::unwrap_used, missing_docs)]

use std::path::Path;

use pgn::Forgiven;
use pgn::{
    DiagnosticKind, GameTree, ReadGame, ReadOptions, Severity, ValidatingReader, read_games,
    to_export_string,
};
use workspace_tests::{chess_gen, corpus_files, workspace_root};

fn read(path: &Path) -> Vec<ReadGame> {
    read_games(std::fs::File::open(path).unwrap())
}

fn export_all(games: &[ReadGame]) -> String {
    games
        .iter()
        .map(|g| to_export_string(&g.game).unwrap())
        .collect()
}

fn diagnostics_text(games: &[ReadGame]) -> String {
    games
        .iter()
        .flat_map(|g| &g.diagnostics)
        .map(|d| format!("{d}\n"))
        .collect()
}

/// The tree without its tags, which the export completes with the seven tag roster.
fn moves_only(game: &GameTree) -> GameTree {
    let mut game = game.clone();
    game.tags = pgn::Tags::new();
    game
}

/// Checks that a generated corpus file is what its generator writes now; rewrites it when
/// `NOTATION_REGENERATE_CORPUS` is set.
fn check_generated(name: &str, text: &str) {
    let path = workspace_root().join("corpus/pgn").join(name);
    if std::env::var_os("NOTATION_REGENERATE_CORPUS").is_some() {
        std::fs::write(&path, text).unwrap();
    }
    let on_disk = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        on_disk == text,
        "corpus/pgn/{name} is not what tests/src/chess_gen.rs generates: run \
         `NOTATION_REGENERATE_CORPUS=1 cargo test -p workspace-tests --test chess_corpus` \
         and review the change"
    );
}

#[test]
fn generated_corpus_is_up_to_date() {
    check_generated("generated.pgn", &chess_gen::generated_pgn());
    check_generated("forgiven.pgn", &chess_gen::forgiven_pgn());
    check_generated("variants.pgn", &chess_gen::variants_pgn());
}

#[test]
fn corpus_exports_match_snapshots() {
    let files = corpus_files("pgn", "pgn");
    assert!(files.len() >= 5, "the corpus is missing");
    for path in files {
        let games = read(&path);
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        insta::assert_snapshot!(format!("chess_{name}"), export_all(&games));
        insta::assert_snapshot!(
            format!("chess_diagnostics_{name}"),
            diagnostics_text(&games)
        );
    }
}

#[test]
fn corpus_round_trips() {
    for path in corpus_files("pgn", "pgn") {
        let first = read(&path);
        let exported = export_all(&first);
        let second = read_games(exported.as_bytes());
        assert_eq!(first.len(), second.len(), "{}", path.display());
        for (a, b) in first.iter().zip(&second) {
            // Import → export → import keeps every move, comment, glyph, variation and
            // the text after a move that could not be read.
            assert_eq!(
                moves_only(&a.game),
                moves_only(&b.game),
                "{}",
                path.display()
            );
            for tag in &a.game.tags {
                assert_eq!(b.game.tags.get(&tag.name), Some(tag.value.as_str()));
            }
            // The export format reads back with nothing forgiven but what is about the
            // game itself: its set-up tags, null moves (which SAN does not have) and the
            // moves that cannot be played.
            for d in &b.diagnostics {
                assert!(
                    matches!(
                        &d.kind,
                        DiagnosticKind::LenientSetup { .. }
                            | DiagnosticKind::BadMove { .. }
                            | DiagnosticKind::Unsupported { .. }
                    ) || matches!(&d.kind, DiagnosticKind::LenientMove { token, .. } if token == "--"),
                    "{}: {d}",
                    path.display()
                );
            }
        }
        // Export is a fixed point.
        assert_eq!(export_all(&second), exported, "{}", path.display());
    }
}

/// The PGN standard's sample game (§8.2.5 of the 1994 standard), in the export format. The
/// standard's own rendering has a first movetext line of 80 characters; the export format
/// wants fewer than 80 (§8.2.2.2), so `Nf6` moves to the second line.
const MODEL_EXPORT: &str = "\
[Event \"F/S Return Match\"]
[Site \"Belgrade, Serbia JUG\"]
[Date \"1992.11.04\"]
[Round \"29\"]
[White \"Fischer, Robert J.\"]
[Black \"Spassky, Boris V.\"]
[Result \"1/2-1/2\"]

1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 {This opening is called the Ruy Lopez.} 4. Ba4
Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 d6 8. c3 O-O 9. h3 Nb8 10. d4 Nbd7 11. c4 c6
12. cxb5 axb5 13. Nc3 Bb7 14. Bg5 b4 15. Nb1 h6 16. Bh4 c5 17. dxe5 Nxe4 18.
Bxe7 Qxe7 19. exd6 Qf6 20. Nbd2 Nxd6 21. Nc4 Nxc4 22. Bxc4 Nb6 23. Ne5 Rae8 24.
Bxf7+ Rxf7 25. Nxf7 Rxe1+ 26. Qxe1 Kxf7 27. Qe3 Qg5 28. Qxg5 hxg5 29. b3 Ke6
30. a3 Kd6 31. axb4 cxb4 32. Ra5 Nd5 33. f3 Bc8 34. Kf2 Bf5 35. Ra7 g6 36. Ra6+
Kc5 37. Ke1 Nf4 38. g3 Nxh3 39. Kd2 Kb5 40. Rd6 Kc5 41. Ra6 Nf2 42. g4 Bd3 43.
Re6 1/2-1/2

";

#[test]
fn model_game_exports_byte_for_byte() {
    let games = read(&workspace_root().join("corpus/pgn/model.pgn"));
    assert_eq!(games.len(), 1);
    assert!(
        games[0].diagnostics.is_empty(),
        "{:?}",
        games[0].diagnostics
    );
    let game = &games[0].game;
    assert_eq!(game.mainline().count(), 85);
    let exported = export_all(&games);
    assert_eq!(exported, MODEL_EXPORT);
    assert!(exported.lines().all(|line| line.chars().count() < 80));
    // The export reads back as the same game, and exports to the same bytes.
    let again = read_games(exported.as_bytes());
    assert_eq!(again[0].game, games[0].game);
    assert_eq!(export_all(&again), MODEL_EXPORT);
}

#[test]
fn lenient_file_reads_with_the_expected_warnings() {
    let games = read(&workspace_root().join("corpus/pgn/lenient.pgn"));
    let text: Vec<String> = games
        .iter()
        .flat_map(|g| &g.diagnostics)
        .map(ToString::to_string)
        .collect();
    let expected = [
        "9:13: warning: Ng1-f3: origin square given more fully than needed; move written in \
         long algebraic notation (game 1)",
        "9:20: warning: Nb8c6: origin square given more fully than needed (game 1)",
        "9:29: warning: Bf1b5: origin square given more fully than needed (game 1)",
        "9:35: warning: a7a6: move written in long algebraic notation (game 1)",
        "9:43: warning: Bc6: capture written without x (game 1)",
        "9:55: warning: 0-0: castling written with zeros or lower-case o (game 1)",
        "9:65: warning: d2-d4: move written in long algebraic notation (game 1)",
        "9:71: warning: e5xd4: move written in long algebraic notation (game 1)",
        "10:4: warning: ♘xd4: figurine piece symbol (game 1)",
        "10:9: warning: Pc5: pawn move written with the letter P (game 1)",
        "10:16: warning: nb3: piece letter in lower case (game 1)",
        "10:20: warning: Qd1: capture written without x (game 1)",
        "10:55: warning: Bd6+: check or mate sign missing or wrong (game 1)",
        "11:1: warning: no empty line between games (game 2)",
        "18:1: warning: no empty line between the tags and the movetext (game 2)",
        "18:20: warning: no game termination marker; took 0-1 from the Result tag (game 2)",
        "27:19: warning: non-standard termination marker ½-½; read as 1/2-1/2 (game 3)",
    ];
    assert_eq!(text, expected);
    assert!(games.iter().all(|g| !g.has_errors()));
    assert_eq!(
        games
            .iter()
            .map(|g| g.game.node_count())
            .collect::<Vec<_>>(),
        [22, 4, 4]
    );
}

#[test]
fn forgiven_file_has_every_forgiven_form() {
    let games = read(&workspace_root().join("corpus/pgn/forgiven.pgn"));
    assert!(games.iter().all(|g| !g.has_errors()));
    let messages: Vec<String> = games
        .iter()
        .flat_map(|g| &g.diagnostics)
        .filter_map(|d| match &d.kind {
            DiagnosticKind::LenientMove { message, .. } => Some(message.clone()),
            _ => None,
        })
        .collect();
    for flag in Forgiven::all().iter() {
        let description = flag.to_string();
        assert!(
            messages.contains(&description),
            "no move of forgiven.pgn forgives: {description}"
        );
    }
    // Every warning is one forgiven form of one move.
    assert!(games.iter().flat_map(|g| &g.diagnostics).all(|d| {
        d.severity == Severity::Warning && matches!(d.kind, DiagnosticKind::LenientMove { .. })
    }));
}

#[test]
fn generated_file_reads_without_diagnostics() {
    let games = read(&workspace_root().join("corpus/pgn/generated.pgn"));
    assert_eq!(games.len(), 12);
    for g in &games {
        assert!(g.diagnostics.is_empty(), "{:?}", g.diagnostics);
    }
    assert!(
        games
            .iter()
            .any(|g| g.game.tags.get("Variant") == Some("Chess960"))
    );
    assert!(games.iter().any(|g| g.game.line_count() > 3));
}

/// The validator reports what the tree builder reports, and counts the moves it built.
pub fn assert_validator_agrees(path: &Path) {
    let options = ReadOptions::default();
    let tree = read(path);
    let fast: Vec<_> = ValidatingReader::with_options(std::fs::File::open(path).unwrap(), options)
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(tree.len(), fast.len(), "{}", path.display());
    for (t, f) in tree.iter().zip(&fast) {
        assert_eq!(
            t.diagnostics,
            f.diagnostics,
            "{} game {}",
            path.display(),
            t.index
        );
        assert_eq!(
            t.game.node_count() as u64,
            f.plies,
            "{} game {}",
            path.display(),
            t.index
        );
        assert_eq!((t.index, t.span), (f.index, f.span));
    }
}

#[test]
fn validator_agrees_with_the_tree_builder() {
    for path in corpus_files("pgn", "pgn") {
        assert_validator_agrees(&path);
    }
}
