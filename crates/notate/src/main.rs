//! `notate`: the command-line tool for PGN (chess) and PDN (draughts) game collections.
//!
//! The jobs are the library's ([`collection`]); this binary is the command line around
//! them: its arguments ([`cli`], clap), the terminal (a progress bar, messages on standard
//! error, the outputs `-o` names: [`terminal`]), what signals do ([`signals`]) and the
//! exit codes.
//!
//! An output file is put in place whole, renamed over any earlier file of its name, when
//! the run ends well; a run that fails or is interrupted leaves the earlier file as it
//! was ([`collection::output`]). A closed standard output (`notate fmt big.pgn | head`)
//! ends a run quietly, exit code 0.
//!
//! Exit codes: 0 when all is well, 1 when a game has an error (`check`, `fmt`, `json`),
//! 2 for a usage error or an input or output that cannot be read or written.

/// The workers of `--jobs` allocate and free many small things each (a game's tags,
/// diagnostics, the readings of a game whose type is inferred): with the system allocator
/// two workers spent 18% more CPU time than one on the same input, with mimalloc 12%
/// (`check --jobs 2` on 14 MB of PDN: 10% more games per second).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// mimalloc's option `purge_delay`: how long freed memory stays resident before it is
/// given back. libmimalloc-sys names no constant for it; its place in `mi_option_t` is
/// the same in mimalloc 2 and 3, and a test checks it by its default.
const PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;

/// For `parquet`: freed memory is given back after 10 ms (mimalloc 2's default) rather
/// than mimalloc 3's second, unless the user chose with `MIMALLOC_PURGE_DELAY`. `parquet`
/// frees on its writing thread the rows its workers built, about 100 MB a second: kept a
/// second, they took its peak to 292 MiB on 100 MB of TWIC games with `--positions` and
/// 280 MiB without; about 209 MiB either way with 10 ms, for 5 to 15% more time (paired
/// runs). The other subcommands free little of what other threads built, and keep the default.
#[allow(unsafe_code)]
fn give_back_freed_memory_sooner() {
    if std::env::var_os("MIMALLOC_PURGE_DELAY").is_none() {
        // SAFETY: mi_option_set stores a number in mimalloc's table of options, which
        // it reads when it purges; this runs at the start of `main`, before any other
        // thread of ours exists to read it at the same time.
        unsafe { libmimalloc_sys::mi_option_set(PURGE_DELAY, 10) };
    }
}

use std::io::{self, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Parser;
use collection::input::Format;
use collection::job::{Ended, Stopped};
use collection::output::OutputError;
use collection::{
    annotate, check, dedupe, eco, fmt, html, json, parquet, perft, range, repair, scan, select,
    show, split, stats, svg,
};
use notation::ReadOptions;

use cli::{Cli, Command, Inputs, Pick};
use terminal::{Output, Terminal};

mod cli;
mod positions;
mod signals;
mod terminal;

fn main() -> ExitCode {
    let cli = Cli::parse();
    if matches!(cli.command, Command::Parquet { .. }) {
        give_back_freed_memory_sooner();
    }
    if let Err(e) = signals::install() {
        eprintln!(
            "notate: warning: signals cannot be handled ({e}): an interrupted run may leave temporary files"
        );
    }
    let result = match cli.command {
        Command::Check { inputs, strict } => check(&inputs, strict),
        Command::Fmt {
            inputs,
            output,
            reduced,
            rejects,
            fix_results,
            plycount,
        } => fmt(
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
            split(&inputs, out_dir, &by)
        }
        Command::Select {
            inputs,
            output,
            rejects,
            invert,
            index,
            criteria,
        } => match index {
            // clap refuses --index with --invert or --rejects.
            Some(index) => positions::select(&inputs, output, &index, &criteria.into()),
            None => select(&inputs, output, rejects, invert, &criteria.into()),
        },
        Command::Dedupe {
            inputs,
            output,
            duplicates,
            by,
            keep,
        } => dedupe(&inputs, output, duplicates, by.into(), keep.into()),
        Command::Eco {
            inputs,
            output,
            overwrite,
        } => fmt(
            &inputs,
            output,
            false,
            None,
            eco::SetOpening { overwrite },
            Some(
                "openings are named for chess games only: draughts games are written as fmt writes them",
            ),
        ),
        Command::Scan { inputs } => scan(&inputs),
        Command::Json {
            inputs,
            output,
            strict,
        } => json(&inputs, output, strict),
        Command::Html {
            inputs,
            output,
            strict,
        } => html(&inputs, output, strict),
        Command::Parquet {
            inputs,
            output,
            positions,
            compression,
            level,
            range,
            strict,
        } => parquet(
            &inputs,
            &output,
            positions.as_ref(),
            (compression, level),
            range,
            strict,
        ),
        Command::Annotate {
            inputs,
            output,
            engine,
            limit,
            engines,
            threads,
            hash,
            options,
            timeout,
            overwrite,
            accuracy_tags,
            cache,
            resume,
        } => {
            let settings = annotate::Settings {
                engine: engine::EngineConfig {
                    path: engine,
                    // One thread unless asked: a node limit then gives the same analysis
                    // every run.
                    threads: Some(threads.unwrap_or(1)),
                    hash_mb: hash,
                    options,
                    ..engine::EngineConfig::default()
                },
                limit: limit.limit(),
                engines: terminal::jobs(engines),
                timeout: timeout
                    .filter(|s| s.is_finite() && *s > 0.0)
                    .map(std::time::Duration::from_secs_f64),
                overwrite,
                accuracy_tags,
                write: notation::WriteOptions::default(),
                cache,
            };
            annotate(&inputs, output, resume, &settings)
        }
        Command::Index {
            inputs,
            output,
            append,
            variations,
            merge,
            range,
        } => match merge {
            true => positions::merge(&inputs, &output),
            false => positions::index(&inputs, &output, append, variations, range),
        },
        Command::Explore {
            index,
            position,
            filter,
            json,
            max_moves,
            top,
            recent,
        } => positions::explore(
            &index,
            &position,
            &filter,
            json,
            index::Limits {
                moves: max_moves,
                top_games: top,
                recent_games: recent,
            },
        ),
        Command::Find {
            index,
            position,
            limit,
            output,
        } => positions::find(&index, &position, limit, output.as_deref()),
        Command::Serve {
            inputs,
            index,
            bind,
        } => positions::serve(&inputs, index.as_deref(), bind),
        Command::Stats { inputs } => stats(&inputs),
        Command::Perft {
            variant,
            args,
            divide,
            jobs,
        } => perft(&variant, &args, divide, jobs),
        Command::Show { pick } => show(&pick, show::View::Text, None),
        Command::Svg {
            pick,
            output,
            flip,
            size,
            coordinates,
            numbers,
        } => show(
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
        Ok(ended) => exit_code(ended),
        Err(Stopped::Failed) => ExitCode::from(2),
        Err(Stopped::Closed) => ExitCode::SUCCESS,
    }
}

/// The exit code of a job that read its inputs: 2 when an input or output failed, else 1
/// when a game has an error, else 0.
fn exit_code(ended: Ended) -> ExitCode {
    if ended.failed {
        ExitCode::from(2)
    } else if ended.game_errors {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

fn read_options(strict: bool) -> ReadOptions {
    if strict {
        ReadOptions::strict()
    } else {
        ReadOptions::default()
    }
}

/// Whether a job that writes to `output` (standard output when `None`) may draw a progress
/// bar: not when its output goes to the terminal line by line.
fn bar_beside(output: Option<&PathBuf>) -> bool {
    output.is_some() || !io::stdout().is_terminal()
}

fn check(inputs: &Inputs, strict: bool) -> Result<Ended, Stopped> {
    let (terminal, sources) = Terminal::new(inputs, inputs.quiet || !io::stdout().is_terminal())?;
    let mut job = terminal.job(inputs, sources);
    let mut out = Output::create(None)?;
    let ended = check::run(&mut job, read_options(strict), inputs.quiet, &mut out)?;
    terminal::commit(ended, [Some(out)])
}

/// `fmt`, with the edits `edit` makes to each game (the repairs of `--fix-results` and
/// `--plycount`, or `eco`'s opening tags); `pdn_note` is said once when a draughts input
/// is read.
fn fmt<E>(
    inputs: &Inputs,
    output: Option<PathBuf>,
    reduced: bool,
    rejects: Option<PathBuf>,
    edit: E,
    pdn_note: Option<&str>,
) -> Result<Ended, Stopped>
where
    E: fmt::Inspect<pgn::ChessRules, Verdict = Vec<String>>
        + fmt::Inspect<pdn::DraughtsRules, Verdict = Vec<String>>
        + Copy,
{
    let (terminal, sources) = Terminal::new(inputs, bar_beside(output.as_ref()))?;
    let mut job = terminal.job(inputs, sources);
    let (mut out, mut rejects_out) =
        Output::create_with(output.as_ref(), rejects.as_ref(), "--rejects")?;
    let named = rejects
        .as_deref()
        .zip(rejects_out.as_mut())
        .map(|(path, out)| fmt::Named { out, path });
    let ended = fmt::run(&mut job, &mut out, named, reduced, edit, pdn_note)?;
    terminal::commit(ended, [Some(out), rejects_out])
}

fn select(
    inputs: &Inputs,
    output: Option<PathBuf>,
    rejects: Option<PathBuf>,
    invert: bool,
    given: &select::Given,
) -> Result<Ended, Stopped> {
    let criteria = select::Criteria::parse(given).map_err(terminal::complain)?;
    select::check_readable(&criteria, inputs.variant, invert).map_err(terminal::complain)?;
    let (terminal, sources) = Terminal::new(inputs, bar_beside(output.as_ref()))?;
    let mut job = terminal.job(inputs, sources);
    let (mut out, mut rejects_out) =
        Output::create_with(output.as_ref(), rejects.as_ref(), "--rejects")?;
    let rejects = rejects_out.as_mut().map(|r| r as &mut dyn Write);
    let ended = select::run(&mut job, &criteria, invert, &mut out, rejects)?;
    terminal::commit(ended, [Some(out), rejects_out])
}

fn dedupe(
    inputs: &Inputs,
    output: Option<PathBuf>,
    duplicates: Option<PathBuf>,
    by: dedupe::By,
    keep: dedupe::Keep,
) -> Result<Ended, Stopped> {
    let (terminal, sources) = Terminal::new(inputs, bar_beside(output.as_ref()))?;
    let mut job = terminal.job(inputs, sources);
    let (mut out, mut duplicates_out) =
        Output::create_with(output.as_ref(), duplicates.as_ref(), "--duplicates")?;
    let named = duplicates
        .as_deref()
        .zip(duplicates_out.as_mut())
        .map(|(path, out)| fmt::Named { out, path });
    let ended = dedupe::run(&mut job, by, keep, &mut out, named)?;
    terminal::commit(ended, [Some(out), duplicates_out])
}

fn split(inputs: &Inputs, out_dir: PathBuf, by: &split::SplitBy) -> Result<Ended, Stopped> {
    split::prepare_out_dir(&out_dir).map_err(terminal::complain)?;
    let (terminal, sources) = Terminal::new(inputs, true)?;
    let mut job = terminal.job(inputs, sources);
    split::run(&mut job, out_dir, by, &mut io::stdout().lock())
}

fn scan(inputs: &Inputs) -> Result<Ended, Stopped> {
    let (terminal, sources) = Terminal::new(inputs, true)?;
    let mut job = terminal.job(inputs, sources);
    scan::run(&mut job, &mut io::stdout().lock())
}

fn json(inputs: &Inputs, output: Option<PathBuf>, strict: bool) -> Result<Ended, Stopped> {
    let (terminal, sources) = Terminal::new(inputs, bar_beside(output.as_ref()))?;
    let mut job = terminal.job(inputs, sources);
    let mut out = Output::create(output.as_ref())?;
    let ended = json::run(&mut job, read_options(strict), &mut out)?;
    terminal::commit(ended, [Some(out)])
}

fn html(inputs: &Inputs, output: Option<PathBuf>, strict: bool) -> Result<Ended, Stopped> {
    let (terminal, sources) = Terminal::new(inputs, bar_beside(output.as_ref()))?;
    let mut job = terminal.job(inputs, sources);
    let mut out = Output::create(output.as_ref())?;
    let ended = html::run(&mut job, read_options(strict), &mut out)?;
    terminal::commit(ended, [Some(out)])
}

fn parquet(
    inputs: &Inputs,
    output: &Path,
    positions: Option<&PathBuf>,
    (compression, level): (cli::ParquetCompression, Option<u8>),
    range: Option<range::ByteRange>,
    strict: bool,
) -> Result<Ended, Stopped> {
    // A level for another codec than zstd is a usage error, before any input is read.
    let codec = parquet::Codec::named(compression.name(), level).map_err(terminal::complain)?;
    let (terminal, sources) = Terminal::new(inputs, range.is_none())?;
    let mut job = terminal.job(inputs, sources);
    // A range is of one uncompressed file, named on the command line.
    let ranged = range
        .map(|range| parquet::open_ranged(&inputs.paths, job.format, range))
        .transpose()
        .map_err(terminal::complain)?;
    let files = parquet::create_files(output, positions.map(PathBuf::as_path), codec)
        .map_err(terminal::complain)?;
    parquet::run(&mut job, read_options(strict), files, ranged, output)
}

/// `annotate`: to standard output, or to a file written in place, game by game, which a
/// run interrupted leaves for `--resume`.
fn annotate(
    inputs: &Inputs,
    output: Option<PathBuf>,
    resume: bool,
    settings: &annotate::Settings,
) -> Result<Ended, Stopped> {
    let (terminal, sources) = Terminal::new(inputs, bar_beside(output.as_ref()))?;
    let run = {
        let paths: Vec<&std::path::Path> = sources
            .iter()
            .map(|s| s.path.as_deref().unwrap_or(std::path::Path::new("-")))
            .collect();
        annotate::run_of(settings, &paths)
    };
    // Written in place as the inputs are read: it must be none of them.
    if let Some(path) = &output
        && let Ok(target) = std::fs::canonicalize(path)
        && sources
            .iter()
            .filter_map(|s| s.path.as_ref())
            .any(|input| std::fs::canonicalize(input).is_ok_and(|input| input == target))
    {
        return Err(terminal::complain(format_args!(
            "{}: the output is an input, which annotate would overwrite as it reads it",
            path.display()
        )));
    }
    let mut job = terminal.job(inputs, sources);
    let read = ReadOptions::default();
    let Some(path) = output else {
        let mut out = Output::create(None)?;
        let (ended, done) = annotate::run(&mut job, settings, read, &mut out, 0)?;
        say_annotated(inputs, done);
        return terminal::commit(ended, [Some(out)]);
    };
    // An engine that cannot be started is said before the file is touched, so that an
    // earlier file of its name is left as it was.
    if let Err(e) = engine::Uci::start(&settings.engine) {
        return Err(terminal::complain(e));
    }
    let (mut out, skip) = if resume {
        match annotate::Resumable::resume(&path, &run).map_err(terminal::complain)? {
            annotate::Resumed::From(out, games) => (out, games),
            annotate::Resumed::Finished => {
                eprintln!(
                    "notate: {} was finished by its run: nothing to resume",
                    path.display()
                );
                return Ok(Ended::default());
            }
        }
    } else {
        (
            annotate::Resumable::create(&path, &run).map_err(terminal::complain)?,
            0,
        )
    };
    let (ended, done) = annotate::run(&mut job, settings, read, &mut out, skip)?;
    say_annotated(inputs, done);
    if let Err(e) = out.finish() {
        job.write_failed(&e)?;
    }
    Ok(job.ended(ended.game_errors))
}

fn say_annotated(inputs: &Inputs, done: annotate::Annotated) {
    if !inputs.quiet {
        eprintln!(
            "notate: {} games annotated, {} passed through unchanged; {} positions analysed ({:.1} s of search), {} met again, {} from the cache",
            done.games,
            done.unchanged,
            done.analysed,
            done.search_time.as_secs_f64(),
            done.reused,
            done.cached
        );
    }
}

fn stats(inputs: &Inputs) -> Result<Ended, Stopped> {
    let (terminal, sources) = Terminal::new(inputs, true)?;
    let mut job = terminal.job(inputs, sources);
    stats::run(&mut job, &mut io::stdout().lock())
}

fn perft(
    variant: &str,
    args: &[String],
    divide: bool,
    threads: Option<usize>,
) -> Result<Ended, Stopped> {
    let game = perft::BoardGame::parse(variant).map_err(terminal::complain)?;
    let Some((depth, fen)) = args.split_last() else {
        return Err(terminal::complain("perft needs a depth"));
    };
    let depth: u32 = depth
        .parse()
        .map_err(|_| terminal::complain(format!("the depth {depth:?} is not a number")))?;
    let fen = (!fen.is_empty()).then(|| fen.join(" "));
    let (start, warnings) = perft::Start::new(game, fen.as_deref()).map_err(terminal::complain)?;
    for w in warnings {
        eprintln!("notate: warning: {w}");
    }
    let mut out = io::stdout().lock();
    match perft::run(&start, depth, divide, terminal::jobs(threads), &mut out) {
        Ok(()) => Ok(Ended::default()),
        Err(_) => Err(Stopped::Closed),
    }
}

/// `show` and `svg`: the position `pick` names, as `view` shows it, to standard output
/// or to the file `to`.
fn show(pick: &Pick, view: show::View, to: Option<&PathBuf>) -> Result<Ended, Stopped> {
    let shown = show::pick(
        &pick.target.join(" "),
        pick.variant.as_deref(),
        pick.format.map(Format::from),
        pick.game,
        pick.ply,
        view,
    )
    .map_err(terminal::complain)?;
    for w in shown.warnings {
        terminal::complain(format_args!("warning: {w}"));
    }
    let mut out = Output::create(to)?;
    match out.write_all(shown.text.as_bytes()) {
        Ok(()) => terminal::commit(Ended::default(), [Some(out)]),
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Err(Stopped::Closed),
        Err(e) => Err(match OutputError::carried_by(&e) {
            Some(output) => terminal::complain(output),
            None => terminal::complain(format_args!("standard output: {e}")),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::PURGE_DELAY;

    /// The option set at `PURGE_DELAY` is the purge delay: mimalloc 3's default of a
    /// second is there (or the user's `MIMALLOC_PURGE_DELAY`).
    #[test]
    #[allow(unsafe_code)]
    fn the_option_given_back_sooner_is_the_purge_delay() {
        // SAFETY: mi_option_get reads an entry of mimalloc's table of options (and
        // initialises it on first use); nothing in this test binary sets one.
        let delay = unsafe { libmimalloc_sys::mi_option_get(PURGE_DELAY) };
        match std::env::var("MIMALLOC_PURGE_DELAY") {
            Ok(chosen) => assert_eq!(delay.to_string(), chosen),
            Err(_) => assert_eq!(delay, 1000, "mimalloc 3's purge delay, in ms"),
        }
    }
}
