//! Chess pictures: snapshots of the SVG of a few positions, each read back as XML.

use pgn::svg::{Options, Picture};
use pgn::{Move, Position};

/// Reads the SVG as XML and gives its elements' names, to count them.
fn elements(svg: &str) -> Vec<String> {
    let doc = roxmltree::Document::parse(svg).unwrap_or_else(|e| panic!("{e}\n{svg}"));
    assert_eq!(doc.root_element().tag_name().name(), "svg");
    doc.descendants()
        .filter(|n| n.is_element())
        .map(|n| n.tag_name().name().to_owned())
        .collect()
}

fn count(svg: &str, name: &str) -> usize {
    elements(svg).iter().filter(|e| *e == name).count()
}

/// The position after playing `moves` (SAN) from the start, and the last move.
fn after(moves: &[&str]) -> (Position, Option<Move>) {
    let mut position = Position::new();
    let mut last = None;
    for san in moves {
        let mv = position
            .resolve_san(san.as_bytes())
            .unwrap_or_else(|e| panic!("{san}: {e}"))
            .mv;
        position = position.play(&mv);
        last = Some(mv);
    }
    (position, last)
}

const SCHOLARS_MATE: [&str; 7] = ["e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7#"];
const MARKS: &str = "Mate! [%csl Rf7,Ye8] [%cal Gc4f7,Rh5f7] [%clk 0:01:00]";

#[test]
fn the_start_position_with_coordinates() {
    let svg = Picture::new(&Position::new()).to_svg(&Options {
        coordinates: true,
        ..Options::default()
    });
    // 32 pieces placed, 12 drawings defined once; 8 files and 8 ranks written.
    assert_eq!(count(&svg, "use"), 32);
    assert_eq!(svg.matches("<g id=").count(), 12);
    assert_eq!(count(&svg, "text"), 16);
    insta::assert_snapshot!("chess_start", svg);
}

#[test]
fn a_mate_with_the_last_move_the_check_and_the_comment_s_marks() {
    let (position, last) = after(&SCHOLARS_MATE);
    assert!(position.is_check());
    let mut picture = Picture::new(&position).comments(&[MARKS]);
    if let Some(mv) = &last {
        picture = picture.last_move(mv);
    }
    let svg = picture.to_svg(&Options::default());
    // The glow of the king in check, two arrows, the last move's two squares and the two
    // coloured squares.
    assert_eq!(count(&svg, "radialGradient"), 1);
    assert!(svg.contains(r##"fill="url(#glow-ff0000-100)""##), "{svg}");
    assert_eq!(count(&svg, "polygon"), 2);
    assert_eq!(svg.matches("fill-opacity").count(), 4);
    assert_eq!(count(&svg, "use"), 31);
    insta::assert_snapshot!("chess_scholars_mate", svg);
}

#[test]
fn flipped_black_is_at_the_bottom() {
    let (position, last) = after(&SCHOLARS_MATE);
    let mut picture = Picture::new(&position).comments(&[MARKS]);
    if let Some(mv) = &last {
        picture = picture.last_move(mv);
    }
    let options = Options {
        flip: true,
        coordinates: true,
        size: 320,
    };
    let svg = picture.to_svg(&options);
    elements(&svg);
    // h8's rook is drawn in the bottom-left cell (inside the margin of 40 units).
    assert!(
        svg.contains(r##"<use href="#black-rook" x="40" y="740"/>"##),
        "{svg}"
    );
    assert!(svg.contains(r#"width="320" height="320""#));
    insta::assert_snapshot!("chess_scholars_mate_flipped", svg);
}

#[test]
fn castling_highlights_the_king_s_squares() {
    let (position, last) = after(&["e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5", "O-O"]);
    let mv = last.expect("a move");
    let svg = Picture::new(&position)
        .last_move(&mv)
        .to_svg(&Options::default());
    elements(&svg);
    // e1 and g1: x 400 and 600, bottom row.
    assert!(svg.contains(r##"<rect x="400" y="700" width="100" height="100" fill="#9bc700""##));
    assert!(svg.contains(r##"<rect x="600" y="700" width="100" height="100" fill="#9bc700""##));
    // A null move marks nothing.
    let plain = Picture::new(&position).to_svg(&Options::default());
    assert_eq!(
        Picture::new(&position)
            .last_move(&Move::Null)
            .to_svg(&Options::default()),
        plain
    );
}

#[test]
fn comments_without_marks_change_nothing() {
    let position = Position::new();
    let plain = Picture::new(&position).to_svg(&Options::default());
    let with = Picture::new(&position)
        .comments(&["[%clk 1:00:00] just text", "[%csl] [%cal x]"])
        .to_svg(&Options::default());
    assert_eq!(plain, with);
}

#[test]
fn the_same_picture_gives_the_same_bytes() {
    let (position, last) = after(&SCHOLARS_MATE);
    let make = || {
        let mut p = Picture::new(&position).comments(&[MARKS]);
        if let Some(mv) = &last {
            p = p.last_move(mv);
        }
        p
    };
    let options = Options::default();
    let first = make().to_svg(&options);
    assert_eq!(first, make().to_svg(&options));
    let mut written = String::new();
    make()
        .write_to(&options, &mut written)
        .expect("a String takes any text");
    assert_eq!(first, written);
}
