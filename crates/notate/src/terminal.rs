//! The terminal: a progress bar on standard error while the inputs are read, warnings and
//! errors printed without tearing it, and the outputs `-o` names.

use std::io::{self, BufWriter, IsTerminal, Stdout, Write};
use std::path::{Path, PathBuf};

use collection::input::{self, Format, Source};
use collection::job::{Ended, Job, Report, Stopped};
use collection::output::{self, AtomicFile, OutputError};
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

    fn counts(&self, text: &str) {
        self.progress.set_message(text.to_owned());
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

/// The file a path names, for telling whether two name one: its own canonical path, or its
/// folder's with its name when it is not there yet.
fn where_written(path: &Path) -> PathBuf {
    if let Ok(path) = std::fs::canonicalize(path) {
        return path;
    }
    let folder = match path.parent() {
        Some(folder) if !folder.as_os_str().is_empty() => folder,
        _ => Path::new("."),
    };
    match (std::fs::canonicalize(folder), path.file_name()) {
        (Ok(folder), Some(name)) => folder.join(name),
        _ => path.to_path_buf(),
    }
}

/// Threads to use: as asked, else every core.
pub fn jobs(asked: Option<usize>) -> usize {
    asked
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1)
}

/// Where a job writes: standard output, or a file put in place whole when the job ends
/// well ([`commit`]) and removed otherwise (an [`AtomicFile`]).
pub enum Output {
    /// Standard output, buffered.
    Stdout(BufWriter<Stdout>),
    /// A file, buffered.
    File(BufWriter<AtomicFile>),
}

impl Output {
    /// Standard output, or the file `path` names.
    ///
    /// # Errors
    /// [`Stopped::Failed`] when the file cannot be made (reported).
    pub fn create(path: Option<&PathBuf>) -> Result<Output, Stopped> {
        Ok(match path {
            Some(path) => Output::File(BufWriter::with_capacity(
                1 << 18,
                AtomicFile::create(path).map_err(complain)?,
            )),
            None => Output::Stdout(BufWriter::with_capacity(1 << 18, io::stdout())),
        })
    }

    /// The output (standard output, or the file `path` names) and a second file when
    /// `second` names one (`--rejects`, `--duplicates`: `flag` says which).
    ///
    /// # Errors
    /// [`Stopped::Failed`] when a file cannot be made, or when both name one file: each is
    /// put in place whole as the run ends, and the second would replace the first
    /// (reported).
    pub fn create_with(
        path: Option<&PathBuf>,
        second: Option<&PathBuf>,
        flag: &str,
    ) -> Result<(Output, Option<Output>), Stopped> {
        if let (Some(path), Some(second)) = (path, second)
            && where_written(path) == where_written(second)
        {
            return Err(complain(format_args!(
                "-o {} and {flag} {} name one file: give each its own",
                path.display(),
                second.display()
            )));
        }
        let out = Output::create(path)?;
        let second = second.map(|path| Output::create(Some(path))).transpose()?;
        Ok((out, second))
    }

    fn writer(&mut self) -> &mut dyn Write {
        match self {
            Output::Stdout(out) => out,
            Output::File(out) => out,
        }
    }
}

/// Standard output and atomic files record no game's end: a run to either is not resumed.
impl collection::annotate::GameOutput for Output {}

impl Write for Output {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.writer().write(buf)
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.writer().write_all(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.writer().flush()
    }
}

/// Ends a job's outputs as the job `ended`: when it did not fail, each file is put in
/// place (all together: a run interrupted meanwhile leaves all or none) and standard
/// output flushed; when it failed, the files are removed, said so, and any earlier file
/// of their names left as it was.
///
/// # Errors
/// [`Stopped::Failed`] when a file cannot be finished or put in place (reported: the
/// files are removed); [`Stopped::Closed`] when whoever reads standard output went away.
pub fn commit(
    ended: Ended,
    outputs: impl IntoIterator<Item = Option<Output>>,
) -> Result<Ended, Stopped> {
    let mut files = Vec::new();
    for output in outputs.into_iter().flatten() {
        match output {
            Output::Stdout(mut out) => out.flush().map_err(|e| {
                if e.kind() == io::ErrorKind::BrokenPipe {
                    Stopped::Closed
                } else {
                    complain(format_args!("standard output: {e}"))
                }
            })?,
            Output::File(out) if ended.failed => {
                complain(format_args!(
                    "{}: not written, as the run failed",
                    out.get_ref().path().display()
                ));
            }
            Output::File(out) => files.push(out.into_inner().map_err(|e| {
                let e = e.into_error();
                match OutputError::carried_by(&e) {
                    Some(output) => complain(output),
                    None => complain(e),
                }
            })?),
        }
    }
    output::commit_files(files).map_err(complain)?;
    Ok(ended)
}
