//! The output of `notate eco` on the corpus, as insta snapshots: the export format with
//! each game's `ECO` and `Opening` tags.

use std::path::Path;
use std::process::Command;

fn eco(file: &str) -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let out = Command::new(env!("CARGO_BIN_EXE_notate"))
        .args(["eco", "--jobs", "1", "--quiet", file])
        .current_dir(root)
        .output()
        .expect("notate runs");
    assert!(out.status.code().is_some_and(|c| c <= 1), "{out:?}");
    String::from_utf8(out.stdout).expect("PGN out is UTF-8")
}

#[test]
fn eco_annotated_pgn() {
    insta::assert_snapshot!(eco("corpus/pgn/annotated.pgn"));
}

#[test]
fn eco_generated_pgn() {
    insta::assert_snapshot!(eco("corpus/pgn/generated.pgn"));
}
