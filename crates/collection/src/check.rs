//! `notate check`: read every game, play every move, report every diagnostic.

use std::io::{self, Write};

use notation::{Diagnostic, ReadOptions, Severity};

use crate::games::Notate;
use crate::pipeline::{Input, OncePerInput, Origin, Task};
use std::time::Instant;

use crate::job::{Ended, Job, Stopped, with_rules};
use crate::pipeline;

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

impl<G: Notate> Task for CheckTask<'_, G> {
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
    /// Counts an item and prints its diagnostics as `name:line:column: …` unless `quiet`.
    pub fn emit(
        &mut self,
        item: Item,
        offset: u64,
        name: &str,
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
                writeln!(out, "{name}:{d}")?;
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
        with_rules!(opened.format, job.variant, |rules| {
            let task = CheckTask { rules, options };
            pipeline::drive(&task, opened.reader, job.jobs, &mut |item, offset| {
                summary.emit(item, offset, &source.name, &mut once, quiet, out)
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
        if e.kind() == io::ErrorKind::BrokenPipe {
            return Err(Stopped::Closed);
        }
        job.failed = true;
    }
    job.flush(out)?;
    Ok(job.ended(errors > 0))
}
