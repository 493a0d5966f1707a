//! The fast paths held to their plain twins (`notation::differential`,
//! `pgn::differential`, `collection::differential`): large games written as their text is
//! read again against the tree writer, and lichess's comments read at fixed offsets
//! against the general scan, on every file of the corpus and of the shared corpus when
//! there is one. (The skim and the Parquet rows read along the validator are held to
//! theirs over the same files by `notation`'s and `collection`'s own tests.) And the
//! inputs on which the fuzz targets found two disagreeing (`fuzz/regressions/`).
#![allow(clippy::unwrap_used, missing_docs)]

use std::path::{Path, PathBuf};

use notation::differential::stream_agrees;
use notation::{ReadOptions, WriteOptions};
use pdn::{DraughtsRules, PDN_WRITE};
use pgn::ChessRules;
use workspace_tests::{corpus_files, files_in, shared_corpus};

/// Every game file: the corpus's, and the shared corpus's when there is one; `true` for
/// the PDN files.
fn game_files() -> Vec<(PathBuf, bool)> {
    let mut files: Vec<_> = corpus_files("pgn", "pgn")
        .into_iter()
        .map(|p| (p, false))
        .chain(corpus_files("pdn", "pdn").into_iter().map(|p| (p, true)))
        .collect();
    if let Some(shared) = shared_corpus() {
        for sub in ["python-chess", "scalachess", "bench"] {
            files.extend(
                files_in(&shared.join("pgn").join(sub), "pgn")
                    .into_iter()
                    .map(|p| (p, false)),
            );
        }
        for sub in ["succeed", "fail"] {
            let dir = shared.join("pdn/pdn3-conformance").join(sub);
            files.extend(files_in(&dir, "pdn").into_iter().map(|p| (p, true)));
        }
    }
    files
}

/// Holds a text's large games to their trees with every rules and write options that
/// apply, in the export format and in JSON; gives how many games were written as read.
fn streams(path: &Path, text: &[u8], pdn: bool) -> usize {
    let reduced = WriteOptions {
        reduced: true,
        ..WriteOptions::default()
    };
    let mut streamed = 0;
    for read in [ReadOptions::default(), ReadOptions::strict()] {
        // Not with `RawRules`, which follows the move numbers written as it reads (a
        // game starting `12...` streams as `12...`) while its tree is numbered from 1.
        let agrees = if pdn {
            let reduced = WriteOptions {
                reduced: true,
                ..PDN_WRITE
            };
            [
                stream_agrees(&DraughtsRules::new(), text, read, &PDN_WRITE),
                stream_agrees(&DraughtsRules::new(), text, read, &reduced),
            ]
        } else {
            [
                stream_agrees(&ChessRules, text, read, &WriteOptions::default()),
                stream_agrees(&ChessRules, text, read, &reduced),
            ]
        };
        for agreed in agrees {
            streamed += agreed.unwrap_or_else(|d| panic!("{}: {d}", path.display()));
        }
    }
    let json = if pdn {
        collection::differential::json_stream_agrees(&collection::rules::draughts(None), text)
    } else {
        collection::differential::json_stream_agrees(&collection::rules::chess(), text)
    };
    streamed + json.unwrap_or_else(|d| panic!("{}: {d}", path.display()))
}

/// Every game of every file, read without its tree and written as its text is read
/// again, is written as its tree is: the same export text and the same JSON.
#[test]
fn large_games_are_written_as_their_trees() {
    let mut streamed = 0;
    for (path, pdn) in game_files() {
        let text = std::fs::read(&path).unwrap();
        streamed += streams(&path, &text, pdn);
    }
    // The bundled corpus streams 415 games; the shared corpus many more.
    let least = if shared_corpus().is_some() { 500 } else { 300 };
    assert!(streamed > least, "{streamed} games written as read");
}

/// The text between the braces of every comment of `text`.
fn comments(text: &str) -> impl Iterator<Item = &str> {
    text.split('{')
        .skip(1)
        .filter_map(|after| after.split('}').next())
}

/// Every comment of every chess file, and lichess's comments with the spaces around them
/// that lichess writes, read at fixed offsets where that applies, are read as the
/// general scan of their commands reads them.
#[test]
fn comments_read_at_fixed_offsets_as_the_scan_reads_them() {
    let (mut read, mut fast) = (0, 0);
    for (path, pdn) in game_files() {
        if pdn {
            continue;
        }
        let text = String::from_utf8_lossy(&std::fs::read(&path).unwrap()).into_owned();
        for comment in comments(&text) {
            for written in [comment.to_owned(), format!(" {comment} ")] {
                let agreed = pgn::differential::comment_agrees(&written);
                fast += usize::from(agreed.unwrap_or_else(|d| panic!("{}: {d}", path.display())));
                read += 1;
            }
        }
    }
    // The bundled corpus gives 1,128 readings (each comment as written and with spaces),
    // 30 of them at fixed offsets; the shared corpus's lichess files many more.
    let least_fast = if shared_corpus().is_some() { 100 } else { 20 };
    assert!(
        read > 1000 && fast > least_fast,
        "{read} comments, {fast} read fast"
    );
}

/// Each input a fuzz target found two paths disagreeing on (`fuzz/regressions/`, named
/// after its target) is checked as its target checks it, and now agrees.
#[test]
fn what_the_fuzzers_found_agrees_now() {
    use collection::differential::{FUZZ_TARGETS, fuzz_input};

    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz/regressions");
    let mut checked = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_str().unwrap();
        if name == "README.md" {
            continue;
        }
        let target = FUZZ_TARGETS
            .iter()
            .find(|t| {
                name.strip_prefix(**t)
                    .is_some_and(|rest| rest.starts_with('-'))
            })
            .unwrap_or_else(|| panic!("{name}: named after no fuzz target"));
        let data = std::fs::read(&path).unwrap();
        if let Some(Err(d)) = fuzz_input(target, &data) {
            panic!("{name}: {d}");
        }
        checked += 1;
    }
    assert!(
        checked >= 2,
        "the regression inputs are in {}",
        dir.display()
    );
}
