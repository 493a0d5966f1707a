//! `notate html`: the page's structure. Every game of the corpus is in it, in input order,
//! as JSON that parses; its main line decoded as the page's script decodes it gives the
//! FENs `notate show` gives at every ply; game text cannot end its `<script>` element; a
//! game with an error is listed with its moves up to the error; 10,000 games make a page
//! of bounded size. (The script itself runs in `tests/browser/test_html.py`.)

mod common;

use collection::html::{Board, Layout, fen_of, predict};
use collection::mainline;
use collection::rules::{self, FormatRules};
use common::{Temp, code, root, run, stderr};
use notation::{GameReader, ReadOptions};
use serde_json::Value;

/// The page `notate html ARGS -o page.html` writes, with the run's exit code.
fn page(temp: &Temp, args: &[&str]) -> (String, i32) {
    let out = temp.path("page.html");
    let out = out.to_str().expect("UTF-8 path");
    let mut all = vec!["html"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["-o", out, "--quiet"]);
    let o = run(&all);
    assert!(code(&o) <= 1, "{args:?}: {}", stderr(&o));
    (std::fs::read_to_string(out).expect("the page"), code(&o))
}

/// The JSON elements of a page by id, in order.
fn elements(html: &str) -> Vec<(String, Value)> {
    let open = "<script type=\"application/json\" id=\"";
    let mut found = Vec::new();
    let mut rest = html;
    while let Some(at) = rest.find(open) {
        rest = &rest[at + open.len()..];
        let (id, after) = rest.split_once("\">").expect("an id");
        let (text, after) = after.split_once("</script>").expect("the element's end");
        let value = serde_json::from_str(text).unwrap_or_else(|e| panic!("{id}: {e}: {text}"));
        found.push((id.to_owned(), value));
        rest = after;
    }
    found
}

fn by_id<'a>(elements: &'a [(String, Value)], id: &str) -> &'a Value {
    &elements.iter().find(|(i, _)| i == id).expect(id).1
}

/// A board of the page as `collection::html` holds it.
fn layout(board: &Value) -> (Board, Layout) {
    let chess = board["fen"] == "chess";
    let kind = if chess {
        Board::Chess
    } else {
        Board::Draughts(pdn::GameType::new(pdn::Variant::International))
    };
    let layout = Layout {
        columns: board["columns"].as_u64().expect("columns") as u8,
        rows: board["rows"].as_u64().expect("rows") as u8,
        cells: board["cells"]
            .as_array()
            .expect("cells")
            .iter()
            .map(|c| {
                (
                    c[0].as_u64().expect("x") as u8,
                    c[1].as_u64().expect("y") as u8,
                    c[2].as_str().expect("name").to_owned(),
                )
            })
            .collect(),
        order: board["order"]
            .as_array()
            .expect("order")
            .iter()
            .map(|o| o.as_u64().expect("index") as usize)
            .collect(),
        dark: Vec::new(),
        turns: if chess { ["w", "b"] } else { ["W", "B"] },
        name: String::new(),
    };
    (kind, layout)
}

/// The FENs of a game's main line, from the start, decoded as the script decodes them.
fn decode_main_line(game: &Value, boards: &Value) -> Vec<String> {
    let Some(b) = game["b"].as_i64().filter(|&b| b >= 0) else {
        return Vec::new();
    };
    let (board, layout) = layout(&boards[b as usize]);
    let names = boards[b as usize]["names"].as_str().expect("names");
    let mut cells: Vec<u8> = game["s"].as_str().expect("cells").bytes().collect();
    let mut fields: Vec<String> = game["f"]
        .as_array()
        .expect("fields")
        .iter()
        .map(|f| f.as_str().expect("a field").to_owned())
        .collect();
    let fen = |cells: &[u8], fields: &[String]| {
        let refs: Vec<&str> = fields.iter().map(String::as_str).collect();
        fen_of(
            &board,
            &layout,
            std::str::from_utf8(cells).expect("ASCII"),
            &refs,
        )
    };
    let mut fens = vec![
        game["F"]
            .as_str()
            .map_or_else(|| fen(&cells, &fields), str::to_owned),
    ];
    for node in game["m"].as_array().expect("the main line") {
        let diff = node[1].as_str().expect("changes");
        let (moved, rest) = diff.split_once(' ').unwrap_or((diff, ""));
        for pair in moved.as_bytes().chunks(2) {
            let cell = names
                .bytes()
                .position(|n| n == pair[0])
                .expect("a cell name");
            cells[cell] = pair[1];
        }
        let refs: Vec<&str> = fields.iter().map(String::as_str).collect();
        fields = predict(&board, &layout, &refs);
        for part in rest.split(' ').filter(|p| !p.is_empty()) {
            let i = usize::from(part.as_bytes()[0] - b'0');
            fields[i] = part[1..].to_owned();
        }
        fens.push(match node.get(5).and_then(Value::as_str) {
            Some(whole) => whole.to_owned(),
            None => fen(&cells, &fields),
        });
    }
    fens
}

/// The FENs of each game's main line as `notate show --game G --ply N` gives them: the
/// start position of its tags, each move played, set-ups in the movetext too.
fn shown_main_lines<G: FormatRules>(rules: &G, text: &[u8]) -> Vec<Vec<String>> {
    GameReader::new(rules, text, ReadOptions::default())
        .map(|game| {
            let game = game.expect("read").game;
            let Ok(start) = rules.start_position(&game.tags) else {
                return Vec::new();
            };
            let mut fens = Vec::new();
            mainline::walk(rules, start.position, &game, |position, _| {
                fens.push(rules.fen(position).expect("a FEN"));
                true
            });
            fens
        })
        .collect()
}

#[test]
fn every_game_of_the_corpus_with_shows_fens() {
    let temp = Temp::new("html-corpus");
    let mut games = 0;
    for (folder, pdn) in [("pgn", false), ("pdn", true)] {
        let mut files: Vec<_> = std::fs::read_dir(root().join("corpus").join(folder))
            .expect("the corpus")
            .map(|e| e.expect("an entry").path())
            .collect();
        files.sort();
        for path in files {
            let name = path.to_str().expect("UTF-8 path");
            let (html, _) = page(&temp, &[name]);
            let elements = elements(&html);
            let text = std::fs::read(&path).expect("a corpus file");
            let expected = if pdn {
                shown_main_lines(&rules::draughts(None), &text)
            } else {
                shown_main_lines(&rules::chess(), &text)
            };
            let list = by_id(&elements, "games").as_array().expect("the list");
            assert_eq!(list.len(), expected.len(), "{name}");
            let boards = by_id(&elements, "boards");
            for (i, fens) in expected.iter().enumerate() {
                let row = &list[i];
                assert_eq!(row[1], i as u64 + 1, "{name}: numbered in input order");
                let game = by_id(&elements, &format!("g{i}"));
                assert_eq!(
                    &decode_main_line(game, boards),
                    fens,
                    "{name} game {}",
                    i + 1
                );
                games += 1;
            }
        }
    }
    assert!(games > 60, "{games}");
}

#[test]
fn game_text_cannot_end_its_script_and_errors_are_listed() {
    let temp = Temp::new("html-escape");
    let pgn = temp.file(
        "a.pgn",
        b"[Event \"</script><script>alert(1)</script>\"]\n[White \"A & B <!--\"]\n\n\
          1. e4 {</script> \"quoted\" \\ back} e5 (1... c5 {</SCRIPT>}) 2. Nf3 *\n\n\
          [Event \"broken\"]\n\n1. e4 e5 2. Qxx9 Nf6 *\n",
    );
    let (html, exit) = page(&temp, &[&pgn]);
    assert_eq!(exit, 1, "a game has an error");
    // Two games, the list, the inputs, the boards, the script: nothing else ends one.
    assert_eq!(html.matches("</script>").count(), 6, "{html}");
    assert!(!html.to_ascii_lowercase().contains("</script><script>alert"));
    assert!(!html.contains("<!--\""));
    let elements = elements(&html);
    let list = by_id(&elements, "games");
    assert_eq!(list[0][3], "A & B <!--");
    assert_eq!(list[0][5], "</script><script>alert(1)</script>");
    let first = by_id(&elements, "g0");
    assert_eq!(first["m"][0][3][0], "</script> \"quoted\" \\ back");
    assert_eq!(first["m"][1][6][0][0], "c5");
    assert_eq!(first["m"][1][6][0][3][0], "</SCRIPT>");
    // The broken game: listed, its moves up to the error, what was not read, why.
    let broken = by_id(&elements, "g1");
    assert_eq!(list[1][11], 1, "one error");
    assert_eq!(broken["m"].as_array().expect("moves").len(), 2);
    assert_eq!(broken["u"], "2. Qxx9 Nf6");
    assert_eq!(broken["d"][0][2], "error");
}

#[test]
fn ten_thousand_games_make_a_page_of_bounded_size() {
    let temp = Temp::new("html-10k");
    // The corpus's chess games that read without error, over and over.
    let mut games = Vec::new();
    for name in ["generated.pgn", "model.pgn", "annotated.pgn"] {
        let text = std::fs::read_to_string(root().join("corpus/pgn").join(name)).expect("read");
        for game in text.split("\n[Event ").filter(|g| !g.trim().is_empty()) {
            let game = game.trim_start_matches("[Event ");
            games.push(format!("[Event {}\n\n", game.trim_end()));
        }
    }
    let mut text = String::new();
    for i in 0..10_000 {
        text.push_str(&games[i % games.len()]);
    }
    let pgn = temp.file("many.pgn", text.as_bytes());
    let (html, exit) = page(&temp, &[&pgn]);
    assert_eq!(exit, 0);
    let elements = elements(&html);
    let list = by_id(&elements, "games").as_array().expect("the list");
    assert_eq!(list.len(), 10_000);
    let plies: u64 = elements
        .iter()
        .filter(|(id, _)| id.starts_with('g') && id != "games")
        .map(|(_, game)| count_moves(&game["m"]))
        .sum();
    let bytes = html.len() as u64;
    println!(
        "10,000 games: {bytes} bytes, {plies} moves (variations included), {} bytes a move, \
         {} bytes of PGN",
        bytes / plies,
        text.len()
    );
    assert!(bytes / plies <= 30, "{bytes} bytes for {plies} moves");
}

/// The moves of a line and of its variations, with an explicit stack.
fn count_moves(line: &Value) -> u64 {
    let mut count = 0;
    let mut stack = vec![line];
    while let Some(line) = stack.pop() {
        for node in line.as_array().into_iter().flatten() {
            count += 1;
            stack.extend(node.as_array().into_iter().flatten().skip(6));
        }
    }
    count
}
