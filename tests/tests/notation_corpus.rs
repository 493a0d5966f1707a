//! The notation layer over the project's corpus, read raw: snapshots of the export
//! format, round trips, and (when present) the shared corpus of real files.
#![allow(clippy::unwrap_used, missing_docs)]

use std::path::Path;

use notation::{
    Game, GameReader, RawMove, RawRules, ReadGame, ReadOptions, Rules, Severity, WriteOptions,
    read_games, to_export_string,
};
use workspace_tests::{corpus_files, files_in, shared_corpus};

fn rules_for(path: &Path) -> RawRules {
    if path.extension().is_some_and(|e| e == "pdn") {
        RawRules::PDN
    } else {
        RawRules::PGN
    }
}

fn export_all<R: Rules>(rules: &R, games: &[ReadGame<R::Move>]) -> String {
    games
        .iter()
        .map(|g| to_export_string(rules, &g.game, &WriteOptions::default()).unwrap())
        .collect()
}

/// The tree without its tags, which the export completes with the seven tag roster.
fn moves_only(game: &Game<RawMove>) -> Game<RawMove> {
    let mut game = game.clone();
    game.tags = notation::Tags::new();
    game
}

#[test]
fn corpus_exports_match_snapshots() {
    let files: Vec<_> = [corpus_files("pgn", "pgn"), corpus_files("pdn", "pdn")].concat();
    assert!(files.len() >= 4, "the corpus is missing");
    for path in files {
        let rules = rules_for(&path);
        let input = std::fs::read(&path).unwrap();
        let games = read_games(&rules, &input[..], ReadOptions::default());
        let exported = export_all(&rules, &games);
        let name = format!("raw_{}", path.file_name().unwrap().to_string_lossy());
        insta::assert_snapshot!(name, exported);
    }
}

#[test]
fn corpus_round_trips() {
    let files: Vec<_> = [corpus_files("pgn", "pgn"), corpus_files("pdn", "pdn")].concat();
    for path in files {
        let rules = rules_for(&path);
        let input = std::fs::read(&path).unwrap();
        let first = read_games(&rules, &input[..], ReadOptions::default());
        let exported = export_all(&rules, &first);
        let second = read_games(&rules, exported.as_bytes(), ReadOptions::default());
        assert_eq!(first.len(), second.len(), "{}", path.display());
        for (a, b) in first.iter().zip(&second) {
            // Import → export → import keeps every move, comment, glyph and variation.
            assert_eq!(
                moves_only(&a.game),
                moves_only(&b.game),
                "{}",
                path.display()
            );
            // The export format reads back with nothing to forgive.
            assert!(
                b.diagnostics.is_empty(),
                "{}: {:?}",
                path.display(),
                b.diagnostics
            );
        }
        // Export is a fixed point.
        assert_eq!(export_all(&rules, &second), exported, "{}", path.display());
    }
}

/// Games per file of the shared corpus, as counted by hand and by `grep '^\[Event '`
/// where every game has an Event tag.
const SHARED_COUNTS: &[(&str, usize)] = &[
    ("pgn/bench/lichess_db_1000k.pgn", 438),
    ("pgn/bench/twic1599_1000k.pgn", 1110),
    ("pgn/python-chess/kasparov-deep-blue-1997.pgn", 6),
    ("pgn/python-chess/utf8-bom.pgn", 2),
    ("pgn/python-chess/cutechess-fischerrandom.pgn", 4),
    ("pgn/python-chess/antichess-programfox.pgn", 2),
    ("pgn/scalachess/withDelimiters.pgn", 1),
    ("pgn/scalachess/overflow.pgn", 1),
    ("pdn/pdn3-conformance/succeed/bridges.pdn", 267),
    ("pdn/pdn3-conformance/succeed/ussr1947.pdn", 153),
    ("pdn/pdn3-conformance/succeed/goulds.pdn", 262),
    (
        "pdn/pdn3-conformance/succeed/Campionato Assoluto 2005.pdn",
        53,
    ),
];

#[test]
fn shared_corpus_reads_raw_without_errors() {
    let Some(shared) = shared_corpus() else {
        eprintln!("NOTATION_SHARED_CORPUS not set: shared tier skipped");
        return;
    };
    let mut dirs = vec![shared.join("pdn/pdn3-conformance/succeed")];
    for sub in ["bench", "python-chess", "scalachess"] {
        dirs.push(shared.join("pgn").join(sub));
    }
    let mut total = 0;
    for dir in dirs {
        let extension = if dir.ends_with("succeed") {
            "pdn"
        } else {
            "pgn"
        };
        for path in files_in(&dir, extension) {
            let rules = rules_for(&path);
            let file = std::fs::File::open(&path).unwrap();
            let mut reader = GameReader::new(&rules, file, ReadOptions::default());
            let games: Vec<_> = (&mut reader).map(Result::unwrap).collect();
            let errors: Vec<_> = games
                .iter()
                .flat_map(|g| &g.diagnostics)
                .chain(&reader.take_orphans())
                .filter(|d| d.severity == Severity::Error)
                .map(ToString::to_string)
                .collect();
            assert!(errors.is_empty(), "{}: {errors:?}", path.display());
            assert!(!games.is_empty(), "{}", path.display());
            let relative = path
                .strip_prefix(&shared)
                .unwrap()
                .to_string_lossy()
                .into_owned();
            if let Some(&(_, expected)) = SHARED_COUNTS.iter().find(|(p, _)| *p == relative) {
                assert_eq!(games.len(), expected, "{relative}");
            }
            total += games.len();
        }
    }
    assert!(total > 3000, "only {total} games");
}
