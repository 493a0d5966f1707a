//! Shards of byte ranges, merged, answer as one build over the whole file: for every
//! corpus file cut at many points (inside games, at their first bytes, at both ends),
//! every position of its games has the same games (with their files, numbers in the
//! file and offsets) and the same explorer answer.

use std::path::{Path, PathBuf};

use collection::input::{Source, collect};
use collection::job::{Job, Silent};
use collection::range::ByteRange;
use index::{BuildOptions, Filter, GameRef, Index, IndexRules, Limits, build, merge};
use notation::{GameReader, ReadOptions};

fn corpus(dir: &str) -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../corpus")
        .join(dir);
    let mut files: Vec<PathBuf> = std::fs::read_dir(root)
        .expect("the corpus")
        .map(|e| e.expect("an entry").path())
        .collect();
    files.sort();
    files
}

/// Builds the index of `file` (or of `range` of it) in `dir`.
fn index_of(file: &Path, dir: &Path, range: Option<ByteRange>, variations: bool) {
    let sources: Vec<Source> = collect(&[file.to_owned()]).expect("the file");
    let mut job = Job::new(sources, 2, &Silent);
    let options = BuildOptions {
        range,
        variations,
        // Summaries for positions few games reached, so that they are merged too.
        popular: 2,
        ..BuildOptions::default()
    };
    build(&mut job, dir, &options).expect("built");
    assert!(!job.failed, "{}", file.display());
}

/// Cut points of a file of `size` bytes whose games start at `starts`: both ends (an
/// empty range at each), each game's first byte and the byte after it for a few games,
/// and points every `step` bytes, most of them inside games.
fn cuts(size: u64, starts: &[u64], step: u64) -> Vec<u64> {
    let mut cuts = vec![0, 0, size];
    for &start in starts.iter().step_by(3) {
        cuts.extend([start, start + 1]);
    }
    cuts.extend((1..size / step + 1).map(|i| (i * step).min(size)));
    cuts.sort_unstable();
    cuts
}

/// The shards of the ranges between consecutive cut points (the last one's to the end),
/// merged in `dir`.
fn merged_shards(file: &Path, cuts: &[u64], work: &Path, dir: &Path, variations: bool) {
    let shards: Vec<PathBuf> = (0..cuts.len())
        .map(|i| {
            let shard = work.join(format!("shard-{i:04}"));
            let range = ByteRange {
                start: cuts[i],
                end: cuts.get(i + 1).copied(),
            };
            index_of(file, &shard, Some(range), variations);
            shard
        })
        .collect();
    merge(&shards, dir).expect("merged");
}

/// For every main-line position of the file's games: the games that reached it, where
/// they are, and what the explorer says (with more games listed than a summary keeps).
fn answers<R: IndexRules>(rules: &R, file: &Path, index: &Index) -> Vec<String> {
    let bytes = std::fs::read(file).expect("the file");
    let limits = Limits {
        moves: 50,
        top_games: 6,
        recent_games: 6,
    };
    let mut out = Vec::new();
    for read in GameReader::new(rules, bytes.as_slice(), ReadOptions::default()) {
        let read = read.expect("in memory");
        let Some(start) = rules.start(&read.game) else {
            continue;
        };
        collection::mainline::walk(rules, start, &read.game, |position, _| {
            let found: Vec<GameRef> = index
                .find(rules.key(position))
                .expect("found")
                .into_iter()
                .map(|id| index.reference(&index.record(id).expect("a record")))
                .collect();
            let explored = index
                .explore(rules, position, &Filter::default(), limits)
                .expect("explored");
            out.push(format!("{found:?} {explored:?}"));
            true
        });
    }
    out
}

fn check_file<R: IndexRules>(rules: &R, file: &Path, step: u64, variations: bool) {
    let work = tempfile::tempdir().expect("a folder");
    let whole_dir = work.path().join("whole");
    index_of(file, &whole_dir, None, variations);
    let whole = Index::open(&whole_dir).expect("opened");
    let starts: Vec<u64> = (0..whole.games())
        .map(|id| {
            whole
                .record(index::GameId(id as u32))
                .expect("a record")
                .offset
        })
        .collect();
    let size = std::fs::metadata(file).expect("the file").len();
    let merged_dir = work.path().join("merged");
    merged_shards(
        file,
        &cuts(size, &starts, step),
        work.path(),
        &merged_dir,
        variations,
    );
    let merged = Index::open(&merged_dir).expect("opened");
    assert_eq!(merged.games(), whole.games(), "{}", file.display());
    let expected = answers(rules, file, &whole);
    assert_eq!(
        answers(rules, file, &merged),
        expected,
        "{}",
        file.display()
    );
}

#[test]
fn chess_files_cut_anywhere_merge_into_the_whole_file_s_index() {
    let rules = collection::rules::chess();
    for file in corpus("pgn") {
        check_file(&rules, &file, 700, false);
    }
    // With the positions of variations too.
    let annotated = corpus("pgn")
        .into_iter()
        .find(|f| f.ends_with("annotated.pgn"))
        .expect("annotated.pgn");
    check_file(&rules, &annotated, 150, true);
}

#[test]
fn draughts_files_cut_anywhere_merge_into_the_whole_file_s_index() {
    let rules = collection::rules::draughts(None);
    for file in corpus("pdn") {
        check_file(&rules, &file, 300, false);
    }
}
