//! The games of an index as a list people search, a page at a time: by player, event,
//! site, opening and ECO, date, result, rating, variant and length, sorted as indexed, by
//! date or by rating (what `notate serve`'s game list asks).
//!
//! [`Catalogue::load`] reads every game's record once into memory (some 64 bytes a game:
//! its row, its place in the orders by date and by rating, and in its players' games;
//! each segment's players and labels once). A search finds the games it keeps and counts them in
//! one pass in the rows' own order (over a player's games alone when the players asked
//! for have few), then walks the order asked only as far as the page: no sort and no store
//! read but for the page's own games. Texts match as `notate select --player` matches
//! them: contained, ignoring case and accents; each text of a segment is tested once per
//! search, not once per game.

use collection::fold::{contains_folded, fold};

use crate::dims::Winner;
use crate::error::IndexError;
use crate::query::{GameRef, Index, PlayerSummary};
use crate::record::{Day, Eco, GameId, GameRecord};

/// Texts numbered from 0, in one buffer.
#[derive(Default)]
struct Texts {
    text: String,
    ends: Vec<usize>,
    /// The texts that are not ASCII, folded once (by id, ascending): a search then
    /// folds none.
    folded: Vec<(u32, Box<str>)>,
}

impl Texts {
    fn of(texts: Vec<String>) -> Texts {
        let mut all = Texts::default();
        for (id, t) in texts.into_iter().enumerate() {
            if !t.is_ascii() {
                all.folded.push((id as u32, fold(&t).into_boxed_str()));
            }
            all.text.push_str(&t);
            all.ends.push(all.text.len());
        }
        all
    }

    fn get(&self, id: u32) -> &str {
        let i = id as usize;
        let Some(&end) = self.ends.get(i) else {
            return "";
        };
        let start = if i == 0 { 0 } else { self.ends[i - 1] };
        &self.text[start..end]
    }

    fn len(&self) -> usize {
        self.ends.len()
    }

    /// Which texts contain `needle` (folded), by id.
    fn containing(&self, needle: &str) -> Vec<bool> {
        let mut folded = self.folded.iter().peekable();
        (0..self.len() as u32)
            .map(|id| match folded.next_if(|(f, _)| *f == id) {
                Some((_, text)) => text.contains(needle),
                None => contains_folded(self.get(id), needle),
            })
            .collect()
    }
}

/// One segment's players and labels, and each player's games.
struct SegmentTexts {
    players: Texts,
    labels: Texts,
    /// The games of player `p` (either colour, by id, ascending) are
    /// `games_of_players[starts[p]..starts[p + 1]]`.
    starts: Vec<u32>,
    games_of_players: Vec<u32>,
}

impl SegmentTexts {
    /// Lists each player's games, from the segment's rows.
    fn list_games(&mut self, rows: &[Row], first: usize) {
        let players = self.players.len();
        let mut starts = vec![0u32; players + 1];
        let each = |row: &Row| {
            let (w, b) = (row.white as usize, row.black as usize);
            [Some(w), (b != w).then_some(b)]
                .into_iter()
                .flatten()
                .filter(move |&p| p < players)
        };
        for row in rows {
            for p in each(row) {
                starts[p + 1] += 1;
            }
        }
        for p in 0..players {
            starts[p + 1] += starts[p];
        }
        let mut filled = starts.clone();
        let mut games = vec![0u32; starts[players] as usize];
        for (i, row) in rows.iter().enumerate() {
            for p in each(row) {
                games[filled[p] as usize] = (first + i) as u32;
                filled[p] += 1;
            }
        }
        self.starts = starts;
        self.games_of_players = games;
    }

    fn games_of(&self, player: usize) -> &[u32] {
        match (self.starts.get(player), self.starts.get(player + 1)) {
            (Some(&a), Some(&b)) => self
                .games_of_players
                .get(a as usize..b as usize)
                .unwrap_or(&[]),
            _ => &[],
        }
    }
}

/// A game as the list needs it.
#[derive(Clone, Copy)]
struct Row {
    segment: u16,
    white: u32,
    black: u32,
    event: u32,
    site: u32,
    opening: u32,
    kind: u32,
    white_rating: Option<u16>,
    black_rating: Option<u16>,
    day: Day,
    plies: u32,
    eco: Option<Eco>,
    winner: Winner,
}

impl Row {
    fn average_rating(&self) -> u32 {
        match (self.white_rating, self.black_rating) {
            (Some(w), Some(b)) => (u32::from(w) + u32::from(b)) / 2,
            _ => 0,
        }
    }
}

/// The order of a list.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Sort {
    /// As the games were indexed.
    #[default]
    Indexed,
    /// By date played (an unknown part of a date before any known one), then as indexed.
    Date,
    /// By the average of both ratings (a game without both first), then as indexed.
    Rating,
}

/// What a list asks: every criterion given must hold.
#[derive(Clone, Debug, Default)]
pub struct GameSearch {
    /// White or Black contains this, ignoring case and accents (as `select --player`).
    pub player: Option<String>,
    /// White contains this.
    pub white: Option<String>,
    /// Black contains this.
    pub black: Option<String>,
    /// The `Event` tag contains this.
    pub event: Option<String>,
    /// The `Site` tag contains this.
    pub site: Option<String>,
    /// The `Opening` tag contains this.
    pub opening: Option<String>,
    /// The `ECO` tag is a code in this range (both ends included).
    pub eco: Option<(Eco, Eco)>,
    /// Played on this day or after (a part left 0 is any).
    pub since: Option<Day>,
    /// Played on this day or before (a part left 0 is any).
    pub until: Option<Day>,
    /// Who won.
    pub winner: Option<Winner>,
    /// The average of both ratings is in this range (both ends included; a game without
    /// both ratings does not pass).
    pub ratings: Option<(u16, u16)>,
    /// The ruleset or game type, in any case (`chess`, `chess960`, `international`…).
    pub variant: Option<String>,
    /// Plies of the main line in this range (both ends included).
    pub plies: Option<(u32, u32)>,
    /// Only these games (those that reached a position: [`Index::find`]), ascending.
    pub games: Option<Vec<GameId>>,
    /// The order.
    pub sort: Sort,
    /// Whether the order is reversed (the newest, or the highest rated, first; games of
    /// one date or rating then come last indexed first).
    pub descending: bool,
}

impl GameSearch {
    /// Whether any criterion beyond the games given is asked.
    fn has_criteria(&self) -> bool {
        let GameSearch {
            player,
            white,
            black,
            event,
            site,
            opening,
            eco,
            since,
            until,
            winner,
            ratings,
            variant,
            plies,
            games: _,
            sort: _,
            descending: _,
        } = self;
        player.is_some()
            || white.is_some()
            || black.is_some()
            || event.is_some()
            || site.is_some()
            || opening.is_some()
            || eco.is_some()
            || since.is_some()
            || until.is_some()
            || winner.is_some()
            || ratings.is_some()
            || variant.is_some()
            || plies.is_some()
    }
}

/// A game as the list shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Listed {
    /// Its id in the index.
    pub id: GameId,
    /// White.
    pub white: PlayerSummary,
    /// Black.
    pub black: PlayerSummary,
    /// Who won.
    pub winner: Winner,
    /// Its `Event` tag ("" when it has none).
    pub event: String,
    /// Its `Site` tag.
    pub site: String,
    /// Its `Opening` tag.
    pub opening: String,
    /// Its ECO code.
    pub eco: Option<Eco>,
    /// When it was played.
    pub day: Day,
    /// The plies of its main line.
    pub plies: u32,
    /// Its ruleset or game type ("" when unknown).
    pub variant: String,
    /// Where it is.
    pub reference: GameRef,
}

/// A page of a list, and how many games the whole list holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ListPage {
    /// The games that match.
    pub count: u64,
    /// Those of the page asked.
    pub games: Vec<Listed>,
}

/// The games of an index, in memory, ready to be searched.
pub struct Catalogue {
    rows: Vec<Row>,
    segments: Vec<SegmentTexts>,
    by_date: Vec<u32>,
    by_rating: Vec<u32>,
}

/// The criteria on texts, answered for each text of one segment.
struct Matching {
    player: Option<Vec<bool>>,
    white: Option<Vec<bool>>,
    black: Option<Vec<bool>>,
    event: Option<Vec<bool>>,
    site: Option<Vec<bool>>,
    opening: Option<Vec<bool>>,
    variant: Option<Vec<bool>>,
}

fn has(set: &Option<Vec<bool>>, id: u32) -> bool {
    set.as_ref()
        .is_none_or(|s| s.get(id as usize).copied().unwrap_or(false))
}

impl Catalogue {
    /// Reads every game of the index.
    ///
    /// # Errors
    /// A damaged index.
    pub fn load(index: &Index) -> Result<Catalogue, IndexError> {
        let mut rows = Vec::with_capacity(usize::try_from(index.games()).unwrap_or(0));
        let mut segments = Vec::new();
        for (number, segment) in index.segments().iter().enumerate() {
            let number = u16::try_from(number)
                .map_err(|_| IndexError::Input("an index of more than 65,535 segments".into()))?;
            let first = rows.len();
            let mut texts = SegmentTexts {
                players: Texts::of(segment.player_names()?),
                labels: Texts::of(segment.label_texts()?),
                starts: Vec::new(),
                games_of_players: Vec::new(),
            };
            let mut wrong = None;
            segment.each_record(|id, record: GameRecord| {
                if id.0 as usize != rows.len() && wrong.is_none() {
                    wrong = Some(id);
                }
                rows.push(Row {
                    segment: number,
                    white: record.white.0,
                    black: record.black.0,
                    event: record.event.0,
                    site: record.site.0,
                    opening: record.opening.0,
                    kind: record.kind.0,
                    white_rating: record.white_rating,
                    black_rating: record.black_rating,
                    day: record.day,
                    plies: record.plies,
                    eco: record.eco,
                    winner: record.winner,
                });
            })?;
            if let Some(id) = wrong {
                return Err(IndexError::Damaged {
                    path: index.dir().to_owned(),
                    what: format!("game {} is out of its place", id.0),
                });
            }
            texts.list_games(&rows[first..], first);
            segments.push(texts);
        }
        let ids = || (0..rows.len() as u32).collect::<Vec<u32>>();
        let mut by_date = ids();
        by_date.sort_by_key(|&i| rows[i as usize].day);
        let mut by_rating = ids();
        by_rating.sort_by_key(|&i| rows[i as usize].average_rating());
        Ok(Catalogue {
            rows,
            segments,
            by_date,
            by_rating,
        })
    }

    /// The number of games.
    pub fn len(&self) -> usize {
        self.rows.len()
    }

    /// Whether it holds no game.
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// The games that match, in the order asked: how many, and `limit` of them from
    /// `offset`.
    ///
    /// # Errors
    /// A damaged index (the page's games are read from it).
    pub fn search(
        &self,
        index: &Index,
        search: &GameSearch,
        offset: u64,
        limit: usize,
    ) -> Result<ListPage, IndexError> {
        let folded = |s: &Option<String>| s.as_deref().map(|s| fold(s.trim()));
        let (player, white, black) = (
            folded(&search.player),
            folded(&search.white),
            folded(&search.black),
        );
        let (event, site, opening) = (
            folded(&search.event),
            folded(&search.site),
            folded(&search.opening),
        );
        let variant = search.variant.as_deref().map(str::trim);
        let matching: Vec<Matching> = self
            .segments
            .iter()
            .map(|s| {
                let players = |n: &Option<String>| n.as_deref().map(|n| s.players.containing(n));
                let labels = |n: &Option<String>| n.as_deref().map(|n| s.labels.containing(n));
                Matching {
                    player: players(&player),
                    white: players(&white),
                    black: players(&black),
                    event: labels(&event),
                    site: labels(&site),
                    opening: labels(&opening),
                    variant: variant.map(|v| {
                        (0..s.labels.len() as u32)
                            .map(|id| s.labels.get(id).eq_ignore_ascii_case(v))
                            .collect()
                    }),
                }
            })
            .collect();
        let until = search.until.map(|d| Day {
            year: d.year,
            month: if d.month == 0 { u8::MAX } else { d.month },
            day: if d.day == 0 { u8::MAX } else { d.day },
        });
        let passes = |i: u32| -> bool {
            let Some(row) = self.rows.get(i as usize) else {
                return false;
            };
            let m = &matching[usize::from(row.segment)];
            (search.winner.is_none_or(|w| row.winner == w))
                && search
                    .plies
                    .is_none_or(|(lo, hi)| (lo..=hi).contains(&row.plies))
                && search.ratings.is_none_or(|(lo, hi)| {
                    row.white_rating.is_some()
                        && row.black_rating.is_some()
                        && (u32::from(lo)..=u32::from(hi)).contains(&row.average_rating())
                })
                && search
                    .eco
                    .is_none_or(|(lo, hi)| row.eco.is_some_and(|e| lo <= e && e <= hi))
                && (search.since.is_none() && until.is_none() || row.day.year != 0)
                && search.since.is_none_or(|since| row.day >= since)
                && until.is_none_or(|until| row.day <= until)
                && (m.player.is_none() || has(&m.player, row.white) || has(&m.player, row.black))
                && has(&m.white, row.white)
                && has(&m.black, row.black)
                && has(&m.event, row.event)
                && has(&m.site, row.site)
                && has(&m.opening, row.opening)
                && has(&m.variant, row.kind)
        };
        let n = self.rows.len();
        // The games given (those of a position), ascending, each once.
        let given: Option<Vec<u32>> = search.games.as_ref().map(|games| {
            let mut ids: Vec<u32> = games
                .iter()
                .map(|g| g.0)
                .filter(|&i| (i as usize) < n)
                .collect();
            ids.sort_unstable();
            ids.dedup();
            ids
        });
        // The games of the players asked for, through each player's games, when they are
        // few enough that this beats a pass over all.
        let of_players: Option<Vec<u32>> = {
            let asked: Vec<Option<&Vec<bool>>> = matching
                .iter()
                .map(|m| m.player.as_ref().or(m.white.as_ref()).or(m.black.as_ref()))
                .collect();
            let players = |each: &mut dyn FnMut(&[u32])| {
                for (texts, asked) in self.segments.iter().zip(&asked) {
                    let Some(asked) = asked else { continue };
                    for (p, _) in asked.iter().enumerate().filter(|&(_, &yes)| yes) {
                        each(texts.games_of(p));
                    }
                }
            };
            let mut total = 0;
            players(&mut |games| total += games.len());
            (asked.iter().any(Option::is_some) && total.saturating_mul(4) <= n).then(|| {
                let mut ids = Vec::with_capacity(total);
                players(&mut |games| ids.extend_from_slice(games));
                ids.sort_unstable();
                ids.dedup();
                ids
            })
        };
        let candidates = match (given, of_players) {
            (Some(a), Some(b)) => Some(intersection(&a, &b)),
            (a, b) => a.or(b),
        };
        // Which games are kept, as bits by id (`None`: all), and how many: one pass in
        // the order of the rows in memory, so that a search costs one sequential read of
        // them whatever the order asked.
        let (kept, count) = if search.has_criteria() {
            let mut bits = vec![0u64; n.div_ceil(64)];
            let mut count = 0u64;
            let mut test = |i: u32| {
                if passes(i) {
                    bits[i as usize / 64] |= 1 << (i % 64);
                    count += 1;
                }
            };
            match &candidates {
                Some(ids) => ids.iter().copied().for_each(&mut test),
                None => (0..n as u32).for_each(&mut test),
            }
            (Some(bits), count)
        } else if let Some(ids) = &candidates {
            let mut bits = vec![0u64; n.div_ceil(64)];
            for &i in ids {
                bits[i as usize / 64] |= 1 << (i % 64);
            }
            (Some(bits), ids.len() as u64)
        } else {
            (None, n as u64)
        };
        let is_kept = |i: u32| {
            kept.as_ref()
                .is_none_or(|bits| bits[i as usize / 64] & (1 << (i % 64)) != 0)
        };
        let offset = usize::try_from(offset).unwrap_or(usize::MAX);
        let page = |order: &mut dyn Iterator<Item = u32>| -> Vec<u32> {
            if kept.is_none() {
                order.skip(offset).take(limit).collect()
            } else {
                order
                    .filter(|&i| is_kept(i))
                    .skip(offset)
                    .take(limit)
                    .collect()
            }
        };
        let picked = match (&candidates, search.sort) {
            // A few games: sorted themselves (stably: games of one date or rating
            // stay as indexed) rather than found along the order of all.
            (Some(ids), sort) if sort == Sort::Indexed || ids.len().saturating_mul(8) < n => {
                let mut ids = ids.clone();
                match sort {
                    Sort::Indexed => {}
                    Sort::Date => ids.sort_by_key(|&i| self.rows[i as usize].day),
                    Sort::Rating => ids.sort_by_key(|&i| self.rows[i as usize].average_rating()),
                }
                page(&mut in_order(&ids, search.descending))
            }
            (_, Sort::Indexed) if search.descending => page(&mut (0..n as u32).rev()),
            (_, Sort::Indexed) => page(&mut (0..n as u32)),
            (_, Sort::Date) => page(&mut in_order(&self.by_date, search.descending)),
            (_, Sort::Rating) => page(&mut in_order(&self.by_rating, search.descending)),
        };
        let games = picked
            .into_iter()
            .map(|i| self.listed(index, GameId(i)))
            .collect::<Result<_, _>>()?;
        Ok(ListPage { count, games })
    }

    /// A game as the list shows it.
    ///
    /// # Errors
    /// A game the index does not hold, a damaged index.
    pub fn listed(&self, index: &Index, id: GameId) -> Result<Listed, IndexError> {
        let row = *self
            .rows
            .get(id.0 as usize)
            .ok_or_else(|| IndexError::Query(format!("no game {}", id.0)))?;
        let texts = &self.segments[usize::from(row.segment)];
        let record = index.record(id)?;
        let label = |l: u32| texts.labels.get(l).to_owned();
        Ok(Listed {
            id,
            white: PlayerSummary {
                name: texts.players.get(row.white).to_owned(),
                rating: row.white_rating,
            },
            black: PlayerSummary {
                name: texts.players.get(row.black).to_owned(),
                rating: row.black_rating,
            },
            winner: row.winner,
            event: label(row.event),
            site: label(row.site),
            opening: label(row.opening),
            eco: row.eco,
            day: row.day,
            plies: row.plies,
            variant: label(row.kind),
            reference: index.reference(&record),
        })
    }
}

/// The ids in both ascending lists.
fn intersection(a: &[u32], b: &[u32]) -> Vec<u32> {
    let (small, large) = if a.len() <= b.len() { (a, b) } else { (b, a) };
    small
        .iter()
        .copied()
        .filter(|i| large.binary_search(i).is_ok())
        .collect()
}

/// The ids in order, or in reverse order (games of one date or rating then come last
/// indexed first).
fn in_order(ids: &[u32], descending: bool) -> Box<dyn Iterator<Item = u32> + '_> {
    if descending {
        Box::new(ids.iter().rev().copied())
    } else {
        Box::new(ids.iter().copied())
    }
}
