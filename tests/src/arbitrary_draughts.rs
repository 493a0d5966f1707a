//! [`proptest`](mod@proptest) strategies for draughts, in any of the fourteen [`Variant`]s: random legal
//! games with comments, glyphs, move strengths, nested variations, set-up positions (the
//! `FEN` tag, and `/FEN "…"/` in the movetext, passes included), and random positions, for
//! the property tests of `tests/tests/properties_draughts.rs`.
//!
//! As in [`arbitrary_chess`](crate::arbitrary_chess), the strategies generate choice
//! records, not moves: [`GameSpec::build`] and [`PositionSpec::build`] play them with the
//! project's move generator ([`Position::legal_moves`]) in a given variant, so that a
//! failing game shrinks to a smaller legal game. The same records make a game in every
//! variant.
//!
//! Moves are chosen among the legal moves with distinct effects ([`choices`]): in Frisian
//! draughts, whose rules count every path of a capture, [`Position::legal_moves`] lists the
//! paths of one capture as several moves, while PDN writes and reads them as one move (the
//! first path).

use notation::{GameResult, GameTree, LineId, Nag};
use pdn::{GameType, Move, PdnMove, Position, Variant};
use proptest::collection::vec;
use proptest::prelude::*;

use crate::arbitrary::{choose, join, sparse};

use crate::arbitrary_chess::{TagSpec, tag_spec, text};

/// The legal moves with distinct effects, in the order [`Position::legal_moves`] gives them
/// (the first of the moves with one effect is kept).
pub fn choices(pos: &Position) -> Vec<Move> {
    let mut out: Vec<Move> = Vec::new();
    for m in pos.legal_moves() {
        if !out.iter().any(|o| o.same_effect(&m)) {
            out.push(m);
        }
    }
    out
}

/// A position reached by a random walk from the start of a variant (the walk stops early
/// where the game is over).
#[derive(Clone, Debug)]
pub struct PositionSpec {
    /// The moves, each an index modulo the number of [`choices`].
    pub plies: Vec<u16>,
}

impl PositionSpec {
    /// Plays the walk from the start of `game_type`.
    pub fn build(&self, game_type: GameType) -> Position {
        let mut pos = Position::start(game_type);
        self.play(&mut pos, |_| {});
        pos
    }

    /// Every position of the walk from the start of `game_type`, to the end.
    pub fn walk(&self, game_type: GameType) -> Vec<Position> {
        let mut pos = Position::start(game_type);
        let mut out = vec![pos.clone()];
        self.play(&mut pos, |p| out.push(p.clone()));
        out
    }

    /// Plays the walk on `pos`, calling `each` after every move.
    fn play(&self, pos: &mut Position, mut each: impl FnMut(&Position)) {
        for &pick in &self.plies {
            let Some(mv) = choose(&choices(pos), pick) else {
                break;
            };
            if pos.play(&mv).is_err() {
                break;
            }
            each(pos);
        }
    }
}

/// A random walk of up to `max_plies` moves: long walks reach kings and endgames.
pub fn position_spec(max_plies: usize) -> impl Strategy<Value = PositionSpec> {
    vec(any::<u16>(), 0..=max_plies).prop_map(|plies| PositionSpec { plies })
}

/// A `h:mm:ss` time.
fn time() -> impl Strategy<Value = String> {
    (0u32..6, 0u32..60, 0u32..60).prop_map(|(h, m, s)| format!("{h}:{m:02}:{s:02}"))
}

/// A command of a comment: both clocks (`[%clock w0:58:10 B0:59:02]`), one clock
/// (`[%clk 0:51:40]`) or an elapsed time (`[%emt 0:00:12]`).
pub fn command() -> impl Strategy<Value = String> {
    prop_oneof![
        (time(), time()).prop_map(|(w, b)| format!("[%clock w{w} B{b}]")),
        time().prop_map(|t| format!("[%clk {t}]")),
        time().prop_map(|t| format!("[%emt {t}]")),
    ]
}

/// A comment as the reader keeps it (words separated by single spaces), sometimes with a
/// command, rarely with a `}` (written as a rest-of-line comment).
pub fn comment() -> impl Strategy<Value = String> {
    prop_oneof![
        8 => text(5),
        3 => (command(), text(3)).prop_map(|(c, t)| join(&[&c, &t])),
        1 => (text(2), text(2)).prop_map(|(a, b)| join(&[&a, "}", &b])),
    ]
}

/// A glyph: the move strengths (`$1` to `$6`, written `!`, `?`, …) and the forced move
/// (`$7`) most often, then any other (PDN sets no upper bound; `$65535` is the largest kept).
pub fn nag() -> impl Strategy<Value = Nag> {
    prop_oneof![
        5 => 1u16..=7,
        2 => 8u16..=255,
        1 => 0u16..=u16::MAX,
    ]
    .prop_map(Nag)
}

/// A set-up in the movetext.
#[derive(Clone, Debug)]
pub enum SetupSpec {
    /// `/FEN "…"/` with a position reached from the start (ignored if no move can follow).
    Position(PositionSpec),
    /// `/FEN "B::"/`: the side to move passes (a FEN with no pieces).
    Pass,
}

/// One move of a line and what follows it.
#[derive(Clone, Debug)]
pub struct StepSpec {
    /// The move: an index modulo the number of [`choices`].
    pub pick: u16,
    /// Glyphs after the move.
    pub nags: Vec<Nag>,
    /// Comments after the move.
    pub comments: Vec<String>,
    /// Variations: alternatives to the move.
    pub variations: Vec<LineSpec>,
    /// A set-up after the move, replacing the position.
    pub setup: Option<SetupSpec>,
}

/// A line: the main line or a variation.
#[derive(Clone, Debug)]
pub struct LineSpec {
    /// Comments before the first move.
    pub comments: Vec<String>,
    /// A set-up at the start of a variation (ignored on the main line, and where no move
    /// could follow it).
    pub setup: Option<PositionSpec>,
    /// The moves.
    pub steps: Vec<StepSpec>,
}

fn setup_spec() -> impl Strategy<Value = SetupSpec> {
    prop_oneof![
        2 => position_spec(60).prop_map(SetupSpec::Position),
        1 => Just(SetupSpec::Pass),
    ]
}

/// A line of `length` moves whose moves branch into `variations`.
fn line_of(
    length: std::ops::RangeInclusive<usize>,
    variations: BoxedStrategy<Vec<LineSpec>>,
) -> impl Strategy<Value = LineSpec> {
    let step = (
        any::<u16>(),
        sparse(nag(), 5, 2),
        sparse(comment(), 6, 2),
        variations,
        proptest::option::weighted(0.03, setup_spec()),
    )
        .prop_map(|(pick, nags, comments, variations, setup)| StepSpec {
            pick,
            nags,
            comments,
            variations,
            setup,
        });
    (
        sparse(comment(), 8, 1),
        proptest::option::weighted(0.15, position_spec(60)),
        vec(step, length),
    )
        .prop_map(|(comments, setup, steps)| LineSpec {
            comments,
            setup,
            steps,
        })
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

/// A whole game, as choices; [`GameSpec::build`] plays it in a variant.
#[derive(Clone, Debug)]
pub struct GameSpec {
    /// The tags besides `GameType` and `FEN`.
    pub tags: TagSpec,
    /// A set-up position for the `FEN` tag, or the start.
    pub start: Option<PositionSpec>,
    /// Whether an international game writes its `GameType` tag (the other variants always
    /// do: without it the reader takes a game for international draughts, or infers).
    pub declare: bool,
    /// The main line.
    pub main: LineSpec,
    /// The result: an index into the game type's result tokens.
    pub result: usize,
}

/// A random game of up to `max_plies` moves in its main line.
pub fn game_spec(max_plies: usize) -> impl Strategy<Value = GameSpec> {
    (
        tag_spec(),
        proptest::option::weighted(0.4, position_spec(50)),
        any::<bool>(),
        main_line(max_plies),
        0usize..5,
    )
        .prop_map(|(tags, start, declare, main, result)| GameSpec {
            tags,
            start,
            declare,
            main,
            result,
        })
}

impl GameSpec {
    /// Whether the game, in `variant`, has a `GameType` tag.
    pub fn declares(&self, variant: Variant) -> bool {
        self.declare || variant != Variant::International
    }

    /// Builds the game in `variant`.
    pub fn build(&self, variant: Variant) -> GameTree<PdnMove> {
        let game_type = GameType::new(variant);
        let mut game = GameTree::new();
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
        if self.declares(variant) {
            game.tags.set("GameType", game_type.to_short_string());
        }
        let start = match &self.start {
            Some(spec) => {
                let pos = spec.build(game_type);
                game.tags.set("FEN", pos.to_fen());
                pos
            }
            None => Position::start(game_type),
        };
        let mut builder = Builder {
            game: &mut game,
            game_type,
        };
        builder.line(LineId::MAIN, start, &self.main, None);
        let tokens = game_type.result_type().tokens();
        game.result = GameResult::from_token(tokens[self.result % tokens.len()].as_bytes())
            .unwrap_or(GameResult::Unknown);
        game
    }
}

/// Plays choice records into a game.
struct Builder<'g> {
    game: &'g mut GameTree<PdnMove>,
    game_type: GameType,
}

impl Builder<'_> {
    /// A set-up position if a move can follow it.
    fn setup_position(&self, spec: &PositionSpec) -> Option<Position> {
        let pos = spec.build(self.game_type);
        pos.has_legal_moves().then_some(pos)
    }

    /// Plays a line's choices into `line` from `start`. The first move of a variation
    /// without a set-up has another effect than `exclude` (the move it is an alternative
    /// to) where there is another.
    fn line(&mut self, line: LineId, start: Position, spec: &LineSpec, exclude: Option<&Move>) {
        self.game
            .line_mut(line)
            .comments
            .extend(spec.comments.iter().cloned());
        let mut pos = start;
        let mut exclude = exclude;
        let set_up = spec
            .setup
            .as_ref()
            .filter(|_| line != LineId::MAIN)
            .and_then(|s| self.setup_position(s));
        if let Some(set_up) = set_up {
            self.game.line_mut(line).setup = Some(format!("FEN \"{}\"", set_up.to_fen()));
            pos = set_up;
            exclude = None;
        }
        for (i, step) in spec.steps.iter().enumerate() {
            let mut moves = choices(&pos);
            if let Some(ex) = exclude.filter(|_| i == 0 && moves.len() > 1) {
                moves.retain(|m| !m.same_effect(ex));
            }
            let Some(mv) = choose(&moves, step.pick) else {
                break;
            };
            let node = self.game.push_move(line, PdnMove::from(mv.clone()));
            let n = self.game.node_mut(node);
            n.nags.extend(step.nags.iter().copied());
            n.comments.extend(step.comments.iter().cloned());
            for variation in &step.variations {
                let id = self.game.add_variation(node);
                self.line(id, pos.clone(), variation, Some(&mv));
            }
            if pos.play(&mv).is_err() {
                break;
            }
            match &step.setup {
                Some(SetupSpec::Position(spec)) => {
                    if let Some(set_up) = self.setup_position(spec) {
                        self.game.node_mut(node).setup =
                            Some(format!("FEN \"{}\"", set_up.to_fen()));
                        let number = pos.fullmove_number();
                        pos = set_up;
                        // The move number goes on.
                        pos.set_fullmove_number(number);
                    }
                }
                Some(SetupSpec::Pass) => {
                    let turn = !pos.turn();
                    if let Ok(mut passed) =
                        Position::from_pieces(self.game_type, turn, pos.pieces())
                    {
                        // A pass by the second player completes a move.
                        let start = self.game_type.start();
                        let number =
                            pos.fullmove_number() + u32::from(pos.turn() != start && turn == start);
                        passed.set_fullmove_number(number);
                        if passed.has_legal_moves() {
                            let letter = turn.char();
                            self.game.node_mut(node).setup = Some(format!("FEN \"{letter}::\""));
                            pos = passed;
                        }
                    }
                }
                None => {}
            }
        }
    }
}
