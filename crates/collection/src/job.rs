//! Running a job over a collection's inputs: each input opened in turn with the rules of
//! its format, what the job says as it goes ([`Report`]), and how it ended ([`Ended`],
//! [`Stopped`]).
//!
//! The command line reports to the terminal (a progress bar, warnings on standard error);
//! a program reports where it likes, or nowhere ([`Silent`]).

use std::io;

use crate::input::{self, Format, Opened, Source};
use crate::output::OutputError;

/// Where a job says what it is doing.
///
/// A job calls it from the thread that runs the job; [`Report::byte_counter`]'s closure is
/// called from the thread that reads an input.
pub trait Report {
    /// An input is about to be read.
    fn begin_input(&self, source: &Source) {
        let _ = source;
    }

    /// What to tell of each read of an input file's raw bytes (before decompression), for a
    /// progress bar. The default tells nothing.
    fn byte_counter(&self) -> Box<dyn FnMut(u64) + Send> {
        Box::new(|_| {})
    }

    /// A warning: a person may want to know (a quiet report says nothing).
    fn warning(&self, message: &str);

    /// An error: something failed (an input that cannot be read, an output that cannot be
    /// written); the job goes on where it can.
    fn error(&self, message: &str);

    /// What a job counts as it goes, for a progress bar's message (`notate index`: games
    /// and positions). The default tells nothing.
    fn counts(&self, text: &str) {
        let _ = text;
    }

    /// The inputs are read (or the job stops): a progress bar is cleared.
    fn end_inputs(&self) {}
}

/// A report that says nothing.
#[derive(Clone, Copy, Debug, Default)]
pub struct Silent;

impl Report for Silent {
    fn warning(&self, _: &str) {}

    fn error(&self, _: &str) {}
}

/// Why a job stopped before its end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stopped {
    /// A failure already reported: a usage error, an output that cannot be made or
    /// written.
    Failed,
    /// Whoever reads the output went away (`notate json big.pgn | head`): the job stops
    /// quietly.
    Closed,
}

/// How a job ended, having read its inputs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Ended {
    /// An input could not be read or an output written (each reported as an error).
    pub failed: bool,
    /// A game could not be read (or, for the jobs that say so, had an error).
    pub game_errors: bool,
}

/// A job's inputs and how to read them.
pub struct Job<'r> {
    /// The inputs, in the order they are read.
    pub sources: Vec<Source>,
    /// Every input read as this format, instead of the one its name or content says.
    pub format: Option<Format>,
    /// The game type of draughts games that declare none (`--variant`).
    pub variant: Option<pdn::GameType>,
    /// Threads reading games.
    pub jobs: usize,
    /// Where the job says what it is doing.
    pub report: &'r dyn Report,
    /// Whether an input could not be read or an output written.
    pub failed: bool,
}

impl<'r> Job<'r> {
    /// A job over `sources`, reading them on `jobs` threads, reporting to `report`.
    pub fn new(sources: Vec<Source>, jobs: usize, report: &'r dyn Report) -> Job<'r> {
        Job {
            sources,
            format: None,
            variant: None,
            jobs: jobs.max(1),
            report,
            failed: false,
        }
    }

    /// Opens each input in turn and hands it to `read`. An input that cannot be opened or
    /// read is reported and the job goes on with the next; a closed output stops it.
    ///
    /// # Errors
    /// [`Stopped::Closed`] when `read` meets a closed output; [`Stopped::Failed`] when it
    /// meets an output file that cannot be written ([`OutputError`], reported).
    pub fn each(
        &mut self,
        mut read: impl FnMut(&Source, Opened, &Job<'r>) -> io::Result<()>,
    ) -> Result<(), Stopped> {
        let sources = std::mem::take(&mut self.sources);
        for source in &sources {
            self.report.begin_input(source);
            let result = input::open(source, self.format, self.report.byte_counter()).and_then(
                |opened| {
                    if let (Some(variant), Format::Pgn) = (self.variant, opened.format) {
                        self.report.warning(&format!(
                            "{}: read as PGN (chess); --variant ({} draughts) is for draughts games",
                            source.name,
                            variant.variant()
                        ));
                    }
                    read(source, opened, self)
                },
            );
            match result {
                Ok(()) => {}
                Err(e) if e.kind() == io::ErrorKind::BrokenPipe => {
                    self.report.end_inputs();
                    return Err(Stopped::Closed);
                }
                // An output that cannot be written fails the job, whatever inputs are left.
                Err(e) if OutputError::carried_by(&e).is_some() => {
                    self.report.end_inputs();
                    self.failed = true;
                    if let Some(output) = OutputError::carried_by(&e) {
                        self.report.error(&output.to_string());
                    }
                    return Err(Stopped::Failed);
                }
                Err(e) => {
                    self.report.error(&format!("{}: {e}", source.name));
                    self.failed = true;
                }
            }
        }
        self.sources = sources;
        self.report.end_inputs();
        Ok(())
    }

    /// Flushes an output: a closed output stops the job, an output file that cannot be
    /// written fails it, another failure is reported ([`Job::write_failed`]).
    ///
    /// # Errors
    /// [`Stopped::Closed`] when whoever reads the output went away; [`Stopped::Failed`]
    /// when an output file cannot be written (reported).
    pub fn flush(&mut self, out: &mut dyn io::Write) -> Result<(), Stopped> {
        out.flush().or_else(|e| self.write_failed(&e))
    }

    /// Takes in an output's write error: a closed output stops the job, an output file
    /// that cannot be written ([`OutputError`]) fails it, another failure is reported and
    /// the job goes on, failed.
    ///
    /// # Errors
    /// [`Stopped::Closed`] when whoever reads the output went away; [`Stopped::Failed`]
    /// when an output file cannot be written (reported).
    pub fn write_failed(&mut self, e: &io::Error) -> Result<(), Stopped> {
        self.failed = true;
        if e.kind() == io::ErrorKind::BrokenPipe {
            return Err(Stopped::Closed);
        }
        match OutputError::carried_by(e) {
            Some(output) => {
                self.report.error(&output.to_string());
                Err(Stopped::Failed)
            }
            None => {
                self.report.error(&format!("writing the output: {e}"));
                Ok(())
            }
        }
    }

    /// Says a message as the emitters give them: an error (`true`) or a warning.
    pub fn say(&self) -> impl FnMut(String, bool) + '_ {
        move |message, error| {
            if error {
                self.report.error(&message);
            } else {
                self.report.warning(&message);
            }
        }
    }

    /// How the job ended: [`Ended::game_errors`] as `game_errors` says.
    pub fn ended(&self, game_errors: bool) -> Ended {
        Ended {
            failed: self.failed,
            game_errors,
        }
    }
}

/// Calls `$body` with `$rules` bound to the rules of `$format` (chess for PGN, draughts
/// for PDN: draughts games that declare no type read as `$variant`
/// when given).
macro_rules! with_rules {
    ($format:expr, $variant:expr, |$rules:ident| $body:expr) => {
        match $format {
            $crate::input::Format::Pgn => {
                let $rules = &$crate::rules::chess();
                // Built before the games are read, which may take what memory is left.
                pgn::openings::prepare();
                $body
            }
            $crate::input::Format::Pdn => {
                let $rules = &$crate::rules::draughts($variant);
                $body
            }
        }
    };
}
pub(crate) use with_rules;
