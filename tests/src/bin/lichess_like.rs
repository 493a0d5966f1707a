//! `lichess-like --games N [--seed S] [-o FILE] [--threads T]`: a collection of N chess
//! games that looks like lichess's database, written in PGN (to standard output by
//! default); the same bytes for the same N and seed, whatever the number of threads. See
//! `workspace_tests::lichess_like`.

use std::io::{self, BufWriter, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use workspace_tests::lichess_like::Generator;

const USAGE: &str = "usage: lichess-like --games N [--seed S] [-o FILE] [--threads T]";

/// What the command line asks for.
struct Args {
    games: u64,
    seed: u64,
    output: Option<PathBuf>,
    threads: usize,
}

/// Reads the command line; the message says what is wrong.
fn args() -> Result<Args, String> {
    let mut games = None;
    let mut seed = 1;
    let mut output = None;
    let mut threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = |name: &str| args.next().ok_or_else(|| format!("{name} needs a value"));
        match arg.as_str() {
            "--games" | "-n" => games = Some(number(&value("--games")?, "--games")?),
            "--seed" => seed = number(&value("--seed")?, "--seed")?,
            "-o" | "--output" => output = Some(PathBuf::from(value("-o")?)),
            "--threads" => {
                threads = usize::try_from(number(&value("--threads")?, "--threads")?)
                    .map_err(|e| e.to_string())?
                    .max(1);
            }
            "-h" | "--help" => return Err(String::new()),
            other => return Err(format!("unknown argument {other:?}")),
        }
    }
    let games = games.ok_or("--games N is required")?;
    Ok(Args {
        games,
        seed,
        output,
        threads,
    })
}

fn number(text: &str, name: &str) -> Result<u64, String> {
    text.replace('_', "")
        .parse()
        .map_err(|_| format!("{name} wants a whole number, not {text:?}"))
}

fn main() -> ExitCode {
    let args = match args() {
        Ok(args) => args,
        Err(message) if message.is_empty() => {
            println!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Err(message) => {
            eprintln!("lichess-like: {message}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let started = Instant::now();
    let generator = Generator::new(args.seed);
    let written = match &args.output {
        Some(path) => std::fs::File::create(path).and_then(|file| {
            let mut out = BufWriter::with_capacity(1 << 20, file);
            let bytes = generator.write_all(args.games, args.threads, &mut out)?;
            out.flush()?;
            Ok(bytes)
        }),
        None => {
            let mut out = BufWriter::with_capacity(1 << 20, io::stdout().lock());
            generator
                .write_all(args.games, args.threads, &mut out)
                .and_then(|bytes| out.flush().map(|()| bytes))
        }
    };
    match written {
        Ok(bytes) => {
            let seconds = started.elapsed().as_secs_f64();
            eprintln!(
                "lichess-like: {} games, {} bytes in {seconds:.1} s ({:.0} games/s, {} threads)",
                args.games,
                bytes,
                args.games as f64 / seconds.max(1e-9),
                args.threads
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("lichess-like: {e}");
            ExitCode::FAILURE
        }
    }
}
