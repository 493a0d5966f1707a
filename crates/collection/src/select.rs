//! `notate select`: the games that match every criterion.
//!
//! Criteria are read once ([`Criteria::parse`]) and made ready for each format's rules
//! ([`Selection::new`]): a `--position` FEN or a `--material` pattern is chess or
//! draughts, and matches no game of the other format. A game is judged in the worker
//! that read it; the emitter writes the selected ones (or, `--invert`, the others) in
//! input order.
//!
//! A game that cannot be read (it has an error) is never selected, unless
//! `--with-errors` asks for such games: it is reported, and goes to `--rejects` when
//! given, else to the output of `--invert` (it does not match), so that `select` and
//! `select --invert` (and the rejects) together hold every game.
//!
//! When the criteria include tags and the games that do not match go nowhere (no
//! `--invert`), a game whose tags do not match is passed over: its movetext is only
//! lexed to find where it ends ([`notation::GameReader::movetext_only_if`]), so that
//! picking a player's games out of a large file costs little more than `scan`.

use std::cmp::Ordering;
use std::fmt::Write as _;
use std::io::{self, Write};

use notation::{
    Diagnostic, GameResult, GameTree, MoveContext, RawTags, ReadGame, ReadOptions, Severity,
    TagLookup, Tags,
};
use pgn::openings::Eco;

use crate::fmt::{Emitter, Fate, FmtTask, Inspect, Item, Text};
use crate::fold::{contains_folded, fold};
use crate::input::{Format, Placed};
use crate::job::{Ended, Job, Stopped, with_rules};
use crate::rules::FormatRules;
use crate::{mainline, pipeline};

pub use boards::{
    Boards, ChessMaterial, ChessPattern, DraughtsMaterial, DraughtsPattern, DraughtsReady, End,
};
mod boards;
pub mod picked;

/// An inclusive range of counts, either end open.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Span {
    /// The least, when bounded.
    pub min: Option<u64>,
    /// The most, when bounded.
    pub max: Option<u64>,
}

impl Span {
    /// Reads `MIN..MAX`, `MIN..`, `..MAX` or `N`.
    pub fn parse(text: &str) -> Result<Span, String> {
        let number = |s: &str| -> Result<Option<u64>, String> {
            let s = s.trim();
            if s.is_empty() {
                return Ok(None);
            }
            s.parse()
                .map(Some)
                .map_err(|_| format!("{s:?} is not a count (write MIN..MAX, MIN.., ..MAX or N)"))
        };
        let span = match text.split_once("..") {
            Some((min, max)) => Span {
                min: number(min)?,
                max: number(max)?,
            },
            None => {
                let n = number(text)?;
                Span { min: n, max: n }
            }
        };
        if span.min.is_none() && span.max.is_none() {
            return Err(format!("{text:?} bounds nothing"));
        }
        Ok(span)
    }

    fn contains(&self, n: u64) -> bool {
        self.min.is_none_or(|m| n >= m) && self.max.is_none_or(|m| n <= m)
    }
}

/// How a tag's value is tested.
#[derive(Clone, Debug, PartialEq)]
enum TagTest {
    /// The tag is there (`--tag Annotator`).
    Present,
    /// The tag is not there (`--tag '!Annotator'`).
    Absent,
    /// The value contains this text, ignoring case and accents (`~`); folded.
    Contains(String),
    /// The value compares so with the bound (`=`, `!=`, `<`, `<=`, `>`, `>=`).
    Compare(Comparison, Value),
    /// The value lies in the range, ends included (`=LOW..HIGH`).
    Between(Value, Value),
}

/// A comparison of a value with a bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Comparison {
    Equal,
    NotEqual,
    Less,
    LessOrEqual,
    Greater,
    GreaterOrEqual,
}

impl Comparison {
    fn holds(self, ordering: Ordering) -> bool {
        match self {
            Comparison::Equal => ordering.is_eq(),
            Comparison::NotEqual => ordering.is_ne(),
            Comparison::Less => ordering.is_lt(),
            Comparison::LessOrEqual => ordering.is_le(),
            Comparison::Greater => ordering.is_gt(),
            Comparison::GreaterOrEqual => ordering.is_ge(),
        }
    }
}

/// A bound, read as the kind of value the tag holds.
#[derive(Clone, Debug, PartialEq)]
enum Value {
    /// A whole number (ratings, `PlyCount`, any tag whose bound is one).
    Number(i64),
    /// A date, `YYYY`, `YYYY.MM` or `YYYY.MM.DD`: the parts it gives.
    Date(Vec<u32>),
    /// An ECO code, `A00` to `E99`.
    Eco(Eco),
    /// A round, `3` or `3.1`: its numbers.
    Round(Vec<u64>),
    /// Anything else, compared as text.
    Text(String),
}

impl Value {
    /// Reads a bound for the tag `name`: dates for the tags named `…Date`, codes for
    /// `ECO`, rounds for `Round`, numbers where the bound is one, else text.
    fn bound(name: &str, text: &str) -> Result<Value, String> {
        let text = text.trim();
        if name.ends_with("Date") {
            return date_bound(text).map(Value::Date).ok_or_else(|| {
                format!("{text:?} is not a date: write YYYY, YYYY.MM or YYYY.MM.DD")
            });
        }
        if name == "ECO" {
            return text
                .parse()
                .map(Value::Eco)
                .map_err(|e| format!("{text:?} is not an ECO code: {e}"));
        }
        if name == "Round" {
            return round(text)
                .map(Value::Round)
                .ok_or_else(|| format!("{text:?} is not a round (3, or 3.1)"));
        }
        Ok(match text.parse() {
            Ok(n) => Value::Number(n),
            Err(_) => Value::Text(text.to_owned()),
        })
    }

    /// How a tag's value compares with this bound; `None` when the value is not of the
    /// bound's kind or lacks a part the bound needs (`2020.??.??` for `2020.06`).
    fn compare(&self, value: &str) -> Option<Ordering> {
        let value = value.trim();
        match self {
            Value::Number(bound) => value.parse::<i64>().ok().map(|v| v.cmp(bound)),
            Value::Date(bound) => {
                let parts = game_date(value)?;
                for (part, bound) in parts.iter().zip(bound) {
                    match (*part)?.cmp(bound) {
                        Ordering::Equal => {}
                        other => return Some(other),
                    }
                }
                Some(Ordering::Equal)
            }
            Value::Eco(bound) => value.parse::<Eco>().ok().map(|v| v.cmp(bound)),
            Value::Round(bound) => round(value).map(|v| v.cmp(bound)),
            Value::Text(bound) => Some(value.cmp(bound.as_str())),
        }
    }
}

/// `YYYY`, `YYYY.MM` or `YYYY.MM.DD` as its parts (a bound gives no unknown part).
fn date_bound(text: &str) -> Option<Vec<u32>> {
    let parts: Vec<&str> = text.split(['.', '-', '/']).collect();
    if parts.is_empty() || parts.len() > 3 || parts[0].len() != 4 {
        return None;
    }
    parts
        .iter()
        .map(|p| {
            if p.is_empty() || p.len() > 4 || !p.bytes().all(|b| b.is_ascii_digit()) {
                None
            } else {
                p.parse().ok()
            }
        })
        .collect()
}

/// A game's date, `YYYY.MM.DD`, each part a number or unknown (`??`); `None` when it is
/// not a date at all.
fn game_date(text: &str) -> Option<[Option<u32>; 3]> {
    let mut parts = text.split('.');
    let mut date = [None; 3];
    for slot in &mut date {
        let part = parts.next()?;
        if part.bytes().all(|b| b == b'?') {
            continue;
        }
        if !part.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        *slot = part.parse().ok();
    }
    Some(date)
}

/// A round's numbers: `3` or `3.1` (PGN's rounds within rounds).
fn round(text: &str) -> Option<Vec<u64>> {
    text.split('.').map(|p| p.parse().ok()).collect()
}

/// A `--tag` criterion: a tag name and its test.
#[derive(Clone, Debug, PartialEq)]
pub struct TagCriterion {
    name: String,
    test: TagTest,
}

impl TagCriterion {
    /// Reads `Name`, `!Name`, `Name~text`, `Name=value`, `Name=LOW..HIGH`, `Name!=value`,
    /// `Name<value`, `Name<=value`, `Name>value` or `Name>=value`.
    pub fn parse(text: &str) -> Result<TagCriterion, String> {
        let text = text.trim();
        if let Some(name) = text.strip_prefix('!') {
            return Ok(TagCriterion {
                name: tag_name(name)?,
                test: TagTest::Absent,
            });
        }
        let Some(at) = text.find(['=', '~', '<', '>', '!']) else {
            return Ok(TagCriterion {
                name: tag_name(text)?,
                test: TagTest::Present,
            });
        };
        let name = tag_name(&text[..at])?;
        let rest = &text[at..];
        let (op, bound) = [
            ("!=", Comparison::NotEqual),
            ("<=", Comparison::LessOrEqual),
            (">=", Comparison::GreaterOrEqual),
            ("=", Comparison::Equal),
            ("<", Comparison::Less),
            (">", Comparison::Greater),
        ]
        .into_iter()
        .find_map(|(op, c)| rest.strip_prefix(op).map(|bound| (Some(c), bound)))
        .or_else(|| rest.strip_prefix('~').map(|bound| (None, bound)))
        .ok_or_else(|| format!("{text:?}: expected =, !=, <, <=, >, >= or ~ after the tag name"))?;
        let test = match op {
            None => TagTest::Contains(fold(bound.trim())),
            Some(Comparison::Equal) => match bound.split_once("..") {
                Some((low, high)) => {
                    TagTest::Between(Value::bound(&name, low)?, Value::bound(&name, high)?)
                }
                None => TagTest::Compare(Comparison::Equal, Value::bound(&name, bound)?),
            },
            Some(c) => TagTest::Compare(c, Value::bound(&name, bound)?),
        };
        Ok(TagCriterion { name, test })
    }

    fn matches(&self, tags: &impl TagLookup) -> bool {
        let value = tags.lookup(&self.name);
        let value = value.as_deref();
        match (&self.test, value) {
            (TagTest::Present, v) => v.is_some(),
            (TagTest::Absent, v) => v.is_none(),
            (_, None) => false,
            (TagTest::Contains(needle), Some(v)) => contains_folded(v, needle),
            (TagTest::Compare(c, bound), Some(v)) => bound.compare(v).is_some_and(|o| c.holds(o)),
            (TagTest::Between(low, high), Some(v)) => {
                low.compare(v).is_some_and(Ordering::is_ge)
                    && high.compare(v).is_some_and(Ordering::is_le)
            }
        }
    }
}

fn tag_name(text: &str) -> Result<String, String> {
    let name = text.trim();
    if name.is_empty() || !name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
        return Err(format!(
            "{name:?} is not a tag name (letters, digits and `_`)"
        ));
    }
    Ok(name.to_owned())
}

/// Who won, whatever the scale the result is written on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Decision {
    FirstWins,
    SecondWins,
    Draw,
    Unknown,
    DoubleForfeit,
}

impl Decision {
    fn of(result: GameResult) -> Decision {
        match result {
            GameResult::FirstWins | GameResult::FirstWinsTwo => Decision::FirstWins,
            GameResult::SecondWins | GameResult::SecondWinsTwo => Decision::SecondWins,
            GameResult::Draw | GameResult::DrawTwo => Decision::Draw,
            GameResult::Unknown => Decision::Unknown,
            GameResult::DoubleForfeit => Decision::DoubleForfeit,
        }
    }

    /// Reads `1-0`, `0-1`, `1/2-1/2` (`½-½`, `draw`), `2-0`, `0-2`, `1-1`, `0-0`, `*`.
    fn parse(text: &str) -> Result<Decision, String> {
        Ok(match text.trim() {
            "1-0" | "2-0" => Decision::FirstWins,
            "0-1" | "0-2" => Decision::SecondWins,
            "1/2-1/2" | "½-½" | "1-1" | "=" | "draw" => Decision::Draw,
            "*" => Decision::Unknown,
            "0-0" => Decision::DoubleForfeit,
            other => {
                return Err(format!(
                    "{other:?} is not a result: 1-0, 0-1, 1/2-1/2, * (chess), 2-0, 0-2, \
                     1-1, 0-0 (draughts)"
                ));
            }
        })
    }
}

/// Every criterion of a `select` run, as given on the command line.
#[derive(Clone, Debug, Default)]
pub struct Criteria {
    tags: Vec<TagCriterion>,
    players: Vec<String>,
    results: Vec<Decision>,
    plies: Option<Span>,
    moves: Option<Span>,
    opening: Option<Vec<String>>,
    position: Option<String>,
    material: Option<(String, bool)>,
    checkmate: bool,
    stalemate: bool,
    underpromotion: bool,
    threefold: bool,
    fifty_moves: bool,
    errors: Option<bool>,
    warnings: bool,
}

/// The criteria of `select` as a person writes them, before they are read: a game
/// is selected when it matches all of them.
#[derive(Clone, Debug, Default)]
pub struct Given {
    /// A tag test: `Name=value` (equal), `Name~text` (contains, ignoring case and
    /// accents), `Name>=value` (also `>`, `<`, `<=`, `!=`), `Name=LOW..HIGH`, `Name`
    /// (present), `!Name` (absent). Numbers, dates (`Date>=2020.01.01`), ECO codes and
    /// rounds compare as such. Repeatable: all must hold.
    pub tags: Vec<String>,
    /// White or Black contains NAME, ignoring case and accents. Repeatable: all must hold.
    pub players: Vec<String>,
    /// The result: 1-0, 0-1, 1/2-1/2, *, or draughts' 2-0, 0-2, 1-1, 0-0 (a win is a
    /// win on either scale). Repeatable: any of them.
    pub results: Vec<String>,
    /// Plies in the main line: MIN..MAX, MIN.., ..MAX or N.
    pub plies: Option<String>,
    /// Moves in the main line (plies / 2, rounded up): MIN..MAX, MIN.., ..MAX or N.
    pub moves: Option<String>,
    /// The main line starts with these moves, compared as moves: "1. e4 c5 2. Nf3".
    pub opening: Option<String>,
    /// A position of the main line: a FEN (chess: placement and side to move, placement
    /// alone for either side; draughts: either square notation, `?` for either side).
    pub position: Option<String>,
    /// A position of the main line has exactly this material: chess `KQRPPkqrp`
    /// (upper case White), draughts men and kings per side `W:3m1k B:2m`.
    pub material: Option<String>,
    /// As --material, at least these pieces.
    pub material_at_least: Option<String>,
    /// The main line ends in checkmate (chess).
    pub checkmate: bool,
    /// The main line ends in stalemate (chess).
    pub stalemate: bool,
    /// A main-line pawn promotes to a rook, bishop or knight (chess).
    pub underpromotion: bool,
    /// A main-line position occurs a third time (chess).
    pub threefold: bool,
    /// The main line reaches fifty moves without a capture or pawn move (chess).
    pub fifty_moves: bool,
    /// Only games with an error (written as they were read).
    pub with_errors: bool,
    /// Only games without an error.
    pub without_errors: bool,
    /// Only games with a warning.
    pub with_warnings: bool,
}

impl Criteria {
    /// Reads the criteria; an error says which one cannot be read and why.
    pub fn parse(given: &Given) -> Result<Criteria, String> {
        let opening = given.opening.as_deref().map(opening_tokens);
        if opening.as_ref().is_some_and(Vec::is_empty) {
            return Err("--opening: no moves given".to_owned());
        }
        let material = match (&given.material, &given.material_at_least) {
            (Some(_), Some(_)) => {
                return Err("give --material or --material-at-least, not both".to_owned());
            }
            (Some(m), None) => Some((m.clone(), false)),
            (None, Some(m)) => Some((m.clone(), true)),
            (None, None) => None,
        };
        if given.with_errors && given.without_errors {
            return Err("give --with-errors or --without-errors, not both".to_owned());
        }
        Ok(Criteria {
            tags: given
                .tags
                .iter()
                .map(|t| TagCriterion::parse(t).map_err(|e| format!("--tag: {e}")))
                .collect::<Result<_, _>>()?,
            players: given.players.iter().map(|p| fold(p.trim())).collect(),
            results: given
                .results
                .iter()
                .map(|r| Decision::parse(r).map_err(|e| format!("--result: {e}")))
                .collect::<Result<_, _>>()?,
            plies: given
                .plies
                .as_deref()
                .map(Span::parse)
                .transpose()
                .map_err(|e| format!("--plies: {e}"))?,
            moves: given
                .moves
                .as_deref()
                .map(Span::parse)
                .transpose()
                .map_err(|e| format!("--moves: {e}"))?,
            opening,
            position: given.position.clone(),
            material,
            checkmate: given.checkmate,
            stalemate: given.stalemate,
            underpromotion: given.underpromotion,
            threefold: given.threefold,
            fifty_moves: given.fifty_moves,
            errors: if given.with_errors {
                Some(true)
            } else if given.without_errors {
                Some(false)
            } else {
                None
            },
            warnings: given.with_warnings,
        })
    }

    /// Whether games with errors are wanted (`--with-errors`).
    pub fn wants_errors(&self) -> bool {
        self.errors == Some(true)
    }

    /// Whether a criterion looks at the moves (beyond the tags, the result and the
    /// diagnostics).
    fn reads_moves(&self) -> bool {
        self.plies.is_some()
            || self.moves.is_some()
            || self.opening.is_some()
            || self.position.is_some()
            || self.material.is_some()
            || self.checkmate
            || self.stalemate
            || self.underpromotion
            || self.threefold
            || self.fifty_moves
    }
}

/// The moves of `--opening`, without move numbers: `1. e4 c5 2.Nf3` → `e4 c5 Nf3`.
fn opening_tokens(text: &str) -> Vec<String> {
    text.split_whitespace()
        .filter_map(|word| {
            // A move number is digits then dots; a draughts move (`32-28`) starts with
            // digits too, but not followed by a dot.
            let digits = word.bytes().take_while(u8::is_ascii_digit).count();
            let dots = word[digits..].bytes().take_while(|&b| b == b'.').count();
            let rest = if digits > 0 && dots > 0 {
                &word[digits + dots..]
            } else {
                word
            };
            (!rest.is_empty()).then(|| rest.to_owned())
        })
        .collect()
}

/// The criteria made ready for one format's rules.
pub struct Selection<'c, G: Boards> {
    criteria: &'c Criteria,
    /// `--position`, read in this format; `Err` when it is not this format's FEN.
    pattern: Option<Result<G::Pattern, String>>,
    /// `--material`, read in this format.
    material: Option<Result<(G::Material, bool), String>>,
    /// Whether `select` writes the games that do not match.
    invert: bool,
}

impl<'c, G: Boards> Selection<'c, G> {
    /// Makes the criteria ready for `rules`.
    pub fn new(rules: &G, criteria: &'c Criteria, invert: bool) -> Selection<'c, G> {
        Selection {
            criteria,
            pattern: criteria.position.as_deref().map(|p| rules.pattern(p)),
            material: criteria
                .material
                .as_ref()
                .map(|(m, at_least)| rules.material(m).map(|m| (m, *at_least))),
            invert,
        }
    }

    /// Why this format cannot read `--position` and `--material` (a chess FEN for
    /// draughts games), in that order: no game of this format matches them.
    pub fn unreadable(&self) -> [Option<&str>; 2] {
        [
            self.pattern.as_ref().and_then(|p| p.as_ref().err()),
            self.material.as_ref().and_then(|m| m.as_ref().err()),
        ]
        .map(|e| e.map(String::as_str))
    }

    fn matches(&self, rules: &G, game: &GameTree<G::Move>, diagnostics: &[Diagnostic]) -> bool {
        if !self.read_matches(&game.tags, game.result, diagnostics) {
            return false;
        }
        let c = self.criteria;
        let plies = game.mainline().count() as u64;
        if c.plies.is_some_and(|s| !s.contains(plies))
            || c.moves.is_some_and(|s| !s.contains(plies.div_ceil(2)))
        {
            return false;
        }
        if let Some(tokens) = &c.opening
            && !self.opens_with(rules, game, tokens)
        {
            return false;
        }
        self.positions_match(rules, game)
    }

    /// The criteria on what a game's reading gives without its moves: its diagnostics
    /// (`--errors`, `--warnings`), its tags and its result.
    fn read_matches(&self, tags: &Tags, result: GameResult, diagnostics: &[Diagnostic]) -> bool {
        let c = self.criteria;
        let has = |severity| diagnostics.iter().any(|d| d.severity == severity);
        if let Some(errors) = c.errors
            && has(Severity::Error) != errors
        {
            return false;
        }
        if c.warnings && !has(Severity::Warning) {
            return false;
        }
        if !c.tags.iter().all(|t| t.matches(tags)) {
            return false;
        }
        if !c.players.iter().all(|p| {
            ["White", "Black"]
                .iter()
                .any(|side| tags.get(side).is_some_and(|name| contains_folded(name, p)))
        }) {
            return false;
        }
        c.results.is_empty() || c.results.contains(&Decision::of(result))
    }

    /// The criteria on tags alone: `--tag` and `--player`.
    fn tags_match(&self, tags: &impl TagLookup) -> bool {
        let c = self.criteria;
        c.tags.iter().all(|t| t.matches(tags))
            && c.players.iter().all(|p| {
                ["White", "Black"].iter().any(|side| {
                    tags.lookup(side)
                        .is_some_and(|name| contains_folded(&name, p))
                })
            })
    }

    /// Whether the main line starts with the moves of `--opening`, read in the game's
    /// start position.
    fn opens_with(&self, rules: &G, game: &GameTree<G::Move>, tokens: &[String]) -> bool {
        let Some(mut position) = rules.start(game) else {
            return false;
        };
        let mut main = game.mainline();
        for token in tokens {
            let Some(node) = main.next() else {
                return false;
            };
            let Ok((mv, _)) = rules.read_move(&position, token.as_bytes(), MoveContext::default())
            else {
                return false;
            };
            if !rules.same_move(&mv, &node.mv) {
                return false;
            }
            rules.play(&mut position, &node.mv);
        }
        true
    }

    /// The criteria on the positions of the main line, checked in one walk.
    fn positions_match(&self, rules: &G, game: &GameTree<G::Move>) -> bool {
        let c = self.criteria;
        let wants_walk = self.pattern.is_some()
            || self.material.is_some()
            || c.checkmate
            || c.stalemate
            || c.underpromotion
            || c.threefold
            || c.fifty_moves;
        if !wants_walk {
            return true;
        }
        let Some(start) = rules.start(game) else {
            return false;
        };
        let pattern = match &self.pattern {
            None => None,
            Some(Err(_)) => return false,
            Some(Ok(pattern)) => match rules.ready(pattern, &start) {
                Some(ready) => Some(ready),
                None => return false,
            },
        };
        let material = match &self.material {
            None => None,
            Some(Err(_)) => return false,
            Some(Ok(m)) => Some(m),
        };
        if c.threefold && rules.repetition_key(&start).is_none() {
            return false;
        }
        let mut seen_pattern = pattern.is_none();
        let mut seen_material = material.is_none();
        let mut seen_underpromotion = !c.underpromotion;
        let mut seen_threefold = !c.threefold;
        let mut seen_fifty = !c.fifty_moves;
        let mut end = End::Open;
        let mut keys: Vec<u64> = Vec::new();
        let walked = mainline::walk(rules, start, game, |position, mv| {
            if let Some(p) = &pattern {
                seen_pattern |= rules.matches(p, position);
            }
            if let Some((m, at_least)) = material {
                seen_material |= rules.has_material(m, position, *at_least);
            }
            if !seen_threefold && let Some((key, irreversible)) = rules.repetition_key(position) {
                if irreversible {
                    keys.clear();
                }
                keys.push(key);
                seen_threefold = keys.iter().filter(|&&k| k == key).count() >= 3;
            }
            if !seen_fifty {
                seen_fifty = rules.is_fifty_moves(position);
            }
            match mv {
                Some(mv) if !seen_underpromotion => {
                    seen_underpromotion = rules.is_underpromotion(mv);
                }
                Some(_) => {}
                None if c.checkmate || c.stalemate => end = rules.end(position),
                None => {}
            }
            true
        });
        walked
            && seen_pattern
            && seen_material
            && seen_underpromotion
            && seen_threefold
            && seen_fifty
            && (!c.checkmate || end == End::Checkmate)
            && (!c.stalemate || end == End::Stalemate)
    }
}

impl<G: Boards> Inspect<G> for Selection<'_, G> {
    type Verdict = bool;

    /// Criteria on moves and positions need every game's tree, large ones too.
    fn needs_tree(&self) -> bool {
        self.criteria.reads_moves()
    }

    fn inspect(&self, rules: &G, game: &mut ReadGame<G::Move>) -> bool {
        let has_error = game.has_errors();
        if has_error && !self.criteria.wants_errors() {
            return false;
        }
        self.matches(rules, &game.game, &game.diagnostics)
    }

    /// Criteria on tags, results and diagnostics alone need no tree.
    fn judges_without_tree(&self) -> bool {
        !self.criteria.reads_moves()
    }

    fn judge_without_tree(
        &self,
        tags: &Tags,
        result: GameResult,
        diagnostics: &[Diagnostic],
    ) -> bool {
        let has_error = diagnostics.iter().any(|d| d.severity == Severity::Error);
        if has_error && !self.criteria.wants_errors() {
            return false;
        }
        self.read_matches(tags, result, diagnostics)
    }

    fn wants_text(&self, matched: &bool) -> bool {
        *matched != self.invert
    }

    /// A game whose tags do not match is not selected, and goes nowhere unless
    /// `--invert` writes it: its moves are not read.
    fn passed_over(&self) -> Option<bool> {
        let by_tags = !self.criteria.tags.is_empty() || !self.criteria.players.is_empty();
        (by_tags && !self.invert).then_some(false)
    }

    fn tags_pass(&self, tags: &RawTags) -> bool {
        self.tags_match(tags)
    }
}

/// What `select` did: games matched, written, and those that could not be read or held.
#[derive(Debug, Default)]
pub struct Tally {
    /// Whether the games that do not match are written.
    pub invert: bool,
    /// Whether games with errors are wanted.
    pub wants_errors: bool,
    /// Whether games that cannot be read go to `--rejects`.
    pub rejects: bool,
    /// Games read (or reported as lost).
    pub games: u64,
    /// Games that matched.
    pub matched: u64,
    /// Games written to the output.
    pub written: u64,
    /// Games that cannot be read.
    pub unreadable: u64,
    /// Games too large to hold: neither written nor judged.
    pub lost: u64,
}

impl Tally {
    /// Sends one game where it goes: to `fmt`'s emitter (the output, or the rejects for a
    /// game that cannot be read), or nowhere; reports to `say` as the emitter does.
    pub fn emit<G: FormatRules, O: Write>(
        &mut self,
        item: Item<G::Move, bool>,
        to: &mut Emitter<'_, G, O>,
        offset: u64,
        name: Placed<'_>,
        say: &mut dyn FnMut(String, bool),
    ) -> io::Result<()> {
        let (matched, item) = item.take_verdict();
        if !item.orphans.is_empty() {
            // No game: the diagnostics outside any, said by the emitter.
            return to.emit(item, offset, name, say);
        }
        self.games += 1;
        if matched {
            self.matched += 1;
        }
        match &item.fate {
            Fate::Lost(_) => {
                self.lost += 1;
                to.emit(item, offset, name, say)
            }
            Fate::Unreadable(_) if matched && self.wants_errors => {
                // Asked for: written as it was read.
                self.written += 1;
                match &item.text {
                    Text::Bytes(bytes) => to.out.write_all(bytes),
                    _ => Ok(()),
                }
            }
            Fate::Unreadable(reason) => {
                self.unreadable += 1;
                if self.rejects || self.invert {
                    // To the rejects, else (it does not match) to `--invert`'s output.
                    if !self.rejects {
                        self.written += 1;
                    }
                    to.emit(item, offset, name, say)
                } else {
                    let number = item.index + offset + 1;
                    say(
                        format!("{name}: game {number} not selected: {reason}"),
                        false,
                    );
                    Ok(())
                }
            }
            Fate::Written if matched != self.invert => {
                self.written += 1;
                to.emit(item, offset, name, say)
            }
            Fate::Written => Ok(()),
        }
    }

    /// The summary line: `N of M games selected` (written to the output), and what
    /// else became of games.
    pub fn summary(&self) -> String {
        let mut line = format!("{} of {} games selected", self.written, self.games);
        if self.invert {
            let _ = write!(
                line,
                " (--invert: the {} that match left out)",
                self.matched
            );
        }
        if self.unreadable > 0 {
            let _ = write!(
                line,
                "; {} could not be read{}",
                self.unreadable,
                if self.rejects {
                    " (in the rejects)"
                } else {
                    ""
                }
            );
        }
        if self.lost > 0 {
            let _ = write!(line, "; {} too large to hold, left out", self.lost);
        }
        line
    }
}

/// Why criteria cannot be used with the formats' rules: a pattern (a FEN, material) that
/// neither chess nor draughts (with `variant`) reads is a mistake, not a criterion that no
/// game meets. The message says what each format makes of it.
///
/// # Errors
/// The message, for the person who wrote the criteria.
pub fn check_readable(
    criteria: &Criteria,
    variant: Option<pdn::GameType>,
    invert: bool,
) -> Result<(), String> {
    let (chess, draughts) = (crate::rules::chess(), crate::rules::draughts(variant));
    let in_chess = Selection::new(&chess, criteria, invert);
    let in_draughts = Selection::new(&draughts, criteria, invert);
    for (chess, draughts) in in_chess
        .unreadable()
        .into_iter()
        .zip(in_draughts.unreadable())
    {
        if let (Some(chess), Some(draughts)) = (chess, draughts) {
            return Err(format!("{chess}; {draughts}"));
        }
    }
    Ok(())
}

/// `notate select`: writes the games of the job's inputs that match every criterion (with
/// `invert`, those that do not) to `out` in the export format; a game that cannot be read
/// goes to `rejects` as written (see [`Tally`]). Says the tally as a warning at the end.
/// The job's games have errors when one could not be read, or was too large to hold.
///
/// # Errors
/// [`Stopped::Closed`] when whoever reads an output went away.
pub fn run(
    job: &mut Job<'_>,
    criteria: &Criteria,
    invert: bool,
    out: &mut dyn Write,
    mut rejects: Option<&mut dyn Write>,
) -> Result<Ended, Stopped> {
    let mut tally = Tally {
        invert,
        wants_errors: criteria.wants_errors(),
        rejects: rejects.is_some(),
        ..Tally::default()
    };
    let mut noted = [false; 2];
    job.each(|source, opened, job| {
        let input = source.placed(opened.rows);
        with_rules!(opened.format, job.variant, |rules| {
            let selection = Selection::new(rules, criteria, invert);
            let note = &mut noted[usize::from(opened.format == Format::Pdn)];
            for why in selection.unreadable().into_iter().flatten() {
                if !*note {
                    job.report.warning(&format!(
                        "{why}: no {} game matches it",
                        match opened.format {
                            Format::Pgn => "PGN",
                            Format::Pdn => "PDN",
                        }
                    ));
                }
            }
            *note = true;
            let read = ReadOptions::default();
            let write = rules.write_options();
            let task = FmtTask {
                rules,
                read,
                write,
                inspect: selection,
            };
            let mut emitter = Emitter::new(
                &mut *out,
                rejects.as_mut().map(|r| &mut **r as &mut dyn Write),
                rules,
                read,
                write,
            );
            pipeline::drive(&task, opened, job.jobs, &mut |item, offset| {
                tally.emit(item, &mut emitter, offset, input, &mut job.say())
            })
        })
    })?;
    job.flush(out)?;
    if let Some(rejects) = &mut rejects {
        job.flush(*rejects)?;
    }
    job.report.warning(&tally.summary());
    Ok(job.ended(tally.unreadable + tally.lost > 0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use notation::Tags;

    fn tags(pairs: &[(&str, &str)]) -> Tags {
        let mut tags = Tags::default();
        for (name, value) in pairs {
            tags.set(name, *value);
        }
        tags
    }

    fn matches(criterion: &str, pairs: &[(&str, &str)]) -> bool {
        TagCriterion::parse(criterion)
            .expect("reads")
            .matches(&tags(pairs))
    }

    #[test]
    fn numbers_compare_as_numbers() {
        assert!(matches("WhiteElo>=2600", &[("WhiteElo", "2600")]));
        assert!(matches("WhiteElo>=2600", &[("WhiteElo", "10000")]));
        assert!(!matches("WhiteElo>=2600", &[("WhiteElo", "999")]));
        assert!(!matches("WhiteElo>=2600", &[("WhiteElo", "?")]));
        assert!(!matches("WhiteElo>=2600", &[]));
        assert!(matches("WhiteElo=2500..2700", &[("WhiteElo", "2650")]));
        assert!(!matches("WhiteElo=2500..2700", &[("WhiteElo", "2701")]));
    }

    #[test]
    fn dates_compare_by_the_parts_the_bound_needs() {
        assert!(matches("Date>=2020.01.01", &[("Date", "2020.01.01")]));
        assert!(matches("Date>=2020.01.01", &[("Date", "2021.??.??")]));
        assert!(!matches("Date>=2020.01.01", &[("Date", "2020.??.??")]));
        assert!(!matches("Date>=2020.01.01", &[("Date", "????.??.??")]));
        assert!(matches("Date=2020", &[("Date", "2020.??.??")]));
        assert!(matches("Date<2020.06", &[("Date", "2020.05.31")]));
        assert!(matches("Date=2019..2020", &[("Date", "2019.12.31")]));
        assert!(!matches("Date=2019..2020", &[("Date", "2021.01.01")]));
        assert!(TagCriterion::parse("Date>=yesterday").is_err());
    }

    #[test]
    fn eco_codes_and_rounds_compare_as_such() {
        assert!(matches("ECO=B90..B99", &[("ECO", "B92")]));
        assert!(!matches("ECO=B90..B99", &[("ECO", "C00")]));
        assert!(matches("Round>=2.10", &[("Round", "10.1")]));
        assert!(matches("Round>2.9", &[("Round", "2.10")]));
        assert!(!matches("Round=3", &[("Round", "?")]));
        assert!(TagCriterion::parse("ECO=Z12").is_err());
    }

    #[test]
    fn text_is_equal_exactly_or_contained_ignoring_case_and_accents() {
        assert!(matches(
            "White=Carlsen, Magnus",
            &[("White", "Carlsen, Magnus")]
        ));
        assert!(!matches("White=Carlsen, Magnus", &[("White", "Carlsen,M")]));
        assert!(matches(
            "Event~olympiad",
            &[("Event", "44th Olympiad, Open")]
        ));
        assert!(matches("Site~bogota", &[("Site", "Bogotá COL")]));
        assert!(matches("Event!=Casual", &[("Event", "Rated Blitz")]));
    }

    #[test]
    fn presence_and_absence() {
        assert!(matches("Annotator", &[("Annotator", "")]));
        assert!(!matches("Annotator", &[]));
        assert!(matches("!Annotator", &[]));
        assert!(!matches("!Annotator", &[("Annotator", "x")]));
        assert!(TagCriterion::parse("Bad Name=1").is_err());
    }

    #[test]
    fn spans_and_opening_moves() {
        assert_eq!(
            Span::parse("10..").expect("reads"),
            Span {
                min: Some(10),
                max: None
            }
        );
        assert_eq!(
            Span::parse("..20").expect("reads"),
            Span {
                min: None,
                max: Some(20)
            }
        );
        assert_eq!(
            Span::parse("7").expect("reads"),
            Span {
                min: Some(7),
                max: Some(7)
            }
        );
        assert!(Span::parse("..").is_err());
        assert!(Span::parse("a..b").is_err());
        assert_eq!(
            opening_tokens("1. e4 c5 2.Nf3 2... d6"),
            ["e4", "c5", "Nf3", "d6"]
        );
        assert_eq!(opening_tokens("1. 32-28 18-23"), ["32-28", "18-23"]);
    }
}
