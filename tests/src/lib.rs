//! Helpers for the workspace-level tests over `corpus/` (the tests are in `tests/tests/`).

use std::path::{Path, PathBuf};

/// The workspace root.
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_default()
}

/// The files of `corpus/<kind>` with the given extension, sorted by name.
pub fn corpus_files(kind: &str, extension: &str) -> Vec<PathBuf> {
    files_in(&workspace_root().join("corpus").join(kind), extension)
}

/// The files of a folder with the given extension, sorted by name; none if it is missing.
pub fn files_in(dir: &Path, extension: &str) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|e| e == extension))
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    files
}

/// The shared corpus of real files written by others, when `NOTATION_SHARED_CORPUS`
/// names it: an extra tier of tests that runs only where it is present.
pub fn shared_corpus() -> Option<PathBuf> {
    let dir = PathBuf::from(std::env::var_os("NOTATION_SHARED_CORPUS")?);
    let dir = if dir.is_relative() {
        workspace_root().join(dir)
    } else {
        dir
    };
    dir.is_dir().then_some(dir)
}

pub mod arbitrary_chess;
pub mod arbitrary_draughts;
pub mod chess_gen;
