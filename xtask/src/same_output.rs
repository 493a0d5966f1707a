//! `cargo xtask same-output REV`: every subcommand of `notate`, run on every corpus file by
//! a build of `REV` and by a build of the working tree, must give the same bytes: standard
//! output, standard error, exit status and every file it writes.
//!
//! For a change that must not change behaviour (a restructuring): the build of `REV` is the
//! oracle. The corpus is `corpus/`, and the shared corpus too when `NOTATION_SHARED_CORPUS`
//! names it. The one figure that differs from run to run, `check`'s `games/s=`, is masked.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::{cargo, run};

/// One run of `notate`: its arguments (`{in}` stands for the input), and a file to give it
/// on standard input.
struct Case {
    args: Vec<String>,
    stdin: Option<PathBuf>,
}

fn case(args: &[&str], input: &str) -> Case {
    Case {
        args: args.iter().map(|a| a.replace("{in}", input)).collect(),
        stdin: None,
    }
}

/// The runs made for one input file (or folder): every subcommand that reads games, with
/// the options that take another way through the code.
fn cases_for(input: &Path) -> Vec<Case> {
    let i = input.to_string_lossy();
    let i = i.as_ref();
    let mut cases: Vec<Case> = [
        &["check", "{in}"][..],
        &["check", "--strict", "{in}"],
        &["check", "--jobs", "1", "{in}"],
        &["check", "--jobs", "2", "-q", "{in}"],
        &["check", "--variant", "russian", "{in}"],
        &["fmt", "{in}"],
        &["fmt", "--jobs", "1", "{in}"],
        &["fmt", "--reduced", "{in}"],
        &["fmt", "--fix-results", "--plycount", "{in}"],
        &["fmt", "{in}", "-o", "out", "--rejects", "rejects"],
        &["select", "{in}", "--result", "1-0"],
        &[
            "select",
            "{in}",
            "--plies",
            "10..60",
            "--invert",
            "--rejects",
            "rejects",
        ],
        &["select", "{in}", "--player", "a", "--tag", "Event~o"],
        &["select", "{in}", "--checkmate"],
        &["select", "{in}", "--with-warnings", "-o", "out"],
        &["select", "{in}", "--opening", "e4"],
        &["select", "{in}", "--material-at-least", "Q"],
        &["dedupe", "{in}"],
        &[
            "dedupe",
            "{in}",
            "--by",
            "position",
            "--keep",
            "richest",
            "--duplicates",
            "dups",
        ],
        &["split", "{in}", "--out-dir", "split", "--games", "2"],
        &["split", "{in}", "--out-dir", "split", "--by", "eco1"],
        &["split", "{in}", "--out-dir", "split", "--by", "year"],
        &["split", "{in}", "--out-dir", "split", "--by", "White"],
        &["scan", "{in}"],
        &["eco", "{in}"],
        &["eco", "--overwrite", "{in}", "-o", "out"],
        &["json", "{in}"],
        &["json", "--strict", "{in}"],
        &[
            "parquet",
            "{in}",
            "-o",
            "games.parquet",
            "--positions",
            "positions.parquet",
        ],
        &[
            "parquet",
            "{in}",
            "-o",
            "games.parquet",
            "--strict",
            "--jobs",
            "1",
        ],
        &["stats", "{in}"],
        &["html", "{in}", "-o", "page.html"],
        &["html", "--strict", "{in}"],
    ]
    .iter()
    .map(|args| case(args, i))
    .collect();
    if input.is_file() {
        cases.extend(
            [
                &[
                    "parquet",
                    "{in}",
                    "-o",
                    "games.parquet",
                    "--range",
                    "200..3000",
                ][..],
                &["show", "{in}"],
                &["show", "{in}", "--game", "2", "--ply", "5"],
                &["show", "{in}", "--game", "3", "--variant", "english"],
                &["svg", "{in}"],
                &[
                    "svg",
                    "{in}",
                    "--game",
                    "2",
                    "--ply",
                    "3",
                    "--flip",
                    "--coordinates",
                ],
                &[
                    "svg",
                    "{in}",
                    "--game",
                    "4",
                    "--numbers",
                    "--size",
                    "300",
                    "-o",
                    "out.svg",
                ],
            ]
            .iter()
            .map(|args| case(args, i)),
        );
        for args in [&["check", "-"][..], &["fmt", "-"], &["json", "-"]] {
            cases.push(Case {
                args: args.iter().map(|a| a.to_string()).collect(),
                stdin: Some(input.to_path_buf()),
            });
        }
    }
    cases
}

/// Runs that read no file: perft, and positions given as FEN.
fn cases_without_input() -> Vec<Case> {
    [
        &["perft", "3"][..],
        &["perft", "--divide", "--jobs", "1", "2"],
        &[
            "perft",
            "--variant",
            "chess960",
            "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
            "3",
        ],
        &[
            "perft",
            "--variant",
            "crazyhouse",
            "2k5/8/8/8/8/8/8/4K3[Qn] w - -",
            "2",
        ],
        &["perft", "--variant", "atomic", "3"],
        &["perft", "--variant", "english", "6"],
        &["perft", "--variant", "international", "W:W31-50:B1-20", "4"],
        &["perft", "--variant", "nonsense", "2"],
        &["perft", "not a fen", "2"],
        &[
            "show",
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
        ],
        &["show", "W:W31-50:B1-20"],
        &["show", "--variant", "russian", "W:Wa1,c1,e1:Bh8"],
        &[
            "svg",
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR",
            "b",
            "KQkq",
            "-",
            "0",
            "1",
        ],
        &["svg", "--coordinates", "--numbers", "W:W31-50:B1-20"],
        &["check"],
        &["nonsense"],
    ]
    .iter()
    .map(|args| case(args, ""))
    .collect()
}

/// What a run gave: the bytes to compare, by name.
type Outcome = BTreeMap<String, Vec<u8>>;

fn run_case(notate: &Path, case: &Case, dir: &Path) -> Result<Outcome, String> {
    if dir.exists() {
        std::fs::remove_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let stdin = match &case.stdin {
        Some(path) => {
            Stdio::from(std::fs::File::open(path).map_err(|e| format!("{}: {e}", path.display()))?)
        }
        None => Stdio::null(),
    };
    let output = Command::new(notate)
        .args(&case.args)
        .current_dir(dir)
        .stdin(stdin)
        .output()
        .map_err(|e| format!("cannot run {}: {e}", notate.display()))?;
    let mut outcome = Outcome::new();
    outcome.insert(
        "exit status".to_owned(),
        format!("{:?}", output.status.code()).into_bytes(),
    );
    outcome.insert("standard output".to_owned(), masked(output.stdout));
    outcome.insert("standard error".to_owned(), masked(output.stderr));
    let mut stack = vec![dir.to_path_buf()];
    while let Some(folder) = stack.pop() {
        let entries =
            std::fs::read_dir(&folder).map_err(|e| format!("{}: {e}", folder.display()))?;
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else {
                let bytes = std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
                let name = path
                    .strip_prefix(dir)
                    .unwrap_or(&path)
                    .display()
                    .to_string();
                outcome.insert(format!("file {name}"), bytes);
            }
        }
    }
    Ok(outcome)
}

/// `check`'s summary ends with its speed, which no two runs share.
fn masked(bytes: Vec<u8>) -> Vec<u8> {
    const SPEED: &[u8] = b"games/s=";
    let mut out = Vec::with_capacity(bytes.len());
    let mut rest = &bytes[..];
    while let Some(at) = rest.windows(SPEED.len()).position(|w| w == SPEED) {
        out.extend_from_slice(&rest[..at + SPEED.len()]);
        out.push(b'N');
        rest = &rest[at + SPEED.len()..];
        let digits = rest.iter().take_while(|b| b.is_ascii_digit()).count();
        rest = &rest[digits..];
    }
    out.extend_from_slice(rest);
    out
}

/// Builds `notate` at `rev` in a worktree of its own under `target/same-output`, and
/// returns the binary.
fn build_before(root: &Path, rev: &str) -> Result<PathBuf, String> {
    let base = root.join("target").join("same-output");
    let tree = base.join("before");
    if tree.exists() {
        run(Command::new("git")
            .current_dir(root)
            .args(["worktree", "remove", "--force"])
            .arg(&tree))?;
    }
    run(Command::new("git")
        .current_dir(root)
        .args(["worktree", "add", "--detach"])
        .arg(&tree)
        .arg(rev))?;
    run(Command::new(cargo())
        .current_dir(&tree)
        .args(["build", "--release", "-p", "notate"])
        .env("CARGO_TARGET_DIR", base.join("before-target")))?;
    Ok(base.join("before-target").join("release").join("notate"))
}

fn inputs(root: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut folders = vec![root.join("corpus")];
    if let Some(shared) = std::env::var_os("NOTATION_SHARED_CORPUS") {
        folders.push(root.join(shared));
    }
    for folder in &folders {
        let mut stack = vec![folder.clone()];
        while let Some(dir) = stack.pop() {
            let Ok(entries) = std::fs::read_dir(&dir) else {
                continue;
            };
            for entry in entries.flatten() {
                let path = entry.path();
                if path.is_dir() {
                    stack.push(path);
                } else {
                    files.push(path);
                }
            }
        }
    }
    files.sort();
    // Whole folders too: several files in one run.
    files.extend(folders.iter().filter(|f| f.is_dir()).cloned());
    files
}

pub fn same_output(root: &Path) -> Result<(), String> {
    let rev = std::env::args()
        .nth(2)
        .ok_or("usage: cargo xtask same-output REV (the build to compare with)")?;
    let before = build_before(root, &rev)?;
    run(Command::new(cargo())
        .current_dir(root)
        .args(["build", "--release", "-p", "notate"]))?;
    let after = root.join("target").join("release").join("notate");
    let work = root.join("target").join("same-output").join("runs");

    let mut cases = cases_without_input();
    for input in inputs(root) {
        let input = input
            .canonicalize()
            .map_err(|e| format!("{}: {e}", input.display()))?;
        cases.extend(cases_for(&input));
    }
    let (mut same, mut differ) = (0, Vec::new());
    for case in &cases {
        let a = run_case(&before, case, &work.join("before"))?;
        let b = run_case(&after, case, &work.join("after"))?;
        if a == b {
            same += 1;
            continue;
        }
        let names: Vec<&String> = a
            .keys()
            .chain(b.keys())
            .filter(|k| a.get(*k) != b.get(*k))
            .collect();
        differ.push(format!(
            "notate {}{}: {}",
            case.args.join(" "),
            case.stdin
                .as_ref()
                .map(|p| format!(" < {}", p.display()))
                .unwrap_or_default(),
            names
                .iter()
                .map(|n| n.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    let _ = std::fs::remove_dir_all(&work);
    println!(
        "{} runs of notate at {rev} and of the working tree: {same} byte-identical, {} different",
        cases.len(),
        differ.len()
    );
    for line in &differ {
        println!("  differs: {line}");
    }
    if differ.is_empty() {
        Ok(())
    } else {
        Err(format!("{} runs differ", differ.len()))
    }
}
