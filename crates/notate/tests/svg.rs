//! `notate svg`: pictures of a FEN or of a game of a file at a ply, read back as XML.

mod common;

use common::{Temp, code, run, stderr, stdout};

/// Two chess games; the second mates, with marks in the comment after the mate.
const CHESS: &str = "[Event \"one\"]\n[Result \"*\"]\n\n1. d4 d5 *\n\n\
[Event \"two\"]\n[Result \"1-0\"]\n\n1. e4 {[%cal Ge2e4]} e5 2. Bc4 Nc6 3. Qh5 Nf6 \
4. Qxf7# {[%csl Rf7] [%cal Gc4f7,Rh5f7]} 1-0\n\n";

/// An international draughts game whose last move takes two pieces.
const DRAUGHTS: &str = "[GameType \"20\"]\n[FEN \"W:W33,K46:B28,18,K5,12\"]\n[Result \"*\"]\n\n\
1. 33x13 *\n\n";

/// The picture of a run that succeeded, parsed: element names in document order.
fn picture(args: &[&str]) -> Vec<String> {
    let o = run(args);
    assert_eq!(code(&o), 0, "{args:?}: {}", stderr(&o));
    elements(&stdout(&o))
}

fn elements(svg: &str) -> Vec<String> {
    let doc = roxmltree::Document::parse(svg).unwrap_or_else(|e| panic!("{e}\n{svg}"));
    assert_eq!(doc.root_element().tag_name().name(), "svg");
    doc.descendants()
        .filter(|n| n.is_element())
        .map(|n| n.tag_name().name().to_owned())
        .collect()
}

fn count(elements: &[String], name: &str) -> usize {
    elements.iter().filter(|e| *e == name).count()
}

#[test]
fn a_chess_fen() {
    let e = picture(&[
        "svg",
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
    ]);
    assert_eq!(count(&e, "use"), 32);
    assert_eq!(count(&e, "text"), 0);
    // Its fields unquoted, with coordinates.
    let e = picture(&[
        "svg",
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR",
        "b",
        "KQkq",
        "-",
        "--coordinates",
    ]);
    assert_eq!(count(&e, "text"), 16);
}

#[test]
fn a_draughts_fen_on_each_board() {
    // International unless --variant says otherwise.
    let e = picture(&["svg", "W:W31-50:B1-20", "--numbers"]);
    assert_eq!((count(&e, "use"), count(&e, "text")), (40, 50));
    for (variant, fen, pieces, squares) in [
        ("english", "B:W21-32:B1-12", 24, 32),
        ("canadian", "W:W43-72:B1-30", 60, 72),
        ("spantsiretti", "W:W25-40:B1-16", 32, 40),
        ("turkish", "W:Wa2,b2,c2:Ba7,b7", 5, 64),
    ] {
        let e = picture(&["svg", "--variant", variant, fen, "--numbers"]);
        assert_eq!(count(&e, "use"), pieces, "{variant}");
        assert_eq!(count(&e, "text"), squares, "{variant}");
    }
}

#[test]
fn a_game_of_a_file_at_a_ply() {
    let t = Temp::new("svg-game");
    let file = t.file("games.pgn", CHESS.as_bytes());
    // The end of game 2: the last move's squares and the comment's square, its two
    // arrows, the king in check.
    let o = run(&["svg", &file, "--game", "2"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let svg = stdout(&o);
    let e = elements(&svg);
    assert_eq!(count(&e, "polygon"), 2);
    assert_eq!(count(&e, "radialGradient"), 1);
    assert_eq!(svg.matches("fill-opacity").count(), 3, "{svg}");
    // After the first ply: its move and the arrow of its comment, no check.
    let e = picture(&["svg", &file, "--game", "2", "--ply", "1"]);
    assert_eq!(count(&e, "polygon"), 1);
    assert_eq!(count(&e, "radialGradient"), 0);
    // The start: nothing marked.
    let e = picture(&["svg", &file, "--game", "2", "--ply", "0"]);
    assert_eq!((count(&e, "polygon"), count(&e, "use")), (0, 32));
    // To a file, flipped and sized.
    let out = t.path("board.svg");
    let out = out.to_str().expect("a UTF-8 path");
    let o = run(&[
        "svg", &file, "--game", "2", "--flip", "--size", "240", "-o", out,
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(stdout(&o), "");
    let written = std::fs::read_to_string(out).expect("the picture");
    elements(&written);
    assert!(written.contains(r#"width="240" height="240""#));
    assert_ne!(written, svg);
}

#[test]
fn a_draughts_capture_of_a_file() {
    let t = Temp::new("svg-draughts");
    let file = t.file("game.pdn", DRAUGHTS.as_bytes());
    let o = run(&["svg", &file]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let svg = stdout(&o);
    let e = elements(&svg);
    // The capture's path, crosses on the two pieces taken; two kings and two men left.
    assert_eq!(count(&e, "polyline"), 1);
    assert_eq!(svg.matches("stroke-linecap=\"round\"").count(), 2, "{svg}");
    assert_eq!(count(&e, "use"), 4);
}

#[test]
fn the_same_input_gives_the_same_picture() {
    let t = Temp::new("svg-same");
    let file = t.file("games.pgn", CHESS.as_bytes());
    let args = ["svg", &file, "--game", "2", "--coordinates"];
    assert_eq!(stdout(&run(&args)), stdout(&run(&args)));
}

#[test]
fn errors_say_what_is_wrong_and_exit_2() {
    let t = Temp::new("svg-errors");
    let file = t.file("games.pgn", CHESS.as_bytes());
    let cases: [(&[&str], &str); 5] = [
        (&["svg", "rnbqkbnr/pppppppp/8/8"], "rnbqkbnr/pppppppp/8/8"),
        (&["svg", "W:W31-50:B1-99"], "W:W31-50:B1-99"),
        (
            &["svg", &file, "--game", "5"],
            "there are only 2 games; no game 5",
        ),
        (
            &["svg", &file, "--game", "2", "--ply", "9"],
            "game 2 has 7 plies in its main line; no ply 9",
        ),
        (
            &["svg", "--variant", "go", "W:W31:B1"],
            "unknown variant \"go\"",
        ),
    ];
    for (args, message) in cases {
        let o = run(args);
        assert_eq!(code(&o), 2, "{args:?}");
        assert!(stderr(&o).contains(message), "{args:?}: {}", stderr(&o));
        assert_eq!(stdout(&o), "", "{args:?}");
    }
    // A size too small to see.
    assert_eq!(code(&run(&["svg", "W:W31:B1", "--size", "3"])), 2);
}

/// The pictures of the README are what `notate svg` draws (regenerate them with the
/// commands below when the drawing changes).
#[test]
fn the_readme_s_pictures_are_what_notate_draws() {
    let t = Temp::new("svg-docs");
    let mate = t.file(
        "scholars-mate.pgn",
        b"[Event \"Scholar's mate\"]\n[Result \"1-0\"]\n\n\
          1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# {[%csl Rf7] [%cal Gc4f7,Gh5f7]} 1-0\n",
    );
    let capture = t.file(
        "capture.pdn",
        b"[GameType \"20\"]\n\
          [FEN \"W:W27,32,33,34,37,38,39,40,43,44,45,K46,48:B3,7,8,9,12,13,14,16,17,18,21,24,28,K5\"]\n\
          [Result \"*\"]\n\n1. 33x2 *\n",
    );
    let turkish = "W:Wa2,b2,c2,d3,e2,f2,g2,h3,Kc5,a3,b3,f3:Ba7,b6,c7,d6,e7,f6,g7,h7,a6,Kh4";
    let cases: [(&str, Vec<&str>); 3] = [
        ("chess-board", vec![&mate, "--coordinates"]),
        ("draughts-10x10", vec![&capture, "--numbers"]),
        (
            "draughts-turkish",
            vec!["--variant", "turkish", turkish, "--coordinates"],
        ),
    ];
    for (name, args) in cases {
        let o = run(&[&["svg"], &args[..]].concat());
        assert_eq!(code(&o), 0, "{name}: {}", stderr(&o));
        let committed = std::fs::read_to_string(common::root().join(format!("docs/{name}.svg")))
            .expect("the README's picture");
        assert_eq!(stdout(&o), committed, "docs/{name}.svg");
    }
}
