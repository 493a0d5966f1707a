//! Typed tag values that any game uses: dates, rounds, times of day, time controls,
//! ratings, whole numbers, multi-valued names and the `SetUp`/`FEN` pair (PGN §8.1.1 and
//! §9, PDN 3.0 tags).
//!
//! Tag values stay text in [`Tags`]; these types read them on demand. A value that does
//! not have its tag's form is a [`TagValueError`], which a reader turns into a warning
//! ([`DiagnosticKind::BadTagValue`](crate::DiagnosticKind::BadTagValue)) while keeping the
//! text as it was: [`check_tags`] lists every such problem of a game's tags.

use std::fmt;
use std::str::FromStr;

use crate::tags::Tags;

/// Why a tag value does not have the form its tag prescribes. `Display` tells a person.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum TagValueError {
    /// The value is empty where the tag wants one.
    #[error("the value is empty")]
    Empty,
    /// Not a date of the form `YYYY.MM.DD`.
    #[error("{0:?} is not a date YYYY.MM.DD (unknown parts written as ????, ?? or ??)")]
    DateForm(String),
    /// A month outside 1 to 12.
    #[error("month {0:02} does not exist: months are 01 to 12")]
    Month(u8),
    /// A day that the month does not have.
    #[error("day {day:02} does not exist: the month has days 01 to {last:02}")]
    Day {
        /// The day written.
        day: u8,
        /// The last day of the month (31 when the month is unknown).
        last: u8,
    },
    /// Not a round: numbers joined by periods, `-` or `?`.
    #[error("{0:?} is not a round: a number, numbers joined by periods such as 3.1, - or ?")]
    Round(String),
    /// Not a time of day of the form `HH:MM:SS`.
    #[error("{0:?} is not a time of day HH:MM:SS")]
    TimeForm(String),
    /// An hour, minute or second out of its range.
    #[error("{unit} {value:02} does not exist: {unit}s are 00 to {max:02}")]
    TimeRange {
        /// `hour`, `minute` or `second`.
        unit: &'static str,
        /// The number written.
        value: u8,
        /// The largest allowed.
        max: u8,
    },
    /// Not a time control.
    #[error("{value:?} is not a time control: {reason}")]
    TimeControl {
        /// The value, or the part of it that is wrong.
        value: String,
        /// What is wrong.
        reason: &'static str,
    },
    /// Not a rating.
    #[error("{0:?} is not a rating: a whole number, - for an unrated player or ? if unknown")]
    Rating(String),
    /// Not a whole number.
    #[error("{0:?} is not a whole number")]
    Integer(String),
    /// A `SetUp` value other than `0` and `1`.
    #[error(
        "SetUp is {0:?}: it must be 0 (the usual start position) or 1 (the position in the FEN tag)"
    )]
    SetUp(String),
    /// `SetUp "1"` with no `FEN` tag.
    #[error("SetUp is 1 but there is no FEN tag giving the position")]
    MissingFen,
}

fn all_digits(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
}

/// Reads a field of digits, or of question marks meaning unknown; `None` if it is neither.
fn digits_or_unknown(field: &[u8]) -> Option<Option<u32>> {
    if !field.is_empty() && field.iter().all(|&b| b == b'?') {
        Some(None)
    } else {
        number_u32(field).map(Some)
    }
}

/// A number of one or more digits (no sign, no spaces) that fits a `u32`.
fn parse_u32(s: &str) -> Option<u32> {
    number_u32(s.as_bytes())
}

/// [`parse_u32`] of bytes, digit by digit: a few tag values of every game are numbers,
/// where `str::parse` and its checks cost more than the digits do.
fn number_u32(bytes: &[u8]) -> Option<u32> {
    if bytes.is_empty() {
        return None;
    }
    bytes.iter().try_fold(0u32, |n, &b| {
        let digit = b.wrapping_sub(b'0');
        if digit > 9 {
            return None;
        }
        n.checked_mul(10)?.checked_add(u32::from(digit))
    })
}

/// The three fields of `value` when it is laid out as three fields of these widths
/// parted by `separator` (a date `YYYY.MM.DD`, a time `HH:MM:SS`), else `None`: such a
/// value is then read field by field, to tell what is wrong with it. Dates and times
/// nearly all come so, and are read without splitting.
fn three_fields(value: &[u8], separator: u8, widths: [usize; 3]) -> Option<[&[u8]; 3]> {
    let [a, b, c] = widths;
    if value.len() != a + b + c + 2 || value[a] != separator || value[a + 1 + b] != separator {
        return None;
    }
    Some([&value[..a], &value[a + 1..a + 1 + b], &value[a + b + 2..]])
}

/// A date `YYYY.MM.DD` whose parts may be unknown (`????.??.??`): the `Date`,
/// `EventDate`, `UTCDate` and PDN's `PublicationDate` tags.
///
/// Parts are unknown as a whole: `19??` is refused, as the standard puts question marks
/// in place of a field's digits.
///
/// ```
/// use notation::Date;
/// let date: Date = "1993.??.??".parse()?;
/// assert_eq!((date.year, date.month, date.day), (Some(1993), None, None));
/// assert_eq!(date.to_string(), "1993.??.??");
/// assert!("1992.13.01".parse::<Date>().is_err());
/// # Ok::<(), notation::TagValueError>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Date {
    /// The year, `None` if unknown.
    pub year: Option<u16>,
    /// The month, 1 to 12, `None` if unknown.
    pub month: Option<u8>,
    /// The day of the month, 1 to 31, `None` if unknown.
    pub day: Option<u8>,
}

impl Date {
    /// The date with every part unknown: `????.??.??`.
    pub const UNKNOWN: Date = Date {
        year: None,
        month: None,
        day: None,
    };

    /// Reads a date written `YYYY.MM.DD`, each part digits or question marks.
    pub fn parse(value: &str) -> Result<Date, TagValueError> {
        if value.is_empty() {
            return Err(TagValueError::Empty);
        }
        let form = || TagValueError::DateForm(value.to_owned());
        // Three fields of four, two and two characters parted by dots: no other value
        // splits so.
        let [y, m, d] = three_fields(value.as_bytes(), b'.', [4, 2, 2]).ok_or_else(form)?;
        let year = digits_or_unknown(y).ok_or_else(form)?;
        let month = digits_or_unknown(m).ok_or_else(form)?;
        let day = digits_or_unknown(d).ok_or_else(form)?;
        // Four and two digits fit their types.
        let year = year.and_then(|y| u16::try_from(y).ok());
        let month = month.and_then(|m| u8::try_from(m).ok());
        let day = day.and_then(|d| u8::try_from(d).ok());
        if let Some(month) = month.filter(|m| !(1..=12).contains(m)) {
            return Err(TagValueError::Month(month));
        }
        if let Some(day) = day {
            let last = days_in_month(year, month);
            if !(1..=last).contains(&day) {
                return Err(TagValueError::Day { day, last });
            }
        }
        Ok(Date { year, month, day })
    }
}

/// The last day of a month; when the year is unknown February may have 29 days, and
/// when the month is unknown any day up to 31 may exist.
fn days_in_month(year: Option<u16>, month: Option<u8>) -> u8 {
    match month {
        Some(4 | 6 | 9 | 11) => 30,
        Some(2) => match year {
            Some(y) if !(y % 4 == 0 && (y % 100 != 0 || y % 400 == 0)) => 28,
            _ => 29,
        },
        _ => 31,
    }
}

impl FromStr for Date {
    type Err = TagValueError;
    fn from_str(s: &str) -> Result<Date, TagValueError> {
        Date::parse(s)
    }
}

impl fmt::Display for Date {
    /// The canonical form: `1992.08.31`, `1993.??.??`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.year {
            Some(y) => write!(f, "{y:04}")?,
            None => f.write_str("????")?,
        }
        for part in [self.month, self.day] {
            match part {
                Some(n) => write!(f, ".{n:02}")?,
                None => f.write_str(".??")?,
            }
        }
        Ok(())
    }
}

/// The `Round` tag: a round number, a multi-part round (`4.1.2`), not applicable (`-`)
/// or unknown (`?`).
///
/// ```
/// use notation::Round;
/// assert_eq!("3.1".parse::<Round>()?, Round::Numbered(vec![3, 1]));
/// assert_eq!("-".parse::<Round>()?, Round::NotApplicable);
/// assert_eq!(Round::Numbered(vec![4, 1, 2]).to_string(), "4.1.2");
/// assert!("3a".parse::<Round>().is_err());
/// # Ok::<(), notation::TagValueError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Round {
    /// `?`: the round is unknown.
    Unknown,
    /// `-`: a round number does not apply.
    NotApplicable,
    /// Round numbers, the most significant first.
    Numbered(Vec<u32>),
}

impl Round {
    /// Reads a round value.
    pub fn parse(value: &str) -> Result<Round, TagValueError> {
        match value {
            "" => Err(TagValueError::Empty),
            "?" => Ok(Round::Unknown),
            "-" => Ok(Round::NotApplicable),
            _ => value
                .split('.')
                .map(parse_u32)
                .collect::<Option<Vec<u32>>>()
                .map(Round::Numbered)
                .ok_or_else(|| TagValueError::Round(value.to_owned())),
        }
    }

    /// Whether [`Round::parse`] reads the value, without keeping what it reads.
    pub(crate) fn check(value: &str) -> Result<(), TagValueError> {
        match value {
            "" => Err(TagValueError::Empty),
            "?" | "-" => Ok(()),
            _ if value.split('.').all(|part| parse_u32(part).is_some()) => Ok(()),
            _ => Err(TagValueError::Round(value.to_owned())),
        }
    }
}

impl FromStr for Round {
    type Err = TagValueError;
    fn from_str(s: &str) -> Result<Round, TagValueError> {
        Round::parse(s)
    }
}

impl fmt::Display for Round {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Round::Unknown => f.write_str("?"),
            Round::NotApplicable => f.write_str("-"),
            Round::Numbered(numbers) => {
                for (i, n) in numbers.iter().enumerate() {
                    if i > 0 {
                        f.write_str(".")?;
                    }
                    write!(f, "{n}")?;
                }
                Ok(())
            }
        }
    }
}

/// A time of day `HH:MM:SS`: the `Time` and `UTCTime` tags.
///
/// The standard does not say how to write an unknown part; as with dates, question marks
/// (`??`) are read as unknown.
///
/// ```
/// use notation::Time;
/// let time: Time = "09:30:00".parse()?;
/// assert_eq!((time.hour, time.minute, time.second), (Some(9), Some(30), Some(0)));
/// assert_eq!(time.to_string(), "09:30:00");
/// assert!("9:30".parse::<Time>().is_err());
/// # Ok::<(), notation::TagValueError>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Time {
    /// The hour, 0 to 23, `None` if unknown.
    pub hour: Option<u8>,
    /// The minute, 0 to 59, `None` if unknown.
    pub minute: Option<u8>,
    /// The second, 0 to 59, `None` if unknown.
    pub second: Option<u8>,
}

impl Time {
    /// Reads a time written `HH:MM:SS`, each part two digits or `??`.
    pub fn parse(value: &str) -> Result<Time, TagValueError> {
        if value.is_empty() {
            return Err(TagValueError::Empty);
        }
        let form = || TagValueError::TimeForm(value.to_owned());
        let parts = match three_fields(value.as_bytes(), b':', [2, 2, 2]) {
            Some(parts) => parts,
            None => {
                // Told apart field by field: an hour out of range before a minute of
                // one digit is out of range.
                let mut parts = value.split(':');
                let (Some(h), Some(m), Some(s), None) =
                    (parts.next(), parts.next(), parts.next(), parts.next())
                else {
                    return Err(form());
                };
                [h.as_bytes(), m.as_bytes(), s.as_bytes()]
            }
        };
        let mut fields = [None; 3];
        for ((slot, part), (unit, max)) in
            fields
                .iter_mut()
                .zip(parts)
                .zip([("hour", 23), ("minute", 59), ("second", 59)])
        {
            if part.len() != 2 {
                return Err(form());
            }
            let value = digits_or_unknown(part)
                .ok_or_else(form)?
                .and_then(|v| u8::try_from(v).ok());
            if let Some(value) = value.filter(|&v| v > max) {
                return Err(TagValueError::TimeRange { unit, value, max });
            }
            *slot = value;
        }
        let [hour, minute, second] = fields;
        Ok(Time {
            hour,
            minute,
            second,
        })
    }
}

impl FromStr for Time {
    type Err = TagValueError;
    fn from_str(s: &str) -> Result<Time, TagValueError> {
        Time::parse(s)
    }
}

impl fmt::Display for Time {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, part) in [self.hour, self.minute, self.second]
            .into_iter()
            .enumerate()
        {
            if i > 0 {
                f.write_str(":")?;
            }
            match part {
                Some(n) => write!(f, "{n:02}")?,
                None => f.write_str("??")?,
            }
        }
        Ok(())
    }
}

/// One period of a time control (§9.6.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TimePeriod {
    /// `40/9000`: a number of moves in a number of seconds.
    Moves {
        /// Moves to make in the period (at least 1).
        moves: u32,
        /// Seconds for them (at least 1).
        seconds: u32,
    },
    /// `300`: sudden death, the rest of the game in this many seconds.
    SuddenDeath {
        /// Seconds for the rest of the game (at least 1).
        seconds: u32,
    },
    /// `4500+60`: seconds for the period plus seconds added after each move.
    Incremental {
        /// Seconds at the start of the period.
        seconds: u32,
        /// Seconds added after each move.
        increment: u32,
    },
    /// `*180`: a sandclock (hourglass) of this many seconds.
    Sandclock {
        /// Seconds in the sandclock.
        seconds: u32,
    },
}

impl TimePeriod {
    /// Whether the period lasts until the end of the game, so that no period can follow it.
    fn is_final(self) -> bool {
        !matches!(self, TimePeriod::Moves { .. })
    }
}

impl fmt::Display for TimePeriod {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            TimePeriod::Moves { moves, seconds } => write!(f, "{moves}/{seconds}"),
            TimePeriod::SuddenDeath { seconds } => write!(f, "{seconds}"),
            TimePeriod::Incremental { seconds, increment } => write!(f, "{seconds}+{increment}"),
            TimePeriod::Sandclock { seconds } => write!(f, "*{seconds}"),
        }
    }
}

/// The `TimeControl` tag (and PDN's `TimeControlWhite`, `TimeControlBlack`): unknown
/// (`?`), none (`-`), or periods joined by `:` in the order they are played, the last
/// one repeating as needed.
///
/// The standard wants the two numbers of an incremental period to be positive; real
/// files (lichess among them) write `180+0` and `0+1`, so zero is read there. Elsewhere
/// numbers are at least 1. Sudden-death, incremental and sandclock periods last until the
/// end of the game, so they can only be the last period.
///
/// ```
/// use notation::{TimeControl, TimePeriod};
/// let tc: TimeControl = "40/7200:3600".parse()?;
/// assert_eq!(
///     tc,
///     TimeControl::Periods(vec![
///         TimePeriod::Moves { moves: 40, seconds: 7200 },
///         TimePeriod::SuddenDeath { seconds: 3600 },
///     ])
/// );
/// assert_eq!(tc.to_string(), "40/7200:3600");
/// assert_eq!("?".parse::<TimeControl>()?, TimeControl::Unknown);
/// assert!("3600:40/7200".parse::<TimeControl>().is_err());
/// # Ok::<(), notation::TagValueError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum TimeControl {
    /// `?`: the time control is unknown.
    Unknown,
    /// `-`: no time control was used.
    NoControl,
    /// The periods in the order they are played (at least one).
    Periods(Vec<TimePeriod>),
}

impl TimeControl {
    /// Reads a time control value.
    pub fn parse(value: &str) -> Result<TimeControl, TagValueError> {
        match value {
            "" => Err(TagValueError::Empty),
            "?" => Ok(TimeControl::Unknown),
            "-" => Ok(TimeControl::NoControl),
            _ => {
                let mut periods = Vec::new();
                TimeControl::read_periods(value, |period| periods.push(period))?;
                Ok(TimeControl::Periods(periods))
            }
        }
    }

    /// Whether [`TimeControl::parse`] reads the value, without keeping what it reads.
    pub(crate) fn check(value: &str) -> Result<(), TagValueError> {
        match value {
            "" => Err(TagValueError::Empty),
            "?" | "-" => Ok(()),
            _ => TimeControl::read_periods(value, drop),
        }
    }

    /// Reads the periods of a value that is neither empty nor `?` nor `-`, giving each
    /// to `each` in order.
    fn read_periods(value: &str, mut each: impl FnMut(TimePeriod)) -> Result<(), TagValueError> {
        let error = |part: &str, reason| TagValueError::TimeControl {
            value: part.to_owned(),
            reason,
        };
        let mut last: Option<TimePeriod> = None;
        for field in value.split(':') {
            if last.is_some_and(TimePeriod::is_final) {
                return Err(error(
                    value,
                    "only the last period can be sudden death, incremental or a sandclock",
                ));
            }
            let period = TimeControl::parse_period(field).map_err(|reason| error(field, reason))?;
            each(period);
            last = Some(period);
        }
        Ok(())
    }

    fn parse_period(field: &str) -> Result<TimePeriod, &'static str> {
        const NUMBER: &str =
            "expected a number of seconds, moves/seconds, seconds+increment or *seconds";
        const POSITIVE: &str = "moves and seconds must be at least 1";
        let positive = |s: &str| match parse_u32(s) {
            Some(0) => Err(POSITIVE),
            Some(n) => Ok(n),
            None => Err(NUMBER),
        };
        if field == "?" || field == "-" {
            return Err("? and - stand alone, not among periods");
        }
        if let Some(seconds) = field.strip_prefix('*') {
            return Ok(TimePeriod::Sandclock {
                seconds: positive(seconds)?,
            });
        }
        if let Some((moves, seconds)) = field.split_once('/') {
            return Ok(TimePeriod::Moves {
                moves: positive(moves)?,
                seconds: positive(seconds)?,
            });
        }
        if let Some((seconds, increment)) = field.split_once('+') {
            return Ok(TimePeriod::Incremental {
                seconds: parse_u32(seconds).ok_or(NUMBER)?,
                increment: parse_u32(increment).ok_or(NUMBER)?,
            });
        }
        Ok(TimePeriod::SuddenDeath {
            seconds: positive(field)?,
        })
    }
}

impl FromStr for TimeControl {
    type Err = TagValueError;
    fn from_str(s: &str) -> Result<TimeControl, TagValueError> {
        TimeControl::parse(s)
    }
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TimeControl::Unknown => f.write_str("?"),
            TimeControl::NoControl => f.write_str("-"),
            TimeControl::Periods(periods) => {
                for (i, period) in periods.iter().enumerate() {
                    if i > 0 {
                        f.write_str(":")?;
                    }
                    write!(f, "{period}")?;
                }
                Ok(())
            }
        }
    }
}

/// A rating: `WhiteElo`, `BlackElo`, `WhiteUSCF`, `BlackUSCF`, PDN's `WhiteRating`,
/// `BlackRating`, one item of each.
///
/// ```
/// use notation::Rating;
/// assert_eq!("2785".parse::<Rating>()?, Rating::Rated(2785));
/// assert_eq!("-".parse::<Rating>()?.value(), None);
/// assert!("2785.5".parse::<Rating>().is_err());
/// # Ok::<(), notation::TagValueError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Rating {
    /// A rating number.
    Rated(u32),
    /// `-`: the player has no rating.
    Unrated,
    /// `?` or an empty value: the rating is not known.
    Unknown,
}

impl Rating {
    /// Reads a rating: digits, `-`, `?` or nothing.
    pub fn parse(value: &str) -> Result<Rating, TagValueError> {
        match value {
            "-" => Ok(Rating::Unrated),
            "?" | "" => Ok(Rating::Unknown),
            _ => parse_u32(value)
                .map(Rating::Rated)
                .ok_or_else(|| TagValueError::Rating(value.to_owned())),
        }
    }

    /// The rating number, if there is one.
    pub fn value(self) -> Option<u32> {
        match self {
            Rating::Rated(n) => Some(n),
            Rating::Unrated | Rating::Unknown => None,
        }
    }
}

impl FromStr for Rating {
    type Err = TagValueError;
    fn from_str(s: &str) -> Result<Rating, TagValueError> {
        Rating::parse(s)
    }
}

impl fmt::Display for Rating {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Rating::Rated(n) => write!(f, "{n}"),
            Rating::Unrated => f.write_str("-"),
            Rating::Unknown => f.write_str("?"),
        }
    }
}

/// What the `SetUp` and `FEN` tags say about the start position (§9.7).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SetUpTags<'a> {
    /// No `FEN` tag (and `SetUp` absent or `0`): the usual start position.
    Initial,
    /// `SetUp "1"` and this `FEN`: the standard way.
    Fen(&'a str),
    /// A `FEN` tag without `SetUp "1"`. PGN wants the `SetUp` tag; many files omit it,
    /// and PDN has none: whether this is forgiven is the game's choice.
    FenWithoutSetUp(&'a str),
}

impl<'a> SetUpTags<'a> {
    /// The FEN text, if the game starts from a set-up position.
    pub fn fen(self) -> Option<&'a str> {
        match self {
            SetUpTags::Initial => None,
            SetUpTags::Fen(fen) | SetUpTags::FenWithoutSetUp(fen) => Some(fen),
        }
    }
}

/// Splits a multi-valued tag value into its items: names of consultation partners
/// (`"Smith, J.:Jones, K."`), their titles or ratings (§8.1, §9.1).
///
/// ```
/// let items: Vec<_> = notation::tag_items("Smith, J.:Jones, K.").collect();
/// assert_eq!(items, ["Smith, J.", "Jones, K."]);
/// ```
pub fn tag_items(value: &str) -> std::str::Split<'_, char> {
    value.split(':')
}

/// Typed readings of tag values. Each returns `None` when the tag is absent.
impl Tags {
    /// The value of a date tag (`Date`, `EventDate`, `UTCDate`).
    ///
    /// ```
    /// use notation::{Date, Tags};
    /// let mut tags = Tags::new();
    /// tags.set("Date", "1992.11.04");
    /// assert_eq!(tags.date("Date"), Some(Ok(Date { year: Some(1992), month: Some(11), day: Some(4) })));
    /// assert_eq!(tags.date("EventDate"), None);
    /// ```
    pub fn date(&self, name: &str) -> Option<Result<Date, TagValueError>> {
        self.get(name).map(Date::parse)
    }

    /// The value of the `Round` tag.
    pub fn round(&self) -> Option<Result<Round, TagValueError>> {
        self.get("Round").map(Round::parse)
    }

    /// The value of a time-of-day tag (`Time`, `UTCTime`).
    pub fn time(&self, name: &str) -> Option<Result<Time, TagValueError>> {
        self.get(name).map(Time::parse)
    }

    /// The value of a time control tag (`TimeControl`, PDN's `TimeControlWhite`, …).
    pub fn time_control(&self, name: &str) -> Option<Result<TimeControl, TagValueError>> {
        self.get(name).map(TimeControl::parse)
    }

    /// The ratings in a rating tag (`WhiteElo`, `BlackUSCF`, …), one per player of the
    /// side (items joined by `:` in consultation games).
    ///
    /// ```
    /// use notation::{Rating, Tags};
    /// let mut tags = Tags::new();
    /// tags.set("WhiteElo", "2500:-");
    /// assert_eq!(tags.ratings("WhiteElo"), Some(Ok(vec![Rating::Rated(2500), Rating::Unrated])));
    /// ```
    pub fn ratings(&self, name: &str) -> Option<Result<Vec<Rating>, TagValueError>> {
        self.get(name)
            .map(|value| tag_items(value).map(Rating::parse).collect())
    }

    /// The value of a whole-number tag (`PlyCount`, `Board`).
    pub fn integer(&self, name: &str) -> Option<Result<u64, TagValueError>> {
        self.get(name).map(|value| {
            if value.is_empty() {
                return Err(TagValueError::Empty);
            }
            parse_u64(value).ok_or_else(|| TagValueError::Integer(value.to_owned()))
        })
    }

    /// The items of a multi-valued tag (`White`, `Black`, `Annotator`, `WhiteTitle`, …).
    pub fn items(&self, name: &str) -> Option<std::str::Split<'_, char>> {
        self.get(name).map(tag_items)
    }

    /// What the `SetUp` and `FEN` tags say about the start position.
    ///
    /// Fails when `SetUp` is neither `0` nor `1`, or is `1` with no `FEN` tag.
    ///
    /// ```
    /// use notation::{SetUpTags, Tags};
    /// let mut tags = Tags::new();
    /// assert_eq!(tags.set_up(), Ok(SetUpTags::Initial));
    /// tags.set("FEN", "8/8/8/8/8/8/8/K6k w - - 0 1");
    /// assert_eq!(tags.set_up(), Ok(SetUpTags::FenWithoutSetUp("8/8/8/8/8/8/8/K6k w - - 0 1")));
    /// tags.set("SetUp", "1");
    /// assert_eq!(tags.set_up()?.fen(), Some("8/8/8/8/8/8/8/K6k w - - 0 1"));
    /// # Ok::<(), notation::TagValueError>(())
    /// ```
    pub fn set_up(&self) -> Result<SetUpTags<'_>, TagValueError> {
        let fen = self.get("FEN");
        match (self.get("SetUp"), fen) {
            (Some("1"), Some(fen)) => Ok(SetUpTags::Fen(fen)),
            (Some("1"), None) => Err(TagValueError::MissingFen),
            (None | Some("0"), Some(fen)) => Ok(SetUpTags::FenWithoutSetUp(fen)),
            (None | Some("0"), None) => Ok(SetUpTags::Initial),
            (Some(other), _) => Err(TagValueError::SetUp(other.to_owned())),
        }
    }
}

/// Checks the value of every tag whose form the standards prescribe and lists those that
/// do not have it, with the tag's name, in the order of the tags. Values are not changed;
/// a reader reports each as a warning.
///
/// Checked: `Date`, `EventDate`, `UTCDate`, `PublicationDate` ([`Date`]); `Round`
/// ([`Round`]); `Time`, `UTCTime` ([`Time`]); `TimeControl`, `TimeControlWhite`,
/// `TimeControlBlack` ([`TimeControl`]); `WhiteElo`, `BlackElo`, `WhiteUSCF`,
/// `BlackUSCF`, `WhiteRating`, `BlackRating` ([`Rating`], per item); `PlyCount`, `Board`
/// (whole numbers); `SetUp` with `FEN` ([`Tags::set_up`]; a `FEN` without `SetUp` is not
/// reported here).
///
/// PDN allows an empty value for an unknown one where PGN does not: with
/// `empty_means_unknown`, empty values are not reported.
///
/// ```
/// use notation::{check_tags, Tags};
/// let mut tags = Tags::new();
/// tags.set("Date", "1992.11.04");
/// tags.set("Round", "third");
/// tags.set("WhiteElo", "2700");
/// let problems = check_tags(&tags, false);
/// assert_eq!(problems.len(), 1);
/// assert_eq!(problems[0].0, "Round");
/// assert_eq!(
///     problems[0].1.to_string(),
///     "\"third\" is not a round: a number, numbers joined by periods such as 3.1, - or ?"
/// );
/// ```
pub fn check_tags(tags: &Tags, empty_means_unknown: bool) -> Vec<(String, TagValueError)> {
    let mut problems = Vec::new();
    let mut set_up_checked = false;
    for tag in tags {
        let name = tag.name.as_str();
        let value = tag.value.as_str();
        if value.is_empty() && empty_means_unknown {
            continue;
        }
        let checked = match name {
            // Reported once, at the SetUp tag, even if the FEN tag is missing.
            "SetUp" if !set_up_checked => {
                set_up_checked = true;
                tags.set_up().map(drop)
            }
            _ => check_value(name, value),
        };
        if let Err(error) = checked {
            problems.push((tag.name.clone(), error));
        }
    }
    problems
}

/// Checks the value of one tag whose form the standards prescribe (see [`check_tags`];
/// `SetUp`, which needs the `FEN` tag too, is not checked here). Other tags pass.
pub(crate) fn check_value(name: &str, value: &str) -> Result<(), TagValueError> {
    let form = match name {
        "Date" | "EventDate" | "UTCDate" | "PublicationDate" => ValueForm::Date,
        "Round" => ValueForm::Round,
        "Time" | "UTCTime" => ValueForm::Time,
        "TimeControl" | "TimeControlWhite" | "TimeControlBlack" => ValueForm::TimeControl,
        "WhiteElo" | "BlackElo" | "WhiteUSCF" | "BlackUSCF" | "WhiteRating" | "BlackRating" => {
            ValueForm::Ratings
        }
        "PlyCount" | "Board" => ValueForm::Integer,
        _ => return Ok(()),
    };
    form.check(value)
}

/// The form a tag's value must have, for the tags whose values have one of their own.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ValueForm {
    /// [`Date`].
    Date,
    /// [`Round`].
    Round,
    /// [`Time`].
    Time,
    /// [`TimeControl`].
    TimeControl,
    /// [`Rating`]s, one per item.
    Ratings,
    /// A whole number.
    Integer,
}

impl ValueForm {
    /// Whether `value` has the form.
    pub(crate) fn check(self, value: &str) -> Result<(), TagValueError> {
        match self {
            ValueForm::Date => Date::parse(value).map(drop),
            ValueForm::Round => Round::check(value),
            ValueForm::Time => Time::parse(value).map(drop),
            ValueForm::TimeControl => TimeControl::check(value),
            ValueForm::Ratings => {
                tag_items(value).try_for_each(|item| Rating::parse(item).map(drop))
            }
            ValueForm::Integer => match value {
                "" => Err(TagValueError::Empty),
                v if parse_u64(v).is_some() => Ok(()),
                v => Err(TagValueError::Integer(v.to_owned())),
            },
        }
    }
}

fn parse_u64(s: &str) -> Option<u64> {
    if all_digits(s) { s.parse().ok() } else { None }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn date(y: Option<u16>, m: Option<u8>, d: Option<u8>) -> Date {
        Date {
            year: y,
            month: m,
            day: d,
        }
    }

    #[test]
    fn dates_accepted() {
        for (text, expected) in [
            ("1992.08.31", date(Some(1992), Some(8), Some(31))),
            ("1993.??.??", date(Some(1993), None, None)),
            ("????.??.??", Date::UNKNOWN),
            ("2001.01.01", date(Some(2001), Some(1), Some(1))),
            ("1993.??.15", date(Some(1993), None, Some(15))),
            ("????.02.29", date(None, Some(2), Some(29))),
            ("2000.02.29", date(Some(2000), Some(2), Some(29))),
            ("0000.12.31", date(Some(0), Some(12), Some(31))),
        ] {
            assert_eq!(Date::parse(text), Ok(expected), "{text}");
            assert_eq!(expected.to_string(), text);
        }
    }

    #[test]
    fn dates_refused() {
        for text in [
            "1992.8.31",
            "92.08.31",
            "1992-08-31",
            "1992.08.31.",
            "1992.08",
            "19??.??.??",
            "1992.0?.??",
            "1992.08.3 ",
            " 1992.08.31",
            "１９９２.08.31",
            "+992.08.31",
        ] {
            assert_eq!(
                Date::parse(text),
                Err(TagValueError::DateForm(text.into())),
                "{text}"
            );
        }
        assert_eq!(Date::parse(""), Err(TagValueError::Empty));
        assert_eq!(Date::parse("1992.13.01"), Err(TagValueError::Month(13)));
        assert_eq!(Date::parse("1992.00.01"), Err(TagValueError::Month(0)));
        assert_eq!(
            Date::parse("1992.01.32"),
            Err(TagValueError::Day { day: 32, last: 31 })
        );
        assert_eq!(
            Date::parse("1992.04.31"),
            Err(TagValueError::Day { day: 31, last: 30 })
        );
        assert_eq!(
            Date::parse("1900.02.29"),
            Err(TagValueError::Day { day: 29, last: 28 })
        );
        assert_eq!(
            Date::parse("????.??.00"),
            Err(TagValueError::Day { day: 0, last: 31 })
        );
        assert_eq!(
            Date::parse("1992.02.30").map_err(|e| e.to_string()),
            Err("day 30 does not exist: the month has days 01 to 29".into())
        );
    }

    /// Round values refused, each for a reason of its own.
    const REFUSED_ROUNDS: [&str; 9] = [
        "3.",
        ".1",
        "3..1",
        "3a",
        "-1",
        "?.1",
        "1 ",
        "99999999999",
        "3,1",
    ];

    #[test]
    fn rounds() {
        assert_eq!(Round::parse("1"), Ok(Round::Numbered(vec![1])));
        assert_eq!(Round::parse("3.1"), Ok(Round::Numbered(vec![3, 1])));
        assert_eq!(Round::parse("4.1.2"), Ok(Round::Numbered(vec![4, 1, 2])));
        assert_eq!(Round::parse("?"), Ok(Round::Unknown));
        assert_eq!(Round::parse("-"), Ok(Round::NotApplicable));
        assert_eq!(Round::parse(""), Err(TagValueError::Empty));
        for text in REFUSED_ROUNDS {
            assert_eq!(
                Round::parse(text),
                Err(TagValueError::Round(text.into())),
                "{text}"
            );
        }
        for text in ["?", "-", "7", "4.1.2"] {
            assert_eq!(Round::parse(text).map(|r| r.to_string()), Ok(text.into()));
        }
    }

    #[test]
    fn times() {
        let time = |h, m, s| Time {
            hour: h,
            minute: m,
            second: s,
        };
        assert_eq!(Time::parse("00:00:00"), Ok(time(Some(0), Some(0), Some(0))));
        assert_eq!(
            Time::parse("23:59:59"),
            Ok(time(Some(23), Some(59), Some(59)))
        );
        assert_eq!(Time::parse("12:??:??"), Ok(time(Some(12), None, None)));
        assert_eq!(time(Some(7), Some(5), None).to_string(), "07:05:??");
        for text in [
            "9:30:00",
            "09:30",
            "09.30.00",
            "09:30:00:00",
            "0a:00:00",
            "09:30:0 ",
        ] {
            assert_eq!(
                Time::parse(text),
                Err(TagValueError::TimeForm(text.into())),
                "{text}"
            );
        }
        assert_eq!(Time::parse(""), Err(TagValueError::Empty));
        assert_eq!(
            Time::parse("24:00:00"),
            Err(TagValueError::TimeRange {
                unit: "hour",
                value: 24,
                max: 23
            })
        );
        assert_eq!(
            Time::parse("12:60:00").map_err(|e| e.to_string()),
            Err("minute 60 does not exist: minutes are 00 to 59".into())
        );
        assert!(matches!(
            Time::parse("12:00:61"),
            Err(TagValueError::TimeRange { unit: "second", .. })
        ));
        // Fields are looked at in order: an hour out of range is told before a minute
        // of one digit, in a value of a time's length that is not laid out as one.
        assert!(matches!(
            Time::parse("25:0:000"),
            Err(TagValueError::TimeRange { unit: "hour", .. })
        ));
        assert_eq!(
            Time::parse("23:0:000"),
            Err(TagValueError::TimeForm("23:0:000".into()))
        );
    }

    /// The checks that validators run on every game accept what the parsers read, and
    /// refuse the rest with the parsers' errors.
    #[test]
    fn checks_give_what_parsing_gives() {
        let rounds = [
            "",
            "?",
            "-",
            "1",
            "3.1",
            "4.1.2",
            "4294967295",
            "4294967296",
            "+1",
        ];
        for text in rounds.into_iter().chain(REFUSED_ROUNDS) {
            assert_eq!(Round::check(text), Round::parse(text).map(drop), "{text}");
        }
        for text in [
            "",
            "?",
            "-",
            "300",
            "180+0",
            "0+1",
            "40/7200:3600",
            "40/7200:20/3600:900+30",
            "*180",
            "3600:40/7200",
            "300+5:60",
            "0",
            "40/0",
            "/",
            "+",
            "*",
            "1:",
            ":1",
            "?:300",
            "300:-",
            "4294967296",
            "12a",
            "60+",
            "+60",
            "40/",
            "/60",
        ] {
            assert_eq!(
                TimeControl::check(text),
                TimeControl::parse(text).map(drop),
                "{text}"
            );
        }
    }

    /// Numbers are read digit by digit: what fits a `u32`, and nothing with a sign, a
    /// space or another character.
    #[test]
    fn numbers_read_as_the_standard_library_reads_them() {
        for text in [
            "0",
            "7",
            "007",
            "4294967295",
            "4294967296",
            "99999999999",
            "",
            "+1",
            "-1",
            " 1",
            "1 ",
            "1a",
            "１",
            "12.5",
        ] {
            let expected = if all_digits(text) {
                text.parse::<u32>().ok()
            } else {
                None
            };
            assert_eq!(parse_u32(text), expected, "{text}");
        }
    }

    #[test]
    fn time_controls_of_every_kind() {
        use TimePeriod::*;
        for (text, expected) in [
            ("?", TimeControl::Unknown),
            ("-", TimeControl::NoControl),
            (
                "40/9000",
                TimeControl::Periods(vec![Moves {
                    moves: 40,
                    seconds: 9000,
                }]),
            ),
            (
                "300",
                TimeControl::Periods(vec![SuddenDeath { seconds: 300 }]),
            ),
            (
                "4500+60",
                TimeControl::Periods(vec![Incremental {
                    seconds: 4500,
                    increment: 60,
                }]),
            ),
            (
                "*180",
                TimeControl::Periods(vec![Sandclock { seconds: 180 }]),
            ),
            (
                "40/7200:20/2400:600+5",
                TimeControl::Periods(vec![
                    Moves {
                        moves: 40,
                        seconds: 7200,
                    },
                    Moves {
                        moves: 20,
                        seconds: 2400,
                    },
                    Incremental {
                        seconds: 600,
                        increment: 5,
                    },
                ]),
            ),
            (
                "40/7200:3600",
                TimeControl::Periods(vec![
                    Moves {
                        moves: 40,
                        seconds: 7200,
                    },
                    SuddenDeath { seconds: 3600 },
                ]),
            ),
            (
                "180+0",
                TimeControl::Periods(vec![Incremental {
                    seconds: 180,
                    increment: 0,
                }]),
            ),
            (
                "0+1",
                TimeControl::Periods(vec![Incremental {
                    seconds: 0,
                    increment: 1,
                }]),
            ),
            (
                "40/7200:*60",
                TimeControl::Periods(vec![
                    Moves {
                        moves: 40,
                        seconds: 7200,
                    },
                    Sandclock { seconds: 60 },
                ]),
            ),
        ] {
            assert_eq!(TimeControl::parse(text), Ok(expected.clone()), "{text}");
            assert_eq!(expected.to_string(), text);
        }
    }

    #[test]
    fn time_controls_refused() {
        assert_eq!(TimeControl::parse(""), Err(TagValueError::Empty));
        for (text, part) in [
            ("40/", "40/"),
            ("/9000", "/9000"),
            ("0/9000", "0/9000"),
            ("40/0", "40/0"),
            ("0", "0"),
            ("*0", "*0"),
            ("*", "*"),
            ("300+", "300+"),
            ("+5", "+5"),
            ("5m", "5m"),
            ("40/7200:", ""),
            ("40/7200::3600", ""),
            ("?:300", "?"),
            ("40/9000:-", "-"),
            ("3 00", "3 00"),
            ("-300", "-300"),
            ("99999999999", "99999999999"),
            ("40/9000/2", "40/9000/2"),
        ] {
            assert!(
                matches!(
                    TimeControl::parse(text),
                    Err(TagValueError::TimeControl { ref value, .. }) if value == part
                ),
                "{text}: {:?}",
                TimeControl::parse(text)
            );
        }
        for text in ["3600:40/7200", "300+5:40/7200", "*60:300"] {
            assert_eq!(
                TimeControl::parse(text).map_err(|e| e.to_string()),
                Err(format!(
                    "{text:?} is not a time control: only the last period can be sudden death, \
                     incremental or a sandclock"
                ))
            );
        }
    }

    #[test]
    fn ratings() {
        assert_eq!(Rating::parse("2785"), Ok(Rating::Rated(2785)));
        assert_eq!(Rating::parse("0"), Ok(Rating::Rated(0)));
        assert_eq!(Rating::parse("-"), Ok(Rating::Unrated));
        assert_eq!(Rating::parse("?"), Ok(Rating::Unknown));
        assert_eq!(Rating::parse(""), Ok(Rating::Unknown));
        assert_eq!(Rating::Rated(2785).value(), Some(2785));
        assert_eq!(Rating::Unknown.value(), None);
        for text in ["2785.5", "-2785", " 2785", "abc", "2,785", "99999999999"] {
            assert_eq!(
                Rating::parse(text),
                Err(TagValueError::Rating(text.into())),
                "{text}"
            );
        }
        for rating in [Rating::Rated(1500), Rating::Unrated, Rating::Unknown] {
            assert_eq!(Rating::parse(&rating.to_string()), Ok(rating));
        }
    }

    #[test]
    fn multi_valued_tags() {
        let mut tags = Tags::new();
        tags.set("Black", "Smith, John Q.:Woodpusher 2000");
        tags.set("WhiteTitle", "IM:-:GM");
        tags.set("WhiteElo", "2400:-:2600");
        tags.set("BlackElo", "2400:x");
        let names: Option<Vec<_>> = tags.items("Black").map(Iterator::collect);
        assert_eq!(names, Some(vec!["Smith, John Q.", "Woodpusher 2000"]));
        let titles: Option<Vec<_>> = tags.items("WhiteTitle").map(Iterator::collect);
        assert_eq!(titles, Some(vec!["IM", "-", "GM"]));
        assert!(tags.items("White").is_none());
        assert_eq!(
            tags.ratings("WhiteElo"),
            Some(Ok(vec![
                Rating::Rated(2400),
                Rating::Unrated,
                Rating::Rated(2600)
            ]))
        );
        assert_eq!(
            tags.ratings("BlackElo"),
            Some(Err(TagValueError::Rating("x".into())))
        );
        assert_eq!(tag_items("").collect::<Vec<_>>(), [""]);
    }

    #[test]
    fn integers() {
        let mut tags = Tags::new();
        tags.set("PlyCount", "85");
        tags.set("Board", "");
        tags.set("Other", "8 5");
        assert_eq!(tags.integer("PlyCount"), Some(Ok(85)));
        assert_eq!(tags.integer("Board"), Some(Err(TagValueError::Empty)));
        assert_eq!(
            tags.integer("Other"),
            Some(Err(TagValueError::Integer("8 5".into())))
        );
        assert_eq!(tags.integer("Missing"), None);
    }

    #[test]
    fn set_up_and_fen() {
        const FEN: &str = "8/8/8/8/8/8/8/K6k w - - 0 1";
        let mut tags = Tags::new();
        assert_eq!(tags.set_up(), Ok(SetUpTags::Initial));
        assert_eq!(SetUpTags::Initial.fen(), None);
        tags.set("SetUp", "0");
        assert_eq!(tags.set_up(), Ok(SetUpTags::Initial));
        tags.set("SetUp", "1");
        assert_eq!(tags.set_up(), Err(TagValueError::MissingFen));
        tags.set("FEN", FEN);
        assert_eq!(tags.set_up(), Ok(SetUpTags::Fen(FEN)));
        tags.set("SetUp", "0");
        assert_eq!(tags.set_up(), Ok(SetUpTags::FenWithoutSetUp(FEN)));
        tags.remove("SetUp");
        assert_eq!(tags.set_up(), Ok(SetUpTags::FenWithoutSetUp(FEN)));
        assert_eq!(tags.set_up().map(|s| s.fen()), Ok(Some(FEN)));
        tags.set("SetUp", "yes");
        assert_eq!(tags.set_up(), Err(TagValueError::SetUp("yes".into())));
    }

    #[test]
    fn typed_accessors() {
        let mut tags = Tags::new();
        tags.set("Date", "1992.11.04");
        tags.set("UTCTime", "25:00:00");
        tags.set("TimeControl", "40/9000");
        tags.set("Round", "-");
        assert_eq!(
            tags.date("Date"),
            Some(Ok(date(Some(1992), Some(11), Some(4))))
        );
        assert_eq!(tags.date("UTCDate"), None);
        assert!(matches!(tags.time("UTCTime"), Some(Err(_))));
        assert_eq!(
            tags.time_control("TimeControl")
                .map(|t| t.map(|t| t.to_string())),
            Some(Ok("40/9000".into()))
        );
        assert_eq!(tags.round(), Some(Ok(Round::NotApplicable)));
    }

    #[test]
    fn check_tags_lists_bad_values_in_tag_order() {
        let mut tags = Tags::new();
        for (name, value) in [
            ("Event", "anything goes"),
            ("Date", "1992.11.04"),
            ("EventDate", "1992/11/04"),
            ("UTCDate", ""),
            ("Round", "3.1"),
            ("Time", "9:30"),
            ("TimeControl", "40/9000:300"),
            ("TimeControlWhite", "5 min"),
            ("WhiteElo", "2700:?"),
            ("BlackElo", "GM"),
            ("PlyCount", "eighty"),
            ("Board", "3"),
            ("SetUp", "1"),
            ("PublicationDate", "1900.02.29"),
        ] {
            tags.set(name, value);
        }
        let names = |problems: Vec<(String, TagValueError)>| -> Vec<String> {
            problems.into_iter().map(|(name, _)| name).collect()
        };
        assert_eq!(
            names(check_tags(&tags, false)),
            [
                "EventDate",
                "UTCDate",
                "Time",
                "TimeControlWhite",
                "BlackElo",
                "PlyCount",
                "SetUp",
                "PublicationDate"
            ]
        );
        assert_eq!(
            names(check_tags(&tags, true)),
            [
                "EventDate",
                "Time",
                "TimeControlWhite",
                "BlackElo",
                "PlyCount",
                "SetUp",
                "PublicationDate"
            ]
        );
        let problems = check_tags(&tags, false);
        assert!(problems.contains(&("SetUp".into(), TagValueError::MissingFen)));
        assert!(problems.contains(&("UTCDate".into(), TagValueError::Empty)));
        assert!(check_tags(&Tags::new(), false).is_empty());
    }

    #[test]
    fn messages_read_well() {
        assert_eq!(
            TagValueError::DateForm("1992/11/04".into()).to_string(),
            "\"1992/11/04\" is not a date YYYY.MM.DD (unknown parts written as ????, ?? or ??)"
        );
        assert_eq!(
            TagValueError::Month(13).to_string(),
            "month 13 does not exist: months are 01 to 12"
        );
        assert_eq!(
            TagValueError::SetUp("2".into()).to_string(),
            "SetUp is \"2\": it must be 0 (the usual start position) or 1 (the position in the FEN tag)"
        );
    }
}
