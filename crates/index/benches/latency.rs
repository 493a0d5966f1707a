//! The explorer's and `find`'s latency through the library, over positions drawn from the
//! games: `cargo bench -p index --bench latency -- GAMES.pgn INDEX_DIR [SAMPLES]`.
//!
//! Builds the index of GAMES.pgn in INDEX_DIR first when INDEX_DIR holds none. Draws
//! SAMPLES (1,000) positions: a game at random, then a ply of its main line at random (so
//! openings and middlegames alike, as often as the games reach them). Asks each position
//! without a filter and with one (blitz and rapid, the 1600–2000 groups, since 2020), and
//! prints the median and the 99th percentile of each, and of `find`'s first 100 games.
//! Without arguments, it measures the corpus (`corpus/pgn`), which says little of speed.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use collection::job::{Job, Silent};
use index::dims::Speed;
use index::{BuildOptions, Filter, Index, IndexRules, Limits};
use notation::{GameReader, ReadOptions};

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

fn report(name: &str, mut times: Vec<Duration>) {
    times.sort();
    println!(
        "{name:<28} median {:>9.3} ms   p99 {:>9.3} ms   max {:>9.3} ms",
        percentile(&times, 0.5).as_secs_f64() * 1e3,
        percentile(&times, 0.99).as_secs_f64() * 1e3,
        times.last().map_or(0.0, |t| t.as_secs_f64() * 1e3),
    );
}

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let games = args
        .first()
        .map_or_else(|| root.join("corpus/pgn/generated.pgn"), PathBuf::from);
    let scratch = tempfile::tempdir().expect("a folder");
    let dir = args
        .get(1)
        .map_or_else(|| scratch.path().join("index"), PathBuf::from);
    let samples: usize = args.get(2).and_then(|n| n.parse().ok()).unwrap_or(1000);

    if Index::open(&dir).is_err() {
        let start = Instant::now();
        let sources = collection::input::collect(std::slice::from_ref(&games)).expect("the games");
        let mut job = Job::new(sources, 2, &Silent);
        let built = index::build(&mut job, &dir, &BuildOptions::default()).expect("built");
        println!(
            "built: {} games, {} positions in {:.1} s",
            built.games,
            built.positions,
            start.elapsed().as_secs_f64()
        );
    }
    let index = Index::open(&dir).expect("the index");
    let rules = collection::rules::chess();

    // The positions: every main-line position of a sample of the games, then drawn.
    let bytes = std::fs::read(&games).expect("the games");
    let mut positions = Vec::new();
    let mut state = 0x2545_f491_4f6c_dd1d_u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for read in GameReader::new(&rules, bytes.as_slice(), ReadOptions::default()) {
        let Ok(read) = read else { continue };
        // One game in eight keeps its positions: enough to draw from, in bounded memory.
        if next() % 8 != 0 {
            continue;
        }
        let Some(start) = collection::rules::FormatRules::start(&rules, &read.game) else {
            continue;
        };
        let mut game_positions = Vec::new();
        collection::mainline::walk(&rules, start, &read.game, |p, _| {
            game_positions.push(*p);
            true
        });
        if !game_positions.is_empty() {
            positions.push(game_positions);
        }
        if positions.len() >= 20 * samples {
            break;
        }
    }
    let drawn: Vec<pgn::Position> = (0..samples)
        .map(|_| {
            let game = &positions[(next() % positions.len() as u64) as usize];
            game[(next() % game.len() as u64) as usize]
        })
        .collect();

    let filtered = Filter {
        speeds: vec![Speed::Blitz, Speed::Rapid],
        ratings: ["1600", "1800"]
            .iter()
            .map(|r| r.parse().expect("a group"))
            .collect(),
        since: Some("2020-01".parse().expect("a month")),
        ..Filter::default()
    };
    for (name, filter) in [
        ("explore", Filter::default()),
        ("explore, filtered", filtered),
    ] {
        let times = drawn
            .iter()
            .map(|p| {
                let start = Instant::now();
                let answer = index
                    .explore(&rules, p, &filter, Limits::default())
                    .expect("explored");
                std::hint::black_box(answer);
                start.elapsed()
            })
            .collect();
        report(name, times);
    }
    let times = drawn
        .iter()
        .map(|p| {
            let start = Instant::now();
            let games = index.find(rules.key(p)).expect("found");
            for &id in games.iter().take(100) {
                std::hint::black_box(index.reference(&index.record(id).expect("a record")));
            }
            start.elapsed()
        })
        .collect();
    report("find, first 100 games", times);
}
