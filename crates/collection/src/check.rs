//! `notate check`: read every game, play every move, report every diagnostic.

use std::io::{self, Write};
use std::time::Instant;

use notation::{
    Diagnostic, GameReader, KeepRaw, ReadOptions, Rules, Severity, Validate, ValidatingReader,
};

use crate::input::Placed;
use crate::job::{Ended, Job, Stopped, with_rules};
use crate::pipeline::{self, Input, OncePerInput, Origin, Task};
use crate::rules::FormatRules;

/// What `check` needs of a game's rules beyond [`FormatRules`]: a way to read every game
/// and play every move.
pub trait Check: FormatRules {
    /// Reads every game of `input`, passing each one's counts and diagnostics to `each`;
    /// returns the diagnostics outside any game.
    ///
    /// The default builds each game with [`GameReader`]; rules with a faster way to play
    /// every move without building a tree (a validating visitor) use it here.
    fn check_stream(
        &self,
        mut input: Input<'_>,
        options: ReadOptions,
        each: &mut dyn FnMut(Checked) -> io::Result<()>,
    ) -> io::Result<Vec<Diagnostic>>
    where
        Self: Sized,
    {
        let reader = input.reader(self.dialect(), options);
        let mut reader = GameReader::from_reader(self, reader).keep_raw(KeepRaw::Never);
        while let Some(game) = reader.read_game()? {
            each(Checked {
                moves: game.game.node_count() as u64,
                diagnostics: game.diagnostics,
            })?;
        }
        let orphans = reader.take_orphans();
        let buffer = reader.into_reader().into_vec();
        input.give_back(buffer);
        Ok(orphans)
    }
}

/// What checking one game found.
pub struct Checked {
    /// Moves played, variations included.
    pub moves: u64,
    /// Warnings and errors, in input order.
    pub diagnostics: Vec<Diagnostic>,
}

impl Check for pgn::ChessRules {
    /// Checks with the chess crate's validating visitor: every move is resolved and
    /// played, variations included, without building a tree.
    fn check_stream(
        &self,
        input: Input<'_>,
        options: ReadOptions,
        each: &mut dyn FnMut(Checked) -> io::Result<()>,
    ) -> io::Result<Vec<Diagnostic>> {
        validate_stream::<pgn::Validator>(*self, input, options, each)
    }
}

impl Check for pdn::DraughtsRules {
    /// Checks with the draughts crate's validating visitor: every move is read and
    /// played with these rules, variations included, without building a tree.
    fn check_stream(
        &self,
        input: Input<'_>,
        options: ReadOptions,
        each: &mut dyn FnMut(Checked) -> io::Result<()>,
    ) -> io::Result<Vec<Diagnostic>> {
        validate_stream::<pdn::Validator>(*self, input, options, each)
    }
}

/// [`Check::check_stream`] with a validating visitor of `rules` ([`Validate`]).
fn validate_stream<V: Validate>(
    rules: V::Rules,
    mut input: Input<'_>,
    options: ReadOptions,
    each: &mut dyn FnMut(Checked) -> io::Result<()>,
) -> io::Result<Vec<Diagnostic>> {
    let reader = input.reader(rules.dialect(), options);
    let mut reader = ValidatingReader::<_, V>::from_reader_with_rules(reader, rules);
    while let Some(game) = reader.read_game()? {
        each(Checked {
            moves: game.plies,
            diagnostics: game.diagnostics,
        })?;
    }
    let orphans = reader.take_orphans();
    let buffer = reader.into_reader().into_vec();
    input.give_back(buffer);
    Ok(orphans)
}

impl Check for notation::RawRules {}

/// What one game (or the text outside games) gives.
pub struct Item {
    /// 1 for a game, 0 for diagnostics outside any game.
    pub games: u64,
    /// Moves read, variations included.
    pub moves: u64,
    /// Diagnostics, lines already placed in the input; games numbered in the chunk.
    pub diagnostics: Vec<Diagnostic>,
}

/// Reads games with the rules, keeping only counts and diagnostics.
pub struct CheckTask<'r, G> {
    /// The rules.
    pub rules: &'r G,
    /// How to read.
    pub options: ReadOptions,
}

impl<G: Check> Task for CheckTask<'_, G> {
    type Item = Item;

    fn run(
        &self,
        input: Input<'_>,
        origin: Origin,
        sink: &mut dyn FnMut(Item) -> io::Result<()>,
    ) -> io::Result<u64> {
        let mut games = 0;
        let mut orphans = self.rules.check_stream(input, self.options, &mut |game| {
            games += 1;
            let mut diagnostics = game.diagnostics;
            for d in &mut diagnostics {
                origin.place(d);
            }
            sink(Item {
                games: 1,
                moves: game.moves,
                diagnostics,
            })
        })?;
        if !orphans.is_empty() {
            for d in &mut orphans {
                origin.place(d);
            }
            sink(Item {
                games: 0,
                moves: 0,
                diagnostics: orphans,
            })?;
        }
        Ok(games)
    }
}

/// Totals over every input, and the printing of diagnostics.
#[derive(Default)]
pub struct Summary {
    /// Inputs read.
    pub files: u64,
    /// Games read.
    pub games: u64,
    /// Moves read.
    pub moves: u64,
    /// Error diagnostics.
    pub errors: u64,
    /// Warning diagnostics.
    pub warnings: u64,
}

impl Summary {
    /// Counts an item and prints its diagnostics as `name:line:column: …` (a table's by
    /// row) unless `quiet`.
    pub fn emit(
        &mut self,
        item: Item,
        offset: u64,
        input: Placed<'_>,
        once: &mut OncePerInput,
        quiet: bool,
        out: &mut dyn Write,
    ) -> io::Result<()> {
        self.games += item.games;
        self.moves += item.moves;
        for mut d in item.diagnostics {
            if !once.keep(&d) {
                continue;
            }
            d.game += offset;
            match d.severity {
                Severity::Error => self.errors += 1,
                Severity::Warning => self.warnings += 1,
            }
            if !quiet {
                writeln!(out, "{}", input.diagnostic(&d))?;
            }
        }
        Ok(())
    }
}

/// `notate check`: reads every game of the job's inputs, plays every move, and writes
/// each diagnostic (`name:line:column: …`, unless `quiet`) and then a summary line to
/// `out`. The job's games have errors when a diagnostic is an error.
///
/// # Errors
/// [`Stopped::Closed`] when whoever reads `out` went away.
pub fn run(
    job: &mut Job<'_>,
    options: ReadOptions,
    quiet: bool,
    out: &mut dyn Write,
) -> Result<Ended, Stopped> {
    let started = Instant::now();
    let mut summary = Summary::default();
    job.each(|source, opened, job| {
        summary.files += 1;
        let mut once = OncePerInput::default();
        let input = source.placed(opened.rows);
        with_rules!(opened.format, job.variant, |rules| {
            let task = CheckTask { rules, options };
            pipeline::drive(&task, opened, job.jobs, &mut |item, offset| {
                summary.emit(item, offset, input, &mut once, quiet, out)
            })
        })
    })?;
    let seconds = started.elapsed().as_secs_f64();
    let Summary {
        files,
        games,
        moves,
        errors,
        warnings,
    } = summary;
    let line = writeln!(
        out,
        "files={files} games={games} moves={moves} errors={errors} warnings={warnings} games/s={:.0}",
        games as f64 / seconds.max(1e-9)
    );
    if let Err(e) = line {
        job.write_failed(&e)?;
    }
    job.flush(out)?;
    Ok(job.ended(errors > 0))
}
