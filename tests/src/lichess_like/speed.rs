//! Time controls as lichess's players choose them, and the speed each falls in (which
//! names the event: `Rated Blitz game`).

use std::fmt;

use crate::Rng;

/// A game's time control.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum TimeControl {
    /// A clock: `base` seconds each, `increment` seconds added after each move.
    Clock {
        /// Seconds on each clock at the start.
        base: u32,
        /// Seconds added after each move.
        increment: u32,
    },
    /// Days per move, no clock (`-` in the tag).
    Correspondence,
}

/// Lichess's speeds, by the estimated duration of a game (base + 40 × increment).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Speed {
    /// Under 30 seconds.
    UltraBullet,
    /// Under 3 minutes.
    Bullet,
    /// Under 8 minutes.
    Blitz,
    /// Under 25 minutes.
    Rapid,
    /// 25 minutes or more.
    Classical,
    /// No clock.
    Correspondence,
}

/// Time controls (base, increment) and how many in 10,000 games have each, roughly as
/// on lichess; `None` is correspondence.
const CONTROLS: &[(Option<(u32, u32)>, u32)] = &[
    (Some((15, 0)), 15),
    (Some((30, 0)), 120),
    (Some((60, 0)), 2000),
    (Some((60, 1)), 200),
    (Some((120, 1)), 500),
    (Some((180, 0)), 2000),
    (Some((180, 2)), 1100),
    (Some((300, 0)), 1200),
    (Some((300, 3)), 650),
    (Some((300, 5)), 150),
    (Some((600, 0)), 1300),
    (Some((600, 5)), 450),
    (Some((900, 10)), 350),
    (Some((900, 0)), 80),
    (Some((1800, 0)), 110),
    (Some((1800, 20)), 60),
    (None, 15),
];

impl TimeControl {
    /// A time control drawn from lichess's distribution.
    pub fn draw(rng: &mut Rng) -> TimeControl {
        let total: u32 = CONTROLS.iter().map(|(_, w)| w).sum();
        let mut ticket = rng.below(total as usize) as u32;
        for &(control, weight) in CONTROLS {
            if ticket < weight {
                return match control {
                    Some((base, increment)) => TimeControl::Clock { base, increment },
                    None => TimeControl::Correspondence,
                };
            }
            ticket -= weight;
        }
        TimeControl::Clock {
            base: 180,
            increment: 0,
        }
    }

    /// The speed it falls in.
    pub fn speed(self) -> Speed {
        match self {
            TimeControl::Correspondence => Speed::Correspondence,
            TimeControl::Clock { base, increment } => match base + 40 * increment {
                0..30 => Speed::UltraBullet,
                30..180 => Speed::Bullet,
                180..480 => Speed::Blitz,
                480..1500 => Speed::Rapid,
                _ => Speed::Classical,
            },
        }
    }
}

/// As the `TimeControl` tag writes it: `180+2`, `-`.
impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TimeControl::Clock { base, increment } => write!(f, "{base}+{increment}"),
            TimeControl::Correspondence => f.write_str("-"),
        }
    }
}

impl Speed {
    /// The `Event` tag of a rated game of this speed.
    pub fn event(self) -> &'static str {
        match self {
            Speed::UltraBullet => "Rated UltraBullet game",
            Speed::Bullet => "Rated Bullet game",
            Speed::Blitz => "Rated Blitz game",
            Speed::Rapid => "Rated Rapid game",
            Speed::Classical => "Rated Classical game",
            Speed::Correspondence => "Rated Correspondence game",
        }
    }
}
