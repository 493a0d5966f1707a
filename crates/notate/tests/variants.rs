//! The lichess chess variants through the `notate` binary: `corpus/pgn/variants.pgn` (two
//! games of each of the seven variants, with drops, variations and set-ups) read, written,
//! described, counted and picked; `perft`, `show` and `svg` of the variants.

mod common;

use std::collections::BTreeMap;

use serde_json::Value;

use common::{Temp, code, run, stderr, stdout};

const FILE: &str = "corpus/pgn/variants.pgn";

/// The seven variants, as `json` and `stats` name them.
const VARIANTS: [&str; 7] = [
    "Crazyhouse",
    "Atomic",
    "Antichess",
    "King of the Hill",
    "Three-check",
    "Horde",
    "Racing Kings",
];

/// A run that must succeed: its standard output.
fn ok(args: &[&str]) -> String {
    let o = run(args);
    assert_eq!(code(&o), 0, "{args:?}: {}", stderr(&o));
    stdout(&o)
}

/// `check`'s summary line.
fn summary(args: &[&str]) -> String {
    ok(args).lines().last().expect("a summary line").to_owned()
}

/// `json`'s objects, one per game.
fn json(file: &str) -> Vec<Value> {
    ok(&["json", "-q", file])
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect()
}

/// A position read from a FEN by the rules of a ruleset.
fn position(ruleset: pgn::Ruleset, fen: &str) -> pgn::Position {
    let setup = pgn::fen::Setup::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    pgn::Position::from_setup_auto_in(ruleset, &setup).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// The value of each game's `tag` in a PGN text, in order.
fn values(text: &str, tag: &str) -> Vec<String> {
    let prefix = format!("[{tag} \"");
    text.lines()
        .filter_map(|l| l.strip_prefix(&prefix))
        .map(|v| v.trim_end_matches("\"]").to_owned())
        .collect()
}

#[test]
fn check_reads_every_game_without_a_diagnostic() {
    for jobs in ["1", "3"] {
        let line = summary(&["check", "--jobs", jobs, FILE]);
        assert!(
            line.starts_with("files=1 games=14 moves=2089 errors=0 warnings=0 "),
            "{line}"
        );
    }
    // Its moves are those of the main lines and the variations, as stats counts them.
    let stats = ok(&["stats", FILE]);
    let plies = stats
        .lines()
        .find_map(|l| l.strip_prefix("plies: "))
        .expect("a plies line");
    let number = |text: &str| -> u64 {
        let digits: String = text.chars().take_while(char::is_ascii_digit).collect();
        digits.parse().expect("a number")
    };
    let (main, rest) = plies.split_once(" in main lines").expect("main lines");
    let (_, variations) = rest.rsplit_once(", ").expect("variations");
    assert_eq!((number(main), number(variations)), (925, 1164), "{plies}");
    assert_eq!(number(main) + number(variations), 2089);
}

#[test]
fn fmt_writes_the_file_as_it_is_and_its_output_reads_back() {
    let t = Temp::new("variants-fmt");
    let once = ok(&["fmt", FILE]);
    // The corpus file is in the export format already: written back byte for byte.
    let original = std::fs::read_to_string(common::root().join(FILE)).expect("the corpus");
    assert_eq!(once, original);
    let path = t.file("once.pgn", once.as_bytes());
    let line = summary(&["check", &path]);
    assert!(
        line.starts_with("files=1 games=14 moves=2089 errors=0 warnings=0 "),
        "{line}"
    );
    assert_eq!(
        ok(&["fmt", &path]),
        once,
        "fmt of fmt's output is fmt's output"
    );
    // Reduced: no variations, the same main lines and final positions.
    let reduced = t.file("reduced.pgn", ok(&["fmt", "--reduced", FILE]).as_bytes());
    let line = summary(&["check", &reduced]);
    assert!(
        line.starts_with("files=1 games=14 moves=925 errors=0 "),
        "{line}"
    );
    let final_fens =
        |games: &[Value]| -> Vec<Value> { games.iter().map(|g| g["final_fen"].clone()).collect() };
    assert_eq!(final_fens(&json(&reduced)), final_fens(&json(FILE)));
}

#[test]
fn json_names_the_ruleset_and_its_final_fen_is_the_main_line_played() {
    let games = json(FILE);
    assert_eq!(games.len(), 14);
    let mut per_variant: BTreeMap<String, usize> = BTreeMap::new();
    let mut drops = 0;
    for game in &games {
        let at = format!("game {}", game["game"]);
        let name = game["variant"].as_str().expect("a variant");
        *per_variant.entry(name.to_owned()).or_default() += 1;
        let ruleset = pgn::Ruleset::from_name(name).expect("a ruleset's name");
        assert_eq!(ruleset.name(), name, "{at}");
        let start_fen = game["start_fen"].as_str().expect("a start FEN");
        let mut pos = position(ruleset, start_fen);
        assert_eq!(pos.ruleset(), ruleset, "{at}");
        if game["tags"]
            .as_array()
            .expect("tags")
            .iter()
            .all(|t| t[0] != "FEN")
        {
            assert!(pos == pgn::Position::start(ruleset), "{at}: {start_fen}");
        }
        for (ply, mv) in game["mainline"]
            .as_array()
            .expect("a main line")
            .iter()
            .enumerate()
        {
            let uci: pgn::uci::Uci = mv["uci"].as_str().expect("UCI").parse().expect("UCI reads");
            let played = uci
                .to_move(&pos)
                .unwrap_or_else(|e| panic!("{at} ply {ply}: {uci}: {e}"));
            assert_eq!(mv["san"], pos.san(&played).to_string(), "{at} ply {ply}");
            drops += usize::from(matches!(played, pgn::Move::Put { .. }));
            pos = pos.play(&played);
        }
        let final_fen = game["final_fen"].as_str().expect("a final FEN");
        assert_eq!(pos.to_fen(), final_fen, "{at}");
        assert!(position(ruleset, final_fen) == pos, "{at}: {final_fen}");
        assert_eq!(game["diagnostics"], Value::Array(Vec::new()), "{at}");
    }
    let expected: BTreeMap<String, usize> = VARIANTS.iter().map(|v| (v.to_string(), 2)).collect();
    assert_eq!(per_variant, expected);
    assert!(drops > 0, "the crazyhouse main lines drop pieces");
}

#[test]
fn stats_counts_the_variants() {
    let stats = ok(&["stats", FILE]);
    let section: Vec<&str> = stats
        .lines()
        .skip_while(|l| *l != "variants:")
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .collect();
    let mut expected: Vec<&str> = VARIANTS.to_vec();
    expected.sort_unstable();
    assert_eq!(section.len(), expected.len(), "{stats}");
    for (line, name) in section.iter().zip(expected) {
        let (variant, count) = line
            .trim()
            .rsplit_once(char::is_whitespace)
            .expect("a count");
        assert_eq!(count, "14.3%", "{line}");
        let variant = variant.trim_end();
        let (variant, games) = variant.rsplit_once(char::is_whitespace).expect("games");
        assert_eq!((variant.trim_end(), games), (name, "2"), "{line}");
    }
}

#[test]
fn select_picks_games_by_their_variant_tag() {
    let t = Temp::new("variants-select");
    for name in VARIANTS {
        let o = run(&["select", FILE, "--tag", &format!("Variant={name}")]);
        assert_eq!(code(&o), 0, "{name}: {}", stderr(&o));
        assert!(
            stderr(&o).contains("2 of 14 games selected"),
            "{}",
            stderr(&o)
        );
        let picked = stdout(&o);
        assert_eq!(values(&picked, "Variant"), [name, name], "{name}");
        // What it writes reads back, as the same games.
        let file = t.file("picked.pgn", picked.as_bytes());
        assert!(summary(&["check", &file]).contains(" games=2 "), "{name}");
        let variants: Vec<Value> = json(&file).iter().map(|g| g["variant"].clone()).collect();
        assert_eq!(variants, [name, name], "{name}");
        // The others: every game, each once.
        let o = run(&[
            "select",
            FILE,
            "--invert",
            "--tag",
            &format!("Variant={name}"),
        ]);
        let others = values(&stdout(&o), "Variant");
        assert_eq!(others.len(), 12, "{name}");
        assert!(others.iter().all(|v| v != name), "{name}: {others:?}");
    }
    // Contains, case aside: King of the Hill and Racing Kings.
    let picked = ok(&["select", "-q", FILE, "--tag", "Variant~KING"]);
    assert_eq!(
        values(&picked, "Variant"),
        [
            "King of the Hill",
            "King of the Hill",
            "Racing Kings",
            "Racing Kings"
        ]
    );
}

#[test]
fn select_checkmate_and_stalemate_go_by_the_variant_s_rules() {
    // Game 4 (atomic) and game 8 (king of the hill) end in checkmate; game 9 in a third
    // check and game 6 in an antichess win by losing every piece: the side to move has no
    // legal move in either, but neither is checkmate or stalemate.
    let mates = ok(&["select", "-q", FILE, "--checkmate"]);
    assert_eq!(
        values(&mates, "Event"),
        [
            "Notation corpus: Atomic game 4",
            "Notation corpus: King of the Hill game 8"
        ]
    );
    assert_eq!(ok(&["select", "-q", FILE, "--stalemate"]), "");
}

#[test]
fn perft_of_the_variants() {
    // lichess's published counts.
    for (variant, depth, count) in [
        ("atomic", "3", "8902"),
        ("horde", "4", "23310"),
        ("racing-kings", "3", "11264"),
        ("giveaway", "3", "8067"),
    ] {
        for jobs in ["1", "4"] {
            assert_eq!(
                ok(&["perft", "--variant", variant, depth, "--jobs", jobs]).trim(),
                count,
                "{variant} {depth}"
            );
        }
    }
    // A FEN read by the variant's rules, its fields unquoted; --divide names the drops.
    let out = ok(&[
        "perft",
        "--variant",
        "crazyhouse",
        "2k5/8/8/8/8/8/8/4K3[Qn]",
        "w",
        "-",
        "-",
        "2",
        "--divide",
        "-j",
        "2",
    ]);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.last(), Some(&"3083"), "{out}");
    let moves: Vec<(&str, u64)> = lines
        .iter()
        .filter_map(|l| l.split_once(": "))
        .map(|(m, n)| (m, n.parse().expect("a count")))
        .collect();
    assert_eq!(moves.len(), 67, "{out}");
    assert_eq!(moves.iter().map(|(_, n)| n).sum::<u64>(), 3083);
    assert!(moves.iter().any(|(m, _)| *m == "Q@d8"), "{out}");
    let o = run(&[
        "perft",
        "--variant",
        "threecheck",
        "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 1+1",
        "3",
    ]);
    assert_eq!(stdout(&o).trim(), "13410", "{}", stderr(&o));
    // An unknown name: a usage error that lists the variants.
    let o = run(&["perft", "--variant", "shogi", "3"]);
    assert_eq!(code(&o), 2);
    assert!(
        stderr(&o).contains("crazyhouse, atomic, antichess"),
        "{}",
        stderr(&o)
    );
    // A horde FEN is no chess position.
    let horde = pgn::Ruleset::Horde.start_fen();
    assert_eq!(code(&run(&["perft", horde, "1"])), 2);
    assert_eq!(ok(&["perft", "--variant", "horde", horde, "1"]).trim(), "8");
}

/// `show` of every game's final position: the variant, crazyhouse's pieces in hand and
/// three-check's checks under the board.
#[test]
fn show_names_the_variant_and_what_its_fen_holds_beyond_the_board() {
    let games = json(FILE);
    let mut shown = String::new();
    for game in &games {
        let number = game["game"].to_string();
        let out = ok(&["show", FILE, "--game", &number]);
        let final_fen = game["final_fen"].as_str().expect("a final FEN");
        assert!(out.contains(&format!("\nFEN: {final_fen}\n")), "{out}");
        let variant = game["variant"].as_str().expect("a variant");
        assert!(out.contains(&format!("\nVariant: {variant}\n")), "{out}");
        // The pocket of the FEN, upper case White's, lower case Black's.
        let in_hand = out.lines().find_map(|l| l.strip_prefix("In hand: "));
        match final_fen.split_once('[') {
            Some((_, rest)) => {
                let pocket = rest.split(']').next().unwrap_or_default();
                let side = |upper: bool| -> String {
                    let s: String = pocket
                        .chars()
                        .filter(|c| c.is_ascii_uppercase() == upper)
                        .collect();
                    if s.is_empty() { "-".to_owned() } else { s }
                };
                assert_eq!(
                    in_hand,
                    Some(format!("White {}, Black {}", side(true), side(false)).as_str()),
                    "{out}"
                );
            }
            None => assert_eq!(in_hand, None, "{out}"),
        }
        // The checks given, as the FEN's +W+B counts them.
        let checks = out.lines().find_map(|l| l.strip_prefix("Checks given: "));
        match final_fen.rsplit_once(" +") {
            Some((_, counts)) => {
                let (white, black) = counts.split_once('+').expect("+W+B");
                assert_eq!(
                    checks,
                    Some(format!("White {white}, Black {black}").as_str()),
                    "{out}"
                );
            }
            None => assert_eq!(checks, None, "{out}"),
        }
        shown.push_str(&out);
        shown.push('\n');
    }
    insta::assert_snapshot!(shown);
}

#[test]
fn show_and_svg_of_a_fen_take_a_variant() {
    let horde = pgn::Ruleset::Horde.start_fen();
    let o = run(&["show", horde]);
    assert_eq!(code(&o), 2, "no white king: not a chess position");
    let out = ok(&["show", "--variant", "horde", horde]);
    assert!(out.contains("Variant: Horde\nFEN: "), "{out}");
    let out = ok(&[
        "show",
        "--variant",
        "Crazyhouse",
        "2k5/8/8/8/8/8/8/4K3[Qn] w - -",
    ]);
    assert!(out.contains("\nIn hand: White Q, Black n\n"), "{out}");
    // A pocket makes a crazyhouse FEN, with or without --variant.
    assert_eq!(ok(&["show", "2k5/8/8/8/8/8/8/4K3[Qn] w - -"]), out);
    // The picture: 36 white pawns and Black's 16 pieces.
    let svg = ok(&["svg", "--variant", "horde", horde]);
    let doc = roxmltree::Document::parse(&svg).expect("SVG is XML");
    let pieces = doc.descendants().filter(|n| n.has_tag_name("use")).count();
    assert_eq!(pieces, 52);
    let o = run(&["svg", "--variant", "shogi", horde]);
    assert_eq!(code(&o), 2);
}

#[test]
fn dedupe_tells_the_variants_apart() {
    let t = Temp::new("variants-dedupe");
    // The same moves in standard chess and four variants whose start FEN is standard
    // chess's (crazyhouse's has its pockets, antichess's no castling rights); and the
    // three-check game once more, from a position whose counters alone differ.
    let game = |event: &str, tags: &str| {
        format!("[Event \"{event}\"]\n{tags}[Result \"*\"]\n\n1. e4 e5 2. Nf3 Nc6 *\n\n")
    };
    let three_check_fen = |counters: &str| {
        format!(
            "[Variant \"Three-check\"]\n[SetUp \"1\"]\n[FEN \"rnbqkbnr/pppppppp/8/8/8/8/\
             PPPPPPPP/RNBQKBNR w KQkq - 0 1 {counters}\"]\n"
        )
    };
    let mut text = game("standard", "");
    for variant in ["Atomic", "King of the Hill", "Three-check", "Crazyhouse"] {
        text.push_str(&game(variant, &format!("[Variant \"{variant}\"]\n")));
    }
    text.push_str(&game("three-check +0+0", &three_check_fen("+0+0")));
    text.push_str(&game("three-check +1+0", &three_check_fen("+1+0")));
    text.push_str(&game("atomic again", "[Variant \"atomic\"]\n"));
    let file = t.file("same-moves.pgn", text.as_bytes());
    for by in ["moves", "position"] {
        let o = run(&["dedupe", &file, "--by", by]);
        assert_eq!(code(&o), 0, "{}", stderr(&o));
        assert_eq!(
            values(&stdout(&o), "Event"),
            [
                "standard",
                "Atomic",
                "King of the Hill",
                "Three-check",
                "Crazyhouse",
                "three-check +1+0"
            ],
            "--by {by}"
        );
    }
}
