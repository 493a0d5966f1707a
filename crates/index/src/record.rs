//! What the index keeps of each game: where it is, who played it, when, at what speed and
//! ratings, and how it ended. Enough to filter and list it without reading it again.

use notation::{Date, GameResult, Tags};

use crate::codec::{Cursor, put_varint};
use crate::dims::{Month, RatingGroup, Speed, TagValues, Winner, month_of_values};
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

/// A text a game's tags give (its event, site, opening name, variant), by its number
/// within one segment of an index; [`LabelId::NONE`] is the empty text (no such tag).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct LabelId(pub u32);

impl LabelId {
    /// The empty text: a tag the game does not have.
    pub const NONE: LabelId = LabelId(0);
}

/// An ECO code, `A00` to `E99`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Eco(u16);

impl Eco {
    /// The code a tag's value gives (`B20`; what follows the three characters, as in
    /// `B20a`, is not part of it); `None` when it is no ECO code.
    ///
    /// ```
    /// use index::record::Eco;
    /// assert_eq!(Eco::parse("c42").map(|e| e.to_string()), Some("C42".to_owned()));
    /// assert_eq!(Eco::parse("F00"), None);
    /// ```
    pub fn parse(text: &str) -> Option<Eco> {
        let &[letter, tens, ones, ..] = text.trim().as_bytes() else {
            return None;
        };
        let letter = letter.to_ascii_uppercase();
        if !(b'A'..=b'E').contains(&letter) || !tens.is_ascii_digit() || !ones.is_ascii_digit() {
            return None;
        }
        Some(Eco(u16::from(letter - b'A') * 100
            + u16::from(tens - b'0') * 10
            + u16::from(ones - b'0')))
    }

    /// Its number from 0 (`A00`) to 499 (`E99`).
    pub fn code(self) -> u16 {
        self.0
    }

    fn from_code(code: u16) -> Option<Eco> {
        (code < 500).then_some(Eco(code))
    }
}

impl std::fmt::Display for Eco {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}{:02}",
            char::from(b'A' + (self.0 / 100) as u8),
            self.0 % 100
        )
    }
}

/// A calendar date with each part possibly unknown, packed as `notation`'s
/// [`Date`] reads it.
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
        Day::of_values(tags)
    }

    /// [`Day::of`] the values of a game's tags, however they are held.
    pub(crate) fn of_values(tags: &impl TagValues) -> Day {
        ["UTCDate", "Date"]
            .into_iter()
            .find_map(|name| {
                let date = Date::parse(tags.value(name)?).ok()?;
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
    /// Its `Event` tag.
    pub event: LabelId,
    /// Its `Site` tag.
    pub site: LabelId,
    /// Its `Opening` tag.
    pub opening: LabelId,
    /// Its `ECO` tag, when it gives a code.
    pub eco: Option<Eco>,
    /// The plies of its main line as read (up to an error, in a game with one).
    pub plies: u32,
    /// Its ruleset or game type (`chess`, `crazyhouse`, …; a draughts game type), when
    /// its start could be set up.
    pub kind: LabelId,
}

/// The code of an unknown speed, winner or rated flag as stored.
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

    /// Appends the record: variable-length integers (an optional value as 0 when unknown,
    /// else one more than itself), some 35 bytes in all.
    pub(crate) fn encode(&self, out: &mut Vec<u8>) {
        let optional = |v: Option<u16>| v.map_or(0, |v| u64::from(v) + 1);
        for value in [
            u64::from(self.source),
            self.number,
            self.offset,
            u64::from(self.white.0),
            u64::from(self.black.0),
            optional(self.white_rating),
            optional(self.black_rating),
            u64::from(self.day.year),
            optional(self.month.map(Month::code)),
        ] {
            put_varint(out, value);
        }
        out.extend([
            self.day.month,
            self.day.day,
            self.speed.map_or(NONE_U8, Speed::code),
            self.winner.code(),
            match self.rated {
                None => NONE_U8,
                Some(rated) => u8::from(rated),
            },
        ]);
        for value in [
            u64::from(self.event.0),
            u64::from(self.site.0),
            u64::from(self.opening.0),
            self.eco.map_or(0, |e| u64::from(e.code()) + 1),
            u64::from(self.plies),
            u64::from(self.kind.0),
        ] {
            put_varint(out, value);
        }
    }

    /// A record [`GameRecord::encode`] wrote, and nothing after it.
    #[cfg(test)]
    pub(crate) fn decode(bytes: &[u8]) -> Option<GameRecord> {
        let mut c = Cursor::new(bytes);
        let record = GameRecord::read(&mut c)?;
        c.is_empty().then_some(record)
    }

    /// Reads a record [`GameRecord::encode`] wrote; `None` when it does not read.
    pub(crate) fn read(c: &mut Cursor<'_>) -> Option<GameRecord> {
        let u32_of = |v: u64| u32::try_from(v).ok();
        let optional = |v: u64| match v {
            0 => Some(None),
            v => u16::try_from(v - 1).ok().map(Some),
        };
        let source = u32_of(c.varint()?)?;
        let number = c.varint()?;
        let offset = c.varint()?;
        let white = PlayerId(u32_of(c.varint()?)?);
        let black = PlayerId(u32_of(c.varint()?)?);
        let white_rating = optional(c.varint()?)?;
        let black_rating = optional(c.varint()?)?;
        let year = u16::try_from(c.varint()?).ok()?;
        let month = optional(c.varint()?)?.map(Month::from_code);
        let [day_month, day, speed, winner, rated] = c.array()?;
        let label = |v: u64| u32_of(v).map(LabelId);
        let event = label(c.varint()?)?;
        let site = label(c.varint()?)?;
        let opening = label(c.varint()?)?;
        let eco = match c.varint()? {
            0 => None,
            code => Some(Eco::from_code(u16::try_from(code - 1).ok()?)?),
        };
        let plies = u32_of(c.varint()?)?;
        let kind = label(c.varint()?)?;
        Some(GameRecord {
            source,
            number,
            offset,
            white,
            black,
            white_rating,
            black_rating,
            day: Day {
                year,
                month: day_month,
                day,
            },
            month,
            speed: match speed {
                NONE_U8 => None,
                code => Some(Speed::from_code(code)?),
            },
            winner: Winner::from_code(winner),
            rated: match rated {
                NONE_U8 => None,
                flag => Some(flag == 1),
            },
            event,
            site,
            opening,
            eco,
            plies,
            kind,
        })
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
    pub event: String,
    pub site: String,
    pub opening: String,
    pub eco: Option<Eco>,
}

/// A description to be filled ([`Described::fill`]): a game with no tags and no result.
impl Default for Described {
    fn default() -> Described {
        Described {
            white: String::new(),
            black: String::new(),
            white_rating: None,
            black_rating: None,
            day: Day::default(),
            month: None,
            speed: None,
            winner: Winner::of(GameResult::Unknown),
            rated: None,
            event: String::new(),
            site: String::new(),
            opening: String::new(),
            eco: None,
        }
    }
}

impl Described {
    /// The tags [`Described::of`] reads: a reader that keeps these alone (the chess
    /// builds' reading along the validator) gives the same description.
    pub(crate) const TAGS: [&'static str; 11] = [
        "White",
        "Black",
        "WhiteElo",
        "BlackElo",
        "UTCDate",
        "Date",
        "TimeControl",
        "Event",
        "Site",
        "Opening",
        "ECO",
    ];

    /// The description of a game with these tags and result. It reads the tags of
    /// [`Described::TAGS`] and no other: a tag read here is added there.
    pub(crate) fn of(tags: &impl TagValues, result: GameResult) -> Described {
        let mut described = Described::default();
        described.fill(tags, result);
        described
    }

    /// Makes this the description [`Described::of`] gives, in the strings it has (a build
    /// fills the descriptions of the games it has taken again, rather than allocate five
    /// strings a game on one thread and free them on another).
    pub(crate) fn fill(&mut self, tags: &impl TagValues, result: GameResult) {
        let set = |text: &mut String, value: &str| {
            text.clear();
            text.push_str(value);
        };
        let name = |tag| tags.value(tag).unwrap_or("?").trim();
        let rating = |tag| {
            tags.value(tag)
                .and_then(|v| v.trim().parse::<u16>().ok())
                .filter(|&r| r > 0 && r < u16::MAX)
        };
        let event = tags.value("Event").unwrap_or("");
        let leading = event.trim_start();
        self.rated = if leading.starts_with("Rated ") {
            Some(true)
        } else if leading.starts_with("Casual ") {
            Some(false)
        } else {
            None
        };
        set(&mut self.white, name("White"));
        set(&mut self.black, name("Black"));
        self.white_rating = rating("WhiteElo");
        self.black_rating = rating("BlackElo");
        self.day = Day::of_values(tags);
        self.month = month_of_values(tags);
        self.speed = Speed::of_values(tags);
        self.winner = Winner::of(result);
        set(&mut self.event, event);
        set(&mut self.site, tags.value("Site").unwrap_or(""));
        set(&mut self.opening, tags.value("Opening").unwrap_or(""));
        self.eco = tags.value("ECO").and_then(Eco::parse);
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
            event: LabelId(3),
            site: LabelId(200),
            opening: LabelId::NONE,
            eco: Eco::parse("E99"),
            plies: 81,
            kind: LabelId(1),
        };
        let mut bytes = Vec::new();
        record.encode(&mut bytes);
        assert_eq!(
            bytes.len(),
            1 + 5 + 6 + 1 + 1 + 2 + 1 + 2 + 3 + 5 + 1 + 2 + 1 + 2 + 1 + 1
        );
        assert_eq!(GameRecord::decode(&bytes), Some(record.clone()));
        assert_eq!(GameRecord::decode(&bytes[..bytes.len() - 1]), None);
        let mut bad_speed = bytes.clone();
        let at = bytes.len() - 3 - 8;
        bad_speed[at] = 40;
        assert_eq!(GameRecord::decode(&bad_speed), None);
        // What follows a record is the caller's (a segment's kept line).
        bytes.extend([1, 2, 3]);
        let mut c = Cursor::new(&bytes);
        assert_eq!(GameRecord::read(&mut c), Some(record));
        assert_eq!(c.rest(), [1, 2, 3]);
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
