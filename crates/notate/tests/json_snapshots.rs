//! The JSON Lines output of `notate json` on the corpus, as insta snapshots: the format
//! is documented in README.md and kept stable.

use std::path::Path;
use std::process::Command;

fn json(file: &str) -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let out = Command::new(env!("CARGO_BIN_EXE_notate"))
        .args(["json", "--jobs", "1", file])
        .current_dir(root)
        .output()
        .expect("notate runs");
    assert!(out.status.code().is_some_and(|c| c <= 1), "{out:?}");
    String::from_utf8(out.stdout).expect("JSON is UTF-8")
}

#[test]
fn json_annotated_pgn() {
    insta::assert_snapshot!(json("corpus/pgn/annotated.pgn"));
}

#[test]
fn json_model_pgn() {
    insta::assert_snapshot!(json("corpus/pgn/model.pgn"));
}

#[test]
fn json_lenient_pgn() {
    insta::assert_snapshot!(json("corpus/pgn/lenient.pgn"));
}

#[test]
fn json_international_pdn() {
    insta::assert_snapshot!(json("corpus/pdn/international.pdn"));
}
