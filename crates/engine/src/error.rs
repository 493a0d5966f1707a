//! Why an engine could not analyse: each variant's message is what a user of
//! `notate annotate` reads.

use std::io;
use std::path::PathBuf;
use std::time::Duration;

/// What went wrong with an engine, from starting it to reading its answer.
#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    /// The engine's program could not be started (no such file, not executable, …).
    #[error("cannot start the engine {}: {source}", .path.display())]
    Start {
        /// The program that was to be started.
        path: PathBuf,
        /// Why the operating system refused.
        source: io::Error,
    },
    /// The program did not answer `uci` with `uciok` within the start timeout, or ended
    /// before it did: it is no UCI engine.
    #[error("{} is not a UCI engine: it did not answer `uci` with `uciok` ({})", .path.display(), said_so(said))]
    NotUci {
        /// The program started.
        path: PathBuf,
        /// The first lines it printed, cut short; empty when it printed nothing.
        said: String,
    },
    /// The engine refused an option it was given (Stockfish prints `No such option: NAME`).
    #[error("the engine refused the option {name}: it said \"{said}\"")]
    Option {
        /// The option's name, as the engine's complaint gives it.
        name: String,
        /// The engine's complaint.
        said: String,
    },
    /// The engine's process ended during an analysis (it crashed, or was killed earlier: an
    /// engine that timed out is dead, and every later analysis gives this).
    #[error("the engine exited during an analysis ({})", exit_status(*status))]
    Exited {
        /// The process's exit code; `None` when a signal ended it or it is not known.
        status: Option<i32>,
    },
    /// The engine gave no best move within the analysis's timeout, and was killed.
    #[error("the engine gave no best move within {} and was killed", seconds(*after))]
    TimedOut {
        /// The timeout that passed.
        after: Duration,
    },
    /// The engine gave its best move without having given a score for the position.
    #[error("the engine gave its best move without a score")]
    NoScore,
    /// Writing to the engine or waiting for its process failed.
    #[error("talking to the engine failed: {0}")]
    Io(#[from] io::Error),
}

/// What a program printed instead of `uciok`, for a message.
fn said_so(said: &str) -> String {
    if said.is_empty() {
        "it printed nothing".to_owned()
    } else {
        format!("it said \"{said}\"")
    }
}

/// A process's end, for a message.
fn exit_status(status: Option<i32>) -> String {
    match status {
        Some(code) => format!("exit status {code}"),
        None => "ended by a signal".to_owned(),
    }
}

/// A duration in seconds, for a message: `1 s`, `2.5 s`, `0.25 s`.
fn seconds(duration: Duration) -> String {
    let millis = duration.as_millis();
    if millis.is_multiple_of(1000) {
        format!("{} s", millis / 1000)
    } else {
        let text = format!("{:.3}", duration.as_secs_f64());
        format!("{} s", text.trim_end_matches('0'))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_say_what_happened_and_how_long() {
        let timed_out = EngineError::TimedOut {
            after: Duration::from_millis(2500),
        };
        assert_eq!(
            timed_out.to_string(),
            "the engine gave no best move within 2.5 s and was killed"
        );
        let silent = EngineError::NotUci {
            path: "/bin/true".into(),
            said: String::new(),
        };
        assert_eq!(
            silent.to_string(),
            "/bin/true is not a UCI engine: it did not answer `uci` with `uciok` (it printed nothing)"
        );
        assert_eq!(
            EngineError::Exited { status: Some(3) }.to_string(),
            "the engine exited during an analysis (exit status 3)"
        );
        assert_eq!(seconds(Duration::from_secs(10)), "10 s");
    }
}
