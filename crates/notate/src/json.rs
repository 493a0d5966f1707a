//! `notate json`: JSON Lines, one object per game.
//!
//! The object is written by hand rather than through a serialisation library: the
//! shape is fixed, strings are the only thing that needs care, and a game with variations
//! nested 100,000 deep must be written with an explicit stack, not by recursion.
//!
//! A worker writes everything after the object's opening `{"file":…,"game":N,`; the
//! emitter, the only one who knows the game's number in its input, writes that prefix.
//! A large game goes to the emitter as a tree, and the emitter writes all of it straight
//! to the output ([`crate::large`]): the writing functions write to any [`fmt::Write`].
//! README.md documents the format.

use std::fmt;
use std::io::{self, Write};

use notation::{Diagnostic, Game, GameReader, KeepRaw, LineId, ReadOptions, Severity};

use crate::games::Notate;
use crate::large::{IoText, is_large};
use crate::pipeline::{Input, OncePerInput, Origin, Task};

/// What the JSON is written to: a `String`, or the output itself through [`IoText`],
/// which keeps the error that ends the writing (so the writing functions go on
/// regardless, and the caller asks `IoText` at the end).
pub trait Out: fmt::Write {
    /// Writes text.
    fn put(&mut self, s: &str) {
        let _ = self.write_str(s);
    }

    /// Writes a character.
    fn put_char(&mut self, c: char) {
        let _ = self.write_char(c);
    }
}

impl<W: fmt::Write> Out for W {}

/// Writes `s` as a JSON string.
pub fn string<W: Out>(s: &str, out: &mut W) {
    out.put_char('"');
    // Runs of plain characters go out whole; what needs escaping is ASCII, which is
    // never part of another character's bytes.
    let mut from = 0;
    for (i, b) in s.bytes().enumerate() {
        let escaped = match b {
            b'"' => "\\\"",
            b'\\' => "\\\\",
            b'\n' => "\\n",
            b'\r' => "\\r",
            b'\t' => "\\t",
            b if b < 0x20 => "",
            _ => continue,
        };
        out.put(&s[from..i]);
        if escaped.is_empty() {
            let _ = write!(out, "\\u{:04x}", b);
        } else {
            out.put(escaped);
        }
        from = i + 1;
    }
    out.put(&s[from..]);
    out.put_char('"');
}

/// A game's fields after `"game":N,`, up to its diagnostics.
pub enum Body<M> {
    /// Written, with a comma after; empty for diagnostics outside any game.
    Text(String),
    /// A large game, to be written by the emitter straight to the output.
    Game(Box<Game<M>>),
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

impl<G: Notate> Task for JsonTask<'_, G>
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
        let mut reader = GameReader::from_reader(self.rules, reader).keep_raw(KeepRaw::Never);
        let mut games = 0;
        while let Some(mut game) = reader.read_game()? {
            games += 1;
            for d in &mut game.diagnostics {
                origin.place(d);
            }
            let body = if is_large(game.span) {
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
pub fn write_game<G: Notate, W: Out>(rules: &G, game: &Game<G::Move>, out: &mut W) {
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
    let start = rules.start_position(&game.tags).ok().map(|s| s.position);
    out.put(",\"comments\":");
    strings(&game.line(LineId::MAIN).comments, out);
    out.put(",\"mainline\":");
    let end = match start {
        Some(position) => lines(rules, game, position, out),
        None => {
            out.put("[]");
            None
        }
    };
    out.put(",\"unread\":");
    match &game.tail {
        Some(tail) => string(&tail.text, out),
        None => out.put("null"),
    }
    out.put(",\"result\":");
    string(game.result.as_str(), out);
    out.put(",\"final_fen\":");
    fen(rules, end.as_ref(), out);
    out.put_char(',');
}

/// Appends `"diagnostics":[…]}`: the end of a game's object.
fn write_diagnostics<W: Out>(diagnostics: &[Diagnostic], out: &mut W) {
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

fn fen<G: Notate, W: Out>(rules: &G, position: Option<&G::Position>, out: &mut W) {
    match position.and_then(|p| rules.fen(p)) {
        Some(f) => string(&f, out),
        None => out.put("null"),
    }
}

fn strings<W: Out>(list: &[String], out: &mut W) {
    out.put_char('[');
    for (i, s) in list.iter().enumerate() {
        if i > 0 {
            out.put_char(',');
        }
        string(s, out);
    }
    out.put_char(']');
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
fn lines<G: Notate, W: Out>(
    rules: &G,
    game: &notation::Game<G::Move>,
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
                if let Some(setup) = &node.setup {
                    out.put(",\"setup\":");
                    string(setup, out);
                }
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
                    out.put("]}");
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
pub struct Emitter<'o, G> {
    /// Where the lines go.
    pub out: &'o mut dyn Write,
    /// The rules, for the large games the emitter writes.
    pub rules: &'o G,
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

impl<G: Notate> Emitter<'_, G> {
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
        };
        write_diagnostics(&item.diagnostics, &mut body);
        self.out.write_all(body.as_bytes())?;
        self.out.write_all(b"\n")
    }
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
        let rules = crate::games::chess();
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

    #[test]
    fn escapes() {
        let mut out = String::new();
        string("a\"b\\c\nd\u{1}é", &mut out);
        assert_eq!(out, "\"a\\\"b\\\\c\\nd\\u0001é\"");
    }
}
