//! `notate json`: JSON Lines, one object per game.
//!
//! The object is written by hand rather than through a serialisation library: the
//! shape is fixed, strings are the only thing that needs care, and a game with variations
//! nested 100,000 deep must be written with an explicit stack, not by recursion.
//!
//! A worker writes everything after the object's opening `{"file":…,"game":N,`; the
//! emitter, the only one who knows the game's number in its input, writes that prefix.
//! README.md documents the format.

use std::fmt::Write as _;
use std::io::{self, Write};

use notation::{Diagnostic, GameReader, KeepRaw, LineId, ReadGame, ReadOptions, Severity};

use crate::games::Notate;
use crate::pipeline::{Input, OncePerInput, Origin, Task};

/// Appends `s` as a JSON string.
pub fn string(s: &str, out: &mut String) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// One game's JSON, less its prefix and its diagnostics.
pub struct Item {
    /// The 0-based index of the game in its chunk.
    pub index: u64,
    /// The object's fields after `"game":N,` up to its diagnostics, with a comma after;
    /// empty for diagnostics outside any game.
    pub body: String,
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

impl<G: Notate> Task for JsonTask<'_, G> {
    type Item = Item;

    fn run(
        &self,
        mut input: Input<'_>,
        origin: Origin,
        sink: &mut dyn FnMut(Item) -> io::Result<()>,
    ) -> io::Result<u64> {
        let reader = input.reader(self.rules.dialect(), self.options);
        let mut reader = GameReader::from_reader(self.rules, reader).keep_raw(KeepRaw::Never);
        let mut games = 0;
        while let Some(mut game) = reader.read_game()? {
            games += 1;
            for d in &mut game.diagnostics {
                origin.place(d);
            }
            let mut body = String::with_capacity(1024);
            write_game(self.rules, &game, &mut body);
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
                body: String::new(),
                diagnostics: orphans,
            })?;
        }
        Ok(games)
    }
}

/// Writes a game's fields (after `"game":N,`) and the closing brace.
pub fn write_game<G: Notate>(rules: &G, read: &ReadGame<G::Move>, out: &mut String) {
    let game = &read.game;
    out.push_str("\"tags\":[");
    for (i, tag) in game.tags.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push('[');
        string(&tag.name, out);
        out.push(',');
        string(&tag.value, out);
        out.push(']');
    }
    out.push_str("],\"variant\":");
    string(&rules.variant(game), out);
    out.push_str(",\"start_fen\":");
    fen(rules, rules.start(game).as_ref(), out);
    let start = rules.start_position(&game.tags).ok().map(|s| s.position);
    out.push_str(",\"comments\":");
    strings(&game.line(LineId::MAIN).comments, out);
    out.push_str(",\"mainline\":");
    let end = match start {
        Some(position) => lines(rules, game, position, out),
        None => {
            out.push_str("[]");
            None
        }
    };
    out.push_str(",\"unread\":");
    match &game.tail {
        Some(tail) => string(&tail.text, out),
        None => out.push_str("null"),
    }
    out.push_str(",\"result\":");
    string(game.result.as_str(), out);
    out.push_str(",\"final_fen\":");
    fen(rules, end.as_ref(), out);
    out.push(',');
}

/// Appends `"diagnostics":[…]}`: the end of a game's object.
fn write_diagnostics(diagnostics: &[Diagnostic], out: &mut String) {
    out.push_str("\"diagnostics\":[");
    for (i, d) in diagnostics.iter().enumerate() {
        if i > 0 {
            out.push(',');
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
        out.push('}');
    }
    out.push_str("]}");
}

fn fen<G: Notate>(rules: &G, position: Option<&G::Position>, out: &mut String) {
    match position.and_then(|p| rules.fen(p)) {
        Some(f) => string(&f, out),
        None => out.push_str("null"),
    }
}

fn strings(list: &[String], out: &mut String) {
    out.push('[');
    for (i, s) in list.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        string(s, out);
    }
    out.push(']');
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
fn lines<G: Notate>(
    rules: &G,
    game: &notation::Game<G::Move>,
    start: G::Position,
    out: &mut String,
) -> Option<G::Position> {
    let start = apply_setup(rules, start, game.line(LineId::MAIN).setup.as_deref());
    out.push('[');
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
            out.push(']');
            if let Some(done) = stack.pop() {
                if done.line == LineId::MAIN {
                    end = Some(done.before);
                }
            }
            continue;
        };
        let node = game.node(id);
        match frame.variation {
            None => {
                if frame.next > 0 {
                    out.push(',');
                }
                out.push('{');
                rules.move_fields(&frame.before, &node.mv, out);
                if frame.next == 0 && frame.line != LineId::MAIN {
                    let leading = &game.line(frame.line).comments;
                    if !leading.is_empty() {
                        out.push_str(",\"comments_before\":");
                        strings(leading, out);
                    }
                }
                out.push_str(",\"nags\":[");
                for (i, nag) in node.nags.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    let _ = write!(out, "{}", nag.0);
                }
                out.push_str("],\"comments\":");
                strings(&node.comments, out);
                if let Some(setup) = &node.setup {
                    out.push_str(",\"setup\":");
                    string(setup, out);
                }
                out.push_str(",\"variations\":[");
                frame.variation = Some(0);
            }
            Some(k) => match node.variations.get(k) {
                Some(&line) => {
                    if k > 0 {
                        out.push(',');
                    }
                    frame.variation = Some(k + 1);
                    let before = apply_setup(
                        rules,
                        frame.before.clone(),
                        game.line(line).setup.as_deref(),
                    );
                    out.push('[');
                    stack.push(Frame {
                        line,
                        next: 0,
                        before,
                        variation: None,
                    });
                }
                None => {
                    out.push_str("]}");
                    rules.play(&mut frame.before, &node.mv);
                    if let Some(text) = &node.setup {
                        if let Ok(setup) = rules.inline_setup(&frame.before, text) {
                            frame.before = setup.position;
                        }
                    }
                    frame.variation = None;
                    frame.next += 1;
                }
            },
        }
    }
    end
}

/// The position after an inline set-up, when there is one the rules accept.
fn apply_setup<G: Notate>(rules: &G, position: G::Position, setup: Option<&str>) -> G::Position {
    match setup {
        Some(text) => match rules.inline_setup(&position, text) {
            Ok(s) => s.position,
            Err(_) => position,
        },
        None => position,
    }
}

/// The emitter: the prefix, the body, the diagnostics, a line end.
pub struct Emitter<'o> {
    /// Where the lines go.
    pub out: &'o mut dyn Write,
    /// The input's name.
    pub name: String,
    /// The input's name, as a JSON string.
    pub file: String,
    /// Games with errors.
    pub errors: u64,
    /// Games written.
    pub games: u64,
    /// Notes already given for this input.
    pub once: OncePerInput,
}

impl Emitter<'_> {
    /// Writes one item, its game renumbered by `offset`; diagnostics outside any game go
    /// to `warn`.
    pub fn emit(
        &mut self,
        mut item: Item,
        offset: u64,
        warn: &mut dyn FnMut(String),
    ) -> io::Result<()> {
        item.diagnostics.retain(|d| self.once.keep(d));
        if item.body.is_empty() {
            for d in &item.diagnostics {
                warn(format!("{}:{d}", self.name));
            }
            return Ok(());
        }
        self.games += 1;
        if item
            .diagnostics
            .iter()
            .any(|d| d.severity == Severity::Error)
        {
            self.errors += 1;
        }
        write_diagnostics(&item.diagnostics, &mut item.body);
        write!(
            self.out,
            "{{\"file\":{},\"game\":{},",
            self.file,
            item.index + offset + 1
        )?;
        self.out.write_all(item.body.as_bytes())?;
        self.out.write_all(b"\n")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes() {
        let mut out = String::new();
        string("a\"b\\c\nd\u{1}é", &mut out);
        assert_eq!(out, "\"a\\\"b\\\\c\\nd\\u0001é\"");
    }
}
