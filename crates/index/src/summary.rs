//! What the explorer needs of a position that many games reached, computed once when the
//! segment is written, so that asking about it does not read each of its games.
//!
//! A position's games are grouped by cell (month, speed, rating group: the values the
//! explorer filters by); a cell keeps per move the games White won, drew and Black won,
//! the sum of their average ratings and the highest game id counted, and its
//! [`KEPT`] games of the highest average rating and its [`KEPT`] most recent. A query
//! sums the cells its filter lets through and merges their games: the top games over the
//! cells are among the cells' own top games, so the answer is exactly the one the games
//! themselves give (a test holds the two to each other).
//!
//! The same is kept once more over all the position's games (its whole cell, stored
//! apart): the question asked most, with no filter, reads that one alone. The start
//! position of a million lichess games has thousands of cells, whose sum took 7 ms.

use crate::codec::{Cursor, put_varint};
use crate::dims::{Month, RatingGroup, Speed, Winner};
use crate::filter::Filter;
use crate::record::{GameRecord, Posting};
use crate::rules::MoveCode;

/// The games of the highest average rating, and the most recent, that each cell keeps:
/// a query asking for more reads the position's games instead.
pub(crate) const KEPT: usize = 8;

/// What the explorer filters and sorts a game by, packed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) struct Dims {
    /// The month's code, `u16::MAX` when unknown.
    pub month: u16,
    /// The speed's code in the high four bits (15 unknown), the rating group's place in
    /// the low four (15 unknown).
    pub cell: u8,
    /// The winner's code.
    pub winner: u8,
    /// The average rating, 0 when unknown.
    pub average: u16,
    /// The date as `year << 9 | month << 5 | day`, which orders as dates do.
    pub day: u32,
}

impl Dims {
    pub(crate) fn of(record: &GameRecord) -> Dims {
        let speed = record.speed.map_or(15, Speed::code);
        let group = record
            .rating_group()
            .and_then(|g| RatingGroup::BOUNDS.iter().position(|&b| b == g.bound()))
            .map_or(15, |i| i as u8);
        Dims {
            month: record.month.map_or(u16::MAX, Month::code),
            cell: speed << 4 | group,
            winner: record.winner.code(),
            average: record
                .average_rating()
                .and_then(|a| u16::try_from(a).ok())
                .unwrap_or(0),
            day: u32::from(record.day.year) << 9
                | u32::from(record.day.month) << 5
                | u32::from(record.day.day),
        }
    }

    pub(crate) fn average(self) -> Option<u32> {
        (self.average > 0).then_some(u32::from(self.average))
    }

    pub(crate) fn winner(self) -> Winner {
        Winner::from_code(self.winner)
    }

    /// Whether a game of these values passes the filter (all but its player).
    pub(crate) fn passes(self, filter: &Filter) -> bool {
        if filter.since.is_some() || filter.until.is_some() {
            if self.month == u16::MAX {
                return false;
            }
            let month = Month::from_code(self.month);
            if filter.since.is_some_and(|s| month < s) || filter.until.is_some_and(|u| month > u) {
                return false;
            }
        }
        if !filter.ratings.is_empty() {
            let group = RatingGroup::BOUNDS.get(usize::from(self.cell & 15));
            if !group.is_some_and(|&b| filter.ratings.iter().any(|g| g.bound() == b)) {
                return false;
            }
        }
        if !filter.speeds.is_empty() {
            let speed = Speed::from_code(self.cell >> 4);
            if !speed.is_some_and(|s| filter.speeds.contains(&s)) {
                return false;
            }
        }
        true
    }
}

/// A move's tally in a cell.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Row {
    pub code: MoveCode,
    pub white: u64,
    pub draws: u64,
    pub black: u64,
    pub rating_sum: u64,
    pub rated: u64,
    /// The game (in the segment) counted, when the row counts one; 0 otherwise.
    pub last: u32,
}

/// A game kept by a cell: its sort value (average rating or day), its number in the
/// segment, and the first move it played from the position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Kept {
    pub value: u32,
    pub game: u32,
    pub code: MoveCode,
}

/// A cell: the games of one month, speed and rating group.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Cell {
    /// Its values (`winner`, `average` and `day` unused).
    pub dims: Dims,
    pub rows: Vec<Row>,
    pub top: Vec<Kept>,
    pub recent: Vec<Kept>,
}

/// The summary of a position.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Summary {
    /// All its games as one cell (its dims unused).
    pub whole: Cell,
    pub cells: Vec<Cell>,
}

/// A cell's dims that say nothing: those of a whole cell, which mixes every rating group
/// (so its rows' rated counts are written).
const WHOLE: Dims = Dims {
    month: u16::MAX,
    cell: u8::MAX,
    winner: 0,
    average: 0,
    day: 0,
};

impl Cell {
    /// Counts a posting of a game of these dims; `first` when it is the first posting of
    /// its game here (a game that came back to the position plays another move from it).
    fn count(&mut self, posting: Posting, dims: Dims, first: bool) {
        if first {
            if let Some(average) = dims.average() {
                keep(
                    &mut self.top,
                    Kept {
                        value: average,
                        game: posting.game.0,
                        code: posting.code,
                    },
                );
            }
            keep(
                &mut self.recent,
                Kept {
                    value: dims.day,
                    game: posting.game.0,
                    code: posting.code,
                },
            );
        }
        if posting.code == MoveCode::NONE || dims.winner() == Winner::Unknown {
            return;
        }
        let row = match self.rows.iter().position(|r| r.code == posting.code) {
            Some(i) => &mut self.rows[i],
            None => {
                self.rows.push(Row {
                    code: posting.code,
                    white: 0,
                    draws: 0,
                    black: 0,
                    rating_sum: 0,
                    rated: 0,
                    last: 0,
                });
                let last = self.rows.len() - 1;
                &mut self.rows[last]
            }
        };
        match dims.winner() {
            Winner::White => row.white += 1,
            Winner::Draw => row.draws += 1,
            Winner::Black => row.black += 1,
            Winner::Unknown => {}
        }
        if let Some(average) = dims.average() {
            row.rating_sum += u64::from(average);
            row.rated += 1;
        }
        row.last = row.last.max(posting.game.0);
    }

    /// Forgets the game counted by each row that counted more than one.
    fn settle(&mut self) {
        for row in &mut self.rows {
            if row.white + row.draws + row.black != 1 {
                row.last = 0;
            }
        }
    }
}

/// Keeps the best [`KEPT`] of a list sorted best first: by value, then by game, higher
/// first.
fn keep(list: &mut Vec<Kept>, kept: Kept) {
    let better = |a: &Kept, b: &Kept| (a.value, a.game) > (b.value, b.game);
    let at = list
        .iter()
        .position(|k| better(&kept, k))
        .unwrap_or(list.len());
    if at < KEPT {
        list.insert(at, kept);
        list.truncate(KEPT);
    }
}

impl Summary {
    /// The summary of a position's postings (sorted by game, then move), each with its
    /// game's values.
    pub(crate) fn of(postings: &[(Posting, Dims)]) -> Summary {
        let mut cells: std::collections::BTreeMap<(u16, u8), Cell> = Default::default();
        let mut whole = Cell {
            dims: WHOLE,
            ..Cell::default()
        };
        let mut previous = None;
        for &(posting, dims) in postings {
            let cell = cells
                .entry((dims.month, dims.cell))
                .or_insert_with(|| Cell {
                    dims: Dims {
                        month: dims.month,
                        cell: dims.cell,
                        ..Dims::default()
                    },
                    ..Cell::default()
                });
            let first = previous != Some(posting.game);
            previous = Some(posting.game);
            cell.count(posting, dims, first);
            whole.count(posting, dims, first);
        }
        whole.settle();
        cells.values_mut().for_each(Cell::settle);
        Summary {
            whole,
            cells: cells.into_values().collect(),
        }
    }

    /// Appends the summary's cells: their count, then each as [`Cell::encode`] writes it.
    /// The whole cell is not among them: it is stored apart.
    pub(crate) fn encode(&self, out: &mut Vec<u8>) {
        put_varint(out, self.cells.len() as u64);
        for cell in &self.cells {
            cell.encode(out);
        }
    }

    /// What [`Summary::encode`] wrote, and [`Cell::encode`] of the whole cell; `None`
    /// when the bytes do not read.
    #[cfg(test)]
    pub(crate) fn decode(bytes: &[u8], whole: &[u8]) -> Option<Summary> {
        let mut summary = Summary::default();
        Summary::read_whole(whole, |whole| summary.whole = whole.clone())?;
        Summary::read_cells(bytes, |cell| summary.cells.push(cell.clone()))?;
        Some(summary)
    }

    /// Reads the cells [`Summary::encode`] wrote one by one, each into the same buffers (a
    /// position that most games reached has thousands of cells: the explorer sums them
    /// as they are read, with no list made of each), and gives each to `each`; `None` when
    /// the bytes do not read (the cells before the fault were given).
    pub(crate) fn read_cells(bytes: &[u8], mut each: impl FnMut(&Cell)) -> Option<()> {
        let mut c = Cursor::new(bytes);
        let mut cell = Cell::default();
        let cells = c.varint()?;
        for _ in 0..cells {
            cell.read(&mut c)?;
            each(&cell);
        }
        c.is_empty().then_some(())
    }

    /// Reads the whole cell, all the position's games as one, that [`Cell::encode`]
    /// wrote, and gives it to `each`; `None` when it does not read.
    pub(crate) fn read_whole(bytes: &[u8], each: impl FnOnce(&Cell)) -> Option<()> {
        let mut whole = Cell::default();
        let mut c = Cursor::new(bytes);
        whole.read(&mut c)?;
        c.is_empty().then_some(())?;
        each(&whole);
        Some(())
    }
}

impl Cell {
    /// Appends the cell. A row keeps its rating sum only where it has one, how many
    /// games it rated only where that is not its count (every game of a known rating group
    /// is rated, none of an unknown one), and its last game only where it counted one (the
    /// explorer shows the game of a move played once); flags in the low bits of the move's
    /// code say which. A top game that is also a recent one is written as its place among
    /// the recent ones and its average.
    pub(crate) fn encode(&self, out: &mut Vec<u8>) {
        put_varint(out, u64::from(self.dims.month));
        out.push(self.dims.cell);
        put_varint(out, self.rows.len() as u64);
        let known = self.dims.cell & 15 != 15;
        for row in &self.rows {
            let count = row.white + row.draws + row.black;
            let implied = if known { count } else { 0 };
            let flags = u64::from(row.rating_sum != 0)
                | u64::from(row.rated != implied) << 1
                | u64::from(count == 1) << 2;
            put_varint(out, u64::from(row.code.0) << 3 | flags);
            for v in [row.white, row.draws, row.black] {
                put_varint(out, v);
            }
            if flags & 1 != 0 {
                put_varint(out, row.rating_sum);
            }
            if flags & 2 != 0 {
                put_varint(out, row.rated);
            }
            if flags & 4 != 0 {
                put_varint(out, u64::from(row.last));
            }
        }
        put_varint(out, self.recent.len() as u64);
        for kept in &self.recent {
            put_varint(out, u64::from(kept.value));
            put_varint(out, u64::from(kept.game));
            put_varint(out, u64::from(kept.code.0));
        }
        put_varint(out, self.top.len() as u64);
        for kept in &self.top {
            match self
                .recent
                .iter()
                .position(|r| r.game == kept.game && r.code == kept.code)
            {
                Some(i) => put_varint(out, i as u64 + 1),
                None => {
                    put_varint(out, 0);
                    put_varint(out, u64::from(kept.game));
                    put_varint(out, u64::from(kept.code.0));
                }
            }
            put_varint(out, u64::from(kept.value));
        }
    }

    /// Reads a cell that [`Cell::encode`] wrote into `self`, its lists' buffers reused.
    fn read(&mut self, c: &mut Cursor<'_>) -> Option<()> {
        let u32_of = |v: u64| u32::try_from(v).ok();
        let u16_of = |v: u64| u16::try_from(v).ok();
        self.dims = Dims {
            month: u16_of(c.varint()?)?,
            cell: c.u8()?,
            ..Dims::default()
        };
        self.rows.clear();
        self.recent.clear();
        self.top.clear();
        let known = self.dims.cell & 15 != 15;
        let rows = c.varint()?;
        for _ in 0..rows {
            let first = c.varint()?;
            let flags = first & 7;
            let (white, draws, black) = (c.varint()?, c.varint()?, c.varint()?);
            let count = white.checked_add(draws)?.checked_add(black)?;
            self.rows.push(Row {
                code: MoveCode(u16_of(first >> 3)?),
                white,
                draws,
                black,
                rating_sum: if flags & 1 != 0 { c.varint()? } else { 0 },
                rated: match (flags & 2 != 0, known) {
                    (true, _) => c.varint()?,
                    (false, true) => count,
                    (false, false) => 0,
                },
                last: if flags & 4 != 0 {
                    u32_of(c.varint()?)?
                } else {
                    0
                },
            });
        }
        let count = c.varint()?;
        if count > KEPT as u64 {
            return None;
        }
        for _ in 0..count {
            self.recent.push(Kept {
                value: u32_of(c.varint()?)?,
                game: u32_of(c.varint()?)?,
                code: MoveCode(u16_of(c.varint()?)?),
            });
        }
        let count = c.varint()?;
        if count > KEPT as u64 {
            return None;
        }
        for _ in 0..count {
            let (game, code) = match c.varint()? {
                0 => (u32_of(c.varint()?)?, MoveCode(u16_of(c.varint()?)?)),
                i => {
                    let recent = self.recent.get(usize::try_from(i - 1).ok()?)?;
                    (recent.game, recent.code)
                }
            };
            self.top.push(Kept {
                value: u32_of(c.varint()?)?,
                game,
                code,
            });
        }
        Some(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::GameId;

    #[test]
    fn a_summary_round_trips_and_keeps_the_best_games() {
        let dims = |average, day, winner| Dims {
            month: 24_300,
            cell: 2 << 4 | 4,
            winner,
            average,
            day,
        };
        let posting = |game, code| Posting {
            game: GameId(game),
            code: MoveCode(code),
        };
        let mut postings = Vec::new();
        for game in 0..20_u32 {
            postings.push((
                posting(game, 5),
                dims(1500 + game as u16 % 7, game * 3 % 11, (game % 3) as u8),
            ));
        }
        postings.push((posting(20, MoveCode::NONE.0), dims(0, 99, 3)));
        // A move played once, by a game of unknown ratings: its own cell.
        let unrated = Dims {
            cell: 2 << 4 | 15,
            ..dims(0, 50, 1)
        };
        postings.push((posting(21, 9), unrated));
        let summary = Summary::of(&postings);
        assert_eq!(summary.cells.len(), 2);
        let once = &summary.cells[1].rows[0];
        assert_eq!((once.white + once.draws + once.black, once.last), (1, 21));
        assert_eq!((once.rating_sum, once.rated), (0, 0));
        let cell = &summary.cells[0];
        assert_eq!(cell.rows.len(), 1);
        let row = &cell.rows[0];
        assert_eq!(row.white + row.draws + row.black, 20);
        assert_eq!(row.rated, 20);
        // The game counted is kept for a move played once only.
        assert_eq!(row.last, 0);
        // The best averages (1506 for games 6 and 13, then 1505 …), ties by the later game.
        let top: Vec<u32> = cell.top.iter().map(|k| k.game).collect();
        assert_eq!(top, [13, 6, 19, 12, 5, 18, 11, 4]);
        // The most recent: game 20 (day 99) first, though it played no move from here.
        assert_eq!(cell.recent[0].game, 20);
        // The whole cell: both cells' rows, its games the best of both.
        let whole = &summary.whole;
        assert_eq!(whole.rows.len(), 2);
        assert_eq!((whole.rows[1].code, whole.rows[1].last), (MoveCode(9), 21));
        assert_eq!((whole.rows[0].rated, whole.rows[0].last), (20, 0));
        assert_eq!(whole.top, cell.top);
        let recent: Vec<u32> = whole.recent.iter().map(|k| k.game).collect();
        assert_eq!(recent[..2], [20, 21]);
        let (mut bytes, mut whole) = (Vec::new(), Vec::new());
        summary.encode(&mut bytes);
        summary.whole.encode(&mut whole);
        assert_eq!(Summary::decode(&bytes, &whole), Some(summary));
        assert_eq!(Summary::decode(&bytes[..bytes.len() - 1], &whole), None);
        assert_eq!(Summary::decode(&bytes, &whole[..whole.len() - 1]), None);
        // The round trip went through top games written as their place among the recent
        // ones, and others written whole.
        let cell = &Summary::of(&postings).cells[0];
        let recent = |t: &&Kept| cell.recent.iter().any(|r| r.game == t.game);
        assert!(cell.top.iter().any(|t| recent(&t)) && !cell.top.iter().all(|t| recent(&t)));
    }
}
