//! Tag values as typed columns want them: PGN dates and times, ratings.
//!
//! A value that does not read as its type gives `None` (a null), never an error: the
//! tag is kept as written in the `tags` column all the same.

/// The days from 1970-01-01 to a PGN date written `YYYY.MM.DD` (Arrow's `date32`).
/// `None` when any part is unknown (`??`) or the date does not exist.
///
/// ```
/// use columnar::values::date32;
/// assert_eq!(date32("1970.01.02"), Some(1));
/// assert_eq!(date32("2024.02.29"), Some(19_782));
/// assert_eq!(date32("2023.02.29"), None);
/// assert_eq!(date32("2024.??.??"), None);
/// ```
pub fn date32(text: &str) -> Option<i32> {
    let mut parts = text.trim().split('.');
    let year: i64 = digits(parts.next()?)?;
    let month: i64 = digits(parts.next()?)?;
    let day: i64 = digits(parts.next()?)?;
    if parts.next().is_some() || !(1..=12).contains(&month) || day < 1 {
        return None;
    }
    let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
    let days_in_month = match month {
        2 if leap => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    };
    if day > days_in_month {
        return None;
    }
    i32::try_from(days_from_civil(year, month, day)).ok()
}

/// The microseconds since midnight of a time written `HH:MM:SS` (Arrow's `time64[µs]`),
/// with an optional fraction of a second. `None` when it is not such a time.
///
/// ```
/// use columnar::values::time64_micros;
/// assert_eq!(time64_micros("00:00:01"), Some(1_000_000));
/// assert_eq!(time64_micros("11:32:01.5"), Some(41_521_500_000));
/// assert_eq!(time64_micros("24:00:00"), None);
/// assert_eq!(time64_micros("??:??:??"), None);
/// ```
pub fn time64_micros(text: &str) -> Option<i64> {
    let mut parts = text.trim().split(':');
    let hours: i64 = digits(parts.next()?)?;
    let minutes: i64 = digits(parts.next()?)?;
    let seconds = parts.next()?;
    if parts.next().is_some() || hours > 23 || minutes > 59 {
        return None;
    }
    let (whole, fraction) = match seconds.split_once('.') {
        Some((whole, fraction)) => (whole, fraction),
        None => (seconds, ""),
    };
    let whole: i64 = digits(whole)?;
    if whole > 59 || fraction.len() > 6 || !fraction.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let mut micros = 0;
    for (i, b) in fraction.bytes().enumerate() {
        micros += i64::from(b - b'0') * 10_i64.pow(5 - i as u32);
    }
    Some(((hours * 60 + minutes) * 60 + whole) * 1_000_000 + micros)
}

/// A rating or rating change (`2100`, `+4`, `-12`) as a 16-bit integer, as lichess's
/// tables hold them; `None` when it is not a number in range (`?`, `-`, empty).
///
/// ```
/// use columnar::values::int16;
/// assert_eq!(int16("+4"), Some(4));
/// assert_eq!(int16("-12"), Some(-12));
/// assert_eq!(int16("?"), None);
/// assert_eq!(int16("40000"), None);
/// ```
pub fn int16(text: &str) -> Option<i16> {
    let text = text.trim();
    let unsigned = text.strip_prefix('+').unwrap_or(text);
    if unsigned.starts_with(['+', '-']) && text.starts_with('+') {
        return None;
    }
    unsigned.parse().ok()
}

/// A run of ASCII digits as a number (no sign, no blanks).
fn digits(text: &str) -> Option<i64> {
    if text.is_empty() || text.len() > 9 || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

/// Days since 1970-01-01 of a proleptic Gregorian date (month 1–12): years are counted
/// from March, so that the leap day falls at the end of the counted year.
fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let year = if month <= 2 { year - 1 } else { year };
    let era = year.div_euclid(400);
    let year_of_era = year - era * 400;
    let month_from_march = (month + 9) % 12;
    let day_of_year = (153 * month_from_march + 2) / 5 + day - 1;
    let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    era * 146_097 + day_of_era - 719_468
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_count_days_from_the_epoch() {
        assert_eq!(date32("1970.01.01"), Some(0));
        assert_eq!(date32("1969.12.31"), Some(-1));
        assert_eq!(date32("2000.03.01"), Some(11_017));
        assert_eq!(date32("1900.02.29"), None);
        assert_eq!(date32("2000.02.29"), Some(11_016));
        assert_eq!(date32("2024.13.01"), None);
        assert_eq!(date32("2024.01"), None);
        assert_eq!(date32("2024.01.01.01"), None);
        assert_eq!(date32("????.??.??"), None);
        assert_eq!(date32(""), None);
    }

    #[test]
    fn times_and_ratings() {
        assert_eq!(time64_micros("23:59:59.999999"), Some(86_399_999_999));
        assert_eq!(time64_micros("12:60:00"), None);
        assert_eq!(time64_micros("12:00"), None);
        assert_eq!(time64_micros("1:2:3"), Some(3_723_000_000));
        assert_eq!(int16("2100"), Some(2100));
        assert_eq!(int16("+-4"), None);
        assert_eq!(int16(""), None);
        assert_eq!(int16("-32768"), Some(i16::MIN));
    }
}
