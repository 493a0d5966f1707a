//! `notate dedupe`: each game once.
//!
//! Two games are duplicates when they start from the same position and play the same
//! main-line moves (`--by moves`), or reach the same final position after the same
//! number of plies (`--by position`, pgn-extract's notion), by the same rules (a chess
//! variant's game is no duplicate of a standard one); tags, comments and variations do
//! not count. A game is known by a 128-bit digest of that ([`Key`]),
//! computed in the worker that read it; the emitter, in input order, keeps one digest per
//! distinct game, so that memory grows with the number of distinct games (16 bytes each
//! in the table of `--keep first`, 24 in that of `--keep richest`, and the table's slack),
//! not with their size.
//!
//! The games are written as they were read, byte for byte (`notate fmt` writes them in
//! the export format): what `dedupe` changes is which games there are, not their text.
//! Chess games are read with the validating visitor, at `check`'s speed, without a tree.
//!
//! `--keep first` writes a game when its digest is new. `--keep richest` keeps the game
//! with the most comments, variations and tags (the first of equals) and writes it where
//! the first of its duplicates stood: the games are written to a spool file as they are
//! read, with their digests, and the output is written from the spool once every game
//! has been seen, the kept text of each digest read back from where the spool holds it.
//!
//! A game that cannot be read is not compared: it is written, with a warning.

use std::collections::{HashMap, HashSet};
use std::fs::File;
use std::hash::{BuildHasherDefault, Hash, Hasher};
use std::io::{self, BufReader, BufWriter, Read, Seek, SeekFrom, Write};

use notation::{Diagnostic, GameReader, GameTree, KeepRaw, LineId, ReadOptions};

use crate::fmt::{Fate, Named, as_written, fate_of_reading};
use crate::input::Placed;
use crate::job::{Ended, Job, Stopped, with_rules};
use crate::output::TempFile;
use crate::pipeline::{Input, Origin, Task};
use crate::rules::FormatRules;
use crate::{mainline, pipeline};

/// What `dedupe` needs of a game's rules beyond [`FormatRules`]: a move's identity, and
/// how a chunk's games are digested.
pub trait Digest: FormatRules {
    /// Feeds a move's identity to a hasher: the move on the board, not how it was
    /// written or which reading of the game read it.
    fn hash_move<H: Hasher>(&self, mv: &Self::Move, hasher: &mut H);

    /// Digests every game of `input`, handing each to `each`; returns the diagnostics
    /// outside any game. The default reads each game into its tree ([`digest_trees`]);
    /// rules with a faster way to play every move use it here.
    fn digest_stream(
        &self,
        input: Input<'_>,
        options: ReadOptions,
        by: By,
        each: &mut EachGame<'_>,
    ) -> io::Result<Vec<Diagnostic>>
    where
        Self: Sized,
    {
        digest_trees(self, input, options, by, each)
    }
}

impl Digest for pgn::ChessRules {
    fn hash_move<H: Hasher>(&self, mv: &pgn::Move, hasher: &mut H) {
        mv.hash(hasher);
    }

    /// With the validating visitor: every move played, no tree built.
    fn digest_stream(
        &self,
        input: Input<'_>,
        options: ReadOptions,
        by: By,
        each: &mut EachGame<'_>,
    ) -> io::Result<Vec<Diagnostic>> {
        digest_chess(input, options, by, each)
    }
}

impl Digest for pdn::DraughtsRules {
    fn hash_move<H: Hasher>(&self, mv: &pdn::PdnMove, hasher: &mut H) {
        mv.get().hash(hasher);
    }
}

/// What makes two games the same.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum By {
    /// The same start position and the same main-line moves.
    Moves,
    /// The same final position after the same number of plies.
    Position,
}

/// Which of the duplicates stays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Keep {
    /// The first in input order.
    First,
    /// The one with the most comments, variations and tags, where the first stood.
    Richest,
}

/// A game's digest and richness (`None` digest: it cannot be read, and is not compared).
#[derive(Clone, Copy, Debug)]
pub struct Key {
    /// The digest of what makes the game what it is.
    pub digest: Option<u128>,
    /// Comments, variations and tags.
    pub richness: u32,
}

/// A `Hasher` that collects the bytes fed to it, to digest them at once.
#[derive(Default)]
pub struct Bytes(Vec<u8>);

impl Hasher for Bytes {
    fn finish(&self) -> u64 {
        xxhash_rust::xxh3::xxh3_64(&self.0)
    }

    fn write(&mut self, bytes: &[u8]) {
        self.0.extend_from_slice(bytes);
    }
}

impl Bytes {
    fn digest(&self) -> u128 {
        xxhash_rust::xxh3::xxh3_128(&self.0)
    }
}

/// A position's FEN without the move counters that follow its first four fields.
fn fen_key(fen: &str) -> &str {
    match fen.match_indices(' ').nth(3) {
        Some((at, _)) => &fen[..at],
        None => fen,
    }
}

/// The richness `--keep richest` ranks by: comments, variations and tags.
fn rank(comments: usize, variations: usize, tags: usize) -> u32 {
    u32::try_from(comments + variations + tags).unwrap_or(u32::MAX)
}

/// One game: its text as written, its key, and how it was read.
pub struct Digested {
    /// The 0-based index of the game in its chunk.
    pub index: u64,
    /// Its bytes as written, ending with an empty line.
    pub text: Vec<u8>,
    /// Its key (no digest for a game that cannot be read).
    pub key: Key,
    /// How it was read.
    pub reading: Fate,
}

/// What the task hands the emitter.
pub enum Item {
    /// A game.
    Game(Digested),
    /// Diagnostics outside any game: for standard error.
    Orphans(Vec<Diagnostic>),
}

/// Reads games and digests them.
pub struct DedupeTask<'r, G> {
    /// The rules.
    pub rules: &'r G,
    /// How to read.
    pub read: ReadOptions,
    /// What makes two games the same.
    pub by: By,
}

impl<G: Digest> Task for DedupeTask<'_, G> {
    type Item = Item;

    fn run(
        &self,
        input: Input<'_>,
        origin: Origin,
        sink: &mut dyn FnMut(Item) -> io::Result<()>,
    ) -> io::Result<u64> {
        let mut games = 0;
        let mut orphans = self.rules.digest_stream(
            input,
            self.read,
            self.by,
            &mut |mut game: Digested, diagnostics: &mut [Diagnostic]| {
                games += 1;
                for d in diagnostics.iter_mut() {
                    origin.place(d);
                }
                match fate_of_reading(diagnostics) {
                    Fate::Written => {}
                    Fate::Lost(reason) => {
                        game.reading = Fate::Lost(reason);
                        game.text = Vec::new();
                    }
                    Fate::Unreadable(reason) => {
                        game.reading = Fate::Unreadable(reason);
                        game.key.digest = None;
                    }
                }
                sink(Item::Game(game))
            },
        )?;
        if !orphans.is_empty() {
            for d in &mut orphans {
                origin.place(d);
            }
            sink(Item::Orphans(orphans))?;
        }
        Ok(games)
    }
}

/// A game's bytes as written, as the output holds them; a game whose bytes cannot be
/// held is reported as left out.
fn text_of(raw: Option<&[u8]>) -> (Vec<u8>, Fate) {
    let raw = raw.unwrap_or_default();
    match as_written(raw) {
        Some(bytes) => (bytes, Fate::Written),
        None => (
            Vec::new(),
            Fate::Lost(format!(
                "not enough memory to hold its {} bytes as written",
                raw.len()
            )),
        ),
    }
}

/// What each game of a stream is handed to: the game, and its diagnostics.
pub type EachGame<'a> = dyn FnMut(Digested, &mut [Diagnostic]) -> io::Result<()> + 'a;

/// Digests every game of `input` from its tree: for rules with no faster way.
pub fn digest_trees<G: Digest>(
    rules: &G,
    mut input: Input<'_>,
    options: ReadOptions,
    by: By,
    each: &mut EachGame<'_>,
) -> io::Result<Vec<Diagnostic>> {
    let reader = input.reader(rules.dialect(), options);
    let mut reader = GameReader::from_reader(rules, reader).keep_raw(KeepRaw::Never);
    while let Some(mut read) = reader.read_game()? {
        let game = &read.game;
        let comments = game.nodes().map(|n| n.comments.len()).sum::<usize>()
            + (0..game.line_count())
                .map(|i| game.line(LineId::new(i as u32)).comments.len())
                .sum::<usize>();
        let richness = rank(
            comments,
            game.line_count().saturating_sub(1),
            game.tags.len(),
        );
        let digest = digest_tree(rules, game, by);
        drop(read.game);
        let (text, reading) = text_of(reader.buffered(read.span));
        let digested = Digested {
            index: read.index,
            text,
            key: Key { digest, richness },
            reading,
        };
        each(digested, &mut read.diagnostics)?;
    }
    let orphans = reader.take_orphans();
    let buffer = reader.into_reader().into_vec();
    input.give_back(buffer);
    Ok(orphans)
}

/// A game's digest from its tree; `None` when its start cannot be set up.
fn digest_tree<G: Digest>(rules: &G, game: &GameTree<G::Move>, by: By) -> Option<u128> {
    let mut bytes = Bytes::default();
    match by {
        By::Moves => {
            let start = rules.start(game)?;
            match rules.fen(&start) {
                Some(fen) => bytes.write(fen_key(&fen).as_bytes()),
                // Rules without positions: the moves alone.
                None => bytes.write(b"?"),
            }
            bytes.write_u8(0);
            if let Some(setup) = &game.line(LineId::MAIN).setup {
                bytes.write(setup.as_bytes());
            }
            for node in game.mainline() {
                rules.hash_move(&node.mv, &mut bytes);
                if let Some(setup) = &node.setup {
                    bytes.write(setup.as_bytes());
                }
            }
        }
        By::Position => {
            let mut plies = 0u64;
            let mut last = None;
            let walked = mainline::walk(rules, rules.start(game)?, game, |position, mv| {
                match mv {
                    Some(_) => plies += 1,
                    None => last = rules.fen(position),
                }
                true
            });
            let fen = last.filter(|_| walked)?;
            bytes.write(fen_key(&fen).as_bytes());
            bytes.write_u64(plies);
        }
    }
    Some(bytes.digest())
}

/// A chess move in two bytes: its from and to squares and its promotion. In a given
/// position they tell every legal move apart (castling is the king's square and the rook's,
/// which no other move of the king can be), and the digest of a main line is taken from
/// a given start, so that the positions its moves are played in are the same.
fn chess_move_key(mv: &pgn::Move) -> u16 {
    let squares =
        |from: pgn::Square, to: pgn::Square| from.index() as u16 | (to.index() as u16) << 6;
    match *mv {
        pgn::Move::Normal {
            from,
            to,
            promotion,
            ..
        } => squares(from, to) | promotion.map_or(0, |role| role.index() as u16 + 1) << 12,
        pgn::Move::EnPassant { from, to } => squares(from, to),
        pgn::Move::Castle { king, rook } => squares(king, rook),
        // A drop: its square, its piece, and the top bit that no other move sets.
        pgn::Move::Put { role, to } => {
            to.index() as u16 | (role.index() as u16 + 1) << 12 | 1 << 15
        }
        pgn::Move::Null => u16::MAX,
    }
}

/// What a chess position's FEN key leaves out: the ruleset it is played by (an atomic and
/// a standard game of the same moves are two games) and three-check's counters. Nothing
/// for standard chess, whose digests are as they were before the variants.
fn write_ruleset(position: &pgn::Position, bytes: &mut Bytes) {
    let ruleset = position.ruleset();
    if ruleset != pgn::Ruleset::Chess {
        bytes.write(ruleset.name().as_bytes());
        if let Some(left) = position.remaining_checks() {
            bytes.write_u8(left.white);
            bytes.write_u8(left.black);
        }
        bytes.write_u8(0);
    }
}

/// Digests every chess game of `input` with the validating visitor, which plays every
/// move without building a tree (`check`'s speed), keeping an outline of the main line.
pub fn digest_chess(
    mut input: Input<'_>,
    options: ReadOptions,
    by: By,
    each: &mut EachGame<'_>,
) -> io::Result<Vec<Diagnostic>> {
    let mut reader = input.reader(notation::Dialect::PGN, options);
    let mut validator = pgn::Validator::new(options).outlining();
    let standard = pgn::Position::new();
    let standard_key = fen_key(&standard.to_fen()).to_owned();
    let mut bytes = Bytes::default();
    while let Some(mut game) = reader.read_game(&mut validator)? {
        let mut key = Key {
            digest: None,
            richness: 0,
        };
        if let Some(outline) = validator.outline() {
            bytes.0.clear();
            let fen = |position: &pgn::Position| {
                if *position == standard {
                    standard_key.clone()
                } else {
                    fen_key(&position.to_fen()).to_owned()
                }
            };
            match by {
                By::Moves => {
                    write_ruleset(&outline.start, &mut bytes);
                    bytes.write(fen(&outline.start).as_bytes());
                    bytes.write_u8(0);
                    bytes.0.reserve(2 * outline.moves.len());
                    for mv in &outline.moves {
                        bytes.0.extend_from_slice(&chess_move_key(mv).to_le_bytes());
                    }
                }
                By::Position => {
                    write_ruleset(&outline.end, &mut bytes);
                    bytes.write(fen(&outline.end).as_bytes());
                    bytes.write_u64(outline.moves.len() as u64);
                }
            }
            key = Key {
                digest: Some(bytes.digest()),
                richness: rank(
                    outline.comments as usize,
                    outline.variations as usize,
                    outline.tags as usize,
                ),
            };
        }
        let (text, reading) = text_of(reader.buffered(game.span));
        let digested = Digested {
            index: game.index,
            text,
            key,
            reading,
        };
        each(digested, &mut game.diagnostics)?;
    }
    let orphans = validator.take_orphans();
    let buffer = reader.into_vec();
    input.give_back(buffer);
    Ok(orphans)
}

/// A digest as the tables hold it: two halves, so that an entry is aligned to 8 bytes,
/// not 16 (a `u128`'s), and takes 16 bytes in the set of `--keep first`, 24 in the
/// map of `--keep richest`.
#[derive(Clone, Copy, PartialEq, Eq)]
struct TableKey(u64, u64);

impl TableKey {
    fn of(digest: u128) -> TableKey {
        TableKey(digest as u64, (digest >> 64) as u64)
    }
}

impl std::hash::Hash for TableKey {
    fn hash<H: Hasher>(&self, state: &mut H) {
        // A digest is spread evenly already: half of it is the table's hash.
        state.write_u64(self.0);
    }
}

/// The hasher of the tables: a key's hash is its first half.
#[derive(Default)]
struct DigestHasher(u64);

impl Hasher for DigestHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        // Only `TableKey`s are hashed here, by `write_u64`; anything else still spreads.
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

type Digests = BuildHasherDefault<DigestHasher>;

/// Where the richest game of a digest lies in the spool (40 bits: up to a terabyte of
/// spool), how rich it is (23 bits, counts past 8 million are equal), and whether it has
/// been written in the second pass (1 bit), in one word.
#[derive(Clone, Copy)]
struct Kept(u64);

impl Kept {
    const OFFSET_BITS: u32 = 40;
    const RICHNESS_MAX: u32 = (1 << 23) - 1;
    const WRITTEN: u64 = 1 << 63;

    fn new(offset: u64, richness: u32) -> Kept {
        Kept(offset | (u64::from(richness.min(Self::RICHNESS_MAX)) << Self::OFFSET_BITS))
    }

    fn offset(self) -> u64 {
        self.0 & ((1 << Self::OFFSET_BITS) - 1)
    }

    fn richness(self) -> u32 {
        ((self.0 >> Self::OFFSET_BITS) as u32) & Self::RICHNESS_MAX
    }

    fn written(self) -> bool {
        self.0 & Self::WRITTEN != 0
    }

    fn mark_written(&mut self) {
        self.0 |= Self::WRITTEN;
    }
}

/// How the spool marks a record.
const SPOOL_COMPARED: u8 = 1;
const SPOOL_UNREAD: u8 = 0;

/// The spool of `--keep richest`: a file in the temporary directory, removed when done
/// (or when the program abandons its temporary files on a signal: [`TempFile`]).
struct Spool {
    file: TempFile,
    writer: BufWriter<File>,
    len: u64,
    kept: HashMap<TableKey, Kept, Digests>,
}

impl Spool {
    fn create() -> io::Result<Spool> {
        let (file, handle) = TempFile::scratch("notate-dedupe-", ".spool").map_err(|e| {
            io::Error::new(
                e.kind(),
                format!(
                    "cannot create a spool file in {}: {e}",
                    std::env::temp_dir().display()
                ),
            )
        })?;
        Ok(Spool {
            file,
            writer: BufWriter::with_capacity(1 << 18, handle),
            len: 0,
            kept: HashMap::default(),
        })
    }

    fn push(&mut self, key: Key, text: &[u8]) -> io::Result<()> {
        let offset = self.len;
        if offset >= 1 << Kept::OFFSET_BITS {
            return Err(io::Error::other(
                "--keep richest spools at most a terabyte of games; use --keep first",
            ));
        }
        let (kind, digest) = match key.digest {
            Some(d) => (SPOOL_COMPARED, d),
            None => (SPOOL_UNREAD, 0),
        };
        self.writer.write_all(&[kind])?;
        self.writer.write_all(&digest.to_le_bytes())?;
        self.writer.write_all(&(text.len() as u64).to_le_bytes())?;
        self.writer.write_all(text)?;
        self.len += 1 + 16 + 8 + text.len() as u64;
        if key.digest.is_some() {
            let richer = Kept::new(offset, key.richness);
            self.kept
                .entry(TableKey::of(digest))
                .and_modify(|k| {
                    if richer.richness() > k.richness() {
                        *k = richer;
                    }
                })
                .or_insert(richer);
        }
        Ok(())
    }
}

fn spool_error(path: &std::path::Path, e: io::Error) -> io::Error {
    io::Error::new(e.kind(), format!("spool file {}: {e}", path.display()))
}

/// One record of the spool.
struct Record {
    offset: u64,
    kind: u8,
    digest: u128,
    text: Vec<u8>,
}

fn read_record(reader: &mut impl Read, offset: u64) -> io::Result<Option<Record>> {
    let mut head = [0u8; 25];
    match reader.read_exact(&mut head[..1]) {
        Ok(()) => {}
        Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => return Ok(None),
        Err(e) => return Err(e),
    }
    reader.read_exact(&mut head[1..])?;
    let mut digest = [0u8; 16];
    digest.copy_from_slice(&head[1..17]);
    let mut len = [0u8; 8];
    len.copy_from_slice(&head[17..25]);
    let len = usize::try_from(u64::from_le_bytes(len))
        .map_err(|_| io::Error::other("a spool record too large"))?;
    let mut text = Vec::new();
    text.try_reserve_exact(len)
        .map_err(|_| io::Error::other("not enough memory to read a game back from the spool"))?;
    reader.take(len as u64).read_to_end(&mut text)?;
    Ok(Some(Record {
        offset,
        kind: head[0],
        digest: u128::from_le_bytes(digest),
        text,
    }))
}

/// Where games go, and what was done.
pub struct Emitter<'o> {
    /// The output.
    pub out: &'o mut dyn Write,
    /// Dropped games, with `--duplicates`.
    pub duplicates: Option<&'o mut dyn Write>,
    /// The digests seen (`--keep first`).
    seen: HashSet<TableKey, Digests>,
    /// The spool (`--keep richest`).
    spool: Option<Spool>,
    /// Games read.
    pub games: u64,
    /// Games dropped as duplicates.
    pub dropped: u64,
    /// Games that cannot be read, written as read.
    pub unreadable: u64,
    /// Games too large to hold, left out.
    pub lost: u64,
}

impl<'o> Emitter<'o> {
    /// An emitter keeping the first or the richest game of each digest.
    pub fn new(
        out: &'o mut dyn Write,
        duplicates: Option<&'o mut dyn Write>,
        keep: Keep,
    ) -> io::Result<Emitter<'o>> {
        Ok(Emitter {
            out,
            duplicates,
            seen: HashSet::default(),
            spool: match keep {
                Keep::First => None,
                Keep::Richest => Some(Spool::create()?),
            },
            games: 0,
            dropped: 0,
            unreadable: 0,
            lost: 0,
        })
    }

    /// Takes one item, in input order.
    pub fn emit(
        &mut self,
        item: Item,
        offset: u64,
        name: Placed<'_>,
        say: &mut dyn FnMut(String, bool),
    ) -> io::Result<()> {
        let game = match item {
            Item::Orphans(orphans) => {
                for d in orphans {
                    say(name.diagnostic(&d), false);
                }
                return Ok(());
            }
            Item::Game(game) => game,
        };
        self.games += 1;
        let number = game.index + offset + 1;
        let key = match game.reading {
            Fate::Lost(reason) => {
                self.lost += 1;
                say(format!("{name}: game {number} left out: {reason}"), true);
                return Ok(());
            }
            Fate::Unreadable(reason) => {
                self.unreadable += 1;
                say(
                    format!(
                        "{name}: game {number} not compared (written as it was read): {reason}"
                    ),
                    false,
                );
                Key {
                    digest: None,
                    ..game.key
                }
            }
            Fate::Written => game.key,
        };
        if let Some(spool) = &mut self.spool {
            return spool.push(key, &game.text);
        }
        match key.digest {
            Some(digest) if !self.seen.insert(TableKey::of(digest)) => {
                self.dropped += 1;
                match &mut self.duplicates {
                    Some(d) => d.write_all(&game.text),
                    None => Ok(()),
                }
            }
            _ => self.out.write_all(&game.text),
        }
    }

    /// Writes what the spool holds, once every game has been read (`--keep richest`);
    /// nothing to do with `--keep first`.
    pub fn finish(&mut self) -> io::Result<()> {
        let Some(mut spool) = self.spool.take() else {
            return Ok(());
        };
        spool.writer.flush()?;
        let path = spool.file.path().to_owned();
        let mut records = BufReader::with_capacity(
            1 << 18,
            File::open(&path).map_err(|e| spool_error(&path, e))?,
        );
        let mut kept_texts = File::open(&path).map_err(|e| spool_error(&path, e))?;
        let mut offset = 0u64;
        while let Some(record) = read_record(&mut records, offset)? {
            offset += 25 + record.text.len() as u64;
            if record.kind == SPOOL_UNREAD {
                self.out.write_all(&record.text)?;
                continue;
            }
            let Some(kept) = spool.kept.get_mut(&TableKey::of(record.digest)) else {
                // Every compared record's digest went into the table.
                self.out.write_all(&record.text)?;
                continue;
            };
            if !kept.written() {
                kept.mark_written();
                if kept.offset() == record.offset {
                    self.out.write_all(&record.text)?;
                } else {
                    kept_texts.seek(SeekFrom::Start(kept.offset()))?;
                    match read_record(&mut kept_texts, kept.offset())? {
                        Some(richest) => self.out.write_all(&richest.text)?,
                        None => return Err(io::Error::other("the spool file was cut short")),
                    }
                }
            }
            if kept.offset() != record.offset {
                self.dropped += 1;
                if let Some(d) = &mut self.duplicates {
                    d.write_all(&record.text)?;
                }
            }
        }
        Ok(())
    }
}

/// `notate dedupe`: writes each game of the job's inputs once to `out`, as it was read,
/// dropping the games that repeat an earlier one (`by` what, keeping which: `keep`);
/// the dropped games go to `duplicates` when given. Says the tally as a warning at the
/// end. The job's games have errors when one could not be read, or was too large to hold.
///
/// # Errors
/// [`Stopped::Failed`] when the duplicates' spill file cannot be made (reported);
/// [`Stopped::Closed`] when whoever reads an output went away.
pub fn run(
    job: &mut Job<'_>,
    by: By,
    keep: Keep,
    out: &mut dyn Write,
    mut duplicates: Option<Named<'_>>,
) -> Result<Ended, Stopped> {
    let mut emitter = Emitter::new(
        &mut *out,
        duplicates.as_mut().map(|d| &mut *d.out as &mut dyn Write),
        keep,
    )
    .map_err(|e| {
        job.report.error(&e.to_string());
        Stopped::Failed
    })?;
    job.each(|source, opened, job| {
        let input = source.placed(opened.rows);
        with_rules!(opened.format, job.variant, |rules| {
            let task = DedupeTask {
                rules,
                read: ReadOptions::default(),
                by,
            };
            pipeline::drive(&task, opened, job.jobs, &mut |item, offset| {
                emitter.emit(item, offset, input, &mut job.say())
            })
        })
    })?;
    if let Err(e) = emitter.finish() {
        job.write_failed(&e)?;
    }
    let (games, dropped, unreadable, lost) = (
        emitter.games,
        emitter.dropped,
        emitter.unreadable,
        emitter.lost,
    );
    drop(emitter);
    job.flush(out)?;
    if let Some(duplicates) = &mut duplicates {
        job.flush(duplicates.out)?;
    }
    let mut line = format!(
        "{games} games, {} written, {dropped} duplicates dropped",
        games - dropped - lost
    );
    if let Some(duplicates) = &duplicates {
        line.push_str(&format!(" (to {})", duplicates.path.display()));
    }
    if unreadable > 0 {
        line.push_str(&format!(
            "; {unreadable} could not be read (written as read, not compared)"
        ));
    }
    if lost > 0 {
        line.push_str(&format!("; {lost} too large to hold, left out"));
    }
    job.report.warning(&line);
    Ok(job.ended(unreadable + lost > 0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_chess_move_key_tells_every_legal_move_of_a_position_apart() {
        for fen in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            // Castling both ways, en passant, promotions with and without a capture.
            "r3k2r/1P4P1/8/3pP3/8/8/1p4p1/R3K2R w KQkq d6 0 1",
            "r3k2r/1P4P1/8/8/3Pp3/8/1p4p1/R3K2R b KQkq d3 0 1",
            // Chess960: the king next to its rook.
            "1rk5/8/8/8/8/8/8/1RK4R w BHb - 0 1",
        ] {
            let position = pgn::Position::from_fen(fen).expect("a FEN");
            let moves = position.legal_moves();
            let mut keys: Vec<u16> = moves.iter().map(chess_move_key).collect();
            keys.sort_unstable();
            keys.dedup();
            assert_eq!(keys.len(), moves.len(), "{fen}");
        }
    }

    #[test]
    fn packed_kept_entries_keep_their_fields() {
        let mut kept = Kept::new((1 << 40) - 1, 7);
        assert_eq!(
            (kept.offset(), kept.richness(), kept.written()),
            ((1 << 40) - 1, 7, false)
        );
        kept.mark_written();
        assert_eq!(
            (kept.offset(), kept.richness(), kept.written()),
            ((1 << 40) - 1, 7, true)
        );
        assert_eq!(Kept::new(5, u32::MAX).richness(), Kept::RICHNESS_MAX);
        assert_eq!(std::mem::size_of::<(TableKey, Kept)>(), 24);
    }
}
