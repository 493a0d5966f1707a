//! The front doors, as a user's program meets them: `tests/front-doors/` holds two small
//! cargo projects, one that depends on `pgn` alone and one on `pdn` alone, each a program
//! that reads a file with its crate's `GameReader`, checks it (its diagnostics, and the
//! `ValidatingReader`'s), draws each good game's last position and writes the good games
//! back with `write_game`, then reads the export back with `read_games` and writes it
//! again with `to_export_string`. These tests build and run them and hold them to what
//! they print, to the export the workspace's own crate writes, and to their dependencies:
//! no workspace crate but the one named, `notation` and `diagram`.
//!
//! Each project is copied to `target/front-doors/NAME/` with the workspace's `Cargo.lock`
//! and built there, in the debug profile, into `target/front-doors/target/` (shared by
//! both, so that `notation` and `diagram` are built once and a second run builds nothing).
//! The build is `--offline`: the lock copied in keeps the workspace's versions, and every
//! crate the programs need is one `pgn` or `pdn` needs, fetched already to build these
//! very tests. (`--locked` would refuse the lock: cargo prunes from it the crates of the
//! rest of the workspace.)

use std::collections::BTreeSet;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;

use workspace_tests::workspace_root;

/// Copies the project `tests/front-doors/NAME` to `target/front-doors/NAME` with the
/// workspace's lock, runs it on its games file with cargo, and gives what it printed, the
/// export it wrote and its lock as cargo left it.
fn run(name: &str, games: &str, export: &str) -> (String, String, String) {
    let root = workspace_root();
    let source = root.join("tests/front-doors").join(name);
    let dir = root.join("target/front-doors").join(name);
    for file in ["Cargo.toml", "src/main.rs"] {
        copy_if_changed(&source.join(file), &dir.join(file));
    }
    std::fs::copy(root.join("Cargo.lock"), dir.join("Cargo.lock")).expect("the lock copied");
    let export = dir.join(export);
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| OsString::from("cargo"));
    let out = Command::new(cargo)
        .current_dir(&dir)
        .env("CARGO_TARGET_DIR", root.join("target/front-doors/target"))
        .args(["run", "--offline", "--quiet", "--"])
        .arg(source.join(games))
        .arg(&export)
        .output()
        .expect("cargo runs");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{name} failed ({}):\n{stdout}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    (stdout, read(&export), read(&dir.join("Cargo.lock")))
}

/// Writes `to` as a copy of `from` unless it holds the same bytes already, so that cargo
/// sees an unchanged source as unchanged and builds nothing.
fn copy_if_changed(from: &Path, to: &Path) {
    let text = std::fs::read(from).expect("the project's file read");
    if std::fs::read(to).ok().as_ref() != Some(&text) {
        std::fs::create_dir_all(to.parent().expect("a folder")).expect("the folder made");
        std::fs::write(to, text).expect("the project's file copied");
    }
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The packages of a lock that come from no registry: the program and the workspace's
/// crates it builds.
fn local_packages(lock: &str) -> BTreeSet<String> {
    let mut local = BTreeSet::new();
    for package in lock.split("[[package]]").skip(1) {
        let name = package
            .lines()
            .find_map(|l| l.strip_prefix("name = "))
            .map(|n| n.trim_matches('"').to_owned())
            .expect("a package has a name");
        if !package.lines().any(|l| l.starts_with("source = ")) {
            local.insert(name);
        }
    }
    local
}

fn names(names: &[&str]) -> BTreeSet<String> {
    names.iter().map(|n| n.to_string()).collect()
}

fn games_file(name: &str, games: &str) -> PathBuf {
    workspace_root()
        .join("tests/front-doors")
        .join(name)
        .join(games)
}

#[test]
fn a_program_on_pgn_alone_reads_checks_and_writes_pgn() {
    let (printed, export, lock) = run("pgn-alone", "games.pgn", "export.pgn");
    let lines: Vec<&str> = printed.lines().collect();
    assert_eq!(lines.len(), 8, "{printed}");

    // The long algebraic move is forgiven and said, where it is; the illegal move is an
    // error, where it is; the tag in lower case is a warning.
    assert!(
        lines[0].starts_with("6:13: warning: Ng1-f3: ") && lines[0].ends_with(" (game 1)"),
        "{printed}"
    );
    assert_eq!(lines[1], "game 1: 6 moves, 32 pieces drawn", "{printed}");
    assert!(lines[2].starts_with("10:7: error: Ke7: "), "{printed}");
    assert!(lines[3].starts_with("12:2: warning: "), "{printed}");
    assert_eq!(
        lines[4..],
        [
            "game 3: 4 moves, 32 pieces drawn",
            "read 3 games; errors: 1, warnings: 2",
            "validating reader: the same diagnostics",
            "export: 2 games, 0 diagnostics read back, the same text written again",
        ],
        "{printed}"
    );

    // The export is what the workspace's pgn writes of the games without errors.
    let input = read(&games_file("pgn-alone", "games.pgn"));
    let expected: String = pgn::read_games(input.as_bytes())
        .iter()
        .filter(|g| {
            g.diagnostics
                .iter()
                .all(|d| d.severity == pgn::Severity::Warning)
        })
        .map(|g| pgn::to_export_string(&g.game).expect("written"))
        .collect();
    assert_eq!(export, expected);
    assert!(export.contains("2. Nf3 Nc6 ( 2... d6 3. d4 ) 3. Bb5 a6"));

    assert_eq!(
        local_packages(&lock),
        names(&["diagram", "notation", "pgn", "pgn-alone"]),
        "{lock}"
    );
}

#[test]
fn a_program_on_pdn_alone_reads_checks_and_writes_pdn() {
    let (printed, export, lock) = run("pdn-alone", "games.pdn", "export.pdn");
    let lines: Vec<&str> = printed.lines().collect();
    assert_eq!(lines.len(), 8, "{printed}");

    // The capture written with a dash is forgiven and said, where it is; the game without
    // a type is read as the one its moves play, and says so; the move no piece can make
    // is an error, where it is.
    assert!(
        lines[0].starts_with("4:19: warning: 28-19: ") && lines[0].ends_with(" (game 1)"),
        "{printed}"
    );
    assert_eq!(lines[1], "game 1: 4 moves, 38 pieces drawn", "{printed}");
    assert!(lines[2].starts_with("8:4: warning: 11-15: "), "{printed}");
    assert!(lines[2].contains("English draughts"), "{printed}");
    assert_eq!(lines[3], "game 2: 2 moves, 24 pieces drawn", "{printed}");
    assert!(lines[4].starts_with("13:4: error: 32-23: "), "{printed}");
    assert_eq!(
        lines[5..],
        [
            "read 3 games; errors: 1, warnings: 2",
            "validating reader: the same diagnostics",
            "export: 2 games, 0 diagnostics read back, the same text written again",
        ],
        "{printed}"
    );

    // The export is what the workspace's pdn writes of the games without errors.
    let input = read(&games_file("pdn-alone", "games.pdn"));
    let expected: String = pdn::read_games(input.as_bytes())
        .iter()
        .filter(|g| {
            g.diagnostics
                .iter()
                .all(|d| d.severity == pdn::Severity::Warning)
        })
        .map(|g| pdn::to_export_string(&g.game).expect("written"))
        .collect();
    assert_eq!(export, expected);
    assert!(export.contains("2. 28x19 14x23 {A capture written with a dash} 2-0"));
    assert!(export.contains("[GameType \"21\"]"));

    assert_eq!(
        local_packages(&lock),
        names(&["diagram", "notation", "pdn", "pdn-alone"]),
        "{lock}"
    );
}
