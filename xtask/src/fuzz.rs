//! `cargo xtask fuzz-seeds` and `cargo xtask fuzz`: the cargo-fuzz targets of `fuzz/`
//! seeded with the project's own games, and run for a given time each.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::{cargo, run};

/// How long each target runs when `--seconds` is not given.
const DEFAULT_SECONDS: u64 = 60;

/// The largest input libFuzzer makes: a few games, which keeps the executions fast.
const MAX_LEN: &str = "4096";

/// Comments as lichess writes them between braces after every move (with and without an
/// evaluation), and near misses of them, for the `clock_comment` target.
const LICHESS_COMMENTS: &[&str] = &[
    " [%clk 0:02:57] ",
    " [%clk 1:00:00] ",
    " [%eval 0.17] [%clk 0:02:57] ",
    " [%eval -1.5] [%clk 0:00:09] ",
    " [%eval #-3] [%clk 9:59:59] ",
    " [%eval 0.31,20] [%clk 0:01:00] ",
    "[%clk 0:02:57]",
    "[%eval 0.17] [%clk 0:02:57]",
    " [%clk 0:02:57.5] ",
    " [%clock 0:02:57] ",
    " [%clk 0:62:57] ",
    " [%emt 0:00:03] [%clk 0:02:57] ",
];

/// Games as lichess writes them, a clock comment after every move, for the targets that
/// read games.
const LICHESS_GAMES: &[&str] = &[
    "[Event \"Rated Blitz game\"]\n[Site \"https://lichess.org/x\"]\n[Result \"1-0\"]\n\n\
     1. e4 { [%clk 0:03:00] } 1... e5 { [%clk 0:03:00] } 2. Qh5 { [%clk 0:02:58] } \
     2... Nc6 { [%clk 0:02:57] } 3. Bc4 { [%clk 0:02:55] } 3... Nf6?? { [%clk 0:02:50] } \
     4. Qxf7# { [%clk 0:02:54] } 1-0\n",
    "[Event \"Rated Rapid game\"]\n[Result \"*\"]\n\n\
     1. d4 { [%eval 0.17] [%clk 0:10:00] } 1... d5 { [%eval 0.2] [%clk 0:10:00] } \
     2. c4 { [%eval 0.1] [%clk 0:09:58] } 2... e6 { [%eval #-12] [%clk 0:09:41] } *\n",
];

/// Seeds each fuzz target with the project's own games, one game per seed (small seeds
/// keep libFuzzer fast), behind the selector byte that the targets read first.
pub fn seeds(root: &Path) -> Result<(), String> {
    let mut games = Vec::new();
    let mut fens = Vec::new();
    let mut comments = Vec::new();
    for (dir, ext) in [("pgn", "pgn"), ("pdn", "pdn")] {
        let mut paths: Vec<PathBuf> = std::fs::read_dir(root.join("corpus").join(dir))
            .map_err(|e| format!("corpus/{dir}: {e}"))?
            .filter_map(|entry| entry.ok().map(|e| e.path()))
            .filter(|path| path.extension().is_some_and(|e| e == ext))
            .collect();
        paths.sort();
        for path in paths {
            let text = std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
            for game in split_games(&text) {
                fens.extend(fen_tags(game).map(|fen| (ext, fen.to_vec())));
                if ext == "pgn" {
                    comments.extend(brace_comments(game).map(<[u8]>::to_vec));
                }
                games.push((ext, game.to_vec()));
            }
        }
    }
    games.extend(LICHESS_GAMES.iter().map(|g| ("pgn", g.as_bytes().to_vec())));
    comments.extend(LICHESS_COMMENTS.iter().map(|c| c.as_bytes().to_vec()));
    comments.sort();
    comments.dedup();
    let corpus = root.join("fuzz/corpus");
    let write = |target: &str, name: String, bytes: &[u8]| -> Result<(), String> {
        let dir = corpus.join(target);
        std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        std::fs::write(dir.join(name), bytes).map_err(|e| format!("{target}: {e}"))
    };
    let with = |selector: u8, game: &[u8]| [&[selector][..], game].concat();
    for (i, (ext, game)) in games.iter().enumerate() {
        let pdn = *ext == "pdn";
        write("notation_reader", format!("{ext}-{i}"), &with(0, game))?;
        let target = if pdn { "pdn_games" } else { "pgn_games" };
        write(target, format!("{i}"), &with(0, game))?;
        // The skim: the dialect in bit 0, read whole and 7 bytes at a time.
        let dialect = u8::from(pdn);
        write("skim", format!("{ext}-{i}"), &with(dialect, game))?;
        write(
            "skim",
            format!("{ext}-{i}-7"),
            &with(7 << 2 | dialect, game),
        )?;
        // The streaming writer: chess or draughts rules in bits 0 and 1.
        write("stream", format!("{ext}-{i}"), &with(dialect, game))?;
        if !pdn {
            write("chess_rows", format!("{i}"), &with(0, game))?;
        }
    }
    for (i, (ext, fen)) in fens.iter().enumerate() {
        if *ext == "pgn" {
            write("chess_fen", format!("{i}"), fen)?;
        } else {
            write("draughts_fen", format!("{i}"), &with(0, fen))?;
        }
    }
    for (i, comment) in comments.iter().enumerate() {
        write("clock_comment", format!("{i}"), comment)?;
    }
    println!(
        "{} games, {} FENs and {} comments seeded under fuzz/corpus/",
        games.len(),
        fens.len(),
        comments.len()
    );
    Ok(())
}

/// Cuts a file into games: a game starts at a `[` that begins the file or follows an
/// empty line.
fn split_games(text: &[u8]) -> Vec<&[u8]> {
    let mut starts = vec![0];
    for i in 2..text.len() {
        if text[i] == b'[' && text[i - 1] == b'\n' && text[i - 2] == b'\n' {
            starts.push(i);
        }
    }
    starts.push(text.len());
    starts
        .windows(2)
        .map(|w| &text[w[0]..w[1]])
        .filter(|game| !game.is_empty())
        .collect()
}

/// The values of a game's `FEN` tags.
fn fen_tags(game: &[u8]) -> impl Iterator<Item = &[u8]> {
    game.split(|&b| b == b'\n').filter_map(|line| {
        let rest = line.strip_prefix(b"[FEN \"")?;
        let end = rest.iter().position(|&b| b == b'"')?;
        Some(&rest[..end])
    })
}

/// The text between the braces of a game's comments.
fn brace_comments(game: &[u8]) -> impl Iterator<Item = &[u8]> {
    game.split(|&b| b == b'{')
        .skip(1)
        .filter_map(|after| after.split(|&b| b == b'}').next())
}

/// `cargo xtask fuzz [--seconds N] [TARGET…]`: seeds the targets, then runs each (every
/// target of `fuzz/` when none is named) for N seconds, one after the other, and prints
/// each one's executions. Installs cargo-fuzz when it is missing; needs a nightly
/// toolchain. Fails if a target found an input on which it fails (libFuzzer keeps it
/// under `fuzz/artifacts/TARGET/`).
pub fn fuzz(root: &Path) -> Result<(), String> {
    let (seconds, mut targets) = arguments(std::env::args().skip(2))?;
    nightly()?;
    cargo_fuzz()?;
    seeds(root)?;
    let dir = root.join("fuzz");
    if targets.is_empty() {
        targets = list_targets(&dir)?;
    }
    let mut failed = Vec::new();
    let mut ran = Vec::new();
    for target in &targets {
        println!("fuzzing {target} for {seconds} s");
        let run = run_target(&dir, target, seconds)?;
        ran.push((target, run.executions));
        if run.interrupted {
            // Stopped by Ctrl-C (or a SIGINT): no finding, and no further targets.
            println!("{target} interrupted");
            break;
        }
        if !run.ok {
            failed.push(target.as_str());
        }
    }
    println!("\ntarget               executions");
    for (target, executions) in ran {
        let executions = executions.map_or_else(|| "?".to_owned(), |n| n.to_string());
        println!("{target:20} {executions:>10}");
    }
    if failed.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "{} found a failing input (kept under fuzz/artifacts/)",
            failed.join(", ")
        ))
    }
}

/// `--seconds N` and the targets named.
fn arguments(mut args: impl Iterator<Item = String>) -> Result<(u64, Vec<String>), String> {
    let mut seconds = DEFAULT_SECONDS;
    let mut targets = Vec::new();
    while let Some(arg) = args.next() {
        if arg == "--seconds" {
            let value = args.next().ok_or("--seconds wants a number")?;
            seconds = value
                .parse()
                .map_err(|_| format!("--seconds wants a number, not {value:?}"))?;
        } else if arg.starts_with('-') {
            return Err(format!("unknown option {arg:?}: [--seconds N] [TARGET…]"));
        } else {
            targets.push(arg);
        }
    }
    Ok((seconds, targets))
}

/// Whether a nightly toolchain is there: cargo-fuzz builds with its sanitizer flags.
fn nightly() -> Result<(), String> {
    let found = Command::new("rustup")
        .args(["run", "nightly", "rustc", "--version"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if found {
        Ok(())
    } else {
        Err(
            "no nightly toolchain, which cargo-fuzz needs: `rustup toolchain install nightly`"
                .into(),
        )
    }
}

/// Installs cargo-fuzz when `cargo fuzz` is not there.
fn cargo_fuzz() -> Result<(), String> {
    let found = Command::new(cargo())
        .args(["fuzz", "--version"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !found {
        println!("cargo-fuzz is missing: installing it (cargo install cargo-fuzz)");
        run(Command::new(cargo()).args(["install", "cargo-fuzz"]))?;
    }
    Ok(())
}

/// The targets `cargo fuzz list` gives.
fn list_targets(dir: &Path) -> Result<Vec<String>, String> {
    let output = nightly_cargo()
        .current_dir(dir)
        .args(["fuzz", "list"])
        .output()
        .map_err(|e| format!("cannot run cargo fuzz list: {e}"))?;
    if !output.status.success() {
        return Err(format!(
            "cargo fuzz list failed: {}",
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    Ok(String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(str::to_owned)
        .collect())
}

/// How a target's run ended.
struct Run {
    /// Its executions, from libFuzzer's final statistics.
    executions: Option<u64>,
    /// Whether it ended without a failure.
    ok: bool,
    /// Whether it was interrupted (libFuzzer then exits with a failure's status too).
    interrupted: bool,
}

/// Runs one target for `seconds` over its seeds, its output passed on as it comes.
fn run_target(dir: &Path, target: &str, seconds: u64) -> Result<Run, String> {
    let mut child = nightly_cargo()
        .current_dir(dir)
        // No sanitizer: the targets' checks are assertions, and safe Rust needs no
        // AddressSanitizer to find what they look for; they run faster without it.
        .args(["fuzz", "run", "--sanitizer", "none", target, "--"])
        .arg(format!("-max_total_time={seconds}"))
        .arg(format!("-max_len={MAX_LEN}"))
        .arg("-print_final_stats=1")
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run cargo fuzz run {target}: {e}"))?;
    let mut executions = None;
    let mut interrupted = false;
    if let Some(stderr) = child.stderr.take() {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            eprintln!("{line}");
            interrupted |= line.ends_with("libFuzzer: run interrupted; exiting");
            if let Some(n) = line.strip_prefix("stat::number_of_executed_units:") {
                executions = n.trim().parse().ok();
            }
        }
    }
    let status = child
        .wait()
        .map_err(|e| format!("cargo fuzz run {target}: {e}"))?;
    // libFuzzer prints its statistics however it ends: none, and it never ran (the
    // target did not build, say), which is no finding.
    if !status.success() && executions.is_none() {
        return Err(format!("cargo fuzz run {target} failed before fuzzing"));
    }
    Ok(Run {
        executions,
        ok: status.success(),
        interrupted,
    })
}

/// `cargo` of the nightly toolchain, through rustup: the `cargo` that runs `cargo xtask`
/// (its `CARGO`) is the stable toolchain's own binary, which knows no `+nightly`.
fn nightly_cargo() -> Command {
    let mut command = Command::new("rustup");
    command
        .args(["run", "nightly", "cargo"])
        .env_remove("CARGO")
        .env_remove("RUSTUP_TOOLCHAIN")
        .env_remove("RUSTC");
    command
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arguments_are_seconds_and_targets() {
        let args = |a: &[&str]| arguments(a.iter().map(|s| s.to_string()));
        assert_eq!(args(&[]), Ok((DEFAULT_SECONDS, vec![])));
        assert_eq!(
            args(&["--seconds", "5", "skim", "stream"]),
            Ok((5, vec!["skim".to_owned(), "stream".to_owned()]))
        );
        assert!(args(&["--seconds"]).is_err());
        assert!(args(&["--seconds", "soon"]).is_err());
        assert!(args(&["--runs", "5"]).is_err());
    }

    #[test]
    fn comments_are_what_is_between_braces() {
        let game = b"1. e4 {a} e5 { [%clk 0:01:00] } {} *";
        let found: Vec<_> = brace_comments(game).collect();
        assert_eq!(found, [&b"a"[..], b" [%clk 0:01:00] ", b""]);
    }
}
