//! Commands embedded in comments: `[%clk 1:30:00]`, `[%emt 0:00:12]`, `[%eval 0.17]`,
//! `[%eval #-3]`, `[%csl Ga4]`, `[%cal Ge2e4]`, and any other `[%name …]`.
//!
//! Game trees keep comments as text. [`parse`] splits a comment into [`Segment`]s: the text
//! between commands, as written, and each command with its typed value ([`Command`]);
//! commands this module does not know, or cannot read, are kept as
//! [`Command::Other`]. [`write()`] puts the segments back together: a comment parsed and
//! written back is the same string, byte for byte. A command made by a program (with no
//! text it was read from) is written in its canonical form ([`Command`]'s `Display`).
//!
//! ```
//! use pgn::commands::{self, Command, Eval, Score, ClockTime, Segment};
//!
//! let comment = "[%eval -0.35] [%clk 1:29:57] Black is better. [%foo bar]";
//! let segments = commands::parse(comment);
//! let found: Vec<&Command> = segments.iter().filter_map(Segment::command).collect();
//! assert_eq!(found[0], &Command::Eval(Eval { score: Score::Centipawns(-35), depth: None }));
//! assert_eq!(found[1], &Command::Clock(ClockTime::from_millis(5_397_000)));
//! assert_eq!(found[2], &Command::Other { name: "foo".into(), args: "bar".into() });
//! assert_eq!(commands::write(&segments), comment);
//!
//! // A command made by a program.
//! let mut segments = segments;
//! segments.push(Segment::Text(" "));
//! segments.push(Segment::new(Command::Eval(Eval { score: Score::Mate(-3), depth: None })));
//! assert!(commands::write(&segments).ends_with("[%foo bar] [%eval #-3]"));
//! ```

use std::fmt;

use crate::Square;

/// A time on a clock or a duration: `[%clk 1:30:00]`, `[%emt 0:00:05.2]`.
///
/// Read as `H:MM:SS`, `M:SS` or `SS`, each with up to three decimals of a second; written
/// as `H:MM:SS`, with the decimals that are not zero.
///
/// ```
/// use pgn::commands::ClockTime;
/// let t: ClockTime = "1:30:00".parse()?;
/// assert_eq!(t.millis(), 5_400_000);
/// assert_eq!(ClockTime::from_millis(59_900).to_string(), "0:00:59.9");
/// # Ok::<(), pgn::commands::CommandError>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ClockTime {
    millis: u64,
}

impl ClockTime {
    /// A time of this many milliseconds.
    pub const fn from_millis(millis: u64) -> ClockTime {
        ClockTime { millis }
    }

    /// The time in milliseconds.
    pub const fn millis(self) -> u64 {
        self.millis
    }

    /// The time as a [`std::time::Duration`].
    pub const fn as_duration(self) -> std::time::Duration {
        std::time::Duration::from_millis(self.millis)
    }
}

impl fmt::Display for ClockTime {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let seconds = self.millis / 1000;
        let millis = self.millis % 1000;
        write!(
            f,
            "{}:{:02}:{:02}",
            seconds / 3600,
            (seconds / 60) % 60,
            seconds % 60
        )?;
        if millis > 0 {
            let digits = format!("{millis:03}");
            write!(f, ".{}", digits.trim_end_matches('0'))?;
        }
        Ok(())
    }
}

/// Why a command's arguments cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CommandError {
    /// Not a time such as `1:30:00` or `0:00:59.9`.
    #[error("{0:?} is not a time (H:MM:SS with up to three decimals)")]
    Time(String),
    /// Not an evaluation such as `0.17`, `-1.25` or `#-3`, with an optional `,depth`.
    #[error("{0:?} is not an evaluation (pawns such as -1.25, or mate such as #-3)")]
    Eval(String),
    /// Not a list of coloured squares (`Ga4,Rb5`) or arrows (`Ge2e4`).
    #[error("{0:?} is not a list of coloured squares or arrows (such as Ga4 or Ge2e4)")]
    Marks(String),
}

fn parse_number(text: &str) -> Option<u64> {
    if text.is_empty() || text.len() > 12 || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

impl std::str::FromStr for ClockTime {
    type Err = CommandError;

    /// `H:MM:SS`, `MM:SS` or `SS`, each part of 1 to 12 digits (minutes and seconds
    /// after a larger unit below 60), and up to three decimals after a `.`.
    fn from_str(text: &str) -> Result<ClockTime, CommandError> {
        // One pass over the bytes: a clock is read after every move of a lichess game.
        parse_clock(text.as_bytes()).ok_or_else(|| CommandError::Time(text.to_owned()))
    }
}

/// The milliseconds of a clock written `H:MM:SS.fff` (see [`ClockTime`]'s `FromStr`), in
/// one pass over the bytes.
fn parse_clock(text: &[u8]) -> Option<ClockTime> {
    // The form lichess writes after every move, read at once.
    if let &[h, b':', m, m1, b':', s, s1] = text
        && [h, m, m1, s, s1].iter().all(u8::is_ascii_digit)
        && m < b'6'
        && s < b'6'
    {
        let value = |tens: u8, ones: u8| u64::from(tens - b'0') * 10 + u64::from(ones - b'0');
        let seconds = (u64::from(h - b'0') * 60 + value(m, m1)) * 60 + value(s, s1);
        return Some(ClockTime {
            millis: seconds * 1000,
        });
    }
    let (whole, fraction) = match text.iter().position(|&b| b == b'.') {
        Some(dot) => (&text[..dot], Some(&text[dot + 1..])),
        None => (text, None),
    };
    let millis = match fraction {
        None => 0,
        Some(f) if (1..=3).contains(&f.len()) => digits(f)? * 10u64.pow(3 - f.len() as u32),
        Some(_) => return None,
    };
    let (mut seconds, mut part, mut part_len, mut parts) = (0u64, 0u64, 0usize, 0usize);
    for i in 0..=whole.len() {
        // A `:` after the last part ends it as the others are ended.
        let b = whole.get(i).copied().unwrap_or(b':');
        if b.is_ascii_digit() {
            part = part * 10 + u64::from(b - b'0');
            part_len += 1;
            if part_len > 12 {
                return None;
            }
            continue;
        }
        // A part ends: minutes and seconds after a larger unit are below 60, and there
        // are at most three parts.
        if b != b':' || part_len == 0 || parts > 2 || (parts > 0 && part >= 60) {
            return None;
        }
        seconds = seconds.checked_mul(60)?.checked_add(part)?;
        (part, part_len, parts) = (0, 0, parts + 1);
    }
    let millis = seconds.checked_mul(1000)?.checked_add(millis)?;
    Some(ClockTime { millis })
}

/// The value of 1 to 12 ASCII digits.
fn digits(text: &[u8]) -> Option<u64> {
    if text.is_empty() || text.len() > 12 {
        return None;
    }
    text.iter().try_fold(0u64, |value, &b| {
        b.is_ascii_digit().then(|| value * 10 + u64::from(b - b'0'))
    })
}

/// An engine's score: pawns (in centipawns) or a mate in so many moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Score {
    /// An advantage in hundredths of a pawn, from White's point of view: `0.17` is 17.
    Centipawns(i32),
    /// Mate in this many moves: positive when White mates, negative when Black does.
    Mate(i32),
}

/// `[%eval …]`: an engine's score, and the search depth when given (`[%eval 0.17,20]`).
///
/// ```
/// use pgn::commands::{Eval, Score};
/// let e: Eval = "#-3".parse()?;
/// assert_eq!(e, Eval { score: Score::Mate(-3), depth: None });
/// let e: Eval = "-1.5,22".parse()?;
/// assert_eq!(e, Eval { score: Score::Centipawns(-150), depth: Some(22) });
/// assert_eq!(e.to_string(), "-1.50,22");
/// # Ok::<(), pgn::commands::CommandError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Eval {
    /// The score.
    pub score: Score,
    /// The search depth, if given.
    pub depth: Option<u32>,
}

impl std::str::FromStr for Eval {
    type Err = CommandError;

    fn from_str(text: &str) -> Result<Eval, CommandError> {
        let error = || CommandError::Eval(text.to_owned());
        let (score, depth) = match text.split_once(',') {
            Some((score, depth)) => {
                let depth = parse_number(depth)
                    .and_then(|d| u32::try_from(d).ok())
                    .ok_or_else(error)?;
                (score, Some(depth))
            }
            None => (text, None),
        };
        fn signed(s: &str) -> Option<(bool, &str)> {
            match s.as_bytes().first()? {
                b'-' => Some((true, &s[1..])),
                b'+' => Some((false, &s[1..])),
                _ => Some((false, s)),
            }
        }
        let score = if let Some(mate) = score.strip_prefix('#') {
            let (negative, digits) = signed(mate).ok_or_else(error)?;
            let n = parse_number(digits)
                .and_then(|n| i32::try_from(n).ok())
                .ok_or_else(error)?;
            Score::Mate(if negative { -n } else { n })
        } else {
            let (negative, digits) = signed(score).ok_or_else(error)?;
            let (whole, fraction) = digits.split_once('.').unwrap_or((digits, ""));
            if fraction.len() > 2 || (whole.is_empty() && fraction.is_empty()) {
                return Err(error());
            }
            let whole = if whole.is_empty() {
                0
            } else {
                parse_number(whole).ok_or_else(error)?
            };
            let hundredths = match fraction.len() {
                0 => 0,
                1 => parse_number(fraction).ok_or_else(error)? * 10,
                _ => parse_number(fraction).ok_or_else(error)?,
            };
            let cp = whole
                .checked_mul(100)
                .and_then(|w| w.checked_add(hundredths))
                .and_then(|cp| i32::try_from(cp).ok())
                .ok_or_else(error)?;
            Score::Centipawns(if negative { -cp } else { cp })
        };
        Ok(Eval { score, depth })
    }
}

impl fmt::Display for Eval {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.score {
            Score::Centipawns(cp) => {
                let sign = if cp < 0 { "-" } else { "" };
                let abs = cp.unsigned_abs();
                write!(f, "{sign}{}.{:02}", abs / 100, abs % 100)?;
            }
            Score::Mate(n) => write!(f, "#{n}")?,
        }
        if let Some(depth) = self.depth {
            write!(f, ",{depth}")?;
        }
        Ok(())
    }
}

/// The colour of a square highlight or an arrow: `R`, `G`, `Y` or `B`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MarkColor {
    /// `R`
    Red,
    /// `G`
    Green,
    /// `Y`
    Yellow,
    /// `B`
    Blue,
}

impl MarkColor {
    /// The letter: `R`, `G`, `Y` or `B`.
    pub const fn char(self) -> char {
        match self {
            MarkColor::Red => 'R',
            MarkColor::Green => 'G',
            MarkColor::Yellow => 'Y',
            MarkColor::Blue => 'B',
        }
    }

    /// Reads a colour letter.
    pub const fn from_byte(b: u8) -> Option<MarkColor> {
        match b {
            b'R' => Some(MarkColor::Red),
            b'G' => Some(MarkColor::Green),
            b'Y' => Some(MarkColor::Yellow),
            b'B' => Some(MarkColor::Blue),
            _ => None,
        }
    }
}

/// A coloured square of `[%csl …]`: `Ga4`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Highlight {
    /// The colour.
    pub color: MarkColor,
    /// The square.
    pub square: Square,
}

/// A coloured arrow of `[%cal …]`: `Ge2e4`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Arrow {
    /// The colour.
    pub color: MarkColor,
    /// Where the arrow starts.
    pub from: Square,
    /// Where it points.
    pub to: Square,
}

/// A command of a comment, `[%name args]`, with its typed value.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Command {
    /// `[%clk H:MM:SS]`: the time left on the mover's clock after the move.
    Clock(ClockTime),
    /// `[%emt H:MM:SS]`: the time the move took.
    ElapsedMoveTime(ClockTime),
    /// `[%eval …]`: an engine's score.
    Eval(Eval),
    /// `[%csl Ga4,Rb5]`: coloured squares.
    Squares(Vec<Highlight>),
    /// `[%cal Ge2e4,Rd1d8]`: coloured arrows.
    Arrows(Vec<Arrow>),
    /// Any other command, or a known one whose arguments cannot be read: its name and its
    /// arguments as written.
    Other {
        /// The name, after `%`.
        name: String,
        /// The arguments as written, without the white space around them.
        args: String,
    },
}

impl Command {
    /// The command's name: `clk`, `emt`, `eval`, `csl`, `cal`, or another.
    pub fn name(&self) -> &str {
        match self {
            Command::Clock(_) => "clk",
            Command::ElapsedMoveTime(_) => "emt",
            Command::Eval(_) => "eval",
            Command::Squares(_) => "csl",
            Command::Arrows(_) => "cal",
            Command::Other { name, .. } => name,
        }
    }

    /// Reads a command from its name and arguments; a known command whose arguments cannot
    /// be read, and any other command, is [`Command::Other`].
    ///
    /// ```
    /// use pgn::commands::{Command, ClockTime};
    /// assert_eq!(Command::from_parts("clk", "0:05:00"), Command::Clock(ClockTime::from_millis(300_000)));
    /// assert_eq!(Command::from_parts("clk", "soon").name(), "clk");
    /// assert!(matches!(Command::from_parts("clk", "soon"), Command::Other { .. }));
    /// ```
    pub fn from_parts(name: &str, args: &str) -> Command {
        Command::read(name, args).unwrap_or_else(|_| Command::Other {
            name: name.to_owned(),
            args: args.to_owned(),
        })
    }

    /// Reads a known command's arguments.
    ///
    /// # Errors
    /// [`CommandError`] when the arguments do not have the command's form. Unknown commands
    /// are [`Command::Other`], not errors.
    pub fn read(name: &str, args: &str) -> Result<Command, CommandError> {
        Ok(match name {
            "clk" => Command::Clock(args.parse()?),
            "emt" => Command::ElapsedMoveTime(args.parse()?),
            "eval" => Command::Eval(args.parse()?),
            "csl" => Command::Squares(
                marks(args, 3)?
                    .into_iter()
                    .map(|(color, squares)| Highlight {
                        color,
                        square: squares[0],
                    })
                    .collect(),
            ),
            "cal" => Command::Arrows(
                marks(args, 5)?
                    .into_iter()
                    .map(|(color, squares)| Arrow {
                        color,
                        from: squares[0],
                        to: squares[1],
                    })
                    .collect(),
            ),
            _ => Command::Other {
                name: name.to_owned(),
                args: args.to_owned(),
            },
        })
    }
}

/// Reads `Ga4,Rb5` (`len` 3) or `Ge2e4,Rd1d8` (`len` 5).
fn marks(args: &str, len: usize) -> Result<Vec<(MarkColor, [Square; 2])>, CommandError> {
    let error = || CommandError::Marks(args.to_owned());
    args.split(',')
        .map(|item| {
            let item = item.trim().as_bytes();
            if item.len() != len {
                return Err(error());
            }
            let color = MarkColor::from_byte(item[0]).ok_or_else(error)?;
            let from = Square::from_ascii(&item[1..3]).map_err(|_| error())?;
            let to = if len == 5 {
                Square::from_ascii(&item[3..5]).map_err(|_| error())?
            } else {
                from
            };
            Ok((color, [from, to]))
        })
        .collect()
}

impl fmt::Display for Command {
    /// The canonical form: `[%clk 1:30:00]`, `[%eval -0.35]`, `[%csl Ga4,Rb5]`, ….
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "[%{}", self.name())?;
        match self {
            Command::Clock(t) | Command::ElapsedMoveTime(t) => write!(f, " {t}")?,
            Command::Eval(e) => write!(f, " {e}")?,
            Command::Squares(list) => {
                for (i, h) in list.iter().enumerate() {
                    let sep = if i == 0 { ' ' } else { ',' };
                    write!(f, "{sep}{}{}", h.color.char(), h.square)?;
                }
            }
            Command::Arrows(list) => {
                for (i, a) in list.iter().enumerate() {
                    let sep = if i == 0 { ' ' } else { ',' };
                    write!(f, "{sep}{}{}{}", a.color.char(), a.from, a.to)?;
                }
            }
            Command::Other { args, .. } => {
                if !args.is_empty() {
                    write!(f, " {args}")?;
                }
            }
        }
        f.write_str("]")
    }
}

/// A piece of a comment: text, or a command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Segment<'a> {
    /// Text between commands, as written (white space included).
    Text(&'a str),
    /// A command.
    Command {
        /// Its typed value.
        command: Command,
        /// The command as written (`[%clk 1:30:00]`), when it was read from a comment:
        /// [`write()`] writes it back unchanged. `None` for a command made by a program,
        /// written in its canonical form.
        written: Option<&'a str>,
    },
}

impl<'a> Segment<'a> {
    /// A command made by a program, to be written in its canonical form.
    pub fn new(command: Command) -> Segment<'a> {
        Segment::Command {
            command,
            written: None,
        }
    }

    /// The command, if this segment is one.
    pub fn command(&self) -> Option<&Command> {
        match self {
            Segment::Command { command, .. } => Some(command),
            Segment::Text(_) => None,
        }
    }
}

/// Splits a comment into text and commands. A `[%` with no closing `]` is text.
///
/// ```
/// use pgn::commands::{parse, Segment};
/// let segments = parse("Good move [%csl Ga4]");
/// assert_eq!(segments[0], Segment::Text("Good move "));
/// assert_eq!(segments[1].command().map(|c| c.to_string()).as_deref(), Some("[%csl Ga4]"));
/// ```
pub fn parse(comment: &str) -> Vec<Segment<'_>> {
    let mut segments = Vec::new();
    let mut text_start = 0;
    for found in raw_commands(comment) {
        if text_start < found.start {
            segments.push(Segment::Text(&comment[text_start..found.start]));
        }
        segments.push(Segment::Command {
            command: Command::from_parts(found.name, found.args),
            written: Some(&comment[found.start..found.end]),
        });
        text_start = found.end;
    }
    if text_start < comment.len() {
        segments.push(Segment::Text(&comment[text_start..]));
    }
    segments
}

/// The arguments of the first command named `name` in a comment, as written (without
/// the white space around them), found without reading the other commands: for a
/// program that wants one value of many comments (`[%clk]` of every move, say).
///
/// ```
/// use pgn::commands::{args_of, ClockTime};
/// let comment = "[%eval 0.18] [%clk 0:05:00]";
/// assert_eq!(args_of(comment, "clk"), Some("0:05:00"));
/// assert_eq!(args_of(comment, "clk").map(str::parse::<ClockTime>), Some(Ok(ClockTime::from_millis(300_000))));
/// assert_eq!(args_of(comment, "emt"), None);
/// ```
pub fn args_of<'a>(comment: &'a str, name: &str) -> Option<&'a str> {
    raw_commands(comment)
        .find(|found| found.name == name)
        .map(|found| found.args)
}

/// The names and arguments of a comment's commands as written, in order, without
/// reading them: for a program that picks a few values out of many comments.
///
/// ```
/// use pgn::commands::names_and_args;
/// let found: Vec<_> = names_and_args("[%eval 0.18] text [%clk 0:05:00]").collect();
/// assert_eq!(found, [("eval", "0.18"), ("clk", "0:05:00")]);
/// ```
pub fn names_and_args(comment: &str) -> impl Iterator<Item = (&str, &str)> {
    raw_commands(comment).map(|found| (found.name, found.args))
}

/// The clock (`[%clk]` or `[%clock]`) and the evaluation (`[%eval]`) of a comment: the
/// first of each whose arguments read, as [`names_and_args`] finds them.
///
/// ```
/// use pgn::commands::{clock_and_eval, ClockTime, Score};
/// let (clock, eval) = clock_and_eval("[%eval -0.31] [%clk 0:02:57]");
/// assert_eq!(clock, Some(ClockTime::from_millis(177_000)));
/// assert_eq!(eval.map(|e| e.score), Some(Score::Centipawns(-31)));
/// assert_eq!(clock_and_eval("[%clk soon] [%clock 1:00]").0, Some(ClockTime::from_millis(60_000)));
/// ```
pub fn clock_and_eval(comment: &str) -> (Option<ClockTime>, Option<Eval>) {
    as_lichess_writes(comment).unwrap_or_else(|| found_one_by_one(comment))
}

/// The clock and evaluation of a comment as written between its braces, when it is
/// written exactly as lichess writes one after every move, ` [%clk 0:02:57] ` or
/// ` [%eval -0.31] [%clk 0:02:57] `, with the text the export format writes for it: the
/// comment without the spaces at its ends (its words are one space apart, and it holds
/// no other white space and no brace). `None` for any other comment, whose text is
/// folded (`notation::collapsed`) before [`clock_and_eval`] reads it.
///
/// A program reading millions of lichess comments reads each once this way.
///
/// ```
/// use pgn::commands::{lichess_comment, ClockTime};
/// let (text, clock, eval) = lichess_comment(" [%clk 0:02:57] ").unwrap();
/// assert_eq!((text, clock, eval), ("[%clk 0:02:57]", Some(ClockTime::from_millis(177_000)), None));
/// assert!(lichess_comment(" [%clk  0:02:57] ").is_none());
/// assert!(lichess_comment("[%clk 0:02:57]").is_none());
/// ```
pub fn lichess_comment(written: &str) -> Option<(&str, Option<ClockTime>, Option<Eval>)> {
    // The clock is last, and with the space before it and after it (the comment's first
    // one when nothing comes before), 16 bytes: ` [%clk H:MM:SS] `.
    let bytes = written.as_bytes();
    let (head, clock) = bytes.split_at_checked(bytes.len().checked_sub(16)?)?;
    let clock = Some(lichess_clock(clock.try_into().ok()?)?);
    if head.is_empty() {
        // Both ends are at ASCII bytes: character boundaries.
        return Some((&written[1..written.len() - 1], clock, None));
    }
    let eval = lichess_score(head.strip_prefix(b" [%eval ")?.strip_suffix(b"]")?)?;
    Some((&written[1..written.len() - 1], clock, Some(eval)))
}

/// The clock of a comment written, between its braces, exactly as lichess writes it after
/// every move of a game without evaluations: ` [%clk H:MM:SS] ` (its text for the export
/// format is its 14 bytes between the spaces, ASCII). `None` for any other 16 bytes. The
/// fast way of [`lichess_comment`], for its commonest comment.
///
/// ```
/// use pgn::commands::{lichess_clock, ClockTime};
/// assert_eq!(lichess_clock(b" [%clk 1:02:57] "), Some(ClockTime::from_millis(3_777_000)));
/// assert_eq!(lichess_clock(b" [%clk 0:62:57] "), None);
/// assert_eq!(lichess_clock(b" [%clk 0:02:57]}"), None);
/// ```
pub fn lichess_clock(written: &[u8; 16]) -> Option<ClockTime> {
    // Its fixed bytes compared as two words, the digits' places masked out.
    let word = |at: usize| {
        let mut eight = [0; 8];
        eight.copy_from_slice(&written[at..at + 8]);
        u64::from_le_bytes(eight)
    };
    let mask = u64::from_le_bytes;
    let fixed_first = mask([0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0]);
    let fixed_second = mask([0xff, 0, 0, 0xff, 0, 0, 0xff, 0xff]);
    if word(0) & fixed_first != mask(*b" [%clk \0")
        || word(8) & fixed_second != mask([b':', 0, 0, b':', 0, 0, b']', b' '])
    {
        return None;
    }
    let digit = |at: usize| {
        let b = written[at];
        b.is_ascii_digit().then(|| u64::from(b - b'0'))
    };
    let (h, m, m1, s, s1) = (digit(7)?, digit(9)?, digit(10)?, digit(12)?, digit(13)?);
    if m > 5 || s > 5 {
        return None;
    }
    let seconds = (h * 60 + m * 10 + m1) * 60 + s * 10 + s1;
    Some(ClockTime {
        millis: seconds * 1000,
    })
}

/// [`clock_and_eval`] the general way: the commands as found, one by one.
pub(crate) fn found_one_by_one(comment: &str) -> (Option<ClockTime>, Option<Eval>) {
    let (mut clock, mut eval) = (None, None);
    for (name, args) in names_and_args(comment) {
        match name {
            "clk" | "clock" if clock.is_none() => clock = args.parse().ok(),
            "eval" if eval.is_none() => eval = args.parse().ok(),
            _ => {}
        }
    }
    (clock, eval)
}

/// [`clock_and_eval`] of a comment written exactly as lichess writes one after every
/// move, `[%clk 0:02:57]` or `[%eval -0.31] [%clk 0:02:57]`, read without looking for
/// commands: `None` for any other comment (or one whose values do not read), which is
/// then read the general way.
fn as_lichess_writes(comment: &str) -> Option<(Option<ClockTime>, Option<Eval>)> {
    const CLOCK: usize = "[%clk 0:02:57]".len();
    let bytes = comment.as_bytes();
    let (head, clock) = bytes.split_at_checked(bytes.len().checked_sub(CLOCK)?)?;
    let time = clock.strip_prefix(b"[%clk ")?.strip_suffix(b"]")?;
    let clock = parse_clock(time).filter(|_| time.len() == 7)?;
    if head.is_empty() {
        return Some((Some(clock), None));
    }
    let eval = lichess_score(head.strip_prefix(b"[%eval ")?.strip_suffix(b"] ")?)?;
    Some((Some(clock), Some(eval)))
}

/// The evaluation of a `[%eval]` command's arguments as lichess writes them: digits and
/// signs only (no white space to fold, no bracket to end the command), and readable.
fn lichess_score(score: &[u8]) -> Option<Eval> {
    let plain = |b: &u8| b.is_ascii_digit() || matches!(b, b'.' | b'-' | b'+' | b'#' | b',');
    if score.is_empty() || !score.iter().all(plain) {
        return None;
    }
    std::str::from_utf8(score).ok()?.parse().ok()
}

/// Whether [`clock_and_eval`] reads `comment` at fixed offsets, as lichess writes it,
/// rather than by the general scan ([`crate::differential`]).
pub(crate) fn read_as_lichess_writes(comment: &str) -> bool {
    as_lichess_writes(comment).is_some()
}

/// A command as written in a comment: `[%name args]` from `start` to `end`.
struct RawCommand<'a> {
    name: &'a str,
    args: &'a str,
    start: usize,
    end: usize,
}

/// The commands of a comment as written, in order. A `[%` with no closing `]`, or one
/// whose name is not followed by white space or `]`, or whose arguments hold a `[`, is
/// text.
fn raw_commands(comment: &str) -> impl Iterator<Item = RawCommand<'_>> {
    let mut offset = 0;
    std::iter::from_fn(move || {
        let found = next_command(comment, offset)?;
        offset = found.end;
        Some(found)
    })
}

/// What [`next_command`] looks for in a byte: a byte of a command's name, a bracket, or
/// another.
const BYTE_CLASS: [u8; 256] = {
    let mut class = [OTHER; 256];
    let mut b = 0;
    while b < 256 {
        let byte = b as u8;
        if byte.is_ascii_alphanumeric() || byte == b'_' {
            class[b] = NAME;
        } else if byte == b'[' || byte == b']' {
            class[b] = BRACKET;
        }
        b += 1;
    }
    class
};
const OTHER: u8 = 0;
const NAME: u8 = 1;
const BRACKET: u8 = 2;

/// The first command of `comment` at or after byte `offset`.
fn next_command(comment: &str, mut offset: usize) -> Option<RawCommand<'_>> {
    // Byte by byte, in plain loops: comments are read by the million (a clock and an
    // evaluation after every move of a lichess game), each a few bytes long, and every
    // index found is that of an ASCII byte, so a character boundary.
    let bytes = comment.as_bytes();
    loop {
        let start = offset + find_byte(b'[', bytes.get(offset..)?)?;
        if bytes.get(start + 1) != Some(&b'%') {
            offset = start + 1;
            continue;
        }
        let after = start + 2;
        let mut name_end = after;
        while bytes
            .get(name_end)
            .is_some_and(|&b| BYTE_CLASS[usize::from(b)] == NAME)
        {
            name_end += 1;
        }
        // The arguments run to the `]`, and hold no `[`.
        let mut close = name_end;
        while BYTE_CLASS[usize::from(*bytes.get(close)?)] != BRACKET {
            close += 1;
        }
        let args = &comment[name_end..close];
        let valid = bytes[close] == b']'
            && name_end > after
            && (args.is_empty() || args.starts_with(|c: char| c.is_whitespace()));
        if valid {
            return Some(RawCommand {
                name: &comment[after..name_end],
                args: trim(args),
                start,
                end: close + 1,
            });
        }
        // Not a command: look again after this `[%`.
        offset = after;
    }
}

/// `text` without the white space at its ends (`str::trim`), quicker for the ASCII text
/// commands nearly always are. ASCII's white space is Unicode's less the vertical tab.
fn trim(text: &str) -> &str {
    let ascii = text.trim_ascii();
    let plain = |b: Option<&u8>| b.is_some_and(|&b| b.is_ascii() && b != 0x0b);
    if plain(ascii.as_bytes().first()) && plain(ascii.as_bytes().last()) {
        ascii
    } else {
        text.trim()
    }
}

/// The index of the first `byte` in `text`: a plain loop for the few bytes of a
/// command, where memchr's set-up costs more than the search.
#[inline]
fn find_byte(byte: u8, text: &[u8]) -> Option<usize> {
    if text.len() < 32 {
        text.iter().position(|&b| b == byte)
    } else {
        memchr::memchr(byte, text)
    }
}

/// Writes segments back into a comment: text and commands read from a comment as they were
/// written, commands made by a program in their canonical form.
///
/// ```
/// use pgn::commands::{parse, write};
/// let comment = "[%clk 0:03:00]  two spaces [%eval #3] [%unknown a b c]";
/// assert_eq!(write(&parse(comment)), comment);
/// ```
pub fn write(segments: &[Segment<'_>]) -> String {
    let mut out = String::new();
    for segment in segments {
        match segment {
            Segment::Text(text) => out.push_str(text),
            Segment::Command {
                written: Some(text),
                ..
            } => out.push_str(text),
            Segment::Command {
                command,
                written: None,
            } => {
                use fmt::Write as _;
                // Writing into a String cannot fail.
                let _ = write!(out, "{command}");
            }
        }
    }
    out
}

/// The commands of a comment, in order.
///
/// ```
/// use pgn::commands::{commands, Command, ClockTime};
/// let clocks: Vec<_> = commands("[%clk 0:00:09.5]")
///     .filter_map(|c| match c { Command::Clock(t) => Some(t.millis()), _ => None })
///     .collect();
/// assert_eq!(clocks, [9_500]);
/// ```
pub fn commands(comment: &str) -> impl Iterator<Item = Command> + '_ {
    parse(comment).into_iter().filter_map(|s| match s {
        Segment::Command { command, .. } => Some(command),
        Segment::Text(_) => None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Comments as lichess writes them, with values of every kind (some that do not read),
    /// and comments put together from pieces of commands: the fast path reads each as the
    /// commands found one by one do.
    #[test]
    fn clocks_and_evaluations_read_at_once_are_those_found_one_by_one() {
        let mut state = 0x2545_f491_4f6c_dd1d_u64;
        let mut next = |n: usize| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % n as u64) as usize
        };
        let scores = [
            "0.17",
            "-0.31",
            "+1.5",
            "#3",
            "#-12",
            "0",
            "12.25",
            "-0.31,20",
            "1.234",
            "",
            "#",
            "- 1",
            "1..2",
            "99999999999",
        ];
        let times = [
            "0:02:57",
            "1:00:00",
            "9:59:59",
            "0:60:00",
            "0:02:5x",
            "10:00:0",
            "0:2:57",
            ":02:57",
            "0:02:57.5",
            " 0:02:5",
        ];
        let pieces = [
            "[%clk ",
            "[%clock ",
            "[%eval ",
            "[%",
            "[",
            "]",
            " ",
            "] ",
            "\n",
            "text",
            "0:02:57",
            "-0.31",
            "#2",
            "1:00",
            "[%emt 0:00:03]",
        ];
        let (mut fast, mut written_fast) = (0, 0);
        for _ in 0..20_000 {
            let comment = match next(3) {
                0 => format!("[%clk {}]", times[next(times.len())]),
                1 => format!(
                    "[%eval {}] [%clk {}]",
                    scores[next(scores.len())],
                    times[next(times.len())]
                ),
                _ => (0..next(8)).map(|_| pieces[next(pieces.len())]).collect(),
            };
            fast += usize::from(as_lichess_writes(&comment).is_some());
            assert_eq!(
                clock_and_eval(&comment),
                found_one_by_one(&comment),
                "{comment:?}"
            );
            // The comment as written between braces: what the way for lichess's comments
            // takes is folded already, and reads as the commands found one by one.
            let ends = ["", " ", "  ", "\n", " \t"];
            let written = format!("{}{comment}{}", ends[next(5)], ends[next(5)]);
            if let Some((text, clock, eval)) = lichess_comment(&written) {
                written_fast += 1;
                assert_eq!(text, notation::collapsed(&written, &mut String::new()));
                assert_eq!((clock, eval), found_one_by_one(text), "{written:?}");
            }
        }
        assert!(fast > 3_000, "{fast}");
        assert!(written_fast > 100, "{written_fast}");
    }

    #[test]
    fn round_trips() {
        for comment in [
            "",
            "plain text",
            "[%clk 1:30:00]",
            "[%emt 0:00:12] [%clk 1:29:48]",
            "[%eval 0.17]",
            "[%eval #-3]",
            "[%eval -12.5,30]",
            "[%csl Ga4]",
            "[%csl Ga4,Rb5,Yc6,Bd7]",
            "[%cal Ge2e4]",
            "[%cal Ge2e4,Rd1d8]",
            "[%clk  0:01:00 ]",
            "[%unknown]",
            "[%evp 0,12,18,25]",
            "text [% not a command] [%clk] [%clk x] [%csl Z9] [%cal] end",
            "unclosed [%clk 1:00:00",
            "[%%] [%] [%[%clk 0:00:01]]",
            "Ünïcödé [%clk 0:00:01] ♘",
        ] {
            assert_eq!(write(&parse(comment)), comment, "{comment:?}");
        }
    }

    #[test]
    fn clock_times_are_hours_minutes_seconds_and_up_to_three_decimals() {
        let read = |text: &str| text.parse::<ClockTime>().map(ClockTime::millis).ok();
        for (text, millis) in [
            ("1:30:00", 5_400_000),
            ("0:00:59.9", 59_900),
            ("0:00:05.25", 5_250),
            ("1:00:00.005", 3_600_005),
            ("3:00", 180_000),
            ("1:02:03", 3_723_000),
            ("0:59:59", 3_599_000),
            ("9:00:00", 32_400_000),
            ("59", 59_000),
            ("100:00:00", 360_000_000),
            ("000000000001:00:00", 3_600_000),
        ] {
            assert_eq!(read(text), Some(millis), "{text:?}");
        }
        for text in [
            "",
            ":",
            "1:",
            ":30",
            "1:60:00",
            "1:00:60",
            "1:0a:00",
            "1:00:6a",
            "a:00:00",
            "1:2:3:4",
            ".5",
            "1.",
            "1.1234",
            "1.2.3",
            "1:00:00.x",
            "-1:00:00",
            "+1",
            " 1:00:00",
            "1:00:00 ",
            "0:0a:00",
            "1234567890123",
            "1:00:00.",
            "١:00:00",
        ] {
            assert_eq!(read(text), None, "{text:?}");
        }
        assert_eq!(
            "1:60:00".parse::<ClockTime>(),
            Err(CommandError::Time("1:60:00".to_owned()))
        );
    }

    /// A command's arguments lose the white space at their ends as `str::trim` says,
    /// the vertical tab and Unicode's spaces included.
    #[test]
    fn arguments_are_trimmed_of_any_white_space() {
        for (comment, name, args) in [
            ("[%clk 0:05:00]", "clk", "0:05:00"),
            ("[%clk   0:05:00  ]", "clk", "0:05:00"),
            ("[%clk\u{b}0:05:00\u{b}]", "clk", "0:05:00"),
            ("[%clk\u{a0}0:05:00\u{2003}]", "clk", "0:05:00"),
            ("[%clk \u{b}\t0:05:00 \u{a0}]", "clk", "0:05:00"),
            ("[%cal \u{e9}]", "cal", "\u{e9}"),
            ("[%clk ]", "clk", ""),
            ("[%clk]", "clk", ""),
        ] {
            let found: Vec<_> = names_and_args(comment).collect();
            assert_eq!(found, [(name, args)], "{comment:?}");
        }
        // A `[` in the arguments makes it text; a `]` missing too.
        assert_eq!(
            names_and_args("[%clk 0:0[5] [%eval 1]").collect::<Vec<_>>(),
            [("eval", "1")]
        );
        assert_eq!(names_and_args("[%clk 0:05").count(), 0);
    }

    #[test]
    fn typed_values() {
        let typed: Vec<Command> = commands(
            "[%clk 1:30:00] [%emt 0:00:05.25] [%eval 0.17] [%eval #-3] [%csl Ga4] [%cal Ge2e4]",
        )
        .collect();
        assert_eq!(
            typed,
            [
                Command::Clock(ClockTime::from_millis(5_400_000)),
                Command::ElapsedMoveTime(ClockTime::from_millis(5_250)),
                Command::Eval(Eval {
                    score: Score::Centipawns(17),
                    depth: None
                }),
                Command::Eval(Eval {
                    score: Score::Mate(-3),
                    depth: None
                }),
                Command::Squares(vec![Highlight {
                    color: MarkColor::Green,
                    square: Square::A4
                }]),
                Command::Arrows(vec![Arrow {
                    color: MarkColor::Green,
                    from: Square::E2,
                    to: Square::E4
                }]),
            ]
        );
        // The canonical forms of these are what was written.
        for c in &typed {
            let text = c.to_string();
            assert_eq!(
                commands(&text).collect::<Vec<_>>(),
                std::slice::from_ref(c),
                "{text}"
            );
        }
        assert_eq!(typed[0].to_string(), "[%clk 1:30:00]");
        assert_eq!(typed[3].to_string(), "[%eval #-3]");
        assert_eq!(typed[4].to_string(), "[%csl Ga4]");
        assert_eq!(typed[5].to_string(), "[%cal Ge2e4]");
    }

    #[test]
    fn unreadable_known_commands_are_kept() {
        let c: Vec<_> = commands("[%clk 1:61:00] [%eval 0.175] [%csl Ga9]").collect();
        assert!(
            c.iter().all(|c| matches!(c, Command::Other { .. })),
            "{c:?}"
        );
        assert_eq!(c[1].to_string(), "[%eval 0.175]");
    }
}
