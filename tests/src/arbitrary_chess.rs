//! [`proptest`](mod@proptest) strategies for chess: random legal games with comments, glyphs, nested
//! variations, set-up positions and Chess960, and random positions, for the property tests
//! of `tests/tests/properties_chess.rs`.
//!
//! The strategies do not generate moves. They generate small *choice* records: which legal
//! move to play (an index taken modulo the number of legal moves), which glyphs and comments
//! follow it, which variations branch off it. [`GameSpec::build`] and [`PositionSpec::build`]
//! turn the records into a game or a position deterministically, with the project's own move
//! generator ([`Position::legal_moves`]) and the game tree API ([`GameTree::push_move`](pgn::GameTree),
//! [`GameTree::add_variation`](pgn::GameTree)). Every record is valid in every position, so when a property
//! fails, proptest shrinks the game by dropping moves, annotations and variations and by
//! turning move choices into the first legal move, and what is left is still a legal game.

use pgn::{CastlingMode, GameResult, LineId, Move, Nag, Position, chess960};
use proptest::collection::vec;
use proptest::prelude::*;

use crate::arbitrary::{choose, join, sparse};
use proptest::sample::select;

/// The positions random walks start from (besides the Chess960 start positions), as FEN:
/// the standard start and a few positions that reach, in a few moves, what a walk from the
/// start rarely does: promotions and under-promotions, castling both ways, en passant, and
/// moves that need their origin's file, rank or whole square to tell them apart.
pub const BASES: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    // Pawns of both sides about to promote, with and without a capture.
    "1n4k1/PP6/8/8/8/8/6pp/1K4N1 w - - 0 1",
    // Both sides ready to castle either way.
    "r3k2r/pppqbppp/2np1n2/4p3/4P3/2NP1N2/PPPQBPPP/R3K2R w KQkq - 0 8",
    // Black's double steps next to White's pawns: en passant.
    "4k3/2p1p1p1/8/3P1P1P/8/8/8/4K3 b - - 0 1",
    // Four queens and three knights: disambiguation by file, by rank, by both.
    "6k1/8/8/1N6/Q3Q3/1N3N2/8/Q3Q2K w - - 0 1",
];

/// Where a random walk starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Base {
    /// One of the [`BASES`], by index.
    Fen(usize),
    /// A Chess960 start position, by its number (0 to 959).
    Chess960(u16),
}

impl Base {
    /// The position. Falls back to the standard start for an index out of range.
    pub fn position(&self) -> Position {
        match self {
            Base::Fen(i) => BASES
                .get(*i)
                .and_then(|fen| Position::from_fen(fen).ok())
                .unwrap_or_default(),
            Base::Chess960(n) => chess960::start_position(u32::from(*n)).unwrap_or_default(),
        }
    }

    /// Whether this is a Chess960 start.
    pub fn is_chess960(&self) -> bool {
        matches!(self, Base::Chess960(_))
    }
}

/// A random base: the standard start most often, then the special positions and Chess960.
pub fn base() -> impl Strategy<Value = Base> {
    prop_oneof![
        3 => Just(Base::Fen(0)),
        3 => (1..BASES.len()).prop_map(Base::Fen),
        2 => (0u16..960).prop_map(Base::Chess960),
    ]
}

/// A position reached by a random walk: the base, then one legal move per pick (the walk
/// stops early where the game is over).
#[derive(Clone, Debug)]
pub struct PositionSpec {
    /// Where the walk starts.
    pub base: Base,
    /// The moves, each an index modulo the number of legal moves.
    pub plies: Vec<u16>,
}

impl PositionSpec {
    /// Plays the walk.
    pub fn build(&self) -> Position {
        self.walk().pop().unwrap_or_default()
    }

    /// Every position of the walk, from the base to the end.
    pub fn walk(&self) -> Vec<Position> {
        let mut pos = self.base.position();
        let mut out = vec![pos];
        for &pick in &self.plies {
            let moves: Vec<Move> = pos.legal_moves().iter().copied().collect();
            match choose(&moves, pick) {
                Some(mv) => pos = pos.play(&mv),
                None => break,
            }
            out.push(pos);
        }
        out
    }
}

/// A random position: a walk of up to `max_plies` moves from a random base.
pub fn position_spec(max_plies: usize) -> impl Strategy<Value = PositionSpec> {
    (base(), vec(any::<u16>(), 0..=max_plies))
        .prop_map(|(base, plies)| PositionSpec { base, plies })
}

/// Characters of the words of comments and tag values: letters, digits, punctuation and some
/// non-ASCII text. No white space (words are joined with single spaces, as the reader folds
/// them), no `}` (see [`comment`]), no `%` (an escape line when it starts a line).
const CHARS: &[char] = &[
    'a', 'b', 'e', 'k', 'n', 'o', 'q', 'r', 's', 't', 'x', 'B', 'K', 'N', 'Q', 'R', '0', '1', '2',
    '5', '9', '.', ',', '!', '?', '-', '+', '=', '#', '(', ')', '[', ']', '{', ';', ':', '/', '\'',
    '"', '\\', '*', '$', '<', '>', 'é', 'ü', 'ß', '—', '½', '♔', '中',
];

/// Whole words of annotators' prose.
const WORDS: &[&str] = &[
    "White",
    "Black",
    "keeps",
    "the",
    "initiative",
    "only",
    "move",
    "better",
    "was",
    "1.e4",
    "Nf3!?",
    "(unclear)",
    "+-",
    "=",
];

/// A word: one of [`WORDS`] or a few random characters.
fn word() -> impl Strategy<Value = String> {
    prop_oneof![
        select(WORDS).prop_map(str::to_owned),
        vec(select(CHARS), 1..=7).prop_map(|chars| chars.into_iter().collect()),
    ]
}

/// Up to `max` words, separated by single spaces: the form the reader keeps a comment in.
pub fn text(max: usize) -> impl Strategy<Value = String> {
    vec(word(), 0..=max).prop_map(|words| words.join(" "))
}

/// A command of a comment: a clock (`[%clk 1:02:03]`), an elapsed time or an evaluation.
pub fn command() -> impl Strategy<Value = String> {
    prop_oneof![
        (0u32..10, 0u32..60, 0u32..60).prop_map(|(h, m, s)| format!("[%clk {h}:{m:02}:{s:02}]")),
        (0u32..3, 0u32..60, 0u32..60).prop_map(|(h, m, s)| format!("[%emt {h}:{m:02}:{s:02}]")),
        (-900i32..900).prop_map(|cp| {
            let sign = if cp < 0 { "-" } else { "" };
            let cp = cp.unsigned_abs();
            format!("[%eval {sign}{}.{:02}]", cp / 100, cp % 100)
        }),
    ]
}

/// A comment as the reader keeps it: words separated by single spaces, sometimes with a
/// command first, sometimes empty. Rarely it holds a `}`, which a brace comment cannot: the
/// writer then writes it as a rest-of-line comment (`;`).
pub fn comment() -> impl Strategy<Value = String> {
    prop_oneof![
        8 => text(5),
        3 => (command(), text(3)).prop_map(|(c, t)| join(&[&c, &t])),
        1 => (text(2), text(2)).prop_map(|(a, b)| join(&[&a, "}", &b])),
    ]
}

/// A glyph: the six move assessments most often, then the others of PGN (`$0` to `$255`).
pub fn nag() -> impl Strategy<Value = Nag> {
    prop_oneof![
        4 => 1u16..=6,
        2 => 7u16..=22,
        1 => 0u16..=255,
    ]
    .prop_map(Nag)
}

/// One move of a line and what follows it.
#[derive(Clone, Debug)]
pub struct StepSpec {
    /// The move: an index modulo the number of legal moves.
    pub pick: u16,
    /// Glyphs after the move.
    pub nags: Vec<Nag>,
    /// Comments after the move.
    pub comments: Vec<String>,
    /// Variations: alternatives to the move.
    pub variations: Vec<LineSpec>,
}

/// A line: the main line or a variation.
#[derive(Clone, Debug)]
pub struct LineSpec {
    /// Comments before the first move.
    pub comments: Vec<String>,
    /// The moves.
    pub steps: Vec<StepSpec>,
}

/// A line of `length` moves whose moves branch into `variations`.
fn line_of(
    length: std::ops::RangeInclusive<usize>,
    variations: BoxedStrategy<Vec<LineSpec>>,
) -> impl Strategy<Value = LineSpec> {
    let step = (
        any::<u16>(),
        sparse(nag(), 6, 2),
        sparse(comment(), 6, 2),
        variations,
    )
        .prop_map(|(pick, nags, comments, variations)| StepSpec {
            pick,
            nags,
            comments,
            variations,
        });
    (sparse(comment(), 8, 1), vec(step, length))
        .prop_map(|(comments, steps)| LineSpec { comments, steps })
}

/// A variation: one to six moves, with variations of its own down to two more levels.
fn variation() -> BoxedStrategy<LineSpec> {
    line_of(1..=6, Just(Vec::new()).boxed())
        .prop_recursive(2, 24, 2, |inner| {
            line_of(1..=6, sparse(inner, 10, 2)).boxed()
        })
        .boxed()
}

/// A main line of up to `max_plies` moves, with nested variations.
pub fn main_line(max_plies: usize) -> impl Strategy<Value = LineSpec> {
    line_of(0..=max_plies, sparse(variation(), 12, 2))
}

/// How a game starts.
#[derive(Clone, Debug)]
pub enum Start {
    /// The standard start, no set-up tags.
    Standard,
    /// A set-up position (`SetUp "1"`, `FEN`, and `Variant "Chess960"` for a Chess960 base).
    SetUp {
        /// The position.
        position: PositionSpec,
        /// Write the FEN tag as Shredder-FEN (rook files) rather than X-FEN.
        shredder: bool,
    },
}

/// Tags besides the set-up tags.
#[derive(Clone, Debug)]
pub struct TagSpec {
    /// `Event`.
    pub event: Option<String>,
    /// `White`.
    pub white: Option<String>,
    /// `Black`.
    pub black: Option<String>,
    /// `Date`: year, month, day.
    pub date: Option<(u16, u8, u8)>,
    /// `Round`.
    pub round: Option<u16>,
}

/// Random tags: free text (with quotes and backslashes, which the writer escapes), a date,
/// a round.
pub fn tag_spec() -> impl Strategy<Value = TagSpec> {
    let free = || proptest::option::of(text(4));
    (
        free(),
        free(),
        free(),
        proptest::option::of((1850u16..2100, 1u8..=12, 1u8..=28)),
        proptest::option::of(1u16..200),
    )
        .prop_map(|(event, white, black, date, round)| TagSpec {
            event,
            white,
            black,
            date,
            round,
        })
}

/// A whole game, as choices.
#[derive(Clone, Debug)]
pub struct GameSpec {
    /// The tags.
    pub tags: TagSpec,
    /// The start.
    pub start: Start,
    /// The main line.
    pub main: LineSpec,
    /// The result.
    pub result: GameResult,
}

/// A random game of up to `max_plies` moves in its main line.
pub fn game_spec(max_plies: usize) -> impl Strategy<Value = GameSpec> {
    let start = prop_oneof![
        2 => Just(Start::Standard),
        3 => (position_spec(40), any::<bool>())
            .prop_map(|(position, shredder)| Start::SetUp { position, shredder }),
    ];
    let result = select(vec![
        GameResult::FirstWins,
        GameResult::SecondWins,
        GameResult::Draw,
        GameResult::Unknown,
    ]);
    (tag_spec(), start, main_line(max_plies), result).prop_map(|(tags, start, main, result)| {
        GameSpec {
            tags,
            start,
            main,
            result,
        }
    })
}

impl GameSpec {
    /// The start position.
    pub fn start_position(&self) -> Position {
        match &self.start {
            Start::Standard => Position::new(),
            Start::SetUp { position, .. } => position.build(),
        }
    }

    /// Builds the game.
    pub fn build(&self) -> pgn::GameTree {
        let mut game = pgn::GameTree::new();
        let t = &self.tags;
        if let Some(v) = &t.event {
            game.tags.set("Event", v.as_str());
        }
        if let Some((y, m, d)) = t.date {
            game.tags.set("Date", format!("{y:04}.{m:02}.{d:02}"));
        }
        if let Some(r) = t.round {
            game.tags.set("Round", r.to_string());
        }
        if let Some(v) = &t.white {
            game.tags.set("White", v.as_str());
        }
        if let Some(v) = &t.black {
            game.tags.set("Black", v.as_str());
        }
        let start = self.start_position();
        if let Start::SetUp { position, shredder } = &self.start {
            let chess960 = position.base.is_chess960();
            if chess960 {
                game.tags.set("Variant", "Chess960");
            }
            game.tags.set("SetUp", "1");
            let fen = if *shredder && start.castles().mode() == CastlingMode::Chess960 {
                start.to_shredder_fen()
            } else {
                start.to_fen()
            };
            game.tags.set("FEN", fen);
        }
        build_line(&mut game, LineId::MAIN, start, &self.main, None);
        game.result = self.result;
        game
    }
}

/// Plays a line's choices into `line` from `start`. The first move of a variation is another
/// move than `exclude` (the move it is an alternative to) where there is another.
fn build_line(
    game: &mut pgn::GameTree,
    line: LineId,
    start: Position,
    spec: &LineSpec,
    exclude: Option<Move>,
) {
    game.line_mut(line)
        .comments
        .extend(spec.comments.iter().cloned());
    let mut pos = start;
    for (i, step) in spec.steps.iter().enumerate() {
        let mut moves: Vec<Move> = pos.legal_moves().iter().copied().collect();
        if let Some(ex) = exclude.filter(|_| i == 0 && moves.len() > 1) {
            moves.retain(|m| *m != ex);
        }
        let Some(mv) = choose(&moves, step.pick) else {
            break;
        };
        let node = game.push_move(line, mv);
        game.node_mut(node).nags.extend(step.nags.iter().copied());
        game.node_mut(node)
            .comments
            .extend(step.comments.iter().cloned());
        for variation in &step.variations {
            let id = game.add_variation(node);
            build_line(game, id, pos, variation, Some(mv));
        }
        pos = pos.play(&mv);
    }
}
