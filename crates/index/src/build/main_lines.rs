//! Chess games' main lines read along the validator, with no tree.
//!
//! Why: a build reads every game of collections of millions, and a tree per game (every
//! tag, every comment, its variations, then its main line played again to walk it) was
//! most of the reading's cost. [`pgn::Validator`] plays each move once, in place; the
//! positions, moves and kept line are taken as it plays them. Games whose variations are
//! indexed too (`--variations`), and draughts, are read into trees by
//! [`IndexTask`](super::IndexTask); the tests hold the two readings to the same games.

use std::borrow::Cow;
use std::io;
use std::ops::ControlFlow;

use collection::pipeline::{Input, Origin, Task};
use notation::{
    At, Diagnostic, GameResult, Nag, RawGame, RawValue, ReadOptions, Rules, Severity, Skip, Visitor,
};

use super::IndexedGame;
use super::spares::Spares;
use crate::dims::TagValues;
use crate::key::PositionKey;
use crate::line::LineWriter;
use crate::record::Described;
use crate::rules::{IndexRules, MoveCode};

/// Reads one input (or chunk) of chess games into [`IndexedGame`]s of their main lines.
pub(super) struct ChessMainLines<'r> {
    pub rules: &'r pgn::ChessRules,
    pub read: ReadOptions,
    /// The games taken, whose room the games read next are made in.
    pub spares: &'r Spares,
}

impl Task for ChessMainLines<'_> {
    type Item = IndexedGame;

    fn run(
        &self,
        mut input: Input<'_>,
        origin: Origin,
        sink: &mut dyn FnMut(IndexedGame) -> io::Result<()>,
    ) -> io::Result<u64> {
        let mut reader = input.reader(self.rules.dialect(), self.read);
        let mut visitor = MainLine::new(self.rules, self.read, self.spares);
        let mut games = 0;
        while let Some(mut game) = reader.read_game(&mut visitor)? {
            games += 1;
            game.offset += origin.offset;
            for d in &mut game.errors {
                origin.place(d);
            }
            sink(game)?;
        }
        let buffer = reader.into_vec();
        input.give_back(buffer);
        Ok(games)
    }
}

/// The values of a game's tags of [`Described::TAGS`], the first of each name: their
/// text is kept from one game to the next, where a game's [`notation::Tags`] took two new
/// strings for each.
#[derive(Default)]
struct WantedTags {
    values: [String; Described::TAGS.len()],
    /// Which of [`WantedTags::values`] the game has, a bit for each.
    present: u16,
}

const _: () = assert!(
    Described::TAGS.len() <= 16,
    "a bit for each tag of `present`"
);

impl TagValues for WantedTags {
    fn value(&self, name: &str) -> Option<&str> {
        let place = Described::TAGS.iter().position(|&wanted| wanted == name)?;
        (self.present & 1 << place != 0).then(|| self.values[place].as_str())
    }
}

/// A visitor that gives a game's [`IndexedGame`]: the validator reads and plays its
/// moves, and each main-line move is taken as it is played.
struct MainLine<'r> {
    rules: &'r pgn::ChessRules,
    spares: &'r Spares,
    /// Games taken from [`MainLine::spares`], to be filled.
    stash: Vec<IndexedGame>,
    validator: pgn::Validator,
    /// The tags [`Described::of`] reads, as the tree builder keeps them.
    tags: WantedTags,
    result: GameResult,
    /// Each position met, the move played from it, and whether the kept line reaches it.
    positions: Vec<(PositionKey, MoveCode, bool)>,
    line: Option<LineWriter>,
    /// The room for the next game's line.
    line_room: Vec<u8>,
    kind: Option<Cow<'static, str>>,
    /// Whether the main line was set up from where its moves had led (a set-up inside
    /// it, which no kept line can hold).
    set_up: bool,
    plies: u32,
}

impl<'r> MainLine<'r> {
    fn new(rules: &'r pgn::ChessRules, read: ReadOptions, spares: &'r Spares) -> MainLine<'r> {
        MainLine {
            rules,
            spares,
            stash: Vec::with_capacity(Spares::BATCH),
            validator: pgn::Validator::new(read),
            tags: WantedTags::default(),
            result: GameResult::Unknown,
            positions: Vec::new(),
            line: None,
            line_room: Vec::new(),
            kind: None,
            set_up: false,
            plies: 0,
        }
    }

    /// Takes the main-line move the validator has just played, if it played one.
    fn take_move(&mut self) {
        if self.validator.depth() != 1 {
            return;
        }
        let Some((mv, _, before, _)) = self.validator.last_move() else {
            return;
        };
        let rules = self.rules;
        let on_line = self.line.is_some();
        if let Some(line) = &mut self.line {
            line.push(rules, before, &mv);
        }
        let code = rules.move_code(before, &mv);
        self.positions.push((rules.key(before), code, on_line));
        self.plies = self.plies.saturating_add(1);
    }
}

impl Visitor for MainLine<'_> {
    type Output = IndexedGame;

    fn begin_game(&mut self) {
        self.validator.begin_game();
        self.tags.present = 0;
        self.result = GameResult::Unknown;
        // The room of the game before's positions and line, or of a spare's.
        self.positions.clear();
        self.positions.reserve(96);
        self.line = None;
        self.kind = None;
        self.set_up = false;
        self.plies = 0;
    }

    fn tag(&mut self, name: &[u8], value: RawValue<'_>, at: At<'_>) -> ControlFlow<()> {
        let flow = self.validator.tag(name, value, at);
        // The first of a name is kept, decoded as the tree builder decodes it.
        let wanted = Described::TAGS
            .iter()
            .position(|wanted| wanted.as_bytes() == name);
        if let Some(place) = wanted
            && self.tags.present & 1 << place == 0
        {
            let unescaped = value.unescaped();
            let (value, _) = notation::decode(&unescaped);
            let kept = &mut self.tags.values[place];
            kept.clear();
            kept.push_str(&value);
            self.tags.present |= 1 << place;
        }
        flow
    }

    fn begin_movetext(&mut self) -> ControlFlow<()> {
        let flow = self.validator.begin_movetext();
        // The start, when it could be set up.
        if let Some(start) = self.validator.position() {
            self.kind = Some(self.rules.kind(start));
            self.line = LineWriter::new_in(self.rules, start, std::mem::take(&mut self.line_room));
        }
        flow
    }

    fn move_number(&mut self, number: u64, ellipsis: bool, at: At<'_>) -> ControlFlow<()> {
        self.validator.move_number(number, ellipsis, at)
    }

    fn move_token(&mut self, token: &[u8], at: At<'_>) -> ControlFlow<()> {
        let flow = self.validator.move_token(token, at);
        self.take_move();
        flow
    }

    fn nag(&mut self, nag: Nag, at: At<'_>) -> ControlFlow<()> {
        self.validator.nag(nag, at)
    }

    fn comment(&mut self, text: &[u8], at: At<'_>) -> ControlFlow<()> {
        self.validator.comment(text, at)
    }

    fn begin_variation(&mut self, at: At<'_>) -> ControlFlow<(), Skip> {
        self.validator.begin_variation(at)
    }

    fn end_variation(&mut self, at: At<'_>) -> ControlFlow<()> {
        self.validator.end_variation(at)
    }

    fn setup(&mut self, text: &[u8], at: At<'_>) -> ControlFlow<()> {
        if self.validator.depth() <= 1 {
            self.set_up = true;
        }
        self.validator.setup(text, at)
    }

    fn result(&mut self, result: GameResult, at: At<'_>) -> ControlFlow<()> {
        self.result = result;
        self.validator.result(result, at)
    }

    fn diagnostic(&mut self, diagnostic: Diagnostic) {
        self.validator.diagnostic(diagnostic);
    }

    fn end_game(&mut self, raw: RawGame<'_>) -> IndexedGame {
        let read = self.validator.end_game(raw);
        if self.stash.is_empty() {
            self.spares.take(&mut self.stash);
        }
        let mut game = self.stash.pop().unwrap_or_default();
        // The game's positions and line go out in the spare; the spare's room stays for
        // the next game's.
        std::mem::swap(&mut game.positions, &mut self.positions);
        let positions = &mut game.positions;
        let mut line = self.line.take();
        if self.set_up {
            // A line with a set-up inside it is not kept: a replay from its start would
            // not reach its positions.
            line = None;
            for (_, _, on_line) in positions.iter_mut() {
                *on_line = false;
            }
        }
        if self.kind.is_some()
            && let Some(end) = self.validator.main_line_position()
        {
            positions.push((self.rules.key(end), MoveCode::NONE, line.is_some()));
        }
        let spare_line = std::mem::replace(&mut game.line, line.map(LineWriter::into_bytes));
        if let Some(room) = spare_line {
            self.line_room = room;
        }
        game.number = read.index;
        game.offset = read.span.start;
        game.described.fill(&self.tags, self.result);
        game.plies = self.plies;
        game.kind = self.kind.take();
        game.errors.clear();
        game.errors.extend(
            read.diagnostics
                .into_iter()
                .filter(|d| d.severity == Severity::Error),
        );
        game
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use collection::pipeline;

    use super::*;
    use crate::build::IndexTask;

    /// The games a task reads from `text`, one thread.
    fn read<T: Task<Item = IndexedGame>>(task: &T, text: &[u8]) -> Vec<IndexedGame> {
        let input: Box<dyn io::Read + Send> = Box::new(io::Cursor::new(text.to_vec()));
        let mut games = Vec::new();
        pipeline::drive(task, input, 1, &mut |game, _| {
            games.push(game);
            Ok(())
        })
        .expect("read from memory");
        games
    }

    /// Reads `text` both ways and says how many games agreed, or where they first did
    /// not.
    fn agree(text: &[u8], options: ReadOptions) -> Result<usize, String> {
        let rules = collection::rules::chess();
        let tree = IndexTask {
            rules: &rules,
            read: options,
            variations: false,
        };
        let expected = read(&tree, text);
        // Every game read along is made in a spare holding another game: what it held
        // must not show through.
        let spares = Spares::default();
        let mut others: Vec<_> = expected.iter().rev().cloned().collect();
        others.push(IndexedGame {
            line: Some(vec![1, 2, 3]),
            kind: Some(Cow::Borrowed("another")),
            errors: expected.iter().flat_map(|g| g.errors.clone()).collect(),
            ..IndexedGame::default()
        });
        spares.give(&mut others);
        let along = ChessMainLines {
            rules: &rules,
            read: options,
            spares: &spares,
        };
        let found = read(&along, text);
        if let Some((e, f)) = expected.iter().zip(&found).find(|(e, f)| e != f) {
            return Err(format!("game {}: tree {e:#?}\nalong {f:#?}", e.number));
        }
        if expected.len() != found.len() {
            return Err(format!("{} games, not {}", found.len(), expected.len()));
        }
        Ok(found.len())
    }

    /// What a build takes of each game read along the validator is what it takes of the
    /// game's tree: its tags' description, positions, moves, kept line, kind and errors,
    /// read leniently and strictly, each into the room of a game taken before, on every
    /// PGN file of the corpus (and of the shared corpus, when there is one) and on games
    /// made for what the corpus may lack.
    #[test]
    fn main_lines_read_along_the_validator_are_those_of_the_trees() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let mut dirs = vec![root.join("corpus/pgn")];
        if let Some(shared) = std::env::var_os("NOTATION_SHARED_CORPUS") {
            // As `.ci/run` sets it: relative to the workspace.
            let shared = root.join(shared);
            assert!(shared.is_dir(), "no shared corpus at {}", shared.display());
            dirs.extend(
                ["pgn/bench", "pgn/python-chess", "pgn/scalachess"].map(|d| shared.join(d)),
            );
        }
        // An error in a variation and in the main line, a set-up from tags, a start that
        // cannot be set up, a variant, a game of tags alone, tags repeated, escaped and
        // not UTF-8, a game with no termination, comments and glyphs everywhere.
        let made: &[&[u8]] = &[
            br#"[Event "a"]
[White "An \"Old\" Name"]
[White "Second"]
[WhiteElo "2100"]
[BlackElo "x"]
[UTCDate "2024.03.01"]
[TimeControl "180+2"]

{before} 1. e4 e5 {c} $1 2. Nf3 (2. Nc3 Nc6 3. Ke3 Nf6) 2... Nc6 3. Bb5 1-0

[Event "b"]
[SetUp "1"]
[FEN "4k3/8/8/8/8/8/8/4K2R w K - 0 1"]

1. O-O+ Kd7 2. Rf7+ Ke6 *

[Event "c"]
[FEN "8/8/8/8/8/8/8/8 w - - 0 1"]

1. e4 *

[Event "d"]
[Date "2023.??.??"]

1. e4 e5 2. Ke3 Nf6 0-1

[Event "e"]
[Variant "Crazyhouse"]

1. e4 d5 2. exd5 Qxd5 3. Nc3 Qa5 4. d4 Nf6 5. N@b5 1/2-1/2

[Event "f"]
[Site "only tags"]

[Event "g"]
[Variant "Chess960"]
[FEN "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9"]

9. g3 O-O 10. Nf3 *

[Event "h"]

1. e4 e5 2. Nf3"#,
            b"[Ev\xe9nt \"a\"]\n[Event \"R\xe9ti\"]\n[Site \"R\xe9ti\"]\n\n\
              1. e4 {caf\xe9} e5\n% an escape line\n2. Ng1f3 *\n\n garbage after",
        ];
        let mut games = 0;
        for options in [ReadOptions::default(), ReadOptions::strict()] {
            for text in made {
                games += agree(text, options).unwrap_or_else(|d| panic!("made games: {d}"));
            }
        }
        for dir in dirs {
            let Ok(entries) = std::fs::read_dir(&dir) else {
                continue;
            };
            for entry in entries.flatten() {
                let path = entry.path();
                let Ok(text) = std::fs::read(&path) else {
                    continue;
                };
                for options in [ReadOptions::default(), ReadOptions::strict()] {
                    games +=
                        agree(&text, options).unwrap_or_else(|d| panic!("{}: {d}", path.display()));
                }
            }
        }
        assert!(games > 100, "{games} games");
    }
}
