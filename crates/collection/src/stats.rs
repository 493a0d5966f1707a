//! `notate stats`: games, plies, results, variants, tags, first moves, named openings
//! (chess), errors.

use std::collections::{BTreeMap, HashMap};
use std::io::{self, Write};

use notation::{GameReader, KeepRaw, LineId, Player, ReadOptions, Severity};
use pgn::openings::Eco;

use crate::job::{Ended, Job, Stopped, with_rules};
use crate::judgement::{self, Accuracy};
use crate::pipeline;
use crate::pipeline::{Input, Origin, Task};
use crate::rules::FormatRules;

/// How many plies name an opening.
const OPENING_PLIES: usize = 2;
/// How many first moves are listed, and how many named openings.
const TOP_OPENINGS: usize = 10;

/// Statistics of a stream, merged over chunks and inputs.
#[derive(Debug, Default)]
pub struct Stats {
    /// Inputs.
    pub files: u64,
    /// Games.
    pub games: u64,
    /// Main-line plies.
    pub plies: u64,
    /// The longest main line.
    pub longest: u64,
    /// Moves in variations.
    pub variation_moves: u64,
    /// Games with at least one error.
    pub games_with_errors: u64,
    /// Error diagnostics.
    pub errors: u64,
    /// Warning diagnostics.
    pub warnings: u64,
    /// Games by result.
    pub results: BTreeMap<String, u64>,
    /// Games by variant.
    pub variants: BTreeMap<String, u64>,
    /// Games by tag present.
    pub tags: BTreeMap<String, u64>,
    /// Games by first moves (games from the standard start position only).
    pub openings: HashMap<String, u64>,
    /// Games by named opening (chess: [`pgn::openings`]), by ECO code and name.
    pub named: HashMap<(Eco, &'static str), u64>,
    /// Games whose rules name openings (chess) but whose opening is not found.
    pub unnamed: u64,
    /// Each player's accuracy in the games analysed move by move (an `[%eval]` after
    /// each move of the main line, [`judgement::of_game`]).
    pub accuracy: AccuracyStats,
    /// The notes a reader gives once per input (tabs, a long line, …) that were seen,
    /// as bits: counted once per input by [`Stats::end_input`], however many chunks
    /// repeat them.
    pub file_notes: u8,
}

impl Stats {
    /// Adds `other` to `self`.
    pub fn merge(&mut self, other: Stats) {
        self.files += other.files;
        self.games += other.games;
        self.plies += other.plies;
        self.longest = self.longest.max(other.longest);
        self.variation_moves += other.variation_moves;
        self.games_with_errors += other.games_with_errors;
        self.errors += other.errors;
        self.warnings += other.warnings;
        self.file_notes |= other.file_notes;
        for (map, from) in [
            (&mut self.results, other.results),
            (&mut self.variants, other.variants),
            (&mut self.tags, other.tags),
        ] {
            for (k, v) in from {
                *map.entry(k).or_default() += v;
            }
        }
        for (k, v) in other.openings {
            *self.openings.entry(k).or_default() += v;
        }
        for (k, v) in other.named {
            *self.named.entry(k).or_default() += v;
        }
        self.unnamed += other.unnamed;
        self.accuracy.merge(other.accuracy);
    }

    /// Counts the notes given once per input; called after the last chunk of an input.
    pub fn end_input(&mut self) {
        self.warnings += u64::from(self.file_notes.count_ones());
        self.file_notes = 0;
    }

    /// The report.
    pub fn write(&self, out: &mut dyn Write) -> io::Result<()> {
        let percent = |n: u64| 100.0 * n as f64 / self.games.max(1) as f64;
        writeln!(out, "files: {}", self.files)?;
        writeln!(out, "games: {}", self.games)?;
        writeln!(
            out,
            "plies: {} in main lines (average {:.1}, longest {}), {} in variations",
            self.plies,
            self.plies as f64 / self.games.max(1) as f64,
            self.longest,
            self.variation_moves
        )?;
        writeln!(
            out,
            "diagnostics: {} errors, {} warnings; {} games with errors",
            self.errors, self.warnings, self.games_with_errors
        )?;
        writeln!(out, "results:")?;
        for (k, v) in &self.results {
            writeln!(out, "  {k:<8} {v:>10} {:>6.1}%", percent(*v))?;
        }
        writeln!(out, "variants:")?;
        for (k, v) in &self.variants {
            writeln!(out, "  {k:<20} {v:>10} {:>6.1}%", percent(*v))?;
        }
        writeln!(out, "tags (games having each):")?;
        for (k, v) in &self.tags {
            writeln!(out, "  {k:<20} {v:>10} {:>6.1}%", percent(*v))?;
        }
        let mut openings: Vec<_> = self.openings.iter().collect();
        // Most common first; equal counts in text order, so that the report is stable.
        openings.sort_by(|a, b| b.1.cmp(a.1).then_with(|| a.0.cmp(b.0)));
        writeln!(
            out,
            "first moves (first {OPENING_PLIES} plies, most common):"
        )?;
        for (k, v) in openings.into_iter().take(TOP_OPENINGS) {
            writeln!(out, "  {k:<20} {v:>10} {:>6.1}%", percent(*v))?;
        }
        if !self.named.is_empty() || self.unnamed > 0 {
            let mut named: Vec<_> = self.named.iter().collect();
            // Most common first; equal counts by code and name, so that the report is stable.
            named.sort_by(|a, b| b.1.cmp(a.1).then_with(|| a.0.cmp(b.0)));
            writeln!(
                out,
                "openings (ECO and name, most common; {} different, {} chess games not named):",
                named.len(),
                self.unnamed
            )?;
            for ((eco, name), v) in named.into_iter().take(TOP_OPENINGS) {
                writeln!(out, "  {eco} {name:<60} {v:>10} {:>6.1}%", percent(*v))?;
            }
        }
        self.accuracy.write(out)
    }
}

/// Accuracies summed over games, kept in thousandths of a percent so that their sums do
/// not depend on how the games were split among workers.
#[derive(Debug, Default)]
pub struct AccuracyStats {
    /// Games with each player's accuracy.
    pub games: u64,
    /// By side, White's first: the players' accuracies counted and summed. (Not by
    /// player's name: a dump of millions of games would hold millions of names.)
    pub sides: [Sum; 2],
}

/// Accuracies counted and summed, in thousandths of a percent.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Sum {
    /// How many.
    pub count: u64,
    /// Their sum, in thousandths of a percent.
    pub milli: u64,
}

impl Sum {
    fn add(&mut self, percent: f64) {
        self.count += 1;
        self.milli += (percent.clamp(0.0, 100.0) * 1000.0).round() as u64;
    }

    fn merge(&mut self, other: Sum) {
        self.count += other.count;
        self.milli += other.milli;
    }

    /// The mean, in percent.
    pub fn mean(self) -> f64 {
        self.milli as f64 / 1000.0 / self.count.max(1) as f64
    }
}

impl AccuracyStats {
    /// Adds a game's accuracies.
    pub fn add(&mut self, accuracy: Accuracy) {
        self.games += 1;
        for (side, value) in [accuracy.white, accuracy.black].into_iter().enumerate() {
            if let Some(value) = value {
                self.sides[side].add(value);
            }
        }
    }

    fn merge(&mut self, other: AccuracyStats) {
        self.games += other.games;
        for (side, sum) in other.sides.into_iter().enumerate() {
            self.sides[side].merge(sum);
        }
    }

    /// The report's section, when a game had its accuracies.
    fn write(&self, out: &mut dyn Write) -> io::Result<()> {
        if self.games == 0 {
            return Ok(());
        }
        writeln!(
            out,
            "accuracy ({} games with an evaluation after each move):",
            self.games
        )?;
        for (side, sum) in ["White", "Black"].iter().zip(self.sides) {
            writeln!(
                out,
                "  {side:<20} {:>10} games, mean {:.1}%",
                sum.count,
                sum.mean()
            )?;
        }
        Ok(())
    }
}

/// Gathers statistics of a stream.
pub struct StatsTask<'r, G> {
    /// The rules.
    pub rules: &'r G,
    /// How to read.
    pub options: ReadOptions,
}

impl<G: FormatRules> Task for StatsTask<'_, G> {
    type Item = Stats;

    fn run(
        &self,
        mut input: Input<'_>,
        _origin: Origin,
        sink: &mut dyn FnMut(Stats) -> io::Result<()>,
    ) -> io::Result<u64> {
        let mut stats = Stats::default();
        let reader = input.reader(self.rules.dialect(), self.options);
        let mut reader = GameReader::from_reader(self.rules, reader).keep_raw(KeepRaw::Never);
        while let Some(read) = reader.read_game()? {
            let game = &read.game;
            stats.games += 1;
            let plies = game.line(LineId::MAIN).moves.len() as u64;
            stats.plies += plies;
            stats.longest = stats.longest.max(plies);
            stats.variation_moves += game.node_count() as u64 - plies;
            let mut errors = 0;
            for d in &read.diagnostics {
                if d.severity == Severity::Error {
                    errors += 1;
                } else if let Some(bit) = file_note(d) {
                    stats.file_notes |= bit;
                } else {
                    stats.warnings += 1;
                }
            }
            stats.errors += errors;
            if errors > 0 {
                stats.games_with_errors += 1;
            }
            *stats
                .results
                .entry(game.result.as_str().to_owned())
                .or_default() += 1;
            *stats.variants.entry(self.rules.variant(game)).or_default() += 1;
            for tag in game.tags.iter() {
                *stats.tags.entry(tag.name.clone()).or_default() += 1;
            }
            if let Some(opening) = opening(self.rules, game) {
                *stats.openings.entry(opening).or_default() += 1;
            }
            if let Some(accuracy) = judgement::of_game(self.rules, game, || self.rules.start(game))
            {
                stats.accuracy.add(accuracy);
            }
            if self.rules.names_openings() {
                match self.rules.opening(game) {
                    Some(named) => {
                        *stats.named.entry((named.eco(), named.name())).or_default() += 1
                    }
                    None => stats.unnamed += 1,
                }
            }
        }
        let buffer = reader.into_reader().into_vec();
        input.give_back(buffer);
        let games = stats.games;
        sink(stats)?;
        Ok(games)
    }
}

/// The bit of a note a reader gives once per input, if `d` is one.
fn file_note(d: &notation::Diagnostic) -> Option<u8> {
    use notation::DiagnosticKind::*;
    match d.kind {
        ByteOrderMark => Some(1),
        Tab => Some(2),
        LoneCarriageReturn => Some(4),
        LongLine { .. } => Some(8),
        LiteralCarriageReturn => Some(16),
        _ => None,
    }
}

/// The first plies of a game played from the standard start, as `1. e4 e5`.
fn opening<G: FormatRules>(rules: &G, game: &notation::GameTree<G::Move>) -> Option<String> {
    if game.tags.contains("FEN") || game.line(LineId::MAIN).moves.len() < OPENING_PLIES {
        return None;
    }
    let mut position = rules.start_position(&game.tags).ok()?.position;
    let mut text = String::new();
    for node in game.mainline().take(OPENING_PLIES) {
        if !text.is_empty() {
            text.push(' ');
        }
        if rules.turn(&position) == Player::First {
            text.push_str(&format!("{}. ", rules.move_number(&position)));
        } else if text.is_empty() {
            text.push_str(&format!("{}... ", rules.move_number(&position)));
        }
        text.push_str(&rules.move_text(&position, &node.mv));
        rules.play(&mut position, &node.mv);
    }
    Some(text)
}

/// `notate stats`: reads every game of the job's inputs and writes the statistics to
/// `out`.
///
/// # Errors
/// [`Stopped::Closed`] when whoever reads `out` went away.
pub fn run(job: &mut Job<'_>, out: &mut dyn Write) -> Result<Ended, Stopped> {
    let mut total = Stats::default();
    job.each(|_, opened, job| {
        let mut this = Stats {
            files: 1,
            ..Stats::default()
        };
        let result = with_rules!(opened.format, job.variant, |rules| {
            let task = StatsTask {
                rules,
                options: ReadOptions::default(),
            };
            pipeline::drive(&task, opened, job.jobs, &mut |s, _| {
                this.merge(s);
                Ok(())
            })
        });
        this.end_input();
        total.merge(this);
        result
    })?;
    if let Err(e) = total.write(out).and_then(|()| out.flush()) {
        job.write_failed(&e)?;
    }
    Ok(job.ended(false))
}
