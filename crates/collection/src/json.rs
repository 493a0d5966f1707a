//! `notate json`: JSON Lines, one object per game.
//!
//! The object is written by hand rather than through a serialisation library: the
//! shape is fixed, strings are the only thing that needs care, and a game with variations
//! nested 100,000 deep must be written with an explicit stack, not by recursion.
//!
//! A worker writes everything after the object's opening `{"file":…,"game":N,`; the
//! emitter, the only one who knows the game's number in its input, writes that prefix.
//! A large game goes to the emitter as its bytes, and the emitter writes all of it straight
//! to the output as it reads it again ([`StreamSink`], [`crate::large`]): the writing
//! functions write to any [`std::fmt::Write`].
//! README.md documents the format.

use std::io::{self, Write};

use notation::{
    Diagnostic, Ended, GameBuilder, GameReader, GameResult, GameSink, GameText, GameTree, KeepRaw,
    LineId, Nag, NodeId, Place, ReadOptions, Reader, Severity,
};
use pgn::openings::{Classifier, Opening};

use crate::escape::{Out, string, strings};
use crate::input::Placed;
use crate::job::{Job, Stopped, with_rules};
use crate::judgement::{self, Accuracy, EvalsAlong};
use crate::large::{IoText, LARGE_GAME_BYTES, is_large, read_tree, try_copy};
use crate::mainline::apply_setup;
use crate::pipeline;
use crate::pipeline::{Input, OncePerInput, Origin, Task};
use crate::rules::FormatRules;

/// What `json` needs of a game's rules beyond [`FormatRules`]: a move's fields.
pub trait JsonMoves: FormatRules {
    /// Appends the JSON fields naming a move played from `position` (no braces, no
    /// trailing comma): `"san":"e4","uci":"e2e4"` for chess, `"move":"32-28"` for
    /// draughts.
    fn move_fields<W: Out>(&self, position: &Self::Position, mv: &Self::Move, out: &mut W);
}

impl JsonMoves for pgn::ChessRules {
    fn move_fields<W: Out>(&self, position: &pgn::Position, mv: &pgn::Move, out: &mut W) {
        out.put("\"san\":");
        string(&position.san(mv).to_string(), out);
        out.put(",\"uci\":");
        let uci = pgn::uci::Uci::from_move(mv, position.castling_mode());
        string(&uci.to_string(), out);
    }
}

impl JsonMoves for pdn::DraughtsRules {
    fn move_fields<W: Out>(&self, board: &pdn::PdnPosition, mv: &pdn::PdnMove, out: &mut W) {
        out.put("\"move\":");
        string(&self.move_text(board, mv), out);
    }
}

impl JsonMoves for notation::RawRules {
    fn move_fields<W: Out>(&self, _: &Self::Position, mv: &Self::Move, out: &mut W) {
        out.put("\"move\":");
        string(&mv.0, out);
    }
}

/// A game's fields after `"game":N,`, up to its diagnostics.
pub enum Body<M> {
    /// Written, with a comma after; empty for diagnostics outside any game.
    Text(String),
    /// A large game, to be written by the emitter straight to the output.
    Game(Box<GameTree<M>>),
    /// A large game read without its tree: its bytes as written, to be read again by the
    /// emitter as it writes them ([`notation::ReadGame::streams`]: whether they can be
    /// written as they are read, else they are read into a tree).
    Large {
        /// The game's text as written.
        text: GameText,
        /// Whether it is written as it is read.
        streams: bool,
    },
}

/// One game's JSON, less its prefix and its diagnostics.
pub struct Item<M> {
    /// The 0-based index of the game in its chunk.
    pub index: u64,
    /// The object's fields after `"game":N,` up to its diagnostics.
    pub body: Body<M>,
    /// The game's diagnostics (or those outside any game), written by the emitter, which
    /// drops the notes that a chunk repeats.
    pub diagnostics: Vec<Diagnostic>,
}

/// Reads games and writes each as JSON.
pub struct JsonTask<'r, G> {
    /// The rules.
    pub rules: &'r G,
    /// How to read.
    pub options: ReadOptions,
}

impl<G: JsonMoves> Task for JsonTask<'_, G>
where
    G::Move: Send,
{
    type Item = Item<G::Move>;

    fn run(
        &self,
        mut input: Input<'_>,
        origin: Origin,
        sink: &mut dyn FnMut(Self::Item) -> io::Result<()>,
    ) -> io::Result<u64> {
        let reader = input.reader(self.rules.dialect(), self.options);
        let mut reader = GameReader::from_reader(self.rules, reader)
            .keep_raw(KeepRaw::Never)
            .large_after(LARGE_GAME_BYTES);
        let mut games = 0;
        while let Some(mut game) = reader.read_game()? {
            games += 1;
            for d in &mut game.diagnostics {
                origin.place(d);
            }
            let body = if !game.built {
                // Read without its tree: the emitter reads it again as it writes it.
                let raw = reader.buffered(game.span).unwrap_or_default();
                match try_copy(raw, game.starts_line) {
                    Some(text) => Body::Large {
                        text,
                        streams: game.streams,
                    },
                    None => {
                        // Said where the game's first diagnostic is (already placed in the
                        // input), if it has one; the game goes out as far as its tags.
                        let kind = notation::DiagnosticKind::TextOutOfMemory {
                            what: "the game's text as written",
                            bytes: raw.len(),
                        };
                        game.diagnostics.push(Diagnostic {
                            severity: Severity::Error,
                            location: game
                                .diagnostics
                                .first()
                                .map(|d| d.location)
                                .unwrap_or_default(),
                            game: game.index,
                            kind,
                        });
                        Body::Game(Box::new(game.game))
                    }
                }
            } else if is_large(game.span) {
                Body::Game(Box::new(game.game))
            } else {
                let mut body = String::with_capacity(1024);
                write_game(self.rules, &game.game, &mut body);
                Body::Text(body)
            };
            sink(Item {
                index: game.index,
                body,
                diagnostics: game.diagnostics,
            })?;
        }
        let mut orphans = reader.take_orphans();
        let buffer = reader.into_reader().into_vec();
        input.give_back(buffer);
        if !orphans.is_empty() {
            for d in &mut orphans {
                origin.place(d);
            }
            sink(Item {
                index: games,
                body: Body::Text(String::new()),
                diagnostics: orphans,
            })?;
        }
        Ok(games)
    }
}

/// Writes a game's fields after `"game":N,`, up to its diagnostics, with a comma after.
pub fn write_game<G: JsonMoves, W: Out>(rules: &G, game: &GameTree<G::Move>, out: &mut W) {
    write_header(rules, game, out);
    let start = rules.start_position(&game.tags).ok().map(|s| s.position);
    out.put(",\"comments\":");
    strings(&game.line(LineId::MAIN).comments, out);
    out.put(",\"mainline\":");
    let accuracy = judgement::of_game(rules, game, || start.clone());
    let end = match start {
        Some(position) => lines(rules, game, position, out),
        None => {
            out.put("[]");
            None
        }
    };
    write_footer(
        rules,
        game.tail.as_ref().map(|tail| tail.text.as_str()),
        game.result,
        end.as_ref(),
        rules.opening(game),
        accuracy,
        out,
    );
}

/// The fields before the main line's comments: `"tags"`, `"variant"`, `"start_fen"`
/// (from the game's tags: its moves are not needed).
fn write_header<G: JsonMoves, W: Out>(rules: &G, game: &GameTree<G::Move>, out: &mut W) {
    out.put("\"tags\":[");
    for (i, tag) in game.tags.iter().enumerate() {
        if i > 0 {
            out.put_char(',');
        }
        out.put_char('[');
        string(&tag.name, out);
        out.put_char(',');
        string(&tag.value, out);
        out.put_char(']');
    }
    out.put("],\"variant\":");
    string(&rules.variant(game), out);
    out.put(",\"start_fen\":");
    fen(rules, rules.start(game).as_ref(), out);
}

/// The fields after the main line, with a comma after: `"unread"`, `"result"`,
/// `"final_fen"`, for rules that name openings `"opening"`, and for rules that judge
/// accuracy `"accuracy"`.
fn write_footer<G: JsonMoves, W: Out>(
    rules: &G,
    tail: Option<&str>,
    result: GameResult,
    end: Option<&G::Position>,
    opening: Option<&Opening>,
    accuracy: Option<Accuracy>,
    out: &mut W,
) {
    out.put(",\"unread\":");
    match tail {
        Some(tail) => string(tail, out),
        None => out.put("null"),
    }
    out.put(",\"result\":");
    string(result.as_str(), out);
    out.put(",\"final_fen\":");
    fen(rules, end, out);
    if rules.names_openings() {
        out.put(",\"opening\":");
        match opening {
            Some(opening) => {
                let _ = write!(out, "{{\"eco\":\"{}\",\"name\":", opening.eco());
                string(opening.name(), out);
                out.put_char('}');
            }
            None => out.put("null"),
        }
    }
    if rules.judges_accuracy() {
        out.put(",\"accuracy\":");
        match accuracy {
            Some(accuracy) => {
                // Whole percents, as lichess gives them.
                let percent = |value: Option<f64>| match value {
                    Some(value) => format!("{}", value.round() as i64),
                    None => "null".to_owned(),
                };
                let _ = write!(
                    out,
                    "{{\"white\":{},\"black\":{}}}",
                    percent(accuracy.white),
                    percent(accuracy.black)
                );
            }
            None => out.put("null"),
        }
    }
    out.put_char(',');
}

/// Appends `"diagnostics":[…]}`: the end of a game's object.
pub fn write_diagnostics<W: Out>(diagnostics: &[Diagnostic], out: &mut W) {
    out.put("\"diagnostics\":[");
    for (i, d) in diagnostics.iter().enumerate() {
        if i > 0 {
            out.put_char(',');
        }
        let _ = write!(
            out,
            "{{\"line\":{},\"column\":{},\"severity\":\"{}\",\"message\":",
            d.location.line,
            d.location.column,
            match d.severity {
                Severity::Warning => "warning",
                Severity::Error => "error",
            }
        );
        string(&d.kind.to_string(), out);
        out.put_char('}');
    }
    out.put("]}");
}

fn fen<G: JsonMoves, W: Out>(rules: &G, position: Option<&G::Position>, out: &mut W) {
    match position.and_then(|p| rules.fen(p)) {
        Some(f) => string(&f, out),
        None => out.put("null"),
    }
}

/// One line being written: where it is, and the position before its next move.
struct Frame<P> {
    line: LineId,
    next: usize,
    before: P,
    /// While the variations of the move at `next` are written: the next one to write.
    variation: Option<usize>,
}

/// Writes the main line with every variation nested, depth first, with an explicit
/// stack. Returns the position at the end of the main line.
fn lines<G: JsonMoves, W: Out>(
    rules: &G,
    game: &notation::GameTree<G::Move>,
    start: G::Position,
    out: &mut W,
) -> Option<G::Position> {
    let start = apply_setup(rules, start, game.line(LineId::MAIN).setup.as_deref());
    out.put_char('[');
    let mut stack = vec![Frame {
        line: LineId::MAIN,
        next: 0,
        before: start,
        variation: None,
    }];
    let mut end = None;
    while let Some(frame) = stack.last_mut() {
        let moves = &game.line(frame.line).moves;
        let Some(&id) = moves.get(frame.next) else {
            out.put_char(']');
            if let Some(done) = stack.pop()
                && done.line == LineId::MAIN
            {
                end = Some(done.before);
            }
            continue;
        };
        let node = game.node(id);
        match frame.variation {
            None => {
                if frame.next > 0 {
                    out.put_char(',');
                }
                out.put_char('{');
                rules.move_fields(&frame.before, &node.mv, out);
                if frame.next == 0 && frame.line != LineId::MAIN {
                    let leading = &game.line(frame.line).comments;
                    if !leading.is_empty() {
                        out.put(",\"comments_before\":");
                        strings(leading, out);
                    }
                }
                out.put(",\"nags\":[");
                for (i, nag) in node.nags.iter().enumerate() {
                    if i > 0 {
                        out.put_char(',');
                    }
                    let _ = write!(out, "{}", nag.0);
                }
                out.put("],\"comments\":");
                strings(&node.comments, out);
                out.put(",\"variations\":[");
                frame.variation = Some(0);
            }
            Some(k) => match node.variations.get(k) {
                Some(&line) => {
                    if k > 0 {
                        out.put_char(',');
                    }
                    frame.variation = Some(k + 1);
                    let before = apply_setup(
                        rules,
                        frame.before.clone(),
                        game.line(line).setup.as_deref(),
                    );
                    out.put_char('[');
                    stack.push(Frame {
                        line,
                        next: 0,
                        before,
                        variation: None,
                    });
                }
                None => {
                    out.put_char(']');
                    // After the variations, as the export format has it: a large game
                    // is written in this order as it is read ([`StreamSink`]).
                    if let Some(setup) = &node.setup {
                        out.put(",\"setup\":");
                        string(setup, out);
                    }
                    out.put_char('}');
                    rules.play(&mut frame.before, &node.mv);
                    if let Some(text) = &node.setup
                        && let Ok(setup) = rules.inline_setup(&frame.before, text)
                    {
                        frame.before = setup.position;
                    }
                    frame.variation = None;
                    frame.next += 1;
                }
            },
        }
    }
    end
}

/// Writes the game that `bytes` holds (its bytes as written; lent, read where they are
/// and given back unchanged) as [`write_game`] writes its tree, as it reads it: for a
/// large game, which is not held as a tree ([`StreamSink`]). Gives the sizes of the
/// comments it could not hold, for lack of memory, and left out.
pub fn write_text<G: JsonMoves, W: Out>(
    rules: &G,
    text: &mut GameText,
    read: ReadOptions,
    out: &mut W,
) -> Vec<usize> {
    let mut builder = GameBuilder::with_sink(rules, read, StreamSink::new(rules, out));
    Reader::lend(text, rules.dialect(), read, |reader| {
        reader.read_game(&mut builder).ok().flatten()
    })
    .unwrap_or_default()
}

/// What has been written of the last move of a line, whose object is still open.
enum Node {
    /// No move yet.
    None,
    /// The move's fields, up to its glyphs and comments, which are still coming.
    Pending {
        nags: Vec<Nag>,
        comments: Vec<String>,
    },
    /// Up to its variations, `n` of them written so far, the list still open.
    Variations(usize),
    /// Everything: only its closing brace is left.
    Done,
}

/// A line being written.
struct Line {
    moves: usize,
    /// Its comments before its first move (`comments_before`, with it).
    comments_before: Vec<String>,
    node: Node,
}

impl Line {
    fn new() -> Line {
        Line {
            moves: 0,
            comments_before: Vec::new(),
            node: Node::None,
        }
    }
}

/// A [`GameSink`] that writes a game's object as [`write_game`] writes its tree, as the
/// game is read: each move's object goes out once its glyphs and comments are in (the
/// input may give them in either order), its variations and set-up after them, in the
/// export format's order. Games whose annotations come in another order
/// ([`notation::ReadGame::streams`]) are written from their tree.
pub struct StreamSink<'a, 'o, G: JsonMoves, W: Out> {
    rules: &'a G,
    out: &'o mut W,
    /// Whether the fields before the main line's comments are written.
    header: bool,
    /// The main line's comments, until its first move or the game's end.
    main_comments: Vec<String>,
    /// The open lines, the main line first, once `"mainline":[` is written.
    lines: Vec<Line>,
    /// Whether `"mainline":` is written.
    mainline: bool,
    /// Whether the main line's start position could be set up.
    start: bool,
    /// Whether the movetext began (else the start position is found from the tags).
    movetext: bool,
    /// The sizes of the comments that could not be held.
    left_out: Vec<usize>,
    /// The opening, from the main line's positions as they come.
    openings: Classifier,
    /// The main line's evaluations, as they come.
    evals: EvalsAlong,
    nodes: u32,
    line_ids: u32,
}

impl<'a, 'o, G: JsonMoves, W: Out> StreamSink<'a, 'o, G, W> {
    /// A sink that writes to `out`.
    pub fn new(rules: &'a G, out: &'o mut W) -> Self {
        StreamSink {
            rules,
            out,
            header: false,
            main_comments: Vec::new(),
            lines: Vec::new(),
            mainline: false,
            start: false,
            movetext: false,
            left_out: Vec::new(),
            openings: Classifier::new(),
            evals: EvalsAlong::default(),
            nodes: 0,
            line_ids: 1,
        }
    }

    fn write_header(&mut self, tags: &notation::Tags) {
        if !self.header {
            self.header = true;
            let mut game = GameTree::new();
            game.tags = tags.clone();
            write_header(self.rules, &game, self.out);
        }
    }

    /// Writes the main line's comments and opens the main line.
    fn open_mainline(&mut self) {
        if !self.mainline {
            self.mainline = true;
            self.out.put(",\"comments\":");
            strings(&self.main_comments, self.out);
            self.out.put(",\"mainline\":[");
            self.lines.push(Line::new());
        }
    }

    /// Writes what is left of the last move of the innermost line.
    fn close_node(&mut self) {
        let Some(line) = self.lines.last_mut() else {
            return;
        };
        match std::mem::replace(&mut line.node, Node::None) {
            Node::None => {}
            Node::Pending { nags, comments } => {
                annotations(&nags, &comments, self.out);
                self.out.put(",\"variations\":[]}");
            }
            Node::Variations(_) => self.out.put("]}"),
            Node::Done => self.out.put_char('}'),
        }
    }
}

/// The glyphs and comments of a move: `,"nags":[…],"comments":[…]`.
fn annotations<W: Out>(nags: &[Nag], comments: &[String], out: &mut W) {
    out.put(",\"nags\":[");
    for (i, nag) in nags.iter().enumerate() {
        if i > 0 {
            out.put_char(',');
        }
        let _ = write!(out, "{}", nag.0);
    }
    out.put("],\"comments\":");
    strings(comments, out);
}

/// A comment as the tree keeps it: white space runs folded to one space, trimmed; `None`
/// when the memory for it cannot be had (its size comes from the input).
fn folded(text: &str) -> Option<String> {
    let mut out = String::new();
    out.try_reserve_exact(text.len()).ok()?;
    for word in text.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    Some(out)
}

impl<G: JsonMoves, W: Out> GameSink<G> for StreamSink<'_, '_, G, W> {
    /// The sizes of the comments that could not be held, and are left out.
    type Output = Vec<usize>;

    fn begin_movetext(&mut self, tags: &notation::Tags, start: Option<&G::Position>) {
        self.write_header(tags);
        self.start = start.is_some();
        self.movetext = true;
    }

    fn push_move(&mut self, _: LineId, mv: G::Move, position: &G::Position) -> NodeId {
        self.nodes = self.nodes.saturating_add(1);
        self.open_mainline();
        self.close_node();
        let depth = self.lines.len();
        if depth == 1 {
            // The position before each move of the main line, then its end (below): the
            // start and the position after each move, as the tree's are classified.
            self.rules.see_opening(&mut self.openings, position);
            if let Some(white) = self.rules.white_to_move(position) {
                self.evals.push_move(white);
            }
        }
        if let Some(line) = self.lines.last_mut() {
            if line.moves > 0 {
                self.out.put_char(',');
            }
            self.out.put_char('{');
            self.rules.move_fields(position, &mv, self.out);
            if line.moves == 0 && depth > 1 && !line.comments_before.is_empty() {
                self.out.put(",\"comments_before\":");
                strings(&line.comments_before, self.out);
            }
            line.moves += 1;
            line.node = Node::Pending {
                nags: Vec::new(),
                comments: Vec::new(),
            };
        }
        NodeId::new(self.nodes - 1)
    }

    fn nag(&mut self, _: NodeId, nag: Nag) {
        if let Some(Line {
            node: Node::Pending { nags, .. },
            ..
        }) = self.lines.last_mut()
        {
            nags.push(nag);
        }
    }

    fn comment(&mut self, place: Place, text: &str) -> bool {
        let Some(text) = folded(text) else {
            // Said with the game's diagnostics, which come after its fields.
            self.left_out.push(text.len());
            return true;
        };
        match place {
            Place::Node(_) => {
                let main_line = self.lines.len() == 1;
                if let Some(Line {
                    node: Node::Pending { comments, .. },
                    ..
                }) = self.lines.last_mut()
                {
                    if main_line {
                        self.evals.comments(std::slice::from_ref(&text));
                    }
                    comments.push(text);
                }
            }
            Place::Line(LineId::MAIN) => self.main_comments.push(text),
            Place::Line(_) => {
                if let Some(line) = self.lines.last_mut() {
                    line.comments_before.push(text);
                }
            }
        }
        true
    }

    fn add_variation(&mut self, _: NodeId) -> LineId {
        self.line_ids = self.line_ids.saturating_add(1);
        if let Some(line) = self.lines.last_mut() {
            let written = match std::mem::replace(&mut line.node, Node::None) {
                Node::Pending { nags, comments } => {
                    annotations(&nags, &comments, self.out);
                    self.out.put(",\"variations\":[");
                    0
                }
                Node::Variations(n) => n,
                // Not in the export format's order: such games are not written so.
                Node::None | Node::Done => 0,
            };
            if written > 0 {
                self.out.put_char(',');
            }
            self.out.put_char('[');
            line.node = Node::Variations(written + 1);
        }
        self.lines.push(Line::new());
        LineId::new(self.line_ids - 1)
    }

    fn end_variation(&mut self, _: LineId) {
        if self.lines.len() > 1 {
            self.close_node();
            self.out.put_char(']');
            self.lines.pop();
        }
    }

    fn setup(&mut self, place: Place, text: &str) {
        // A line's set-up moves its start, which the moves' fields show; a move's is a
        // field of its own, after its variations.
        let Place::Node(_) = place else {
            return;
        };
        if let Some(line) = self.lines.last_mut() {
            match std::mem::replace(&mut line.node, Node::Done) {
                Node::Pending { nags, comments } => {
                    annotations(&nags, &comments, self.out);
                    self.out.put(",\"variations\":[]");
                }
                Node::Variations(_) => self.out.put_char(']'),
                Node::None | Node::Done => {}
            }
            self.out.put(",\"setup\":");
            string(text, self.out);
        }
    }

    fn end_game(&mut self, ended: Ended<'_, G>) -> Vec<usize> {
        self.write_header(&ended.tags);
        // A game with no movetext ends where it starts, as its tree's main line does.
        let start = if self.movetext {
            None
        } else {
            let start = self.rules.start_position(&ended.tags).ok();
            self.start = start.is_some();
            start.map(|setup| setup.position)
        };
        if self.start {
            self.open_mainline();
            while !self.lines.is_empty() {
                self.close_node();
                self.out.put_char(']');
                self.lines.pop();
            }
        } else {
            self.out.put(",\"comments\":");
            strings(&self.main_comments, self.out);
            self.out.put(",\"mainline\":[]");
        }
        let end = match &start {
            Some(start) => Some(start),
            None if self.start => ended.end,
            None => None,
        };
        if let Some(end) = end {
            self.rules.see_opening(&mut self.openings, end);
        }
        let over = end.and_then(|end| self.rules.score_when_over(end));
        write_footer(
            self.rules,
            ended.tail.map(|(_, text)| text),
            ended.result,
            end,
            self.openings.opening(),
            self.evals.accuracy(over),
            self.out,
        );
        std::mem::take(&mut self.left_out)
    }
}

/// The emitter: the prefix, the body, the diagnostics, a line end.
pub struct Emitter<'o, G> {
    /// Where the lines go.
    pub out: &'o mut dyn Write,
    /// The rules, for the large games the emitter writes.
    pub rules: &'o G,
    /// How to read the large games read again.
    pub read: ReadOptions,
    /// The input's name.
    pub name: String,
    /// Whether the input is a table, its diagnostics placed by row.
    pub by_row: bool,
    /// The input's name, as a JSON string.
    pub file: String,
    /// Games with errors.
    pub errors: u64,
    /// Games written.
    pub games: u64,
    /// Notes already given for this input.
    pub once: OncePerInput,
}

impl<G: JsonMoves> Emitter<'_, G> {
    /// Writes one item, its game renumbered by `offset`; diagnostics outside any game go
    /// to `warn`.
    pub fn emit(
        &mut self,
        mut item: Item<G::Move>,
        offset: u64,
        warn: &mut dyn FnMut(String),
    ) -> io::Result<()> {
        item.diagnostics.retain(|d| self.once.keep(d));
        if matches!(&item.body, Body::Text(body) if body.is_empty()) {
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
        self.games += 1;
        write!(
            self.out,
            "{{\"file\":{},\"game\":{},",
            self.file,
            item.index + offset + 1
        )?;
        let mut body = match item.body {
            Body::Text(body) => body,
            Body::Game(game) => {
                let mut text = IoText::new(&mut *self.out);
                write_game(self.rules, &game, &mut text);
                text.finish()?;
                String::new()
            }
            Body::Large {
                text: mut game_text,
                streams,
            } => {
                let mut text = IoText::new(&mut *self.out);
                if streams {
                    for bytes in write_text(self.rules, &mut game_text, self.read, &mut text) {
                        let what = "a comment";
                        item.diagnostics.push(Diagnostic {
                            severity: Severity::Error,
                            location: notation::Location::default(),
                            game: item.index,
                            kind: notation::DiagnosticKind::TextOutOfMemory { what, bytes },
                        });
                    }
                } else if let Some(game) = read_tree(self.rules, &mut game_text, self.read) {
                    write_game(self.rules, &game, &mut text);
                }
                text.finish()?;
                String::new()
            }
        };
        // Counted once written: a large game may have lost a comment on its way out.
        if item
            .diagnostics
            .iter()
            .any(|d| d.severity == Severity::Error)
        {
            self.errors += 1;
        }
        write_diagnostics(&item.diagnostics, &mut body);
        self.out.write_all(body.as_bytes())?;
        self.out.write_all(b"\n")
    }
}

/// `notate json`: writes every game of the job's inputs to `out` as a line of JSON. The
/// job's games have errors when one has an error diagnostic.
///
/// # Errors
/// [`Stopped::Closed`] when whoever reads `out` went away.
pub fn run(
    job: &mut Job<'_>,
    options: ReadOptions,
    out: &mut dyn Write,
) -> Result<crate::job::Ended, Stopped> {
    let mut errors = 0;
    job.each(|source, opened, job| {
        let mut file = String::new();
        string(&source.name, &mut file);
        with_rules!(opened.format, job.variant, |rules| {
            let task = JsonTask { rules, options };
            let mut emitter = Emitter {
                out: &mut *out,
                rules,
                read: options,
                name: source.name.clone(),
                by_row: opened.rows,
                file,
                errors: 0,
                games: 0,
                once: OncePerInput::default(),
            };
            let result = pipeline::drive(&task, opened, job.jobs, &mut |item, offset| {
                emitter.emit(item, offset, &mut |m| job.report.warning(&m))
            });
            errors += emitter.errors;
            result
        })
    })?;
    job.flush(out)?;
    Ok(job.ended(errors > 0))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A large game, written by the emitter straight to the output, is written as one
    /// written by a worker into a string.
    #[test]
    fn written_to_the_output_as_into_a_string() {
        let pgn =
            b"[Event \"a\\\"b\"]\n\n{before} 1. e4 $1 {a\tcomment\x01} (1. d4 d5 (1... Nf6)) \
                    1... e5 2. Nf3 Nc6 3. Qxx9 Nf6 *\n";
        let rules = crate::rules::chess();
        let game = GameReader::new(&rules, &pgn[..], ReadOptions::default())
            .next()
            .expect("a game")
            .expect("in memory");
        let mut text = String::new();
        write_game(&rules, &game.game, &mut text);
        let mut bytes = Vec::new();
        let mut out = IoText::new(&mut bytes);
        write_game(&rules, &game.game, &mut out);
        assert!(out.finish().is_ok());
        assert_eq!(String::from_utf8(bytes).expect("UTF-8"), text);
        assert!(
            text.contains("\"comments\":[\"a comment\\u0001\"]"),
            "{text}"
        );
        assert!(text.contains("\"unread\":\"3. Qxx9 Nf6\""), "{text}");
    }

    /// Every game of a file read as a large one (without its tree) and written as it is
    /// read again, where it can be, gives the text its tree gives: games with errors
    /// (their unread movetext) too.
    fn streams_as_its_tree<G: JsonMoves>(rules: &G, text: &[u8]) -> (usize, usize) {
        let read = ReadOptions::default();
        let trees: Vec<_> = GameReader::new(rules, text, read)
            .map(|g| g.expect("in memory"))
            .collect();
        let large = GameReader::new(rules, text, read)
            .keep_raw(KeepRaw::Always)
            .large_after(0)
            .map(|g| g.expect("in memory"));
        let (mut games, mut streamed) = (0, 0);
        for (tree, large) in trees.iter().zip(large) {
            games += 1;
            if large.built || !large.streams {
                continue;
            }
            streamed += 1;
            let mut expected = String::new();
            write_game(rules, &tree.game, &mut expected);
            let mut text = GameText {
                bytes: large.raw.clone().expect("kept"),
                starts_line: large.starts_line,
            };
            let mut out = String::new();
            write_text(rules, &mut text, read, &mut out);
            assert_eq!(out, expected, "{}", String::from_utf8_lossy(&text.bytes));
            assert_eq!(Some(text.bytes), large.raw, "the text is given back");
        }
        (games, streamed)
    }

    #[test]
    fn each_player_s_accuracy_is_given_for_a_game_analysed_move_by_move() {
        let text = b"[White \"A\"]\n[Black \"B\"]\n\n\
            1. f3 {[%eval -0.52]} e5 {[%eval -0.4] [%clk 0:01:00]} 2. g4 {[%eval #-1]} Qh4# 0-1\n\n\
            1. e4 {[%eval 0.3]} e5 2. Nf3 {[%eval 0.2]} Nc6 {[%eval 0.25]} *\n\n\
            1. d4 d5 *\n";
        let rules = pgn::ChessRules;
        let json: Vec<String> = GameReader::new(&rules, &text[..], ReadOptions::default())
            .map(|g| {
                let mut out = String::new();
                write_game(&rules, &g.expect("in memory").game, &mut out);
                out
            })
            .collect();
        // The mating move needs no evaluation: the game is over, lost for White.
        let expected = judgement::game_accuracy(true, &[-52, -40, -1000, -1000]);
        let field = format!(
            "\"accuracy\":{{\"white\":{},\"black\":{}}}",
            expected.white.map(f64::round).unwrap_or_default(),
            expected.black.map(f64::round).unwrap_or_default()
        );
        assert!(json[0].contains(&field), "{field} in {}", json[0]);
        // One move without an evaluation, and none at all: no accuracy.
        assert!(json[1].contains("\"accuracy\":null"), "{}", json[1]);
        assert!(json[2].contains("\"accuracy\":null"), "{}", json[2]);
        // Streamed as read, a large game gives the same.
        assert_eq!(streams_as_its_tree(&rules, text), (3, 3));
    }

    #[test]
    fn large_games_are_written_as_read_as_their_trees() {
        let corpus = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../corpus");
        let mut total = (0, 0);
        for (folder, pdn) in [("pgn", false), ("pdn", true)] {
            let mut files: Vec<_> = std::fs::read_dir(corpus.join(folder))
                .expect("the corpus")
                .map(|e| e.expect("an entry").path())
                .collect();
            files.sort();
            for path in files {
                let text = std::fs::read(&path).expect("a corpus file");
                let (games, streamed) = if pdn {
                    streams_as_its_tree(&crate::rules::draughts(None), &text)
                } else {
                    streams_as_its_tree(&crate::rules::chess(), &text)
                };
                total.0 += games;
                total.1 += streamed;
            }
        }
        // With errors, set-ups, variations, comments before a variation's first move.
        let texts: [&[u8]; 4] = [
            b"{c} 1. e4 {a} $1 ({b} 1. d4 d5 $2 (1... Nf6 {x}) 2. c4) (1. c4) e5 1-0",
            b"1. e4 e5 2. Qxx9 Nf6 *",
            b"1. d4 (1. e4 (1. c4 *",
            b"[FEN \"8/8\"]\n\n1. e4 *",
        ];
        let rules = crate::rules::chess();
        for text in texts {
            assert_eq!(streams_as_its_tree(&rules, text), (1, 1));
        }
        assert!(total.0 > 60 && total.1 * 10 > total.0 * 7, "{total:?}");
    }

    #[test]
    fn escapes() {
        let mut out = String::new();
        string("a\"b\\c\nd\u{1}é", &mut out);
        assert_eq!(out, "\"a\\\"b\\\\c\\nd\\u0001é\"");
    }
}
