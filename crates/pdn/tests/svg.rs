//! Draughts pictures: snapshots of the SVG of the start position of every board the crate
//! knows and of a capture, each read back as XML.

use pdn::svg::{Options, Picture};
use pdn::{GameType, Position, Variant};

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

/// The start position of a variant, with square numbers and coordinates.
fn start(variant: Variant) -> String {
    let position = Position::start(GameType::new(variant));
    let svg = Picture::new(&position).to_svg(&Options {
        numbers: true,
        coordinates: true,
        ..Options::default()
    });
    let geometry = position.geometry();
    // A piece on each occupied square, a name on each playing square, and the margin's
    // letters and numbers.
    assert_eq!(count(&svg, "use"), position.pieces().len(), "{variant}");
    let texts = geometry.len() + usize::from(geometry.width()) + usize::from(geometry.height());
    assert_eq!(count(&svg, "text"), texts, "{variant}");
    svg
}

#[test]
fn international_10x10() {
    let svg = start(Variant::International);
    // Square 1 is top left (its cell's corner at x 140, y 40), 50 bottom left.
    assert!(svg.contains(r#"<text x="146" y="65""#), "{svg}");
    assert!(svg.contains(">50</text>"));
    insta::assert_snapshot!("draughts_international", svg);
}

#[test]
fn english_8x8() {
    insta::assert_snapshot!("draughts_english", start(Variant::English));
}

#[test]
fn russian_8x8_names_its_squares_algebraically() {
    let svg = start(Variant::Russian);
    assert!(svg.contains(">c3</text>"), "{svg}");
    insta::assert_snapshot!("draughts_russian", svg);
}

#[test]
fn canadian_12x12() {
    insta::assert_snapshot!("draughts_canadian", start(Variant::Canadian));
}

#[test]
fn spantsiretti_10x8() {
    let svg = start(Variant::Spantsiretti);
    // Ten columns of 100 units and eight rows, in a margin of 40.
    assert!(svg.contains(r#"viewBox="0 0 1080 880""#), "{svg}");
    insta::assert_snapshot!("draughts_spantsiretti", svg);
}

#[test]
fn turkish_uses_every_square() {
    let svg = start(Variant::Turkish);
    // No cell is unplayable: 64 names (algebraic, as Turkish draughts writes them), the
    // board checkered as in chess.
    assert!(
        svg.contains(">b1</text>") && svg.contains(">h8</text>"),
        "{svg}"
    );
    insta::assert_snapshot!("draughts_turkish", svg);
}

/// A man takes two pieces, turning on 22, while both sides have a king.
fn capture() -> (Position, pdn::Move) {
    let before =
        Position::from_fen_str(Variant::International, "W:W33,K46:B28,18,K5,12").expect("a FEN");
    let (mv, _) = before.parse_move("33x13").expect("a legal capture");
    let mut after = before.clone();
    after.play(&mv).expect("legal");
    (after, mv)
}

#[test]
fn a_capture_s_path_and_the_pieces_it_took() {
    let (after, mv) = capture();
    let svg = Picture::new(&after)
        .last_move(&mv)
        .to_svg(&Options::default());
    // The path 33-22-13 as one arrow, two crosses, the two squares of the move.
    assert_eq!(count(&svg, "polyline"), 1);
    assert_eq!(count(&svg, "path"), 2 + 2, "{svg}"); // crosses, and the kings' crowns
    assert_eq!(svg.matches("fill=\"#9bc700\"").count(), 2);
    assert_eq!(count(&svg, "use"), 4);
    insta::assert_snapshot!("draughts_capture_with_kings", svg);
}

#[test]
fn a_capture_flipped_with_numbers() {
    let (after, mv) = capture();
    let svg = Picture::new(&after).last_move(&mv).to_svg(&Options {
        flip: true,
        numbers: true,
        size: 300,
        ..Options::default()
    });
    elements(&svg);
    // Flipped, square 50 (bottom left unflipped) is in the top-right cell.
    assert!(svg.contains(r#"<text x="906" y="25""#), "{svg}");
    insta::assert_snapshot!("draughts_capture_flipped", svg);
}

#[test]
fn a_move_of_another_board_marks_nothing() {
    let canadian = Position::from_fen_str(Variant::Canadian, "W:WK5:BK72").expect("a FEN");
    let far = canadian
        .legal_moves()
        .into_iter()
        .max_by_key(|m| m.from().index())
        .expect("moves");
    let english = Position::start(GameType::new(Variant::English));
    let plain = Picture::new(&english).to_svg(&Options::default());
    assert!(far.from().index() >= english.geometry().len());
    assert_eq!(
        Picture::new(&english)
            .last_move(&far)
            .to_svg(&Options::default()),
        plain
    );
}

#[test]
fn the_same_picture_gives_the_same_bytes() {
    let (after, mv) = capture();
    let options = Options {
        numbers: true,
        coordinates: true,
        ..Options::default()
    };
    let first = Picture::new(&after).last_move(&mv).to_svg(&options);
    assert_eq!(first, Picture::new(&after).last_move(&mv).to_svg(&options));
    let mut written = String::new();
    Picture::new(&after)
        .last_move(&mv)
        .write_to(&options, &mut written)
        .expect("a String takes any text");
    assert_eq!(first, written);
}
