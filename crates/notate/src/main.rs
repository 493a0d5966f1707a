//! `notate`: the command-line tool for PGN and PDN game collections.
//!
//! This first version reads structure only (the notation layer with opaque moves);
//! playing the moves with the chess and draughts rules comes with those crates.

mod input;

use std::io::{self, Write};
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use clap::{Parser, Subcommand};
use notation::{At, GameReader, Nag, RawGame, ReadOptions, Reader, Severity, Skip, Visitor};

use input::{Format, Input};

/// Check, format and scan PGN (chess) and PDN (draughts) game collections.
#[derive(Parser)]
#[command(name = "notate", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Read every game and report each diagnostic as `path:line:column: severity: message (game N)`.
    ///
    /// Exits 0 when there is no error, 1 when there is one, 2 for usage or I/O failures.
    Check {
        /// Files or folders (read recursively); `-` for standard input.
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        /// Treat every departure from the standard as an error.
        #[arg(long)]
        strict: bool,
        /// Force the format instead of guessing it from the extension or content.
        #[arg(long, value_enum)]
        format: Option<Format>,
        /// Print only the summary.
        #[arg(long, short)]
        quiet: bool,
    },
    /// Read structure only (tags, move tokens, comments, glyphs, variations) and print counts.
    Scan {
        /// Files or folders (read recursively); `-` for standard input.
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        /// Force the format instead of guessing it from the extension or content.
        #[arg(long, value_enum)]
        format: Option<Format>,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Check {
            paths,
            strict,
            format,
            quiet,
        } => check(&paths, strict, format, quiet),
        Command::Scan { paths, format } => scan(&paths, format),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("notate: {e}");
            ExitCode::from(2)
        }
    }
}

fn check(
    paths: &[PathBuf],
    strict: bool,
    format: Option<Format>,
    quiet: bool,
) -> io::Result<ExitCode> {
    let options = if strict {
        ReadOptions::strict()
    } else {
        ReadOptions::default()
    };
    let started = Instant::now();
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    let (mut files, mut games, mut moves, mut errors, mut warnings) =
        (0u64, 0u64, 0u64, 0u64, 0u64);
    for input in input::collect(paths, format)? {
        files += 1;
        let Input {
            name,
            format,
            reader,
        } = input;
        let rules = format.raw_rules();
        let mut game_reader = GameReader::new(&rules, reader?, options);
        let mut report = |d: &notation::Diagnostic, out: &mut dyn Write| -> io::Result<()> {
            match d.severity {
                Severity::Error => errors += 1,
                Severity::Warning => warnings += 1,
            }
            if !quiet {
                writeln!(out, "{name}:{d}")?;
            }
            Ok(())
        };
        while let Some(game) = game_reader.read_game()? {
            games += 1;
            moves += game.game.node_count() as u64;
            for d in &game.diagnostics {
                report(d, &mut out)?;
            }
        }
        for d in game_reader.take_orphans() {
            report(&d, &mut out)?;
        }
    }
    let seconds = started.elapsed().as_secs_f64();
    writeln!(
        out,
        "files={files} games={games} moves={moves} errors={errors} warnings={warnings} games/s={:.0}",
        games as f64 / seconds.max(1e-9)
    )?;
    out.flush()?;
    Ok(if errors > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// Counts for `scan`.
#[derive(Default)]
struct Counts {
    games: u64,
    tags: u64,
    moves: u64,
    nags: u64,
    comments: u64,
    variations: u64,
}

impl Visitor for Counts {
    type Output = ();

    fn tag(&mut self, _: &[u8], _: notation::RawValue<'_>, _: At<'_>) -> ControlFlow<()> {
        self.tags += 1;
        ControlFlow::Continue(())
    }
    fn move_token(&mut self, _: &[u8], _: At<'_>) -> ControlFlow<()> {
        self.moves += 1;
        ControlFlow::Continue(())
    }
    fn nag(&mut self, _: Nag, _: At<'_>) -> ControlFlow<()> {
        self.nags += 1;
        ControlFlow::Continue(())
    }
    fn comment(&mut self, _: &[u8], _: At<'_>) -> ControlFlow<()> {
        self.comments += 1;
        ControlFlow::Continue(())
    }
    fn begin_variation(&mut self, _: At<'_>) -> ControlFlow<(), Skip> {
        self.variations += 1;
        ControlFlow::Continue(Skip(false))
    }
    fn end_game(&mut self, _: RawGame<'_>) {
        self.games += 1;
    }
}

fn scan(paths: &[PathBuf], format: Option<Format>) -> io::Result<ExitCode> {
    let mut counts = Counts::default();
    for input in input::collect(paths, format)? {
        let dialect = input.format.raw_rules().dialect;
        Reader::new(input.reader?, dialect, ReadOptions::default()).visit_all(&mut counts)?;
    }
    println!(
        "games={} tags={} sans={} nags={} comments={} variations={}",
        counts.games, counts.tags, counts.moves, counts.nags, counts.comments, counts.variations
    );
    Ok(ExitCode::SUCCESS)
}
