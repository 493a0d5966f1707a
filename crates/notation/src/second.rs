//! A game's second reading ([`Rules::second_reading`]), as a visitor that reads games
//! with rules keeps track of it: shared by the tree builder and the game crates'
//! validators, so that all of them read the same games twice.

use crate::rules::{Rules, Setup, SetupError};
use crate::tags::Tags;

/// Where a visitor is with the second reading of a game.
///
/// A game whose first reading has an error is read again from the start position the
/// rules give for a second reading. A second reading the visitor does not keep
/// ([`Rules::keeps_second_reading`]) is followed by a third, from the first reading's
/// start, which gives the first reading again: no reading is held while another is read.
///
/// A visitor calls [`SecondReading::begin_game`], [`SecondReading::start`],
/// [`SecondReading::end_game`] and [`SecondReading::read_again`] from the
/// [`Visitor`](crate::Visitor) methods of those names (`start` from `begin_movetext`),
/// and [`SecondReading::refuse`] at the end of a second reading it does not keep.
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
    /// A second reading that is not kept: the first reading is to be read again.
    Refused,
    /// The first reading read again, after a second reading that is not kept.
    Rereading,
}

impl<P> SecondReading<P> {
    /// A game begins: a reading that was asked for and not begun (the reader did not
    /// read the last game again) is forgotten.
    #[inline]
    pub fn begin_game(&mut self) {
        if matches!(self, SecondReading::Wanted(_) | SecondReading::Refused) {
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
    #[inline]
    pub fn is_second(&self) -> bool {
        matches!(self, SecondReading::Starting(_) | SecondReading::Reading)
    }

    /// The game is over: a first reading with an error asks for a second, if the rules
    /// have one; any other reading ends here (see [`SecondReading::refuse`]).
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

    /// The second reading that just ended is not kept: the first is to be read again.
    pub fn refuse(&mut self) {
        *self = SecondReading::Refused;
    }

    /// Whether the game just over is to be read again
    /// ([`Visitor::read_again`](crate::Visitor::read_again)): a second reading, or the
    /// first again after a second reading that is not kept.
    #[inline]
    pub fn read_again(&mut self) -> bool {
        match self {
            SecondReading::Wanted(_) => {
                if let SecondReading::Wanted(start) = std::mem::take(self) {
                    *self = SecondReading::Starting(start);
                }
                true
            }
            SecondReading::Refused => {
                *self = SecondReading::Rereading;
                true
            }
            _ => false,
        }
    }
}
