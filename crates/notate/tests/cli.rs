//! The `notate` binary, run as a person runs it: on the project's corpus, on temporary
//! files (compressed, misnamed, broken), on standard input.

mod common;

use std::io::Write;
use std::process::{Command, Output, Stdio};

use common::{Temp, code, root, run, stderr, stdout};

fn notate() -> Command {
    Command::new(env!("CARGO_BIN_EXE_notate"))
}

fn run_stdin(args: &[&str], input: &[u8]) -> Output {
    let mut child = notate()
        .args(args)
        .current_dir(root())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("notate runs");
    let mut stdin = child.stdin.take().expect("piped");
    let input = input.to_vec();
    let writer = std::thread::spawn(move || {
        // The child may stop reading early; a broken pipe is then expected.
        let _ = stdin.write_all(&input);
    });
    let out = child.wait_with_output().expect("notate ends");
    let _ = writer.join();
    out
}

const GAME: &str = "[Event \"e\"]\n[Site \"s\"]\n[Date \"2024.01.01\"]\n[Round \"1\"]\n[White \"w\"]\n[Black \"b\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 Nc6 {a comment} 3. Bb5 (3. Bc4 Bc5) 3... a6 1-0\n\n";

/// A game the reader cannot fully read: its comment is never closed.
const BROKEN: &str = "[Event \"broken\"]\n[Result \"*\"]\n\n1. e4 {never closed *\n";

#[test]
fn help_everywhere() {
    for sub in [
        "check", "fmt", "scan", "json", "stats", "perft", "show", "svg",
    ] {
        let o = run(&[sub, "--help"]);
        assert_eq!(code(&o), 0, "{sub} --help");
        assert!(stdout(&o).contains("Usage: notate"), "{sub} --help");
    }
    assert_eq!(code(&run(&["--help"])), 0);
}

#[test]
fn usage_errors_exit_2() {
    assert_eq!(code(&run(&[])), 2);
    assert_eq!(code(&run(&["frobnicate"])), 2);
    let o = run(&["check", "no/such/file.pgn"]);
    assert_eq!(code(&o), 2);
    assert!(stderr(&o).contains("no/such/file.pgn"), "{}", stderr(&o));
    assert_eq!(code(&run(&["perft", "x"])), 2);
    assert_eq!(code(&run(&["perft", "--variant", "go", "3"])), 2);
    assert_eq!(code(&run(&["show", "not a fen at all"])), 2);
}

#[test]
fn check_the_corpus() {
    let o = run(&["check", "corpus/"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let out = stdout(&o);
    let last = out.lines().last().expect("summary");
    // The corpus grows; every file in it is read.
    let files = ["corpus/pgn", "corpus/pdn"]
        .iter()
        .flat_map(|d| std::fs::read_dir(root().join(d)).expect("corpus"))
        .count();
    assert!(last.starts_with(&format!("files={files} games=")), "{last}");
    assert!(last.contains(" errors=0 "), "{last}");
    assert!(
        out.contains("corpus/pgn/lenient.pgn:11:1: warning: no empty line between games (game 2)"),
        "{out}"
    );
    let quiet = run(&["check", "--quiet", "corpus/"]);
    assert_eq!(stdout(&quiet).lines().count(), 1);
}

#[test]
fn check_reports_errors_with_exit_1() {
    let t = Temp::new("errors");
    let file = t.file("broken.pgn", format!("{GAME}{BROKEN}").as_bytes());
    let o = run(&["check", &file]);
    assert_eq!(code(&o), 1, "{}", stdout(&o));
    assert!(
        stdout(&o).contains("error: comment has no closing } (game 2)"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn standard_input_and_content_sniffing() {
    let o = run_stdin(&["scan", "-"], GAME.as_bytes());
    assert_eq!(code(&o), 0);
    assert_eq!(
        stdout(&o).trim(),
        "games=1 tags=7 sans=8 nags=0 comments=1 variations=1"
    );
    // A PDN file with no telling name: read as PDN (draughts result markers).
    let t = Temp::new("sniff");
    let pdn = std::fs::read(root().join("corpus/pdn/international.pdn")).expect("corpus");
    let file = t.file("games.txt", &pdn);
    let o = run(&["json", &file]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let forced = run(&["json", "--format", "pdn", &file]);
    assert_eq!(stdout(&o), stdout(&forced));
}

#[test]
fn compressed_inputs() {
    let t = Temp::new("compressed");
    let text = format!("{GAME}{GAME}");
    let plain = t.file("plain.pgn", text.as_bytes());
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(text.as_bytes()).expect("gzip");
    let gz = t.file("games.pgn.gz", &gz.finish().expect("gzip"));
    let mut bz = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::default());
    bz.write_all(text.as_bytes()).expect("bzip2");
    let bz = t.file("games.pgn.bz2", &bz.finish().expect("bzip2"));
    let zst = t.file(
        "games.pgn.zst",
        &zstd::encode_all(text.as_bytes(), 3).expect("zstd"),
    );
    // Misnamed: zstd bytes in a .pgn file still read.
    let misnamed = t.file(
        "really-zstd.pgn",
        &zstd::encode_all(text.as_bytes(), 3).expect("zstd"),
    );
    let expected = stdout(&run(&["fmt", &plain]));
    assert!(expected.contains("3. Bb5"));
    for file in [&gz, &bz, &zst, &misnamed] {
        let o = run(&["fmt", file]);
        assert_eq!(code(&o), 0, "{file}: {}", stderr(&o));
        assert_eq!(stdout(&o), expected, "{file}");
    }
    // A folder: every PGN file below it, compressed or not.
    let o = run(&["scan", &t.dir().display().to_string()]);
    assert!(stdout(&o).starts_with("games=10 "), "{}", stdout(&o));
    // A corrupt compressed file is an I/O failure naming the file.
    let bad = t.file("corrupt.pgn.gz", &[0x1f, 0x8b, 8, 0, 1, 2, 3, 4, 5]);
    let o = run(&["check", &bad]);
    assert_eq!(code(&o), 2);
    assert!(stderr(&o).contains("corrupt.pgn.gz"), "{}", stderr(&o));
}

#[test]
fn fmt_never_drops_a_game() {
    let t = Temp::new("fmt");
    let input = format!("{GAME}{BROKEN}\n{GAME}");
    let file = t.file("mixed.pgn", input.as_bytes());
    let o = run(&["fmt", &file]);
    assert_eq!(code(&o), 1);
    let out = stdout(&o);
    assert!(out.contains(BROKEN.trim_end()), "{out}");
    assert_eq!(out.matches("[Event \"e\"]").count(), 2);
    assert!(
        stderr(&o).contains("game 2 passed through unchanged"),
        "{}",
        stderr(&o)
    );

    let rejects = t.path("rejects.pgn").display().to_string();
    let output = t.path("out.pgn").display().to_string();
    let o = run(&["fmt", &file, "--rejects", &rejects, "-o", &output]);
    assert_eq!(code(&o), 1);
    let written = std::fs::read_to_string(&output).expect("output");
    let rejected = std::fs::read_to_string(&rejects).expect("rejects");
    assert_eq!(written.matches("[Event \"e\"]").count(), 2);
    assert!(!written.contains("broken"));
    assert_eq!(rejected, format!("{}\n\n", BROKEN.trim_end()));
    // The export format is a fixed point.
    let again = run(&["fmt", &output]);
    assert_eq!(stdout(&again), written);
}

/// Many games, some broken, some with tabs: big enough for several chunks.
fn big_input() -> String {
    let mut text = String::new();
    let mut i = 0;
    while text.len() < 3 << 20 {
        i += 1;
        match i % 97 {
            0 => text.push_str(BROKEN),
            13 => text.push_str(&GAME.replace("e5", "e5\t")),
            _ => text.push_str(GAME),
        }
    }
    text
}

#[test]
fn parallel_output_equals_sequential_output() {
    let t = Temp::new("parallel");
    let file = t.file("big.pgn", big_input().as_bytes());
    for sub in ["check", "json", "fmt", "stats", "scan"] {
        let one = run(&[sub, "--jobs", "1", &file]);
        let three = run(&[sub, "--jobs", "3", &file]);
        assert_eq!(code(&one), code(&three), "{sub}");
        let (a, b) = (stdout(&one), stdout(&three));
        // check's summary ends with a speed, which differs.
        let strip = |s: &str| {
            s.rsplit_once("games/s")
                .map_or(s.to_owned(), |(a, _)| a.to_owned())
        };
        assert_eq!(strip(&a), strip(&b), "{sub}");
        assert!(!a.is_empty(), "{sub}");
    }
    let o = run(&["check", "--jobs", "2", &file]);
    assert_eq!(stdout(&o).matches("tab character").count(), 1);
}

#[test]
fn an_empty_input_holds_no_game_whatever_the_threads() {
    let t = Temp::new("empty");
    let file = t.file("empty.pgn", b"");
    for jobs in ["1", "2"] {
        let o = run(&["check", "--jobs", jobs, &file]);
        assert!(
            stdout(&o).contains("warning: no game in the input"),
            "--jobs {jobs}: {}",
            stdout(&o)
        );
        assert!(stdout(&o).contains("games=0 moves=0 errors=0 warnings=1"));
    }
}

#[test]
fn parallel_output_equals_sequential_output_with_no_empty_lines_between_games() {
    // Files of one game to a line, with no empty line between games (a federation's
    // results, PDN; and PGN, whose games are then each noted as not separated), and one
    // with a comment that holds a line like a tag after a line that ends like a result.
    let t = Temp::new("unseparated");
    let mut pdn = String::new();
    let mut pgn = String::new();
    let mut i = 0;
    while pdn.len() < 3 << 20 {
        i += 1;
        pdn.push_str(&format!(
            "[Event \"{i}\"]\n[Result \"-\"]\n1.32-28 19-23 2.28x19 14x23 -\n"
        ));
        pgn.push_str(&format!("[Event \"{i}\"]\n1. e4 e5 2. Nf3 Nc6 1-0\n"));
        if i % 101 == 0 {
            pgn.push_str("[Event \"c\"]\n1. e4 {a game:\n1. e4 1-0\n[Event \"x\"]\n} *\n");
        }
    }
    for (name, text) in [("one-a-line.pdn", &pdn), ("one-a-line.pgn", &pgn)] {
        let file = t.file(name, text.as_bytes());
        for sub in ["check", "json", "fmt"] {
            let one = run(&[sub, "--jobs", "1", &file]);
            let two = run(&[sub, "--jobs", "2", &file]);
            assert_eq!(code(&one), code(&two), "{name} {sub}");
            let strip = |s: &str| {
                s.rsplit_once("games/s")
                    .map_or(s.to_owned(), |(a, _)| a.to_owned())
            };
            assert_eq!(strip(&stdout(&one)), strip(&stdout(&two)), "{name} {sub}");
            assert_eq!(stderr(&one), stderr(&two), "{name} {sub}");
        }
        let summary = stdout(&run(&["check", "--jobs", "2", &file]));
        assert!(
            summary.contains(&format!(
                " games={} ",
                i + i / 101 * usize::from(name.ends_with("pgn"))
            )),
            "{name}: {summary}"
        );
    }
}

#[test]
fn perft_counts() {
    let o = run(&["perft", "4"]);
    assert_eq!(stdout(&o).trim(), "197281");
    let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let o = run(&["perft", kiwipete, "3"]);
    assert_eq!(stdout(&o).trim(), "97862");
    let o = run(&["perft", "--variant", "english", "6"]);
    assert_eq!(stdout(&o).trim(), "36768");
    let o = run(&["perft", "--variant", "21", "4", "--divide"]);
    let out = stdout(&o);
    assert_eq!(out.lines().last(), Some("1469"));
    assert_eq!(out.lines().filter(|l| l.contains(": ")).count(), 7);
}

#[test]
fn show_diagrams() {
    let o = run(&[
        "show",
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
    ]);
    assert_eq!(code(&o), 0);
    assert!(
        stdout(&o).contains("4 | . . . . P . . . |"),
        "{}",
        stdout(&o)
    );
    assert!(stdout(&o).contains("Black to move"));
    let o = run(&["show", "--variant", "english", "B:W21-32:B1-12"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(stdout(&o).contains("FEN: B:W21"), "{}", stdout(&o));
}

#[test]
fn show_plays_set_ups_in_the_movetext_as_every_reader_does() {
    // Game 7 sets a position up in its movetext after its first move: show's position
    // is the one json gives as the game's final position.
    let file = root().join("corpus/pdn/lenient.pdn");
    let file = file.to_str().expect("UTF-8 path");
    let json = stdout(&run(&["json", file]));
    let game: serde_json::Value =
        serde_json::from_str(json.lines().nth(6).expect("game 7")).expect("JSON");
    let final_fen = game["final_fen"].as_str().expect("a final FEN");
    let o = run(&["show", file, "--game", "7"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(
        stdout(&o).contains(&format!("FEN: {final_fen}")),
        "{}",
        stdout(&o)
    );
}

#[test]
fn hostile_inputs_never_panic() {
    let t = Temp::new("hostile");
    let mut deep = String::from("[Event \"deep\"]\n\n1. e4 ");
    for _ in 0..20_000 {
        deep.push_str("( e4 ");
    }
    deep.push_str("*\n");
    let mut noise = Vec::new();
    let mut x: u32 = 12345;
    for _ in 0..200_000 {
        x = x.wrapping_mul(1_103_515_245).wrapping_add(12345);
        noise.push((x >> 16) as u8);
    }
    let files = [
        t.file("deep.pgn", deep.as_bytes()),
        t.file("noise.pgn", &noise),
        t.file("noise.pdn", &noise),
        t.file("empty.pgn", b""),
        t.file("brackets.pgn", b"[[[[ ]]]] {{{ ((( )))\n\n[\n"),
    ];
    for file in &files {
        for sub in ["check", "fmt", "json", "stats", "scan"] {
            for jobs in ["1", "2"] {
                let o = run(&[sub, "--jobs", jobs, file]);
                assert!(matches!(code(&o), 0..=2), "{sub} {file}: {}", stderr(&o));
                assert!(
                    !stderr(&o).contains("panicked"),
                    "{sub} {file}: {}",
                    stderr(&o)
                );
            }
        }
        let o = run(&["show", file]);
        assert!(
            !stderr(&o).contains("panicked"),
            "show {file}: {}",
            stderr(&o)
        );
    }
}

#[test]
fn json_and_stats_name_the_variant_the_moves_settle() {
    // No GameType tag, and a first move only English draughts can play.
    let english = b"1. 11-15 23-19 2. 8-11 22-17 *\n";
    let json = stdout(&run_stdin(&["json", "--format", "pdn", "-"], english));
    assert!(json.contains("\"variant\":\"English\""), "{json}");
    assert!(
        json.contains(
            "\"start_fen\":\"B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12\""
        ),
        "{json}"
    );
    let stats = stdout(&run_stdin(&["stats", "--format", "pdn", "-"], english));
    assert!(stats.contains("English"), "{stats}");
    assert!(!stats.contains("International"), "{stats}");
}

#[test]
fn variant_gives_the_game_type_of_draughts_games_that_declare_none() {
    let t = Temp::new("variant");
    let games = t.file(
        "games.pdn",
        b"[Event \"a\"]\n\n1. c3-d4 f6-g5 2. d4-e5 d6:f4 3. g3:e5 *\n\n\
          [Event \"b\"]\n[GameType \"21\"]\n\n1. 11-15 23-19 *\n",
    );
    // Inferred without it, with a warning where the moves leave international draughts.
    let out = run(&["check", "-j", "1", &games]);
    assert_eq!(code(&out), 0);
    assert!(stdout(&out).starts_with(&format!(
        "{games}:3:4: warning: c3-d4: no GameType tag, and the move is not legal in \
         International draughts: read as Russian draughts (GameType \"25\") (game 1)\n"
    )));
    // Given, by name or number: read as that, with nothing inferred; a tag still wins,
    // with a warning.
    for variant in ["russian", "25", "25,W,8,8,A0,0"] {
        let out = run(&["check", "-j", "1", "--variant", variant, &games]);
        assert_eq!(code(&out), 0, "{variant}");
        let lines: Vec<String> = stdout(&out).lines().map(str::to_owned).collect();
        assert_eq!(
            lines[0],
            format!(
                "{games}:8:1: warning: set-up: the tags declare English draughts (GameType \
                 \"21\"), not the Russian draughts the reader was given; read as the tags say \
                 (game 2)"
            ),
            "{variant}"
        );
        assert!(
            lines[1].starts_with("files=1 games=2 moves=7 errors=0 warnings=1 "),
            "{variant}: {lines:?}"
        );
    }
    // The export declares it, so that it reads back as it was read.
    let out = run(&["fmt", "--variant", "russian", &games]);
    let text = stdout(&out);
    assert!(text.contains("[Event \"a\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n[White \"?\"]\n[Black \"?\"]\n[Result \"*\"]\n[GameType \"25\"]\n\n1. c3-d4"), "{text}");
    let json = stdout(&run(&["json", "--variant", "russian", &games]));
    assert!(
        json.lines()
            .next()
            .unwrap_or("")
            .contains("\"variant\":\"Russian\""),
        "{json}"
    );
    // A game type it does not know, or chess: a usage error.
    for bad in ["bogus", "chess"] {
        let out = run(&["check", "--variant", bad, &games]);
        assert_eq!(code(&out), 2, "{bad}");
        assert!(
            stderr(&out).contains("--variant"),
            "{bad}: {}",
            stderr(&out)
        );
    }
    // A chess file is read as chess, and the option said not to apply.
    let out = run(&["check", "--variant", "russian", "corpus/pgn/model.pgn"]);
    assert_eq!(code(&out), 0);
    assert!(
        stderr(&out)
            .contains("read as PGN (chess); --variant (Russian draughts) is for draughts games"),
        "{}",
        stderr(&out)
    );
}

/// The Najdorf's English Attack, with the tags a file may already have.
fn najdorf(tags: &str) -> String {
    format!(
        "[Event \"n\"]\n{tags}\n1. e4 c5 2. Nf3 d6 3. d4 cxd4 4. Nxd4 Nf6 5. Nc3 a6 6. Be3 e5 \
         7. Nb3 Be6 8. f3 Be7 9. Qd2 *\n\n"
    )
}

#[test]
fn eco_sets_the_opening_tags() {
    let t = Temp::new("eco");
    let input = format!("{}{GAME}{BROKEN}\n", najdorf(""));
    let file = t.file("games.pgn", input.as_bytes());
    let output = t.path("out.pgn").display().to_string();
    let o = run(&["eco", &file, "-o", &output]);
    // The broken game passes through, as fmt passes it.
    assert_eq!(code(&o), 1, "{}", stderr(&o));
    assert!(
        stderr(&o).contains("game 3 passed through unchanged"),
        "{}",
        stderr(&o)
    );
    assert!(stdout(&o).is_empty());
    let written = std::fs::read_to_string(&output).expect("output");
    assert!(
        written.contains(
            "[Result \"*\"]\n[ECO \"B90\"]\n[Opening \"Sicilian Defense: Najdorf Variation, English Attack\"]\n\n1. e4 c5"
        ),
        "{written}"
    );
    assert!(
        written.contains("[ECO \"C70\"]\n[Opening \"Ruy Lopez: Morphy Defense\"]\n\n1. e4 e5"),
        "{written}"
    );
    assert!(written.contains(BROKEN.trim_end()));
    // Run again, nothing changes and no tag differs.
    let again = run(&["eco", &output]);
    assert_eq!(stdout(&again), written);
    assert!(
        !stderr(&again).contains("the file says"),
        "{}",
        stderr(&again)
    );
}

#[test]
fn eco_keeps_the_tags_a_game_has_unless_told_to_overwrite_them() {
    let t = Temp::new("eco-overwrite");
    let input = najdorf("[ECO \"B20\"]\n[Opening \"Sicilian Defense\"]\n");
    let file = t.file("tagged.pgn", input.as_bytes());
    let o = run(&["eco", &file]);
    assert_eq!(code(&o), 0);
    let out = stdout(&o);
    assert!(
        out.contains("[ECO \"B20\"]\n[Opening \"Sicilian Defense\"]\n"),
        "{out}"
    );
    let err = stderr(&o);
    assert!(
        err.contains(&format!(
            "notate: {file}: game 1: the file says ECO \"B20\", the moves say \"B90\"; kept \
             (--overwrite replaces it)"
        )),
        "{err}"
    );
    assert!(
        err.contains(
            "game 1: the file says Opening \"Sicilian Defense\", the moves say \"Sicilian \
             Defense: Najdorf Variation, English Attack\"; kept"
        ),
        "{err}"
    );
    // Quiet: no warnings.
    assert_eq!(stderr(&run(&["eco", "-q", &file])), "");

    let o = run(&["eco", "--overwrite", &file]);
    assert_eq!(code(&o), 0);
    assert_eq!(stderr(&o), "");
    let out = stdout(&o);
    assert!(
        out.contains(
            "[ECO \"B90\"]\n[Opening \"Sicilian Defense: Najdorf Variation, English Attack\"]\n"
        ),
        "{out}"
    );
    assert!(!out.contains("B20"));
}

#[test]
fn eco_passes_draughts_games_through_as_fmt_writes_them() {
    let fmt = run(&["fmt", "--jobs", "1", "corpus/pdn/international.pdn"]);
    let o = run(&[
        "eco",
        "--jobs",
        "1",
        "corpus/pdn/international.pdn",
        "corpus/pdn/lenient.pdn",
    ]);
    assert!(stdout(&o).starts_with(&stdout(&fmt)));
    assert!(!stdout(&o).contains("[ECO"));
    let err = stderr(&o);
    assert_eq!(
        err.matches("openings are named for chess games only")
            .count(),
        1,
        "{err}"
    );
}

#[test]
fn json_and_stats_give_the_opening() {
    let input = najdorf("");
    let json = stdout(&run_stdin(&["json", "-"], input.as_bytes()));
    assert!(
        json.contains(
            "\"final_fen\":\"rn1qk2r/1p2bppp/p2pbn2/4p3/4P3/1NN1BP2/PPPQ2PP/R3KB1R b KQkq - 2 9\",\
             \"opening\":{\"eco\":\"B90\",\"name\":\"Sicilian Defense: Najdorf Variation, English Attack\"},"
        ),
        "{json}"
    );
    let none = stdout(&run_stdin(&["json", "-"], b"[Event \"x\"]\n\n*\n"));
    assert!(none.contains("\"opening\":null,"), "{none}");
    let draughts = stdout(&run(&["json", "corpus/pdn/international.pdn"]));
    assert!(!draughts.contains("\"opening\""));
    let stats = stdout(&run_stdin(&["stats", "-"], input.as_bytes()));
    assert!(
        stats.contains("openings (ECO and name, most common; 1 different, 0 chess games not named):\n  B90 Sicilian Defense: Najdorf Variation, English Attack"),
        "{stats}"
    );
}
