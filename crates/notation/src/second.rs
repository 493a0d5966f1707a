//! A game's second reading ([`Rules::second_reading`]), as a visitor that reads games
//! with rules keeps track of it: shared by the tree builder and the game crates'
//! validators, so that all of them read the same games twice.

use crate::rules::{Rules, Setup, SetupError};
use crate::tags::Tags;

/// Where a visitor is with the second reading of a game: none asked for, asked for
/// (the first reading had an error, and the rules have one), or under way.
///
/// A visitor calls [`SecondReading::begin_game`], [`SecondReading::start`],
/// [`SecondReading::end_game`] and [`SecondReading::read_again`] from the
/// [`Visitor`](crate::Visitor) methods of those names (`start` from `begin_movetext`).
///
/// ```
/// use notation::{RawRules, Rules, SecondReading, Tags};
/// let rules = RawRules::PGN;
/// let mut second = SecondReading::default();
/// second.begin_game();
/// let start = second.start(&rules, &Tags::new());
/// assert!(start.is_ok());
/// // RawRules has no second reading: a game with an error is not read again.
/// second.end_game(&rules, &Tags::new(), true);
/// assert!(!second.read_again());
/// ```
#[derive(Default)]
pub enum SecondReading<P> {
    /// None asked for.
    #[default]
    None,
    /// The first reading had an error; a second one would start here.
    Wanted(Box<Result<Setup<P>, SetupError>>),
    /// Under way; it starts here once its movetext begins.
    Starting(Box<Result<Setup<P>, SetupError>>),
    /// Under way.
    Reading,
}

impl<P> SecondReading<P> {
    /// A game begins: a second reading that was asked for and not begun (the reader did
    /// not read the last game again) is forgotten.
    pub fn begin_game(&mut self) {
        if matches!(self, SecondReading::Wanted(_)) {
            *self = SecondReading::None;
        }
    }

    /// The game's start position as its movetext begins: the rules' second reading's,
    /// when this is one, else [`Rules::start_position`]'s.
    #[inline]
    pub fn start<R: Rules<Position = P>>(
        &mut self,
        rules: &R,
        tags: &Tags,
    ) -> Result<Setup<P>, SetupError> {
        // Most games are read once: told without moving what is held.
        if matches!(self, SecondReading::Starting(_)) {
            if let SecondReading::Starting(start) = std::mem::replace(self, SecondReading::Reading)
            {
                return *start;
            }
        }
        rules.start_position(tags)
    }

    /// Whether the game being read is a second reading.
    pub fn is_second(&self) -> bool {
        matches!(self, SecondReading::Starting(_) | SecondReading::Reading)
    }

    /// Whether a second reading of the game that just ended was asked for.
    pub fn is_wanted(&self) -> bool {
        matches!(self, SecondReading::Wanted(_))
    }

    /// The game is over: a second reading ends; a first reading with an error asks for
    /// one, if the rules have one.
    #[inline]
    pub fn end_game<R: Rules<Position = P>>(&mut self, rules: &R, tags: &Tags, has_errors: bool) {
        let first = matches!(self, SecondReading::None | SecondReading::Wanted(_));
        if first && has_errors {
            if let Some(start) = rules.second_reading(tags) {
                *self = SecondReading::Wanted(Box::new(start));
                return;
            }
        }
        if !matches!(self, SecondReading::None) {
            *self = SecondReading::None;
        }
    }

    /// Whether the game just over is to be read again ([`Visitor::read_again`](crate::Visitor::read_again)):
    /// then the second reading is under way.
    #[inline]
    pub fn read_again(&mut self) -> bool {
        if !matches!(self, SecondReading::Wanted(_)) {
            return false;
        }
        if let SecondReading::Wanted(start) = std::mem::take(self) {
            *self = SecondReading::Starting(start);
        }
        true
    }
}
