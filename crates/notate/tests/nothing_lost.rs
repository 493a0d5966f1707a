//! `notate fmt` loses no game: over the project's corpus and damaged copies of it, the
//! games written plus the games rejected are the games read, in order; every written game
//! is the export of its game, and every rejected game is its input bytes unchanged.
//!
//! The expected fate of each game comes from reading the input with the library alone
//! (`notation::GameReader` with the chess or draughts rules), independently of the tool's
//! pipeline, which cuts the input into chunks and reads them on several threads.
#![allow(clippy::unwrap_used, missing_docs)]

use std::path::Path;
use std::process::Command;

use notation::{GameReader, KeepRaw, ReadOptions, Rules, Severity, WriteOptions, write_game};
use workspace_tests::{Rng, corpus_files};

/// What a careless editor, a bad transfer or a broken program does to a file.
const SNIPPETS: &[&[u8]] = &[
    b"{",
    b"}",
    b"(",
    b")",
    b"[",
    b"]",
    b"\"",
    b"\n\n",
    b"\n[Event \"inserted\"]\n",
    b"Zz9",
    b"\x00\x01\xff",
    b"\r",
    b"\t",
    b";",
    b"\n%",
    b"*",
    b"1-0",
    b"$",
    b"/",
    b"\xc3",
];

/// Damages `input` a few times: cuts, deletions, insertions, duplications.
fn damage(input: &[u8], rng: &mut Rng) -> Vec<u8> {
    let mut bytes = input.to_vec();
    for _ in 0..1 + rng.below(4) {
        let at = rng.below(bytes.len() + 1);
        match rng.below(5) {
            0 => bytes.truncate(at),
            1 => {
                let end = (at + 1 + rng.below(40)).min(bytes.len());
                bytes.drain(at..end);
            }
            2 | 3 => {
                let snippet = SNIPPETS[rng.below(SNIPPETS.len())];
                bytes.splice(at..at, snippet.iter().copied());
            }
            _ => {
                let end = (at + rng.below(200)).min(bytes.len());
                let copy = bytes[at..end].to_vec();
                let to = rng.below(bytes.len() + 1);
                bytes.splice(to..to, copy);
            }
        }
    }
    bytes
}

/// What `notate fmt` must give for `input`: the written games and the rejected ones, by
/// the library's own reading.
fn expected<R: Rules>(rules: &R, write: &WriteOptions, input: &[u8]) -> Fates {
    let mut out = String::new();
    let mut rejects = Vec::new();
    let (mut written, mut rejected) = (0, 0);
    let reader = GameReader::new(rules, input, ReadOptions::default()).keep_raw(KeepRaw::Always);
    for game in reader {
        let game = game.unwrap();
        let error = game
            .diagnostics
            .iter()
            .any(|d| d.severity == Severity::Error);
        let mut text = String::new();
        if !error && write_game(rules, &game.game, write, &mut text).is_ok() {
            out.push_str(&text);
            written += 1;
        } else {
            rejected += 1;
            let mut raw = game.raw.unwrap();
            if !raw.ends_with(b"\n\n") {
                let missing: &[u8] = if raw.ends_with(b"\n") { b"\n" } else { b"\n\n" };
                raw.extend_from_slice(missing);
            }
            rejects.extend_from_slice(&raw);
        }
    }
    Fates {
        out: out.into_bytes(),
        rejects,
        written,
        rejected,
    }
}

/// The games of an input: written in the export format, or rejected unchanged.
struct Fates {
    out: Vec<u8>,
    rejects: Vec<u8>,
    written: usize,
    rejected: usize,
}

/// Runs `notate fmt` on `input` and checks its output and rejects against the library.
fn assert_nothing_lost<R: Rules>(
    rules: &R,
    write: &WriteOptions,
    ext: &str,
    input: &[u8],
    jobs: &str,
    dir: &Path,
    what: &str,
) -> (usize, usize) {
    let file = dir.join(format!("input.{ext}"));
    let out = dir.join(format!("out.{ext}"));
    let rejects = dir.join(format!("rejects.{ext}"));
    std::fs::write(&file, input).unwrap();
    let _ = std::fs::remove_file(&rejects);
    let o = Command::new(env!("CARGO_BIN_EXE_notate"))
        .args(["fmt", "-q", "--jobs", jobs, "--format", ext, "-o"])
        .arg(&out)
        .arg("--rejects")
        .arg(&rejects)
        .arg(&file)
        .output()
        .unwrap();
    assert!(
        matches!(o.status.code(), Some(0 | 1)),
        "{what}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    let want = expected(rules, write, input);
    let got_out = std::fs::read(&out).unwrap();
    let got_rejects = std::fs::read(&rejects).unwrap_or_default();
    assert!(
        got_out == want.out,
        "{what} (--jobs {jobs}): the written games differ from the library's export of the \
         games read"
    );
    assert!(
        got_rejects == want.rejects,
        "{what} (--jobs {jobs}): the rejects are not the unreadable games' bytes"
    );
    // The output reads back as the games written, with no error.
    let again = notation::read_games(rules, &got_out[..], ReadOptions::default());
    assert_eq!(again.len(), want.written, "{what}");
    assert!(again.iter().all(|g| !g.has_errors()), "{what}");
    (want.written, want.rejected)
}

fn corpus(ext: &str) -> Vec<(String, Vec<u8>)> {
    let files = corpus_files(ext, ext);
    assert!(!files.is_empty(), "corpus/{ext} is missing");
    files
        .into_iter()
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read(p).unwrap())
        })
        .collect()
}

fn check_format<R: Rules>(rules: &R, write: &WriteOptions, ext: &str, seed: u64) {
    let dir =
        std::env::temp_dir().join(format!("notate-nothing-lost-{ext}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut rng = Rng(seed);
    let mut all_damaged = Vec::new();
    let (mut written, mut rejected) = (0, 0);
    for (name, bytes) in corpus(ext) {
        assert_nothing_lost(rules, write, ext, &bytes, "1", &dir, &name);
        for copy in 0..6 {
            let damaged = damage(&bytes, &mut rng);
            let what = format!("{name}, damaged copy {copy}");
            let (w, r) = assert_nothing_lost(rules, write, ext, &damaged, "1", &dir, &what);
            written += w;
            rejected += r;
            all_damaged.extend_from_slice(&damaged);
        }
    }
    // The damage leaves both kinds of game.
    assert!(
        written > 20 && rejected > 5,
        "{written} written, {rejected} rejected"
    );
    // Every damaged copy in one input big enough to be cut into chunks and read on two
    // threads: the cuts must fall where the reader ends games.
    let mut big = Vec::new();
    while big.len() < 3 << 20 {
        big.extend_from_slice(&all_damaged);
    }
    assert_nothing_lost(
        rules,
        write,
        ext,
        &big,
        "2",
        &dir,
        "all damaged copies, repeated",
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn fmt_loses_no_chess_game() {
    check_format(
        &pgn::ChessRules,
        &WriteOptions::PGN,
        "pgn",
        0x05ee_d0fc_4e55,
    );
}

#[test]
fn fmt_loses_no_draughts_game() {
    check_format(
        &pdn::DraughtsRules::new(),
        &pdn::PDN_WRITE,
        "pdn",
        0x0005_eed0_fd2a_u64,
    );
}
