//! `notate annotate` with real engines (Debian's Stockfish and Fairy-Stockfish, which
//! `.ci/run` installs) and a fake one that fails on purpose: the evaluations written are
//! the engine's own, the number of engines changes nothing, what a game holds is kept,
//! and an engine that crashes, hangs, talks nonsense or gives no score costs the games it
//! was analysing their analysis, not the run.

mod common;

use std::path::PathBuf;
use std::process::{Command, Output};
use std::time::{Duration, Instant};

use common::{Temp, code, root, stderr, stdout};
use engine::{Engine, EngineConfig, Limit, Query, Uci};
use notation::Rules;
use pgn::commands::Score;

/// An engine installed from Debian's packages: on `PATH`, else in `/usr/games`.
fn installed(name: &str) -> PathBuf {
    let on_path = std::env::var_os("PATH")
        .map(|path| std::env::split_paths(&path).collect::<Vec<_>>())
        .unwrap_or_default();
    on_path
        .into_iter()
        .chain([PathBuf::from("/usr/games")])
        .map(|dir| dir.join(name))
        .find(|path| path.is_file())
        .unwrap_or_else(|| panic!("{name} is not installed: apt-get install {name}"))
}

/// The fake engine of the engine crate's tests, behaving as `mode` says.
fn fake(t: &Temp, mode: &str) -> PathBuf {
    let script = root().join("crates/engine/tests/fake-engine.py");
    // Called by a name that says its behaviour.
    let link = t.path(mode);
    std::os::unix::fs::symlink(&script, &link).expect("a link to the fake engine");
    link
}

fn annotate(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_notate"))
        .arg("annotate")
        .args(args)
        .current_dir(root())
        .output()
        .expect("notate runs")
}

/// A main-line move read back: the position before it, its comments and its glyphs.
type Played = (pgn::Position, Vec<String>, Vec<u16>);

/// Games of `text` read back, each main line's moves.
fn main_lines(text: &str) -> Vec<Vec<Played>> {
    let games = pgn::read_games(text.as_bytes());
    games
        .into_iter()
        .map(|read| {
            assert!(!read.has_errors(), "{:?}", read.diagnostics);
            let game = read.game;
            let mut position = pgn::ChessRules
                .start_position(&game.tags)
                .expect("a start")
                .position;
            game.mainline()
                .map(|node| {
                    let before = position;
                    position = position.play(&node.mv);
                    let nags = node.nags.iter().map(|n| n.0).collect();
                    (before, node.comments.clone(), nags)
                })
                .collect()
        })
        .collect()
}

/// The `[%eval]` of a move's comments.
fn eval_of(comments: &[String]) -> Option<String> {
    comments
        .iter()
        .find_map(|c| pgn::commands::args_of(c, "eval"))
        .map(str::to_owned)
}

/// Every evaluation written is the one the engine gives when asked directly, as
/// python-chess would ask it, for the position after the move (with its own move number:
/// the engines are asked with move number 1, which they do not read), and the position
/// where the game is over has none.
#[test]
fn evaluations_are_the_engine_s_own() {
    let stockfish = installed("stockfish");
    let out = annotate(&[
        "--engine",
        stockfish.to_str().expect("a path"),
        "--nodes",
        "5000",
        "corpus/pgn/model.pgn",
    ]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let games = main_lines(&stdout(&out));
    assert_eq!(games.len(), 1);
    let mut engine = Uci::start(&EngineConfig {
        path: stockfish,
        threads: Some(1),
        ..EngineConfig::default()
    })
    .expect("Stockfish starts");
    let mut compared = 0;
    // The position after each move is the one before the next.
    let moves = &games[0];
    for (i, (_, comments, _)) in moves.iter().enumerate() {
        let Some(written) = eval_of(comments) else {
            panic!("move {} has no evaluation: {comments:?}", i + 1);
        };
        let Some((after, _, _)) = moves.get(i + 1) else {
            continue;
        };
        let fen = after.to_fen();
        let analysis = engine
            .analyse(
                &Query {
                    fen: &fen,
                    variant: None,
                    chess960: false,
                },
                Limit::Nodes(5000),
                Duration::from_secs(30),
            )
            .expect("an analysis");
        let white = after.turn() == pgn::Color::White;
        let score = match analysis.score {
            engine::Score::Centipawns(cp) => Score::Centipawns(if white { cp } else { -cp }),
            engine::Score::Mate(n) => Score::Mate(if white { n } else { -n }),
        };
        assert_eq!(
            format!("[%eval {written}]"),
            collection::annotate::eval_command(score),
            "after move {} ({fen})",
            i + 1
        );
        compared += 1;
    }
    assert!(compared >= 80, "{compared} evaluations compared");
}

/// The engines' number changes nothing: each position is analysed from a clean state,
/// with a node limit and one thread.
#[test]
fn the_number_of_engines_changes_nothing() {
    let stockfish = installed("stockfish");
    let stockfish = stockfish.to_str().expect("a path");
    let run = |engines: &str| {
        let out = annotate(&[
            "--engine",
            stockfish,
            "--nodes",
            "3000",
            "--engines",
            engines,
            "corpus/pgn/annotated.pgn",
            "corpus/pgn/model.pgn",
        ]);
        assert_eq!(code(&out), 0, "{}", stderr(&out));
        out.stdout
    };
    let one = run("1");
    assert!(!one.is_empty());
    assert_eq!(
        String::from_utf8_lossy(&run("3")),
        String::from_utf8_lossy(&one)
    );
}

/// A blunder gets `$4` and the engine's better line beside it; a mating move gets no
/// evaluation; what a game already holds (comments, glyphs, variations, an evaluation) is
/// kept, the evaluation replaced only with --overwrite; accuracy tags when asked.
#[test]
fn a_blunder_gets_its_glyph_and_the_better_line_and_the_game_keeps_what_it_holds() {
    let stockfish = installed("stockfish");
    let stockfish = stockfish.to_str().expect("a path");
    let t = Temp::new("annotate-kept");
    let input = t.file(
        "games.pgn",
        b"[Event \"Scholar\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 {hm} 4. Qxf7# 1-0\n\n\
          [Event \"Kept\"]\n[Result \"*\"]\n\n1. e4! {best by test} (1. d4 d5) 1... e5 {[%eval 0.77] [%clk 0:01:00]} 2. Nf3 *\n",
    );
    let out = annotate(&[
        "--engine",
        stockfish,
        "--nodes",
        "5000",
        "--accuracy-tags",
        &input,
    ]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let text = stdout(&out);
    let games = main_lines(&text);
    let scholar = &games[0];
    // 3... Nf6?? allows mate: a blunder, with a variation beside it.
    assert_eq!(scholar[5].2, vec![4], "{text}");
    let words = text.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        words.contains("3... Nf6 $4 {[%eval #1] hm} ( 3..."),
        "{text}"
    );
    // The mating move: the game is over, nothing to evaluate.
    assert_eq!(eval_of(&scholar[6].1), None, "{text}");
    // `json` and `stats` read the same accuracies from the evaluations written.
    let tag = |name: &str| {
        let start = text.find(&format!("[{name} \"")).expect(name) + name.len() + 3;
        text[start..].split('"').next().expect("a value").to_owned()
    };
    let (white, black) = (tag("WhiteAccuracy"), tag("BlackAccuracy"));
    let annotated = t.file("annotated.pgn", text.as_bytes());
    let json = Command::new(env!("CARGO_BIN_EXE_notate"))
        .args(["json", &annotated])
        .output()
        .expect("notate runs");
    let first = stdout(&json).lines().next().unwrap_or_default().to_owned();
    let field = format!("\"accuracy\":{{\"white\":{white},\"black\":{black}}}");
    assert!(first.contains(&field), "{field} in {first}");
    let stats = Command::new(env!("CARGO_BIN_EXE_notate"))
        .args(["stats", &annotated])
        .output()
        .expect("notate runs");
    let report = stdout(&stats);
    // The second game keeps an evaluation it had, and gets one after each other move.
    assert!(
        report.contains("accuracy (2 games with an evaluation after each move):"),
        "{report}"
    );
    let kept = &games[1];
    assert_eq!(kept[0].2, vec![1], "the glyph ! is kept: {text}");
    assert!(
        kept[0].1.iter().any(|c| c.contains("best by test")),
        "{text}"
    );
    assert!(words.contains("( 1. d4 d5 )"), "{text}");
    assert_eq!(eval_of(&kept[1].1).as_deref(), Some("0.77"), "{text}");
    assert!(
        kept[1].1.iter().any(|c| c.contains("[%clk 0:01:00]")),
        "{text}"
    );
    let out = annotate(&[
        "--engine",
        stockfish,
        "--nodes",
        "5000",
        "--overwrite",
        &input,
    ]);
    let games = main_lines(&stdout(&out));
    let replaced = eval_of(&games[1][1].1).expect("an evaluation");
    assert_ne!(replaced, "0.77");
    assert!(games[1][1].1.iter().any(|c| c.contains("[%clk 0:01:00]")));
}

/// A game with an error passes through unchanged, with a warning and exit code 1, and so
/// does a draughts file; the games around them are annotated.
#[test]
fn games_that_cannot_be_read_and_draughts_pass_through_unchanged() {
    let stockfish = installed("stockfish");
    let t = Temp::new("annotate-errors");
    let broken = "[Event \"Broken\"]\n\n1. e4 e5 2. Ke3 *\n";
    let input = t.file(
        "games.pgn",
        format!("[Event \"A\"]\n\n1. d4 *\n\n{broken}\n[Event \"B\"]\n\n1. c4 *\n").as_bytes(),
    );
    let draughts = root().join("corpus/pdn/international.pdn");
    let args = [
        "--engine",
        stockfish.to_str().expect("a path"),
        "--nodes",
        "2000",
        &input,
        draughts.to_str().expect("a path"),
    ];
    let out = annotate(&args);
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains(broken), "{text}");
    assert!(
        stderr(&out).contains("game 2 passed through unchanged"),
        "{}",
        stderr(&out)
    );
    assert_eq!(text.matches("[%eval").count(), 2, "{text}");
    assert!(stderr(&out).contains("draughts games are passed through unchanged"));
    let written = std::fs::read_to_string(&draughts).expect("the draughts file");
    let first_game = written.split("\n\n[").next().expect("a game");
    assert!(text.contains(first_game.trim_end()), "{text}");
}

/// An engine that cannot be started: a clear error naming it, exit code 2, no output.
#[test]
fn an_engine_that_cannot_start_is_a_usage_error() {
    let t = Temp::new("annotate-start");
    for (engine, said) in [
        (t.path("no-such-engine"), "no-such-engine"),
        (fake(&t, "notuci"), "UCI"),
    ] {
        let out = annotate(&[
            "--engine",
            engine.to_str().expect("a path"),
            "corpus/pgn/model.pgn",
        ]);
        assert_eq!(code(&out), 2, "{}", stderr(&out));
        assert!(out.stdout.is_empty());
        assert!(stderr(&out).contains(said), "{}", stderr(&out));
        // An earlier file of the output's name is left as it was, with nothing beside it.
        let earlier = t.file("earlier.pgn", b"[Event \"earlier\"]\n\n*\n");
        let out = annotate(&[
            "--engine",
            engine.to_str().expect("a path"),
            "corpus/pgn/model.pgn",
            "-o",
            &earlier,
        ]);
        assert_eq!(code(&out), 2, "{}", stderr(&out));
        assert_eq!(
            std::fs::read(&earlier).expect("the earlier file"),
            b"[Event \"earlier\"]\n\n*\n"
        );
        assert!(!t.path(".earlier.pgn.notate-resume").exists());
    }
}

/// Engines that fail on purpose: one that crashes at every search and one that never
/// answers cost every game its analysis (written unchanged, with a warning, exit code 1),
/// quickly; one that prints nonsense around a good answer, or that crashes once only, is
/// read through; one that gives no score fails as a crash does.
#[test]
fn an_engine_that_fails_costs_its_games_their_analysis_not_the_run() {
    let t = Temp::new("annotate-faults");
    let input = t.file(
        "g.pgn",
        b"[Event \"A\"]\n\n1. e4 e5 2. Nf3 *\n\n[Event \"B\"]\n\n1. d4 *\n",
    );
    let run = |mode: &str, extra: &[&str]| {
        let engine = fake(&t, mode);
        let engine = engine.to_str().expect("a path").to_owned();
        let mut args = vec!["--engine", &engine, "--nodes", "1000", "--engines", "1"];
        args.extend_from_slice(extra);
        args.push(&input);
        let started = Instant::now();
        let out = annotate(&args);
        (out, started.elapsed())
    };
    for mode in ["crash", "noscore"] {
        let (out, _) = run(mode, &[]);
        assert_eq!(code(&out), 1, "{mode}: {}", stderr(&out));
        assert!(!stdout(&out).contains("[%eval"), "{mode}");
        assert_eq!(stdout(&out).matches("[Event").count(), 2, "{mode}");
        assert!(
            stderr(&out).contains("passed through unchanged"),
            "{mode}: {}",
            stderr(&out)
        );
    }
    let (out, took) = run("hang", &["--timeout", "0.5"]);
    assert_eq!(code(&out), 1, "hang: {}", stderr(&out));
    assert!(!stdout(&out).contains("[%eval"));
    assert!(took < Duration::from_secs(30), "hang took {took:?}");
    for mode in ["garbage", "good"] {
        let (out, _) = run(mode, &[]);
        assert_eq!(code(&out), 0, "{mode}: {}", stderr(&out));
        assert_eq!(
            stdout(&out).matches("[%eval").count(),
            4,
            "{mode}: {}",
            stdout(&out)
        );
    }
    // Crashes at its first search, then answers once started again.
    let engine = fake(&t, "crash-once");
    let state = t.path("crashed");
    let out = Command::new(env!("CARGO_BIN_EXE_notate"))
        .args([
            "annotate",
            "--engine",
            engine.to_str().expect("a path"),
            "--engines",
            "1",
            &input,
        ])
        .env("FAKE_ENGINE_STATE", &state)
        .output()
        .expect("notate runs");
    assert!(state.exists(), "the engine crashed once");
    assert_eq!(code(&out), 0, "crash-once: {}", stderr(&out));
    assert_eq!(
        stdout(&out).matches("[%eval").count(),
        4,
        "{}",
        stdout(&out)
    );
}

/// Chess variants go to Fairy-Stockfish with their `UCI_Variant`.
#[test]
fn variants_are_analysed_by_fairy_stockfish() {
    let fairy = installed("fairy-stockfish");
    let t = Temp::new("annotate-variants");
    let input = t.file(
        "zh.pgn",
        b"[Event \"zh\"]\n[Variant \"Crazyhouse\"]\n[Result \"*\"]\n\n1. e4 d5 2. exd5 Qxd5 3. Nc3 Qa5 *\n",
    );
    let out = annotate(&[
        "--engine",
        fairy.to_str().expect("a path"),
        "--nodes",
        "3000",
        &input,
    ]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(
        stdout(&out).matches("[%eval").count(),
        6,
        "{}",
        stdout(&out)
    );
}

/// `--cache FILE` keeps the analyses: a second run over the same games asks the engine
/// nothing and writes the same file; another limit takes nothing from it.
#[test]
fn a_cache_file_keeps_the_analyses_for_the_next_run() {
    let stockfish = installed("stockfish");
    let stockfish = stockfish.to_str().expect("a path");
    let t = Temp::new("annotate-cache");
    let cache = t.path("analyses.tsv");
    let cache = cache.to_str().expect("a path");
    let run = |nodes: &str| {
        let out = annotate(&[
            "--engine",
            stockfish,
            "--nodes",
            nodes,
            "--cache",
            cache,
            "corpus/pgn/model.pgn",
        ]);
        assert_eq!(code(&out), 0, "{}", stderr(&out));
        out
    };
    let first = run("3000");
    assert!(
        stderr(&first).contains("86 positions analysed"),
        "{}",
        stderr(&first)
    );
    let second = run("3000");
    assert!(
        stderr(&second)
            .contains("0 positions analysed (0.0 s of search), 0 met again, 86 from the cache"),
        "{}",
        stderr(&second)
    );
    assert_eq!(stdout(&second), stdout(&first));
    let other = run("2000");
    assert!(
        stderr(&other).contains("86 positions analysed"),
        "{}",
        stderr(&other)
    );
}

/// A run with `-o` killed at any moment (SIGKILL, at moments spread over the run), then
/// resumed with `--resume`, gives the file an uninterrupted run gives, byte for byte; one
/// interrupted by Ctrl-C (SIGINT) leaves only whole games and says how to resume; resuming
/// a finished run does nothing.
#[test]
fn a_run_killed_at_any_moment_then_resumed_gives_the_same_file() {
    use nix::sys::signal::{Signal, kill};
    use nix::unistd::Pid;

    let stockfish = installed("stockfish");
    let stockfish = stockfish.to_str().expect("a path");
    let t = Temp::new("annotate-resume");
    let args = |out: &str| -> Vec<String> {
        [
            "annotate",
            "--engine",
            stockfish,
            "--nodes",
            "2000",
            "--engines",
            "2",
            "-q",
            "corpus/pgn/generated.pgn",
            "corpus/pgn/model.pgn",
            "-o",
            out,
        ]
        .iter()
        .map(|s| (*s).to_owned())
        .collect()
    };
    let notate = || {
        let mut command = Command::new(env!("CARGO_BIN_EXE_notate"));
        command.current_dir(root());
        command
    };
    let whole = t.path("whole.pgn");
    let whole_path = whole.to_str().expect("a path");
    let out = notate()
        .args(args(whole_path))
        .output()
        .expect("notate runs");
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let expected = std::fs::read(&whole).expect("the whole file");
    assert!(
        !t.path(".whole.pgn.notate-resume").exists(),
        "no record is left"
    );
    let again = notate()
        .args(args(whole_path))
        .arg("--resume")
        .output()
        .expect("notate runs");
    assert!(
        stderr(&again).contains("nothing to resume"),
        "{}",
        stderr(&again)
    );
    assert_eq!(std::fs::read(&whole).expect("the file"), expected);

    // Whether a resume by another run was refused, on the first cut file with a record.
    let mut refused = false;
    for (i, (signal, after)) in [
        (Signal::SIGKILL, 0),
        (Signal::SIGKILL, 150),
        (Signal::SIGKILL, 400),
        (Signal::SIGKILL, 900),
        (Signal::SIGKILL, 1700),
        (Signal::SIGINT, 700),
    ]
    .into_iter()
    .enumerate()
    {
        let name = format!("cut{i}.pgn");
        let path = t.path(&name);
        let path_text = path.to_str().expect("a path");
        let child = notate()
            .args(args(path_text))
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("notate starts");
        std::thread::sleep(Duration::from_millis(after));
        let _ = kill(Pid::from_raw(child.id() as i32), signal);
        let killed = child.wait_with_output().expect("notate ends");
        if !refused && t.path(&format!(".{name}.notate-resume")).exists() {
            refused = true;
            // Another run (here, another limit) may not go on with this one's file.
            let cut = std::fs::read(&path).ok();
            let other = notate()
                .args(args(path_text).iter().map(|a| match a.as_str() {
                    "2000" => "3000",
                    a => a,
                }))
                .arg("--resume")
                .output()
                .expect("notate runs");
            assert_eq!(code(&other), 2, "{}", stderr(&other));
            assert!(
                stderr(&other).contains("begun by another run"),
                "{}",
                stderr(&other)
            );
            assert_eq!(std::fs::read(&path).ok(), cut, "left as it was");
        }
        if signal == Signal::SIGINT && killed.status.code() != Some(0) {
            let written = std::fs::read(&path).unwrap_or_default();
            assert!(
                written.is_empty() || written.ends_with(b"\n\n"),
                "only whole games after Ctrl-C"
            );
            assert!(stderr(&killed).contains("--resume"), "{}", stderr(&killed));
        }
        // Resumed as often as it takes (once, as nothing kills it now).
        let resumed = notate()
            .args(args(path_text))
            .arg("--resume")
            .output()
            .expect("notate runs");
        assert!(
            matches!(code(&resumed), 0),
            "resume after {signal} at {after} ms: {}",
            stderr(&resumed)
        );
        assert!(
            std::fs::read(&path).expect("the file") == expected,
            "resume after {signal} at {after} ms gives another file"
        );
    }
    assert!(refused, "a cut file with its record was met");
}
