//! Commands embedded in comments (commands.rst): `[%clk 1:55:21]`,
//! `[%clock w0:00:10 B0:00:03]`, `[%emt 0:00:12]`, and any other `[%name value]`.
//!
//! [`parse_comment`] splits a comment into text and commands. Joining the parts'
//! [`Part::text`] gives the comment back byte for byte, so that a program can read the
//! commands it knows and write the comment back unchanged; commands it does not know are
//! kept verbatim. A [`Command`] built by a program is written in its canonical form by
//! `Display`.
//!
//! ```
//! use pdn::commands::{parse_comment, ClockTime, Command, Part};
//!
//! let comment = "Optional leading comments [%clock 0:49:11] optional trailing comments";
//! let parts = parse_comment(comment);
//! let Part::Command { command: Ok(Command::Clock(clocks)), .. } = &parts[1] else { panic!() };
//! assert_eq!(clocks.first.time, ClockTime::new(0, 49, 11).unwrap());
//! assert_eq!(parts.iter().map(Part::text).collect::<String>(), comment);
//!
//! let parts = parse_comment("[%clk w0:00:10 B0:00:03]");
//! let Part::Command { command: Ok(command), text } = &parts[0] else { panic!() };
//! assert_eq!(command.to_string(), *text);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::fmt;

use crate::Color;

/// A time on a clock or a duration, `h:mm:ss`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ClockTime {
    hours: u32,
    minutes: u8,
    seconds: u8,
}

impl ClockTime {
    /// A time of `hours:minutes:seconds`; `None` if minutes or seconds are 60 or more.
    pub const fn new(hours: u32, minutes: u8, seconds: u8) -> Option<ClockTime> {
        if minutes < 60 && seconds < 60 {
            Some(ClockTime {
                hours,
                minutes,
                seconds,
            })
        } else {
            None
        }
    }

    /// The hours.
    pub const fn hours(self) -> u32 {
        self.hours
    }

    /// The minutes, below 60.
    pub const fn minutes(self) -> u8 {
        self.minutes
    }

    /// The seconds, below 60.
    pub const fn seconds(self) -> u8 {
        self.seconds
    }

    /// The time in seconds.
    pub const fn as_secs(self) -> u64 {
        self.hours as u64 * 3600 + self.minutes as u64 * 60 + self.seconds as u64
    }

    /// Reads `h:mm:ss` (one to three digits of hours; commands.rst writes one or two).
    pub fn parse(text: &str) -> Result<ClockTime, CommandError> {
        let bad = || CommandError::Time(text.to_owned());
        let mut fields = text.split(':');
        let (Some(h), Some(m), Some(s), None) =
            (fields.next(), fields.next(), fields.next(), fields.next())
        else {
            return Err(bad());
        };
        let digits = |t: &str, min: usize, max: usize| {
            (min..=max).contains(&t.len()) && t.bytes().all(|b| b.is_ascii_digit())
        };
        if !digits(h, 1, 3) || !digits(m, 2, 2) || !digits(s, 2, 2) {
            return Err(bad());
        }
        let (Ok(h), Ok(m), Ok(s)) = (h.parse(), m.parse(), s.parse()) else {
            return Err(bad());
        };
        ClockTime::new(h, m, s).ok_or_else(bad)
    }
}

impl fmt::Display for ClockTime {
    /// `h:mm:ss`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{:02}:{:02}", self.hours, self.minutes, self.seconds)
    }
}

/// One clock time of a `clk` or `clock` command: whose clock it is, if said, and whether
/// that clock is running (written with an upper-case `W` or `B`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ClockReading {
    /// The player whose clock it is (`w`/`W` or `b`/`B`), if written.
    pub side: Option<Color>,
    /// Whether that clock is running: the letter is upper case.
    pub running: bool,
    /// The time shown.
    pub time: ClockTime,
}

impl ClockReading {
    fn parse(text: &str) -> Result<ClockReading, CommandError> {
        let (side, running, time) = match text.as_bytes().first() {
            Some(b'w') => (Some(Color::White), false, &text[1..]),
            Some(b'W') => (Some(Color::White), true, &text[1..]),
            Some(b'b') => (Some(Color::Black), false, &text[1..]),
            Some(b'B') => (Some(Color::Black), true, &text[1..]),
            _ => (None, false, text),
        };
        Ok(ClockReading {
            side,
            running,
            time: ClockTime::parse(time)?,
        })
    }
}

impl fmt::Display for ClockReading {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.side, self.running) {
            (Some(Color::White), false) => f.write_str("w")?,
            (Some(Color::White), true) => f.write_str("W")?,
            (Some(Color::Black), false) => f.write_str("b")?,
            (Some(Color::Black), true) => f.write_str("B")?,
            (None, _) => {}
        }
        write!(f, "{}", self.time)
    }
}

/// The one or two clock times of a `clk` or `clock` command.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Clocks {
    /// The first time.
    pub first: ClockReading,
    /// The second time, if there is one.
    pub second: Option<ClockReading>,
}

impl Clocks {
    fn parse(value: &str) -> Result<Clocks, CommandError> {
        let mut items = value.split_whitespace();
        let first = items
            .next()
            .ok_or_else(|| CommandError::Time(value.to_owned()))?;
        let clocks = Clocks {
            first: ClockReading::parse(first)?,
            second: items.next().map(ClockReading::parse).transpose()?,
        };
        match items.next() {
            Some(extra) => Err(CommandError::Extra(extra.to_owned())),
            None => Ok(clocks),
        }
    }
}

impl fmt::Display for Clocks {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.first)?;
        if let Some(second) = self.second {
            write!(f, " {second}")?;
        }
        Ok(())
    }
}

/// A command embedded in a comment.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Command {
    /// `[%clk …]`: the time displayed on a (digital) clock, remaining.
    Clk(Clocks),
    /// `[%clock …]`: PDN 3.0's extension of `clk`, the same value.
    Clock(Clocks),
    /// `[%mct h:mm:ss]`: the time displayed on a mechanical clock (elapsed).
    Mct(ClockTime),
    /// `[%egt h:mm:ss]`: the elapsed game time.
    Egt(ClockTime),
    /// `[%emt h:mm:ss]`: the elapsed move time.
    Emt(ClockTime),
    /// Any other command, verbatim: `[%eval -0.048]`, `[%inbook]`.
    Other {
        /// The command's name.
        name: String,
        /// Its value as written, without the space after the name (may be empty).
        value: String,
    },
}

impl Command {
    /// Reads a command from its name and value (`clk`, `1:55:21`). Names are matched
    /// exactly, as commands.rst writes them; unknown names give [`Command::Other`].
    ///
    /// # Errors
    ///
    /// If a known command's value does not have its form.
    pub fn parse(name: &str, value: &str) -> Result<Command, CommandError> {
        let value = value.trim();
        let time = || ClockTime::parse(value);
        Ok(match name {
            "clk" => Command::Clk(Clocks::parse(value)?),
            "clock" => Command::Clock(Clocks::parse(value)?),
            "mct" => Command::Mct(time()?),
            "egt" => Command::Egt(time()?),
            "emt" => Command::Emt(time()?),
            _ => Command::Other {
                name: name.to_owned(),
                value: value.to_owned(),
            },
        })
    }

    /// The command's name.
    pub fn name(&self) -> &str {
        match self {
            Command::Clk(_) => "clk",
            Command::Clock(_) => "clock",
            Command::Mct(_) => "mct",
            Command::Egt(_) => "egt",
            Command::Emt(_) => "emt",
            Command::Other { name, .. } => name,
        }
    }
}

impl fmt::Display for Command {
    /// The canonical form: `[%name value]`, or `[%name]` without a value.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "[%{}", self.name())?;
        match self {
            Command::Clk(c) | Command::Clock(c) => write!(f, " {c}")?,
            Command::Mct(t) | Command::Egt(t) | Command::Emt(t) => write!(f, " {t}")?,
            Command::Other { value, .. } if !value.is_empty() => write!(f, " {value}")?,
            Command::Other { .. } => {}
        }
        f.write_str("]")
    }
}

/// Why a known command's value cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CommandError {
    /// A time that is not `h:mm:ss`.
    #[error("`{0}` is not a time h:mm:ss (optionally after w, W, b or B)")]
    Time(String),
    /// More than two clock times.
    #[error("`{0}`: a clock command has one or two times")]
    Extra(String),
}

/// A piece of a comment: text, or an embedded command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Part<'a> {
    /// Text between commands, as written.
    Text(&'a str),
    /// A command, `[%…]`.
    Command {
        /// The command as written, brackets included.
        text: &'a str,
        /// The command read, or why a known command's value could not be read.
        command: Result<Command, CommandError>,
    },
}

impl<'a> Part<'a> {
    /// The part as written.
    pub fn text(&self) -> &'a str {
        match self {
            Part::Text(text) | Part::Command { text, .. } => text,
        }
    }
}

/// Splits a comment into text and commands. `[%` followed by a name (letters, digits,
/// `_`) starts a command, which ends at the next `]`; anything else is text.
pub fn parse_comment(comment: &str) -> Vec<Part<'_>> {
    let mut parts = Vec::new();
    let mut text_start = 0;
    let mut search = 0;
    while let Some(found) = comment[search..].find("[%") {
        let open = search + found;
        let after = &comment[open + 2..];
        let name_len = after
            .bytes()
            .take_while(|b| b.is_ascii_alphanumeric() || *b == b'_')
            .count();
        let close = after.find(']');
        let (Some(close), true) = (close, name_len > 0) else {
            search = open + 2;
            continue;
        };
        if close < name_len {
            search = open + 2;
            continue;
        }
        if open > text_start {
            parts.push(Part::Text(&comment[text_start..open]));
        }
        let end = open + 2 + close + 1;
        let name_len = known_prefix(&after[..name_len]).unwrap_or(name_len);
        let name = &after[..name_len];
        let value = &after[name_len..close];
        parts.push(Part::Command {
            text: &comment[open..end],
            command: Command::parse(name, value),
        });
        text_start = end;
        search = end;
    }
    if text_start < comment.len() {
        parts.push(Part::Text(&comment[text_start..]));
    }
    parts
}

/// The length of a known command name at the start of `name` when the value follows
/// it with no space (`clockW1:00:00`, as `\s*` in commands.rst allows).
fn known_prefix(name: &str) -> Option<usize> {
    ["clock", "clk", "mct", "egt", "emt"]
        .into_iter()
        .find(|known| {
            name.len() > known.len()
                && name.starts_with(known)
                && matches!(
                    name.as_bytes()[known.len()],
                    b'w' | b'W' | b'b' | b'B' | b'0'..=b'9'
                )
        })
        .map(str::len)
}

/// The commands of a comment that could be read, in order.
///
/// ```
/// use pdn::commands::{commands, Command};
/// let found: Vec<_> = commands("[%drgnode 1 2][%inbook] [%emt 0:00:05]").collect();
/// assert_eq!(found.len(), 3);
/// assert_eq!(found[2].to_string(), "[%emt 0:00:05]");
/// ```
pub fn commands(comment: &str) -> impl Iterator<Item = Command> + '_ {
    parse_comment(comment)
        .into_iter()
        .filter_map(|part| match part {
            Part::Command {
                command: Ok(command),
                ..
            } => Some(command),
            _ => None,
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clocks(text: &str) -> Clocks {
        match parse_comment(text).first() {
            Some(Part::Command {
                command: Ok(Command::Clk(c) | Command::Clock(c)),
                ..
            }) => *c,
            other => panic!("{text}: {other:?}"),
        }
    }

    #[test]
    fn examples_of_commands_rst() {
        let c = clocks("[%clk 1:55:21]");
        assert_eq!(c.first.time.as_secs(), 3600 + 55 * 60 + 21);
        assert_eq!(c.first.side, None);
        assert_eq!(c.second, None);
        let c = clocks("[%clk w0:00:10 B0:00:03]");
        assert_eq!(c.first.side, Some(Color::White));
        assert!(!c.first.running);
        let second = c.second.expect("two times");
        assert_eq!(second.side, Some(Color::Black));
        assert!(second.running);
        assert_eq!(second.time.as_secs(), 3);
        let c = clocks("[%clock 0:49:11]");
        assert_eq!(c.first.time, ClockTime::new(0, 49, 11).expect("valid"));
        // `\s*` after the name: no space at all.
        let c = clocks("[%clockW1:00:00]");
        assert!(c.first.running);
    }

    #[test]
    fn written_back_unchanged() {
        for comment in [
            "23.44-39 {[%clk 1:05:23]}",
            "Optional leading comments\n[%clock 0:49:11] optional trailing comments",
            "[%drgnode 9 10][%eval -0.048][%inbook]",
            "[%clk  01:05:23 ] odd spacing kept",
            "[%clk 1:5:23] malformed kept",
            "no command [% not one] [%unclosed",
            "",
        ] {
            let joined: String = parse_comment(comment).iter().map(Part::text).collect();
            assert_eq!(joined, comment);
        }
    }

    #[test]
    fn canonical_forms_round_trip() {
        for text in [
            "[%clk 1:55:21]",
            "[%clk w0:00:10 B0:00:03]",
            "[%clock b12:00:00]",
            "[%mct 0:10:00]",
            "[%egt 2:01:59]",
            "[%emt 0:00:12]",
            "[%inbook]",
            "[%eval -0.048]",
        ] {
            let parts = parse_comment(text);
            let [
                Part::Command {
                    command: Ok(command),
                    ..
                },
            ] = parts.as_slice()
            else {
                panic!("{text}: {parts:?}");
            };
            assert_eq!(command.to_string(), text);
        }
    }

    #[test]
    fn malformed_values() {
        for (text, error) in [
            ("[%clk 1:5:23]", CommandError::Time("1:5:23".into())),
            ("[%clk 1:65:23]", CommandError::Time("1:65:23".into())),
            ("[%clk]", CommandError::Time(String::new())),
            (
                "[%clock w1:00:00 b1:00:00 w0:00:01]",
                CommandError::Extra("w0:00:01".into()),
            ),
            ("[%emt soon]", CommandError::Time("soon".into())),
        ] {
            let parts = parse_comment(text);
            assert_eq!(
                parts,
                [Part::Command {
                    text,
                    command: Err(error)
                }]
            );
        }
        assert!(ClockTime::new(0, 60, 0).is_none());
    }

    #[test]
    fn unknown_commands_are_verbatim() {
        let parts = parse_comment("a [%drgnode 0 1] b");
        assert_eq!(parts[0], Part::Text("a "));
        assert_eq!(
            parts[1],
            Part::Command {
                text: "[%drgnode 0 1]",
                command: Ok(Command::Other {
                    name: "drgnode".into(),
                    value: "0 1".into()
                })
            }
        );
        assert_eq!(parts[2], Part::Text(" b"));
    }
}
