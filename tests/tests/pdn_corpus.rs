//! PDN with the draughts rules over the project's corpus (snapshots of the PDN 3.0 export,
//! round trips) and, when present, over the PDN 3.0 conformance corpus: every file of
//! `succeed/` reads without an error, with its games counted, and every file of `fail/`
//! is rejected by the strict reader for the reason it is there.
#![allow(clippy::unwrap_used, missing_docs)]

use std::path::{Path, PathBuf};

use notation::{
    DiagnosticKind, GameReader, GameTree, ReadGame, ReadOptions, Severity, Tags, read_games,
    to_export_string,
};
use pdn::{DraughtsRules, PDN_WRITE, PdnMove};
use workspace_tests::{corpus_files, files_in, shared_corpus};

const RULES: DraughtsRules = DraughtsRules::new();

fn read(bytes: &[u8], options: ReadOptions) -> Vec<ReadGame<PdnMove>> {
    read_games(&RULES, bytes, options)
}

fn read_file(path: &Path, options: ReadOptions) -> Vec<ReadGame<PdnMove>> {
    read(&std::fs::read(path).unwrap(), options)
}

fn export(games: &[ReadGame<PdnMove>]) -> String {
    games
        .iter()
        .map(|g| to_export_string(&RULES, &g.game, &PDN_WRITE).unwrap())
        .collect()
}

/// The tree without its tags, which the export completes with the roster.
fn without_tags(game: &GameTree<PdnMove>) -> GameTree<PdnMove> {
    let mut game = game.clone();
    game.tags = Tags::new();
    game
}

fn errors(games: &[ReadGame<PdnMove>]) -> Vec<String> {
    games
        .iter()
        .flat_map(|g| &g.diagnostics)
        .filter(|d| d.severity == Severity::Error)
        .map(ToString::to_string)
        .collect()
}

/// Import → export → import keeps every move, glyph, comment, variation, set-up and
/// result, and the export is a fixed point. Returns the export.
fn assert_round_trip(name: &str, first: &[ReadGame<PdnMove>]) -> (String, Vec<ReadGame<PdnMove>>) {
    let exported = export(first);
    let second = read(exported.as_bytes(), ReadOptions::default());
    assert_eq!(first.len(), second.len(), "{name}");
    for (a, b) in first.iter().zip(&second) {
        assert_eq!(
            without_tags(&a.game),
            without_tags(&b.game),
            "{name}, game {}",
            a.index + 1
        );
        for tag in a.game.tags.iter().filter(|t| t.name != "Result") {
            assert_eq!(
                b.game.tags.get(&tag.name),
                Some(tag.value.as_str()),
                "{name}"
            );
        }
    }
    assert_eq!(
        export(&second),
        exported,
        "{name}: export is not a fixed point"
    );
    (exported, second)
}

#[test]
fn corpus_reads_writes_and_round_trips() {
    let files = corpus_files("pdn", "pdn");
    let generated: Vec<&PathBuf> = files
        .iter()
        .filter(|p| {
            p.file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with("variant-")
        })
        .collect();
    assert_eq!(generated.len(), 14, "one generated file per variant");
    for path in &files {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let first = read_file(path, ReadOptions::default());
        assert!(!first.is_empty(), "{name}");
        assert_eq!(errors(&first), Vec::<String>::new(), "{name}");
        let lenient = name.starts_with("lenient");
        if !lenient {
            // The project's own games are PDN 3.0: nothing to forgive, even strictly.
            let strict = read_file(path, ReadOptions::strict());
            let diagnostics: Vec<_> = strict.iter().flat_map(|g| &g.diagnostics).collect();
            assert!(diagnostics.is_empty(), "{name}: {diagnostics:?}");
        }
        let (exported, second) = assert_round_trip(&name, &first);
        // The export reads back with nothing to forgive but the missing GameType tags
        // of the lenient files' games (which the export leaves as they were).
        for game in &second {
            for d in &game.diagnostics {
                let inferred = matches!(&d.kind, DiagnosticKind::LenientMove { message, .. }
                    if message.starts_with("no GameType tag") || message.contains("numbering"));
                let chess = matches!(&d.kind, DiagnosticKind::Unsupported { .. });
                assert!(inferred || chess, "{name}: {d}");
            }
        }
        insta::assert_snapshot!(format!("pdn_{name}"), exported);
        insta::assert_snapshot!(format!("pdn_diagnostics_{name}"), diagnostics_text(&first));
    }
}

fn diagnostics_text(games: &[ReadGame<PdnMove>]) -> String {
    games
        .iter()
        .flat_map(|g| &g.diagnostics)
        .map(|d| format!("{d}\n"))
        .collect()
}

#[test]
fn generated_games_are_rich() {
    // Every generated file has variations, glyphs, strengths, comments with clock
    // commands, set-ups in the movetext and a FEN tag.
    for path in corpus_files("pdn", "pdn") {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if !name.starts_with("variant-") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        for needle in ["( ", "$7", "[%clock", "/FEN \"", "[FEN \"", "[GameType \""] {
            assert!(text.contains(needle), "{name} has no {needle}");
        }
        assert!(text.contains('!') || text.contains('?'), "{name}");
        let games = read(text.as_bytes(), ReadOptions::default());
        for game in &games {
            assert!(game.game.mainline().count() > 0, "{name}");
        }
    }
}

/// Games per file of the conformance corpus's `succeed/` folder: every file, counted
/// by hand (the `[Event` tags, one game without one in "Tricks traps and shots", the
/// Italian tags of "Campionato Assoluto 2005", the tagless one-game files).
const SUCCEED_COUNTS: &[(&str, usize)] = &[
    ("090417ronde12.pdn", 7),
    ("Campionato Assoluto 2005.pdn", 53),
    ("Cat.B1.pdn", 37),
    ("Cat.D1.pdn", 19),
    ("DUTCH96H.pdn", 13),
    ("OCA_2.0.pdn", 43),
    ("PROF2.pdn", 16),
    ("PWCP 2a.pdn", 59),
    ("PWCP_2.pdn", 51),
    ("Principles of Strategy.pdn", 16),
    ("Tricks traps and shots.pdn", 91),
    ("alphanumeric.pdn", 1),
    ("beginner.pdn", 58),
    ("borderclassics.pdn", 183),
    ("bridges.pdn", 267),
    ("candidate95.pdn", 8),
    ("fen.pdn", 3),
    ("gameterminator.pdn", 1),
    ("gem.pdn", 162),
    ("goulds.pdn", 262),
    ("inferno.pdn", 68),
    ("kurnik.pdn", 4),
    ("linecomment.pdn", 1),
    ("lpc.pdn", 100),
    ("movestrength.pdn", 1),
    ("mrcd2000kval.pdn", 40),
    ("mrcd2006.pdn", 44),
    ("mrcd2007.pdn", 102),
    ("nk ronde 01.pdn", 7),
    ("nk ronde 02.pdn", 7),
    ("nk2003-amsterdam.pdn", 33),
    ("rk ronde 12.pdn", 7),
    ("schildpad.pdn", 34),
    ("string.pdn", 1),
    ("unicode.pdn", 1),
    ("ussr1947.pdn", 153),
    ("variation.pdn", 1),
    ("windragon.pdn", 1),
    ("wk2003.pdn", 23),
];

fn conformance() -> Option<PathBuf> {
    let dir = shared_corpus()?.join("pdn/pdn3-conformance");
    dir.is_dir().then_some(dir)
}

#[test]
fn conformance_succeed_reads_without_errors() {
    let Some(dir) = conformance() else {
        eprintln!("NOTATION_SHARED_CORPUS not set: conformance tier skipped");
        return;
    };
    let files = files_in(&dir.join("succeed"), "pdn");
    assert_eq!(files.len(), SUCCEED_COUNTS.len(), "files in succeed/");
    for path in files {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let file = std::fs::File::open(&path).unwrap();
        let mut reader = GameReader::new(&RULES, file, ReadOptions::default());
        let games: Vec<_> = (&mut reader).map(Result::unwrap).collect();
        let mut problems = errors(&games);
        problems.extend(reader.take_orphans().iter().map(ToString::to_string));
        assert_eq!(problems, Vec::<String>::new(), "{name}");
        let expected = SUCCEED_COUNTS
            .iter()
            .find(|(n, _)| *n == name)
            .map(|&(_, count)| count);
        assert_eq!(Some(games.len()), expected, "{name}: games");
        // Every game that was read plays all its moves: none is kept as text.
        for game in &games {
            assert!(game.game.tail.is_none(), "{name}, game {}", game.index + 1);
        }
        // And writes back as it was read.
        assert_round_trip(&name, &games);
    }
}

/// Why each file of `fail/` must be refused, as a test on one diagnostic, and the games
/// that must have it.
enum Games {
    /// Every game of the file.
    All,
    /// The game with this 1-based number.
    Number(u64),
    /// At least this many games.
    AtLeast(usize),
    /// Every game with a move.
    WithMoves,
}

struct Reason {
    file: &'static str,
    games: Games,
    why: &'static str,
    test: fn(&DiagnosticKind) -> bool,
}

const FAIL_REASONS: &[Reason] = &[
    Reason {
        file: "40Camp.DamaInternazionaleAssoluto.pdn",
        games: Games::AtLeast(43),
        why: "Date \"2004.10.27 - 2004.11.01\" is a range, not a date",
        test: |k| matches!(k, DiagnosticKind::BadTagValue { name, .. } if name == "Date"),
    },
    Reason {
        file: "40Camp.DamaInternazionaleAssoluto.pdn",
        games: Games::All,
        why: "chess results (1-0, 0-1, 1/2-1/2) in international draughts, which scores 2-0",
        test: |k| matches!(k, DiagnosticKind::LenientResult { .. }),
    },
    Reason {
        file: "Cat.A1.pdn",
        games: Games::All,
        why: "a dot at the end of the FEN tag",
        test: |k| matches!(k, DiagnosticKind::LenientSetup { message } if message.contains("dot")),
    },
    Reason {
        file: "Cat.C1.pdn",
        games: Games::Number(46),
        why: "a stray move 36x27 after the last game, illegal as a game of its own",
        test: |k| matches!(k, DiagnosticKind::BadMove { token, .. } if token == "36x27"),
    },
    Reason {
        file: "Cat.C1.pdn",
        games: Games::Number(1),
        why: "a dot at the end of the FEN tag",
        test: |k| matches!(k, DiagnosticKind::LenientSetup { message } if message.contains("dot")),
    },
    Reason {
        file: "abatsiev.pdn",
        games: Games::AtLeast(55),
        why: "Date \"1.1.1965\" is not YYYY.MM.DD",
        test: |k| matches!(k, DiagnosticKind::BadTagValue { name, .. } if name == "Date"),
    },
    Reason {
        file: "abatsiev.pdn",
        games: Games::AtLeast(55),
        why: "no GameType, and the moves are not international draughts (Russian, written with x)",
        test: |k| {
            matches!(k, DiagnosticKind::LenientMove { message, .. }
                if message.starts_with("no GameType tag"))
        },
    },
    Reason {
        file: "delfts.pdn",
        games: Games::All,
        why: "Result \"4-6\" is not a result",
        test: |k| matches!(k, DiagnosticKind::BadTagValue { name, .. } if name == "Result"),
    },
    Reason {
        file: "delfts.pdn",
        games: Games::Number(1),
        why: "the marker 4-6 is no termination marker: read as a move, it is illegal",
        test: |k| matches!(k, DiagnosticKind::BadMove { token, .. } if token == "4-6"),
    },
    Reason {
        file: "delfts.pdn",
        games: Games::All,
        why: "PDN 2.0 move numbers 01., 02., …",
        test: |k| matches!(k, DiagnosticKind::MoveNumberLeadingZero { .. }),
    },
    Reason {
        file: "mrdrcd07.pdn",
        games: Games::Number(1),
        why: "Result 1-1 (international scoring) in a Czech draughts game",
        test: |k| matches!(k, DiagnosticKind::LenientResult { found, .. } if found == "1-1"),
    },
    Reason {
        file: "mrdrcd07.pdn",
        games: Games::WithMoves,
        why: "no GameType, and the moves are not international draughts (Czech)",
        test: |k| {
            matches!(k, DiagnosticKind::LenientMove { message, .. }
                if message.starts_with("no GameType tag"))
        },
    },
    Reason {
        file: "mrdrcd08.pdn",
        games: Games::WithMoves,
        why: "no GameType, and the moves are not international draughts (Czech)",
        test: |k| {
            matches!(k, DiagnosticKind::LenientMove { message, .. }
                if message.starts_with("no GameType tag"))
        },
    },
    Reason {
        file: "nested_comment.pdn",
        games: Games::All,
        why: "comments do not nest: the second } closes nothing",
        test: |k| matches!(k, DiagnosticKind::UnexpectedByte { byte: b'}' }),
    },
];

#[test]
fn conformance_fail_is_rejected_strictly() {
    let Some(dir) = conformance() else {
        eprintln!("NOTATION_SHARED_CORPUS not set: conformance tier skipped");
        return;
    };
    let files = files_in(&dir.join("fail"), "pdn");
    assert_eq!(files.len(), 8, "files in fail/");
    for path in files {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let games = read_file(&path, ReadOptions::strict());
        assert!(!errors(&games).is_empty(), "{name} is accepted");
        let reasons: Vec<&Reason> = FAIL_REASONS.iter().filter(|r| r.file == name).collect();
        assert!(!reasons.is_empty(), "{name}: no reason given");
        for reason in reasons {
            let has = |game: &ReadGame<PdnMove>| {
                game.diagnostics
                    .iter()
                    .any(|d| d.severity == Severity::Error && (reason.test)(&d.kind))
            };
            match reason.games {
                Games::All => {
                    for game in &games {
                        assert!(has(game), "{name}, game {}: {}", game.index + 1, reason.why);
                    }
                }
                Games::WithMoves => {
                    for game in games.iter().filter(|g| g.game.mainline().next().is_some()) {
                        assert!(has(game), "{name}, game {}: {}", game.index + 1, reason.why);
                    }
                }
                Games::AtLeast(n) => {
                    let count = games.iter().filter(|g| has(g)).count();
                    assert!(count >= n, "{name}: {count} games: {}", reason.why);
                }
                Games::Number(n) => {
                    let game = games.iter().find(|g| g.index + 1 == n).unwrap();
                    assert!(has(game), "{name}, game {n}: {}", reason.why);
                }
            }
        }
    }
}

/// Holds [`pdn::ValidatingReader`] to the tree builder on one file: the same games, the
/// same diagnostics, the same move counts and the same diagnostics outside any game.
fn assert_validator_agrees(path: &Path, options: ReadOptions) {
    let mut tree_reader = GameReader::new(&RULES, std::fs::File::open(path).unwrap(), options);
    let tree: Vec<_> = (&mut tree_reader).map(Result::unwrap).collect();
    let mut reader =
        pdn::ValidatingReader::with_rules(std::fs::File::open(path).unwrap(), RULES, options);
    let fast: Vec<_> = (&mut reader).map(Result::unwrap).collect();
    assert_eq!(tree.len(), fast.len(), "{}", path.display());
    for (t, f) in tree.iter().zip(&fast) {
        assert_eq!(
            t.diagnostics,
            f.diagnostics,
            "{} game {}",
            path.display(),
            t.index
        );
        assert_eq!(t.game.node_count() as u64, f.plies, "{}", path.display());
        assert_eq!((t.index, t.span), (f.index, f.span), "{}", path.display());
    }
    assert_eq!(
        tree_reader.take_orphans(),
        reader.take_orphans(),
        "{}",
        path.display()
    );
}

#[test]
fn validator_agrees_with_the_tree_builder() {
    let mut files = corpus_files("pdn", "pdn");
    if let Some(shared) = shared_corpus() {
        for sub in ["succeed", "fail"] {
            files.extend(files_in(
                &shared.join("pdn/pdn3-conformance").join(sub),
                "pdn",
            ));
        }
    } else {
        eprintln!("NOTATION_SHARED_CORPUS not set: shared tier skipped");
    }
    for path in &files {
        assert_validator_agrees(path, ReadOptions::default());
        assert_validator_agrees(path, ReadOptions::strict());
    }
}
