//! A large collection of chess games that looks like a month of lichess's database, made
//! deterministically from a seed, to benchmark what reads such files (a position index, an
//! opening explorer): `lichess-like --games N [--seed S] [-o FILE]` writes one.
//!
//! Each game is made from its own stream of the seed ([`Rng::stream`]), so that a game is
//! the same whichever thread makes it, and [`Generator::write_all`] writes the same bytes
//! for any number of threads:
//!
//! - its **opening** is a walk down the tree of the table of named openings
//!   ([`pgn::openings::all`]), each move chosen in proportion to the named lines through it,
//!   to a random depth or a leaf; games share their first moves as real ones do;
//! - then **plausible random legal moves** (captures by value, checks, mates, development,
//!   the centre; a weaker player plays more randomly) until the board ends the game, a
//!   player far behind resigns, or the length drawn for it (about 70 plies on average,
//!   10 to 200) is reached;
//! - its **result** follows from the end: the mate's winner, a draw where the board draws,
//!   else a winner drawn by the ratings and the material; some are lost on time;
//! - its **tags** are lichess's: `Event` from the speed of its time control, `Site` a
//!   game's address, `Date`, `UTCDate` and `UTCTime` in order through the collection from
//!   January 2019 to December 2025 (more games in recent months), the players from a pool
//!   of 50,000 ([`PLAYERS`]) with ratings near each other, `ECO` and `Opening` by
//!   [`pgn::openings::classify_moves`], `TimeControl` and `Termination`;
//! - a **clock** comment after each move (`[%clk 0:04:59]`), going down with thinking
//!   and up with increments, but in correspondence games, which have no clock.
//!
//! Games are written by [`pgn::write_game`] in the export format, so that the file reads
//! back without a diagnostic. (The export format writes a comment as `{[%clk 0:04:59]}`,
//! where lichess writes `{ [%clk 0:04:59] }`, and wraps the movetext at 80 columns, where
//! lichess writes it on one line: the same games, laid out as the standard wants.)

mod calendar;
mod clock;
mod names;
mod opening_book;
mod play;
mod players;
mod speed;
mod verdict;

use std::collections::BTreeMap;
use std::io;
use std::ops::Range;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc;

use crate::Rng;
use calendar::{Calendar, Moment};
use clock::Clock;
use opening_book::OpeningBook;
use pgn::openings::Opening;
use pgn::{GameTree, LineId, Position, Tags, WriteError};
use players::Players;
use speed::TimeControl;
use verdict::{Termination, Verdict};

/// The players in a generator's pool.
pub const PLAYERS: usize = 50_000;

/// Games written by a thread at a time, in one string.
const CHUNK: u64 = 256;

/// Makes the games of a collection: the opening tree, the players and the calendar, made
/// once from the seed and shared by every game.
#[derive(Clone, Debug)]
pub struct Generator {
    seed: u64,
    book: OpeningBook,
    players: Players,
    calendar: Calendar,
}

impl Generator {
    /// The generator of `seed`, with [`PLAYERS`] players.
    pub fn new(seed: u64) -> Generator {
        Generator::with_players(seed, PLAYERS)
    }

    /// The generator of `seed` with a pool of `players` players (at least 2).
    pub fn with_players(seed: u64, players: usize) -> Generator {
        // The pool's stream is one no game uses.
        let mut rng = Rng::stream(seed, u64::MAX);
        Generator {
            seed,
            book: OpeningBook::from_table(),
            players: Players::new(&mut rng, players),
            calendar: Calendar::new(),
        }
    }

    /// The `index`th game of a collection of `total`: the same game for the same seed,
    /// index and total (the total places it in the calendar).
    pub fn game(&self, index: u64, total: u64) -> GameTree {
        let mut rng = Rng::stream(self.seed, index);
        let moment = self
            .calendar
            .at((index as f64 + rng.unit()) / total.max(1) as f64);
        let control = TimeControl::draw(&mut rng);
        let (white, black) = self.players.pair(&mut rng);
        let elo = [white.rating, black.rating].map(|base| {
            let jitter = rng.below(101) as i32 - 50;
            u16::try_from(i32::from(base) + jitter).unwrap_or(base)
        });

        let mut book = Vec::new();
        let depth = opening_depth(&mut rng);
        self.book.walk(&mut rng, depth, &mut book);
        let length = game_length(&mut rng);
        let played = play::play(&mut rng, &book, length, elo.map(temperature));
        let clock = match control {
            TimeControl::Clock { base, increment } => Some(Clock { base, increment }),
            TimeControl::Correspondence => None,
        };
        let verdict = verdict::decide(&mut rng, &played, elo, clock.is_some());
        let clocks = clock.map(|clock| {
            let flagged = verdict.termination == Termination::TimeForfeit;
            clock.run(&mut rng, played.moves.len(), played.book_plies, flagged)
        });
        let header = Header {
            moment,
            control,
            players: [white.name.as_str(), black.name.as_str()],
            elo,
            verdict,
            opening: pgn::openings::classify_moves(&Position::new(), &played.moves),
            id: game_id(&mut rng),
        };

        let mut game = GameTree::new();
        header.write(&mut game.tags);
        for (ply, mv) in played.moves.iter().enumerate() {
            let node = game.push_move(LineId::MAIN, *mv);
            if let Some(seconds) = clocks.as_ref().and_then(|c| c.get(ply)) {
                game.node_mut(node).comments.push(clock_comment(*seconds));
            }
        }
        game.result = verdict.result;
        game
    }

    /// Appends the games of `indices` (of a collection of `total`) to `out`, in the
    /// export format.
    ///
    /// # Errors
    /// As [`pgn::write_game`] (never: the games start from the standard position).
    pub fn write_games(
        &self,
        indices: Range<u64>,
        total: u64,
        out: &mut String,
    ) -> Result<(), WriteError> {
        for index in indices {
            pgn::write_game(&self.game(index, total), out)?;
        }
        Ok(())
    }

    /// Writes a collection of `total` games to `out` with `threads` threads making them
    /// (at least one): the same bytes whatever the number of threads. Returns the bytes
    /// written.
    ///
    /// # Errors
    /// When `out` cannot be written, or a game cannot (never).
    pub fn write_all(
        &self,
        total: u64,
        threads: usize,
        out: &mut dyn io::Write,
    ) -> io::Result<u64> {
        let chunks = total.div_ceil(CHUNK);
        let next = AtomicU64::new(0);
        std::thread::scope(|scope| {
            let (sender, receiver) = mpsc::sync_channel(threads.max(1) * 4);
            for _ in 0..threads.max(1) {
                let sender = sender.clone();
                let next = &next;
                scope.spawn(move || {
                    loop {
                        let chunk = next.fetch_add(1, Ordering::Relaxed);
                        if chunk >= chunks {
                            break;
                        }
                        let first = chunk * CHUNK;
                        let indices = first..(first + CHUNK).min(total);
                        let mut text = String::with_capacity(CHUNK as usize * 2048);
                        let written = self.write_games(indices, total, &mut text).map(|()| text);
                        if sender.send((chunk, written)).is_err() {
                            break;
                        }
                    }
                });
            }
            drop(sender);
            let mut waiting = BTreeMap::new();
            let mut expected = 0;
            let mut bytes = 0u64;
            for (chunk, written) in receiver {
                waiting.insert(chunk, written);
                while let Some(written) = waiting.remove(&expected) {
                    let text = written.map_err(io::Error::other)?;
                    out.write_all(text.as_bytes())?;
                    bytes += text.len() as u64;
                    expected += 1;
                }
            }
            Ok(bytes)
        })
    }
}

/// What a game's tags say.
struct Header<'g> {
    moment: Moment,
    control: TimeControl,
    /// White's and Black's names.
    players: [&'g str; 2],
    /// White's and Black's ratings.
    elo: [u16; 2],
    verdict: Verdict,
    opening: Option<&'static Opening>,
    /// The game's eight characters in its address.
    id: String,
}

impl Header<'_> {
    /// Sets the tags as lichess has them (the writer puts them in the export format's
    /// order).
    fn write(&self, tags: &mut Tags) {
        tags.set("Event", self.control.speed().event());
        tags.set("Site", format!("https://lichess.org/{}", self.id));
        tags.set("Date", self.moment.date());
        tags.set("Round", "-");
        tags.set("White", self.players[0]);
        tags.set("Black", self.players[1]);
        tags.set("Result", self.verdict.result.to_string());
        tags.set("UTCDate", self.moment.date());
        tags.set("UTCTime", self.moment.time());
        tags.set("WhiteElo", self.elo[0].to_string());
        tags.set("BlackElo", self.elo[1].to_string());
        let eco = self.opening.map(|o| o.eco().to_string());
        tags.set("ECO", eco.unwrap_or_else(|| "?".to_owned()));
        tags.set("Opening", self.opening.map_or("?", |o| o.name()));
        tags.set("TimeControl", self.control.to_string());
        tags.set("Termination", self.verdict.termination.tag());
    }
}

/// How many plies a game follows the opening tree at most: a few now and then, usually
/// 2 to 16 (it stops earlier at a leaf).
fn opening_depth(rng: &mut Rng) -> usize {
    if rng.one_in(50) {
        rng.below(3)
    } else {
        2 + rng.below(8) + rng.below(8)
    }
}

/// The length drawn for a game, in plies: log-normal, 10 to 200 (the board, a resignation
/// or a mate may end it earlier).
fn game_length(rng: &mut Rng) -> usize {
    let plies = (LENGTH_MEDIAN.ln() + LENGTH_SIGMA * rng.normal()).exp();
    (plies.round() as usize).clamp(10, 200)
}

/// The median and spread of [`game_length`].
const LENGTH_MEDIAN: f64 = 92.0;
const LENGTH_SIGMA: f64 = 0.45;

/// How randomly a player of rating `elo` plays: a temperature in centipawns (see
/// `play`), from about 230 for the weakest to 60 for the strongest.
fn temperature(elo: u16) -> f64 {
    (30.0 + (2800.0 - f64::from(elo)) / 10.0).clamp(60.0, 250.0)
}

/// A game's eight letters and digits, as lichess's addresses have them.
fn game_id(rng: &mut Rng) -> String {
    const ALPHABET: &[u8] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    (0..8)
        .map(|_| char::from(ALPHABET[rng.below(ALPHABET.len())]))
        .collect()
}

/// The comment `[%clk H:MM:SS]` of a clock with `seconds` left, written digit by digit (a
/// game has one after each move: formatting them is a tenth of a game's cost).
fn clock_comment(seconds: u32) -> String {
    let (hours, minutes, seconds) = (seconds / 3600, seconds / 60 % 60, seconds % 60);
    let mut text = String::with_capacity(16);
    text.push_str("[%clk ");
    match u8::try_from(hours) {
        Ok(digit @ 0..=9) => text.push(char::from(b'0' + digit)),
        _ => text.push_str(&hours.to_string()),
    }
    for two in [minutes, seconds] {
        text.push(':');
        text.push(char::from(b'0' + (two / 10) as u8));
        text.push(char::from(b'0' + (two % 10) as u8));
    }
    text.push(']');
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use pgn::commands::{ClockTime, Command};
    use pgn::{GameResult, Outcome, ReadGame};
    use std::collections::{HashMap, HashSet};

    /// The games written, and the games read back from them.
    fn written(seed: u64, games: u64, threads: usize) -> (Vec<u8>, Vec<ReadGame>) {
        let generator = Generator::new(seed);
        let mut bytes = Vec::new();
        let count = generator.write_all(games, threads, &mut bytes);
        assert_eq!(count.ok(), Some(bytes.len() as u64));
        let read = pgn::read_games(&bytes[..]);
        (bytes, read)
    }

    #[test]
    fn the_same_seed_gives_the_same_bytes_whatever_the_threads() {
        let (one, _) = written(7, 300, 1);
        let (three, _) = written(7, 300, 3);
        assert!(one == three, "one thread and three wrote different bytes");
        let mut direct = String::new();
        assert!(
            Generator::new(7)
                .write_games(0..300, 300, &mut direct)
                .is_ok()
        );
        assert!(direct.as_bytes() == one);
        let (other, _) = written(8, 300, 2);
        assert!(other != one, "another seed wrote the same games");
    }

    #[test]
    fn every_game_reads_back_legal_and_as_lichess_tags_it() {
        let (_, games) = written(11, 300, 2);
        assert_eq!(games.len(), 300);
        let mut on_time = 0;
        for (i, read) in games.iter().enumerate() {
            assert_eq!(read.diagnostics, [], "game {i}");
            let game = &read.game;
            let tag = |name: &str| game.tags.get(name).unwrap_or_default();
            let site = tag("Site");
            assert_eq!(site.len(), "https://lichess.org/".len() + 8, "{site}");
            assert!(tag("Event").starts_with("Rated ") && tag("Event").ends_with(" game"));
            assert_eq!(tag("Round"), "-");
            assert_eq!(tag("Date"), tag("UTCDate"));
            assert!(
                ("2019.01.01".."2026").contains(&tag("Date")),
                "{}",
                tag("Date")
            );
            assert_ne!(tag("White"), tag("Black"));
            for elo in [tag("WhiteElo"), tag("BlackElo")] {
                let elo: u16 = elo.parse().unwrap_or(0);
                assert!((550..=3050).contains(&elo), "{elo}");
            }
            // The opening is the classifier's for the moves.
            let opening = pgn::openings::classify_game(game);
            assert_eq!(tag("Opening"), opening.map_or("?", |o| o.name()));
            // The result follows the board where the board decides.
            let mut end = Position::new();
            for node in game.mainline() {
                end.play_mut(&node.mv);
            }
            match end.outcome() {
                Some(Outcome::Checkmate { winner }) => {
                    let won = winner.fold(GameResult::FirstWins, GameResult::SecondWins);
                    assert_eq!(game.result, won, "game {i}");
                }
                Some(_) => assert_eq!(game.result, GameResult::Draw, "game {i}"),
                None => assert_ne!(game.result, GameResult::Unknown, "game {i}"),
            }
            // A clock after every move but in correspondence games.
            let clocks = game
                .mainline()
                .filter(|node| node.comments.iter().any(|c| c.starts_with("[%clk ")))
                .count();
            let plies = game.mainline().count();
            let correspondence = tag("TimeControl") == "-";
            assert_eq!(clocks, if correspondence { 0 } else { plies }, "game {i}");
            if tag("Termination") == "Time forfeit" {
                on_time += 1;
                assert!(
                    !correspondence && game.result != GameResult::Draw,
                    "game {i}"
                );
            } else {
                assert_eq!(tag("Termination"), "Normal");
            }
        }
        assert!(on_time > 10, "{on_time} games lost on time");
    }

    #[test]
    fn openings_share_their_first_moves() {
        let (_, games) = written(3, 400, 2);
        let mut movetexts = HashSet::new();
        let mut after_four = HashMap::new();
        let mut first_moves = HashSet::new();
        for read in &games {
            let moves: Vec<_> = read.game.mainline().map(|node| node.mv).collect();
            movetexts.insert(moves.clone());
            if moves.len() >= 4 {
                let mut pos = Position::new();
                for mv in &moves[..4] {
                    pos.play_mut(mv);
                }
                *after_four.entry(pos.zobrist_hash()).or_insert(0) += 1;
            }
            first_moves.extend(moves.first().copied());
        }
        assert_eq!(movetexts.len(), 400, "two games are the same");
        // As on lichess: under half as many positions as games after 4 plies, the
        // commonest (1. e4 e5 2. Nf3 Nc6, say) in one game of 20 or more.
        assert!(
            after_four.len() < 400 / 2,
            "{} positions after 4 plies in 400 games",
            after_four.len()
        );
        let commonest = after_four.values().max().copied().unwrap_or(0);
        assert!(
            commonest >= 20,
            "the commonest position after 4 plies: {commonest} games"
        );
        assert!((5..=20).contains(&first_moves.len()), "{first_moves:?}");
    }

    #[test]
    fn a_clock_comment_is_the_clock_command_written() {
        for seconds in [0, 5, 59, 60, 179, 3599, 3600, 36_000, 86_399 * 3] {
            let command = Command::Clock(ClockTime::from_millis(u64::from(seconds) * 1000));
            assert_eq!(clock_comment(seconds), command.to_string());
        }
    }
}
