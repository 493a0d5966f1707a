//! A build writes the same segment, byte for byte, every time it is given the same input:
//! its threads (readers, the sorter's, the summaries' packer) change how fast it goes, not
//! what it writes.

use std::path::{Path, PathBuf};

use collection::input::{Source, collect};
use collection::job::{Job, Silent};
use index::{BuildOptions, build};

/// The segment files of the index in `dir`, with their bytes, by name.
fn segments(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .expect("the index")
        .map(|e| e.expect("an entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "seg"))
        .map(|p| {
            let name = p
                .file_name()
                .expect("a name")
                .to_string_lossy()
                .into_owned();
            (name, std::fs::read(&p).expect("the segment"))
        })
        .collect();
    files.sort();
    files
}

fn build_into(inputs: &[PathBuf], dir: &Path, options: &BuildOptions) {
    let sources: Vec<Source> = collect(inputs).expect("the inputs");
    let mut job = Job::new(sources, 2, &Silent);
    build(&mut job, dir, options).expect("built");
    assert!(!job.failed);
}

#[test]
fn the_same_input_gives_the_same_segment_byte_for_byte() {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../corpus/pgn");
    let work = tempfile::tempdir().expect("a folder");
    let options = BuildOptions {
        // A summary for every position (far more than are packed at a time), a sort of a
        // few thousand positions at a time (many runs, each bucket gathered from them),
        // and the segment stored and committed every few KB.
        popular: 1,
        sort_memory: 64 << 10,
        store_memory: 4 << 10,
        ..BuildOptions::default()
    };
    let first = work.path().join("first");
    let second = work.path().join("second");
    build_into(std::slice::from_ref(&corpus), &first, &options);
    build_into(std::slice::from_ref(&corpus), &second, &options);
    let (first, second) = (segments(&first), segments(&second));
    assert_eq!(first.len(), 1);
    assert!(
        first == second,
        "two builds of the corpus wrote different segments"
    );
}
