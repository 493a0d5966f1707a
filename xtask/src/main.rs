//! `cargo xtask`: the project's chores, in Rust so that they run wherever cargo does.
//!
//! `cargo xtask` lists the tasks; `cargo xtask NAME` runs one.

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

mod fuzz;
mod python;
mod same_output;

/// A chore: its name, what it does, and how.
struct Task {
    name: &'static str,
    about: &'static str,
    run: fn(&Path) -> Result<(), String>,
}

const TASKS: &[Task] = &[
    Task {
        name: "test",
        about: "every test: cargo test, then the Python package's release wheel installed into a fresh target/python-venv and its pytest suite",
        run: test,
    },
    Task {
        name: "test-python",
        about: "the Python half of test alone: the release wheel in a fresh target/python-venv, its pytest suite and the browser test",
        run: python::test,
    },
    Task {
        name: "snapshots",
        about: "regenerate every insta snapshot (review the diff with git, or `cargo insta review`)",
        run: snapshots,
    },
    Task {
        name: "slow-tests",
        about: "run the #[ignore]d long tests: deep perft counts and other slow checks",
        run: slow_tests,
    },
    Task {
        name: "openings",
        about: "write crates/pgn/src/openings_table.rs (the table of openings, compiled in) from its files",
        run: openings,
    },
    Task {
        name: "fuzz-seeds",
        about: "write seed inputs for the cargo-fuzz targets (fuzz/corpus/) from corpus/",
        run: fuzz::seeds,
    },
    Task {
        name: "fuzz",
        about: "[--seconds N] [TARGET…]: seed and run the cargo-fuzz targets (all by default) N seconds each (60)",
        run: fuzz::fuzz,
    },
    Task {
        name: "same-output",
        about: "REV: every subcommand on every corpus file, by a build of REV and of the working tree: the same bytes",
        run: same_output::same_output,
    },
    Task {
        name: "collection",
        about: "--games N [--seed S] [-o FILE] [--threads T]: a lichess-like chess collection for benchmarks (N games in PGN, the same bytes for the same N and seed), built in release",
        run: collection,
    },
    Task {
        name: "ci",
        about: "run .ci/run: format check, clippy, and the test suite",
        run: ci,
    },
];

fn main() -> ExitCode {
    let root = workspace_root();
    let Some(name) = std::env::args().nth(1) else {
        println!("cargo xtask TASK\n\ntasks:");
        for task in TASKS {
            println!("  {:12} {}", task.name, task.about);
        }
        return ExitCode::SUCCESS;
    };
    let Some(task) = TASKS.iter().find(|t| t.name == name) else {
        eprintln!("unknown task {name:?}; `cargo xtask` lists them");
        return ExitCode::from(2);
    };
    match (task.run)(&root) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("xtask {name}: {message}");
            ExitCode::FAILURE
        }
    }
}

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_default()
}

fn run(command: &mut Command) -> Result<(), String> {
    let status = command
        .status()
        .map_err(|e| format!("cannot run {command:?}: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("{command:?} failed with {status}"))
    }
}

/// Insta writes every snapshot afresh with `INSTA_UPDATE=always`; snapshots that no
/// test asserts any more are removed first so that none is left stale.
fn snapshots(root: &Path) -> Result<(), String> {
    let mut removed = 0;
    for dir in snapshot_dirs(root) {
        for entry in std::fs::read_dir(&dir).map_err(|e| e.to_string())? {
            let path = entry.map_err(|e| e.to_string())?.path();
            if path.extension().is_some_and(|e| e == "snap" || e == "new") {
                std::fs::remove_file(&path).map_err(|e| e.to_string())?;
                removed += 1;
            }
        }
    }
    println!("removed {removed} snapshot files; regenerating");
    run(Command::new(cargo())
        .current_dir(root)
        .args(["test", "--workspace", "--all-targets"])
        .env("INSTA_UPDATE", "always")
        .env("INSTA_FORCE_PASS", "1"))
}

/// Folders named `snapshots` under `crates/` and `tests/`.
fn snapshot_dirs(root: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut stack = vec![root.join("crates"), root.join("tests")];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                if path.file_name().is_some_and(|n| n == "snapshots") {
                    found.push(path);
                } else if path.file_name().is_none_or(|n| n != "target") {
                    stack.push(path);
                }
            }
        }
    }
    found
}

/// Plays every line of the table of openings and writes the hashes of their end
/// positions, which `pgn::openings` embeds (its test that checks them writes them).
fn openings(root: &Path) -> Result<(), String> {
    run(Command::new(cargo())
        .current_dir(root)
        .args([
            "test",
            "-p",
            "pgn",
            "--lib",
            "openings::tests::the_compiled_table_is_the_files_played",
        ])
        .env("NOTATION_UPDATE_OPENINGS", "1"))
}

fn slow_tests(root: &Path) -> Result<(), String> {
    run(Command::new(cargo()).current_dir(root).args([
        "test",
        "--workspace",
        "--release",
        "--",
        "--ignored",
    ]))
}

/// The whole suite: the workspace's Rust tests, then the Python package as users install it
/// (a release wheel in a fresh virtual environment, [`python::test`]) and its pytest suite.
fn test(root: &Path) -> Result<(), String> {
    run(Command::new(cargo())
        .current_dir(root)
        .args(["test", "--workspace"]))?;
    python::test(root)
}

/// A lichess-like collection of chess games: the `lichess-like` binary of the tests' crate
/// (`tests/src/lichess_like.rs`), built in release, given this task's arguments.
fn collection(root: &Path) -> Result<(), String> {
    run(Command::new(cargo())
        .current_dir(root)
        .args([
            "run",
            "--release",
            "-p",
            "workspace-tests",
            "--bin",
            "lichess-like",
            "--",
        ])
        .args(std::env::args().skip(2)))
}

fn ci(root: &Path) -> Result<(), String> {
    run(Command::new("bash").current_dir(root).arg(".ci/run"))
}

fn cargo() -> String {
    std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned())
}
