//! The games of an index as a list people search, a page at a time: by player, event,
//! site, opening and ECO, date, result, rating, variant and length, sorted as indexed, by
//! date or by rating (what `notate serve`'s game list asks).
//!
//! [`Catalogue::load`] reads every game's record once into memory (some 40 bytes a game,
//! and each segment's players and labels once), with the orders by date and by rating; a
//! search is then one pass over the games in the order asked, no store read but for the
//! page's own games. Texts match as `notate select --player` matches them: contained,
//! ignoring case and accents; each text of a segment is tested once per search, not once
//! per game.

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
}

impl Texts {
    fn of(texts: Vec<String>) -> Texts {
        let mut all = Texts::default();
        for t in texts {
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
        (0..self.len() as u32)
            .map(|id| contains_folded(self.get(id), needle))
            .collect()
    }
}

/// One segment's players and labels.
struct SegmentTexts {
    players: Texts,
    labels: Texts,
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
            segments.push(SegmentTexts {
                players: Texts::of(segment.player_names()?),
                labels: Texts::of(segment.label_texts()?),
            });
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
        let mut picked = Vec::new();
        let mut count = 0u64;
        let mut take = |i: u32| {
            if passes(i) {
                if count >= offset && picked.len() < limit {
                    picked.push(i);
                }
                count += 1;
            }
        };
        match &search.games {
            Some(games) => {
                let mut ids: Vec<u32> = games.iter().map(|g| g.0).collect();
                ids.sort_unstable();
                ids.dedup();
                // Sorted stably: games of the same date or rating stay as indexed.
                match search.sort {
                    Sort::Indexed => {}
                    Sort::Date => ids.sort_by_key(|&i| self.rows.get(i as usize).map(|r| r.day)),
                    Sort::Rating => {
                        ids.sort_by_key(|&i| self.rows.get(i as usize).map(Row::average_rating))
                    }
                }
                each_in(&ids, search.descending, &mut take);
            }
            None => match search.sort {
                Sort::Indexed => {
                    let n = self.rows.len() as u32;
                    if search.descending {
                        (0..n).rev().for_each(&mut take);
                    } else {
                        (0..n).for_each(&mut take);
                    }
                }
                Sort::Date => each_in(&self.by_date, search.descending, &mut take),
                Sort::Rating => each_in(&self.by_rating, search.descending, &mut take),
            },
        }
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

/// Calls `each` with the ids in order, or in reverse order (games of one date or rating
/// then come last indexed first).
fn each_in(ids: &[u32], descending: bool, each: &mut impl FnMut(u32)) {
    if descending {
        ids.iter().rev().copied().for_each(each);
    } else {
        ids.iter().copied().for_each(each);
    }
}
