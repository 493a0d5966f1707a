//! Outputs are complete or absent: a run interrupted by a signal, refused a write (a file
//! size limit, a full disk, a folder that cannot be written) or failing leaves no partial
//! output and any earlier file of the output's name as it was; `-o` may name an input;
//! a closed standard output ends a run quietly.

mod common;

use std::collections::BTreeMap;
use std::io::Read;
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use common::{Temp, code, root, stderr, stdout};
use nix::sys::signal::{Signal, kill};
use nix::unistd::Pid;

/// `notate` itself.
fn notate() -> Command {
    Command::new(env!("CARGO_BIN_EXE_notate"))
}

/// `notate ARGS` run in `dir`.
fn run_in(dir: &Path, args: &[&str]) -> std::process::Output {
    notate()
        .args(args)
        .current_dir(dir)
        .output()
        .expect("notate runs")
}

/// A clean input of about `megabytes` MB: the corpus's generated games, repeated.
fn big_input(t: &Temp, megabytes: usize) -> PathBuf {
    let games = std::fs::read(root().join("corpus/pgn/generated.pgn")).expect("the corpus");
    let copies = (megabytes << 20) / games.len() + 1;
    let mut text = Vec::with_capacity(games.len() * copies);
    for _ in 0..copies {
        text.extend_from_slice(&games);
        text.extend_from_slice(b"\n");
    }
    let path = t.path(&format!("big{megabytes}.pgn"));
    std::fs::write(&path, text).expect("the input");
    path
}

/// The files of a folder, name → contents.
fn files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    std::fs::read_dir(dir)
        .expect("a folder")
        .map(|entry| {
            let path = entry.expect("an entry").path();
            let name = path
                .file_name()
                .expect("a name")
                .to_string_lossy()
                .into_owned();
            (name, std::fs::read(&path).unwrap_or_default())
        })
        .collect()
}

/// The temporary files of a folder: `.NAME.notate-XXXXXX.tmp`.
fn temporaries(dir: &Path) -> Vec<String> {
    files(dir)
        .into_keys()
        .filter(|name| name.starts_with('.') && name.contains(".notate-") && name.ends_with(".tmp"))
        .collect()
}

/// A small generator of moments: a seed from the clock, said in every failure's message.
struct Moments(u64);

impl Moments {
    fn new() -> Moments {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(1, |d| d.as_nanos() as u64);
        Moments(nanos | 1)
    }

    /// A moment of the `n`th of [`RUNS`] equal parts of `0..limit` (xorshift): the runs'
    /// moments are spread over the whole run.
    fn next(&mut self, n: usize, limit: Duration) -> Duration {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        let within = (self.0 % 10_000) as f64 / 10_000.0;
        limit.mul_f64((n as f64 + within) / RUNS as f64)
    }
}

/// Runs `args` in `dir`, sends `signal` after `after` (unless it ended before), and
/// gives how the run ended.
fn interrupt(dir: &Path, args: &[&str], signal: Signal, after: Duration) -> ExitStatus {
    let mut child = notate()
        .args(args)
        .current_dir(dir)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("notate runs");
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().expect("a status") {
            return status;
        }
        if start.elapsed() >= after {
            break;
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    let pid = Pid::from_raw(child.id() as i32);
    // The run may end between the last look and the signal: then it went to no one.
    let _ = kill(pid, signal);
    child.wait().expect("a status")
}

/// Checks how an interrupted run ended: whole (exit 0) or ended by its signal.
fn ended_by(status: ExitStatus, signal: Signal, context: &str) -> bool {
    match (status.code(), status.signal()) {
        (Some(0), _) => false,
        (_, Some(s)) if s == signal as i32 => true,
        _ => panic!("{context}: ended {status:?}"),
    }
}

const SIGNALS: [Signal; 3] = [Signal::SIGINT, Signal::SIGTERM, Signal::SIGKILL];

/// Runs per signal, each at a moment of its own.
const RUNS: usize = 4;

#[test]
fn a_run_interrupted_by_a_signal_leaves_the_whole_output_or_the_earlier_file() {
    let t = Temp::new("signals-fmt");
    let input = big_input(&t, 8);
    let input = input.to_str().expect("utf-8");
    let args = ["fmt", input, "-o", "out.pgn", "--jobs", "2"];
    let start = Instant::now();
    let whole = run_in(t.dir(), &args);
    let took = start.elapsed();
    assert_eq!(code(&whole), 0, "{}", stderr(&whole));
    let expected = std::fs::read(t.path("out.pgn")).expect("the output");
    assert!(expected.len() > 4 << 20);
    let mut moments = Moments::new();
    let seed = moments.0;
    for signal in SIGNALS {
        let mut stopped_runs = 0;
        for n in 0..RUNS {
            let earlier = format!("an earlier output {signal} {n}\n");
            std::fs::write(t.path("out.pgn"), &earlier).expect("written");
            let after = moments.next(n, took);
            let context = format!("{signal} after {after:?} (seed {seed}, {took:?} uninterrupted)");
            let status = interrupt(t.dir(), &args, signal, after);
            let stopped = ended_by(status, signal, &context);
            stopped_runs += usize::from(stopped);
            let now = std::fs::read(t.path("out.pgn")).expect("the output");
            // A signal that comes as the output is put in place, or after, ends a run whose
            // output is whole: either is right, and nothing else.
            if stopped {
                assert!(
                    now == earlier.as_bytes() || now == expected,
                    "{context}: the earlier file changed and the output is not whole"
                );
            } else {
                assert!(
                    now == expected,
                    "{context}: a finished run's output is not whole"
                );
            }
            let left = temporaries(t.dir());
            if signal == Signal::SIGKILL {
                // Nothing can run after SIGKILL: its temporary file may stay, named so.
                assert!(
                    left.len() <= 1 && left.iter().all(|n| n.starts_with(".out.pgn.notate-")),
                    "{context}: {left:?}"
                );
                for name in left {
                    std::fs::remove_file(t.path(&name)).expect("removed");
                }
            } else {
                assert!(left.is_empty(), "{context}: {left:?} left behind");
            }
        }
        assert!(
            stopped_runs > 0,
            "{signal}: no run was stopped (seed {seed}, {took:?} a run)"
        );
    }
}

#[test]
fn a_split_interrupted_by_a_signal_leaves_all_its_files_or_the_earlier_ones() {
    let t = Temp::new("signals-split");
    let input = big_input(&t, 4);
    let input = input.to_str().expect("utf-8");
    let out = t.path("out");
    let args = [
        "split",
        input,
        "--out-dir",
        "out",
        "--games",
        "500",
        "--jobs",
        "2",
    ];
    let start = Instant::now();
    let whole = run_in(t.dir(), &args);
    let took = start.elapsed();
    assert_eq!(code(&whole), 0, "{}", stderr(&whole));
    let expected = files(&out);
    assert!(expected.len() > 3, "{:?}", expected.keys());
    let mut moments = Moments::new();
    let seed = moments.0;
    for signal in SIGNALS {
        let mut stopped_runs = 0;
        for n in 0..RUNS {
            std::fs::remove_dir_all(&out).expect("removed");
            std::fs::create_dir(&out).expect("made");
            // An earlier run's files: one the run writes again, one it does not.
            let earlier: BTreeMap<String, Vec<u8>> = [("1.pgn", "old 1"), ("old.pgn", "old")]
                .iter()
                .map(|(name, text)| (name.to_string(), format!("{text} {n}").into_bytes()))
                .collect();
            for (name, text) in &earlier {
                std::fs::write(out.join(name), text).expect("written");
            }
            let after = moments.next(n, took);
            let context = format!("{signal} after {after:?} (seed {seed}, {took:?} uninterrupted)");
            let status = interrupt(t.dir(), &args, signal, after);
            let stopped = ended_by(status, signal, &context);
            stopped_runs += usize::from(stopped);
            let mut now = files(&out);
            for name in temporaries(&out) {
                assert_eq!(signal, Signal::SIGKILL, "{context}: {name} left behind");
                now.remove(&name);
            }
            let mut all = expected.clone();
            all.insert("old.pgn".into(), earlier["old.pgn"].clone());
            if stopped && signal == Signal::SIGKILL {
                // Killed outright while the files are renamed into place, a run leaves some
                // renamed and the others as they were (the limit `split` documents): each
                // file whole, either as it was or as the run wrote it, and none other.
                let names: Vec<&String> = all.keys().chain(earlier.keys()).collect();
                let each_whole = now.keys().all(|name| names.contains(&name))
                    && names.iter().all(|&name| {
                        let found = now.get(name);
                        found == earlier.get(name) || found == all.get(name)
                    });
                assert!(
                    each_whole,
                    "{context}: a file neither as it was nor as the run wrote it: {:?}",
                    now.keys()
                );
            } else if stopped {
                // A signal the program handles, as the files are put in place or after, ends
                // a run whose files are all there: either is right, and nothing in between.
                assert!(
                    now == earlier || now == all,
                    "{context}: neither the earlier files nor all the new: {:?}",
                    now.keys()
                );
            } else {
                assert!(
                    now == all,
                    "{context}: a finished run's files are not whole"
                );
            }
        }
        assert!(
            stopped_runs > 0,
            "{signal}: no run was stopped (seed {seed}, {took:?} a run)"
        );
    }
}

#[test]
fn a_file_size_limit_fails_the_run_naming_the_file_and_leaves_nothing() {
    let prlimit = Command::new("prlimit").arg("--version").output();
    assert!(
        prlimit.is_ok_and(|o| o.status.success()),
        "prlimit (util-linux) is needed by this test"
    );
    let t = Temp::new("fsize");
    // Many chunks: the run fails while the reading thread is still ahead of the writing
    // (it once waited forever then for room to hand on the next chunk).
    let input = big_input(&t, 16);
    let input = input.to_str().expect("utf-8");
    std::fs::write(t.path("out.pgn"), "earlier").expect("written");
    std::fs::create_dir(t.path("split")).expect("made");
    let limited = |args: &[&str]| {
        // A run that hangs ends after two minutes, as a failure (`timeout`'s 124).
        Command::new("timeout")
            .arg("120")
            .arg("prlimit")
            .arg("--fsize=4096")
            .arg(env!("CARGO_BIN_EXE_notate"))
            .args(args)
            .current_dir(t.dir())
            .output()
            .expect("prlimit runs")
    };
    for args in [
        &["fmt", input, "-o", "out.pgn"][..],
        &["json", input, "-o", "out.pgn"],
        &[
            "select",
            "--player",
            "Generator, White",
            input,
            "-o",
            "out.pgn",
        ],
        &[
            "parquet",
            input,
            "--positions",
            "out.pgn",
            "-o",
            "games.parquet",
        ],
        &["split", input, "--out-dir", "split", "--games", "1000"],
    ] {
        let o = limited(args);
        assert_eq!(code(&o), 2, "{args:?}: {}", stderr(&o));
        let said = stderr(&o);
        assert!(said.contains("File too large"), "{args:?}: {said}");
        assert!(
            said.contains("out.pgn: cannot be written")
                || said.contains("games.parquet: cannot be written")
                || said.contains("split/1.pgn: cannot be written"),
            "{args:?}: {said}"
        );
        assert_eq!(
            std::fs::read_to_string(t.path("out.pgn")).expect("kept"),
            "earlier"
        );
        assert!(!t.path("games.parquet").exists(), "{args:?}");
        assert!(files(&t.path("split")).is_empty(), "{args:?}");
        assert!(temporaries(t.dir()).is_empty(), "{args:?}");
    }
}

/// Runs `notate ARGS` in `dir` with a full disk there: a 256 KiB tmpfs mounted on
/// `dir/disk`, in a mount namespace of its own (`unshare`), so that nothing outlives the
/// run. `None` when this machine permits no such mount.
fn on_a_small_disk(dir: &Path, args: &[&str]) -> Option<std::process::Output> {
    std::fs::create_dir_all(dir.join("disk")).expect("made");
    let script = format!(
        "mount -t tmpfs -o size=256k tmpfs disk || exit 99; exec {} \"$@\"",
        env!("CARGO_BIN_EXE_notate")
    );
    // Root needs no user namespace; anyone else may be given one.
    for namespaces in [&["--mount"][..], &["--user", "--map-root-user", "--mount"]] {
        let o = Command::new("unshare")
            .args(namespaces)
            .args(["sh", "-c", &script, "sh"])
            .args(args)
            .current_dir(dir)
            .output()
            .ok()?;
        if o.status.code() != Some(99) && !stderr(&o).starts_with("unshare:") {
            return Some(o);
        }
    }
    None
}

#[test]
fn a_full_disk_fails_the_run_naming_the_file() {
    let t = Temp::new("full");
    let input = big_input(&t, 1);
    let input = input.to_str().expect("utf-8");
    // A disk that fills up: the output cannot be written whole; no part of it is left.
    let mounted = on_a_small_disk(t.dir(), &["fmt", input, "-o", "disk/out.pgn"]);
    match &mounted {
        Some(o) => {
            assert_eq!(code(o), 2, "{}", stderr(o));
            let said = stderr(o);
            assert!(
                said.contains("disk/out.pgn: cannot be written: No space left on device"),
                "{said}"
            );
            // The tmpfs went with the run's namespace: what is left is the bare folder,
            // which nothing was written to.
            assert!(files(&t.path("disk")).is_empty());
        }
        // Proven below with /dev/full all the same, but for the partial file, which the
        // file size limit's test proves.
        None => eprintln!("no tmpfs can be mounted here: a full disk is /dev/full alone"),
    }
    // /dev/full refuses every write with ENOSPC, as a full disk does; a device is
    // written in place (there is nothing to rename).
    for args in [
        &["fmt", input, "-o", "/dev/full"][..],
        &["select", input, "--plies", "1..", "-o", "/dev/full"],
        &["dedupe", input, "-o", "/dev/full"],
        &["html", input, "-o", "/dev/full"],
    ] {
        let o = run_in(t.dir(), args);
        assert_eq!(code(&o), 2, "{args:?}: {}", stderr(&o));
        let said = stderr(&o);
        assert!(
            said.contains("/dev/full: cannot be written: No space left on device"),
            "{args:?}: {said}"
        );
        assert!(!said.contains("panicked"), "{said}");
    }
    assert!(!t.path("out.pgn").exists());
    // Standard output on a full disk is a failure too, not a closed pipe.
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .expect("/dev/full");
    let o = notate()
        .args(["stats", input])
        .stdout(full)
        .output()
        .expect("notate runs");
    assert_eq!(code(&o), 2, "{}", stderr(&o));
    assert!(
        stderr(&o).contains("No space left on device"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn a_folder_that_cannot_be_written_fails_the_run_naming_the_file() {
    let t = Temp::new("unwritable");
    let input = big_input(&t, 1);
    let input = input.to_str().expect("utf-8");
    // Below a regular file (ENOTDIR), and in /proc, where no file can be made: refused
    // to root as to anyone, unlike a folder without write permission.
    let below_a_file = format!("{input}/out.pgn");
    for (output, says) in [
        (below_a_file.as_str(), "Not a directory"),
        ("/proc/notate-out.pgn", ""),
    ] {
        for args in [
            &["fmt", input, "-o", output][..],
            &["parquet", input, "-o", output],
            &["fmt", input, "--rejects", output],
            &["dedupe", input, "--duplicates", output],
        ] {
            let o = run_in(t.dir(), args);
            assert_eq!(code(&o), 2, "{args:?}: {}", stderr(&o));
            let said = stderr(&o);
            assert!(
                said.contains(&format!("{output}: cannot be created: {says}")),
                "{args:?}: {said}"
            );
        }
    }
    let o = run_in(
        t.dir(),
        &["split", input, "--out-dir", &below_a_file, "--games", "9"],
    );
    assert_eq!(code(&o), 2, "{}", stderr(&o));
    assert!(stderr(&o).contains(&below_a_file), "{}", stderr(&o));
    assert_eq!(files(t.dir()).len(), 1);
}

#[test]
fn a_run_that_fails_on_an_input_writes_no_output() {
    let t = Temp::new("failed");
    let good = t.file("good.pgn", b"[Event \"a\"]\n\n1. e4 e5 *\n");
    let bad = t.file("bad.pgn.gz", &[0x1f, 0x8b, 8, 0, 1, 2, 3, 4, 5]);
    std::fs::write(t.path("out.pgn"), "earlier").expect("written");
    let o = run_in(t.dir(), &["fmt", &good, &bad, "-o", "out.pgn"]);
    assert_eq!(code(&o), 2, "{}", stderr(&o));
    assert!(stderr(&o).contains("bad.pgn.gz"), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("out.pgn: not written, as the run failed"),
        "{}",
        stderr(&o)
    );
    assert_eq!(
        std::fs::read_to_string(t.path("out.pgn")).expect("kept"),
        "earlier"
    );
    let o = run_in(
        t.dir(),
        &["split", &good, &bad, "--out-dir", "split", "--games", "1"],
    );
    assert_eq!(code(&o), 2, "{}", stderr(&o));
    assert!(files(&t.path("split")).is_empty());
    assert!(temporaries(t.dir()).is_empty());
}

#[test]
fn the_output_may_name_an_input() {
    let t = Temp::new("in-place");
    // Larger than the output's buffer: written in place, the input would be clobbered
    // before it is read.
    let input = big_input(&t, 2);
    let original = std::fs::read(&input).expect("the input");
    let expected = stdout(&run_in(t.dir(), &["fmt", "big2.pgn"]));
    assert!(expected.len() > 1 << 20);
    let link = t.path("link.pgn");
    std::os::unix::fs::symlink("big2.pgn", &link).expect("a link");
    // The same file as named, through `./`, and through a symbolic link, as the output
    // or as the input.
    for (input_name, output_name) in [
        ("big2.pgn", "big2.pgn"),
        ("big2.pgn", "./big2.pgn"),
        ("./big2.pgn", "link.pgn"),
        ("link.pgn", "big2.pgn"),
    ] {
        std::fs::write(&input, &original).expect("restored");
        let o = run_in(t.dir(), &["fmt", input_name, "-o", output_name]);
        assert_eq!(code(&o), 0, "{input_name} -o {output_name}: {}", stderr(&o));
        assert!(
            std::fs::read(&input).expect("the file") == expected.as_bytes(),
            "{input_name} -o {output_name}"
        );
        assert!(
            std::fs::symlink_metadata(&link)
                .expect("the link")
                .file_type()
                .is_symlink(),
            "the link stays a link"
        );
    }
    assert!(temporaries(t.dir()).is_empty());
}

/// `-o` and `--rejects` (or `--duplicates`) naming one file would leave one output: each
/// is put in place whole, the second over the first. Refused before anything is written.
#[test]
fn the_output_and_the_rejects_may_not_name_one_file() {
    let t = Temp::new("one-file");
    t.file("in.pgn", b"1. e4 e5 *\n\n1. e4 e5 *\n\n1. Kxe8 *\n");
    t.file("earlier.pgn", b"kept\n");
    std::fs::create_dir(t.path("sub")).expect("a folder");
    for args in [
        &[
            "fmt",
            "in.pgn",
            "-o",
            "earlier.pgn",
            "--rejects",
            "earlier.pgn",
        ][..],
        &[
            "fmt",
            "in.pgn",
            "-o",
            "new.pgn",
            "--rejects",
            "sub/../new.pgn",
        ],
        &[
            "select",
            "in.pgn",
            "--player",
            "A",
            "-o",
            "earlier.pgn",
            "--rejects",
            "./earlier.pgn",
        ],
        &[
            "dedupe",
            "in.pgn",
            "-o",
            "new.pgn",
            "--duplicates",
            "new.pgn",
        ],
    ] {
        let o = run_in(t.dir(), args);
        assert_eq!(code(&o), 2, "{args:?}");
        assert!(
            stderr(&o).contains("name one file"),
            "{args:?}: {}",
            stderr(&o)
        );
        assert_eq!(
            std::fs::read(t.path("earlier.pgn")).expect("kept"),
            b"kept\n"
        );
        assert!(!t.path("new.pgn").exists(), "{args:?}");
    }
    assert!(temporaries(t.dir()).is_empty());
    // Two files: both written.
    let o = run_in(
        t.dir(),
        &["fmt", "in.pgn", "-o", "good.pgn", "--rejects", "bad.pgn"],
    );
    assert_eq!(code(&o), 1, "{}", stderr(&o));
    assert!(t.path("good.pgn").exists() && t.path("bad.pgn").exists());
}

#[test]
fn a_closed_standard_output_ends_the_run_quietly() {
    let t = Temp::new("head");
    let input = big_input(&t, 4);
    let input = input.to_str().expect("utf-8");
    let mut commands: Vec<Vec<&str>> = [
        "fmt", "eco", "json", "html", "dedupe", "check", "stats", "scan",
    ]
    .iter()
    .map(|command| vec![*command, input, "--quiet"])
    .collect();
    commands.push(vec!["select", input, "--quiet", "--plies", "1.."]);
    commands.push(vec![
        "split",
        input,
        "--quiet",
        "--out-dir",
        "split",
        "--games",
        "1",
    ]);
    commands.push(vec!["perft", "5", "--divide"]);
    commands.push(vec![
        "show",
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
    ]);
    commands.push(vec![
        "svg",
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
    ]);
    for args in &commands {
        let mut child = notate()
            .args(args)
            .current_dir(t.dir())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("notate runs");
        // As `| head -c 10`: a few bytes read, then the pipe closed.
        let mut head = [0; 10];
        let mut stdout = child.stdout.take().expect("a pipe");
        let _ = stdout.read(&mut head);
        drop(stdout);
        let o = child.wait_with_output().expect("a status");
        assert_eq!(
            o.status.code(),
            Some(0),
            "{args:?}: {:?} {}",
            o.status,
            stderr(&o)
        );
        assert_eq!(stderr(&o), "", "{args:?}");
    }
}
