//! Board pictures as SVG, for any game played on a grid.
//!
//! A [`Diagram`] is a rectangular grid of cells, each light, dark or unplayable
//! ([`Shade`]), with pieces ([`Symbol`]s: SVG drawings defined once and placed on cells),
//! marks on cells ([`Mark`]: tints, glows, rings, crosses), [`Arrow`]s through cells,
//! labels in cells (square numbers) and coordinates in a margin. It can be flipped and
//! sized, and is written as SVG text to any [`std::fmt::Write`] by
//! [`Diagram::write_to`]: the same diagram always gives the same bytes.
//!
//! The crate knows no game: `pgn::svg` (chess) and `pdn::svg` (draughts) say which
//! cells hold what and draw the pieces.
//!
//! ```
//! use diagram::{Cell, Colour, Diagram, Mark, Shade};
//!
//! // A 2 × 2 board whose top-right cell no piece may use, with one tinted cell.
//! let mut board = Diagram::new(2, 2);
//! board
//!     .shade(Cell::new(1, 1), Shade::Unplayable)
//!     .mark(Cell::new(0, 0), Mark::Fill(Colour::rgb(0xcdd26a).with_opacity(60)))
//!     .cell_label(Cell::new(0, 0), "1");
//! let mut svg = String::new();
//! board.write_to(&mut svg)?;
//! assert!(svg.contains(r##"fill="#cdd26a" fill-opacity="0.60""##));
//! assert!(svg.contains(">1</text>"));
//! # Ok::<(), std::fmt::Error>(())
//! ```

mod colour;
mod diagram;
mod svg;

pub use colour::Colour;
pub use diagram::{Arrow, Cell, DEFAULT_SIZE, Diagram, Mark, Shade, Symbol, Theme};
pub use svg::MARGIN;
