//! Draughts positions as SVG pictures, on every board the crate knows (8×8, 10×10,
//! 12×12, 10×8, and Turkish draughts' 64 squares): men and kings, the square names of the
//! game type, coordinates, the last move with its path and the pieces it took.
//!
//! A [`Picture`] gathers what to show; [`Picture::to_svg`] writes it (through the
//! [`diagram`] crate, which knows no rules). The board is seen as the game type's
//! diagrams show it, the player who moves first at the bottom; [`Options::flip`] turns
//! it. The same picture always gives the same text.
//!
//! ```
//! use pdn::svg::{Options, Picture};
//! use pdn::{Position, Variant};
//!
//! let before = Position::from_fen_str(Variant::International, "W:W33:B28,18")?;
//! let (capture, _) = before.parse_move("33x13")?;
//! let mut after = before.clone();
//! after.play(&capture)?;
//! let svg = Picture::new(&after)
//!     .last_move(&capture)
//!     .to_svg(&Options { numbers: true, ..Options::default() });
//! assert_eq!(svg.matches("<use ").count(), 1);
//! assert!(svg.contains(">50</text>")); // square numbers
//! assert!(svg.contains("<polyline")); // the capture's path
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::fmt;

use diagram::{Arrow, Cell, Colour, Diagram, Mark, Shade, Symbol};

use crate::{BoardKind, Color, Geometry, Move, Position, Role, Square};

/// How a picture is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Options {
    /// The board turned half a turn: the player who moves second at the bottom.
    pub flip: bool,
    /// The width in pixels.
    pub size: u32,
    /// Files (letters) and ranks (numbers) in a margin, from the corner of the game
    /// type's algebraic notation (the bottom left for numbered games).
    pub coordinates: bool,
    /// Each playing square's name in its corner, as the game type writes it: its number
    /// (`32`), or its algebraic name (`c3`) in games written so.
    pub numbers: bool,
}

impl Default for Options {
    /// Unflipped, [`diagram::DEFAULT_SIZE`] pixels, no coordinates, no numbers.
    fn default() -> Options {
        Options {
            flip: false,
            size: diagram::DEFAULT_SIZE,
            coordinates: false,
            numbers: false,
        }
    }
}

/// A position to draw, with its last move.
#[derive(Clone, Debug)]
pub struct Picture<'a> {
    position: &'a Position,
    last_move: Option<&'a Move>,
}

/// The last move's squares.
const LAST_MOVE: Colour = Colour::rgb(0x9bc700).with_opacity(45);
/// A capture's path.
const PATH: Colour = Colour::rgb(0x15781b).with_opacity(75);
/// A piece taken.
const TAKEN: Colour = Colour::rgb(0xd11a1a).with_opacity(85);

impl<'a> Picture<'a> {
    /// The position, nothing marked.
    pub fn new(position: &'a Position) -> Picture<'a> {
        Picture {
            position,
            last_move: None,
        }
    }

    /// Marks the move that led to the position: the squares it left and reached, and
    /// for a capture its path and the squares of the pieces it took. (A move of another
    /// board's squares marks nothing.)
    pub fn last_move(mut self, mv: &'a Move) -> Picture<'a> {
        self.last_move = Some(mv);
        self
    }

    /// The picture as a [`Diagram`], to change further before writing it.
    pub fn diagram(&self, options: &Options) -> Diagram {
        let g = self.position.geometry();
        let mut d = Diagram::new(g.width(), g.height());
        d.flip(options.flip).size(options.size);
        if g.kind() == BoardKind::Diagonal {
            for y in 0..g.height() {
                for x in 0..g.width() {
                    let shade = if g.is_playable(x, y) {
                        Shade::Dark
                    } else {
                        Shade::Unplayable
                    };
                    d.shade(Cell::new(x, y), shade);
                }
            }
        }
        if options.coordinates {
            d.margin_labels(
                (0..g.width()).map(|x| char::from(b'a' + g.alpha_at(x, 0).0).to_string()),
                (0..g.height()).map(|y| (u32::from(g.alpha_at(0, y).1) + 1).to_string()),
            );
        }
        if let Some(mv) = self.last_move {
            mark_move(&mut d, g, mv);
        }
        for (square, piece) in self.position.pieces() {
            if let Some(cell) = cell(g, square) {
                d.piece(cell, symbol(piece.color, piece.role));
            }
        }
        if options.numbers {
            for square in g.squares() {
                if let Some(cell) = cell(g, square) {
                    d.cell_label(cell, g.name(square).to_string());
                }
            }
        }
        d
    }

    /// Writes the picture as a standalone SVG document.
    ///
    /// # Errors
    ///
    /// Only those of `out`.
    pub fn write_to<W: fmt::Write>(&self, options: &Options, out: &mut W) -> fmt::Result {
        self.diagram(options).write_to(out)
    }

    /// The picture as a standalone SVG document.
    pub fn to_svg(&self, options: &Options) -> String {
        self.diagram(options).to_svg()
    }
}

/// The squares a move left and reached; a capture's path through its turning squares,
/// and a cross on each piece taken.
fn mark_move(d: &mut Diagram, g: &Geometry, mv: &Move) {
    let (Some(from), Some(to)) = (cell(g, mv.from()), cell(g, mv.to())) else {
        return;
    };
    d.mark(from, Mark::Fill(LAST_MOVE));
    if to != from {
        d.mark(to, Mark::Fill(LAST_MOVE));
    }
    if !mv.is_capture() {
        return;
    }
    let path: Option<Vec<Cell>> = std::iter::once(mv.from())
        .chain(mv.path().iter().copied())
        .map(|square| cell(g, square))
        .collect();
    if let Some(path) = path {
        d.arrow(Arrow { path, colour: PATH });
    }
    for &square in mv.captured() {
        if let Some(cell) = cell(g, square) {
            d.mark(cell, Mark::Cross(TAKEN));
        }
    }
}

/// A square's cell, if the square is one of this board's.
fn cell(g: &Geometry, square: Square) -> Option<Cell> {
    let square = g.square_by_index(square.index())?;
    let (x, y) = g.coords(square);
    Some(Cell::new(x, y))
}

/// The drawing of a piece.
pub fn symbol(color: Color, role: Role) -> Symbol {
    let (id, body) = match (color, role) {
        (Color::White, Role::Man) => ("white-man", pieces::WHITE_MAN),
        (Color::White, Role::King) => ("white-king", pieces::WHITE_KING),
        (Color::Black, Role::Man) => ("black-man", pieces::BLACK_MAN),
        (Color::Black, Role::King) => ("black-king", pieces::BLACK_KING),
    };
    Symbol { id, body }
}

/// The pieces, drawn in a 100 × 100 box: a disc with its edge below it and grooves on
/// top; a king wears a crown.
mod pieces {
    macro_rules! disc {
        ($edge:literal, $top:literal, $outline:literal, $groove:literal) => {
            concat!(
                r#"<circle cx="50" cy="55" r="37" fill=""#,
                $edge,
                r#"" stroke=""#,
                $outline,
                r#"" stroke-width="3"/>"#,
                r#"<circle cx="50" cy="49" r="37" fill=""#,
                $top,
                r#"" stroke=""#,
                $outline,
                r#"" stroke-width="3"/>"#,
                r#"<circle cx="50" cy="49" r="26" fill="none" stroke=""#,
                $groove,
                r#"" stroke-width="3"/>"#,
                r#"<circle cx="50" cy="49" r="15" fill="none" stroke=""#,
                $groove,
                r#"" stroke-width="2"/>"#
            )
        };
    }

    macro_rules! crown {
        () => {
            r##"<path d="M32 62L29 37L40 47L50 31L60 47L71 37L68 62Z" fill="#e2b93b" stroke="#6b4e00" stroke-width="3" stroke-linejoin="round"/>"##
        };
    }

    macro_rules! white {
        () => {
            disc!("#cfc8b8", "#f7f4ec", "#3c3a36", "#c6bfae")
        };
    }

    macro_rules! black {
        () => {
            disc!("#0b0b0b", "#2b2b2b", "#000", "#5a5a5a")
        };
    }

    pub const WHITE_MAN: &str = white!();
    pub const WHITE_KING: &str = concat!(white!(), crown!());
    pub const BLACK_MAN: &str = black!();
    pub const BLACK_KING: &str = concat!(black!(), crown!());
}
