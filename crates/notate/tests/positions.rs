//! `notate index`, `explore` and `find` as a user runs them: the answers, appends, bad
//! questions, damaged indexes and runs killed halfway.

mod common;

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::{Temp, code, root, run, stderr, stdout};
use nix::sys::signal::{Signal, kill};
use nix::unistd::Pid;

fn notate_ok(args: &[&str]) -> String {
    let out = run(args);
    assert_eq!(code(&out), 0, "{args:?}: {}", stderr(&out));
    stdout(&out)
}

fn json(args: &[&str]) -> serde_json::Value {
    serde_json::from_str(&notate_ok(args)).expect("JSON")
}

/// The standard chess files of the corpus (not the variants: `select --position` compares
/// piece placement alone, and a crazyhouse position is another position to the index).
const CHESS: [&str; 6] = [
    "corpus/pgn/annotated.pgn",
    "corpus/pgn/forgiven.pgn",
    "corpus/pgn/generated.pgn",
    "corpus/pgn/lenient-archive-cr.pgn",
    "corpus/pgn/lenient.pgn",
    "corpus/pgn/model.pgn",
];

fn index_of(t: &Temp, files: &[&str]) -> String {
    let dir = t.path("index").display().to_string();
    let mut args = vec!["index", "-q", "-o", &dir];
    args.extend_from_slice(files);
    notate_ok(&args);
    dir
}

#[test]
fn explore_answers_in_lichess_explorer_json() {
    let t = Temp::new("explore-json");
    let dir = index_of(&t, &CHESS);
    let answer = json(&["explore", &dir, "--moves", "e4 e5", "--json"]);
    let object = answer.as_object().expect("an object");
    for key in [
        "white",
        "draws",
        "black",
        "moves",
        "topGames",
        "recentGames",
        "opening",
    ] {
        assert!(object.contains_key(key), "{key} in {answer}");
    }
    assert_eq!(answer["opening"]["eco"], "C20");
    assert_eq!(answer["opening"]["name"], "King's Pawn Game");
    let moves = answer["moves"].as_array().expect("moves");
    assert!(!moves.is_empty());
    let total = |key: &str| {
        moves
            .iter()
            .map(|m| m[key].as_u64().expect("a count"))
            .sum::<u64>()
    };
    for key in ["white", "draws", "black"] {
        assert_eq!(answer[key].as_u64(), Some(total(key)), "{key}");
    }
    for m in moves {
        for key in ["uci", "san", "white", "draws", "black", "averageRating"] {
            assert!(m.get(key).is_some(), "{key} in {m}");
        }
    }
    // Most played first.
    let games: Vec<u64> = moves
        .iter()
        .map(|m| {
            ["white", "draws", "black"]
                .iter()
                .map(|k| m[*k].as_u64().unwrap_or(0))
                .sum()
        })
        .collect();
    assert!(games.windows(2).all(|w| w[0] >= w[1]), "{games:?}");
    // The same position by FEN and by UCI moves.
    let fen = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2";
    let by_fen = json(&["explore", &dir, "--fen", fen, "--json"]);
    let by_uci = json(&["explore", &dir, "--moves", "e2e4,e7e5", "--json"]);
    assert_eq!(by_fen["moves"], answer["moves"]);
    assert_eq!(by_uci, answer);
    // The opening is named where no game went.
    let text = notate_ok(&["explore", &dir, "--moves", "1. e4 c5"]);
    assert!(text.contains("opening   B20 Sicilian Defense"), "{text}");
}

#[test]
fn find_gives_the_games_that_select_finds() {
    let t = Temp::new("find-select");
    // Not forgiven.pgn: it holds a crazyhouse game too.
    let files: Vec<&str> = CHESS
        .into_iter()
        .filter(|f| !f.contains("forgiven"))
        .collect();
    let dir = index_of(&t, &files);
    for moves in ["e4 e5 Nf3 Nc6", "e4 e5", "d4", "e4 e5 Nf3"] {
        let explored = notate_ok(&["explore", &dir, "--moves", moves]);
        let fen = explored
            .lines()
            .next()
            .and_then(|l| l.strip_prefix("position  "))
            .expect("the position");
        let found = t.path("found.pgn").display().to_string();
        notate_ok(&["find", &dir, "--moves", moves, "-o", &found]);
        let selected = t.path("selected.pgn").display().to_string();
        let mut args = vec!["select", "-q", "--position", fen, "-o", &selected];
        args.extend_from_slice(&files);
        let out = run(&args);
        assert!(code(&out) <= 1, "{}", stderr(&out));
        let found = std::fs::read_to_string(&found).expect("found");
        let selected = std::fs::read_to_string(&selected).expect("selected");
        assert!(found.contains("[Event"), "{moves}: no game found");
        assert_eq!(found, selected, "{moves}");
        // The references: one line per game, which `show` opens.
        let lines = notate_ok(&["find", &dir, "--moves", moves]);
        assert_eq!(lines.lines().count(), found.matches("[Event ").count());
        let first: Vec<&str> = lines.lines().next().expect("a line").split('\t').collect();
        let shown = notate_ok(&["show", first[0], "--game", first[1], "--ply", "0"]);
        assert!(!shown.is_empty());
        let limited = notate_ok(&["find", &dir, "--moves", moves, "--limit", "1"]);
        assert_eq!(limited.lines().count(), 1);
    }
}

#[test]
fn transpositions_gather_the_games_of_every_move_order() {
    let t = Temp::new("transpositions");
    let a = t.file(
        "a.pgn",
        b"[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 1-0\n\n",
    );
    let b = t.file(
        "b.pgn",
        b"[Result \"0-1\"]\n\n1. Nf3 Nc6 2. e4 e5 3. Bc4 0-1\n\n",
    );
    let c = t.file(
        "c.pgn",
        b"[Result \"1/2-1/2\"]\n\n1. e4 Nc6 2. Nf3 e5 1/2-1/2\n\n",
    );
    let dir = index_of(&t, &[&a, &b, &c]);
    let found = notate_ok(&["find", &dir, "--moves", "e4 e5 Nf3 Nc6"]);
    assert_eq!(found.lines().count(), 3, "{found}");
    let answer = json(&["explore", &dir, "--moves", "Nf3 Nc6 e4 e5", "--json"]);
    assert_eq!(
        (answer["white"].as_u64(), answer["black"].as_u64()),
        (Some(1), Some(1))
    );
    let ucis: Vec<&str> = answer["moves"]
        .as_array()
        .expect("moves")
        .iter()
        .map(|m| m["uci"].as_str().expect("uci"))
        .collect();
    assert_eq!(ucis, ["f1b5", "f1c4"]);
    // The draw ended there: found, but it played no move from it.
    assert_eq!(answer["draws"].as_u64(), Some(0));
}

#[test]
fn draughts_positions_are_explored_and_found() {
    let t = Temp::new("draughts");
    let games = t.file(
        "games.pdn",
        b"[Result \"2-0\"]\n\n1. 35-30 16-21 2. 31-26 20-25 2-0\n\n\
          [Result \"0-2\"]\n\n1. 31-26 20-25 2. 35-30 16-21 0-2\n\n\
          [Result \"1-1\"]\n\n1. 33-28 18-22 1-1\n\n",
    );
    let dir = index_of(&t, &[&games]);
    let answer = json(&["explore", &dir, "--json"]);
    let moves = answer["moves"].as_array().expect("moves");
    assert!(!moves.is_empty(), "{answer}");
    let ucis: Vec<&str> = moves
        .iter()
        .map(|m| m["uci"].as_str().expect("uci"))
        .collect();
    assert_eq!(ucis, ["31-26", "33-28", "35-30"]);
    assert_eq!(
        (answer["white"].as_u64(), answer["draws"].as_u64()),
        (Some(1), Some(1))
    );
    // The first two games meet after two moves each, played in the other order.
    for moves in ["35-30 16-21 31-26 20-25", "31-26,20-25,35-30,16-21"] {
        let found = notate_ok(&["find", &dir, "--moves", moves]);
        assert_eq!(found.lines().count(), 2, "{found}");
    }
    // Another game type's start is another position.
    let russian = json(&["explore", &dir, "--variant", "russian", "--json"]);
    assert_eq!(russian["moves"].as_array().map(Vec::len), Some(0));
    // One index holds one game.
    let out = run(&[
        "index",
        "-q",
        "--append",
        "-o",
        &dir,
        "corpus/pgn/model.pgn",
    ]);
    assert_eq!(code(&out), 2);
    assert!(
        stderr(&out).contains("the index holds draughts games"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn append_adds_inputs_at_their_cost_and_refuses_one_twice() {
    let t = Temp::new("append");
    let dir = index_of(&t, &CHESS[..3]);
    let appended = run(&[
        "index", "-q", "--append", "-o", &dir, CHESS[3], CHESS[4], CHESS[5],
    ]);
    assert_eq!(code(&appended), 0, "{}", stderr(&appended));
    let whole = Temp::new("append-whole");
    let whole_dir = index_of(&whole, &CHESS);
    for moves in ["", "e4", "e4 e5 Nf3", "d4 d5"] {
        let a = json(&["explore", &dir, "--moves", moves, "--json"]);
        let b = json(&["explore", &whole_dir, "--moves", moves, "--json"]);
        assert_eq!(a, b, "{moves:?}");
    }
    let segments = std::fs::read_dir(&dir)
        .expect("the index")
        .filter(|e| {
            e.as_ref()
                .is_ok_and(|e| e.file_name().to_string_lossy().starts_with("segment-"))
        })
        .count();
    assert_eq!(segments, 2);
    let before = std::fs::read(Path::new(&dir).join("index.json")).expect("the manifest");
    // The same file again, even under another name: refused, and the index unchanged.
    let copy = t.path("copy.pgn");
    std::fs::copy(root().join(CHESS[0]), &copy).expect("copied");
    let again = run(&[
        "index",
        "--append",
        "-o",
        &dir,
        copy.to_str().expect("utf-8"),
    ]);
    assert_eq!(code(&again), 2);
    assert!(
        stderr(&again).contains("already in the index"),
        "{}",
        stderr(&again)
    );
    assert_eq!(
        std::fs::read(Path::new(&dir).join("index.json")).expect("the manifest"),
        before
    );
}

#[test]
fn an_input_that_fails_partway_keeps_its_games_and_the_inputs_after_it_their_names() {
    let t = Temp::new("fails-partway");
    // A compressed file cut in the middle: its first games read, then an error.
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    std::io::Write::write_all(
        &mut encoder,
        &std::fs::read(root().join("corpus/pgn/generated.pgn")).expect("the corpus"),
    )
    .expect("compressed");
    let packed = encoder.finish().expect("compressed");
    let cut = t.path("cut.pgn.gz");
    std::fs::write(&cut, &packed[..packed.len() / 2]).expect("written");
    let cut = cut.display().to_string();
    let dir = t.path("index").display().to_string();
    let model = "corpus/pgn/model.pgn";
    let out = run(&["index", "-q", "-o", &dir, &cut, model]);
    // An input that fails is an exit status of 2, as for every command; the index holds
    // what was read.
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    assert!(stderr(&out).contains("cut.pgn.gz"), "{}", stderr(&out));
    // Every game found names the file it is in, and `show` opens it there.
    let lines = notate_ok(&["find", &dir, "--moves", ""]);
    let named = |file: &str| {
        lines
            .lines()
            .filter(|l| {
                l.split('\t')
                    .next()
                    .is_some_and(|path| path.ends_with(file))
            })
            .count()
    };
    assert!(named(&cut) > 0, "{lines}");
    let alone = Temp::new("fails-partway-alone");
    let alone = index_of(&alone, &[model]);
    let of_model = notate_ok(&["find", &alone, "--moves", ""]);
    assert_eq!(named(model), of_model.lines().count(), "{lines}");
    // (Only the game the error cut, the cut file's last, cannot be shown whole.)
    let last_cut = lines
        .lines()
        .rfind(|l| l.starts_with(&cut))
        .expect("a game of the cut file");
    for line in lines.lines() {
        let fields: Vec<&str> = line.split('\t').collect();
        let shown = run(&["show", fields[0], "--game", fields[1], "--ply", "0"]);
        if line == last_cut {
            assert!(
                stderr(&shown).contains("incomplete deflate stream"),
                "{line}"
            );
        } else {
            assert_eq!(code(&shown), 0, "{line}: {}", stderr(&shown));
        }
    }
    // Appending the cut file again is refused: its games are in the index.
    let again = run(&["index", "-q", "--append", "-o", &dir, &cut]);
    assert!(
        stderr(&again).contains("already in the index"),
        "{}",
        stderr(&again)
    );
}

#[test]
fn bad_questions_and_damaged_indexes_exit_2_with_a_message() {
    let t = Temp::new("damaged");
    let dir = index_of(&t, &CHESS[..2]);
    let expect_2 = |args: &[&str], says: &str| {
        let out = run(args);
        assert_eq!(code(&out), 2, "{args:?}: {}", stderr(&out));
        assert!(stderr(&out).contains(says), "{args:?}: {}", stderr(&out));
        assert!(!stderr(&out).contains("panicked"), "{}", stderr(&out));
    };
    expect_2(
        &["explore", &dir, "--fen", "not a fen"],
        "does not set up a position",
    );
    expect_2(
        &["explore", &dir, "--moves", "e4 e4"],
        "\"e4\" is not a legal move here",
    );
    expect_2(
        &["find", &dir, "--moves", "Ke2 Ke7 Kf9"],
        "is not a legal move here",
    );
    expect_2(&["explore", &dir, "--since", "2024-13"], "not a month");
    let nowhere = t.path("nowhere").display().to_string();
    expect_2(&["explore", &nowhere], "not an index");

    let manifest = Path::new(&dir).join("index.json");
    let text = std::fs::read_to_string(&manifest).expect("the manifest");
    std::fs::write(&manifest, text.replace("\"version\": 2", "\"version\": 7")).expect("written");
    expect_2(&["explore", &dir], "format 7");
    std::fs::write(&manifest, &text[..text.len() / 3]).expect("written");
    expect_2(&["find", &dir], "damaged index");
    std::fs::write(&manifest, &text).expect("written");
    notate_ok(&["explore", &dir]);

    let segment = std::fs::read_dir(&dir)
        .expect("the index")
        .map(|e| e.expect("an entry").path())
        .find(|p| p.extension().is_some_and(|e| e == "seg"))
        .expect("a segment");
    let bytes = std::fs::read(&segment).expect("the segment");
    std::fs::write(&segment, &bytes[..bytes.len() / 2]).expect("cut");
    let out = run(&["explore", &dir]);
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    assert!(!stderr(&out).contains("panicked"), "{}", stderr(&out));
    std::fs::remove_file(&segment).expect("removed");
    expect_2(&["explore", &dir], "is missing");
}

/// The explorer's answers an index gives, for a few positions.
fn answers(dir: &str) -> Vec<String> {
    ["", "e4", "d4 d5", "Nf3"]
        .iter()
        .map(|moves| notate_ok(&["explore", dir, "--moves", moves, "--json"]))
        .collect()
}

/// Runs `notate ARGS` and kills it (SIGKILL) after `after`, unless it ended before.
fn kill_after(args: &[&str], after: Duration) -> bool {
    let mut child = Command::new(env!("CARGO_BIN_EXE_notate"))
        .args(args)
        .current_dir(root())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("notate runs");
    let start = Instant::now();
    while start.elapsed() < after {
        if child.try_wait().expect("a status").is_some() {
            return false;
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    let _ = kill(Pid::from_raw(child.id() as i32), Signal::SIGKILL);
    let status = child.wait().expect("a status");
    status.code().is_none()
}

#[test]
fn a_build_or_append_killed_at_any_moment_leaves_the_index_answering_as_before() {
    let t = Temp::new("killed");
    let games = std::fs::read(root().join("corpus/pgn/generated.pgn")).expect("the corpus");
    let mut big = Vec::new();
    for _ in 0..400 {
        big.extend_from_slice(&games);
        big.extend_from_slice(b"\n");
    }
    let big_path = t.file("big.pgn", &big);
    let dir = index_of(&t, &CHESS[..2]);
    let before = answers(&dir);
    // How long a whole run takes, as the runs below are started (the faster of two), and
    // what a run that ends gives: the big file alone (built anew), or added (appended).
    let whole = Temp::new("killed-whole");
    let whole_dir = whole.path("index").display().to_string();
    let took = (0..2)
        .map(|_| {
            let start = Instant::now();
            assert!(!kill_after(
                &["index", "-q", "-o", &whole_dir, &big_path],
                Duration::MAX
            ));
            start.elapsed()
        })
        .min()
        .expect("two runs");
    let built_anew = answers(&whole_dir);
    let appended_dir = whole.path("appended").display().to_string();
    let mut args = vec!["index", "-q", "-o", &appended_dir];
    args.extend_from_slice(&CHESS[..2]);
    notate_ok(&args);
    notate_ok(&["index", "-q", "--append", "-o", &appended_dir, &big_path]);
    let appended = answers(&appended_dir);
    let mut killed = 0;
    let mut seed = std::process::id() as u64;
    for n in 0..12 {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let after = took.mul_f64((seed >> 33) as f64 / (1u64 << 31) as f64);
        let append = n % 2 == 0;
        let mut args = vec!["index", "-q", "-o", &dir];
        if append {
            args.push("--append");
        }
        args.push(&big_path);
        let was_killed = kill_after(&args, after);
        killed += usize::from(was_killed);
        let now = answers(&dir);
        let finished = if append { &appended } else { &built_anew };
        // Killed before its manifest was renamed into place: the index as before; after
        // (or not killed at all): the whole run's. Nothing else.
        if now == before {
            assert!(was_killed, "a run that ended left the index as before");
            continue;
        }
        assert!(
            now == *finished,
            "killed after {after:?} (seed {seed}), append {append}: neither before nor after"
        );
        // Put the index back as it was for the next run.
        let _ = std::fs::remove_dir_all(&dir);
        index_of(&t, &CHESS[..2]);
        assert_eq!(answers(&dir), before);
    }
    // The next run removes what the killed ones left: the folder holds the manifest and
    // the segments it names.
    notate_ok(&[
        "index",
        "-q",
        "--append",
        "-o",
        &dir,
        "corpus/pgn/model.pgn",
    ]);
    let manifest = std::fs::read_to_string(Path::new(&dir).join("index.json")).expect("read");
    for entry in std::fs::read_dir(&dir).expect("the index") {
        let name = entry
            .expect("an entry")
            .file_name()
            .to_string_lossy()
            .into_owned();
        assert!(
            name == "index.json" || manifest.contains(&format!("\"{name}\"")),
            "{name} left in the index"
        );
    }
    assert!(
        killed >= 4,
        "only {killed} runs were killed before their end"
    );
}

#[test]
fn variations_are_indexed_when_asked_at_any_depth() {
    let t = Temp::new("variations");
    // Variations 3,000 deep inside the first, and a side line with a position of its own.
    let mut text = String::from("[Result \"1-0\"]\n\n1. e4 e5 ( 1... c5 2. Nf3 ");
    for _ in 0..3_000 {
        text.push_str("( 2. Nf3 ");
    }
    for _ in 0..3_001 {
        text.push_str(") ");
    }
    text.push_str("2. Nf3 ( 2. Bc4 Nf6 ) Nc6 1-0\n\n");
    let file = t.file("deep.pgn", text.as_bytes());
    let main_only = index_of(&t, &[&file]);
    let found =
        |dir: &str, moves: &str| notate_ok(&["find", dir, "--moves", moves]).lines().count();
    assert_eq!(found(&main_only, "e4 e5 Nf3 Nc6"), 1);
    assert_eq!(found(&main_only, "e4 c5 Nf3"), 0);
    assert_eq!(found(&main_only, "e4 e5 Bc4 Nf6"), 0);
    let all = t.path("all").display().to_string();
    notate_ok(&["index", "-q", "--variations", "-o", &all, &file]);
    assert_eq!(found(&all, "e4 e5 Nf3 Nc6"), 1);
    assert_eq!(found(&all, "e4 c5 Nf3"), 1);
    assert_eq!(found(&all, "e4 e5 Bc4 Nf6"), 1);
    // From the position after 1. e4, the game played e5 and, in its variations, c5.
    let answer = json(&["explore", &all, "--moves", "e4", "--json"]);
    let ucis: Vec<&str> = answer["moves"]
        .as_array()
        .expect("moves")
        .iter()
        .map(|m| m["uci"].as_str().expect("uci"))
        .collect();
    assert_eq!(ucis, ["c7c5", "e7e5"]);
    // Appended to the same way, or refused.
    let out = run(&[
        "index",
        "-q",
        "--append",
        "-o",
        &all,
        "corpus/pgn/model.pgn",
    ]);
    assert_eq!(code(&out), 2);
    assert!(
        stderr(&out).contains("append with --variations"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn shards_merge_into_the_index_of_one_build() {
    let t = Temp::new("merge");
    let shard = |name: &str, files: &[&str]| {
        let dir = t.path(name).display().to_string();
        let mut args = vec!["index", "-q", "-o", &dir];
        args.extend_from_slice(files);
        notate_ok(&args);
        dir
    };
    let a = shard("a", &CHESS[..2]);
    let b = shard("b", &CHESS[2..4]);
    let c = shard("c", &CHESS[4..]);
    // A shard of two segments.
    notate_ok(&[
        "index",
        "-q",
        "--append",
        "-o",
        &c,
        "corpus/pgn/variants.pgn",
    ]);
    let merged = t.path("merged").display().to_string();
    notate_ok(&["index", "-q", "--merge", "-o", &merged, &a, &b, &c]);
    let mut all: Vec<&str> = CHESS.to_vec();
    all.push("corpus/pgn/variants.pgn");
    let whole = shard("whole", &all);
    for moves in ["", "e4", "e4 e5 Nf3 Nc6", "d4"] {
        assert_eq!(
            notate_ok(&[
                "explore", &merged, "--moves", moves, "--json", "--top", "10", "--recent", "10"
            ]),
            notate_ok(&[
                "explore", &whole, "--moves", moves, "--json", "--top", "10", "--recent", "10"
            ]),
            "{moves:?}"
        );
        assert_eq!(
            notate_ok(&["find", &merged, "--moves", moves]),
            notate_ok(&["find", &whole, "--moves", moves])
        );
    }
    // A shard twice, or shards of two games: refused.
    let twice = run(&[
        "index",
        "-q",
        "--merge",
        "-o",
        &t.path("bad").display().to_string(),
        &a,
        &a,
    ]);
    assert_eq!(code(&twice), 2);
    assert!(
        stderr(&twice).contains("which a shard before it holds too"),
        "{}",
        stderr(&twice)
    );
    let draughts = shard("d", &["corpus/pdn/variant-russian.pdn"]);
    let mixed = run(&[
        "index",
        "-q",
        "--merge",
        "-o",
        &t.path("bad").display().to_string(),
        &a,
        &draughts,
    ]);
    assert_eq!(code(&mixed), 2);
    assert!(
        stderr(&mixed).contains("draughts games"),
        "{}",
        stderr(&mixed)
    );
}

/// The shards of `file`'s byte ranges between consecutive `cuts` (the last one's to the
/// file's end), built in `t`: their folders, in order.
fn range_shards(t: &Temp, name: &str, file: &str, cuts: &[u64]) -> Vec<String> {
    (0..cuts.len())
        .map(|i| {
            let dir = t.path(&format!("{name}-{i:02}")).display().to_string();
            let range = match cuts.get(i + 1) {
                Some(end) => format!("{}..{end}", cuts[i]),
                None => format!("{}..", cuts[i]),
            };
            notate_ok(&["index", "-q", "--range", &range, "-o", &dir, file]);
            dir
        })
        .collect()
}

/// What an index answers of each position: the explorer (with ten top and recent games)
/// and `find`'s references and games.
fn every_answer(t: &Temp, dir: &str, questions: &[&[&str]]) -> Vec<String> {
    let games = t.path("found.txt").display().to_string();
    let mut out = Vec::new();
    for question in questions {
        let mut explore = vec!["explore", dir, "--json", "--top", "10", "--recent", "10"];
        explore.extend_from_slice(question);
        out.push(notate_ok(&explore));
        let mut find = vec!["find", dir];
        find.extend_from_slice(question);
        out.push(notate_ok(&find));
        find.extend_from_slice(&["-o", &games]);
        notate_ok(&find);
        out.push(std::fs::read_to_string(&games).expect("the games found"));
    }
    out
}

#[test]
fn shards_of_byte_ranges_merge_into_the_index_of_the_whole_file() {
    let t = Temp::new("ranges");
    let chess: &[&[&str]] = &[
        &[],
        &["--moves", "e4"],
        &["--moves", "d4"],
        &["--moves", "e4 e5 Nf3"],
        &["--variant", "crazyhouse"],
        &["--variant", "atomic", "--moves", "e4"],
        &["--variant", "horde"],
        &["--variant", "racingkings"],
    ];
    let draughts: &[&[&str]] = &[
        &[],
        &["--variant", "pool"],
        &["--variant", "russian"],
        &["--variant", "brazilian", "--moves", "c3-d4"],
    ];
    for (file, questions) in [
        ("corpus/pgn/generated.pgn", chess),
        ("corpus/pgn/variants.pgn", chess),
        ("corpus/pdn/variant-pool.pdn", draughts),
    ] {
        let text = std::fs::read(root().join(file)).expect("the corpus");
        let size = text.len() as u64;
        // A game's first byte, and the byte after it.
        let game = text
            .windows(3)
            .position(|w| w == b"\n\n[")
            .expect("a second game") as u64
            + 2;
        let whole = t.path("whole").display().to_string();
        notate_ok(&["index", "-q", "-o", &whole, file]);
        let expected = every_answer(&t, &whole, questions);
        assert!(
            expected.iter().any(|a| a.contains("[Event")),
            "{file}: no game found"
        );
        // Ranges empty at both ends, cut at a game's first byte, inside games, and at
        // the end of the file.
        let mut cuts = vec![
            0,
            0,
            game,
            game + 1,
            size / 3,
            size / 2 + 17,
            size - 5,
            size,
        ];
        cuts.sort_unstable();
        let shards = range_shards(&t, "shard", file, &cuts);
        let merged = t.path("merged").display().to_string();
        let mut args = vec!["index", "-q", "--merge", "-o", &merged];
        args.extend(shards.iter().map(String::as_str));
        notate_ok(&args);
        assert_eq!(every_answer(&t, &merged, questions), expected, "{file}");
        // The first shard numbers its games as the whole file does, and may be asked;
        // a shard after it may not, before it is merged.
        let first = range_shards(&t, "first", file, &[0, size / 2]);
        notate_ok(&["find", &first[0]]);
        let out = run(&["find", &shards[4]]);
        assert_eq!(code(&out), 2, "{}", stderr(&out));
        assert!(
            stderr(&out).contains("merge it with the shards of the rest of the file"),
            "{}",
            stderr(&out)
        );
    }
}

#[test]
fn shards_of_ranges_and_of_whole_files_merge_in_the_order_of_one_build() {
    let t = Temp::new("ranges-files");
    let file = "corpus/pgn/generated.pgn";
    let size = std::fs::metadata(root().join(file))
        .expect("the corpus")
        .len();
    let ranges = range_shards(&t, "generated", file, &[0, size / 4, size / 2]);
    let model = t.path("model").display().to_string();
    notate_ok(&["index", "-q", "-o", &model, "corpus/pgn/model.pgn"]);
    let lenient = t.path("lenient").display().to_string();
    notate_ok(&["index", "-q", "-o", &lenient, "corpus/pgn/lenient.pgn"]);
    let merged = t.path("merged").display().to_string();
    let mut args = vec!["index", "-q", "--merge", "-o", &merged, &model];
    args.extend(ranges.iter().map(String::as_str));
    args.push(&lenient);
    notate_ok(&args);
    let whole = t.path("whole").display().to_string();
    notate_ok(&[
        "index",
        "-q",
        "-o",
        &whole,
        "corpus/pgn/model.pgn",
        file,
        "corpus/pgn/lenient.pgn",
    ]);
    let questions: &[&[&str]] = &[&[], &["--moves", "e4"], &["--moves", "d4 d5"]];
    assert_eq!(
        every_answer(&t, &merged, questions),
        every_answer(&t, &whole, questions)
    );
    // `select --index` reads the file's games the shards found as a scan of it would.
    let files = ["corpus/pgn/model.pgn", file, "corpus/pgn/lenient.pgn"];
    for pattern in [
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b",
        "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR",
    ] {
        assert!(same_selection(&merged, &files, &["--position", pattern]) > 0);
    }
    // A merged index is appended to as one built whole.
    notate_ok(&[
        "index",
        "-q",
        "--append",
        "-o",
        &merged,
        "corpus/pgn/annotated.pgn",
    ]);
    notate_ok(&[
        "index",
        "-q",
        "--append",
        "-o",
        &whole,
        "corpus/pgn/annotated.pgn",
    ]);
    assert_eq!(
        every_answer(&t, &merged, questions),
        every_answer(&t, &whole, questions)
    );
}

#[test]
fn ranges_that_leave_bytes_out_or_read_them_twice_are_refused() {
    let t = Temp::new("ranges-bad");
    let file = "corpus/pgn/generated.pgn";
    let size = std::fs::metadata(root().join(file))
        .expect("the corpus")
        .len();
    let (a, b) = (size / 3, 2 * size / 3);
    let shards = range_shards(&t, "s", file, &[0, a, b]);
    let overlapping = range_shards(&t, "o", file, &[a - 100, size]);
    let other = t.path("other").display().to_string();
    notate_ok(&["index", "-q", "-o", &other, "corpus/pgn/model.pgn"]);
    let whole = t.path("whole").display().to_string();
    notate_ok(&["index", "-q", "-o", &whole, file]);
    let out = t.path("out").display().to_string();
    let merge_fails = |shards: &[&str], says: &str| {
        let mut args = vec!["index", "-q", "--merge", "-o", &out];
        args.extend_from_slice(shards);
        let run = run(&args);
        assert_eq!(code(&run), 2, "{shards:?}: {}", stderr(&run));
        assert!(stderr(&run).contains(says), "{shards:?}: {}", stderr(&run));
        assert!(!Path::new(&out).join("index.json").exists());
    };
    let [s0, s1, s2] = [&shards[0], &shards[1], &shards[2]].map(String::as_str);
    merge_fails(&[s0, s2], &format!("no shard holds its bytes {a}..{b}"));
    merge_fails(&[s1, s2], &format!("no shard holds its bytes 0..{a}"));
    merge_fails(&[s0, s1], &format!("no shard holds its bytes {b}..{size}"));
    merge_fails(
        &[s0, s2, s1],
        "give the shards of a file in the order of their ranges",
    );
    merge_fails(
        &[s0, &overlapping[0]],
        &format!("its bytes {}..{a} are in two shards' ranges", a - 100),
    );
    merge_fails(&[s0, s1, &other, s2], "give the shards of a file together");
    merge_fails(&[&whole, s0, s1, s2], "which a shard before it holds too");
    // A range reads one uncompressed file, and builds a shard anew.
    let bad = |args: &[&str], says: &str| {
        let run = run(args);
        assert_eq!(code(&run), 2, "{args:?}: {}", stderr(&run));
        assert!(stderr(&run).contains(says), "{args:?}: {}", stderr(&run));
    };
    bad(
        &[
            "index",
            "--range",
            "0..10",
            "-o",
            &out,
            file,
            "corpus/pgn/model.pgn",
        ],
        "--range reads one file",
    );
    let packed = t.path("generated.pgn.gz").display().to_string();
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    std::io::Write::write_all(
        &mut encoder,
        &std::fs::read(root().join(file)).expect("the corpus"),
    )
    .expect("compressed");
    std::fs::write(&packed, encoder.finish().expect("compressed")).expect("written");
    bad(
        &["index", "--range", "0..10", "-o", &out, &packed],
        "a compressed input is read whole",
    );
    bad(
        &["index", "--range", "0..10", "--append", "-o", &whole, file],
        "cannot be used with",
    );
    bad(
        &[
            "index",
            "--append",
            "-o",
            &shards[1],
            "corpus/pgn/model.pgn",
        ],
        "merge the shards",
    );
}

/// `select --position` patterns drawn from the games of `files`: positions along each
/// game's main line (its start, early plies, every ninth, its end), each as its placement
/// and side to move and as its placement alone (draughts: the side `?`), each once; 300
/// or so of them.
fn patterns_of<R: collection::rules::FormatRules>(rules: &R, files: &[&str]) -> Vec<String> {
    let mut patterns = Vec::new();
    for file in files {
        let bytes = std::fs::read(root().join(file)).expect("the corpus");
        let games = notation::GameReader::new(rules, bytes.as_slice(), Default::default());
        for read in games {
            let read = read.expect("in memory");
            let Some(start) = rules.start(&read.game) else {
                continue;
            };
            let mut fens = Vec::new();
            collection::mainline::walk(rules, start, &read.game, |position, _| {
                fens.push(rules.fen(position).expect("a FEN"));
                true
            });
            let last = fens.len().saturating_sub(1);
            for (ply, fen) in fens.iter().enumerate() {
                if !(ply < 3 || ply % 9 == 4 || ply == last) {
                    continue;
                }
                let fields: Vec<&str> = fen.split(' ').collect();
                if fields.len() > 1 {
                    // Chess: the placement and the side to move, or the placement alone.
                    patterns.push(format!("{} {}", fields[0], fields[1]));
                    patterns.push(fields[0].to_owned());
                } else {
                    patterns.push(fen.clone());
                    patterns.push(format!("?{}", &fen[1..]));
                }
            }
        }
    }
    let mut seen = std::collections::HashSet::new();
    patterns.retain(|p| seen.insert(p.clone()));
    // At most 300 or so, spread over the games (each is two runs of notate).
    let step = patterns.len().div_ceil(300).max(1);
    patterns.into_iter().step_by(step).collect()
}

/// `select` of `files` with `args`, by a scan and with the index in `dir`: the same
/// games, the same bytes, the same exit code, and the same count of games selected out of
/// the same number.
fn same_selection(dir: &str, files: &[&str], args: &[&str]) -> usize {
    let mut scan = vec!["select"];
    scan.extend_from_slice(args);
    scan.extend_from_slice(files);
    let mut indexed = scan.clone();
    indexed.extend_from_slice(&["--index", dir]);
    let (a, b) = (run(&scan), run(&indexed));
    assert_eq!(stdout(&b), stdout(&a), "{args:?}: {}", stderr(&b));
    assert_eq!(code(&b), code(&a), "{args:?}: {}", stderr(&b));
    if code(&a) == 2 {
        // A pattern no game reads (a draughts FEN of a board another game type cannot
        // read): the same usage error.
        assert_eq!(stderr(&b), stderr(&a), "{args:?}");
        return 0;
    }
    // `N of M games selected`: the same N out of the same M.
    let tally = |text: String| {
        let line = text
            .lines()
            .find(|l| l.contains("games selected"))
            .map(str::to_owned)
            .unwrap_or_else(|| panic!("{args:?}: no tally in {text}"));
        let words: Vec<String> = line.split(' ').map(str::to_owned).collect();
        (words[1].clone(), words[3].clone())
    };
    let (selected, games) = tally(stderr(&a));
    assert_eq!(tally(stderr(&b)), (selected.clone(), games), "{args:?}");
    selected.parse().expect("a count")
}

/// The games of variants.pgn but its crazyhouse ones, in a file of their own.
fn variants_but_crazyhouse(t: &Temp) -> String {
    let text = std::fs::read_to_string(root().join("corpus/pgn/variants.pgn")).expect("read");
    let kept: Vec<&str> = text
        .split("\n\n[Event")
        .filter(|game| !game.contains("[Variant \"Crazyhouse\"]"))
        .collect();
    t.file("variants.pgn", kept.join("\n\n[Event").as_bytes())
}

#[test]
fn select_with_an_index_gives_the_games_of_the_scan_chess() {
    let t = Temp::new("select-index");
    let variants = variants_but_crazyhouse(&t);
    let files: Vec<&str> = CHESS
        .into_iter()
        .filter(|f| !f.contains("forgiven"))
        .chain([variants.as_str()])
        .collect();
    let dir = index_of(&t, &files);
    let patterns = patterns_of(&pgn::ChessRules, &files);
    assert!(patterns.len() > 200, "{}", patterns.len());
    let mut selected = 0;
    for pattern in &patterns {
        selected += same_selection(&dir, &files, &["--position", pattern]);
    }
    assert!(selected > patterns.len(), "{selected} games selected");
    // Other criteria apply to the games the index found; files in another order, or
    // some of the index's files alone, select as the scan of those files.
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR";
    let after_e4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b";
    for args in [
        &["--position", start, "--result", "1-0"][..],
        &["--position", after_e4, "--player", "a", "--plies", "20.."],
        &["--position", after_e4, "--tag", "Date>=2000"],
        &["--position", start, "--with-errors"],
        &["--position", start, "--without-errors", "--moves", "..30"],
        &["--position", start, "--opening", "1. d4"],
        &["--position", "8/8/8/8/8/8/8/8"],
    ] {
        same_selection(&dir, &files, args);
    }
    let mut backwards = files.clone();
    backwards.reverse();
    assert!(same_selection(&dir, &backwards, &["--position", start]) > 0);
    assert!(same_selection(&dir, &files[1..3], &["--position", after_e4]) > 0);
    // A draughts FEN: no chess game matches it.
    same_selection(&dir, &files, &["--position", "W:W31,32:B19,20"]);
}

#[test]
fn select_with_an_index_gives_the_games_of_the_scan_draughts() {
    let t = Temp::new("select-index-draughts");
    let paths: Vec<String> = std::fs::read_dir(root().join("corpus/pdn"))
        .expect("the corpus")
        .map(|e| {
            format!(
                "corpus/pdn/{}",
                e.expect("an entry").file_name().to_string_lossy()
            )
        })
        .collect();
    let mut files: Vec<&str> = paths.iter().map(String::as_str).collect();
    files.sort_unstable();
    let dir = index_of(&t, &files);
    let patterns = patterns_of(&collection::rules::draughts(None), &files);
    assert!(patterns.len() > 100, "{}", patterns.len());
    let mut selected = 0;
    for pattern in &patterns {
        selected += same_selection(&dir, &files, &["--position", pattern]);
    }
    // (Some FENs of the corpus's boards are read by neither game type a pattern is
    // first tried in: a usage error, the same for both.)
    assert!(
        selected > patterns.len() / 2,
        "{selected} games selected by {} patterns",
        patterns.len()
    );
    same_selection(
        &dir,
        &files,
        &["--position", "W:W31,32,33:B18,19,20", "--result", "2-0"],
    );
    // Read with another game type than the index's reading: refused.
    let out = run(&[
        "select",
        "--position",
        &patterns[0],
        "--index",
        &dir,
        "--variant",
        "russian",
        files[0],
    ]);
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    assert!(
        stderr(&out).contains("give select the --variant the index was built with"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn select_with_an_index_refuses_what_it_cannot_answer_exactly() {
    let t = Temp::new("select-index-refused");
    let dir = index_of(&t, &CHESS[..3]);
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR";
    let refused = |args: &[&str], says: &str| {
        let out = run(args);
        assert_eq!(code(&out), 2, "{args:?}: {}", stderr(&out));
        assert!(stderr(&out).contains(says), "{args:?}: {}", stderr(&out));
        assert!(stdout(&out).is_empty(), "{args:?}");
    };
    refused(&["select", "--index", &dir, CHESS[0]], "--position");
    refused(
        &[
            "select",
            "--index",
            &dir,
            "--position",
            start,
            "--invert",
            CHESS[0],
        ],
        "cannot be used with",
    );
    refused(
        &[
            "select",
            "--index",
            &dir,
            "--position",
            start,
            "--rejects",
            "r.pgn",
            CHESS[0],
        ],
        "cannot be used with",
    );
    refused(
        &["select", "--index", &dir, "--position", start, CHESS[5]],
        "not in the index",
    );
    refused(
        &["select", "--index", &dir, "--position", start, "-"],
        "standard input is in no index",
    );
    // forgiven.pgn holds a crazyhouse game.
    refused(
        &["select", "--index", &dir, "--position", start, CHESS[1]],
        "crazyhouse games",
    );
    // A file changed since it was indexed is not the file the index holds.
    let copy = t.file(
        "model.pgn",
        &std::fs::read(root().join("corpus/pgn/model.pgn")).expect("read"),
    );
    let other = t.path("changed").display().to_string();
    notate_ok(&["index", "-q", "-o", &other, &copy]);
    let mut text = std::fs::read(&copy).expect("read");
    text.extend_from_slice(b"\n[Event \"x\"]\n\n1. e4 *\n");
    std::fs::write(&copy, text).expect("written");
    refused(
        &["select", "--index", &other, "--position", start, &copy],
        "not in the index",
    );
    // An index built before the kinds of its games were recorded.
    let old = t.path("old").display().to_string();
    notate_ok(&["index", "-q", "-o", &old, CHESS[5]]);
    let manifest = Path::new(&old).join("index.json");
    let text = std::fs::read_to_string(&manifest).expect("the manifest");
    let mut json: serde_json::Value = serde_json::from_str(&text).expect("JSON");
    for source in json["sources"].as_array_mut().expect("sources") {
        source.as_object_mut().expect("a source").remove("kinds");
    }
    std::fs::write(&manifest, json.to_string()).expect("written");
    notate_ok(&["find", &old]);
    refused(
        &["select", "--index", &old, "--position", start, CHESS[5]],
        "build it again",
    );
}

#[test]
fn select_with_an_index_finds_a_placement_whatever_else_the_positions_hold() {
    let t = Temp::new("select-index-placement");
    // One placement, set up with every castling right, en passant or not, in three-check
    // with checks given, and in other rulesets: each its own position to the index.
    let placement = "rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR";
    let mut text = String::new();
    for (variant, rest) in [
        ("Standard", "w KQkq d6 0 3"),
        ("Standard", "w KQkq - 0 3"),
        ("Standard", "w Kq - 0 3"),
        ("Standard", "w - - 0 3"),
        ("Standard", "b KQkq - 0 3"),
        ("Chess960", "w HAha - 0 3"),
        ("Three-check", "w KQkq d6 0 3 +1+0"),
        ("Three-check", "w KQkq - 0 3 +2+2"),
        ("Atomic", "w KQkq d6 0 3"),
        ("King of the Hill", "w - - 0 3"),
    ] {
        let mv = if rest.starts_with('b') {
            "3... a6"
        } else {
            "3. a3"
        };
        text.push_str(&format!(
            "[Event \"{variant} {rest}\"]\n[Variant \"{variant}\"]\n[SetUp \"1\"]\n\
             [FEN \"{placement} {rest}\"]\n[Result \"*\"]\n\n{mv} *\n\n"
        ));
    }
    let file = t.file("placements.pgn", text.as_bytes());
    let dir = index_of(&t, &[&file]);
    let games = |pattern: &str| same_selection(&dir, &[&file], &["--position", pattern]);
    assert_eq!(games(placement), 10);
    assert_eq!(games(&format!("{placement} w")), 9);
    assert_eq!(games(&format!("{placement} b")), 1);
    // The position after the move too.
    assert_eq!(
        games("rnbqkbnr/ppp1pppp/8/3pP3/8/P7/1PPP1PPP/RNBQKBNR b"),
        9
    );
}
