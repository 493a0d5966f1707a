//! `notate split` and `notate fmt --fix-results --plycount`, run as a person runs them.

mod common;

use std::collections::BTreeMap;
use std::path::Path;

use common::{Temp, code, run, stderr, stdout};

/// A chess game with these tags (and the roster's others as `?`).
fn game(tags: &[(&str, &str)]) -> String {
    let mut text = String::new();
    for (name, value) in tags {
        text.push_str(&format!("[{name} \"{value}\"]\n"));
    }
    text.push_str("\n1. e4 e5 2. Nf3 Nc6 1-0\n\n");
    text
}

/// A game the reader cannot fully read: its comment is never closed (so it must come
/// last in a file).
const BROKEN: &str =
    "[Event \"broken\"]\n[White \"Broken\"]\n[Result \"*\"]\n\n1. e4 {never closed *\n";

/// The files of a folder: name → contents.
fn files(dir: &Path) -> BTreeMap<String, String> {
    std::fs::read_dir(dir)
        .expect("the output folder")
        .map(|entry| {
            let path = entry.expect("an entry").path();
            let name = path
                .file_name()
                .expect("a name")
                .to_string_lossy()
                .into_owned();
            let text = std::fs::read_to_string(&path).expect("a file");
            (name, text)
        })
        .collect()
}

/// The games in a file, as `notate scan` counts them.
fn games_in(path: &Path) -> u64 {
    let o = run(&["scan", &path.display().to_string()]);
    let out = stdout(&o);
    let games = out
        .split_whitespace()
        .find_map(|field| field.strip_prefix("games="))
        .expect("scan's summary");
    games.parse().expect("a count")
}

/// The files of a folder with the games in each.
fn game_counts(dir: &Path) -> BTreeMap<String, u64> {
    files(dir)
        .into_keys()
        .map(|name| {
            let games = games_in(&dir.join(&name));
            (name, games)
        })
        .collect()
}

fn counts(pairs: &[(&str, u64)]) -> BTreeMap<String, u64> {
    pairs.iter().map(|(n, c)| ((*n).to_owned(), *c)).collect()
}

#[test]
fn help_and_usage() {
    let o = run(&["split", "--help"]);
    assert_eq!(code(&o), 0);
    assert!(stdout(&o).contains("--out-dir"), "{}", stdout(&o));
    let t = Temp::new("split-usage");
    let input = t.file("in.pgn", game(&[("White", "A")]).as_bytes());
    let out = t.path("out").display().to_string();
    // One of --by and --games, not both, not neither.
    let both = run(&[
        "split",
        &input,
        "--out-dir",
        &out,
        "--by",
        "White",
        "--games",
        "2",
    ]);
    assert_eq!(code(&both), 2, "{}", stderr(&both));
    assert_eq!(code(&run(&["split", &input, "--out-dir", &out])), 2);
    assert_eq!(
        code(&run(&["split", &input, "--out-dir", &out, "--games", "0"])),
        2
    );
    assert_eq!(
        code(&run(&[
            "split",
            &input,
            "--out-dir",
            &out,
            "--by",
            "Wh ite"
        ])),
        2
    );
    // An output folder that is a file.
    let o = run(&["split", &input, "--out-dir", &input, "--by", "White"]);
    assert_eq!(code(&o), 2);
    assert!(stderr(&o).contains("is not a folder"), "{}", stderr(&o));
    assert!(!t.path("out").exists());
}

#[test]
fn split_by_a_tag_with_safe_names() {
    let t = Temp::new("split-tag");
    let whites = [
        "Carlsen, Magnus",
        "a/b",
        "a_b",
        "..",
        "CON",
        "?",
        "unknown",
        "Carlsen, Magnus",
        "A_B",
    ];
    let mut input = String::new();
    for white in whites {
        input.push_str(&game(&[("Event", white), ("White", white)]));
    }
    input.push_str(&game(&[("Event", "no White")]));
    let input = t.file("in.pgn", input.as_bytes());
    let out = t.path("out");
    let o = run(&[
        "split",
        &input,
        "--out-dir",
        &out.display().to_string(),
        "--by",
        "White",
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(
        game_counts(&out),
        counts(&[
            ("Carlsen, Magnus.pgn", 2),
            ("a_b.pgn", 1),
            ("a_b~2.pgn", 1),
            ("A_B~3.pgn", 1),
            ("_.pgn", 1),
            ("_CON.pgn", 1),
            ("unknown.pgn", 2),
            ("unknown~2.pgn", 1),
        ])
    );
    // The games keep their order; each file holds what its key says.
    let written = files(&out);
    let carlsen = &written["Carlsen, Magnus.pgn"];
    assert_eq!(carlsen.matches("[White \"Carlsen, Magnus\"]").count(), 2);
    assert!(written["a_b.pgn"].contains("[White \"a/b\"]"));
    assert!(written["a_b~2.pgn"].contains("[White \"a_b\"]"));
    assert!(written["unknown~2.pgn"].contains("[White \"unknown\"]"));
    let unknown = &written["unknown.pgn"];
    let question = unknown.find("[Event \"?\"]").expect("the game of White ?");
    let missing = unknown
        .find("[Event \"no White\"]")
        .expect("the game of no White");
    assert!(question < missing, "{unknown}");
    // What was written: a line per file in the order first written, and a summary.
    let report = stdout(&o);
    let lines: Vec<&str> = report.lines().collect();
    assert_eq!(lines.len(), 9, "{report}");
    assert!(lines[0].starts_with("2 games → ") && lines[0].ends_with("Carlsen, Magnus.pgn"));
    assert!(lines[1].starts_with("1 game → ") && lines[1].ends_with("a_b.pgn"));
    assert_eq!(lines[8], "10 games in 8 files");
}

#[test]
fn split_by_eco_and_year() {
    let t = Temp::new("split-eco");
    let mut input = String::new();
    for (eco, date) in [
        ("B90", "2023.01.05"),
        ("B92", "2023.??.??"),
        ("C20", "1999.12.31"),
        ("?", "????.??.??"),
        ("b91", "20231"),
    ] {
        input.push_str(&game(&[("ECO", eco), ("Date", date)]));
    }
    let input = t.file("in.pgn", input.as_bytes());
    let by = |key: &str| {
        let out = t.path(key);
        let o = run(&[
            "split",
            &input,
            "--out-dir",
            &out.display().to_string(),
            "--by",
            key,
        ]);
        assert_eq!(code(&o), 0, "{}", stderr(&o));
        game_counts(&out)
    };
    assert_eq!(
        by("eco1"),
        counts(&[("B.pgn", 3), ("C.pgn", 1), ("unknown.pgn", 1)])
    );
    assert_eq!(
        by("eco2"),
        counts(&[("B9.pgn", 3), ("C2.pgn", 1), ("unknown.pgn", 1)])
    );
    assert_eq!(
        by("eco3"),
        counts(&[
            ("B90.pgn", 1),
            ("B91.pgn", 1),
            ("B92.pgn", 1),
            ("C20.pgn", 1),
            ("unknown.pgn", 1)
        ])
    );
    assert_eq!(
        by("year"),
        counts(&[("2023.pgn", 2), ("1999.pgn", 1), ("unknown.pgn", 2)])
    );
}

#[test]
fn split_into_files_of_n_games_pgn_and_pdn_apart() {
    let t = Temp::new("split-games");
    let mut input = String::new();
    for i in 0..7 {
        input.push_str(&game(&[("Round", &i.to_string())]));
    }
    let input = t.file("in.pgn", input.as_bytes());
    let out = t.path("out");
    let o = run(&[
        "split",
        &input,
        "corpus/pdn/international.pdn",
        "--out-dir",
        &out.display().to_string(),
        "--games",
        "3",
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(
        game_counts(&out),
        counts(&[("1.pgn", 3), ("2.pgn", 3), ("3.pgn", 1), ("1.pdn", 2)])
    );
    let written = files(&out);
    assert!(written["3.pgn"].contains("[Round \"6\"]"));
    assert!(
        written["1.pdn"].contains("[GameType"),
        "{}",
        written["1.pdn"]
    );
    // A second run empties the files it writes rather than append to the last run's.
    let again = run(&[
        "split",
        &input,
        "--out-dir",
        &out.display().to_string(),
        "--games",
        "3",
    ]);
    assert_eq!(code(&again), 0);
    assert_eq!(files(&out)["1.pgn"], written["1.pgn"]);
}

#[test]
fn split_accounts_for_every_game_and_jobs_change_nothing() {
    let t = Temp::new("split-all");
    // More keys than files kept open, each met twice: files are closed and reopened
    // to append.
    let mut input = String::new();
    let rounds = 2;
    let players = 150;
    for round in 0..rounds {
        for player in 0..players {
            let round = round.to_string();
            let white = format!("Player {player}");
            input.push_str(&game(&[("Round", &round), ("White", &white)]));
        }
    }
    // Repeated so that --jobs cuts it into several chunks.
    let input = input.repeat(8);
    let games = 8 * rounds * players;
    let pgn = t.file("in.pgn", format!("{input}{BROKEN}").as_bytes());
    let split = |jobs: &str| {
        let out = t.path(&format!("out-{jobs}"));
        let out_dir = out.display().to_string();
        let o = run(&[
            "split",
            &pgn,
            "--out-dir",
            &out_dir,
            "--by",
            "White",
            "--jobs",
            jobs,
        ]);
        // The broken game passes through, with a warning: exit 1, as fmt.
        assert_eq!(code(&o), 1, "{}", stderr(&o));
        assert!(
            stderr(&o).contains("game 2401 passed through unchanged"),
            "{}",
            stderr(&o)
        );
        let report = stdout(&o).replace(&out_dir, "OUT");
        (files(&out), report, out)
    };
    let (one, report_one, out) = split("1");
    let (two, report_two, _) = split("2");
    assert_eq!(one.len(), players + 1);
    assert!(one == two, "--jobs 2 wrote other files than --jobs 1");
    assert_eq!(report_one, report_two);
    assert!(report_one.ends_with(&format!(
        "{} games in {} files, 1 of them passed through unchanged (they could not be read)\n",
        games + 1,
        players + 1
    )));
    // Every game is in a file, the one that could not be read as written.
    let total: u64 = game_counts(&out).values().sum();
    assert_eq!(total, games as u64 + 1);
    assert!(one["Broken.pgn"].starts_with(BROKEN));
    let first = &one["Player 7.pgn"];
    assert_eq!(first.matches("[White \"Player 7\"]").count(), 2 * 8);
    let order: Vec<&str> = first.matches("[Round \"0\"]").collect();
    assert_eq!(order.len(), 8);
    assert!(first.find("[Round \"0\"]") < first.find("[Round \"1\"]"));
}

const REPAIRS: &str = "\
[Event \"mate, wrong tag and marker\"]
[Result \"1/2-1/2\"]

1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1/2-1/2

[Event \"marker missing\"]
[Result \"1-0\"]
[PlyCount \"2\"]

1. d4 d5

[Event \"tag missing\"]

1. d4 d5 0-1

[Event \"disagreement\"]
[Result \"1-0\"]
[PlyCount \"7\"]

1. d4 d5 0-1

[Event \"stalemate\"]
[SetUp \"1\"]
[FEN \"7k/5K2/8/6Q1/8/8/8/8 w - - 0 1\"]
[Result \"1-0\"]

1. Qg6 1-0

[Event \"marker unknown\"]
[Result \"0-1\"]

1. e4 *

[Event \"nothing known\"]

1. e4 *

";

#[test]
fn fix_results_and_plycount_in_chess() {
    let t = Temp::new("fix-chess");
    let input = t.file("in.pgn", REPAIRS.as_bytes());
    let o = run(&["fmt", "--fix-results", "--plycount", &input]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let out = stdout(&o);
    let games: Vec<&str> = out.split("[Event ").skip(1).collect();
    assert_eq!(games.len(), 7, "{out}");
    let has = |game: usize, texts: &[&str]| {
        for text in texts {
            assert!(
                games[game].contains(text),
                "game {}: {text}\n{}",
                game + 1,
                games[game]
            );
        }
    };
    has(0, &["[Result \"1-0\"]", "[PlyCount \"7\"]", "Qxf7# 1-0"]);
    has(1, &["[Result \"1-0\"]", "[PlyCount \"2\"]", "d5 1-0"]);
    has(2, &["[Result \"0-1\"]", "d5 0-1"]);
    has(3, &["[Result \"0-1\"]", "[PlyCount \"2\"]", "d5 0-1"]);
    has(
        4,
        &["[Result \"1/2-1/2\"]", "[PlyCount \"1\"]", "Qg6 1/2-1/2"],
    );
    has(5, &["[Result \"0-1\"]", "e4 0-1"]);
    has(6, &["[Result \"*\"]", "e4 *"]);
    let name = input.as_str();
    let expected = [
        format!(
            "notate: {name}: game 1: Result tag \"1/2-1/2\" → \"1-0\": White mates on the board"
        ),
        format!(
            "notate: {name}: game 1: termination marker 1/2-1/2 → 1-0: White mates on the board"
        ),
        format!("notate: {name}: game 2: termination marker missing → 1-0: as the Result tag says"),
        format!(
            "notate: {name}: game 3: Result tag missing → \"0-1\": as the termination marker says"
        ),
        format!(
            "notate: {name}: game 4: Result tag \"1-0\" → \"0-1\": as the termination marker says \
             (the tag follows the marker)"
        ),
        format!("notate: {name}: game 4: PlyCount \"7\" → \"2\""),
        format!("notate: {name}: game 5: Result tag \"1-0\" → \"1/2-1/2\": stalemate on the board"),
        format!("notate: {name}: game 5: termination marker 1-0 → 1/2-1/2: stalemate on the board"),
        format!("notate: {name}: game 6: termination marker * → 0-1: as the Result tag says"),
    ];
    assert_eq!(stderr(&o).lines().collect::<Vec<_>>(), expected);
    // Without the options, no repair: the export format's tag follows the marker as ever.
    let plain = run(&["fmt", &input]);
    assert!(stderr(&plain).is_empty(), "{}", stderr(&plain));
    assert!(stdout(&plain).contains("Qxf7# 1/2-1/2"));
    assert!(!stdout(&plain).contains("[PlyCount \"1\"]"));
    // --jobs gives the same output and the same warnings.
    let big = t.file("big.pgn", REPAIRS.repeat(2000).as_bytes());
    let one = run(&["fmt", "--fix-results", "--plycount", "--jobs", "1", &big]);
    let two = run(&["fmt", "--fix-results", "--plycount", "--jobs", "2", &big]);
    assert_eq!(one.stdout, two.stdout);
    assert_eq!(stderr(&one), stderr(&two));
    assert_eq!(stderr(&one).lines().count(), 9 * 2000);
}

#[test]
fn fix_results_in_draughts() {
    let t = Temp::new("fix-draughts");
    let input = t.file(
        "in.pdn",
        b"[FEN \"W:W28:B22\"]\n[Result \"1-1\"]\n\n1. 28x17 1-1\n\n\
          [FEN \"W:W28:B22\"]\n\n1. 28x17\n\n\
          [GameType \"21\"]\n[Result \"1-0\"]\n\n1. 11-15 0-1\n\n\
          [Result \"1-0\"]\n\n1. 32-28 *\n\n",
    );
    let o = run(&["fmt", "--fix-results", "--plycount", &input]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let out = stdout(&o);
    let games: Vec<&str> = out.split("[Event ").skip(1).collect();
    assert_eq!(games.len(), 4, "{out}");
    // Black cannot move after 28x17: White wins, on international draughts' scale.
    assert!(games[0].contains("[Result \"2-0\"]") && games[0].contains("28x17 2-0"));
    assert!(games[1].contains("[Result \"2-0\"]") && games[1].contains("28x17 2-0"));
    assert!(games[2].contains("[Result \"0-1\"]") && games[2].contains("11-15 0-1"));
    // `1-0` is international draughts' old spelling of `2-0`: the same result.
    assert!(games[3].contains("[Result \"2-0\"]") && games[3].contains("32-28 2-0"));
    assert!(games[3].contains("[PlyCount \"1\"]"));
    let name = input.as_str();
    let expected = [
        format!(
            "notate: {name}: game 1: Result tag \"1-1\" → \"2-0\": Black cannot move on the board"
        ),
        format!(
            "notate: {name}: game 1: termination marker 1-1 → 2-0: Black cannot move on the board"
        ),
        format!(
            "notate: {name}: game 2: Result tag missing → \"2-0\": Black cannot move on the board"
        ),
        format!(
            "notate: {name}: game 2: termination marker missing → 2-0: Black cannot move on the board"
        ),
        format!(
            "notate: {name}: game 3: Result tag \"1-0\" → \"0-1\": as the termination marker says \
             (the tag follows the marker)"
        ),
        format!("notate: {name}: game 4: termination marker * → 2-0: as the Result tag says"),
    ];
    assert_eq!(stderr(&o).lines().collect::<Vec<_>>(), expected);
}

#[test]
fn games_that_cannot_be_read_are_not_repaired() {
    let t = Temp::new("fix-broken");
    let text = format!("{}{BROKEN}", game(&[("Result", "0-1"), ("PlyCount", "9")]));
    let input = t.file("in.pgn", text.as_bytes());
    let o = run(&["fmt", "--fix-results", "--plycount", &input]);
    assert_eq!(code(&o), 1);
    let out = stdout(&o);
    assert!(
        out.contains("[Result \"1-0\"]") && out.contains("[PlyCount \"4\"]"),
        "{out}"
    );
    assert!(out.ends_with(&format!("{BROKEN}\n")), "{out}");
    let err = stderr(&o);
    assert!(
        err.contains("game 1: Result tag \"0-1\" → \"1-0\""),
        "{err}"
    );
    assert!(err.contains("game 2 passed through unchanged"), "{err}");
    assert!(!err.contains("game 2: "), "{err}");
}

/// `split` of corpus files: what it says, then each file it wrote.
fn split_snapshot(args: &[&str]) -> String {
    let t = Temp::new(&format!(
        "split-snapshot-{}",
        args.join("-").replace('/', "_")
    ));
    let out = t.path("out").display().to_string();
    let mut all = vec!["split", "--jobs", "1", "--out-dir", &out];
    all.extend_from_slice(args);
    let o = run(&all);
    assert!(code(&o) <= 1, "{o:?}");
    let mut text = stdout(&o).replace(&out, "OUT");
    for (name, contents) in files(Path::new(&out)) {
        text.push_str(&format!("\n==> {name} <==\n{contents}"));
    }
    text
}

#[test]
fn split_corpus_by_white() {
    insta::assert_snapshot!(split_snapshot(&[
        "--by",
        "White",
        "corpus/pgn/annotated.pgn",
        "corpus/pgn/model.pgn",
        "corpus/pgn/lenient.pgn",
        "corpus/pdn/international.pdn",
    ]));
}

#[test]
fn split_corpus_in_files_of_two_games() {
    insta::assert_snapshot!(split_snapshot(&[
        "--games",
        "2",
        "corpus/pgn/lenient.pgn",
        "corpus/pdn/lenient.pdn",
    ]));
}

#[test]
fn fmt_fix_results_plycount_corpus() {
    let o = run(&[
        "fmt",
        "--jobs",
        "1",
        "--fix-results",
        "--plycount",
        "corpus/pgn/lenient.pgn",
        "corpus/pgn/annotated.pgn",
        "corpus/pdn/variant-english.pdn",
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    insta::assert_snapshot!(format!("{}\n--- stderr ---\n{}", stdout(&o), stderr(&o)));
}

#[test]
fn large_games_are_split_and_repaired_too() {
    let t = Temp::new("large");
    // Over 1 MiB: read without its tree by fmt and split, with it by the repairs.
    let comment = "word ".repeat(300_000);
    let large = format!("[White \"Large\"]\n[Result \"*\"]\n\n1. e4 {{{comment}}} e5 *\n\n");
    let text = format!(
        "{}{large}{}",
        game(&[("White", "A")]),
        game(&[("White", "B")])
    );
    let input = t.file("in.pgn", text.as_bytes());
    let fmt = run(&["fmt", &input]);
    assert_eq!(code(&fmt), 0, "{}", stderr(&fmt));
    let out = t.path("out");
    let o = run(&[
        "split",
        &input,
        "--out-dir",
        &out.display().to_string(),
        "--by",
        "White",
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let written = files(&out);
    let whole = format!(
        "{}{}{}",
        written["A.pgn"], written["Large.pgn"], written["B.pgn"]
    );
    assert_eq!(whole.as_bytes(), fmt.stdout.as_slice());
    let repaired = run(&["fmt", "--plycount", "--fix-results", &input]);
    assert_eq!(code(&repaired), 0, "{}", stderr(&repaired));
    assert_eq!(stdout(&repaired).matches("[PlyCount \"2\"]").count(), 1);
    assert_eq!(stdout(&repaired).matches("[PlyCount \"4\"]").count(), 2);
}
