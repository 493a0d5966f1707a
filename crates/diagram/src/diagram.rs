//! The picture as data: the grid, what is on it, and how it is seen.

use crate::colour::Colour;

/// A cell of the grid: `column` from the left, `row` from the bottom, as the board is seen
/// unflipped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Cell {
    /// From 0, the leftmost column.
    pub column: u8,
    /// From 0, the bottom row.
    pub row: u8,
}

impl Cell {
    /// The cell in `column` (from the left) and `row` (from the bottom).
    pub const fn new(column: u8, row: u8) -> Cell {
        Cell { column, row }
    }
}

/// How a cell is coloured.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Shade {
    /// A light square.
    Light,
    /// A dark square.
    Dark,
    /// A square no piece stands on (draughts' light squares): light, never labelled by
    /// the game, drawn as [`Shade::Light`].
    Unplayable,
}

impl Shade {
    /// Whether the cell is drawn dark.
    pub const fn is_dark(self) -> bool {
        matches!(self, Shade::Dark)
    }
}

/// A piece's picture, defined once in the SVG's `<defs>` and placed on cells with `<use>`.
///
/// `body` is SVG content drawn in a 100 × 100 box (the cell), written as it is: the
/// symbols are the program's own, never read from input. `id` names it in the file
/// (letters, digits and `-`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Symbol {
    /// The element id: `white-king`.
    pub id: &'static str,
    /// SVG elements in a 100 × 100 box.
    pub body: &'static str,
}

/// A mark on a cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mark {
    /// The cell tinted (a last move's squares, `[%csl]`), under the pieces.
    Fill(Colour),
    /// A glow from the cell's middle (a king in check), under the pieces.
    Glow(Colour),
    /// A ring inside the cell's edge, over the pieces.
    Ring(Colour),
    /// A cross over the cell (a piece taken), over the pieces.
    Cross(Colour),
}

/// An arrow through the middles of cells, over everything else: two cells for a move,
/// more for a path (a draughts capture). A path that never leaves its first cell is drawn
/// as a ring.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Arrow {
    /// The cells it goes through, from its tail to its head.
    pub path: Vec<Cell>,
    /// Its colour (give it some transparency: the pieces under it stay visible).
    pub colour: Colour,
}

impl Arrow {
    /// An arrow from one cell to another.
    pub fn new(from: Cell, to: Cell, colour: Colour) -> Arrow {
        Arrow {
            path: vec![from, to],
            colour,
        }
    }
}

/// The colours of the board and its labels.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Theme {
    /// Light cells.
    pub light: Colour,
    /// Dark cells.
    pub dark: Colour,
    /// The margin that holds the coordinates.
    pub margin: Colour,
    /// The coordinates' text.
    pub margin_text: Colour,
    /// Labels of light cells.
    pub text_on_light: Colour,
    /// Labels of dark cells.
    pub text_on_dark: Colour,
}

impl Theme {
    /// Brown wood: the colours chess sites made familiar.
    pub const WOOD: Theme = Theme {
        light: Colour::rgb(0xf0d9b5),
        dark: Colour::rgb(0xb58863),
        margin: Colour::rgb(0x4b3621),
        margin_text: Colour::rgb(0xf0d9b5),
        text_on_light: Colour::rgb(0x8b5e3c),
        text_on_dark: Colour::rgb(0xfbf1e1),
    };
}

impl Default for Theme {
    fn default() -> Theme {
        Theme::WOOD
    }
}

/// A board picture: a grid of cells with pieces, marks, arrows and labels, written as
/// SVG by [`Diagram::write_to`].
///
/// It knows no game: the caller says which cell holds what. Cells are counted from the
/// bottom left as the board is seen unflipped; [`Diagram::flip`] turns the picture half a
/// turn. Things are drawn in layers (cells, fills and glows, pieces, cell labels, rings
/// and crosses, arrows, coordinates), each in the order it was added, and anything on a
/// cell outside the grid is left out. The same diagram always gives the same text.
///
/// ```
/// use diagram::{Arrow, Cell, Colour, Diagram, Mark, Symbol};
///
/// const STONE: Symbol = Symbol {
///     id: "stone",
///     body: r##"<circle cx="50" cy="50" r="40" fill="#222"/>"##,
/// };
/// let mut board = Diagram::new(3, 3);
/// board
///     .piece(Cell::new(0, 0), STONE)
///     .mark(Cell::new(2, 2), Mark::Fill(Colour::rgb(0xffff00).with_opacity(50)))
///     .arrow(Arrow::new(Cell::new(0, 0), Cell::new(2, 2), Colour::rgb(0x15781b)))
///     .margin_labels(["a", "b", "c"], ["1", "2", "3"])
///     .size(240);
/// let svg = board.to_svg();
/// assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
/// assert_eq!(svg.matches("<use ").count(), 1);
/// assert_eq!(svg, board.to_svg());
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagram {
    pub(crate) columns: u8,
    pub(crate) rows: u8,
    /// Row by row from the bottom.
    pub(crate) shades: Vec<Shade>,
    pub(crate) pieces: Vec<(Cell, Symbol)>,
    pub(crate) marks: Vec<(Cell, Mark)>,
    pub(crate) arrows: Vec<Arrow>,
    pub(crate) cell_labels: Vec<(Cell, String)>,
    pub(crate) column_labels: Vec<String>,
    pub(crate) row_labels: Vec<String>,
    pub(crate) flipped: bool,
    pub(crate) size: u32,
    pub(crate) theme: Theme,
}

/// The width of the picture when [`Diagram::size`] is not given, in pixels.
pub const DEFAULT_SIZE: u32 = 400;

impl Diagram {
    /// A grid of `columns × rows` cells, checkered with the bottom-left cell dark, no
    /// pieces, [`DEFAULT_SIZE`] pixels wide.
    pub fn new(columns: u8, rows: u8) -> Diagram {
        let shades = (0..rows)
            .flat_map(|row| {
                (0..columns).map(move |column| {
                    if (u16::from(row) + u16::from(column)) % 2 == 0 {
                        Shade::Dark
                    } else {
                        Shade::Light
                    }
                })
            })
            .collect();
        Diagram {
            columns,
            rows,
            shades,
            pieces: Vec::new(),
            marks: Vec::new(),
            arrows: Vec::new(),
            cell_labels: Vec::new(),
            column_labels: Vec::new(),
            row_labels: Vec::new(),
            flipped: false,
            size: DEFAULT_SIZE,
            theme: Theme::default(),
        }
    }

    /// The number of columns.
    pub fn columns(&self) -> u8 {
        self.columns
    }

    /// The number of rows.
    pub fn rows(&self) -> u8 {
        self.rows
    }

    /// Whether the cell is on the grid.
    pub fn contains(&self, cell: Cell) -> bool {
        cell.column < self.columns && cell.row < self.rows
    }

    fn index(&self, cell: Cell) -> Option<usize> {
        self.contains(cell)
            .then(|| usize::from(cell.row) * usize::from(self.columns) + usize::from(cell.column))
    }

    /// How a cell is coloured ([`Shade::Light`] off the grid).
    pub fn shade_of(&self, cell: Cell) -> Shade {
        self.index(cell)
            .and_then(|i| self.shades.get(i).copied())
            .unwrap_or(Shade::Light)
    }

    /// Colours a cell (nothing off the grid).
    pub fn shade(&mut self, cell: Cell, shade: Shade) -> &mut Diagram {
        if let Some(slot) = self.index(cell).and_then(|i| self.shades.get_mut(i)) {
            *slot = shade;
        }
        self
    }

    /// Puts a piece on a cell (over any piece put there before).
    pub fn piece(&mut self, cell: Cell, symbol: Symbol) -> &mut Diagram {
        self.pieces.push((cell, symbol));
        self
    }

    /// Marks a cell.
    pub fn mark(&mut self, cell: Cell, mark: Mark) -> &mut Diagram {
        self.marks.push((cell, mark));
        self
    }

    /// Draws an arrow.
    pub fn arrow(&mut self, arrow: Arrow) -> &mut Diagram {
        self.arrows.push(arrow);
        self
    }

    /// Writes a small label in a cell's top-left corner (a square number).
    pub fn cell_label(&mut self, cell: Cell, text: impl Into<String>) -> &mut Diagram {
        self.cell_labels.push((cell, text.into()));
        self
    }

    /// Coordinates in a margin: `columns` under the columns from the left, `rows` beside
    /// the rows from the bottom (as the board is seen unflipped: flipped, they turn with
    /// it). Either may be empty; labels beyond the grid are left out.
    pub fn margin_labels<C, R>(
        &mut self,
        columns: impl IntoIterator<Item = C>,
        rows: impl IntoIterator<Item = R>,
    ) -> &mut Diagram
    where
        C: Into<String>,
        R: Into<String>,
    {
        self.column_labels = columns.into_iter().map(Into::into).collect();
        self.row_labels = rows.into_iter().map(Into::into).collect();
        self
    }

    /// Turns the picture half a turn (the top row at the bottom, the rightmost column on
    /// the left), or back.
    pub fn flip(&mut self, flipped: bool) -> &mut Diagram {
        self.flipped = flipped;
        self
    }

    /// The picture's width in pixels (its height follows the grid's proportions); at
    /// least 1.
    pub fn size(&mut self, pixels: u32) -> &mut Diagram {
        self.size = pixels.max(1);
        self
    }

    /// The colours.
    pub fn theme(&mut self, theme: Theme) -> &mut Diagram {
        self.theme = theme;
        self
    }

    /// Whether the picture has a margin for coordinates.
    pub(crate) fn has_margin(&self) -> bool {
        !self.column_labels.is_empty() || !self.row_labels.is_empty()
    }
}
