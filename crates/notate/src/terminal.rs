//! The terminal: a progress bar on standard error while the inputs are read, warnings and
//! errors printed without tearing it, and the outputs `-o` names.

use std::fs::File;
use std::io::{self, IsTerminal, Write};
use std::path::PathBuf;

use collection::input::{self, Format, Source};
use collection::job::{Job, Report, Stopped};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::cli::Inputs;

/// Reports a job to the terminal: a progress bar of the inputs' bytes, when shown, and
/// each message as `notate: …` on standard error (warnings not when quiet).
pub struct Terminal {
    progress: ProgressBar,
    quiet: bool,
}

impl Terminal {
    /// Collects the inputs. A progress bar is drawn on standard error only when it is a
    /// terminal, `--quiet` is off, and `bar` (the subcommand's output does not go to the
    /// same terminal line by line).
    ///
    /// # Errors
    /// [`Stopped::Failed`] when an input does not exist (reported).
    pub fn new(inputs: &Inputs, bar: bool) -> Result<(Terminal, Vec<Source>), Stopped> {
        let sources = input::collect(&inputs.paths).map_err(complain)?;
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
        let terminal = Terminal {
            progress,
            quiet: inputs.quiet,
        };
        Ok((terminal, sources))
    }

    /// The job over `sources` that `inputs` asks for, reported here.
    pub fn job(&self, inputs: &Inputs, sources: Vec<Source>) -> Job<'_> {
        let mut job = Job::new(sources, jobs(inputs.jobs), self);
        job.format = inputs.format.map(Format::from);
        job.variant = inputs.variant;
        job
    }
}

impl Report for Terminal {
    fn begin_input(&self, source: &Source) {
        self.progress.set_message(source.name.clone());
    }

    fn byte_counter(&self) -> Box<dyn FnMut(u64) + Send> {
        let bar = self.progress.clone();
        Box::new(move |n| bar.inc(n))
    }

    fn warning(&self, message: &str) {
        if !self.quiet {
            self.progress.suspend(|| eprintln!("notate: {message}"));
        }
    }

    fn error(&self, message: &str) {
        self.progress.suspend(|| eprintln!("notate: {message}"));
    }

    fn end_inputs(&self) {
        self.progress.finish_and_clear();
    }
}

/// Reports an error a person can act on, on standard error; the run fails.
pub fn complain(message: impl std::fmt::Display) -> Stopped {
    eprintln!("notate: {message}");
    Stopped::Failed
}

/// Threads to use: as asked, else every core.
pub fn jobs(asked: Option<usize>) -> usize {
    asked
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1)
}

/// Standard output, buffered, or a file: where a job writes its games.
///
/// # Errors
/// [`Stopped::Failed`] when the file cannot be made (reported).
pub fn output(path: Option<&PathBuf>) -> Result<Box<dyn Write>, Stopped> {
    Ok(match path {
        Some(path) => Box::new(io::BufWriter::with_capacity(
            1 << 18,
            File::create(path).map_err(|e| complain(format_args!("{}: {e}", path.display())))?,
        )),
        None => Box::new(io::BufWriter::with_capacity(1 << 18, io::stdout())),
    })
}

/// A file, when `path` names one ([`output`]).
///
/// # Errors
/// [`Stopped::Failed`] when the file cannot be made (reported).
pub fn output_if(path: Option<&PathBuf>) -> Result<Option<Box<dyn Write>>, Stopped> {
    path.map(|path| output(Some(path))).transpose()
}
