//! `notate serve`: a position index and the games it holds, answered over HTTP on the
//! user's own machine, and a page that browses them (`GET /`: the game list, the viewer of
//! `notate html`, the explorer). Read only: no request changes a file or the index.
//!
//! The JSON API ([`router`]):
//!
//! | request | answer |
//! |---|---|
//! | `GET /api/games?player=…&since=…&sort=date` | the games that match, a page at a time ([`index::catalogue`]): `{"count": N, "offset": O, "games": […]}` |
//! | `GET /api/board?fen=…&play=…` | a line from a FEN: the FEN reached, the line as the viewer takes it, the legal moves from there |
//! | `GET /api/about` | the index's game, games, files and variants |
//! | `GET /api/explore?fen=…&play=…` | the explorer, in the shape of lichess's explorer API, as `notate explore --json` writes it; filters `ratings`, `speeds`, `since`, `until`, `player`, `color`, `variant`; `moves`, `topGames`, `recentGames` how many of each |
//! | `GET /api/find?fen=…&play=…` | the games that reached the position: `{"count": N, "games": [{"id", "file", "number", "offset"}]}`, paged by `offset` and `limit` (100 by default, 10,000 at most) |
//! | `GET /api/games/{id}` | a game as `notate json` writes it; `?format=pgn` (or `pdn`) its text in the export format, `?format=raw` as its file holds it, `?format=view` as the page's viewer takes it |
//!
//! Every error is a JSON object `{"error": "…"}` with a 4xx status for a request that
//! cannot be answered (a FEN that does not read, an unknown parameter, a game that does
//! not exist, a path the server does not know) and 500 for an index or a file that
//! fails.
//!
//! ```no_run
//! let server = serve::Server::bind("db".as_ref(), "127.0.0.1:8080".parse()?)?;
//! println!("on http://{}", server.local_addr()?);
//! server.run(std::future::pending())?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod api;
mod board;
mod head;
mod page;

use std::future::Future;
use std::io;
use std::net::SocketAddr;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

pub use api::{Served, router};

/// Why the server cannot start or stopped.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// The index does not open.
    #[error(transparent)]
    Index(#[from] index::IndexError),
    /// The address cannot be bound (taken by another server, or not this machine's).
    #[error("cannot listen on {addr}: {source}")]
    Bind {
        /// The address asked for.
        addr: SocketAddr,
        /// Why.
        source: io::Error,
    },
    /// The runtime cannot be made.
    #[error("the server: {0}")]
    Io(#[from] io::Error),
}

/// How long a client may take to send a request's head: one that never finishes it is
/// dropped, so that it holds no connection for long.
const HEAD_TIMEOUT: Duration = Duration::from_secs(10);

/// The most bytes of a request's head read (its line and headers): a longer one is
/// answered `431` with a JSON error ([`head`]) and its connection closed.
const MAX_HEAD_BYTES: usize = 64 << 10;

/// Threads that ask the index, per core (a question waits on the store's pages at times).
const BLOCKING_PER_CORE: usize = 4;

/// How long the requests under way may take to finish once the server is told to stop.
const DRAIN: Duration = Duration::from_secs(5);

/// A server bound to its address, not yet answering.
pub struct Server {
    listener: tokio::net::TcpListener,
    app: axum::Router,
    runtime: tokio::runtime::Runtime,
}

impl Server {
    /// Opens the index in `dir` and binds `addr` (port 0: one the system picks).
    ///
    /// # Errors
    /// An index that does not open, an address that cannot be bound.
    pub fn bind(dir: &Path, addr: SocketAddr) -> Result<Server, ServeError> {
        let served = Served::open(dir)?;
        let cores = std::thread::available_parallelism().map_or(2, usize::from);
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .enable_all()
            // The index's questions wait for these threads, a few per core: a thread for
            // each of 200 clients' questions would take memory and answer none sooner.
            .max_blocking_threads(BLOCKING_PER_CORE * cores)
            .build()?;
        let listener = runtime
            .block_on(tokio::net::TcpListener::bind(addr))
            .map_err(|source| ServeError::Bind { addr, source })?;
        Ok(Server {
            listener,
            app: router(Arc::new(served)),
            runtime,
        })
    }

    /// The address it listens on.
    ///
    /// # Errors
    /// As the system's.
    pub fn local_addr(&self) -> io::Result<SocketAddr> {
        self.listener.local_addr()
    }

    /// Answers until `stop` completes, then lets the requests under way finish (for a few
    /// seconds at most).
    ///
    /// # Errors
    /// None yet: a connection that fails ends alone.
    pub fn run(self, stop: impl Future<Output = ()>) -> Result<(), ServeError> {
        let Server {
            listener,
            app,
            runtime,
        } = self;
        runtime.block_on(accept(listener, app, stop));
        Ok(())
    }
}

/// Takes connections until `stop`, each served on a task of its own.
async fn accept(
    listener: tokio::net::TcpListener,
    app: axum::Router,
    stop: impl Future<Output = ()>,
) {
    let graceful = hyper_util::server::graceful::GracefulShutdown::new();
    let mut stop = std::pin::pin!(stop);
    loop {
        tokio::select! {
            accepted = listener.accept() => {
                let Ok((stream, _)) = accepted else {
                    // Out of file descriptors, most likely: others will close.
                    tokio::time::sleep(Duration::from_millis(20)).await;
                    continue;
                };
                let service = hyper_util::service::TowerToHyperService::new(app.clone());
                let mut builder = hyper::server::conn::http1::Builder::new();
                builder
                    .timer(hyper_util::rt::TokioTimer::new())
                    .header_read_timeout(HEAD_TIMEOUT)
                    // Above the limit measured first, so that this layer's empty 431 is
                    // never the answer.
                    .max_buf_size(2 * MAX_HEAD_BYTES);
                let stream = head::HeadLimit::new(stream, MAX_HEAD_BYTES);
                let connection = graceful.watch(
                    builder.serve_connection(hyper_util::rt::TokioIo::new(stream), service),
                );
                tokio::spawn(async move {
                    // A client that goes away, or sends what is not HTTP, ends its connection.
                    let _ = connection.await;
                });
            }
            () = &mut stop => break,
        }
    }
    drop(listener);
    tokio::select! {
        () = graceful.shutdown() => {}
        () = tokio::time::sleep(DRAIN) => {}
    }
}
