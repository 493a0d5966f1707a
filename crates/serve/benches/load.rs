//! The server under load: `cargo bench -p serve --bench load -- GAMES.pgn INDEX_DIR
//! [CLIENTS] [SECONDS]`.
//!
//! Starts the server on 127.0.0.1 over INDEX_DIR (built from GAMES.pgn first when it holds
//! no index), then CLIENTS (200) clients, each on a connection of its own kept open, ask
//! for SECONDS (30) as fast as answers come: the explorer of a position drawn from the
//! games (half the requests), `find`'s first 100 games of one (a quarter), a game by its id
//! (an eighth), a page of the game list (an eighth: a player's games newest first, a page
//! of the whole list by rating, or the games of a position). Prints per kind the requests answered, those that failed, the median, the
//! 99th percentile and the longest; and the process's resident memory at the start, at
//! each tenth of the run and at the end (the server's own, with the clients' small part).
//! Without arguments it measures the corpus (`corpus/pgn/generated.pgn`), briefly, which
//! says little of speed.

use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use collection::job::{Job, Silent};
use collection::rules::FormatRules;
use notation::{GameReader, ReadOptions};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpStream;

/// The allocator `notate` runs with, so that the server measured is the one shipped.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn resident_mib() -> f64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))
                .and_then(|l| l.split_whitespace().nth(1)?.parse::<f64>().ok())
        })
        .map_or(0.0, |kib| kib / 1024.0)
}

fn percent_encoded(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'/' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// One GET on a kept-open connection: the status, or `None` when the connection failed.
async fn get(stream: &mut BufReader<TcpStream>, target: &str, body: &mut Vec<u8>) -> Option<u16> {
    let request = format!("GET {target} HTTP/1.1\r\nHost: bench\r\n\r\n");
    stream.get_mut().write_all(request.as_bytes()).await.ok()?;
    let mut line = String::new();
    stream.read_line(&mut line).await.ok()?;
    let status = line.split(' ').nth(1)?.parse().ok()?;
    let mut length = 0;
    loop {
        line.clear();
        stream.read_line(&mut line).await.ok()?;
        let header = line.trim_end();
        if header.is_empty() {
            break;
        }
        if let Some((name, value)) = header.split_once(':')
            && name.eq_ignore_ascii_case("content-length")
        {
            length = value.trim().parse().ok()?;
        }
    }
    body.resize(length, 0);
    stream.read_exact(body).await.ok()?;
    Some(status)
}

#[derive(Default)]
struct Kind {
    times: Vec<Duration>,
    failed: u64,
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
    let clients: usize = args.get(2).and_then(|n| n.parse().ok()).unwrap_or(200);
    let seconds: u64 = args
        .get(3)
        .and_then(|n| n.parse().ok())
        .unwrap_or(if args.is_empty() { 3 } else { 30 });

    if index::Index::open(&dir).is_err() {
        let sources = collection::input::collect(std::slice::from_ref(&games)).expect("the games");
        let mut job = Job::new(sources, 2, &Silent);
        index::build(&mut job, &dir, &index::BuildOptions::default()).expect("built");
    }
    let total_games = index::Index::open(&dir).expect("the index").games();

    // Positions from the first games' main lines, as FEN.
    let rules = collection::rules::chess();
    let bytes = std::fs::read(&games).expect("the games");
    let mut fens = Vec::new();
    let mut players = Vec::new();
    for read in GameReader::new(&rules, bytes.as_slice(), ReadOptions::default()).take(20_000) {
        let Ok(read) = read else { continue };
        if let Some(white) = read.game.tags.get("White") {
            players.push(percent_encoded(white));
        }
        let Some(start) = rules.start(&read.game) else {
            continue;
        };
        collection::mainline::walk(&rules, start, &read.game, |p, _| {
            if let Some(fen) = rules.fen(p) {
                fens.push(percent_encoded(&fen));
            }
            true
        });
    }
    drop(bytes);
    let fens = Arc::new(fens);
    let players = Arc::new(players);

    let server =
        serve::Server::bind(&dir, "127.0.0.1:0".parse().expect("an address")).expect("the server");
    let address = server.local_addr().expect("its address");
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let serving = std::thread::spawn(move || {
        server
            .run(async {
                let _ = stopped.await;
            })
            .expect("served");
    });

    let kinds: Arc<Mutex<[Kind; 4]>> = Arc::default();
    let memory = Mutex::new(vec![resident_mib()]);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .expect("a runtime");
    let until = Instant::now() + Duration::from_secs(seconds);
    runtime.block_on(async {
        let mut tasks = Vec::new();
        for client in 0..clients {
            let fens = Arc::clone(&fens);
            let players = Arc::clone(&players);
            let kinds = Arc::clone(&kinds);
            tasks.push(tokio::spawn(async move {
                let mut state = 0x9e37_79b9_7f4a_7c15_u64 ^ (client as u64 + 1);
                let mut next = move || {
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    state
                };
                let mut body = Vec::new();
                let mut mine: [Kind; 4] = Default::default();
                let mut stream = None;
                while Instant::now() < until {
                    let draw = next();
                    let fen = &fens[(draw >> 8) as usize % fens.len()];
                    let player = &players[(draw >> 20) as usize % players.len().max(1)];
                    let (kind, target) = match draw % 8 {
                        0..=3 => (0, format!("/api/explore?fen={fen}")),
                        4 | 5 => (1, format!("/api/find?fen={fen}&limit=100")),
                        6 => (2, format!("/api/games/{}", (draw >> 16) % total_games)),
                        _ => (
                            3,
                            match (draw >> 40) % 3 {
                                0 => format!("/api/games?player={player}&sort=date"),
                                1 => format!(
                                    "/api/games?sort=rating&offset={}",
                                    (draw >> 16) % total_games.min(100_000)
                                ),
                                _ => format!("/api/games?fen={fen}&sort=date"),
                            },
                        ),
                    };
                    if stream.is_none() {
                        stream = TcpStream::connect(address).await.ok().map(BufReader::new);
                    }
                    let Some(connection) = stream.as_mut() else {
                        mine[kind].failed += 1;
                        continue;
                    };
                    let started = Instant::now();
                    match get(connection, &target, &mut body).await {
                        Some(200) => mine[kind].times.push(started.elapsed()),
                        _ => {
                            mine[kind].failed += 1;
                            stream = None;
                        }
                    }
                }
                let mut all = kinds.lock().expect("the tallies");
                for (into, from) in all.iter_mut().zip(mine) {
                    into.times.extend(from.times);
                    into.failed += from.failed;
                }
            }));
        }
        let tenth = Duration::from_secs(seconds).max(Duration::from_millis(100)) / 10;
        while Instant::now() < until {
            tokio::time::sleep(tenth).await;
            memory.lock().expect("memory").push(resident_mib());
        }
        for task in tasks {
            task.await.expect("a client");
        }
    });
    let _ = stop.send(());
    serving.join().expect("the server stopped");

    let kinds = kinds.lock().expect("the tallies");
    println!("{clients} clients for {seconds} s on {address}, {total_games} games");
    for (name, kind) in ["explore", "find, first 100", "game by id", "game list"]
        .iter()
        .zip(kinds.iter())
    {
        let mut times = kind.times.clone();
        times.sort();
        let at = |p: f64| {
            times
                .get(((times.len().saturating_sub(1)) as f64 * p).round() as usize)
                .map_or(0.0, |t| t.as_secs_f64() * 1e3)
        };
        println!(
            "{name:<16} {:>8} answered {:>4} failed   median {:>8.2} ms   p99 {:>8.2} ms   max {:>8.2} ms",
            times.len(),
            kind.failed,
            at(0.5),
            at(0.99),
            times.last().map_or(0.0, |t| t.as_secs_f64() * 1e3),
        );
    }
    let memory = memory.lock().expect("memory");
    let shown: Vec<String> = memory.iter().map(|m| format!("{m:.0}")).collect();
    println!("resident MiB: {}", shown.join(" "));
}
