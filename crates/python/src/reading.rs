//! `notate.read`: games read ahead on every core, handed to Python in input order.
//!
//! A thread drives `notate`'s pipeline: workers read chunks of the input into trees and
//! work out every move (its text, UCI, clock, evaluation; [`prepare`]) with the interpreter
//! free; the emitter numbers the games and sends them down a bounded channel. The Python
//! side only makes objects. Dropping the iterator closes the channel, which stops the
//! reading.

use std::io;
use std::sync::Mutex;
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};

use collection::input::{Format, Opened};
use collection::json::JsonMoves;
use collection::parquet::Columns;
use collection::pipeline::{Input, OncePerInput, Origin, Task};
use notation::{Diagnostic as Found, GameReader, KeepRaw, ReadGame, ReadOptions};
use pdn::DraughtsRules;
use pgn::ChessRules;
use pyo3::prelude::*;

use crate::game::{Diagnostic, NodeInfo, PyGame, Read, prepare};
use crate::source;

/// Games in flight between the reading thread and Python: enough to keep the workers
/// busy, few enough that memory stays bounded whatever the input's size.
const AHEAD: usize = 64;

/// Rules whose read games become a [`Read`].
pub trait Readable: Columns + JsonMoves + 'static
where
    Self::Move: Send,
{
    /// The game, with these rules.
    fn wrap(&'static self, read: ReadGame<Self::Move>) -> Read;
}

impl Readable for ChessRules {
    fn wrap(&'static self, read: ReadGame<pgn::Move>) -> Read {
        Read::Chess(read)
    }
}

impl Readable for DraughtsRules {
    fn wrap(&'static self, read: ReadGame<pdn::PdnMove>) -> Read {
        Read::Draughts(self, read)
    }
}

/// A game read, its moves worked out, where it is.
pub struct Prepared {
    read: Read,
    nodes: Vec<Option<NodeInfo>>,
    offset: u64,
}

/// What the reading thread sends.
enum Sent {
    /// A game.
    Game(Box<Prepared>),
    /// What was found outside any game.
    Orphans(Vec<Found>),
    /// The input could not be read on.
    Failed(io::Error),
}

/// What a worker hands the emitter.
enum Item {
    Game(Box<Prepared>),
    Orphans(Vec<Found>),
}

/// Reads a chunk's games into trees and works their moves out.
struct ReadTask {
    rules: Format,
    draughts: &'static DraughtsRules,
    options: ReadOptions,
}

impl ReadTask {
    fn read<G: Readable>(
        &self,
        rules: &'static G,
        mut input: Input<'_>,
        origin: Origin,
        sink: &mut dyn FnMut(Item) -> io::Result<()>,
    ) -> io::Result<u64>
    where
        G::Move: Send,
    {
        let reader = input.reader(rules.dialect(), self.options);
        let mut reader = GameReader::from_reader(rules, reader).keep_raw(KeepRaw::Never);
        let mut games = 0;
        while let Some(mut read) = reader.read_game()? {
            games += 1;
            for d in &mut read.diagnostics {
                origin.place(d);
            }
            let nodes = prepare(rules, &read.game);
            let offset = origin.offset + read.span.start;
            sink(Item::Game(Box::new(Prepared {
                read: rules.wrap(read),
                nodes,
                offset,
            })))?;
        }
        let mut orphans = reader.take_orphans();
        let buffer = reader.into_reader().into_vec();
        input.give_back(buffer);
        for d in &mut orphans {
            origin.place(d);
        }
        if !orphans.is_empty() {
            sink(Item::Orphans(orphans))?;
        }
        Ok(games)
    }
}

impl Task for ReadTask {
    type Item = Item;

    fn run(
        &self,
        input: Input<'_>,
        origin: Origin,
        sink: &mut dyn FnMut(Item) -> io::Result<()>,
    ) -> io::Result<u64> {
        match self.rules {
            Format::Pgn => self.read(source::chess_rules(), input, origin, sink),
            Format::Pdn => self.read(self.draughts, input, origin, sink),
        }
    }
}

/// Numbers a chunk's games (and their diagnostics) by the games before it.
fn renumber(read: &mut Read, before: u64) {
    let (index, diagnostics) = match read {
        Read::Chess(r) => (&mut r.index, &mut r.diagnostics),
        Read::Draughts(_, r) => (&mut r.index, &mut r.diagnostics),
    };
    *index += before;
    for d in diagnostics {
        d.game += before;
    }
}

/// Starts reading `opened` on a thread of its own; the games come out of the receiver.
fn start(opened: Opened, game_type: Option<pdn::GameType>, options: ReadOptions) -> Receiver<Sent> {
    let (to, from): (SyncSender<Sent>, _) = sync_channel(AHEAD);
    let task = ReadTask {
        rules: opened.format,
        draughts: source::draughts_rules(game_type),
        options,
    };
    let jobs = std::thread::available_parallelism().map_or(1, |n| n.get());
    std::thread::spawn(move || {
        // The receiver is gone: the iterator was dropped, and the reading stops.
        let gone = || io::Error::from(io::ErrorKind::BrokenPipe);
        let mut once = OncePerInput::default();
        let result =
            collection::pipeline::drive(&task, opened, jobs, &mut |item, before| match item {
                Item::Game(mut game) => {
                    renumber(&mut game.read, before);
                    to.send(Sent::Game(game)).map_err(|_| gone())
                }
                Item::Orphans(mut found) => {
                    found.retain(|d| once.keep(d));
                    to.send(Sent::Orphans(found)).map_err(|_| gone())
                }
            });
        if let Err(e) = result
            && e.kind() != io::ErrorKind::BrokenPipe
        {
            let _ = to.send(Sent::Failed(e));
        }
    });
    from
}

/// The games of a source, read ahead on every core and handed over in input order.
#[pyclass(module = "notate")]
pub struct Games {
    from: Mutex<Option<Receiver<Sent>>>,
    file: String,
    /// What was found outside any game, once the games are all read.
    orphans: Mutex<Vec<Found>>,
}

impl Games {
    /// Starts reading `opened`, named `file`.
    pub fn new(
        opened: Opened,
        file: String,
        game_type: Option<pdn::GameType>,
        options: ReadOptions,
    ) -> Games {
        Games {
            from: Mutex::new(Some(start(opened, game_type, options))),
            file,
            orphans: Mutex::new(Vec::new()),
        }
    }

    /// Every game not yet handed over, in input order.
    pub fn all(&self, py: Python<'_>) -> PyResult<Vec<PyGame>> {
        let mut games = Vec::new();
        while let Some(game) = self.__next__(py)? {
            games.push(game);
        }
        Ok(games)
    }
}

#[pymethods]
impl Games {
    fn __iter__(this: PyRef<'_, Self>) -> PyRef<'_, Self> {
        this
    }

    fn __next__(&self, py: Python<'_>) -> PyResult<Option<PyGame>> {
        let mut guard = self.from.lock().unwrap_or_else(|p| p.into_inner());
        loop {
            let Some(from) = guard.as_mut() else {
                return Ok(None);
            };
            // Waiting lets the interpreter go: the reading thread may need it (a file
            // object's reads).
            let sent = py.detach(move || from.recv());
            match sent {
                Ok(Sent::Game(game)) => {
                    let Prepared {
                        read,
                        nodes,
                        offset,
                    } = *game;
                    return Ok(Some(PyGame::new(read, nodes, self.file.clone(), offset)));
                }
                Ok(Sent::Orphans(found)) => {
                    self.orphans
                        .lock()
                        .unwrap_or_else(|p| p.into_inner())
                        .extend(found);
                }
                Ok(Sent::Failed(e)) => {
                    *guard = None;
                    return Err(e.into());
                }
                Err(_) => {
                    *guard = None;
                    return Ok(None);
                }
            }
        }
    }

    /// What was found outside any game (text after the last game, an input with no
    /// game), once the iterator is exhausted.
    #[getter]
    fn diagnostics(&self) -> Vec<Diagnostic> {
        self.orphans
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .iter()
            .map(|d| Diagnostic::new(d, &self.file, None))
            .collect()
    }
}
