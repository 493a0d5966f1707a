//! What a diagram's SVG holds, read back as XML.

use diagram::{Arrow, Cell, Colour, Diagram, MARGIN, Mark, Shade, Symbol};

const DOT: Symbol = Symbol {
    id: "dot",
    body: r##"<circle cx="50" cy="50" r="30" fill="#000"/>"##,
};
const RING: Symbol = Symbol {
    id: "ring",
    body: r##"<circle cx="50" cy="50" r="30" fill="none" stroke="#000"/>"##,
};

fn parse(svg: &str) -> roxmltree::Document<'_> {
    roxmltree::Document::parse(svg).unwrap_or_else(|e| panic!("{e}\n{svg}"))
}

/// The `<use>` elements: symbol and top-left corner.
fn uses(svg: &str) -> Vec<(String, String, String)> {
    parse(svg)
        .descendants()
        .filter(|n| n.has_tag_name("use"))
        .map(|n| {
            let attr = |name| n.attribute(name).unwrap_or_default().to_owned();
            (attr("href"), attr("x"), attr("y"))
        })
        .collect()
}

fn busy() -> Diagram {
    let mut d = Diagram::new(4, 3);
    d.piece(Cell::new(0, 0), DOT)
        .piece(Cell::new(3, 2), RING)
        .piece(Cell::new(1, 0), DOT)
        .shade(Cell::new(1, 1), Shade::Unplayable)
        .mark(
            Cell::new(0, 0),
            Mark::Fill(Colour::rgb(0xffff00).with_opacity(40)),
        )
        .mark(Cell::new(3, 2), Mark::Glow(Colour::rgb(0xff0000)))
        .mark(Cell::new(1, 0), Mark::Cross(Colour::rgb(0xcc0000)))
        .mark(Cell::new(2, 1), Mark::Ring(Colour::rgb(0x0000cc)))
        .arrow(Arrow {
            path: vec![Cell::new(0, 0), Cell::new(2, 2), Cell::new(3, 1)],
            colour: Colour::rgb(0x15781b),
        })
        .arrow(Arrow::new(
            Cell::new(1, 1),
            Cell::new(1, 1),
            Colour::rgb(0x15781b),
        ))
        .cell_label(Cell::new(0, 0), "1 < 2 & \"3\"")
        .margin_labels(["a", "b", "c", "d", "e"], ["1", "2", "3"]);
    d
}

#[test]
fn every_picture_is_xml_with_the_grid_s_proportions() {
    let mut d = busy();
    for (flip, size) in [(false, 400), (true, 123), (false, 0)] {
        d.flip(flip).size(size);
        let svg = d.to_svg();
        let doc = parse(&svg);
        let root = doc.root_element();
        assert_eq!(root.tag_name().name(), "svg");
        let (w, h) = (4 * 100 + 2 * MARGIN, 3 * 100 + 2 * MARGIN);
        assert_eq!(root.attribute("viewBox"), Some(&*format!("0 0 {w} {h}")));
        let width: u32 = root
            .attribute("width")
            .and_then(|v| v.parse().ok())
            .unwrap_or(0);
        let height: u32 = root
            .attribute("height")
            .and_then(|v| v.parse().ok())
            .unwrap_or(0);
        assert_eq!(width, size.max(1));
        assert!(
            height.abs_diff((width * h + w / 2) / w) == 0,
            "{width}×{height}"
        );
    }
}

#[test]
fn each_symbol_is_defined_once_and_placed_on_its_cells() {
    let svg = busy().to_svg();
    let doc = parse(&svg);
    let defined: Vec<_> = doc
        .descendants()
        .filter(|n| n.has_tag_name("g") && n.attribute("id").is_some())
        .filter_map(|n| n.attribute("id"))
        .collect();
    assert_eq!(defined, ["dot", "ring"]);
    // Cell (0, 0) is bottom left: x = margin, y = margin + two rows.
    assert_eq!(
        uses(&svg),
        [
            ("#dot".into(), "40".into(), "240".into()),
            ("#ring".into(), "340".into(), "40".into()),
            ("#dot".into(), "140".into(), "240".into()),
        ]
    );
}

#[test]
fn flipping_turns_the_picture_half_a_turn() {
    let mut d = busy();
    d.flip(true);
    assert_eq!(
        uses(&d.to_svg())[..2],
        [
            ("#dot".into(), "340".into(), "40".into()),
            ("#ring".into(), "40".into(), "240".into()),
        ]
    );
    // The coordinates turn with the board: "a" is under the rightmost column.
    let svg = d.to_svg();
    let doc = parse(&svg);
    let a = doc
        .descendants()
        .find(|n| n.has_tag_name("text") && n.text() == Some("a"))
        .and_then(|n| n.attribute("x"));
    assert_eq!(a, Some("390"));
}

#[test]
fn labels_are_escaped_and_extra_ones_left_out() {
    let svg = busy().to_svg();
    let doc = parse(&svg);
    let texts: Vec<_> = doc
        .descendants()
        .filter(|n| n.has_tag_name("text"))
        .filter_map(|n| n.text())
        .collect();
    assert_eq!(texts, ["1 < 2 & \"3\"", "a", "b", "c", "d", "1", "2", "3"]);
}

#[test]
fn nothing_off_the_grid_is_drawn() {
    let mut d = Diagram::new(2, 2);
    d.piece(Cell::new(2, 0), DOT)
        .mark(Cell::new(0, 5), Mark::Glow(Colour::rgb(0xff0000)))
        .arrow(Arrow::new(Cell::new(0, 0), Cell::new(9, 9), Colour::rgb(0)))
        .cell_label(Cell::new(7, 7), "x")
        .shade(Cell::new(3, 3), Shade::Light);
    let svg = d.to_svg();
    parse(&svg);
    assert!(!svg.contains("<defs>"), "{svg}");
    assert!(!svg.contains("<use"), "{svg}");
    assert!(!svg.contains("<text"), "{svg}");
    assert!(!svg.contains("polygon"), "{svg}");
    // A grid of no cells is still a picture.
    parse(&Diagram::new(0, 0).to_svg());
}

#[test]
fn the_same_diagram_gives_the_same_bytes() {
    let svg = busy().to_svg();
    assert_eq!(svg, busy().clone().to_svg());
    let mut written = String::new();
    busy()
        .write_to(&mut written)
        .expect("a String takes any text");
    assert_eq!(svg, written);
}

#[test]
fn marks_and_arrows_are_drawn() {
    let svg = busy().to_svg();
    let doc = parse(&svg);
    let count = |tag: &str| doc.descendants().filter(|n| n.has_tag_name(tag)).count();
    // One arrow with a head; the arrow that stays on its cell is a ring, as is the mark.
    assert_eq!(count("polygon"), 1);
    assert_eq!(count("polyline"), 1);
    assert_eq!(count("circle") - 2, 2, "{svg}");
    assert_eq!(count("radialGradient"), 1);
    let line = doc
        .descendants()
        .find(|n| n.has_tag_name("polyline"))
        .and_then(|n| n.attribute("points"));
    // Through the middles of (0,0) and (2,2), ending at the head's base before (3,1).
    assert_eq!(line, Some("90,290 290,90 363.1,163.1"));
}
