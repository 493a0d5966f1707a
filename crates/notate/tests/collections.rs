//! `notate select` and `notate dedupe` on small hand-made collections: each criterion
//! matching and not matching, and every game accounted for.

mod common;

use std::process::Command;

use common::{Temp, run as notate, stderr, stdout};

/// The value of each game's `tag` in a PGN or PDN text, in order.
fn values(text: &str, tag: &str) -> Vec<String> {
    let prefix = format!("[{tag} \"");
    text.lines()
        .filter_map(|l| l.strip_prefix(&prefix))
        .map(|v| v.trim_end_matches("\"]").to_owned())
        .collect()
}

/// Six chess games, told apart by their `Event` tag.
const CHESS: &str = r#"[Event "Mate"]
[Site "Bogotá COL"]
[Date "2021.03.04"]
[Round "2.10"]
[White "Carlsen, Magnus"]
[Black "Nepomniachtchi, Ian"]
[Result "1-0"]
[WhiteElo "2850"]
[ECO "C20"]
[Annotator "Someone"]

1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0

[Event "Olympiad Sicilian"]
[Site "?"]
[Date "2020.??.??"]
[Round "3"]
[White "Ding, Liren"]
[Black "Gelfand, Borís"]
[Result "1/2-1/2"]
[WhiteElo "2700"]
[ECO "B92"]

1. e4 c5 2. Nf3 d6 3. d4 cxd4 4. Nxd4 Nf6 5. Nc3 a6 1/2-1/2

[Event "Stalemate"]
[Site "?"]
[Date "????.??.??"]
[Round "?"]
[White "A"]
[Black "B"]
[Result "1/2-1/2"]
[SetUp "1"]
[FEN "7k/8/6Q1/8/8/8/8/K7 w - - 0 1"]

1. Qf7 1/2-1/2

[Event "Underpromotion"]
[Site "?"]
[Date "2019.12.31"]
[Round "1"]
[White "C"]
[Black "D"]
[Result "*"]
[SetUp "1"]
[FEN "8/P6k/8/8/8/8/8/K7 w - - 0 1"]

1. a8=N Kg6 *

[Event "Threefold"]
[Site "?"]
[Date "2022.01.01"]
[Round "1"]
[White "E"]
[Black "F"]
[Result "1/2-1/2"]

1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 1/2-1/2

[Event "Broken"]
[Site "?"]
[Date "2022.01.02"]
[Round "1"]
[White "Carlsen, Magnus"]
[Black "G"]
[Result "0-1"]

1. e4 e5 2. Ke3 0-1

"#;

fn select(args: &[&str]) -> Vec<String> {
    let temp = Temp::new(&format!(
        "select-{}",
        args.join("-").replace(['/', ' '], "_")
    ));
    let file = temp.file("games.pgn", CHESS.as_bytes());
    let mut all = vec!["select", file.as_str(), "--jobs", "1"];
    all.extend(args);
    let out = notate(&all);
    assert!(
        out.status.code().is_some_and(|c| c <= 1),
        "{args:?}: {}",
        stderr(&out)
    );
    values(&stdout(&out), "Event")
}

#[test]
fn tags_compare_as_their_kinds() {
    assert_eq!(select(&["--tag", "White=Carlsen, Magnus"]), ["Mate"]);
    assert_eq!(select(&["--tag", "White=Carlsen"]), Vec::<String>::new());
    assert_eq!(select(&["--tag", "Event~OLYMPIAD"]), ["Olympiad Sicilian"]);
    assert_eq!(select(&["--tag", "Site~bogota"]), ["Mate"]);
    assert_eq!(select(&["--tag", "WhiteElo>=2800"]), ["Mate"]);
    assert_eq!(select(&["--tag", "WhiteElo<2800"]), ["Olympiad Sicilian"]);
    assert_eq!(select(&["--tag", "ECO=B90..B99"]), ["Olympiad Sicilian"]);
    assert_eq!(
        select(&["--tag", "Round>2.9"]),
        ["Mate", "Olympiad Sicilian"]
    );
    assert_eq!(select(&["--tag", "Annotator"]), ["Mate"]);
    assert_eq!(
        select(&["--tag", "!Annotator", "--tag", "!SetUp"]),
        ["Olympiad Sicilian", "Threefold"]
    );
}

#[test]
fn partial_dates_match_only_the_bounds_they_can_answer() {
    // 2020.??.?? has a year but no month: `>= 2020` holds, `>= 2020.01.01` cannot be told.
    assert_eq!(
        select(&["--tag", "Date>=2020"]),
        ["Mate", "Olympiad Sicilian", "Threefold"]
    );
    assert_eq!(
        select(&["--tag", "Date>=2020.01.01"]),
        ["Mate", "Threefold"]
    );
    assert_eq!(select(&["--tag", "Date<2020"]), ["Underpromotion"]);
    assert_eq!(
        select(&["--tag", "Date=2019..2020"]),
        ["Olympiad Sicilian", "Underpromotion"]
    );
}

#[test]
fn players_match_ignoring_case_and_accents() {
    assert_eq!(select(&["--player", "CARLSEN"]), ["Mate"]);
    assert_eq!(select(&["--player", "boris"]), ["Olympiad Sicilian"]);
    assert_eq!(
        select(&["--player", "nepo", "--player", "carlsen"]),
        ["Mate"]
    );
    assert_eq!(select(&["--player", "kasparov"]), Vec::<String>::new());
}

#[test]
fn results_lengths_and_openings() {
    assert_eq!(select(&["--result", "1-0"]), ["Mate"]);
    assert_eq!(
        select(&["--result", "1/2-1/2"]),
        ["Olympiad Sicilian", "Stalemate", "Threefold"]
    );
    assert_eq!(
        select(&["--result", "*", "--result", "1-0"]),
        ["Mate", "Underpromotion"]
    );
    assert_eq!(select(&["--plies", "..2"]), ["Stalemate", "Underpromotion"]);
    assert_eq!(select(&["--plies", "8"]), ["Threefold"]);
    assert_eq!(select(&["--moves", "5.."]), ["Olympiad Sicilian"]);
    assert_eq!(select(&["--moves", "4..4"]), ["Mate", "Threefold"]);
    // Compared as moves: long algebraic and UCI name the same moves.
    assert_eq!(
        select(&["--opening", "1. e4 c5 2. Ng1-f3"]),
        ["Olympiad Sicilian"]
    );
    assert_eq!(select(&["--opening", "1.e2e4 e7e5"]), ["Mate"]);
    assert_eq!(select(&["--opening", "1. d4"]), Vec::<String>::new());
}

#[test]
fn positions_of_the_main_line() {
    // After 1. e4 c5 2. Nf3: placement and side to move, or placement alone.
    let sicilian = "rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R";
    assert_eq!(
        select(&["--position", &format!("{sicilian} b")]),
        ["Olympiad Sicilian"]
    );
    assert_eq!(
        select(&["--position", &format!("{sicilian} w")]),
        Vec::<String>::new()
    );
    assert_eq!(select(&["--position", sicilian]), ["Olympiad Sicilian"]);
    assert_eq!(select(&["--material", "KQk"]), ["Stalemate"]);
    assert_eq!(select(&["--material", "KNk"]), ["Underpromotion"]);
    assert_eq!(select(&["--material", "KQkq"]), Vec::<String>::new());
    assert_eq!(
        select(&["--material-at-least", "KQk"]),
        ["Mate", "Olympiad Sicilian", "Stalemate", "Threefold"]
    );
    assert_eq!(select(&["--checkmate"]), ["Mate"]);
    assert_eq!(select(&["--stalemate"]), ["Stalemate"]);
    assert_eq!(select(&["--underpromotion"]), ["Underpromotion"]);
    assert_eq!(select(&["--threefold"]), ["Threefold"]);
    assert_eq!(select(&["--fifty-moves"]), Vec::<String>::new());
}

#[test]
fn games_with_errors_are_selected_only_when_asked_for() {
    assert_eq!(select(&["--player", "carlsen"]), ["Mate"]);
    assert_eq!(select(&["--with-errors"]), ["Broken"]);
    assert_eq!(
        select(&["--with-errors", "--player", "carlsen"]),
        ["Broken"]
    );
    assert_eq!(
        select(&["--without-errors", "--result", "0-1"]),
        Vec::<String>::new()
    );
    assert_eq!(select(&["--with-warnings"]), Vec::<String>::new());
}

#[test]
fn fifty_moves_and_warnings() {
    let temp = Temp::new("select-fifty");
    let mut moves = String::new();
    for i in 0..25 {
        // One line each: a line longer than 255 bytes is a warning.
        moves.push_str(&format!("{}. Nf3 Nf6 {}. Ng1 Ng8\n", 2 * i + 1, 2 * i + 2));
    }
    let file = temp.file(
        "fifty.pgn",
        format!("[Event \"Fifty\"]\n[Result \"*\"]\n\n{moves}*\n\n[Event \"Short\"]\n[Result \"*\"]\n\n1. e4 e5 2. Nf3 *\n\n[Event \"Warned\"]\n[Result \"*\"]\n\n1. e4 e5 2. Ng1f3 *\n").as_bytes(),
    );
    let out = notate(&["select", &file, "--fifty-moves"]);
    assert_eq!(values(&stdout(&out), "Event"), ["Fifty"]);
    let out = notate(&["select", &file, "--with-warnings"]);
    assert_eq!(values(&stdout(&out), "Event"), ["Warned"]);
}

#[test]
fn select_and_invert_and_rejects_hold_every_game() {
    let temp = Temp::new("select-all");
    let file = temp.file("games.pgn", CHESS.as_bytes());
    let rejects = temp.path("rejects.pgn").display().to_string();
    let chosen = notate(&[
        "select",
        &file,
        "--player",
        "carlsen",
        "--rejects",
        &rejects,
    ]);
    assert_eq!(chosen.status.code(), Some(1), "a game could not be read");
    assert!(
        stderr(&chosen).contains("1 of 6 games selected"),
        "{}",
        stderr(&chosen)
    );
    let rejected = std::fs::read_to_string(&rejects).expect("the rejects file");
    let others = notate(&[
        "select",
        &file,
        "--player",
        "carlsen",
        "--invert",
        "--rejects",
        &rejects,
    ]);
    assert!(
        stderr(&others).contains("4 of 6 games selected"),
        "{}",
        stderr(&others)
    );
    let mut all = values(&stdout(&chosen), "Event");
    all.extend(values(&stdout(&others), "Event"));
    all.extend(values(&rejected, "Event"));
    all.sort();
    assert_eq!(
        all,
        [
            "Broken",
            "Mate",
            "Olympiad Sicilian",
            "Stalemate",
            "Threefold",
            "Underpromotion"
        ]
    );
    // Without --rejects the game that cannot be read goes with the games that do not
    // match, as it was written.
    let others = notate(&["select", &file, "--player", "carlsen", "--invert"]);
    assert!(stdout(&others).contains("1. e4 e5 2. Ke3 0-1"));
    assert_eq!(values(&stdout(&others), "Event").len(), 5);
}

#[test]
fn select_writes_the_export_format_and_the_same_with_any_jobs() {
    let temp = Temp::new("select-jobs");
    let mut text = String::new();
    for _ in 0..400 {
        text.push_str(CHESS);
    }
    let file = temp.file("many.pgn", text.as_bytes());
    let one = notate(&["select", &file, "--result", "1/2-1/2", "--jobs", "1"]);
    let two = notate(&["select", &file, "--result", "1/2-1/2", "--jobs", "2"]);
    assert_eq!(stdout(&one), stdout(&two));
    assert_eq!(values(&stdout(&one), "Event").len(), 1200);
    let fmt = notate(&["fmt", &file, "--jobs", "1"]);
    assert!(stdout(&fmt).contains(&stdout(&one)[..400]));
}

#[test]
fn criteria_that_cannot_be_read_are_usage_errors() {
    let temp = Temp::new("select-usage");
    let file = temp.file("games.pgn", CHESS.as_bytes());
    for bad in [
        &["--tag", "Date>=yesterday"][..],
        &["--plies", "x"],
        &["--result", "2-1"],
        &["--position", "not a fen"],
        &["--material", "KZ"],
        &["--material", "KQ", "--material-at-least", "K"],
    ] {
        let mut args = vec!["select", file.as_str()];
        args.extend(bad);
        let out = notate(&args);
        assert_eq!(out.status.code(), Some(2), "{bad:?}");
        assert!(stdout(&out).is_empty());
    }
}

/// Four international draughts games.
const DRAUGHTS: &str = r#"[Event "Opening"]
[White "Sijbrands, Ton"]
[Black "Baliakin"]
[Result "2-0"]
[GameType "20"]

1. 32-28 18-23 2. 37-32 12-18 2-0

[Event "Kings"]
[White "X"]
[Black "Y"]
[Result "1-1"]
[GameType "20"]
[SetUp "1"]
[FEN "W:W31,32,33,K1:B20,19"]

1. 33-29 19-24 1-1

[Event "Other"]
[White "Georgiev"]
[Black "Y"]
[Result "0-2"]
[GameType "20"]

1. 31-27 19-23 0-2

[Event "Old result"]
[White "Georgiev"]
[Black "Z"]
[Result "1-0"]
[GameType "20"]

1. 31-27 19-23 1-0

"#;

#[test]
fn draughts_criteria() {
    let temp = Temp::new("select-draughts");
    let file = temp.file("games.pdn", DRAUGHTS.as_bytes());
    let events = |args: &[&str]| {
        let mut all = vec!["select", file.as_str()];
        all.extend(args);
        let out = notate(&all);
        assert!(out.status.success(), "{args:?}: {}", stderr(&out));
        values(&stdout(&out), "Event")
    };
    assert_eq!(events(&["--result", "2-0"]), ["Opening", "Old result"]);
    assert_eq!(events(&["--result", "1-0"]), ["Opening", "Old result"]);
    assert_eq!(events(&["--result", "1-1"]), ["Kings"]);
    assert_eq!(events(&["--player", "sijbrands"]), ["Opening"]);
    assert_eq!(events(&["--opening", "1. 32-28 18-23 37-32"]), ["Opening"]);
    assert_eq!(events(&["--material", "W:3m1k B:2m"]), ["Kings"]);
    assert_eq!(events(&["--material", "W:3m B:2m"]), Vec::<String>::new());
    assert_eq!(events(&["--material-at-least", "W:1k B:"]), ["Kings"]);
    // Either FEN dialect: numbers, or the side left open with `?`.
    assert_eq!(events(&["--position", "B:W31,32,29,K1:B20,19"]), ["Kings"]);
    assert_eq!(
        events(&["--position", "W:W31,32,29,K1:B20,19"]),
        Vec::<String>::new()
    );
    assert_eq!(events(&["--position", "?:W31,32,29,K1:B20,19"]), ["Kings"]);
    // A chess criterion matches no draughts game, with a note saying so.
    let out = notate(&["select", &file, "--position", "8/8/8/8/8/8/8/K6k w"]);
    assert!(
        stderr(&out).contains("no PDN game matches it"),
        "{}",
        stderr(&out)
    );
    assert!(stdout(&out).is_empty());
}

/// Games 1, 3 and 4 play the same moves; 4 has the most comments; 2 and 5 reach the
/// same position by different orders.
const REPEATS: &str = r#"[Event "First"]
[Result "*"]

1. e4 e5 2. Nf3 Nc6 *

[Event "Order one"]
[Result "*"]

1. d4 d5 2. c4 e6 *

[Event "Same moves"]
[Result "1-0"]

1. e4 e5 2. Nf3 Nc6 1-0

[Event "Richest"]
[Result "*"]
[Annotator "Me"]

1. e4 {King's pawn} e5 2. Nf3 (2. Bc4) Nc6 *

[Event "Order two"]
[Result "*"]

1. c4 e6 2. d4 d5 *

[Event "Broken"]
[Result "*"]

1. e4 e5 2. Ke3 *

"#;

fn dedupe(args: &[&str]) -> (Vec<String>, Vec<String>, String) {
    let temp = Temp::new(&format!("dedupe-{}", args.join("-")));
    let file = temp.file("games.pgn", REPEATS.as_bytes());
    let dups = temp.path("dups.pgn").display().to_string();
    let mut all = vec!["dedupe", file.as_str(), "--duplicates", dups.as_str()];
    all.extend(args);
    let out = notate(&all);
    let dropped = std::fs::read_to_string(&dups).unwrap_or_default();
    (
        values(&stdout(&out), "Event"),
        values(&dropped, "Event"),
        stderr(&out),
    )
}

#[test]
fn dedupe_keeps_the_first_by_moves() {
    let (kept, dropped, said) = dedupe(&[]);
    assert_eq!(kept, ["First", "Order one", "Order two", "Broken"]);
    assert_eq!(dropped, ["Same moves", "Richest"]);
    assert!(
        said.contains("6 games, 4 written, 2 duplicates dropped"),
        "{said}"
    );
}

#[test]
fn dedupe_by_position_finds_transpositions() {
    let (kept, dropped, _) = dedupe(&["--by", "position"]);
    assert_eq!(kept, ["First", "Order one", "Broken"]);
    assert_eq!(dropped, ["Same moves", "Richest", "Order two"]);
}

#[test]
fn dedupe_keeps_the_richest_where_the_first_stood() {
    let (kept, dropped, _) = dedupe(&["--keep", "richest"]);
    assert_eq!(kept, ["Richest", "Order one", "Order two", "Broken"]);
    assert_eq!(dropped, ["First", "Same moves"]);
}

#[test]
fn dedupe_across_files_and_jobs() {
    let temp = Temp::new("dedupe-files");
    let mut many = String::new();
    for _ in 0..300 {
        many.push_str(REPEATS);
    }
    let a = temp.file("a.pgn", many.as_bytes());
    let b = temp.file("b.pgn", REPEATS.as_bytes());
    for keep in ["first", "richest"] {
        let one = notate(&["dedupe", &a, &b, "--jobs", "1", "--keep", keep]);
        let two = notate(&["dedupe", &a, &b, "--jobs", "2", "--keep", keep]);
        assert_eq!(stdout(&one), stdout(&two), "{keep}");
        // Every copy of the broken game is written as it was read, uncompared.
        assert_eq!(values(&stdout(&one), "Event").len(), 3 + 301, "{keep}");
        assert!(
            stderr(&one).contains("1806 games, 304 written, 1502 duplicates dropped"),
            "{}",
            stderr(&one)
        );
    }
}

/// `notate ARGS` run in the project's root (where `corpus/` is): its output, then what it
/// said on standard error.
fn on_corpus(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_notate"))
        .args(args)
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
        .output()
        .expect("notate runs");
    format!(
        "exit {:?}\n{}--- stderr ---\n{}",
        out.status.code(),
        stdout(&out),
        stderr(&out)
    )
}

#[test]
fn select_corpus_by_player() {
    insta::assert_snapshot!(on_corpus(&["select", "corpus/pgn", "--player", "fischer"]));
}

#[test]
fn select_corpus_short_wins_in_both_formats() {
    insta::assert_snapshot!(on_corpus(&[
        "select",
        "corpus",
        "--result",
        "1-0",
        "--plies",
        "..40",
        "--without-errors",
    ]));
}

#[test]
fn dedupe_corpus_by_position() {
    insta::assert_snapshot!(on_corpus(&[
        "dedupe",
        "corpus/pgn/generated.pgn",
        "corpus/pgn/model.pgn",
        "corpus/pgn/generated.pgn",
        "--by",
        "position",
    ]));
}

/// A game whose tags pass is read twice (lightly for its tags, then whole): every game of
/// the corpus comes out as `fmt` writes it, draughts games whose type is inferred (read a
/// second time in another type, or a third) included.
#[test]
fn games_read_after_their_tags_pass_are_read_as_fmt_reads_them() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../../corpus");
    let temp = Temp::new("select-as-fmt");
    let rejects = temp.path("rejects").display().to_string();
    for format in ["pgn", "pdn"] {
        let dir = format!("{root}/{format}");
        for entry in std::fs::read_dir(&dir).expect("the corpus") {
            let path = entry.expect("a file").path().display().to_string();
            let fmt = notate(&["fmt", &path, "--rejects", &rejects, "--jobs", "1"]);
            let select = notate(&["select", &path, "--tag", "!NoSuchTag", "--jobs", "1"]);
            assert!(!stdout(&fmt).is_empty(), "{path}");
            assert_eq!(stdout(&select), stdout(&fmt), "{path}");
        }
    }
}
