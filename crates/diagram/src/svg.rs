//! Writing a [`Diagram`] as SVG text.
//!
//! A cell is 100 units wide; the margin that holds coordinates is [`MARGIN`] units on
//! every side. Numbers are written with at most one decimal, so that the same diagram
//! gives the same bytes everywhere.

use std::fmt::{self, Write};

use crate::colour::Colour;
use crate::diagram::{Arrow, Cell, Diagram, Mark, Symbol};

/// The side of a cell, in SVG units.
const CELL: u32 = 100;
/// The margin's width when there are coordinates, in SVG units.
pub const MARGIN: u32 = 40;
/// An arrow's shaft width.
const SHAFT: f64 = 14.0;
/// An arrow head's length, from its base to its tip.
const HEAD_LENGTH: f64 = 38.0;
/// Half an arrow head's width at its base.
const HEAD_HALF_WIDTH: f64 = 24.0;
/// How opaque an arrow is drawn, in percent, when its colour is opaque.
const ARROW_OPACITY: u8 = 80;

impl Diagram {
    /// Writes the picture as a standalone SVG document.
    ///
    /// # Errors
    ///
    /// Only those of `out`.
    pub fn write_to<W: Write>(&self, out: &mut W) -> fmt::Result {
        Layout::of(self).write(self, out)
    }

    /// The picture as a standalone SVG document.
    pub fn to_svg(&self) -> String {
        let mut out = String::new();
        // Writing into a String cannot fail.
        let _ = self.write_to(&mut out);
        out
    }
}

/// Where things go.
struct Layout {
    /// The margin, 0 or [`MARGIN`].
    margin: u32,
    /// The whole picture's width and height in units.
    width: u32,
    height: u32,
}

impl Layout {
    fn of(d: &Diagram) -> Layout {
        let margin = if d.has_margin() { MARGIN } else { 0 };
        Layout {
            margin,
            width: u32::from(d.columns) * CELL + 2 * margin,
            height: u32::from(d.rows) * CELL + 2 * margin,
        }
    }

    /// The top-left corner of a cell on the grid, in units.
    fn corner(&self, d: &Diagram, cell: Cell) -> (u32, u32) {
        let (column, from_top) = if d.flipped {
            (d.columns - 1 - cell.column, cell.row)
        } else {
            (cell.column, d.rows - 1 - cell.row)
        };
        (
            self.margin + u32::from(column) * CELL,
            self.margin + u32::from(from_top) * CELL,
        )
    }

    /// The middle of a cell on the grid, in units.
    fn middle(&self, d: &Diagram, cell: Cell) -> (f64, f64) {
        let (x, y) = self.corner(d, cell);
        (f64::from(x + CELL / 2), f64::from(y + CELL / 2))
    }

    fn write<W: Write>(&self, d: &Diagram, out: &mut W) -> fmt::Result {
        let pixels_high = (u64::from(d.size) * u64::from(self.height) + u64::from(self.width / 2))
            / u64::from(self.width.max(1));
        writeln!(
            out,
            r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {} {}" width="{}" height="{}">"#,
            self.width, self.height, d.size, pixels_high
        )?;
        self.defs(d, out)?;
        self.board(d, out)?;
        self.under_pieces(d, out)?;
        self.pieces(d, out)?;
        self.cell_labels(d, out)?;
        self.over_pieces(d, out)?;
        for arrow in &d.arrows {
            self.arrow(d, arrow, out)?;
        }
        self.margin_labels(d, out)?;
        writeln!(out, "</svg>")
    }

    /// The pieces' symbols (each once, by id) and the glows' gradients (each colour once).
    fn defs<W: Write>(&self, d: &Diagram, out: &mut W) -> fmt::Result {
        let mut symbols: Vec<Symbol> = d
            .pieces
            .iter()
            .filter(|(cell, _)| d.contains(*cell))
            .map(|&(_, symbol)| symbol)
            .collect();
        symbols.sort_by_key(|s| s.id);
        symbols.dedup_by_key(|s| s.id);
        let mut glows: Vec<Colour> = d
            .marks
            .iter()
            .filter_map(|&(cell, mark)| match mark {
                Mark::Glow(colour) if d.contains(cell) => Some(colour),
                _ => None,
            })
            .collect();
        glows.sort();
        glows.dedup();
        if symbols.is_empty() && glows.is_empty() {
            return Ok(());
        }
        writeln!(out, "<defs>")?;
        for symbol in symbols {
            writeln!(out, r#"<g id="{}">{}</g>"#, Escaped(symbol.id), symbol.body)?;
        }
        for colour in glows {
            writeln!(
                out,
                r#"<radialGradient id="{}"><stop offset="0" stop-color="{colour}" stop-opacity="{}"/><stop offset="0.35" stop-color="{colour}" stop-opacity="{}"/><stop offset="1" stop-color="{colour}" stop-opacity="0"/></radialGradient>"#,
                GlowId(colour),
                colour.opacity_text(),
                colour.opacity_text(),
            )?;
        }
        writeln!(out, "</defs>")
    }

    /// The margin, the light cells as one rectangle, then the dark cells.
    fn board<W: Write>(&self, d: &Diagram, out: &mut W) -> fmt::Result {
        let theme = &d.theme;
        if self.margin > 0 {
            writeln!(
                out,
                r#"<rect width="{}" height="{}" fill="{}"/>"#,
                self.width, self.height, theme.margin
            )?;
        }
        writeln!(
            out,
            r#"<rect x="{m}" y="{m}" width="{}" height="{}" fill="{}"/>"#,
            u32::from(d.columns) * CELL,
            u32::from(d.rows) * CELL,
            theme.light,
            m = self.margin,
        )?;
        writeln!(out, r#"<g fill="{}">"#, theme.dark)?;
        for row in 0..d.rows {
            for column in 0..d.columns {
                let cell = Cell::new(column, row);
                if d.shade_of(cell).is_dark() {
                    let (x, y) = self.corner(d, cell);
                    writeln!(
                        out,
                        r#"<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}"/>"#
                    )?;
                }
            }
        }
        writeln!(out, "</g>")
    }

    /// Fills and glows.
    fn under_pieces<W: Write>(&self, d: &Diagram, out: &mut W) -> fmt::Result {
        for &(cell, mark) in d.marks.iter().filter(|(cell, _)| d.contains(*cell)) {
            let (x, y) = self.corner(d, cell);
            match mark {
                Mark::Fill(colour) => writeln!(
                    out,
                    r#"<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="{colour}"{}/>"#,
                    Attribute("fill-opacity", colour),
                )?,
                Mark::Glow(colour) => writeln!(
                    out,
                    r#"<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="url(#{})"/>"#,
                    GlowId(colour)
                )?,
                Mark::Ring(_) | Mark::Cross(_) => {}
            }
        }
        Ok(())
    }

    fn pieces<W: Write>(&self, d: &Diagram, out: &mut W) -> fmt::Result {
        for &(cell, symbol) in d.pieces.iter().filter(|(cell, _)| d.contains(*cell)) {
            let (x, y) = self.corner(d, cell);
            writeln!(
                out,
                r##"<use href="#{}" x="{x}" y="{y}"/>"##,
                Escaped(symbol.id)
            )?;
        }
        Ok(())
    }

    /// Labels in the cells' top-left corners, with a halo of the cell's colour so that
    /// they read over a piece's edge.
    fn cell_labels<W: Write>(&self, d: &Diagram, out: &mut W) -> fmt::Result {
        let labels = || d.cell_labels.iter().filter(|(cell, _)| d.contains(*cell));
        if labels().next().is_none() {
            return Ok(());
        }
        writeln!(
            out,
            r#"<g font-family="sans-serif" font-size="24" font-weight="bold" stroke-width="5" paint-order="stroke" stroke-linejoin="round">"#
        )?;
        for (cell, text) in labels() {
            let (x, y) = self.corner(d, *cell);
            let (fill, halo) = if d.shade_of(*cell).is_dark() {
                (d.theme.text_on_dark, d.theme.dark)
            } else {
                (d.theme.text_on_light, d.theme.light)
            };
            writeln!(
                out,
                r#"<text x="{}" y="{}" fill="{fill}" stroke="{halo}">{}</text>"#,
                x + 6,
                y + 25,
                Escaped(text)
            )?;
        }
        writeln!(out, "</g>")
    }

    /// Rings and crosses.
    fn over_pieces<W: Write>(&self, d: &Diagram, out: &mut W) -> fmt::Result {
        for &(cell, mark) in d.marks.iter().filter(|(cell, _)| d.contains(*cell)) {
            match mark {
                Mark::Ring(colour) => self.ring(d, cell, colour, out)?,
                Mark::Cross(colour) => {
                    let (x, y) = self.corner(d, cell);
                    let (near, far) = (22, CELL - 22);
                    writeln!(
                        out,
                        r#"<path d="M{} {}L{} {}M{} {}L{} {}" stroke="{colour}" stroke-width="12" stroke-linecap="round"{}/>"#,
                        x + near,
                        y + near,
                        x + far,
                        y + far,
                        x + far,
                        y + near,
                        x + near,
                        y + far,
                        Attribute("stroke-opacity", colour),
                    )?;
                }
                Mark::Fill(_) | Mark::Glow(_) => {}
            }
        }
        Ok(())
    }

    fn ring<W: Write>(&self, d: &Diagram, cell: Cell, colour: Colour, out: &mut W) -> fmt::Result {
        let (x, y) = self.middle(d, cell);
        writeln!(
            out,
            r#"<circle cx="{}" cy="{}" r="44" fill="none" stroke="{colour}" stroke-width="8"{}/>"#,
            Num(x),
            Num(y),
            Attribute("stroke-opacity", colour),
        )
    }

    /// A shaft through the middles of the path's cells and a head at the last one.
    fn arrow<W: Write>(&self, d: &Diagram, arrow: &Arrow, out: &mut W) -> fmt::Result {
        if arrow.path.iter().any(|cell| !d.contains(*cell)) {
            return Ok(());
        }
        let mut cells = arrow.path.clone();
        cells.dedup();
        let (Some(&first), Some(&last)) = (cells.first(), cells.last()) else {
            return Ok(());
        };
        if cells.len() < 2 {
            return self.ring(d, first, arrow.colour, out);
        }
        let points: Vec<(f64, f64)> = cells.iter().map(|&c| self.middle(d, c)).collect();
        let tip = self.middle(d, last);
        let before = points[points.len() - 2];
        let (dx, dy) = (tip.0 - before.0, tip.1 - before.1);
        let length = (dx * dx + dy * dy).sqrt().max(1.0);
        let (ux, uy) = (dx / length, dy / length);
        let base = (tip.0 - ux * HEAD_LENGTH, tip.1 - uy * HEAD_LENGTH);
        let opacity = if arrow.colour.is_translucent() {
            arrow.colour.opacity()
        } else {
            ARROW_OPACITY
        };
        write!(
            out,
            r#"<g opacity="{}"><polyline fill="none" stroke="{}" stroke-width="{}" stroke-linejoin="round" points=""#,
            crate::colour::Colour::rgb(0)
                .with_opacity(opacity)
                .opacity_text(),
            arrow.colour,
            Num(SHAFT),
        )?;
        for (i, &(x, y)) in points[..points.len() - 1]
            .iter()
            .chain(std::iter::once(&base))
            .enumerate()
        {
            let sep = if i == 0 { "" } else { " " };
            write!(out, "{sep}{},{}", Num(x), Num(y))?;
        }
        writeln!(
            out,
            r#""/><polygon fill="{}" points="{},{} {},{} {},{}"/></g>"#,
            arrow.colour,
            Num(tip.0),
            Num(tip.1),
            Num(base.0 - uy * HEAD_HALF_WIDTH),
            Num(base.1 + ux * HEAD_HALF_WIDTH),
            Num(base.0 + uy * HEAD_HALF_WIDTH),
            Num(base.1 - ux * HEAD_HALF_WIDTH),
        )
    }

    /// Column labels under the board, row labels left of it.
    fn margin_labels<W: Write>(&self, d: &Diagram, out: &mut W) -> fmt::Result {
        if self.margin == 0 {
            return Ok(());
        }
        writeln!(
            out,
            r#"<g font-family="sans-serif" font-size="26" text-anchor="middle" fill="{}">"#,
            d.theme.margin_text
        )?;
        for (column, text) in d.column_labels.iter().enumerate().take(d.columns.into()) {
            let cell = Cell::new(column as u8, 0);
            let (x, _) = self.corner(d, cell);
            writeln!(
                out,
                r#"<text x="{}" y="{}">{}</text>"#,
                x + CELL / 2,
                self.height - self.margin / 2 + 9,
                Escaped(text)
            )?;
        }
        for (row, text) in d.row_labels.iter().enumerate().take(d.rows.into()) {
            let cell = Cell::new(0, row as u8);
            let (_, y) = self.corner(d, cell);
            writeln!(
                out,
                r#"<text x="{}" y="{}">{}</text>"#,
                self.margin / 2,
                y + CELL / 2 + 9,
                Escaped(text)
            )?;
        }
        writeln!(out, "</g>")
    }
}

/// A number with at most one decimal, never `-0`.
struct Num(f64);

impl fmt::Display for Num {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let tenths = (self.0 * 10.0).round();
        if tenths == 0.0 || !tenths.is_finite() {
            return f.write_str("0");
        }
        if tenths % 10.0 == 0.0 {
            write!(f, "{}", tenths / 10.0)
        } else {
            write!(f, "{:.1}", tenths / 10.0)
        }
    }
}

/// Text with XML's special characters escaped.
struct Escaped<'a>(&'a str);

impl fmt::Display for Escaped<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for c in self.0.chars() {
            match c {
                '&' => f.write_str("&amp;")?,
                '<' => f.write_str("&lt;")?,
                '>' => f.write_str("&gt;")?,
                '"' => f.write_str("&quot;")?,
                '\'' => f.write_str("&apos;")?,
                // Characters XML 1.0 does not allow.
                c if (c as u32) < 0x20 && !matches!(c, '\t' | '\n' | '\r') => {
                    f.write_char('\u{fffd}')?
                }
                c => f.write_char(c)?,
            }
        }
        Ok(())
    }
}

/// The id of a glow's gradient: `glow-rrggbb-80`.
struct GlowId(Colour);

impl fmt::Display for GlowId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "glow-{:06x}-{}", self.0.value(), self.0.opacity())
    }
}

/// ` name="0.50"` for a translucent colour, nothing for an opaque one.
struct Attribute(&'static str, Colour);

impl fmt::Display for Attribute {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.1.is_translucent() {
            write!(f, r#" {}="{}""#, self.0, self.1.opacity_text())
        } else {
            Ok(())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_have_one_decimal_at_most() {
        let text = |x: f64| Num(x).to_string();
        assert_eq!(text(150.0), "150");
        assert_eq!(text(-0.01), "0");
        assert_eq!(text(12.349), "12.3");
        assert_eq!(text(-3.25), "-3.3");
        assert_eq!(text(f64::NAN), "0");
    }

    #[test]
    fn text_is_escaped() {
        assert_eq!(
            Escaped("a<b & \"c\"\u{1}").to_string(),
            "a&lt;b &amp; &quot;c&quot;\u{fffd}"
        );
    }
}
