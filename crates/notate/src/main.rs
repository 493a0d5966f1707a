//! `notate`: the command-line tool for PGN (chess) and PDN (draughts) game collections.
//!
//! Every subcommand that reads games goes the same way: the inputs are collected
//! ([`input`]), each is opened (decompressed, its format decided) and read by a
//! [`pipeline::Task`] on one thread or several, and an emitter in the main thread writes
//! the results in input order. The tasks are generic over the game's rules
//! ([`games::Notate`]); [`games::chess`] and [`games::draughts`] pick the rules of each
//! format.
//!
//! Exit codes: 0 when all is well, 1 when a game has an error (`check`, `fmt`, `json`),
//! 2 for a usage error or an input or output that cannot be read or written.

/// The workers of `--jobs` allocate and free many small things each (a game's tags,
/// diagnostics, the readings of a game whose type is inferred): with the system allocator
/// two workers spent 18% more CPU time than one on the same input, with mimalloc 12%
/// (`check --jobs 2` on 14 MB of PDN: 10% more games per second).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::fs::File;
use std::io::{self, IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use clap::{Args, Parser, Subcommand};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use notation::{ReadOptions, WriteOptions};

use collection::games::{self, Notate};
use collection::input::{self, Format, Opened, Source};

mod cli;
use collection::pipeline::{self, OncePerInput};
use collection::{
    check, dedupe, eco, fmt, html, json, parquet, perft, range, repair, scan, select, show, split,
    stats, svg,
};

/// Check, format, scan and convert PGN (chess) and PDN (draughts) game collections.
///
/// Inputs are files, folders (read recursively for .pgn and .pdn files) and `-` for
/// standard input; .gz, .bz2 and .zst files are decompressed on the fly. The format comes
/// from the file name, else from the content; --format forces it.
#[derive(Parser)]
#[command(name = "notate", version, about, long_about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// The inputs and how to read them: shared by the subcommands that read games.
#[derive(Args, Clone)]
struct Inputs {
    /// Files or folders (read recursively); `-` for standard input.
    #[arg(required = true, value_name = "PATH")]
    paths: Vec<PathBuf>,
    /// Read every input as this format instead of guessing it from the name or content.
    #[arg(long, value_enum)]
    format: Option<cli::Format>,
    /// Threads reading games [default: all cores]. Output stays in input order.
    #[arg(long, short, value_name = "N")]
    jobs: Option<usize>,
    /// Print less: no progress bar and no warnings on standard error (for `check`, only
    /// the summary).
    #[arg(long, short)]
    quiet: bool,
    /// Read draughts games that have no GameType tag as this game type, whatever their
    /// moves (a tag in the file still wins, with a warning where it differs): a variant
    /// (international, english, italian, pool, spanish, russian, brazilian, canadian,
    /// portuguese, czech, turkish, thai, frisian, spantsiretti) or a GameType (25,
    /// 20,W,10,10,N1,0). Without it, the game type of such games is inferred.
    #[arg(long, value_name = "NAME|GAMETYPE", value_parser = games::parse_game_type)]
    variant: Option<pdn::GameType>,
}

// `select`'s criteria make its variant large; the command is parsed once.
#[allow(clippy::large_enum_variant)]
#[derive(Subcommand)]
enum Command {
    /// Read every game, play every move, report each diagnostic.
    ///
    /// Prints `path:line:column: error|warning: message (game N)` for each diagnostic and
    /// a summary line. Exits 0 when there is no error, 1 when there is one, 2 for usage
    /// or I/O failures.
    Check {
        #[command(flatten)]
        inputs: Inputs,
        /// Treat every departure from the standard's import format as an error.
        #[arg(long)]
        strict: bool,
    },
    /// Write every game in the export format (PGN) or the PDN writing form.
    ///
    /// A game that cannot be read is never dropped: it is passed through as written, with
    /// a warning, or moved to --rejects. Exits 1 when a game could not be read.
    Fmt {
        #[command(flatten)]
        inputs: Inputs,
        /// Write to this file instead of standard output.
        #[arg(long, short, value_name = "FILE")]
        output: Option<PathBuf>,
        /// The reduced export format: the seven tag roster, no comments, no glyphs, no
        /// variations.
        #[arg(long)]
        reduced: bool,
        /// Write games that cannot be read here (as written) instead of into the output.
        #[arg(long, value_name = "FILE")]
        rejects: Option<PathBuf>,
        /// Make the Result tag and the termination marker agree with each other and with
        /// the board (checkmate, stalemate; a draughts side that cannot move), each change
        /// a warning. Where the board decides nothing and they disagree, the tag follows
        /// the marker.
        #[arg(long)]
        fix_results: bool,
        /// Add a PlyCount tag (the plies of the main line), or correct a wrong one (with
        /// a warning).
        #[arg(long)]
        plycount: bool,
    },
    /// Write the games into files named after a key of each game, in input order.
    ///
    /// `--by TAG` (a tag's value: White, Event, …), `--by eco1|eco2|eco3` (the first
    /// characters of the ECO tag), `--by year` (of the Date tag), or `--games N` (files
    /// `1.pgn`, `2.pgn`, … of N games each). Games without the key go to `unknown.pgn`
    /// (`.pdn`). Prints each file written with its number of games, then a summary.
    /// A game that cannot be read goes to its key's file as written, with a warning.
    Split {
        #[command(flatten)]
        inputs: Inputs,
        /// The folder of the files (created if missing; files of the same names in it
        /// are replaced).
        #[arg(long, value_name = "DIR")]
        out_dir: PathBuf,
        #[command(flatten)]
        key: SplitKey,
    },
    /// Write the games that match every criterion, in the export format.
    ///
    /// Prints `N of M games selected` on standard error. A game that cannot be read is
    /// never selected (unless --with-errors asks for such games): it is reported, and
    /// written to --rejects when given (else, with --invert, to the output), so that
    /// `select` and `select --invert` together hold every game. Exits 1 when a game
    /// could not be read. See README.md for each criterion.
    Select {
        #[command(flatten)]
        inputs: Inputs,
        /// Write to this file instead of standard output.
        #[arg(long, short, value_name = "FILE")]
        output: Option<PathBuf>,
        /// Write the games that cannot be read here, as written.
        #[arg(long, value_name = "FILE")]
        rejects: Option<PathBuf>,
        /// Write the games that do not match instead.
        #[arg(long)]
        invert: bool,
        #[command(flatten)]
        criteria: cli::Criteria,
    },
    /// Write each game once: drop the games that repeat an earlier one.
    ///
    /// Duplicates have the same start position and main-line moves (--by moves), or the
    /// same final position after as many plies (--by position); tags, comments and
    /// variations do not count. Prints how many were dropped on standard error.
    Dedupe {
        #[command(flatten)]
        inputs: Inputs,
        /// Write to this file instead of standard output.
        #[arg(long, short, value_name = "FILE")]
        output: Option<PathBuf>,
        /// Write the dropped games here, so that the output and this file together hold
        /// every game.
        #[arg(long, value_name = "FILE")]
        duplicates: Option<PathBuf>,
        /// What makes two games the same.
        #[arg(long, value_enum, default_value = "moves")]
        by: cli::By,
        /// Which of the duplicates stays: the first, or the one with the most comments,
        /// variations and tags (written where the first stood).
        #[arg(long, value_enum, default_value = "first")]
        keep: cli::Keep,
    },
    /// Write every game as fmt does, with the ECO and Opening tags of its opening.
    ///
    /// The opening is the deepest position of the main line that a named line of
    /// lichess's table of openings ends in (positions compare, so transpositions are
    /// found). Tags a game has stay unless --overwrite, with a warning where they differ
    /// from what the moves say; a game whose opening is not found gets no tags. Draughts
    /// games are written as fmt writes them. Exits 1 when a game could not be read.
    Eco {
        #[command(flatten)]
        inputs: Inputs,
        /// Write to this file instead of standard output.
        #[arg(long, short, value_name = "FILE")]
        output: Option<PathBuf>,
        /// Replace the ECO and Opening tags a game has with what its moves say.
        #[arg(long)]
        overwrite: bool,
    },
    /// Read structure only (tags, move tokens, comments, glyphs, variations) and print
    /// counts. No move is checked: the fast path.
    Scan {
        #[command(flatten)]
        inputs: Inputs,
    },
    /// Write each game as one line of JSON (JSON Lines); see README.md for the fields.
    ///
    /// Exits 1 when a game has an error (its diagnostics say which).
    Json {
        #[command(flatten)]
        inputs: Inputs,
        /// Write to this file instead of standard output.
        #[arg(long, short, value_name = "FILE")]
        output: Option<PathBuf>,
        /// Treat every departure from the standard's import format as an error.
        #[arg(long)]
        strict: bool,
    },
    /// Write one self-contained HTML page that lists the games and shows the one picked on
    /// a board, with its moves, comments, glyphs and variations, and the FEN of the position.
    ///
    /// No network: the style, the script and the pieces are in the page. A game with an
    /// error is listed with its moves up to the error and its diagnostics. Exits 1 when a
    /// game has an error.
    Html {
        #[command(flatten)]
        inputs: Inputs,
        /// Write to this file instead of standard output.
        #[arg(long, short, value_name = "FILE")]
        output: Option<PathBuf>,
        /// Treat every departure from the standard's import format as an error.
        #[arg(long)]
        strict: bool,
    },
    /// Write the games as a Parquet table, one row per game (and with `--positions`, one
    /// row per main-line position in another), for DuckDB, Polars, pandas and Spark.
    ///
    /// Every game is a row, one with errors too (its moves up to the error, `errors` > 0).
    /// README.md lists the columns. Exits 1 when a game has an error.
    Parquet {
        #[command(flatten)]
        inputs: Inputs,
        /// The games table to write.
        #[arg(long, short, value_name = "FILE", required = true)]
        output: PathBuf,
        /// Also write the positions table to this file.
        #[arg(long, value_name = "FILE")]
        positions: Option<PathBuf>,
        /// Read only the games of this byte range of one uncompressed file: those from the
        /// first sure game boundary at or after START to the first at or after END (END
        /// left out: to the end). The ranges 0..a, a..b, …, z.. of any cut points hold
        /// every game of the file once, with the offsets a whole read gives; the `game`
        /// column is null, and diagnostics count lines from the byte where the range's
        /// reading starts, that first boundary (`file@BOUNDARY:line:column: …`).
        #[arg(long, value_name = "START..END")]
        range: Option<range::ByteRange>,
        /// Treat every departure from the standard's import format as an error.
        #[arg(long)]
        strict: bool,
    },
    /// Print statistics: games, plies, results, variants, tags, openings, diagnostics.
    Stats {
        #[command(flatten)]
        inputs: Inputs,
    },
    /// Count the leaves of the legal-move tree (perft), for chess, its variants or draughts.
    ///
    /// `notate perft 5`, `notate perft "FEN" 5`, `notate perft --variant english 8`,
    /// `notate perft --variant crazyhouse "2k5/8/8/8/8/8/8/4K3[Qn] w - -" 2`.
    /// The count is the last line printed.
    Perft {
        /// The game: chess (default), chess960, a chess variant (crazyhouse, atomic,
        /// antichess or giveaway, kingofthehill, threecheck or 3check, horde, racingkings:
        /// as a PGN Variant tag names it), a draughts variant (international, english,
        /// italian, pool, spanish, russian, brazilian, canadian, portuguese, czech,
        /// turkish, thai, frisian, spantsiretti), or a PDN GameType number. A FEN is read
        /// by that game's rules.
        #[arg(long, default_value = "chess", value_name = "NAME")]
        variant: String,
        /// An optional FEN (one argument, quoted, or its fields as separate arguments),
        /// then the depth.
        #[arg(required = true, num_args = 1.., value_name = "[FEN] DEPTH")]
        args: Vec<String>,
        /// Print each first move with its count.
        #[arg(long)]
        divide: bool,
        /// Threads [default: all cores].
        #[arg(long, short, value_name = "N")]
        jobs: Option<usize>,
    },
    /// Show a position as a text diagram: a FEN, or a game of a file after some plies.
    Show {
        #[command(flatten)]
        pick: Pick,
    },
    /// Draw a position as an SVG picture: a FEN, or a game of a file after some plies.
    ///
    /// Chess: the last move, a king in check, and the [%csl] squares and [%cal] arrows of
    /// the comments after that move (the board only: a crazyhouse position's pieces in
    /// hand and three-check's checks are not drawn; show prints them). Draughts (every board: 8×8, 10×10, 12×12, 10×8,
    /// Turkish): men and kings, the last move with a capture's path and the pieces it
    /// took.
    Svg {
        #[command(flatten)]
        pick: Pick,
        /// Write to this file instead of standard output.
        #[arg(long, short, value_name = "FILE")]
        output: Option<PathBuf>,
        /// Turn the board: Black (the second player) at the bottom.
        #[arg(long)]
        flip: bool,
        /// The picture's width in pixels.
        #[arg(long, default_value_t = 400, value_name = "PX",
              value_parser = clap::value_parser!(u32).range(16..=20_000))]
        size: u32,
        /// Files and ranks around the board.
        #[arg(long)]
        coordinates: bool,
        /// Draughts: each playing square's number (or algebraic name, in games written so).
        #[arg(long)]
        numbers: bool,
    },
}

/// Which position `show` and `svg` show: a FEN, or a game of a file after some plies.
#[derive(Args, Clone)]
struct Pick {
    /// A FEN (chess, or draughts `W:W31-50:B1-20`), or a file (`-` for standard input).
    /// (A FEN may also be given as its fields, unquoted.) A chess FEN with pieces in hand
    /// (`[Qn]`) is crazyhouse, one with check counters (`+1+0`) three-check.
    #[arg(required = true, num_args = 1.., value_name = "FEN|FILE")]
    target: Vec<String>,
    /// Which game of the file, from 1.
    #[arg(long, default_value_t = 1, value_name = "N")]
    game: u64,
    /// The position after this many plies of the main line [default: all].
    #[arg(long, value_name = "K")]
    ply: Option<usize>,
    /// The game of a FEN (as for perft: chess, chess960, a chess variant such as
    /// crazyhouse or atomic, a draughts variant), guessed from the FEN otherwise; for a
    /// file, the game type of its draughts games that declare none (as for check; a chess
    /// game's variant is its Variant tag's).
    #[arg(long, value_name = "NAME")]
    variant: Option<String>,
    /// Read the file as this format instead of guessing it.
    #[arg(long, value_enum)]
    format: Option<cli::Format>,
}

/// What `split` splits by: one of the two.
#[derive(Args, Clone)]
#[group(required = true, multiple = false)]
struct SplitKey {
    /// Files of N games each, named 1, 2, … in input order.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    games: Option<u64>,
    /// The key: a tag name (its value, as written: White, Event, Site…), eco1, eco2,
    /// eco3 (the first 1, 2 or 3 characters of the ECO tag) or year (of the Date tag).
    #[arg(long, value_name = "TAG|eco1|eco2|eco3|year", value_parser = split::parse_by)]
    by: Option<split::SplitBy>,
}

/// How a run failed, beyond the games' own diagnostics.
enum Failure {
    /// A usage error or an I/O failure, already reported.
    Io,
    /// The reader of the output went away (`notate json big.pgn | head`): stop quietly.
    Closed,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Check { inputs, strict } => run_check(&inputs, strict),
        Command::Fmt {
            inputs,
            output,
            reduced,
            rejects,
            fix_results,
            plycount,
        } => run_fmt(
            &inputs,
            output,
            reduced,
            rejects,
            repair::Repair {
                fix_results,
                plycount,
            },
            None,
        ),
        Command::Split {
            inputs,
            out_dir,
            key,
        } => {
            let by = match (key.games, key.by) {
                (Some(n), _) => split::SplitBy::Games(n),
                (None, Some(by)) => by,
                // clap requires one of the two.
                (None, None) => split::SplitBy::Games(1),
            };
            run_split(&inputs, out_dir, &by)
        }
        Command::Select {
            inputs,
            output,
            rejects,
            invert,
            criteria,
        } => run_select(&inputs, output, rejects, invert, &criteria.into()),
        Command::Dedupe {
            inputs,
            output,
            duplicates,
            by,
            keep,
        } => run_dedupe(&inputs, output, duplicates, by.into(), keep.into()),
        Command::Eco {
            inputs,
            output,
            overwrite,
        } => run_fmt(
            &inputs,
            output,
            false,
            None,
            eco::SetOpening { overwrite },
            Some(
                "openings are named for chess games only: draughts games are written as fmt writes them",
            ),
        ),
        Command::Scan { inputs } => run_scan(&inputs),
        Command::Json {
            inputs,
            output,
            strict,
        } => run_json(&inputs, output, strict),
        Command::Html {
            inputs,
            output,
            strict,
        } => run_html(&inputs, output, strict),
        Command::Parquet {
            inputs,
            output,
            positions,
            range,
            strict,
        } => run_parquet(&inputs, &output, positions.as_ref(), range, strict),
        Command::Stats { inputs } => run_stats(&inputs),
        Command::Perft {
            variant,
            args,
            divide,
            jobs,
        } => run_perft(&variant, &args, divide, jobs),
        Command::Show { pick } => run_show(&pick, show::View::Text, None),
        Command::Svg {
            pick,
            output,
            flip,
            size,
            coordinates,
            numbers,
        } => run_show(
            &pick,
            show::View::Svg(svg::Options {
                flip,
                size,
                coordinates,
                numbers,
            }),
            output.as_ref(),
        ),
    };
    match result {
        Ok(code) => code,
        Err(Failure::Io) => ExitCode::from(2),
        Err(Failure::Closed) => ExitCode::SUCCESS,
    }
}

/// Reports an error a person can act on, on standard error.
fn complain(message: impl std::fmt::Display) {
    eprintln!("notate: {message}");
}

/// Threads to use: as asked, else every core.
fn jobs(asked: Option<usize>) -> usize {
    asked
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1)
}

/// The inputs of a run, the progress bar, and what failed.
struct Run {
    sources: Vec<Source>,
    format: Option<Format>,
    /// The game type of draughts games that declare none (`--variant`).
    variant: Option<pdn::GameType>,
    jobs: usize,
    quiet: bool,
    progress: ProgressBar,
    failed: bool,
}

impl Run {
    /// Collects the inputs. A progress bar is drawn on standard error only when it is a
    /// terminal, `--quiet` is off, and `bar` (the subcommand's output does not go to the
    /// same terminal line by line).
    fn new(inputs: &Inputs, bar: bool) -> Result<Run, Failure> {
        let sources = input::collect(&inputs.paths).map_err(|e| {
            complain(e);
            Failure::Io
        })?;
        let show = bar && !inputs.quiet && io::stderr().is_terminal();
        let progress = if show {
            let total: u64 = sources.iter().filter_map(Source::size).sum();
            let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
            if let Ok(style) = ProgressStyle::with_template(
                "{bar:40} {binary_bytes}/{binary_total_bytes} {binary_bytes_per_sec} eta {eta} {msg}",
            ) {
                bar.set_style(style);
            }
            bar
        } else {
            ProgressBar::hidden()
        };
        Ok(Run {
            sources,
            format: inputs.format.map(Format::from),
            variant: inputs.variant,
            jobs: jobs(inputs.jobs),
            quiet: inputs.quiet,
            progress,
            failed: false,
        })
    }

    /// Opens each input in turn and hands it to `read`. An input that cannot be opened or
    /// read is reported and the run goes on with the next; a closed output stops it.
    fn each(
        &mut self,
        mut read: impl FnMut(&Source, Opened, &Run) -> io::Result<()>,
    ) -> Result<(), Failure> {
        let sources = std::mem::take(&mut self.sources);
        for source in &sources {
            self.progress.set_message(source.name.clone());
            let result = input::open(source, self.format, {
                let bar = self.progress.clone();
                move |n| bar.inc(n)
            })
            .and_then(|opened| {
                if let (Some(variant), Format::Pgn) = (self.variant, opened.format) {
                    self.warn(&format!(
                        "{}: read as PGN (chess); --variant ({} draughts) is for draughts games",
                        source.name,
                        variant.variant()
                    ));
                }
                read(source, opened, self)
            });
            match result {
                Ok(()) => {}
                Err(e) if e.kind() == io::ErrorKind::BrokenPipe => {
                    self.progress.finish_and_clear();
                    return Err(Failure::Closed);
                }
                Err(e) => {
                    self.progress
                        .suspend(|| complain(format_args!("{}: {e}", source.name)));
                    self.failed = true;
                }
            }
        }
        self.sources = sources;
        self.progress.finish_and_clear();
        Ok(())
    }

    /// Prints a warning on standard error, unless quiet, without tearing the bar.
    fn warn(&self, message: &str) {
        if !self.quiet {
            self.progress.suspend(|| eprintln!("notate: {message}"));
        }
    }

    /// Prints an error on standard error, even when quiet, without tearing the bar.
    fn error(&self, message: &str) {
        self.progress.suspend(|| eprintln!("notate: {message}"));
    }

    /// The exit code: 2 on I/O failures, else 1 when `errors`, else 0.
    fn code(&self, errors: bool) -> ExitCode {
        if self.failed {
            ExitCode::from(2)
        } else if errors {
            ExitCode::from(1)
        } else {
            ExitCode::SUCCESS
        }
    }
}

/// Calls `$body` with `$rules` bound to the rules of `$format`, draughts games that
/// declare no type read as `$variant` when given.
macro_rules! with_rules {
    ($format:expr, $variant:expr, |$rules:ident| $body:expr) => {
        match $format {
            Format::Pgn => {
                let $rules = &games::chess();
                $body
            }
            Format::Pdn => {
                let $rules = &games::draughts($variant);
                $body
            }
        }
    };
}

/// Standard output, buffered, or a file: where `fmt` and `json` write.
fn output(path: Option<&PathBuf>) -> Result<Box<dyn Write>, Failure> {
    Ok(match path {
        Some(path) => Box::new(io::BufWriter::with_capacity(
            1 << 18,
            File::create(path).map_err(|e| {
                complain(format_args!("{}: {e}", path.display()));
                Failure::Io
            })?,
        )),
        None => Box::new(io::BufWriter::with_capacity(1 << 18, io::stdout())),
    })
}

/// Flushes an output, turning a failure into the run's.
fn finish(out: &mut dyn Write, run: &mut Run) -> Result<(), Failure> {
    match out.flush() {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Err(Failure::Closed),
        Err(e) => {
            complain(format_args!("writing the output: {e}"));
            run.failed = true;
            Ok(())
        }
    }
}

fn read_options(strict: bool) -> ReadOptions {
    if strict {
        ReadOptions::strict()
    } else {
        ReadOptions::default()
    }
}

fn run_check(inputs: &Inputs, strict: bool) -> Result<ExitCode, Failure> {
    let started = Instant::now();
    let options = read_options(strict);
    let mut run = Run::new(inputs, inputs.quiet || !io::stdout().is_terminal())?;
    let mut out = output(None)?;
    let mut summary = check::Summary::default();
    let quiet = inputs.quiet;
    run.each(|source, opened, run| {
        summary.files += 1;
        let mut once = OncePerInput::default();
        with_rules!(opened.format, run.variant, |rules| {
            let task = check::CheckTask { rules, options };
            pipeline::drive(&task, opened.reader, run.jobs, &mut |item, offset| {
                summary.emit(item, offset, &source.name, &mut once, quiet, &mut out)
            })
        })
    })?;
    let seconds = started.elapsed().as_secs_f64();
    let check::Summary {
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
            return Err(Failure::Closed);
        }
        run.failed = true;
    }
    finish(&mut out, &mut run)?;
    Ok(run.code(errors > 0))
}

/// `fmt`, with the edits `edit` makes to each game (the repairs of `--fix-results` and
/// `--plycount`, or `eco`'s opening tags), each change it reports a warning; `pdn_note`
/// is said once when a draughts input is read (what the edit does not do there).
fn run_fmt<E>(
    inputs: &Inputs,
    output_path: Option<PathBuf>,
    reduced: bool,
    rejects_path: Option<PathBuf>,
    edit: E,
    pdn_note: Option<&str>,
) -> Result<ExitCode, Failure>
where
    E: fmt::Inspect<pgn::ChessRules, Verdict = Vec<String>>
        + fmt::Inspect<pdn::DraughtsRules, Verdict = Vec<String>>
        + Copy,
{
    let mut run = Run::new(inputs, output_path.is_some() || !io::stdout().is_terminal())?;
    let mut out = output(output_path.as_ref())?;
    let mut rejects = match &rejects_path {
        Some(path) => Some(output(Some(path))?),
        None => None,
    };
    let (mut written, mut unreadable, mut lost) = (0, 0, 0);
    let mut noted = false;
    run.each(|source, opened, run| {
        with_rules!(opened.format, run.variant, |rules| {
            let write = WriteOptions {
                reduced,
                ..rules.write_options()
            };
            // The emitter reads large games again as the workers read them.
            let read = ReadOptions::default();
            if opened.format == Format::Pdn
                && let Some(note) = pdn_note
                && !std::mem::replace(&mut noted, true)
            {
                run.warn(&format!("{}: {note}", source.name));
            }
            let task = fmt::FmtTask {
                rules,
                read,
                write,
                inspect: edit,
            };
            let mut emitter = fmt::Emitter::new(
                &mut *out,
                rejects.as_mut().map(|r| &mut **r as &mut dyn Write),
                rules,
                read,
                write,
            );
            let result = pipeline::drive(&task, opened.reader, run.jobs, &mut |item, offset| {
                let (repairs, item) = item.take_verdict();
                if matches!(item.fate, fmt::Fate::Written) {
                    let number = item.index + offset + 1;
                    for change in repairs {
                        run.warn(&format!("{}: game {number}: {change}", source.name));
                    }
                }
                let mut say = |m: String, error: bool| {
                    if error { run.error(&m) } else { run.warn(&m) }
                };
                emitter.emit(item, offset, &source.name, &mut say)
            });
            written += emitter.written;
            unreadable += emitter.unreadable;
            lost += emitter.lost;
            result
        })
    })?;
    finish(&mut *out, &mut run)?;
    if let Some(rejects) = &mut rejects {
        finish(&mut **rejects, &mut run)?;
    }
    if !inputs.quiet && unreadable > 0 {
        let place = match &rejects_path {
            Some(path) => format!("moved to {}", path.display()),
            None => "passed through unchanged".to_owned(),
        };
        run.warn(&format!(
            "{written} games written, {unreadable} that could not be read {place}"
        ));
    }
    if lost > 0 {
        // Said even when quiet: these games are in neither the output nor the rejects.
        run.error(&format!(
            "{lost} games too large to hold were left out of the output"
        ));
    }
    Ok(run.code(unreadable + lost > 0))
}

fn run_select(
    inputs: &Inputs,
    output_path: Option<PathBuf>,
    rejects_path: Option<PathBuf>,
    invert: bool,
    given: &select::Given,
) -> Result<ExitCode, Failure> {
    let criteria = select::Criteria::parse(given).map_err(|e| {
        complain(e);
        Failure::Io
    })?;
    let (chess, draughts) = (games::chess(), games::draughts(inputs.variant));
    // A pattern that neither format reads is a mistake, not a criterion no game meets.
    let in_chess = select::Selection::new(&chess, &criteria, invert);
    let in_draughts = select::Selection::new(&draughts, &criteria, invert);
    for (chess, draughts) in in_chess
        .unreadable()
        .into_iter()
        .zip(in_draughts.unreadable())
    {
        if let (Some(chess), Some(draughts)) = (chess, draughts) {
            complain(format_args!("{chess}; {draughts}"));
            return Err(Failure::Io);
        }
    }
    let mut run = Run::new(inputs, output_path.is_some() || !io::stdout().is_terminal())?;
    let mut out = output(output_path.as_ref())?;
    let mut rejects = match &rejects_path {
        Some(path) => Some(output(Some(path))?),
        None => None,
    };
    let mut tally = select::Tally {
        invert,
        wants_errors: criteria.wants_errors(),
        rejects: rejects.is_some(),
        ..select::Tally::default()
    };
    let mut noted = [false; 2];
    run.each(|source, opened, run| {
        with_rules!(opened.format, run.variant, |rules| {
            let selection = select::Selection::new(rules, &criteria, invert);
            let note = &mut noted[usize::from(opened.format == Format::Pdn)];
            for why in selection.unreadable().into_iter().flatten() {
                if !*note {
                    run.warn(&format!(
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
            let task = fmt::FmtTask {
                rules,
                read,
                write,
                inspect: selection,
            };
            let mut emitter = fmt::Emitter::new(
                &mut *out,
                rejects.as_mut().map(|r| &mut **r as &mut dyn Write),
                rules,
                read,
                write,
            );
            pipeline::drive(&task, opened.reader, run.jobs, &mut |item, offset| {
                let mut say = |m: String, error: bool| {
                    if error { run.error(&m) } else { run.warn(&m) }
                };
                tally.emit(item, &mut emitter, offset, &source.name, &mut say)
            })
        })
    })?;
    finish(&mut *out, &mut run)?;
    if let Some(rejects) = &mut rejects {
        finish(&mut **rejects, &mut run)?;
    }
    if !inputs.quiet {
        eprintln!("notate: {}", tally.summary());
    }
    Ok(run.code(tally.unreadable + tally.lost > 0))
}

fn run_dedupe(
    inputs: &Inputs,
    output_path: Option<PathBuf>,
    duplicates_path: Option<PathBuf>,
    by: dedupe::By,
    keep: dedupe::Keep,
) -> Result<ExitCode, Failure> {
    let mut run = Run::new(inputs, output_path.is_some() || !io::stdout().is_terminal())?;
    let mut out = output(output_path.as_ref())?;
    let mut duplicates = match &duplicates_path {
        Some(path) => Some(output(Some(path))?),
        None => None,
    };
    let mut emitter = dedupe::Emitter::new(
        &mut *out,
        duplicates.as_mut().map(|r| &mut **r as &mut dyn Write),
        keep,
    )
    .map_err(|e| {
        complain(e);
        Failure::Io
    })?;
    run.each(|source, opened, run| {
        with_rules!(opened.format, run.variant, |rules| {
            let task = dedupe::DedupeTask {
                rules,
                read: ReadOptions::default(),
                by,
            };
            pipeline::drive(&task, opened.reader, run.jobs, &mut |item, offset| {
                let mut say = |m: String, error: bool| {
                    if error { run.error(&m) } else { run.warn(&m) }
                };
                emitter.emit(item, offset, &source.name, &mut say)
            })
        })
    })?;
    if let Err(e) = emitter.finish() {
        if e.kind() == io::ErrorKind::BrokenPipe {
            return Err(Failure::Closed);
        }
        complain(format_args!("writing the output: {e}"));
        run.failed = true;
    }
    let (games, dropped, unreadable, lost) = (
        emitter.games,
        emitter.dropped,
        emitter.unreadable,
        emitter.lost,
    );
    drop(emitter);
    finish(&mut *out, &mut run)?;
    if let Some(duplicates) = &mut duplicates {
        finish(&mut **duplicates, &mut run)?;
    }
    if !inputs.quiet {
        let mut line = format!(
            "{games} games, {} written, {dropped} duplicates dropped",
            games - dropped - lost
        );
        if let Some(path) = &duplicates_path {
            line.push_str(&format!(" (to {})", path.display()));
        }
        if unreadable > 0 {
            line.push_str(&format!(
                "; {unreadable} could not be read (written as read, not compared)"
            ));
        }
        if lost > 0 {
            line.push_str(&format!("; {lost} too large to hold, left out"));
        }
        eprintln!("notate: {line}");
    }
    Ok(run.code(unreadable + lost > 0))
}

fn run_split(inputs: &Inputs, out_dir: PathBuf, by: &split::SplitBy) -> Result<ExitCode, Failure> {
    match std::fs::metadata(&out_dir) {
        Ok(meta) if meta.is_dir() => {}
        Ok(_) => {
            complain(format_args!(
                "{}: --out-dir exists and is not a folder",
                out_dir.display()
            ));
            return Err(Failure::Io);
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            std::fs::create_dir_all(&out_dir).map_err(|e| {
                complain(format_args!("{}: {e}", out_dir.display()));
                Failure::Io
            })?;
        }
        Err(e) => {
            complain(format_args!("{}: {e}", out_dir.display()));
            return Err(Failure::Io);
        }
    }
    let mut run = Run::new(inputs, true)?;
    let mut files = split::SplitFiles::new(out_dir, by);
    let (mut written, mut unreadable, mut lost) = (0, 0, 0);
    run.each(|source, opened, run| {
        let ext = match opened.format {
            Format::Pgn => "pgn",
            Format::Pdn => "pdn",
        };
        with_rules!(opened.format, run.variant, |rules| {
            let write = rules.write_options();
            let read = ReadOptions::default();
            let task = fmt::FmtTask {
                rules,
                read,
                write,
                inspect: split::KeyOf(by),
            };
            let mut emitter = fmt::Emitter::new(&mut files, None, rules, read, write);
            let result = pipeline::drive(&task, opened.reader, run.jobs, &mut |item, offset| {
                let (key, item) = item.take_verdict();
                emitter.out.route(ext, key);
                let before = emitter.written + emitter.unreadable;
                let mut say = |m: String, error: bool| {
                    if error { run.error(&m) } else { run.warn(&m) }
                };
                emitter.emit(item, offset, &source.name, &mut say)?;
                if emitter.written + emitter.unreadable > before {
                    emitter.out.count_game(ext);
                }
                Ok(())
            });
            written += emitter.written;
            unreadable += emitter.unreadable;
            lost += emitter.lost;
            result
        })
    })?;
    let report = match files.finish() {
        Ok(report) => report,
        Err(e) => {
            complain(e);
            run.failed = true;
            Vec::new()
        }
    };
    let mut out = io::stdout().lock();
    let mut lines = || -> io::Result<()> {
        for (path, games) in &report {
            let noun = if *games == 1 { "game" } else { "games" };
            writeln!(out, "{games} {noun} → {}", path.display())?;
        }
        let passed = if unreadable > 0 {
            format!(", {unreadable} of them passed through unchanged (they could not be read)")
        } else {
            String::new()
        };
        let games = written + unreadable;
        let files = report.len();
        writeln!(
            out,
            "{games} {} in {files} {}{passed}",
            if games == 1 { "game" } else { "games" },
            if files == 1 { "file" } else { "files" },
        )
    };
    if lines().is_err() {
        return Err(Failure::Closed);
    }
    if lost > 0 {
        run.error(&format!(
            "{lost} games too large to hold were left out of the files"
        ));
    }
    Ok(run.code(unreadable + lost > 0))
}

fn run_scan(inputs: &Inputs) -> Result<ExitCode, Failure> {
    let mut run = Run::new(inputs, true)?;
    let mut counts = scan::Counts::default();
    run.each(|_, opened, run| {
        let dialect = with_rules!(
            opened.format,
            run.variant,
            |rules| notation::Rules::dialect(rules)
        );
        let task = scan::ScanTask { dialect };
        pipeline::drive(&task, opened.reader, run.jobs, &mut |c, _| {
            counts += c;
            Ok(())
        })
    })?;
    let mut out = io::stdout().lock();
    let line = writeln!(
        out,
        "games={} tags={} sans={} nags={} comments={} variations={}",
        counts.games, counts.tags, counts.moves, counts.nags, counts.comments, counts.variations
    );
    if line.is_err() {
        return Err(Failure::Closed);
    }
    Ok(run.code(false))
}

fn run_json(
    inputs: &Inputs,
    output_path: Option<PathBuf>,
    strict: bool,
) -> Result<ExitCode, Failure> {
    let mut run = Run::new(inputs, output_path.is_some() || !io::stdout().is_terminal())?;
    let mut out = output(output_path.as_ref())?;
    let options = read_options(strict);
    let mut errors = 0;
    run.each(|source, opened, run| {
        let mut file = String::new();
        json::string(&source.name, &mut file);
        with_rules!(opened.format, run.variant, |rules| {
            let task = json::JsonTask { rules, options };
            let mut emitter = json::Emitter {
                out: &mut *out,
                rules,
                read: options,
                name: source.name.clone(),
                file,
                errors: 0,
                games: 0,
                once: OncePerInput::default(),
            };
            let result = pipeline::drive(&task, opened.reader, run.jobs, &mut |item, offset| {
                emitter.emit(item, offset, &mut |m| run.warn(&m))
            });
            errors += emitter.errors;
            result
        })
    })?;
    finish(&mut *out, &mut run)?;
    Ok(run.code(errors > 0))
}

fn run_html(
    inputs: &Inputs,
    output_path: Option<PathBuf>,
    strict: bool,
) -> Result<ExitCode, Failure> {
    let mut run = Run::new(inputs, output_path.is_some() || !io::stdout().is_terminal())?;
    let mut out = output(output_path.as_ref())?;
    let options = read_options(strict);
    let title = match run.sources.as_slice() {
        [one] => one.name.clone(),
        sources => format!("{} inputs", sources.len()),
    };
    let mut emitter = match html::Emitter::start(&mut *out, &title) {
        Ok(emitter) => emitter,
        Err(e) => {
            complain(format_args!("writing the output: {e}"));
            return Err(Failure::Io);
        }
    };
    run.each(|source, opened, run| {
        emitter.input(&source.name);
        with_rules!(opened.format, run.variant, |rules| {
            let task = html::HtmlTask { rules, options };
            pipeline::drive(&task, opened.reader, run.jobs, &mut |item, offset| {
                emitter.emit(item, offset, &mut |m| run.warn(&m))
            })
        })
    })?;
    let errors = emitter.errors;
    if let Err(e) = emitter.finish() {
        complain(format_args!("writing the output: {e}"));
        run.failed = true;
    }
    finish(&mut *out, &mut run)?;
    Ok(run.code(errors > 0))
}

fn run_parquet(
    inputs: &Inputs,
    output_path: &PathBuf,
    positions_path: Option<&PathBuf>,
    range: Option<range::ByteRange>,
    strict: bool,
) -> Result<ExitCode, Failure> {
    let mut run = Run::new(inputs, range.is_none())?;
    // A range is of one uncompressed file, named on the command line, whose format its
    // name or --format gives (its middle cannot be sniffed the way a start can).
    let ranged = match range {
        Some(range) => {
            let (path, format) = match inputs.paths.as_slice() {
                [path] if path.is_file() => (
                    path,
                    inputs
                        .format
                        .map(Format::from)
                        .or_else(|| Format::from_path(path)),
                ),
                _ => {
                    complain("--range reads one file (not a folder, not standard input)");
                    return Err(Failure::Io);
                }
            };
            let Some(format) = format else {
                complain(format_args!(
                    "{}: --range cannot tell PGN from PDN by the name; give --format",
                    path.display()
                ));
                return Err(Failure::Io);
            };
            let opened = File::open(path).and_then(|file| range::open_range(file, range));
            match opened {
                Ok((start, reader)) => Some((path.display().to_string(), format, start, reader)),
                Err(e) => {
                    complain(format_args!("{}: {e}", path.display()));
                    return Err(Failure::Io);
                }
            }
        }
        None => None,
    };
    let create = |path: &PathBuf, schema| {
        File::create(path)
            .map_err(|e| e.to_string())
            .and_then(|file| {
                columnar::ParquetWriter::new(io::BufWriter::with_capacity(1 << 20, file), schema)
                    .map_err(|e| e.to_string())
            })
            .map_err(|e| {
                complain(format_args!("{}: {e}", path.display()));
                Failure::Io
            })
    };
    let mut files = parquet::ParquetFiles {
        games: create(output_path, columnar::games_schema())?,
        positions: match positions_path {
            Some(path) => Some(create(path, columnar::positions_schema())?),
            None => None,
        },
    };
    let options = read_options(strict);
    let (mut rows, mut errors) = (0, 0);
    let mut write = |name: &str,
                     format: Format,
                     placing: parquet::Placing,
                     reader: Box<dyn io::Read + Send>,
                     run: &Run|
     -> io::Result<()> {
        with_rules!(format, run.variant, |rules| {
            let task = parquet::ParquetTask {
                rules,
                options,
                name,
                placing,
                positions: files.positions.is_some(),
            };
            let mut emitter = parquet::Emitter {
                tables: &mut files,
                name: name.to_owned(),
                placing,
                once: OncePerInput::default(),
                rows: 0,
                errors: 0,
            };
            let result = pipeline::drive(&task, reader, run.jobs, &mut |item, before| {
                emitter.emit(item, before, &mut |m| run.warn(&m))
            });
            rows += emitter.rows;
            errors += emitter.errors;
            result
        })
    };
    match ranged {
        Some((name, format, start, reader)) => {
            if let Err(e) = write(&name, format, parquet::Placing::From(start), reader, &run) {
                run.error(&format!("{name}: {e}"));
                run.failed = true;
            }
        }
        None => run.each(|source, opened, run| {
            write(
                &source.name,
                opened.format,
                parquet::Placing::Whole,
                opened.reader,
                run,
            )
        })?,
    }
    if let Err(e) = files.close() {
        complain(format_args!("{}: {e}", output_path.display()));
        return Err(Failure::Io);
    }
    run.warn(&format!(
        "{rows} games written to {} ({errors} with errors)",
        output_path.display()
    ));
    Ok(run.code(errors > 0))
}

fn run_stats(inputs: &Inputs) -> Result<ExitCode, Failure> {
    let mut run = Run::new(inputs, true)?;
    let mut total = stats::Stats::default();
    run.each(|_, opened, run| {
        let mut this = stats::Stats {
            files: 1,
            ..stats::Stats::default()
        };
        let result = with_rules!(opened.format, run.variant, |rules| {
            let task = stats::StatsTask {
                rules,
                options: ReadOptions::default(),
            };
            pipeline::drive(&task, opened.reader, run.jobs, &mut |s, _| {
                this.merge(s);
                Ok(())
            })
        });
        this.end_input();
        total.merge(this);
        result
    })?;
    let mut out = io::stdout().lock();
    if total.write(&mut out).is_err() {
        return Err(Failure::Closed);
    }
    Ok(run.code(false))
}

fn run_perft(
    variant: &str,
    args: &[String],
    divide: bool,
    threads: Option<usize>,
) -> Result<ExitCode, Failure> {
    let usage = |message: String| {
        complain(message);
        Failure::Io
    };
    let game = perft::BoardGame::parse(variant).map_err(usage)?;
    let Some((depth, fen)) = args.split_last() else {
        return Err(usage("perft needs a depth".to_owned()));
    };
    let depth: u32 = depth
        .parse()
        .map_err(|_| usage(format!("the depth {depth:?} is not a number")))?;
    let fen = (!fen.is_empty()).then(|| fen.join(" "));
    let (start, warnings) = perft::Start::new(game, fen.as_deref()).map_err(usage)?;
    for w in warnings {
        eprintln!("notate: warning: {w}");
    }
    let mut out = io::stdout().lock();
    match perft::run(&start, depth, divide, jobs(threads), &mut out) {
        Ok(()) => Ok(ExitCode::SUCCESS),
        Err(_) => Err(Failure::Closed),
    }
}

/// `show` and `svg`: the position `pick` names, as `view` shows it, to standard output
/// or to the file `to`.
fn run_show(pick: &Pick, view: show::View, to: Option<&PathBuf>) -> Result<ExitCode, Failure> {
    let fail = |message: String| {
        complain(message);
        Failure::Io
    };
    let target = pick.target.join(" ");
    let target = target.as_str();
    let variant = pick.variant.as_deref();
    let path = PathBuf::from(target);
    let text = if target == "-" || path.is_file() {
        let source = Source {
            name: target.to_owned(),
            path: (target != "-").then_some(path),
        };
        let opened = input::open(&source, pick.format.map(Format::from), |_| {})
            .map_err(|e| fail(format!("{target}: {e}")))?;
        let mut reader = opened.reader;
        // A draughts variant is the game type of the file's games that declare none.
        let game_type = match variant {
            Some(name) => match perft::BoardGame::parse(name).map_err(fail)? {
                perft::BoardGame::Draughts(_) => Some(games::parse_game_type(name).map_err(fail)?),
                perft::BoardGame::Chess
                | perft::BoardGame::Chess960
                | perft::BoardGame::ChessVariant(_) => None,
            },
            None => None,
        };
        with_rules!(opened.format, game_type, |rules| show::game_view(
            rules,
            &mut reader,
            pick.game.max(1),
            pick.ply,
            view
        ))
        .map_err(|e| fail(format!("{target}: {e}")))?
    } else {
        let game = variant
            .map(perft::BoardGame::parse)
            .transpose()
            .map_err(fail)?;
        match view {
            show::View::Text => show::fen_diagram(target, game).map_err(fail)?,
            show::View::Svg(_) => {
                let (picture, warnings) = show::fen_view(target, game, view).map_err(fail)?;
                for w in warnings {
                    complain(format_args!("warning: {w}"));
                }
                picture
            }
        }
    };
    let mut out = output(to)?;
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Ok(()) => Ok(ExitCode::SUCCESS),
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Err(Failure::Closed),
        Err(e) => Err(fail(format!(
            "{}: {e}",
            to.map_or("standard output".into(), |p| p.display().to_string())
        ))),
    }
}
