//! What a query filters games by, as lichess's explorer does: the month of play, the
//! players' rating group, the speed of the time control, and the result counted.
//!
//! Each is read from a game's tags once, when it is indexed, and kept in its
//! [`GameRecord`](crate::record::GameRecord).

use std::fmt;
use std::str::FromStr;

use notation::{Date, GameResult, Tags, TimeControl, TimePeriod};

/// The speed of a game, from its `TimeControl` as lichess estimates it: initial seconds
/// plus 40 times the increment.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Speed {
    /// Under 30 seconds.
    UltraBullet,
    /// 30 to 179 seconds.
    Bullet,
    /// 180 to 479 seconds.
    Blitz,
    /// 480 to 1499 seconds.
    Rapid,
    /// 1500 seconds and more.
    Classical,
    /// `TimeControl "-"`: no clock, days per move.
    Correspondence,
}

impl Speed {
    /// Every speed, fastest first.
    pub const ALL: [Speed; 6] = [
        Speed::UltraBullet,
        Speed::Bullet,
        Speed::Blitz,
        Speed::Rapid,
        Speed::Classical,
        Speed::Correspondence,
    ];

    /// The name lichess gives it (`ultraBullet`, `blitz`, …).
    pub const fn name(self) -> &'static str {
        match self {
            Speed::UltraBullet => "ultraBullet",
            Speed::Bullet => "bullet",
            Speed::Blitz => "blitz",
            Speed::Rapid => "rapid",
            Speed::Classical => "classical",
            Speed::Correspondence => "correspondence",
        }
    }

    /// The speed of a game with these tags; `None` without a `TimeControl` that says.
    pub fn of(tags: &Tags) -> Option<Speed> {
        Speed::of_values(tags)
    }

    /// [`Speed::of`] the values of a game's tags, however they are held.
    pub(crate) fn of_values(tags: &impl TagValues) -> Option<Speed> {
        match TimeControl::parse(tags.value("TimeControl")?).ok()? {
            TimeControl::NoControl => Some(Speed::Correspondence),
            TimeControl::Unknown => None,
            TimeControl::Periods(periods) => {
                let estimate = match *periods.first()? {
                    TimePeriod::Incremental { seconds, increment } => {
                        u64::from(seconds) + 40 * u64::from(increment)
                    }
                    TimePeriod::SuddenDeath { seconds }
                    | TimePeriod::Sandclock { seconds }
                    | TimePeriod::Moves { seconds, .. } => u64::from(seconds),
                };
                Some(Speed::of_seconds(estimate))
            }
        }
    }

    /// The speed of an estimated duration in seconds.
    pub const fn of_seconds(seconds: u64) -> Speed {
        match seconds {
            0..30 => Speed::UltraBullet,
            30..180 => Speed::Bullet,
            180..480 => Speed::Blitz,
            480..1500 => Speed::Rapid,
            _ => Speed::Classical,
        }
    }

    pub(crate) const fn code(self) -> u8 {
        self as u8
    }

    pub(crate) fn from_code(code: u8) -> Option<Speed> {
        Speed::ALL.get(usize::from(code)).copied()
    }
}

impl fmt::Display for Speed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Speed {
    type Err = String;

    /// Reads lichess's name, in any case (`blitz`, `ultraBullet`, `ultrabullet`).
    fn from_str(s: &str) -> Result<Speed, String> {
        Speed::ALL
            .into_iter()
            .find(|speed| speed.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| {
                format!(
                    "{s:?} is not a speed; expected ultraBullet, bullet, blitz, rapid, \
                     classical or correspondence"
                )
            })
    }
}

/// A rating group, as lichess's explorer has them: the average of the two players'
/// ratings lies in `[group, next group)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct RatingGroup(u16);

impl RatingGroup {
    /// The groups' lower bounds: 0, 1000, 1200, …, 2200, 2500 (open-ended).
    pub const BOUNDS: [u16; 9] = [0, 1000, 1200, 1400, 1600, 1800, 2000, 2200, 2500];

    /// The group of an average rating.
    pub fn of_average(average: u32) -> RatingGroup {
        let bound = RatingGroup::BOUNDS
            .into_iter()
            .rev()
            .find(|&b| u32::from(b) <= average)
            .unwrap_or(0);
        RatingGroup(bound)
    }

    /// The group of a game, from its players' ratings; `None` unless both are known.
    pub fn of_ratings(white: Option<u16>, black: Option<u16>) -> Option<RatingGroup> {
        Some(RatingGroup::of_average(
            (u32::from(white?) + u32::from(black?)) / 2,
        ))
    }

    /// The lower bound, which names the group.
    pub const fn bound(self) -> u16 {
        self.0
    }
}

impl FromStr for RatingGroup {
    type Err = String;

    /// Reads a group by its lower bound (`1800`).
    fn from_str(s: &str) -> Result<RatingGroup, String> {
        s.trim()
            .parse::<u16>()
            .ok()
            .filter(|n| RatingGroup::BOUNDS.contains(n))
            .map(RatingGroup)
            .ok_or_else(|| {
                format!(
                    "{s:?} is not a rating group; expected one of 0, 1000, 1200, 1400, 1600, \
                     1800, 2000, 2200, 2500"
                )
            })
    }
}

/// A month of play, counted from year 0 (`year × 12 + month − 1`), so that months sort
/// and compare as numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Month(u16);

impl Month {
    /// The month of a year and a month number (1 to 12).
    pub fn new(year: u16, month: u8) -> Option<Month> {
        if !(1..=12).contains(&month) || year > 5000 {
            return None;
        }
        Some(Month(year * 12 + u16::from(month) - 1))
    }

    /// The year.
    pub const fn year(self) -> u16 {
        self.0 / 12
    }

    /// The month number, 1 to 12.
    pub const fn month(self) -> u8 {
        (self.0 % 12) as u8 + 1
    }

    pub(crate) const fn code(self) -> u16 {
        self.0
    }

    pub(crate) const fn from_code(code: u16) -> Month {
        Month(code)
    }
}

impl fmt::Display for Month {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:04}-{:02}", self.year(), self.month())
    }
}

impl FromStr for Month {
    type Err = String;

    /// Reads `YYYY-MM` (lichess's `since` and `until`).
    fn from_str(s: &str) -> Result<Month, String> {
        let bad = || format!("{s:?} is not a month; expected YYYY-MM, as 2024-01");
        let (year, month) = s.trim().split_once('-').ok_or_else(bad)?;
        if year.len() != 4 || month.len() != 2 {
            return Err(bad());
        }
        let year = year.parse().map_err(|_| bad())?;
        let month = month.parse().map_err(|_| bad())?;
        Month::new(year, month).ok_or_else(bad)
    }
}

/// Who won a game, as the explorer counts it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Winner {
    /// White (the first player) won.
    White,
    /// Black (the second player) won.
    Black,
    /// A draw.
    Draw,
    /// Not known: the game is unfinished, or both players forfeited. Such games count
    /// in `find` but not in the explorer's statistics.
    Unknown,
}

impl Winner {
    /// The winner a result marker says.
    pub const fn of(result: GameResult) -> Winner {
        match result {
            GameResult::FirstWins | GameResult::FirstWinsTwo => Winner::White,
            GameResult::SecondWins | GameResult::SecondWinsTwo => Winner::Black,
            GameResult::Draw | GameResult::DrawTwo => Winner::Draw,
            GameResult::Unknown | GameResult::DoubleForfeit => Winner::Unknown,
        }
    }

    pub(crate) const fn code(self) -> u8 {
        self as u8
    }

    pub(crate) const fn from_code(code: u8) -> Winner {
        match code {
            0 => Winner::White,
            1 => Winner::Black,
            2 => Winner::Draw,
            _ => Winner::Unknown,
        }
    }
}

/// The month of a game: from `UTCDate` where it has one with a year and a month, else
/// from `Date`.
pub fn month_of(tags: &Tags) -> Option<Month> {
    month_of_values(tags)
}

/// [`month_of`] the values of a game's tags, however they are held.
pub(crate) fn month_of_values(tags: &impl TagValues) -> Option<Month> {
    ["UTCDate", "Date"].into_iter().find_map(|name| {
        let date = Date::parse(tags.value(name)?).ok()?;
        Month::new(date.year?, date.month?)
    })
}

/// The values of a game's tags, by name: a tree's [`Tags`], or the few values a reader
/// keeps as it goes (a chess build's reading along the validator keeps those of
/// [`crate::record::Described::TAGS`] alone, in text kept from one game to the next).
pub(crate) trait TagValues {
    /// The value of the first tag of this name.
    fn value(&self, name: &str) -> Option<&str>;
}

impl TagValues for Tags {
    fn value(&self, name: &str) -> Option<&str> {
        self.get(name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn speeds_follow_lichess_estimate() {
        let speed = |tc: &str| {
            let mut tags = Tags::default();
            tags.set("TimeControl", tc);
            Speed::of(&tags)
        };
        assert_eq!(speed("15+0"), Some(Speed::UltraBullet));
        assert_eq!(speed("60+0"), Some(Speed::Bullet));
        // 120 + 40 × 1 = 160: bullet; 120 + 40 × 2 = 200: blitz.
        assert_eq!(speed("120+1"), Some(Speed::Bullet));
        assert_eq!(speed("120+2"), Some(Speed::Blitz));
        assert_eq!(speed("300+3"), Some(Speed::Blitz));
        assert_eq!(speed("600+5"), Some(Speed::Rapid));
        assert_eq!(speed("1500+0"), Some(Speed::Classical));
        assert_eq!(speed("-"), Some(Speed::Correspondence));
        assert_eq!(speed("?"), None);
        assert_eq!(Speed::of(&Tags::default()), None);
        assert_eq!("ultrabullet".parse(), Ok(Speed::UltraBullet));
        assert!("fast".parse::<Speed>().is_err());
    }

    #[test]
    fn rating_groups_are_lichess_groups_of_the_average() {
        let group = |w, b| RatingGroup::of_ratings(Some(w), Some(b)).map(RatingGroup::bound);
        assert_eq!(group(900, 1099), Some(0));
        assert_eq!(group(1000, 1000), Some(1000));
        assert_eq!(group(1999, 2001), Some(2000));
        assert_eq!(group(2400, 2599), Some(2200));
        assert_eq!(group(2500, 2500), Some(2500));
        assert_eq!(group(3000, 3200), Some(2500));
        assert_eq!(RatingGroup::of_ratings(Some(1500), None), None);
        assert_eq!(
            "1800".parse::<RatingGroup>().map(RatingGroup::bound),
            Ok(1800)
        );
        assert!("1700".parse::<RatingGroup>().is_err());
    }

    #[test]
    fn months_read_and_order() {
        let jan: Month = "2024-01".parse().expect("a month");
        let dec: Month = "2023-12".parse().expect("a month");
        assert!(dec < jan);
        assert_eq!(jan.to_string(), "2024-01");
        assert!("2024-13".parse::<Month>().is_err());
        assert!("2024-1".parse::<Month>().is_err());
        let mut tags = Tags::default();
        tags.set("Date", "2020.05.??");
        assert_eq!(
            month_of(&tags).map(|m| m.to_string()).as_deref(),
            Some("2020-05")
        );
        tags.set("UTCDate", "2021.06.30");
        assert_eq!(
            month_of(&tags).map(|m| m.to_string()).as_deref(),
            Some("2021-06")
        );
        tags.set("UTCDate", "????.??.??");
        tags.set("Date", "2019.??.??");
        assert_eq!(month_of(&tags), None);
    }
}
