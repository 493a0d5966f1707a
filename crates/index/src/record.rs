//! What the index keeps of each game: where it is, who played it, when, at what speed and
//! ratings, and how it ended. Enough to filter and list it without reading it again.

use notation::{GameResult, Tags};

use crate::codec::Cursor;
use crate::dims::{Month, RatingGroup, Speed, Winner, month_of};
use crate::rules::MoveCode;

/// The number of a game in an index: its order among the games indexed, from 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct GameId(pub u32);

/// A game reached a position and played a move from it (or none: it ended there).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Posting {
    /// The game.
    pub game: GameId,
    /// The move it played, [`MoveCode::NONE`] if it ended there.
    pub code: MoveCode,
}

/// A player's number within one segment of an index.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PlayerId(pub u32);

/// A calendar date with each part possibly unknown, packed as `notation`'s
/// [`Date`](notation::Date) reads it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Day {
    /// The year, 0 when unknown.
    pub year: u16,
    /// The month, 1 to 12, 0 when unknown.
    pub month: u8,
    /// The day, 1 to 31, 0 when unknown.
    pub day: u8,
}

impl Day {
    /// The date of a game: `UTCDate` where it has a year, else `Date`.
    pub fn of(tags: &Tags) -> Day {
        ["UTCDate", "Date"]
            .into_iter()
            .find_map(|name| {
                let date = tags.date(name)?.ok()?;
                Some(Day {
                    year: date.year?,
                    month: date.month.unwrap_or(0),
                    day: date.day.unwrap_or(0),
                })
            })
            .unwrap_or_default()
    }

    /// As PGN writes a date: `2024.05.01`, `????` and `??` for what is unknown.
    pub fn to_pgn(self) -> String {
        let part = |v: u16, width: usize| {
            if v == 0 {
                "?".repeat(width)
            } else {
                format!("{v:0width$}")
            }
        };
        format!(
            "{}.{}.{}",
            part(self.year, 4),
            part(u16::from(self.month), 2),
            part(u16::from(self.day), 2)
        )
    }
}

/// A game as the index keeps it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// The input file it was read from: its number in the index's list of inputs.
    pub source: u32,
    /// Its number in that file, from 0.
    pub number: u64,
    /// Where its text starts in the file (in the text, after any decompression).
    pub offset: u64,
    /// White (the first player).
    pub white: PlayerId,
    /// Black (the second player).
    pub black: PlayerId,
    /// White's rating, when the tags give one.
    pub white_rating: Option<u16>,
    /// Black's rating, when the tags give one.
    pub black_rating: Option<u16>,
    /// When it was played.
    pub day: Day,
    /// The month it is filtered by (`UTCDate`, else `Date`).
    pub month: Option<Month>,
    /// Its speed, from `TimeControl`.
    pub speed: Option<Speed>,
    /// Who won.
    pub winner: Winner,
    /// Whether the game was rated, when its `Event` says (lichess: `Rated Blitz game`,
    /// `Casual …`); `None` when it does not.
    pub rated: Option<bool>,
}

/// The size of a record as stored.
pub(crate) const RECORD_BYTES: usize = 4 + 8 + 8 + 4 + 4 + 2 + 2 + 4 + 2 + 1 + 1 + 1;

const NONE_U16: u16 = u16::MAX;
const NONE_U8: u8 = u8::MAX;

impl GameRecord {
    /// The rating group of the game (the average of both ratings), when both are known.
    pub fn rating_group(&self) -> Option<RatingGroup> {
        RatingGroup::of_ratings(self.white_rating, self.black_rating)
    }

    /// The average of both ratings, when both are known.
    pub fn average_rating(&self) -> Option<u32> {
        Some((u32::from(self.white_rating?) + u32::from(self.black_rating?)) / 2)
    }

    pub(crate) fn encode(&self, out: &mut Vec<u8>) {
        out.reserve(RECORD_BYTES);
        out.extend_from_slice(&self.source.to_be_bytes());
        out.extend_from_slice(&self.number.to_be_bytes());
        out.extend_from_slice(&self.offset.to_be_bytes());
        out.extend_from_slice(&self.white.0.to_be_bytes());
        out.extend_from_slice(&self.black.0.to_be_bytes());
        out.extend_from_slice(&self.white_rating.unwrap_or(NONE_U16).to_be_bytes());
        out.extend_from_slice(&self.black_rating.unwrap_or(NONE_U16).to_be_bytes());
        out.extend_from_slice(&self.day.year.to_be_bytes());
        out.push(self.day.month);
        out.push(self.day.day);
        out.extend_from_slice(&self.month.map_or(NONE_U16, Month::code).to_be_bytes());
        out.push(self.speed.map_or(NONE_U8, Speed::code));
        out.push(self.winner.code());
        out.push(match self.rated {
            None => NONE_U8,
            Some(rated) => u8::from(rated),
        });
    }

    pub(crate) fn decode(bytes: &[u8]) -> Option<GameRecord> {
        let mut c = Cursor::new(bytes);
        let optional = |v: u16| (v != NONE_U16).then_some(v);
        let record = GameRecord {
            source: c.u32()?,
            number: c.u64()?,
            offset: c.u64()?,
            white: PlayerId(c.u32()?),
            black: PlayerId(c.u32()?),
            white_rating: optional(c.u16()?),
            black_rating: optional(c.u16()?),
            day: Day {
                year: c.u16()?,
                month: c.u8()?,
                day: c.u8()?,
            },
            month: optional(c.u16()?).map(Month::from_code),
            speed: match c.u8()? {
                NONE_U8 => None,
                code => Some(Speed::from_code(code)?),
            },
            winner: Winner::from_code(c.u8()?),
            rated: match c.u8()? {
                NONE_U8 => None,
                flag => Some(flag == 1),
            },
        };
        c.is_empty().then_some(record)
    }
}

/// What a game's tags give its record (the rest comes from where it was read).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Described {
    pub white: String,
    pub black: String,
    pub white_rating: Option<u16>,
    pub black_rating: Option<u16>,
    pub day: Day,
    pub month: Option<Month>,
    pub speed: Option<Speed>,
    pub winner: Winner,
    pub rated: Option<bool>,
}

impl Described {
    pub(crate) fn of(tags: &Tags, result: GameResult) -> Described {
        let name = |tag| tags.get(tag).unwrap_or("?").trim().to_owned();
        let rating = |tag| {
            tags.get(tag)
                .and_then(|v| v.trim().parse::<u16>().ok())
                .filter(|&r| r > 0 && r < NONE_U16)
        };
        let event = tags.get("Event").unwrap_or("").trim_start();
        let rated = if event.starts_with("Rated ") {
            Some(true)
        } else if event.starts_with("Casual ") {
            Some(false)
        } else {
            None
        };
        Described {
            white: name("White"),
            black: name("Black"),
            white_rating: rating("WhiteElo"),
            black_rating: rating("BlackElo"),
            day: Day::of(tags),
            month: month_of(tags),
            speed: Speed::of(tags),
            winner: Winner::of(result),
            rated,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_record_round_trips_and_a_damaged_one_does_not_read() {
        let record = GameRecord {
            source: 3,
            number: 1_000_000_007,
            offset: 1 << 40,
            white: PlayerId(7),
            black: PlayerId(9),
            white_rating: Some(1500),
            black_rating: None,
            day: Day {
                year: 2024,
                month: 5,
                day: 0,
            },
            month: Month::new(2024, 5),
            speed: Some(Speed::Blitz),
            winner: Winner::Draw,
            rated: Some(false),
        };
        let mut bytes = Vec::new();
        record.encode(&mut bytes);
        assert_eq!(bytes.len(), RECORD_BYTES);
        assert_eq!(GameRecord::decode(&bytes), Some(record));
        assert_eq!(GameRecord::decode(&bytes[1..]), None);
        let mut bad_speed = bytes.clone();
        bad_speed[RECORD_BYTES - 3] = 40;
        assert_eq!(GameRecord::decode(&bad_speed), None);
    }

    #[test]
    fn dates_write_as_pgn() {
        let day = Day {
            year: 2024,
            month: 5,
            day: 0,
        };
        assert_eq!(day.to_pgn(), "2024.05.??");
        assert_eq!(Day::default().to_pgn(), "????.??.??");
    }
}
