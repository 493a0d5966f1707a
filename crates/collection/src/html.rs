//! `notate html`: one self-contained page (inline CSS, JavaScript and SVG) that lists the
//! games of its inputs and shows the one picked on a board, with its moves, comments,
//! glyphs and nested variations, and the FEN of the position shown.
//!
//! The page knows no rules: Rust plays every move, and each game goes into the page as a
//! compact description that the page's script expands only when the game is opened (a
//! `<script type="application/json">` element per game, its text parsed then). Each move
//! carries its text, glyphs, comments and variations, and what the board needs after it:
//! the cells that changed and their new piece ([`Snapshot::cells`]: one character per
//! cell), and the FEN's other fields (the side to move, castling, …) where they differ
//! from a guess made from the move before ([`predict`]: the turn passes; in chess, no en
//! passant square, one more half-move, one more move number after Black's move). The FEN
//! is rebuilt from the cells and the fields ([`fen_of`]), as the script rebuilds it; a
//! position whose FEN is not rebuilt so carries it whole.
//!
//! The board of each game type used (its cells, their names, which are dark, the piece
//! symbols) is described once, after the games ([`Board`]); the pieces are the symbols of
//! `pgn::svg` and `pdn::svg`, defined once in the page and placed with `<use>`.
//!
//! Workers build each game's description ([`HtmlTask`]); the [`Emitter`] writes them in
//! input order, then the list of games, the boards and the script ([`Emitter::finish`]).
//! A game with an error is listed with its moves up to the error, its unread text and its
//! diagnostics.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::io::{self, Write};

use notation::{Diagnostic, GameReader, KeepRaw, LineId, Player, ReadOptions, Severity};

use crate::escape::{html_text, script_string, script_strings};
use crate::input::Placed;
use crate::job::{Ended, Job, Stopped, with_rules};
use crate::mainline::apply_setup;
use crate::pipeline;
use crate::pipeline::{Input, OncePerInput, Origin, Task};
use crate::rules::FormatRules;

/// The page up to the symbols' definitions: the head, the style, the viewer's markup.
const PAGE: &str = include_str!("html/page.html");
/// The style sheet.
const STYLE: &str = include_str!("html/style.css");
/// The list of games, which opens them in the viewer ([`VIEWER_SCRIPT`]).
const LIST_SCRIPT: &str = include_str!("html/list.js");

/// The characters that name a cell in a move's changes, by cell index: printable ASCII
/// but the space (which ends the cells), and what HTML or JSON would escape.
const CELL_NAMES: &[u8] =
    b"!#$%()*+,-./0123456789:;=?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[]^_`abcdefghijklmnopqrstuvwxyz{|}~";

/// What `html` needs of a game's rules beyond [`FormatRules`]: a position as the page
/// holds it.
pub trait Snapshots: FormatRules {
    /// A position as the page holds it (its board, its cells, its FEN), when the rules
    /// know positions (the default: they do not).
    fn snapshot(&self, position: &Self::Position) -> Option<Snapshot> {
        let _ = position;
        None
    }
}

impl Snapshots for pgn::ChessRules {
    fn snapshot(&self, position: &pgn::Position) -> Option<Snapshot> {
        Some(Snapshot::chess(position))
    }
}

impl Snapshots for pdn::DraughtsRules {
    fn snapshot(&self, board: &pdn::PdnPosition) -> Option<Snapshot> {
        Some(Snapshot::draughts(board.position()))
    }
}

impl Snapshots for notation::RawRules {}

/// The board a position is drawn on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Board {
    /// The chess board: cells a8 to h8, a7 to h7, …, a1 to h1, as a FEN lists them.
    Chess,
    /// A draughts game type's board: its playing squares in the geometry's order.
    Draughts(pdn::GameType),
}

/// A position as the page holds it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Snapshot {
    /// The board.
    pub board: Board,
    /// One character per cell of the board, in its order: `.` for an empty cell, else
    /// the piece (chess: FEN letters; draughts: `w`, `b` men, `W`, `B` kings).
    pub cells: String,
    /// The position's FEN, as `notate show` prints it.
    pub fen: String,
}

impl Snapshot {
    /// A chess position.
    pub fn chess(position: &pgn::Position) -> Snapshot {
        let mut cells = String::with_capacity(64);
        for rank in pgn::Rank::ALL.iter().rev() {
            for file in pgn::File::ALL {
                let square = pgn::Square::from_coords(file, *rank);
                cells.push(position.piece_at(square).map_or('.', |p| p.char()));
            }
        }
        Snapshot {
            board: Board::Chess,
            cells,
            fen: position.to_fen(),
        }
    }

    /// A draughts position.
    pub fn draughts(position: &pdn::Position) -> Snapshot {
        let g = position.geometry();
        let cells = g
            .squares()
            .map(|square| match position.piece_at(square) {
                None => '.',
                Some(piece) => draughts_char(piece),
            })
            .collect();
        Snapshot {
            board: Board::Draughts(position.game_type()),
            cells,
            fen: position.to_fen(),
        }
    }

    /// The FEN's fields beyond the pieces: chess, those after the placement; draughts,
    /// the side to move.
    pub fn fields(&self) -> Vec<&str> {
        match self.board {
            Board::Chess => self.fen.split(' ').skip(1).collect(),
            Board::Draughts(_) => vec![self.fen.split(':').next().unwrap_or("")],
        }
    }
}

/// A draughts piece's character in [`Snapshot::cells`].
fn draughts_char(piece: pdn::Piece) -> char {
    match (piece.color, piece.role) {
        (pdn::Color::White, pdn::Role::Man) => 'w',
        (pdn::Color::White, pdn::Role::King) => 'W',
        (pdn::Color::Black, pdn::Role::Man) => 'b',
        (pdn::Color::Black, pdn::Role::King) => 'B',
    }
}

/// What the page knows of a board: its grid, its cells and their names, how a FEN lists
/// them, the pieces' symbols.
#[derive(Clone, Debug)]
pub struct Layout {
    /// Columns of the grid.
    pub columns: u8,
    /// Rows of the grid.
    pub rows: u8,
    /// Each cell's column and row (from the bottom left, unflipped) and name (empty for
    /// chess, whose cells are not labelled).
    pub cells: Vec<(u8, u8, String)>,
    /// The cells in the order a FEN lists their pieces (draughts).
    pub order: Vec<usize>,
    /// Whether the grid's cells are dark, row by row from the bottom.
    pub dark: Vec<bool>,
    /// The turns' names, the first player's first.
    pub turns: [&'static str; 2],
    /// The name of the game type.
    pub name: String,
}

impl Board {
    /// The board's layout.
    pub fn layout(&self) -> Layout {
        match *self {
            Board::Chess => {
                let mut cells = Vec::with_capacity(64);
                for rank in (0..8).rev() {
                    for file in 0..8 {
                        cells.push((file, rank, String::new()));
                    }
                }
                let diagram = pgn::svg::Picture::new(&pgn::Position::new())
                    .diagram(&pgn::svg::Options::default());
                Layout {
                    columns: 8,
                    rows: 8,
                    cells,
                    order: (0..64).collect(),
                    dark: shades(&diagram),
                    turns: ["w", "b"],
                    name: "chess".to_owned(),
                }
            }
            Board::Draughts(game_type) => {
                let g = game_type.geometry();
                let cells: Vec<(u8, u8, String)> = g
                    .squares()
                    .map(|square| {
                        let (x, y) = g.coords(square);
                        (x, y, g.name(square).to_string())
                    })
                    .collect();
                let squares: Vec<pdn::Square> = g.squares().collect();
                let mut order: Vec<usize> = (0..cells.len()).collect();
                if g.notation().kind != pdn::NotationKind::Alphanumeric {
                    order.sort_by_key(|&i| squares.get(i).map(|&sq| g.number(sq)));
                }
                let start = pdn::Position::start(game_type);
                let diagram = pdn::svg::Picture::new(&start).diagram(&pdn::svg::Options::default());
                Layout {
                    columns: g.width(),
                    rows: g.height(),
                    cells,
                    order,
                    dark: shades(&diagram),
                    turns: ["W", "B"],
                    name: format!("{} draughts", game_type.variant().name()),
                }
            }
        }
    }

    /// The prefix of the ids of the board's piece symbols in the page.
    fn symbols(&self) -> &'static str {
        match self {
            Board::Chess => "c-",
            Board::Draughts(_) => "d-",
        }
    }
}

/// Whether each cell of a diagram is dark, row by row from the bottom.
fn shades(d: &diagram::Diagram) -> Vec<bool> {
    (0..d.rows())
        .flat_map(|row| (0..d.columns()).map(move |column| diagram::Cell::new(column, row)))
        .map(|cell| d.shade_of(cell).is_dark())
        .collect()
}

/// The FEN of a position from its cells and its fields, as the page's script rebuilds it
/// (`fenOf` in `viewer.js`).
pub fn fen_of(board: &Board, layout: &Layout, cells: &str, fields: &[&str]) -> String {
    let cells = cells.as_bytes();
    let mut fen = String::with_capacity(90);
    match board {
        Board::Chess => {
            let columns = usize::from(layout.columns.max(1));
            for (r, row) in cells.chunks(columns).enumerate() {
                if r > 0 {
                    fen.push('/');
                }
                let mut empty = 0;
                for &c in row {
                    if c == b'.' {
                        empty += 1;
                    } else {
                        if empty > 0 {
                            let _ = write!(fen, "{empty}");
                            empty = 0;
                        }
                        fen.push(char::from(c));
                    }
                }
                if empty > 0 {
                    let _ = write!(fen, "{empty}");
                }
            }
            for field in fields {
                fen.push(' ');
                fen.push_str(field);
            }
        }
        Board::Draughts(_) => {
            fen.push_str(fields.first().copied().unwrap_or(""));
            for (colour, man, king) in [('W', b'w', b'W'), ('B', b'b', b'B')] {
                fen.push(':');
                fen.push(colour);
                let mut first = true;
                for (piece, prefix) in [(man, ""), (king, "K")] {
                    for &i in &layout.order {
                        if cells.get(i) == Some(&piece) {
                            if !first {
                                fen.push(',');
                            }
                            first = false;
                            fen.push_str(prefix);
                            if let Some((_, _, name)) = layout.cells.get(i) {
                                fen.push_str(name);
                            }
                        }
                    }
                }
            }
        }
    }
    fen
}

/// The FEN's fields after a move, as guessed from those before it (`predict` in
/// `viewer.js`): the turn passes; in chess, no en passant square, one more half-move,
/// and one more move number after Black's move. A move stores the fields that differ.
pub fn predict(board: &Board, layout: &Layout, before: &[&str]) -> Vec<String> {
    let mut fields: Vec<String> = before.iter().map(|&f| f.to_owned()).collect();
    if let Some(turn) = fields.first_mut() {
        if turn == layout.turns[0] {
            *turn = layout.turns[1].to_owned();
        } else if turn == layout.turns[1] {
            *turn = layout.turns[0].to_owned();
        }
    }
    if *board == Board::Chess && fields.len() == 5 {
        fields[2] = "-".to_owned();
        if let Some(n) = counter(&fields[3]) {
            fields[3] = (n + 1).to_string();
        }
        if before.first() == Some(&"b")
            && let Some(n) = counter(&fields[4])
        {
            fields[4] = (n + 1).to_string();
        }
    }
    fields
}

/// A FEN counter of at most nine digits.
fn counter(s: &str) -> Option<u32> {
    if s.is_empty() || s.len() > 9 || !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

/// The layouts of the boards met so far, each made once.
#[derive(Default)]
pub struct Layouts {
    made: HashMap<Board, Layout>,
    /// Positions described after a move, and those of them given as a whole FEN.
    counts: (u64, u64),
}

impl Layouts {
    /// The layout of a board.
    pub fn get(&mut self, board: Board) -> &Layout {
        self.made.entry(board).or_insert_with(|| board.layout())
    }
}

/// What the page holds of the position shown: its cells and its FEN's fields, as the
/// script computes them from a move's changes.
#[derive(Clone, Debug)]
struct Shown {
    /// The game's board, which the page draws on.
    board: Board,
    cells: String,
    fields: Vec<String>,
}

impl Shown {
    fn new(snapshot: &Snapshot) -> Shown {
        Shown {
            board: snapshot.board,
            cells: snapshot.cells.clone(),
            fields: snapshot.fields().into_iter().map(str::to_owned).collect(),
        }
    }
}

/// Writes what a position changed from the one shown before it (the cells, then the
/// fields that differ from the guess) and updates `shown` as the script will; gives the
/// whole FEN when it is not rebuilt from them (a position of another board than the
/// game's: the readings of a draughts game whose type is inferred may differ).
fn changes(
    layouts: &mut Layouts,
    shown: &mut Shown,
    after: &Snapshot,
    out: &mut String,
) -> Option<String> {
    layouts.counts.0 += 1;
    if shown.cells.len() == after.cells.len() && after.cells.len() <= CELL_NAMES.len() {
        for (i, (a, b)) in shown.cells.bytes().zip(after.cells.bytes()).enumerate() {
            if a != b {
                out.push(char::from(CELL_NAMES[i]));
                out.push(char::from(b));
            }
        }
        shown.cells.clone_from(&after.cells);
    }
    let layout = layouts.get(shown.board);
    let before: Vec<&str> = shown.fields.iter().map(String::as_str).collect();
    let guess = predict(&shown.board, layout, &before);
    let fields = after.fields();
    let writable = |f: &str| {
        !f.is_empty()
            && !f.contains([' ', '"', '\\', '<', '>', '&'])
            && !f.chars().any(char::is_control)
    };
    let exact = after.board == shown.board
        && shown.cells == after.cells
        && guess.len() == fields.len()
        && fields.len() <= 10
        && guess
            .iter()
            .zip(&fields)
            .all(|(g, f)| g == f || writable(f));
    if exact {
        for (i, (g, f)) in guess.iter().zip(&fields).enumerate() {
            if g != f {
                let _ = write!(out, " {i}{f}");
            }
        }
        shown.fields = fields.iter().map(|&f| f.to_owned()).collect();
        if fen_of(&shown.board, layout, &shown.cells, &fields) == after.fen {
            return None;
        }
    } else {
        shown.fields = guess;
    }
    layouts.counts.1 += 1;
    Some(after.fen.clone())
}

/// One game's part of the page, less its board's number and its diagnostics.
pub struct Item {
    /// The 0-based index of the game in its chunk.
    pub index: u64,
    /// The board of its start (none when it has none).
    pub board: Option<Board>,
    /// The game's JSON fields after `{"b":N,`, with a comma after.
    pub body: String,
    /// Its row in the list, less its file, number and board: the tags shown, the plies.
    pub row: String,
    /// The game's diagnostics (or those outside any game, with an empty body).
    pub diagnostics: Vec<Diagnostic>,
}

/// Reads games and describes each for the page.
pub struct HtmlTask<'r, G> {
    /// The rules.
    pub rules: &'r G,
    /// How to read.
    pub options: ReadOptions,
}

impl<G: Snapshots> Task for HtmlTask<'_, G> {
    type Item = Item;

    fn run(
        &self,
        mut input: Input<'_>,
        origin: Origin,
        sink: &mut dyn FnMut(Self::Item) -> io::Result<()>,
    ) -> io::Result<u64> {
        let reader = input.reader(self.rules.dialect(), self.options);
        let mut reader = GameReader::from_reader(self.rules, reader).keep_raw(KeepRaw::Never);
        let mut layouts = Layouts::default();
        let mut games = 0;
        while let Some(mut game) = reader.read_game()? {
            games += 1;
            for d in &mut game.diagnostics {
                origin.place(d);
            }
            let mut body = String::with_capacity(1024);
            let (board, plies) = write_game(self.rules, &game.game, &mut layouts, &mut body);
            let mut row = String::with_capacity(128);
            for tag in ["White", "Black", "Event", "Date", "Site", "Round"] {
                script_string(game.game.tags.get(tag).unwrap_or(""), &mut row);
                row.push(',');
            }
            script_string(game.game.result.as_str(), &mut row);
            let _ = write!(row, ",{plies}");
            sink(Item {
                index: game.index,
                board,
                body,
                row,
                diagnostics: game.diagnostics,
            })?;
        }
        let orphans = reader.take_orphans();
        let buffer = reader.into_reader().into_vec();
        input.give_back(buffer);
        if !orphans.is_empty() {
            sink(Item {
                index: games,
                board: None,
                body: String::new(),
                row: String::new(),
                diagnostics: orphans
                    .into_iter()
                    .map(|mut d| {
                        origin.place(&mut d);
                        d
                    })
                    .collect(),
            })?;
        }
        Ok(games)
    }
}

/// One line being written: where it is, the position before its next move and what the
/// page shows there.
struct Frame<P> {
    line: LineId,
    next: usize,
    before: P,
    shown: Option<Shown>,
    /// While the variations of the move at `next` are written: the next one to write, and
    /// the position after the move and what the page shows there.
    variation: Option<(usize, P, Option<Shown>)>,
}

/// Writes a game's fields (`"s"` its start's cells, `"f"` its fields, `"F"` its FEN when
/// not rebuilt so, `"n"` the move number and side to move at the start, `"c"` the main
/// line's comments, `"m"` the main line, `"u"` the unread movetext), each with a comma
/// after. Returns the board of its start and the plies of its main line.
pub fn write_game<G: Snapshots>(
    rules: &G,
    game: &notation::GameTree<G::Move>,
    layouts: &mut Layouts,
    out: &mut String,
) -> (Option<Board>, usize) {
    let plies = game.mainline().count();
    let start = rules
        .start(game)
        .map(|start| apply_setup(rules, start, game.line(LineId::MAIN).setup.as_deref()));
    let snapshot = start.as_ref().and_then(|p| rules.snapshot(p));
    let board = snapshot.as_ref().map(|s| s.board);
    if let (Some(start), Some(snap)) = (&start, &snapshot) {
        out.push_str("\"s\":");
        script_string(&snap.cells, out);
        out.push_str(",\"f\":[");
        let fields = snap.fields();
        for (i, f) in fields.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            script_string(f, out);
        }
        out.push_str("],");
        let layout = layouts.get(snap.board);
        if fen_of(&snap.board, layout, &snap.cells, &fields) != snap.fen {
            out.push_str("\"F\":");
            script_string(&snap.fen, out);
            out.push(',');
        }
        let second = rules.turn(start) == Player::Second;
        let _ = write!(
            out,
            "\"n\":[{},{}],",
            rules.move_number(start),
            u8::from(second)
        );
    }
    out.push_str("\"c\":");
    script_strings(&game.line(LineId::MAIN).comments, out);
    out.push_str(",\"m\":");
    match start {
        Some(start) => lines(
            rules,
            game,
            start,
            snapshot.as_ref().map(Shown::new),
            layouts,
            out,
        ),
        None => out.push_str("[]"),
    }
    out.push_str(",\"u\":");
    match &game.tail {
        Some(tail) => script_string(&tail.text, out),
        None => out.push_str("null"),
    }
    out.push(',');
    (board, plies)
}

/// Writes the main line with every variation nested, depth first, with an explicit
/// stack: a line is an array of moves, a move `[text, changes, glyphs, comments,
/// comments before it (a variation's first move), FEN, variation…]`, its trailing zeros
/// left out when it has no variations.
fn lines<G: Snapshots>(
    rules: &G,
    game: &notation::GameTree<G::Move>,
    start: G::Position,
    shown: Option<Shown>,
    layouts: &mut Layouts,
    out: &mut String,
) {
    out.push('[');
    let mut stack = vec![Frame {
        line: LineId::MAIN,
        next: 0,
        before: start,
        shown,
        variation: None,
    }];
    while let Some(frame) = stack.last_mut() {
        let moves = &game.line(frame.line).moves;
        let Some(&id) = moves.get(frame.next) else {
            out.push(']');
            stack.pop();
            continue;
        };
        let node = game.node(id);
        match frame.variation.take() {
            None => {
                if frame.next > 0 {
                    out.push(',');
                }
                out.push('[');
                script_string(&rules.move_text(&frame.before, &node.mv), out);
                let mut after = frame.before.clone();
                rules.play(&mut after, &node.mv);
                if let Some(text) = &node.setup
                    && let Ok(setup) = rules.inline_setup(&after, text)
                {
                    after = setup.position;
                }
                let mut diff = String::new();
                let mut shown = frame.shown.clone();
                let fen = match (rules.snapshot(&after), &mut shown) {
                    (Some(snap), Some(shown)) => changes(layouts, shown, &snap, &mut diff),
                    (Some(snap), None) => Some(snap.fen),
                    (None, _) => None,
                };
                out.push(',');
                script_string(&diff, out);
                let before_comments = if frame.next == 0 && frame.line != LineId::MAIN {
                    game.line(frame.line).comments.as_slice()
                } else {
                    &[]
                };
                // The optional fields, zeros where absent; trailing zeros are left out
                // unless variations follow.
                let mut optional = String::new();
                let mut kept = 0;
                if !node.nags.is_empty() {
                    optional.push('[');
                    for (i, nag) in node.nags.iter().enumerate() {
                        if i > 0 {
                            optional.push(',');
                        }
                        let _ = write!(optional, "{}", nag.0);
                    }
                    optional.push(']');
                    kept = optional.len();
                } else {
                    optional.push('0');
                }
                optional.push(',');
                if !node.comments.is_empty() {
                    script_strings(&node.comments, &mut optional);
                    kept = optional.len();
                } else {
                    optional.push('0');
                }
                optional.push(',');
                if !before_comments.is_empty() {
                    script_strings(before_comments, &mut optional);
                    kept = optional.len();
                } else {
                    optional.push('0');
                }
                optional.push(',');
                if let Some(fen) = &fen {
                    script_string(fen, &mut optional);
                    kept = optional.len();
                } else {
                    optional.push('0');
                }
                if node.variations.is_empty() {
                    optional.truncate(kept);
                }
                if !optional.is_empty() {
                    out.push(',');
                    out.push_str(&optional);
                }
                frame.variation = Some((0, after, shown));
            }
            Some((k, after, shown_after)) => match node.variations.get(k) {
                Some(&line) => {
                    let before = apply_setup(
                        rules,
                        frame.before.clone(),
                        game.line(line).setup.as_deref(),
                    );
                    // A set-up at a variation's start: the page is told its position as
                    // its first move's changes from the position it varies from.
                    let shown = frame.shown.clone();
                    frame.variation = Some((k + 1, after, shown_after));
                    out.push_str(",[");
                    stack.push(Frame {
                        line,
                        next: 0,
                        before,
                        shown,
                        variation: None,
                    });
                }
                None => {
                    out.push(']');
                    frame.before = after;
                    frame.shown = shown_after;
                    frame.next += 1;
                }
            },
        }
    }
}

/// The emitter: each game's description in input order, then the list, the boards and
/// the script.
pub struct Emitter<'o> {
    /// Where the page goes.
    pub out: &'o mut dyn Write,
    /// The list of games so far, as JSON rows (with a comma before each but the first).
    rows: String,
    /// The boards met, in the order met; a game names its board by its place here.
    boards: Vec<Board>,
    /// The inputs' names, as JSON strings.
    files: Vec<String>,
    /// Games written.
    pub games: u64,
    /// Games with errors.
    pub errors: u64,
    /// Notes already given for this input.
    once: OncePerInput,
    /// The current input's name.
    name: String,
    /// Whether the current input is a table, its diagnostics placed by row.
    by_row: bool,
}

impl<'o> Emitter<'o> {
    /// Writes the page's beginning: its head, style, markup and the pieces' symbols.
    ///
    /// # Errors
    ///
    /// Those of `out`.
    pub fn start(out: &'o mut dyn Write, title: &str) -> io::Result<Emitter<'o>> {
        let (head, body) = PAGE.split_once("<!--STYLE-->").unwrap_or((PAGE, ""));
        let mut escaped = String::new();
        html_text(title, &mut escaped);
        out.write_all(head.replace("<!--TITLE-->", &escaped).as_bytes())?;
        out.write_all(style_element(STYLE).as_bytes())?;
        out.write_all(body.replace("<!--VIEWER-->", VIEWER_MARKUP).as_bytes())?;
        out.write_all(symbol_definitions().as_bytes())?;
        Ok(Emitter {
            out,
            rows: String::new(),
            boards: Vec::new(),
            files: Vec::new(),
            games: 0,
            errors: 0,
            once: OncePerInput::default(),
            name: String::new(),
            by_row: false,
        })
    }

    /// Starts the games of another input.
    pub fn input(&mut self, input: Placed<'_>) {
        let mut file = String::new();
        script_string(input.name, &mut file);
        self.files.push(file);
        self.name = input.name.to_owned();
        self.by_row = input.rows;
        self.once = OncePerInput::default();
    }

    /// Writes one item, its game renumbered by `offset`; diagnostics outside any game go
    /// to `warn`.
    ///
    /// # Errors
    ///
    /// Those of the output.
    pub fn emit(
        &mut self,
        mut item: Item,
        offset: u64,
        warn: &mut dyn FnMut(String),
    ) -> io::Result<()> {
        item.diagnostics.retain(|d| self.once.keep(d));
        if item.body.is_empty() {
            for d in &item.diagnostics {
                warn(
                    Placed {
                        name: &self.name,
                        rows: self.by_row,
                    }
                    .diagnostic(d),
                );
            }
            return Ok(());
        }
        let board = match item.board {
            Some(board) => match self.boards.iter().position(|&b| b == board) {
                Some(i) => i as i64,
                None => {
                    self.boards.push(board);
                    self.boards.len() as i64 - 1
                }
            },
            None => -1,
        };
        let errors = item
            .diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .count();
        if errors > 0 {
            self.errors += 1;
        }
        let mut text = String::with_capacity(item.body.len() + 64);
        let _ = write!(
            text,
            "<script type=\"application/json\" id=\"g{}\">{{\"b\":{board},",
            self.games
        );
        text.push_str(&item.body);
        write_diagnostics(&item.diagnostics, &mut text);
        text.push_str("}</script>\n");
        self.out.write_all(text.as_bytes())?;
        if self.games > 0 {
            self.rows.push_str(",\n");
        }
        let _ = write!(
            self.rows,
            "[{},{},{board},{},{errors}]",
            self.files.len().saturating_sub(1),
            item.index + offset + 1,
            item.row
        );
        self.games += 1;
        Ok(())
    }

    /// Writes the list of games, the boards, the inputs' names and the script: the end
    /// of the page.
    ///
    /// # Errors
    ///
    /// Those of the output.
    pub fn finish(self) -> io::Result<()> {
        let mut text = String::with_capacity(self.rows.len() + 4096);
        text.push_str("<script type=\"application/json\" id=\"games\">[");
        text.push_str(&self.rows);
        text.push_str("]</script>\n<script type=\"application/json\" id=\"files\">[");
        text.push_str(&self.files.join(","));
        text.push_str("]</script>\n<script type=\"application/json\" id=\"boards\">[");
        for (i, board) in self.boards.iter().enumerate() {
            if i > 0 {
                text.push(',');
            }
            write_layout(board, &board.layout(), &mut text);
        }
        text.push_str("]</script>\n<script>\n");
        text.push_str(VIEWER_SCRIPT);
        text.push_str(LIST_SCRIPT);
        text.push_str("</script>\n</body>\n</html>\n");
        self.out.write_all(text.as_bytes())
    }
}

/// A `<style>` element: the board's colours, then `css`.
pub fn style_element(css: &str) -> String {
    let theme = diagram::Theme::WOOD;
    format!(
        "<style>\n:root{{--light:{};--dark:{};--label-light:{};--label-dark:{}}}\n{css}</style>",
        theme.light, theme.dark, theme.text_on_light, theme.text_on_dark
    )
}

/// The viewer's markup: the title, the board (with the evaluation over it), the buttons
/// that step and flip, the FEN; a page puts it where its `<!--VIEWER-->` is, with a
/// `#moves` and a `#problems` element elsewhere.
pub const VIEWER_MARKUP: &str = include_str!("html/viewer.html");

/// The style sheet of the viewer (its board, moves and controls).
pub const VIEWER_STYLE: &str = STYLE;

/// The viewer's script: it shows a game that a page hands it (`NotateViewer.load`), on a
/// board and as moves; `notate html`'s list of games is another script after it.
pub const VIEWER_SCRIPT: &str = include_str!("html/viewer.js");

/// The pieces' symbols, defined once in a hidden `<svg>` and placed with `<use>`.
pub fn symbol_definitions() -> String {
    let mut defs =
        String::from("<svg class=\"defs\" width=\"0\" height=\"0\" aria-hidden=\"true\"><defs>\n");
    for color in [pgn::Color::White, pgn::Color::Black] {
        for role in [
            pgn::Role::King,
            pgn::Role::Queen,
            pgn::Role::Rook,
            pgn::Role::Bishop,
            pgn::Role::Knight,
            pgn::Role::Pawn,
        ] {
            let symbol = pgn::svg::symbol(color, role);
            let _ = writeln!(defs, "<g id=\"c-{}\">{}</g>", symbol.id, symbol.body);
        }
    }
    for color in pdn::Color::ALL {
        for role in [pdn::Role::Man, pdn::Role::King] {
            let symbol = pdn::svg::symbol(color, role);
            let _ = writeln!(defs, "<g id=\"d-{}\">{}</g>", symbol.id, symbol.body);
        }
    }
    defs.push_str("</defs></svg>\n");
    defs
}

/// A game's diagnostics as the page reads them: `"d":[[line, column, severity,
/// message]…]`.
fn write_diagnostics(diagnostics: &[Diagnostic], out: &mut String) {
    out.push_str("\"d\":[");
    for (i, d) in diagnostics.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        let _ = write!(
            out,
            "[{},{},\"{}\",",
            d.location.line,
            d.location.column,
            match d.severity {
                Severity::Warning => "warning",
                Severity::Error => "error",
            }
        );
        script_string(&d.kind.to_string(), out);
        out.push(']');
    }
    out.push(']');
}

/// One game as a viewer that loads games one at a time takes it (`notate serve`'s page):
/// `{"game":{…},"board":{…}}`, the game as `notate html` writes each (its board numbered
/// 0, or -1 when it has none) and its board's layout (`null` when none).
pub fn game_view<G: Snapshots>(
    rules: &G,
    game: &notation::GameTree<G::Move>,
    diagnostics: &[Diagnostic],
) -> String {
    let mut layouts = Layouts::default();
    let mut body = String::with_capacity(1024);
    let (board, _) = write_game(rules, game, &mut layouts, &mut body);
    let mut out = String::with_capacity(body.len() + 4096);
    let _ = write!(
        out,
        "{{\"game\":{{\"b\":{},",
        if board.is_some() { 0 } else { -1 }
    );
    out.push_str(&body);
    write_diagnostics(diagnostics, &mut out);
    out.push_str("},\"board\":");
    match board {
        Some(board) => write_layout(&board, layouts.get(board), &mut out),
        None => out.push_str("null"),
    }
    out.push('}');
    out
}

/// The cell of the board's layout that a draughts square is.
pub fn draughts_cell(game_type: pdn::GameType, square: pdn::Square) -> Option<usize> {
    game_type.geometry().squares().position(|s| s == square)
}

/// A board's layout as the page reads it.
fn write_layout(board: &Board, layout: &Layout, out: &mut String) {
    out.push_str("{\"name\":");
    script_string(&layout.name, out);
    let kind = match board {
        Board::Chess => "chess",
        Board::Draughts(_) => "draughts",
    };
    let _ = write!(
        out,
        ",\"fen\":\"{kind}\",\"columns\":{},\"rows\":{},\"turns\":[\"{}\",\"{}\"],\"names\":\"",
        layout.columns, layout.rows, layout.turns[0], layout.turns[1]
    );
    out.push_str(std::str::from_utf8(CELL_NAMES).unwrap_or(""));
    out.push_str("\",\"cells\":[");
    for (i, (x, y, name)) in layout.cells.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        let _ = write!(out, "[{x},{y},");
        script_string(name, out);
        out.push(']');
    }
    out.push_str("],\"order\":[");
    for (i, o) in layout.order.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        let _ = write!(out, "{o}");
    }
    out.push_str("],\"dark\":\"");
    for &dark in &layout.dark {
        out.push(if dark { '1' } else { '0' });
    }
    out.push_str("\",\"pieces\":{");
    let pieces: &[(char, &str)] = match board {
        Board::Chess => &[
            ('K', "white-king"),
            ('Q', "white-queen"),
            ('R', "white-rook"),
            ('B', "white-bishop"),
            ('N', "white-knight"),
            ('P', "white-pawn"),
            ('k', "black-king"),
            ('q', "black-queen"),
            ('r', "black-rook"),
            ('b', "black-bishop"),
            ('n', "black-knight"),
            ('p', "black-pawn"),
        ],
        Board::Draughts(_) => &[
            ('w', "white-man"),
            ('W', "white-king"),
            ('b', "black-man"),
            ('B', "black-king"),
        ],
    };
    for (i, (c, id)) in pieces.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        let _ = write!(out, "\"{c}\":\"{}{id}\"", board.symbols());
    }
    out.push_str("}}");
}

/// `notate html`: writes one page to `out` that lists every game of the job's inputs and
/// shows the one picked on a board. The job's games have errors when one has an error
/// diagnostic.
///
/// # Errors
/// [`Stopped::Failed`] when the page cannot be begun (reported); [`Stopped::Closed`] when
/// whoever reads `out` went away.
pub fn run(job: &mut Job<'_>, options: ReadOptions, out: &mut dyn Write) -> Result<Ended, Stopped> {
    let title = match job.sources.as_slice() {
        [one] => one.name.clone(),
        sources => format!("{} inputs", sources.len()),
    };
    let mut emitter = match Emitter::start(&mut *out, &title) {
        Ok(emitter) => emitter,
        Err(e) => {
            job.write_failed(&e)?;
            return Err(Stopped::Failed);
        }
    };
    job.each(|source, opened, job| {
        emitter.input(source.placed(opened.rows));
        with_rules!(opened.format, job.variant, |rules| {
            let task = HtmlTask { rules, options };
            pipeline::drive(&task, opened, job.jobs, &mut |item, offset| {
                emitter.emit(item, offset, &mut |m| job.report.warning(&m))
            })
        })
    })?;
    let errors = emitter.errors;
    if let Err(e) = emitter.finish() {
        job.write_failed(&e)?;
    }
    job.flush(out)?;
    Ok(job.ended(errors > 0))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Nearly every position of every line of the corpus is rebuilt from its cells and
    /// fields.
    #[test]
    fn fens_are_rebuilt_from_cells_and_fields() {
        let corpus = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../corpus");
        let mut layouts = Layouts::default();
        for (folder, pdn) in [("pgn", false), ("pdn", true)] {
            let mut files: Vec<_> = std::fs::read_dir(corpus.join(folder))
                .expect("the corpus")
                .map(|e| e.expect("an entry").path())
                .collect();
            files.sort();
            for path in files {
                if path.ends_with("variants.pgn") {
                    // Crazyhouse placements carry pockets and promoted marks that the cells
                    // do not: those positions are given whole, rightly.
                    continue;
                }
                let text = std::fs::read(&path).expect("a corpus file");
                let mut out = String::new();
                if pdn {
                    let rules = crate::rules::draughts(None);
                    for game in GameReader::new(&rules, &text[..], ReadOptions::default()) {
                        write_game(&rules, &game.expect("read").game, &mut layouts, &mut out);
                    }
                } else {
                    let rules = crate::rules::chess();
                    for game in GameReader::new(&rules, &text[..], ReadOptions::default()) {
                        write_game(&rules, &game.expect("read").game, &mut layouts, &mut out);
                    }
                }
            }
        }
        let (positions, whole) = layouts.counts;
        // Given whole: the positions of another reading than the start's, in the lenient
        // files' draughts games whose type is inferred.
        assert!(
            positions > 1000 && whole * 100 < positions,
            "{whole} of {positions}"
        );
    }

    #[test]
    fn the_guess_and_the_rebuilt_fen() {
        let board = Board::Chess;
        let layout = board.layout();
        let after = Snapshot::chess(
            &pgn::Position::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1")
                .expect("a FEN"),
        );
        let before = Snapshot::chess(&pgn::Position::new());
        let mut diff = String::new();
        let mut layouts = Layouts::default();
        assert_eq!(
            changes(&mut layouts, &mut Shown::new(&before), &after, &mut diff),
            None
        );
        // e4 (cell 36, from a8) gets a pawn, e2 (cell 52) is emptied; the half-move clock
        // differs from the guess (and no pawn can take en passant: no square in the FEN).
        let name = |i: usize| char::from(CELL_NAMES[i]);
        assert_eq!(diff, format!("{}P{}. 30", name(36), name(52)));
        assert_eq!(
            predict(&board, &layout, &["b", "KQkq", "-", "3", "7"]),
            ["w", "KQkq", "-", "4", "8"]
        );
        let start = Snapshot::draughts(&pdn::Position::new(pdn::Variant::International));
        let layout = start.board.layout();
        assert_eq!(
            fen_of(&start.board, &layout, &start.cells, &start.fields()),
            start.fen
        );
    }

    #[test]
    fn strings_stay_inside_their_script() {
        let mut out = String::new();
        script_string("a</script><!--&\"\\\u{1}", &mut out);
        assert_eq!(
            out,
            "\"a\\u003c/script\\u003e\\u003c!--\\u0026\\\"\\\\\\u0001\""
        );
    }
}
