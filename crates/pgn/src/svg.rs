//! Chess positions as SVG pictures: the pieces drawn by this crate, the last move and a
//! king in check highlighted, the coloured squares and arrows of `[%csl]` and `[%cal]`,
//! coordinates, either side at the bottom.
//!
//! A [`Picture`] gathers what to show; [`Picture::to_svg`] writes it (through the
//! [`diagram`] crate, which knows no rules). The same picture always gives the same text.
//!
//! ```
//! use pgn::svg::{Options, Picture};
//! use pgn::{Position, Square};
//!
//! let before = Position::new();
//! let mv = before.resolve_san(b"e4")?.mv;
//! let after = before.play(&mv);
//! let svg = Picture::new(&after)
//!     .last_move(&mv)
//!     .comments(&["Best by test [%cal Gd7d5] [%csl Re4]"])
//!     .to_svg(&Options { coordinates: true, ..Options::default() });
//! assert!(svg.starts_with("<svg "));
//! assert_eq!(svg.matches("<use ").count(), 32);
//! assert!(svg.contains("<polygon")); // the arrow's head
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::fmt;

use diagram::{Cell, Colour, Diagram, Mark, Symbol};

use crate::commands::{self, Arrow, Command, Highlight, MarkColor};
use crate::{Color, File, Move, Position, Rank, Role, Square};

/// How a picture is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Options {
    /// Black at the bottom.
    pub flip: bool,
    /// The width in pixels.
    pub size: u32,
    /// Files and ranks in a margin.
    pub coordinates: bool,
}

impl Default for Options {
    /// White at the bottom, [`diagram::DEFAULT_SIZE`] pixels, no coordinates.
    fn default() -> Options {
        Options {
            flip: false,
            size: diagram::DEFAULT_SIZE,
            coordinates: false,
        }
    }
}

/// A position to draw, with what is marked on it.
#[derive(Clone, Debug)]
pub struct Picture<'a> {
    position: &'a Position,
    last_move: Option<Move>,
    highlights: Vec<Highlight>,
    arrows: Vec<Arrow>,
}

/// The last move's squares.
const LAST_MOVE: Colour = Colour::rgb(0x9bc700).with_opacity(41);
/// The glow around a king in check.
const CHECK: Colour = Colour::rgb(0xff0000);

impl<'a> Picture<'a> {
    /// The position, nothing marked.
    pub fn new(position: &'a Position) -> Picture<'a> {
        Picture {
            position,
            last_move: None,
            highlights: Vec::new(),
            arrows: Vec::new(),
        }
    }

    /// Highlights the squares a move (the one that led to the position) left and
    /// reached: for castling, the king's; nothing for a null move.
    pub fn last_move(mut self, mv: &Move) -> Picture<'a> {
        self.last_move = Some(*mv);
        self
    }

    /// Shows the coloured squares (`[%csl Ga4]`) and arrows (`[%cal Ge2e4]`) of comments
    /// (those after the move that led to the position); their other text and commands
    /// are ignored.
    pub fn comments<S: AsRef<str>>(mut self, comments: &[S]) -> Picture<'a> {
        for comment in comments {
            for command in commands::commands(comment.as_ref()) {
                match command {
                    Command::Squares(squares) => self.highlights.extend(squares),
                    Command::Arrows(arrows) => self.arrows.extend(arrows),
                    _ => {}
                }
            }
        }
        self
    }

    /// Colours a square, as `[%csl]` does.
    pub fn highlight(mut self, highlight: Highlight) -> Picture<'a> {
        self.highlights.push(highlight);
        self
    }

    /// Draws an arrow, as `[%cal]` does.
    pub fn arrow(mut self, arrow: Arrow) -> Picture<'a> {
        self.arrows.push(arrow);
        self
    }

    /// The picture as a [`Diagram`], to change further before writing it.
    pub fn diagram(&self, options: &Options) -> Diagram {
        let mut d = Diagram::new(8, 8);
        d.flip(options.flip).size(options.size);
        if options.coordinates {
            d.margin_labels(
                File::ALL.iter().map(|f| f.char().to_string()),
                Rank::ALL.iter().map(|r| r.char().to_string()),
            );
        }
        if let Some(mv) = self.last_move {
            for square in [mv.from(), mv.king_to()].into_iter().flatten() {
                d.mark(cell(square), Mark::Fill(LAST_MOVE));
            }
        }
        for h in &self.highlights {
            d.mark(
                cell(h.square),
                Mark::Fill(mark_colour(h.color).with_opacity(55)),
            );
        }
        if self.position.is_check() {
            let king = self.position.king_of(self.position.turn());
            if let Some(king) = king {
                d.mark(cell(king), Mark::Glow(CHECK));
            }
        }
        for square in Square::all() {
            if let Some(piece) = self.position.piece_at(square) {
                d.piece(cell(square), symbol(piece.color, piece.role));
            }
        }
        for a in &self.arrows {
            d.arrow(diagram::Arrow::new(
                cell(a.from),
                cell(a.to),
                mark_colour(a.color).with_opacity(80),
            ));
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

/// A square's cell: files are columns, ranks rows.
fn cell(square: Square) -> Cell {
    Cell::new(square.file() as u8, square.rank() as u8)
}

/// lichess's colours for marks.
fn mark_colour(color: MarkColor) -> Colour {
    match color {
        MarkColor::Green => Colour::rgb(0x15781b),
        MarkColor::Red => Colour::rgb(0x882020),
        MarkColor::Blue => Colour::rgb(0x003088),
        MarkColor::Yellow => Colour::rgb(0xe68f00),
    }
}

/// The drawing of a piece.
pub fn symbol(color: Color, role: Role) -> Symbol {
    use pieces::*;
    let (id, body) = match (color, role) {
        (Color::White, Role::King) => ("white-king", WHITE_KING),
        (Color::White, Role::Queen) => ("white-queen", WHITE_QUEEN),
        (Color::White, Role::Rook) => ("white-rook", WHITE_ROOK),
        (Color::White, Role::Bishop) => ("white-bishop", WHITE_BISHOP),
        (Color::White, Role::Knight) => ("white-knight", WHITE_KNIGHT),
        (Color::White, Role::Pawn) => ("white-pawn", WHITE_PAWN),
        (Color::Black, Role::King) => ("black-king", BLACK_KING),
        (Color::Black, Role::Queen) => ("black-queen", BLACK_QUEEN),
        (Color::Black, Role::Rook) => ("black-rook", BLACK_ROOK),
        (Color::Black, Role::Bishop) => ("black-bishop", BLACK_BISHOP),
        (Color::Black, Role::Knight) => ("black-knight", BLACK_KNIGHT),
        (Color::Black, Role::Pawn) => ("black-pawn", BLACK_PAWN),
    };
    Symbol { id, body }
}

/// The pieces, drawn in a 100 × 100 box: each shape once, painted white (black outline
/// and details) or black (white details).
mod pieces {
    macro_rules! white {
        ($shape:expr, $details:expr) => {
            concat!(
                r##"<g fill="#fff" stroke="#000" stroke-width="3" stroke-linejoin="round" stroke-linecap="round">"##,
                $shape,
                r##"<g fill="none">"##,
                $details,
                "</g></g>"
            )
        };
    }

    macro_rules! black {
        ($shape:expr, $details:expr) => {
            concat!(
                r##"<g fill="#1f1f1f" stroke="#000" stroke-width="3" stroke-linejoin="round" stroke-linecap="round">"##,
                $shape,
                r##"<g fill="none" stroke="#e8e8e8" stroke-width="2.5">"##,
                $details,
                "</g></g>"
            )
        };
    }

    macro_rules! base {
        () => {
            r#"<rect x="24" y="80" width="52" height="9" rx="3"/>"#
        };
    }

    macro_rules! king {
        () => {
            concat!(
                base!(),
                r#"<path d="M46 10H54V18H62V26H54V36H46V26H38V18H46Z"/>"#,
                r#"<path d="M44 58C43 48 46 41 50 36C54 41 57 48 56 58Z"/>"#,
                r#"<path d="M31 80C18 64 20 46 35 45C43 45 48 51 50 57C52 51 57 45 65 45C80 46 82 64 69 80Z"/>"#
            )
        };
    }
    macro_rules! king_details {
        () => {
            r#"<path d="M31 71Q50 64 69 71"/><path d="M50 57V70"/>"#
        };
    }

    macro_rules! queen {
        () => {
            concat!(
                base!(),
                r#"<path d="M30 80L19 37L32 57L35 28L43 53L50 23L57 53L65 28L68 57L81 37L70 80Z"/>"#,
                r#"<circle cx="19" cy="33" r="5"/><circle cx="35" cy="24" r="5"/><circle cx="50" cy="18" r="5"/><circle cx="65" cy="24" r="5"/><circle cx="81" cy="33" r="5"/>"#
            )
        };
    }
    macro_rules! queen_details {
        () => {
            r#"<path d="M30 71Q50 64 70 71"/>"#
        };
    }

    macro_rules! rook {
        () => {
            concat!(
                base!(),
                r#"<rect x="29" y="72" width="42" height="8"/>"#,
                r#"<path d="M27 15H37V23H45V15H55V23H63V15H73V33L66 40L68 72H32L34 40L27 33Z"/>"#
            )
        };
    }
    macro_rules! rook_details {
        () => {
            r#"<path d="M34 40H66M28 33H72"/>"#
        };
    }

    macro_rules! bishop {
        () => {
            concat!(
                base!(),
                r#"<path d="M34 80Q40 73 40 67H60Q60 73 66 80Z"/>"#,
                r#"<rect x="34" y="61" width="32" height="7" rx="3"/>"#,
                r#"<path d="M50 19C67 31 72 47 62 61H38C28 47 33 31 50 19Z"/>"#,
                r#"<circle cx="50" cy="14" r="5"/>"#
            )
        };
    }
    macro_rules! bishop_details {
        () => {
            r#"<path d="M50 32V50M42 41H58"/>"#
        };
    }

    macro_rules! knight {
        () => {
            concat!(
                base!(),
                r#"<path d="M31 80C29 70 34 64 41 58C46 54 48 50 47 46C42 52 36 54 29 58L25 62C20 63 16 59 18 54L26 40C30 32 36 26 43 22L46 11L52 20C66 24 76 38 77 54C78 64 75 72 73 80Z"/>"#
            )
        };
    }
    macro_rules! knight_details {
        () => {
            r#"<circle cx="39" cy="33" r="2.5"/><path d="M56 24C67 34 71 50 68 72"/><path d="M24 52L28 50"/>"#
        };
    }

    macro_rules! pawn {
        () => {
            concat!(
                base!(),
                r#"<path d="M42 49C42 62 37 70 30 80H70C63 70 58 62 58 49Z"/>"#,
                r#"<ellipse cx="50" cy="48" rx="13" ry="4.5"/>"#,
                r#"<circle cx="50" cy="32" r="12"/>"#
            )
        };
    }
    macro_rules! pawn_details {
        () => {
            ""
        };
    }

    pub const WHITE_KING: &str = white!(king!(), king_details!());
    pub const WHITE_QUEEN: &str = white!(queen!(), queen_details!());
    pub const WHITE_ROOK: &str = white!(rook!(), rook_details!());
    pub const WHITE_BISHOP: &str = white!(bishop!(), bishop_details!());
    pub const WHITE_KNIGHT: &str = white!(knight!(), knight_details!());
    pub const WHITE_PAWN: &str = white!(pawn!(), pawn_details!());
    pub const BLACK_KING: &str = black!(king!(), king_details!());
    pub const BLACK_QUEEN: &str = black!(queen!(), queen_details!());
    pub const BLACK_ROOK: &str = black!(rook!(), rook_details!());
    pub const BLACK_BISHOP: &str = black!(bishop!(), bishop_details!());
    pub const BLACK_KNIGHT: &str = black!(knight!(), knight_details!());
    pub const BLACK_PAWN: &str = black!(pawn!(), pawn_details!());
}
