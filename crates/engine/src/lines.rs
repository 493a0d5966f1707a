//! An engine's output as lines, read on a thread of its own so that every wait for a line
//! has a deadline.

use std::io::{self, BufRead, BufReader, Read};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::Instant;

/// The longest line kept: the rest of a longer line is dropped, so that an engine printing
/// without end cannot exhaust memory. UCI's longest lines, principal variations, are a few
/// hundred bytes.
const MAX_LINE: usize = 64 * 1024;

/// The reading thread's stack: it holds a buffer and a line, no recursion (Rust's default of
/// 2 MiB counts against an address-space limit for nothing).
const STACK_SIZE: usize = 128 * 1024;

/// What waiting for a line gave.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Next {
    /// A line, without its line end; bytes that are not UTF-8 replaced.
    Line(String),
    /// The output ended: the process closed it, by exiting as a rule.
    Closed,
    /// The deadline passed first.
    TimedOut,
}

/// The lines of an output, read by a thread that ends when the output does.
pub(crate) struct Lines {
    receiver: Receiver<String>,
}

impl Lines {
    /// Starts the thread that reads `output` a line at a time.
    pub(crate) fn spawn(output: impl Read + Send + 'static) -> io::Result<Lines> {
        let (sender, receiver) = mpsc::channel();
        thread::Builder::new()
            .name("engine-output".to_owned())
            .stack_size(STACK_SIZE)
            .spawn(move || {
                let mut output = BufReader::new(output);
                let mut line = Vec::new();
                // A failed read ends the output as its end does; so does a receiver gone.
                while let Ok(true) = read_line(&mut output, &mut line) {
                    let text = String::from_utf8_lossy(&line);
                    let text = text.trim_end_matches(['\n', '\r']).to_owned();
                    if sender.send(text).is_err() {
                        break;
                    }
                }
            })?;
        Ok(Lines { receiver })
    }

    /// The next line, waiting for it until `deadline`.
    pub(crate) fn next_before(&self, deadline: Instant) -> Next {
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.receiver.recv_timeout(wait) {
            Ok(line) => Next::Line(line),
            Err(RecvTimeoutError::Timeout) => Next::TimedOut,
            Err(RecvTimeoutError::Disconnected) => Next::Closed,
        }
    }
}

/// Reads the next line into `line` (its first [`MAX_LINE`] bytes), giving false at the end
/// of the output when no line is left.
fn read_line(output: &mut impl BufRead, line: &mut Vec<u8>) -> io::Result<bool> {
    line.clear();
    let mut read_any = false;
    loop {
        let buffer = output.fill_buf()?;
        if buffer.is_empty() {
            return Ok(read_any);
        }
        read_any = true;
        let (taken, ended) = match buffer.iter().position(|&byte| byte == b'\n') {
            Some(end) => (end + 1, true),
            None => (buffer.len(), false),
        };
        let room = MAX_LINE.saturating_sub(line.len());
        line.extend_from_slice(&buffer[..taken.min(room)]);
        output.consume(taken);
        if ended {
            return Ok(true);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn lines_of(bytes: &'static [u8]) -> Vec<Next> {
        let lines = Lines::spawn(bytes).expect("a thread");
        let deadline = Instant::now() + Duration::from_secs(5);
        let mut seen = Vec::new();
        loop {
            let next = lines.next_before(deadline);
            let more = matches!(next, Next::Line(_));
            seen.push(next);
            if !more {
                return seen;
            }
        }
    }

    #[test]
    fn lines_end_with_the_output_and_lose_their_line_ends() {
        assert_eq!(
            lines_of(b"id name X\r\nuciok\n\nlast"),
            vec![
                Next::Line("id name X".into()),
                Next::Line("uciok".into()),
                Next::Line(String::new()),
                Next::Line("last".into()),
                Next::Closed,
            ]
        );
    }

    #[test]
    fn a_line_past_the_limit_is_cut_and_bytes_not_utf8_replaced() {
        let long: &'static [u8] =
            Vec::leak([vec![b'a'; MAX_LINE * 3], b"\nok \xff\n".to_vec()].concat());
        let seen = lines_of(long);
        assert_eq!(seen.len(), 3);
        assert_eq!(seen[0], Next::Line("a".repeat(MAX_LINE)));
        assert_eq!(seen[1], Next::Line("ok \u{fffd}".into()));
    }

    #[test]
    fn a_silent_output_times_out() {
        let (reader, _writer) = io::pipe().expect("a pipe");
        let lines = Lines::spawn(reader).expect("a thread");
        let started = Instant::now();
        assert_eq!(
            lines.next_before(Instant::now() + Duration::from_millis(50)),
            Next::TimedOut
        );
        assert!(started.elapsed() < Duration::from_secs(2));
    }
}
