//! Questions to an index: what was played from a position and how it scored (the
//! explorer), and which games reached it (`find`).

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use notation::MoveContext;

use crate::dims::{Speed, Winner};
use crate::error::IndexError;
use crate::filter::{Color, Filter};
use crate::key::PositionKey;
use crate::manifest::{Manifest, SourceEntry};
use crate::record::Posting;
use crate::record::{GameId, GameRecord};
use crate::rules::{Game, IndexRules, MoveCode};
use crate::segment::Segment;
use crate::summary::{self, Dims};

/// How much an explorer answer lists.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Moves listed (the most played).
    pub moves: usize,
    /// Top games (highest average rating).
    pub top_games: usize,
    /// Recent games.
    pub recent_games: usize,
}

impl Default for Limits {
    /// lichess's defaults: 12 moves, 4 top games, 4 recent games.
    fn default() -> Limits {
        Limits {
            moves: 12,
            top_games: 4,
            recent_games: 4,
        }
    }
}

/// A player as a game lists them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerSummary {
    /// The name.
    pub name: String,
    /// The rating, when known.
    pub rating: Option<u16>,
}

/// A game as the explorer lists it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameSummary {
    /// Its id in the index.
    pub id: GameId,
    /// Who won.
    pub winner: Winner,
    /// Its speed.
    pub speed: Option<Speed>,
    /// Whether it was rated, when known.
    pub rated: Option<bool>,
    /// White.
    pub white: PlayerSummary,
    /// Black.
    pub black: PlayerSummary,
    /// The year played (0 unknown).
    pub year: u16,
    /// The month played (0 unknown).
    pub month: u8,
    /// The move it played from the position, as [`IndexRules::uci`] writes it; `None`
    /// if it ended there.
    pub uci: Option<String>,
    /// Where it is.
    pub reference: GameRef,
}

/// Where a game is: its file, its number in the file (from 1, as `notate show` counts)
/// and the offset of its first byte in the file's text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRef {
    /// The file, as the index recorded it (`-` for standard input).
    pub path: String,
    /// Its number in the file, from 1.
    pub number: u64,
    /// The offset of its first byte in the file's text (after any decompression).
    pub offset: u64,
}

/// A move played from a position, with how it scored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveStats {
    /// As [`IndexRules::uci`] writes it.
    pub uci: String,
    /// As the export format writes it (SAN for chess).
    pub san: String,
    /// Games White won after it.
    pub white: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games Black won.
    pub black: u64,
    /// The mean of the games' average ratings, over those with both ratings.
    pub average_rating: Option<u32>,
    /// When the move was played in one game only, that game.
    pub game: Option<GameSummary>,
}

impl MoveStats {
    /// Games counted.
    pub fn games(&self) -> u64 {
        self.white + self.draws + self.black
    }
}

/// What the explorer says of a position.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Explored {
    /// Games White won from the position (the sum over its moves).
    pub white: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games Black won.
    pub black: u64,
    /// The moves played, most played first.
    pub moves: Vec<MoveStats>,
    /// The games of the highest average rating.
    pub top_games: Vec<GameSummary>,
    /// The most recent games.
    pub recent_games: Vec<GameSummary>,
    /// The opening's ECO code and name, where the table names it (chess).
    pub opening: Option<(String, String)>,
}

/// A position index, open for questions.
pub struct Index {
    dir: PathBuf,
    manifest: Manifest,
    segments: Vec<Segment>,
    /// The inputs' files found unchanged, by their size and modification time then
    /// ([`crate::games`]).
    pub(crate) checked_files: std::sync::Mutex<HashMap<PathBuf, FileStamp>>,
}

/// A file's size and modification time (where the system keeps one).
pub(crate) type FileStamp = (u64, Option<std::time::SystemTime>);

impl Index {
    /// Opens the index in `dir`.
    ///
    /// # Errors
    /// No index there, one of another version, or a damaged one; a shard of a range of a
    /// file that does not start it, whose games' numbers in the file are known only once
    /// it is merged with the shards before it ([`IndexError::Input`]).
    pub fn open(dir: &Path) -> Result<Index, IndexError> {
        let index = Index::open_parts(dir)?;
        if let Some(shard) = index.sources().iter().find(|s| s.games_before().is_none()) {
            let range = shard.range.as_ref().map_or(String::new(), |r| {
                format!(" (bytes {}..{})", r.start, r.end)
            });
            return Err(IndexError::Input(format!(
                "{}: a shard of a range of {}{range}, which does not know how many games \
                 come before it; merge it with the shards of the rest of the file \
                 (notate index --merge) to ask it",
                dir.display(),
                shard.path,
            )));
        }
        Ok(index)
    }

    /// Opens the index in `dir`, a shard not merged yet too (for [`crate::merge`]).
    pub(crate) fn open_parts(dir: &Path) -> Result<Index, IndexError> {
        let manifest = Manifest::load(dir)?;
        let mut segments = Vec::new();
        for (entry, path) in manifest.segments.iter().zip(manifest.segment_paths(dir)) {
            if !path.is_file() {
                return Err(IndexError::Damaged {
                    path: dir.to_owned(),
                    what: format!("its segment {} is missing", entry.file),
                });
            }
            let segment = Segment::open(&path, GameId(entry.first_game), entry.first_source)?;
            if segment.count != entry.games {
                return Err(IndexError::Damaged {
                    path,
                    what: "the segment does not hold the games the manifest says".into(),
                });
            }
            segments.push(segment);
        }
        Ok(Index {
            dir: dir.to_owned(),
            manifest,
            segments,
            checked_files: Default::default(),
        })
    }

    /// The folder it is in.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Which game it holds.
    pub fn game(&self) -> Game {
        if self.manifest.game == Game::Draughts.name() {
            Game::Draughts
        } else {
            Game::Chess
        }
    }

    /// The number of games in it.
    pub fn games(&self) -> u64 {
        self.manifest.games()
    }

    /// The inputs it has read.
    pub fn sources(&self) -> &[SourceEntry] {
        &self.manifest.sources
    }

    /// Its segments, in order.
    pub(crate) fn segments(&self) -> &[Segment] {
        &self.segments
    }

    fn segment_of(&self, game: GameId) -> Result<&Segment, IndexError> {
        self.segments
            .iter()
            .find(|s| s.holds(game))
            .ok_or_else(|| IndexError::Damaged {
                path: self.dir.clone(),
                what: format!("game {} is in no segment", game.0),
            })
    }

    /// Every game that reached the position and the move it played there, by game.
    pub fn postings(&self, key: PositionKey) -> Result<Vec<Posting>, IndexError> {
        match self.game() {
            Game::Chess => self.postings_in(&pgn::ChessRules, key),
            Game::Draughts => self.postings_in(&collection::rules::draughts(None), key),
        }
    }

    /// [`Index::postings`], the tails' lines played in `rules`.
    fn postings_in<R: IndexRules>(
        &self,
        rules: &R,
        key: PositionKey,
    ) -> Result<Vec<Posting>, IndexError> {
        let mut out = Vec::new();
        for segment in &self.segments {
            segment.postings(rules, key, &mut out)?;
        }
        Ok(out)
    }

    /// The record of a game.
    pub fn record(&self, game: GameId) -> Result<GameRecord, IndexError> {
        self.segment_of(game)?.game(game)
    }

    /// Where a game is: its number in its file is its number in what was read of it
    /// and the games of the file before that (those before a shard's range).
    pub fn reference(&self, record: &GameRecord) -> GameRef {
        let source = self.manifest.sources.get(record.source as usize);
        GameRef {
            path: source.map_or_else(|| "?".to_owned(), |s| s.path.clone()),
            number: record.number + source.and_then(SourceEntry::games_before).unwrap_or(0) + 1,
            offset: record.offset,
        }
    }

    /// The games that reached a position after any number of plies, in the order they
    /// were indexed, each once.
    pub fn find(&self, key: PositionKey) -> Result<Vec<GameId>, IndexError> {
        let mut games: Vec<GameId> = self.postings(key)?.into_iter().map(|p| p.game).collect();
        games.dedup();
        Ok(games)
    }

    /// Whether a game passes a filter; `player` holds the segment's ids of the filter's
    /// player (found once per segment and query).
    fn passes(
        &self,
        record: &GameRecord,
        filter: &Filter,
        player: Option<&[crate::record::PlayerId]>,
    ) -> bool {
        if !Dims::of(record).passes(filter) {
            return false;
        }
        if let Some(ids) = player {
            let white = ids.contains(&record.white);
            let black = ids.contains(&record.black);
            return match filter.color {
                Some(Color::White) => white,
                Some(Color::Black) => black,
                None => white || black,
            };
        }
        true
    }

    /// A game as the explorer lists it.
    fn summary<R: IndexRules>(
        &self,
        rules: &R,
        position: &R::Position,
        id: GameId,
        record: &GameRecord,
        code: MoveCode,
    ) -> Result<GameSummary, IndexError> {
        let segment = self.segment_of(id)?;
        let uci = rules
            .move_of_code(position, code)
            .map(|mv| rules.uci(position, &mv));
        Ok(GameSummary {
            id,
            winner: record.winner,
            speed: record.speed,
            rated: record.rated,
            white: PlayerSummary {
                name: segment.player_name(record.white)?,
                rating: record.white_rating,
            },
            black: PlayerSummary {
                name: segment.player_name(record.black)?,
                rating: record.black_rating,
            },
            year: record.day.year,
            month: record.day.month,
            uci,
            reference: self.reference(record),
        })
    }

    /// Whether the explorer answers a question from the summaries of the positions that
    /// many games reached, or reads their games one by one (a player's question, or one
    /// asking for more games than a summary keeps): the second may read a million games.
    pub fn summaries_answer(filter: &Filter, limits: Limits) -> bool {
        filter.player.is_none()
            && limits.top_games <= summary::KEPT
            && limits.recent_games <= summary::KEPT
    }

    /// What was played from a position in the games that pass the filter, and how it
    /// scored; its top and recent games.
    ///
    /// A segment's position that many games reached is answered from its summary (written
    /// with the segment), unless the question is a player's or asks for more games than
    /// a summary keeps; any other, from its games one by one. Both give the same answer.
    ///
    /// # Errors
    /// A damaged index.
    pub fn explore<R: IndexRules>(
        &self,
        rules: &R,
        position: &R::Position,
        filter: &Filter,
        limits: Limits,
    ) -> Result<Explored, IndexError> {
        let key = rules.key(position);
        let summaries_answer = Index::summaries_answer(filter, limits);
        // With no filter, the summary's whole cell answers alone.
        let whole = filter.is_everything();
        let mut tallies: HashMap<MoveCode, Tally> = HashMap::new();
        // Games for the lists, with the first move each played from here.
        let mut top = Ranking::new(limits.top_games);
        let mut recent = Ranking::new(limits.recent_games);
        for segment in &self.segments {
            if summaries_answer
                && segment.summary(key, whole, |cell| {
                    if !cell.dims.passes(filter) {
                        return;
                    }
                    for row in &cell.rows {
                        let tally = tallies.entry(row.code).or_default();
                        tally.white += row.white;
                        tally.draws += row.draws;
                        tally.black += row.black;
                        tally.rating_sum += row.rating_sum;
                        tally.rated += row.rated;
                        let last = segment.global(row.last);
                        tally.last = Some(tally.last.map_or(last, |l| l.max(last)));
                    }
                    for kept in &cell.top {
                        top.push(kept.value, segment.global(kept.game), kept.code);
                    }
                    for kept in &cell.recent {
                        recent.push(kept.value, segment.global(kept.game), kept.code);
                    }
                })?
            {
                continue;
            }
            let player = match &filter.player {
                Some(name) => Some(segment.player(name)?),
                None => None,
            };
            if player.as_ref().is_some_and(Vec::is_empty) {
                continue;
            }
            let mut postings = Vec::new();
            segment.postings(rules, key, &mut postings)?;
            let mut last_game = None;
            for posting in postings {
                let record = segment.game(posting.game)?;
                if !self.passes(&record, filter, player.as_deref()) {
                    continue;
                }
                let dims = Dims::of(&record);
                if last_game != Some(posting.game) {
                    last_game = Some(posting.game);
                    if let Some(average) = dims.average() {
                        top.push(average, posting.game, posting.code);
                    }
                    recent.push(dims.day, posting.game, posting.code);
                }
                if posting.code == MoveCode::NONE {
                    continue;
                }
                let tally = tallies.entry(posting.code).or_default();
                match record.winner {
                    Winner::White => tally.white += 1,
                    Winner::Draw => tally.draws += 1,
                    Winner::Black => tally.black += 1,
                    Winner::Unknown => continue,
                }
                if let Some(average) = dims.average() {
                    tally.rating_sum += u64::from(average);
                    tally.rated += 1;
                }
                tally.last = Some(posting.game);
            }
        }
        let mut explored = Explored {
            opening: rules.opening_of(position),
            ..Explored::default()
        };
        let mut moves = Vec::new();
        for (code, tally) in tallies {
            let count = tally.white + tally.draws + tally.black;
            if count == 0 {
                // Played only in games of unknown result, which the explorer does not count.
                continue;
            }
            let Some(mv) = rules.move_of_code(position, code) else {
                return Err(IndexError::Damaged {
                    path: self.dir.clone(),
                    what: format!("position {key} lists a move that is not legal there"),
                });
            };
            explored.white += tally.white;
            explored.draws += tally.draws;
            explored.black += tally.black;
            let game = match (tally.last, count) {
                (Some(id), 1) => {
                    let record = self.record(id)?;
                    Some(self.summary(rules, position, id, &record, code)?)
                }
                _ => None,
            };
            moves.push(MoveStats {
                uci: rules.uci(position, &mv),
                san: rules.move_text(position, &mv),
                white: tally.white,
                draws: tally.draws,
                black: tally.black,
                average_rating: (tally.rated > 0).then(|| (tally.rating_sum / tally.rated) as u32),
                game,
            });
        }
        moves.sort_by(|a, b| b.games().cmp(&a.games()).then_with(|| a.uci.cmp(&b.uci)));
        moves.truncate(limits.moves);
        explored.moves = moves;

        for c in top.best() {
            let record = self.record(c.id)?;
            explored
                .top_games
                .push(self.summary(rules, position, c.id, &record, c.code)?);
        }
        for c in recent.best() {
            let record = self.record(c.id)?;
            explored
                .recent_games
                .push(self.summary(rules, position, c.id, &record, c.code)?);
        }
        Ok(explored)
    }
}

/// A move's counts as the explorer gathers them.
#[derive(Default)]
struct Tally {
    white: u64,
    draws: u64,
    black: u64,
    rating_sum: u64,
    rated: u64,
    /// The highest game counted.
    last: Option<GameId>,
}

/// A game that may be listed among the top games (by its average rating) or the recent
/// ones (by its day), and the first move it played from the position.
#[derive(Clone, Copy)]
struct Candidate {
    value: u32,
    id: GameId,
    code: MoveCode,
}

/// The best games of a list: the highest value first, then the later game. Pruned as it
/// fills, as the start position offers a million games for the ten it lists.
struct Ranking {
    limit: usize,
    candidates: Vec<Candidate>,
}

impl Ranking {
    fn new(limit: usize) -> Ranking {
        Ranking {
            limit,
            candidates: Vec::new(),
        }
    }

    fn push(&mut self, value: u32, id: GameId, code: MoveCode) {
        if self.limit == 0 {
            return;
        }
        self.candidates.push(Candidate { value, id, code });
        if self.candidates.len() >= 4 * self.limit.max(64) {
            self.prune();
        }
    }

    /// Keeps the best `limit`, best first, each game once (with its lowest move).
    fn prune(&mut self) {
        self.candidates
            .sort_unstable_by_key(|c| (std::cmp::Reverse((c.value, c.id)), c.code));
        self.candidates.dedup_by_key(|c| c.id);
        self.candidates.truncate(self.limit);
    }

    fn best(mut self) -> Vec<Candidate> {
        self.prune();
        self.candidates
    }
}

/// A position asked about: its set-up (a FEN, or the variant's start) and moves played
/// from it, and the opening named along the way (chess).
pub struct Asked<P, M> {
    /// The position.
    pub position: P,
    /// The moves played to reach it from the FEN's position (or the start).
    pub moves: Vec<M>,
    /// The deepest opening the table names along the moves.
    pub opening: Option<(String, String)>,
}

/// The position that a FEN (or the start of `variant`) and moves played from it reach.
/// Moves are written as in the game's notation (SAN, PDN) or as [`IndexRules::uci`]
/// writes them, separated by spaces or commas; move numbers are passed over.
///
/// # Errors
/// [`IndexError::Query`] for a FEN that does not set up a position, or a move that is
/// not legal where it is played.
pub fn position_of<R: IndexRules>(
    rules: &R,
    fen: Option<&str>,
    variant: Option<&str>,
    moves: &str,
) -> Result<Asked<R::Position, R::Move>, IndexError> {
    let tags = rules.setup_tags(fen, variant);
    let setup = rules.start_position(&tags).map_err(|e| {
        IndexError::Query(match fen {
            Some(fen) => format!("the FEN {fen:?} does not set up a position: {e}"),
            None => format!("no start position: {e}"),
        })
    })?;
    let mut position = setup.position;
    let mut opening = rules.opening_of(&position);
    let mut played = Vec::new();
    for token in moves
        .split([' ', ',', '\t', '\n'])
        .filter(|t| !t.is_empty())
    {
        let bare = token.trim_end_matches('.');
        if bare.len() < token.len() && bare.chars().all(|c| c.is_ascii_digit()) {
            continue;
        }
        let token = match token.split_once('.') {
            // "1.e4", "12...Nf6": the number glued to the move.
            Some((number, mv)) if number.chars().all(|c| c.is_ascii_digit()) => {
                mv.trim_start_matches('.')
            }
            _ => token,
        };
        let mv = match rules.read_move(&position, token.as_bytes(), MoveContext::default()) {
            Ok((mv, _)) => mv,
            Err(_) => rules
                .move_of_uci(&position, token)
                .ok_or_else(|| IndexError::Query(format!("{token:?} is not a legal move here")))?,
        };
        rules.play(&mut position, &mv);
        played.push(mv);
        if let Some(named) = rules.opening_of(&position) {
            opening = Some(named);
        }
    }
    Ok(Asked {
        position,
        moves: played,
        opening,
    })
}

/// A position as a person or a script asks about it, in the index's own game: a FEN (the
/// start when none), moves played from it, and the variant of a chess FEN or the game type
/// of a draughts one (`crazyhouse`, `russian`, `25`).
#[derive(Clone, Copy, Debug, Default)]
pub struct Question<'a> {
    /// The FEN, or `None` for the start position.
    pub fen: Option<&'a str>,
    /// Moves played from it (see [`position_of`]).
    pub moves: &'a str,
    /// The variant or game type.
    pub variant: Option<&'a str>,
}

/// The explorer's answer to a [`Question`], with the position asked as FEN.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    /// What the explorer says.
    pub explored: Explored,
    /// The position, as FEN.
    pub fen: String,
}

impl Index {
    /// The position a question asks about, in the rules of the index's game, given to
    /// `then` with those rules.
    fn asking<T>(
        &self,
        question: &Question<'_>,
        then: &mut dyn FnMut(&dyn AskedRules) -> Result<T, IndexError>,
    ) -> Result<T, IndexError> {
        match self.game() {
            Game::Chess => then(&(pgn::ChessRules, question)),
            Game::Draughts => {
                let variant = question
                    .variant
                    .map(|v| collection::rules::parse_game_type(v).map(|t| t.to_string()))
                    .transpose()
                    .map_err(IndexError::Query)?;
                let question = Question {
                    variant: variant.as_deref(),
                    ..*question
                };
                then(&(collection::rules::draughts(None), &question))
            }
        }
    }

    /// [`Index::explore`] of the position a question asks about; the opening is the
    /// position's own, else the deepest one named along the question's moves.
    ///
    /// # Errors
    /// A question that does not read ([`IndexError::Query`]), a damaged index.
    pub fn explore_question(
        &self,
        question: &Question<'_>,
        filter: &Filter,
        limits: Limits,
    ) -> Result<Answer, IndexError> {
        self.asking(question, &mut |asked| asked.explore(self, filter, limits))
    }

    /// [`Index::find`] of the position a question asks about.
    ///
    /// # Errors
    /// A question that does not read ([`IndexError::Query`]), a damaged index.
    pub fn find_question(&self, question: &Question<'_>) -> Result<Vec<GameId>, IndexError> {
        self.asking(question, &mut |asked| asked.find(self))
    }
}

/// A question read in a game's rules: what [`Index::asking`] hands on, so that the game is
/// chosen once.
trait AskedRules {
    fn explore(&self, index: &Index, filter: &Filter, limits: Limits)
    -> Result<Answer, IndexError>;
    fn find(&self, index: &Index) -> Result<Vec<GameId>, IndexError>;
}

impl<R: IndexRules> AskedRules for (R, &Question<'_>) {
    fn explore(
        &self,
        index: &Index,
        filter: &Filter,
        limits: Limits,
    ) -> Result<Answer, IndexError> {
        let (rules, question) = self;
        let asked = position_of(rules, question.fen, question.variant, question.moves)?;
        let mut explored = index.explore(rules, &asked.position, filter, limits)?;
        if explored.opening.is_none() {
            explored.opening = asked.opening;
        }
        Ok(Answer {
            explored,
            fen: rules.fen(&asked.position).unwrap_or_default(),
        })
    }

    fn find(&self, index: &Index) -> Result<Vec<GameId>, IndexError> {
        let (rules, question) = self;
        let asked = position_of(rules, question.fen, question.variant, question.moves)?;
        index.find(rules.key(&asked.position))
    }
}
