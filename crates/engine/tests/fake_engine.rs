//! Faults of an engine, played by `tests/fake-engine.py` (a Python script speaking just
//! enough UCI, called through symbolic links named after the behaviour wanted): each gives
//! its error, quickly, and leaves no process behind.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use engine::{Analysis, Engine, EngineConfig, EngineError, Limit, Query, Score, Uci};

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const TIMEOUT: Duration = Duration::from_secs(5);

/// The fake engine's path under the name of a behaviour: a symbolic link to the script in a
/// folder of the tests' own.
fn fake(mode: &str) -> PathBuf {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fake-engine.py");
    // Git keeps the mode, but a copy of the sources may not have.
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755))
        .expect("the script's mode set");
    let folder = Path::new(env!("CARGO_TARGET_TMPDIR")).join("engine-fakes");
    std::fs::create_dir_all(&folder).expect("a folder for the links");
    let link = folder.join(mode);
    if !link.exists() {
        // Another test may make the same link at the same moment.
        let _ = std::os::unix::fs::symlink(&script, &link);
    }
    link
}

fn start(mode: &str) -> Uci {
    let config = EngineConfig {
        start_timeout: Duration::from_secs(5),
        ..EngineConfig::new(fake(mode))
    };
    Uci::start(&config).expect("the fake engine starts")
}

fn analyse(engine: &mut Uci, timeout: Duration) -> Result<Analysis, EngineError> {
    engine.analyse(&Query::chess(START), Limit::Nodes(1000), timeout)
}

fn is_running(process: u32) -> bool {
    Path::new(&format!("/proc/{process}")).exists()
}

#[test]
fn a_good_engine_gives_its_latest_score_depth_nodes_and_line() {
    let mut engine = start("good");
    assert_eq!(engine.name(), "Fake Engine good");
    assert!(engine.has_option("clear hash") && engine.has_option("Threads"));
    let analysis = analyse(&mut engine, TIMEOUT).expect("an analysis");
    assert_eq!(analysis.score, Score::Centipawns(17));
    assert_eq!((analysis.depth, analysis.nodes), (2, 80));
    assert_eq!(analysis.pv, ["e2e4", "e7e5"]);
    // The engine is not worn by an analysis: the next one gives the same.
    let again = analyse(&mut engine, TIMEOUT).expect("another analysis");
    assert_eq!(again.pv, analysis.pv);
    assert!(engine.is_alive());
}

#[test]
fn garbage_is_passed_over_and_the_good_lines_read() {
    let mut engine = start("garbage");
    let analysis = analyse(&mut engine, TIMEOUT).expect("an analysis");
    assert_eq!(analysis.score, Score::Centipawns(17));
    assert_eq!((analysis.depth, analysis.nodes), (2, 80));
    assert_eq!(analysis.pv, ["e2e4", "e7e5"]);
}

#[test]
fn a_best_move_without_a_score_is_no_score_and_the_engine_lives_on() {
    let mut engine = start("noscore");
    assert!(matches!(
        analyse(&mut engine, TIMEOUT),
        Err(EngineError::NoScore)
    ));
    assert!(engine.is_alive());
    assert!(matches!(
        analyse(&mut engine, TIMEOUT),
        Err(EngineError::NoScore)
    ));
}

#[test]
fn without_a_line_the_best_move_is_the_line() {
    let mut engine = start("bestonly");
    let analysis = analyse(&mut engine, TIMEOUT).expect("an analysis");
    assert_eq!(analysis.score, Score::Mate(-2));
    assert_eq!(analysis.pv, ["g8h8"]);
    assert_eq!((analysis.depth, analysis.nodes), (3, 100));
}

#[test]
fn an_engine_that_crashes_has_exited_with_its_status_and_stays_dead() {
    let mut engine = start("crash");
    let process = engine.process_id();
    let started = Instant::now();
    assert!(matches!(
        analyse(&mut engine, TIMEOUT),
        Err(EngineError::Exited { status: Some(3) })
    ));
    assert!(started.elapsed() < Duration::from_secs(2));
    assert!(!engine.is_alive());
    assert!(!is_running(process));
    assert!(matches!(
        analyse(&mut engine, TIMEOUT),
        Err(EngineError::Exited { status: Some(3) })
    ));
}

#[test]
fn an_engine_that_hangs_is_killed_at_the_timeout() {
    let mut engine = start("hang");
    let process = engine.process_id();
    let started = Instant::now();
    let timeout = Duration::from_secs(1);
    let result = analyse(&mut engine, timeout);
    let took = started.elapsed();
    assert!(
        matches!(result, Err(EngineError::TimedOut { after }) if after == timeout),
        "{result:?}"
    );
    assert!(took >= timeout && took < Duration::from_secs(2), "{took:?}");
    assert!(!engine.is_alive());
    assert!(!is_running(process), "process {process} still runs");
    let started = Instant::now();
    assert!(matches!(
        analyse(&mut engine, TIMEOUT),
        Err(EngineError::Exited { status: None })
    ));
    assert!(started.elapsed() < Duration::from_millis(100));
}

#[test]
fn dropping_an_engine_that_ignores_quit_kills_it_soon() {
    let engine = start("hang");
    let process = engine.process_id();
    let started = Instant::now();
    drop(engine);
    assert!(started.elapsed() < Duration::from_secs(2));
    assert!(!is_running(process), "process {process} still runs");
}

#[test]
fn dropping_a_good_engine_ends_it() {
    let engine = start("good");
    let process = engine.process_id();
    drop(engine);
    assert!(!is_running(process), "process {process} still runs");
}

#[test]
fn a_program_that_never_says_uciok_is_not_uci_and_quoted() {
    let config = EngineConfig {
        start_timeout: Duration::from_millis(500),
        ..EngineConfig::new(fake("notuci"))
    };
    let started = Instant::now();
    match Uci::start(&config) {
        Err(EngineError::NotUci { path, said }) => {
            assert_eq!(path, config.path);
            assert_eq!(
                said,
                "Fake Chess Program 1.0, not an engine / type 'help' for help"
            );
        }
        other => panic!(
            "expected NotUci, got {:?}",
            other.map(|uci| uci.process_id())
        ),
    }
    assert!(started.elapsed() < Duration::from_secs(2));
}

#[test]
fn a_program_that_exits_at_once_is_not_uci() {
    for program in [fake("exit-at-start"), PathBuf::from("/bin/true")] {
        let started = Instant::now();
        match Uci::start(&EngineConfig::new(&program)) {
            Err(EngineError::NotUci { path, said }) => {
                assert_eq!(path, program);
                assert_eq!(said, "");
            }
            other => panic!("{program:?}: expected NotUci, got {:?}", other.map(|_| ())),
        }
        assert!(started.elapsed() < Duration::from_secs(2), "{program:?}");
    }
}

#[test]
fn a_program_that_does_not_exist_does_not_start() {
    let path = PathBuf::from("/nonexistent/stockfish");
    match Uci::start(&EngineConfig::new(&path)) {
        Err(error @ EngineError::Start { .. }) => {
            let message = error.to_string();
            assert!(
                message.starts_with("cannot start the engine /nonexistent/stockfish: "),
                "{message}"
            );
        }
        other => panic!("expected Start, got {:?}", other.map(|_| ())),
    }
}

#[test]
fn an_option_the_engine_refuses_is_an_error() {
    let config = EngineConfig {
        options: vec![("Contempt".to_owned(), "0".to_owned())],
        ..EngineConfig::new(fake("refuse"))
    };
    match Uci::start(&config) {
        Err(EngineError::Option { name, said }) => {
            assert_eq!(name, "Contempt");
            assert_eq!(said, "No such option: Contempt");
        }
        other => panic!("expected Option, got {:?}", other.map(|_| ())),
    }
    // A variant refused at an analysis leaves the engine alive.
    let mut engine = start("refuse");
    let atomic = Query {
        variant: Some("atomic"),
        ..Query::chess(START)
    };
    assert!(matches!(
        engine.analyse(&atomic, Limit::Nodes(1000), TIMEOUT),
        Err(EngineError::Option { name, .. }) if name == "UCI_Variant"
    ));
    assert!(engine.is_alive());
}
