//! When games were played: from January 2019 to December 2025, more in recent months (as
//! lichess grew), in order through a collection, as lichess's monthly files are.

/// The first year and month, and how many months there are.
const FIRST: (u32, u32) = (2019, 1);
const MONTHS: u32 = 84;

/// A moment of the period, in UTC.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Moment {
    /// The year, 2019 to 2025.
    pub year: u32,
    /// The month, 1 to 12.
    pub month: u32,
    /// The day of the month, from 1.
    pub day: u32,
    /// Seconds since midnight.
    pub second: u32,
}

impl Moment {
    /// As the `Date` and `UTCDate` tags write it: `2024.03.15`.
    pub fn date(&self) -> String {
        format!("{}.{:02}.{:02}", self.year, self.month, self.day)
    }

    /// As the `UTCTime` tag writes it: `13:45:02`.
    pub fn time(&self) -> String {
        let s = self.second;
        format!("{:02}:{:02}:{:02}", s / 3600, (s / 60) % 60, s % 60)
    }
}

/// The months of the period and their share of the games.
#[derive(Clone, Debug)]
pub struct Calendar {
    /// The running sums of the months' weights, the last the total.
    weights: Vec<f64>,
}

impl Default for Calendar {
    fn default() -> Self {
        Calendar::new()
    }
}

impl Calendar {
    /// The period's months, each weighted by how many games lichess had then (a growth
    /// that levels off: the last months have about three times the first's).
    pub fn new() -> Calendar {
        let mut total = 0.0;
        let weights = (0..MONTHS)
            .map(|m| {
                total += 35.0 + 70.0 * (1.0 - (-f64::from(m) / 20.0).exp());
                total
            })
            .collect();
        Calendar { weights }
    }

    /// The moment at `fraction` (0 to 1) of the games: the month it falls in by the
    /// weights, the day and time by where in the month's share it falls.
    pub fn at(&self, fraction: f64) -> Moment {
        let total = self.weights.last().copied().unwrap_or(1.0);
        let target = fraction.clamp(0.0, 1.0) * total;
        let index = self
            .weights
            .partition_point(|&w| w <= target)
            .min(self.weights.len().saturating_sub(1));
        let start = if index == 0 {
            0.0
        } else {
            self.weights[index - 1]
        };
        let width = (self.weights[index] - start).max(f64::MIN_POSITIVE);
        let within = ((target - start) / width).clamp(0.0, 1.0);
        let months = FIRST.1 - 1 + index as u32;
        let (year, month) = (FIRST.0 + months / 12, months % 12 + 1);
        let seconds_in_month = days_in(year, month) * 86_400;
        let second = ((within * f64::from(seconds_in_month)) as u32).min(seconds_in_month - 1);
        Moment {
            year,
            month,
            day: second / 86_400 + 1,
            second: second % 86_400,
        }
    }
}

/// The days of a month of the Gregorian calendar.
fn days_in(year: u32, month: u32) -> u32 {
    match month {
        4 | 6 | 9 | 11 => 30,
        2 if year.is_multiple_of(4) && (!year.is_multiple_of(100) || year.is_multiple_of(400)) => {
            29
        }
        2 => 28,
        _ => 31,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_period_runs_from_2019_to_2025_in_order() {
        let calendar = Calendar::new();
        let first = calendar.at(0.0);
        let last = calendar.at(1.0);
        assert_eq!(
            (first.year, first.month, first.day, first.second),
            (2019, 1, 1, 0)
        );
        assert_eq!((last.year, last.month, last.day), (2025, 12, 31));
        assert_eq!(last.time(), "23:59:59");
        let moments: Vec<Moment> = (0..=1000)
            .map(|i| calendar.at(f64::from(i) / 1000.0))
            .collect();
        assert!(moments.windows(2).all(|w| w[0] <= w[1]));
        assert_eq!(calendar.at(0.5).date().len(), 10);
        // Recent months have more games: the middle of the games is past the middle of
        // the period (April 2022).
        assert!(
            calendar.at(0.5)
                > Moment {
                    year: 2022,
                    month: 6,
                    day: 1,
                    second: 0
                }
        );
    }
}
