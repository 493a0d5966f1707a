//! A connection whose requests' heads are measured as they are read: a head longer than
//! the limit gets a `431` with the API's JSON error, written here because the HTTP layer
//! answers its own `431` with an empty body.
//!
//! The bytes of a head past the limit are never given to the HTTP layer, which sees its
//! connection end instead. The client's bytes that follow are read and dropped (up to
//! [`DRAIN_BYTES`], for [`DRAIN_TIME`] at most) after the answer and the end of the
//! server's side, so that a client still sending reads the answer rather than a reset.

use std::future::Future as _;
use std::io;
use std::pin::Pin;
use std::task::{Context, Poll, ready};
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

/// The most bytes read after a refused head before the connection is closed.
const DRAIN_BYTES: usize = 32 << 20;

/// The longest time spent reading them.
const DRAIN_TIME: Duration = Duration::from_secs(5);

/// What ends a request's head.
const BLANK_LINE: &[u8; 4] = b"\r\n\r\n";

/// A connection, its requests' heads limited to `limit` bytes.
pub(crate) struct HeadLimit<S> {
    inner: S,
    limit: usize,
    /// The bytes read of the head under way (since the last blank line).
    head: usize,
    /// How many bytes of [`BLANK_LINE`] end what was read.
    matched: usize,
    state: State,
}

enum State {
    /// Reading requests.
    Reading,
    /// The `431` being written, this many of its bytes sent.
    Answering(usize),
    /// The server's side being closed.
    Closing,
    /// The client's bytes being dropped, this many so far.
    Draining(usize, Pin<Box<tokio::time::Sleep>>),
    /// Nothing more read or written.
    Done,
}

impl<S> HeadLimit<S> {
    pub(crate) fn new(inner: S, limit: usize) -> HeadLimit<S> {
        HeadLimit {
            inner,
            limit,
            head: 0,
            matched: 0,
            state: State::Reading,
        }
    }

    /// Counts `bytes` into the head under way; whether it is now past the limit.
    fn measure(&mut self, bytes: &[u8]) -> bool {
        for &byte in bytes {
            self.matched = if byte == BLANK_LINE[self.matched] {
                self.matched + 1
            } else {
                usize::from(byte == b'\r')
            };
            if self.matched == BLANK_LINE.len() {
                self.matched = 0;
                self.head = 0;
            } else {
                self.head += 1;
                if self.head > self.limit {
                    return true;
                }
            }
        }
        false
    }
}

/// The answer to a head longer than `limit`.
fn answer(limit: usize) -> Vec<u8> {
    let body = serde_json::json!({
        "error": format!(
            "the request's head (its line and headers) is longer than {} KiB",
            limit >> 10
        )
    })
    .to_string();
    format!(
        "HTTP/1.1 431 Request Header Fields Too Large\r\ncontent-type: application/json\r\n\
             content-length: {}\r\nconnection: close\r\n\r\n{body}",
        body.len()
    )
    .into_bytes()
}

impl<S: AsyncRead + AsyncWrite + Unpin> HeadLimit<S> {
    /// Answers a refused head and drops what follows; ready when the connection is done.
    fn poll_refuse(&mut self, cx: &mut Context<'_>) -> Poll<()> {
        loop {
            match &mut self.state {
                State::Reading | State::Done => return Poll::Ready(()),
                State::Answering(sent) => {
                    let answer = answer(self.limit);
                    let Some(rest) = answer.get(*sent..).filter(|rest| !rest.is_empty()) else {
                        self.state = State::Closing;
                        continue;
                    };
                    match ready!(Pin::new(&mut self.inner).poll_write(cx, rest)) {
                        Ok(n) if n > 0 => *sent += n,
                        _ => self.state = State::Done,
                    }
                }
                State::Closing => {
                    // Closed or not, the client's bytes are dropped next.
                    let _ = ready!(Pin::new(&mut self.inner).poll_shutdown(cx));
                    self.state = State::Draining(0, Box::pin(tokio::time::sleep(DRAIN_TIME)));
                }
                State::Draining(dropped, deadline) => {
                    if *dropped >= DRAIN_BYTES || deadline.as_mut().poll(cx).is_ready() {
                        self.state = State::Done;
                        continue;
                    }
                    let mut scratch = [0_u8; 8 << 10];
                    let mut buf = ReadBuf::new(&mut scratch);
                    match ready!(Pin::new(&mut self.inner).poll_read(cx, &mut buf)) {
                        Ok(()) if !buf.filled().is_empty() => *dropped += buf.filled().len(),
                        _ => self.state = State::Done,
                    }
                }
            }
        }
    }
}

impl<S: AsyncRead + AsyncWrite + Unpin> AsyncRead for HeadLimit<S> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        if let State::Reading = this.state {
            let before = buf.filled().len();
            ready!(Pin::new(&mut this.inner).poll_read(cx, buf))?;
            if !this.measure(&buf.filled()[before..]) {
                return Poll::Ready(Ok(()));
            }
            // None of these bytes reach the HTTP layer, which reads an end instead.
            buf.set_filled(before);
            this.state = State::Answering(0);
        }
        ready!(this.poll_refuse(cx));
        Poll::Ready(Ok(()))
    }
}

impl<S: AsyncRead + AsyncWrite + Unpin> AsyncWrite for HeadLimit<S> {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bytes: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        match this.state {
            State::Reading => Pin::new(&mut this.inner).poll_write(cx, bytes),
            // The connection is answered here: the HTTP layer's words go nowhere.
            _ => Poll::Ready(Ok(bytes.len())),
        }
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        match this.state {
            State::Reading => Pin::new(&mut this.inner).poll_flush(cx),
            _ => Poll::Ready(Ok(())),
        }
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        match this.state {
            State::Reading => Pin::new(&mut this.inner).poll_shutdown(cx),
            _ => Poll::Ready(Ok(())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_head_is_measured_up_to_its_blank_line_and_the_next_starts_at_zero() {
        let mut limit = HeadLimit::new((), 20);
        assert!(!limit.measure(b"GET / HTTP/1.1\r\n\r\n"));
        assert_eq!(limit.head, 0);
        // Cut anywhere, the blank line is still seen.
        assert!(!limit.measure(b"GET /abcdefgh\r"));
        assert!(!limit.measure(b"\n\r"));
        assert!(!limit.measure(b"\n"));
        assert_eq!(limit.head, 0);
        // Nineteen bytes and no blank line (a lone `\r` ends none), then the twentieth…
        assert!(!limit.measure(b"GET /abcdefghijk\r\r\n"));
        assert!(!limit.measure(b"x"));
        // …and the twenty-first is past the limit.
        assert!(limit.measure(b"y"));
    }
}
