//! `notate serve` as a user runs it: each API answer equals the command line's answer to
//! the same question, bad requests get a 4xx answer while the server goes on answering
//! others, and the server starts, refuses a taken port and stops as a command should.

mod common;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use common::{Temp, code, run, stderr, stdout};

/// A `notate serve` running on a port the system picked; killed when dropped.
struct Served {
    child: Child,
    address: String,
    /// What it printed on standard error after its address.
    said: String,
}

impl Served {
    fn start(dir: &str, bind: &str) -> Served {
        Served::start_with(&[dir, "--bind", bind])
    }

    /// `notate serve ARGS…` (on a port the system picks unless ARGS bind one).
    fn start_with(args: &[&str]) -> Served {
        let mut all = vec!["serve"];
        all.extend_from_slice(args);
        if !args.contains(&"--bind") {
            all.extend(["--bind", "127.0.0.1:0"]);
        }
        let mut child = Command::new(env!("CARGO_BIN_EXE_notate"))
            .args(&all)
            .current_dir(common::root())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("notate serve starts");
        let mut lines = BufReader::new(child.stderr.take().expect("its standard error"));
        let mut said = String::new();
        let address = loop {
            let mut line = String::new();
            if lines.read_line(&mut line).expect("its message") == 0 {
                panic!("notate serve ended: {said}");
            }
            said.push_str(&line);
            if let Some(at) = line.trim().strip_prefix("notate: serving ") {
                let url = at.rsplit(' ').next().expect("an address");
                break url
                    .trim_start_matches("http://")
                    .trim_end_matches('/')
                    .to_owned();
            }
        };
        Served {
            child,
            address,
            said,
        }
    }

    /// A GET of `target`: the status and the body.
    fn get(&self, target: &str) -> (u16, String) {
        let mut stream = TcpStream::connect(&self.address).expect("connected");
        stream
            .set_read_timeout(Some(Duration::from_secs(30)))
            .expect("a timeout");
        write!(
            stream,
            "GET {target} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n",
            self.address
        )
        .expect("sent");
        let mut answer = Vec::new();
        stream.read_to_end(&mut answer).expect("an answer");
        let answer = String::from_utf8(answer).expect("UTF-8");
        let status = answer
            .split(' ')
            .nth(1)
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| panic!("{target}: not HTTP: {answer:?}"));
        let body = answer
            .split_once("\r\n\r\n")
            .map_or(String::new(), |(_, b)| b.to_owned());
        (status, body)
    }

    /// The status of a GET of `target` that the server may refuse before it is sent whole:
    /// `None` when the connection was reset before its answer could be read.
    /// The status and the body of an answer to a request sent whole, written before the
    /// answer is read.
    fn refused(&self, target: &str) -> (Option<u16>, String) {
        let mut stream = TcpStream::connect(&self.address).expect("connected");
        stream
            .set_read_timeout(Some(Duration::from_secs(30)))
            .expect("a timeout");
        let request = format!("GET {target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
        stream
            .write_all(request.as_bytes())
            .expect("the request sent");
        let mut answer = Vec::new();
        let _ = stream.read_to_end(&mut answer);
        let answer = String::from_utf8_lossy(&answer);
        let status = answer.split(' ').nth(1).and_then(|s| s.parse().ok());
        let body = answer.split_once("\r\n\r\n").map_or("", |(_, body)| body);
        (status, body.to_owned())
    }

    fn json(&self, target: &str) -> serde_json::Value {
        let (status, body) = self.get(target);
        assert_eq!(status, 200, "{target}: {body}");
        serde_json::from_str(&body).unwrap_or_else(|e| panic!("{target}: {e}: {body}"))
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn notate_ok(args: &[&str]) -> String {
    let out = run(args);
    assert_eq!(code(&out), 0, "{args:?}: {}", stderr(&out));
    stdout(&out)
}

/// An index of the chess corpus that `select` reads as standard chess.
fn chess_index(t: &Temp) -> String {
    let dir = t.path("index").display().to_string();
    notate_ok(&[
        "index",
        "-q",
        "-o",
        &dir,
        "corpus/pgn/model.pgn",
        "corpus/pgn/generated.pgn",
        "corpus/pgn/lenient.pgn",
    ]);
    dir
}

/// A query string's value, percent-encoded.
fn encoded(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

#[test]
fn the_api_answers_as_the_command_line_does() {
    let t = Temp::new("serve-answers");
    let dir = chess_index(&t);
    let served = Served::start(&dir, "127.0.0.1:0");
    let questions: [(&str, &[&str]); 5] = [
        ("", &[]),
        ("play=e2e4,e7e5", &["--moves", "e2e4,e7e5"]),
        (
            "play=e4%20c5&moves=3&topGames=1",
            &["--moves", "e4 c5", "--max-moves", "3", "--top", "1"],
        ),
        (
            "speeds=blitz,rapid&ratings=1600,1800&since=2020-01",
            &[
                "--speeds",
                "blitz,rapid",
                "--ratings",
                "1600,1800",
                "--since",
                "2020-01",
            ],
        ),
        ("play=d4", &["--moves", "d4"]),
    ];
    for (query, args) in questions {
        let api = served.json(&format!("/api/explore?{query}"));
        let mut command = vec!["explore", &dir, "--json"];
        command.extend_from_slice(args);
        let cli: serde_json::Value =
            serde_json::from_str(&notate_ok(&command)).expect("the command's JSON");
        assert_eq!(api, cli, "{query}");
    }
    // By FEN as well.
    let fen = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2";
    let by_fen = served.json(&format!("/api/explore?fen={}", encoded(fen)));
    assert_eq!(by_fen, served.json("/api/explore?play=e4,e5"));

    // find: the command's lines, paged.
    let lines = notate_ok(&["find", &dir, "--moves", ""]);
    let lines: Vec<&str> = lines.lines().collect();
    assert!(lines.len() > 3, "{lines:?}");
    let found = served.json("/api/find?limit=10000");
    assert_eq!(found["count"], lines.len());
    let games = found["games"].as_array().expect("games");
    let as_lines: Vec<String> = games
        .iter()
        .map(|g| {
            format!(
                "{}\t{}\t{}",
                g["file"].as_str().expect("a file"),
                g["number"],
                g["offset"]
            )
        })
        .collect();
    assert_eq!(as_lines, lines);
    let page = served.json("/api/find?offset=2&limit=2");
    assert_eq!(page["games"].as_array().expect("games")[..], games[2..4]);

    // A game: its text as `find -o` writes it, its bytes as its file holds them, and its
    // JSON as `notate json` writes it.
    let written = t.path("found.pgn");
    let written = written.to_str().expect("UTF-8");
    notate_ok(&["find", &dir, "--moves", "", "-o", written]);
    let written = std::fs::read_to_string(written).expect("written");
    for g in games.iter().take(3) {
        let id = &g["id"];
        let file = g["file"].as_str().expect("a file");
        let number = g["number"].as_u64().expect("a number");
        let offset = g["offset"].as_u64().expect("an offset") as usize;
        let (status, text) = served.get(&format!("/api/games/{id}?format=pgn"));
        assert_eq!(status, 200);
        assert!(
            text.starts_with("[Event ") && written.contains(&text),
            "game {id}: {text}"
        );
        let (status, raw) = served.get(&format!("/api/games/{id}?format=raw"));
        assert_eq!(status, 200);
        let bytes = std::fs::read(file).expect("the file");
        assert!(
            bytes[offset..].starts_with(raw.trim_end().as_bytes()),
            "game {id}: {raw}"
        );
        let json = served.json(&format!("/api/games/{id}"));
        let all = notate_ok(&["json", file]);
        let line = all
            .lines()
            .map(|l| serde_json::from_str::<serde_json::Value>(l).expect("JSON"))
            .find(|v| v["game"] == number)
            .expect("the game in notate json");
        for key in ["tags", "mainline", "result", "comments"] {
            assert_eq!(json[key], line[key], "game {id}: {key}");
        }
    }
}

#[test]
fn bad_requests_get_a_4xx_answer_and_the_server_goes_on() {
    let t = Temp::new("serve-bad");
    let dir = chess_index(&t);
    let served = Served::start(&dir, "127.0.0.1:0");
    // A client that never finishes its request holds no one up.
    let mut slow = TcpStream::connect(&served.address).expect("connected");
    slow.write_all(b"GET /api/explore HTTP/1.1\r\nHost: x\r\n")
        .expect("half a request");
    let long = format!("/api/explore?play={}", "e".repeat(10 << 20));
    for (target, status, says) in [
        ("/api/explore?fen=not%20a%20fen", 400, "FEN"),
        ("/api/explore?play=e4,Ke8", 400, "Ke8"),
        ("/api/explore?colour=white", 400, "unknown parameter"),
        ("/api/explore?play=e4&play=d4", 400, "twice"),
        ("/api/explore?ratings=1234", 400, "ratings"),
        ("/api/explore?color=white", 400, "player"),
        ("/api/explore?moves=100000", 400, "at most"),
        ("/api/find?limit=-1", 400, "limit"),
        ("/api/games/999999", 404, "no game"),
        ("/api/games/abc", 404, "no game"),
        ("/api/games/0?format=docx", 400, "format"),
        ("/../../etc/passwd", 404, "no such page"),
        ("/api/%2e%2e/%2e%2e/etc/passwd", 404, "no such page"),
        ("/index.json", 404, "no such page"),
    ] {
        let (got, body) = served.get(target);
        assert_eq!(got, status, "{target}: {body}");
        let error: serde_json::Value =
            serde_json::from_str(&body).unwrap_or_else(|e| panic!("{target}: {e}: {body}"));
        let message = error["error"].as_str().expect("an error");
        assert!(message.contains(says), "{target}: {message}");
    }
    // A request head of 10 MB is refused before it is read whole, with a JSON error
    // like the others.
    let (status, body) = served.refused(&long);
    assert_eq!(status, Some(431), "{body}");
    let error: serde_json::Value = serde_json::from_str(&body).expect("a JSON error");
    assert!(
        error["error"]
            .as_str()
            .expect("an error")
            .contains("64 KiB")
    );
    // The server still answers, the slow client still waiting.
    assert!(served.json("/api/explore?play=e4")["moves"].is_array());
    drop(slow);
}

#[test]
fn the_server_warns_of_other_addresses_refuses_a_taken_port_and_stops_on_a_signal() {
    let t = Temp::new("serve-start");
    let dir = chess_index(&t);
    let served = Served::start(&dir, "127.0.0.1:0");
    assert!(!served.said.contains("warning"), "{}", served.said);
    let taken = run(&["serve", &dir, "--bind", &served.address]);
    assert_eq!(code(&taken), 2);
    assert!(
        stderr(&taken).contains("cannot listen on"),
        "{}",
        stderr(&taken)
    );
    let open = Served::start(&dir, "0.0.0.0:0");
    assert!(
        open.said.contains("warning: listening on 0.0.0.0"),
        "{}",
        open.said
    );
    // Nothing to read: exit 2 with a message.
    let none = run(&["serve", "no-such-file.pgn", "--bind", "127.0.0.1:0"]);
    assert_eq!(code(&none), 2, "{}", stderr(&none));
    // SIGINT (Ctrl-C) ends it.
    let mut served = served;
    nix::sys::signal::kill(
        nix::unistd::Pid::from_raw(served.child.id() as i32),
        nix::sys::signal::Signal::SIGINT,
    )
    .expect("signalled");
    let started = std::time::Instant::now();
    loop {
        if served.child.try_wait().expect("its state").is_some() {
            break;
        }
        assert!(started.elapsed() < Duration::from_secs(10), "still running");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// How many games the server's index holds: `find`'s count of the start position.
fn games_served(served: &Served) -> u64 {
    served.json("/api/find?limit=0")["count"]
        .as_u64()
        .expect("a count")
}

#[test]
fn files_are_indexed_first_into_a_given_folder_or_a_temporary_one() {
    let t = Temp::new("serve-files");
    let dir = t.path("index");
    let dir = dir.to_str().expect("UTF-8");
    // Into --index: built, then only the files it does not hold added.
    let served = Served::start_with(&["corpus/pgn/model.pgn", "--index", dir]);
    let first = games_served(&served);
    assert!(first > 0);
    drop(served);
    let served = Served::start_with(&[
        "corpus/pgn/model.pgn",
        "corpus/pgn/generated.pgn",
        "--index",
        dir,
    ]);
    assert!(served.said.contains("indexed"), "{}", served.said);
    let both = games_served(&served);
    assert!(both > first, "{first} then {both}");
    drop(served);
    let served = Served::start_with(&["corpus/pgn/generated.pgn", "--index", dir]);
    assert!(!served.said.contains("indexed"), "{}", served.said);
    assert_eq!(games_served(&served), both);
    drop(served);
    // The index given as the one path is served as it is.
    let served = Served::start_with(&[dir]);
    assert_eq!(games_served(&served), both);
    drop(served);
    // Without --index: a temporary index, gone when a signal stops the server.
    let mut served = Served::start_with(&["corpus/pgn/model.pgn", "corpus/pgn/generated.pgn"]);
    assert_eq!(games_served(&served), both);
    let temporary = served
        .said
        .lines()
        .find_map(|l| l.strip_prefix("notate: serving "))
        .and_then(|l| l.split(" on ").next())
        .map(std::path::PathBuf::from)
        .expect("the index's folder");
    assert!(temporary.join("index.json").is_file());
    nix::sys::signal::kill(
        nix::unistd::Pid::from_raw(served.child.id() as i32),
        nix::sys::signal::Signal::SIGTERM,
    )
    .expect("signalled");
    served.child.wait().expect("ended");
    assert!(!temporary.exists(), "{}", temporary.display());
}

/// The White, Black and Date of each game of a PGN text, in order.
fn players_and_dates(pgn: &str) -> Vec<(String, String, String)> {
    let mut games = Vec::new();
    let mut current: [String; 3] = Default::default();
    for line in pgn.lines() {
        for (i, name) in ["White", "Black", "Date"].into_iter().enumerate() {
            if let Some(value) = line
                .strip_prefix(&format!("[{name} \""))
                .and_then(|v| v.strip_suffix("\"]"))
            {
                current[i] = value.to_owned();
            }
        }
        if line.starts_with("[Event ") && !current[0].is_empty() {
            games.push(std::mem::take(&mut current).into());
        }
    }
    if !current[0].is_empty() {
        games.push(current.into());
    }
    games
}

#[test]
fn the_game_list_answers_as_select_does() {
    let t = Temp::new("serve-list");
    let dir = chess_index(&t);
    let served = Served::start(&dir, "127.0.0.1:0");
    let files = [
        "corpus/pgn/model.pgn",
        "corpus/pgn/generated.pgn",
        "corpus/pgn/lenient.pgn",
    ];
    let questions: [(&str, &[&str]); 6] = [
        ("", &[]),
        ("player=GENERATOR", &["--player", "generator"]),
        ("white=fischer", &["--tag", "White~fischer"]),
        (
            "event=corpus&result=0-1",
            &["--tag", "Event~corpus", "--result", "0-1"],
        ),
        ("minPlies=20&maxPlies=60", &["--plies", "20..60"]),
        ("site=nowhere-at-all", &["--tag", "Site~nowhere-at-all"]),
    ];
    let mut told_apart = 0;
    for (query, args) in questions {
        let listed = served.json(&format!("/api/games?limit=1000&{query}"));
        let games = listed["games"].as_array().expect("games");
        assert_eq!(listed["count"], games.len(), "{query}");
        let from_api: Vec<(String, String, String)> = games
            .iter()
            .map(|g| {
                (
                    g["white"]["name"].as_str().expect("a name").to_owned(),
                    g["black"]["name"].as_str().expect("a name").to_owned(),
                    g["date"].as_str().expect("a date").to_owned(),
                )
            })
            .collect();
        let mut command = vec!["select", "-q"];
        command.extend_from_slice(&files);
        command.extend_from_slice(args);
        let out = run(&command);
        let selected = players_and_dates(&stdout(&out));
        assert_eq!(from_api, selected, "{query}: {}", stderr(&out));
        if !selected.is_empty() && selected.len() < games_served(&served) as usize {
            told_apart += 1;
        }
    }
    assert!(told_apart >= 3, "the questions must tell games apart");
    // Sorted by date, newest first, and paged.
    let all = served.json("/api/games?sort=date&limit=1000");
    let dates: Vec<&str> = all["games"]
        .as_array()
        .expect("games")
        .iter()
        .map(|g| g["date"].as_str().expect("a date"))
        .collect();
    assert!(dates.windows(2).all(|w| w[0] >= w[1]), "{dates:?}");
    let page = served.json("/api/games?sort=date&offset=2&limit=3");
    assert_eq!(
        page["games"].as_array().expect("games")[..],
        all["games"].as_array().expect("games")[2..5]
    );
    // The games of a position: those `find` gives.
    let here = served.json("/api/games?play=e4,e5&limit=1000");
    let found = served.json("/api/find?play=e4,e5&limit=1000");
    let ids = |v: &serde_json::Value| -> Vec<u64> {
        v["games"]
            .as_array()
            .expect("games")
            .iter()
            .map(|g| g["id"].as_u64().expect("an id"))
            .collect()
    };
    assert!(!ids(&found).is_empty());
    assert_eq!(ids(&here), ids(&found));
    for (target, says) in [
        ("/api/games?eco=Z99", "eco"),
        ("/api/games?since=2024-13", "since"),
        ("/api/games?result=win", "result"),
        ("/api/games?sort=elo", "sort"),
        ("/api/games?limit=5000", "at most"),
        ("/api/games?minRating=high", "minRating"),
    ] {
        let (status, body) = served.get(target);
        assert_eq!(status, 400, "{target}: {body}");
        assert!(body.contains(says), "{target}: {body}");
    }
}

#[test]
fn a_game_for_the_viewer_is_the_one_notate_html_writes_and_a_line_gives_its_moves() {
    let t = Temp::new("serve-view");
    let dir = chess_index(&t);
    let served = Served::start(&dir, "127.0.0.1:0");
    // The first game of model.pgn: in the page of `notate html` as game 0.
    let page = notate_ok(&["html", "corpus/pgn/model.pgn"]);
    let start = "<script type=\"application/json\" id=\"g0\">";
    let at = page.find(start).expect("game 0 in the page") + start.len();
    let end = at + page[at..].find("</script>").expect("its end");
    let in_page: serde_json::Value = serde_json::from_str(&page[at..end]).expect("JSON");
    let view = served.json("/api/games/0?format=view");
    assert_eq!(view["view"]["game"], in_page);
    assert_eq!(view["view"]["board"]["fen"], "chess");
    assert_eq!(view["listed"]["id"], 0);
    assert_eq!(view["number"], 1);
    // A line played on the board: its position and the moves from it.
    let board = served.json("/api/board?play=e4,e5");
    assert_eq!(
        board["fen"],
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
    );
    let moves = board["moves"].as_array().expect("moves");
    assert_eq!(moves.len(), 29);
    let knight = moves
        .iter()
        .find(|m| m["san"] == "Nf3")
        .expect("Nf3 is legal");
    // g1 and f3, as the viewer numbers the cells (a8 first).
    assert_eq!(
        (knight["from"].as_u64(), knight["to"].as_u64()),
        (Some(62), Some(45))
    );
    assert_eq!(
        board["view"]["game"]["m"].as_array().expect("moves").len(),
        2
    );
    let (status, body) = served.get("/api/board?play=e4,e4");
    assert_eq!(status, 400, "{body}");
    // The page and its scripts are served from the binary.
    let (status, html) = served.get("/");
    assert_eq!(status, 200);
    assert!(html.contains("/assets/app.js") && html.contains("<style>"));
    for asset in ["viewer.js", "app.js"] {
        let (status, script) = served.get(&format!("/assets/{asset}"));
        assert_eq!(status, 200, "{asset}");
        assert!(script.len() > 1000, "{asset}");
    }
    assert_eq!(served.get("/assets/..%2Findex.json").0, 404);
}
