//! `notate check`: read every game, play every move, report every diagnostic.

use std::io::{self, Write};

use notation::{Diagnostic, ReadOptions, Severity};

use crate::games::Notate;
use crate::pipeline::{Input, OncePerInput, Origin, Task};

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
