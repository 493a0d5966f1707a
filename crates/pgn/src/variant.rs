//! [`Variant`]: the rules a game is played by, as named in a PGN `Variant` tag.

use std::fmt;

use crate::Ruleset;

/// A chess variant named by a PGN `Variant` tag.
///
/// Every variant but [`Variant::Unknown`] is played by this crate, by its [`Ruleset`]. Names
/// that combine a variant with Chess960 (`Crazyhouse960`, `atomic960`, …) name the variant:
/// its castling is Chess960's whenever the game's FEN places king and rooks off the standard
/// squares, as it must for such a game.
///
/// ```
/// use pgn::Variant;
/// assert_eq!(Variant::from_tag("fischerandom"), Variant::Chess960);
/// assert_eq!(Variant::from_tag("Chess 960"), Variant::Chess960);
/// assert_eq!(Variant::from_tag("From Position"), Variant::Standard);
/// assert_eq!(Variant::from_tag("Three-check"), Variant::ThreeCheck);
/// assert_eq!(Variant::from_tag("shogi"), Variant::Unknown("shogi".to_string()));
/// assert_eq!(Variant::from_tag("King-of-the-Hill"), Variant::KingOfTheHill);
/// assert_eq!(Variant::from_tag("crazyhouse960"), Variant::Crazyhouse);
/// assert!(Variant::Atomic.is_supported() && !Variant::from_tag("shogi").is_supported());
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub enum Variant {
    /// Standard chess (also set-up positions of it: "From Position").
    #[default]
    Standard,
    /// Chess960 (Fischer random chess).
    Chess960,
    /// Crazyhouse: captured pieces can be dropped back.
    Crazyhouse,
    /// Atomic: captures explode.
    Atomic,
    /// Antichess, also called giveaway or suicide chess: captures are compulsory, losing
    /// everything wins.
    Antichess,
    /// King of the hill: a king reaching the centre wins.
    KingOfTheHill,
    /// Three-check: giving three checks wins.
    ThreeCheck,
    /// Horde: white has 36 pawns and no king.
    Horde,
    /// Racing kings: the first king on the eighth rank wins.
    RacingKings,
    /// Any other value, as written.
    Unknown(String),
}

impl Variant {
    /// Reads the value of a `Variant` tag, ignoring case, spaces, `-` and `_`.
    pub fn from_tag(value: &str) -> Variant {
        let key: String = value
            .chars()
            .filter(|c| !matches!(c, ' ' | '-' | '_' | '\t'))
            .flat_map(char::to_lowercase)
            .collect();
        // A variant combined with Chess960 is that variant: its FEN says where the rooks are.
        let key = match key.strip_suffix("960") {
            Some(base) if !base.is_empty() && !matches!(base, "chess" | "fischerandom") => base
                .strip_suffix("chess")
                .filter(|b| !b.is_empty())
                .unwrap_or(base),
            _ => key.as_str(),
        };
        match key {
            "" | "standard" | "chess" | "normal" | "fromposition" | "orthodox" | "classical" => {
                Variant::Standard
            }
            "chess960" | "960" | "fischerandom" | "fischerrandom" | "fischerrandomchess"
            | "frc" => Variant::Chess960,
            "crazyhouse" | "zh" | "crazy" => Variant::Crazyhouse,
            "atomic" | "atomicchess" => Variant::Atomic,
            "antichess" | "giveaway" | "suicide" | "anti" | "losers" => Variant::Antichess,
            "kingofthehill" | "koth" | "kingofthehillchess" => Variant::KingOfTheHill,
            "threecheck" | "3check" | "threecheckchess" | "checkthree" => Variant::ThreeCheck,
            "horde" | "hordechess" => Variant::Horde,
            "racingkings" | "racingkingschess" => Variant::RacingKings,
            _ => Variant::Unknown(value.trim().to_string()),
        }
    }

    /// `true` for the variants this crate plays: all but [`Variant::Unknown`].
    pub fn is_supported(&self) -> bool {
        self.ruleset().is_some()
    }

    /// The rules the variant is played by (standard chess for Chess960); `None` for an
    /// unknown variant.
    pub const fn ruleset(&self) -> Option<Ruleset> {
        Some(match self {
            Variant::Standard | Variant::Chess960 => Ruleset::Chess,
            Variant::Crazyhouse => Ruleset::Crazyhouse,
            Variant::Atomic => Ruleset::Atomic,
            Variant::Antichess => Ruleset::Antichess,
            Variant::KingOfTheHill => Ruleset::KingOfTheHill,
            Variant::ThreeCheck => Ruleset::ThreeCheck,
            Variant::Horde => Ruleset::Horde,
            Variant::RacingKings => Ruleset::RacingKings,
            Variant::Unknown(_) => return None,
        })
    }

    /// The canonical tag value (`Standard`, `Chess960`, `Crazyhouse`, …; unknown values as
    /// written).
    pub fn name(&self) -> &str {
        match self {
            Variant::Standard => "Standard",
            Variant::Chess960 => "Chess960",
            Variant::Crazyhouse => "Crazyhouse",
            Variant::Atomic => "Atomic",
            Variant::Antichess => "Antichess",
            Variant::KingOfTheHill => "King of the Hill",
            Variant::ThreeCheck => "Three-check",
            Variant::Horde => "Horde",
            Variant::RacingKings => "Racing Kings",
            Variant::Unknown(s) => s,
        }
    }

    /// The castling notation the variant uses.
    pub fn castling_mode(&self) -> crate::CastlingMode {
        match self {
            Variant::Chess960 => crate::CastlingMode::Chess960,
            _ => crate::CastlingMode::Standard,
        }
    }
}

impl Ruleset {
    /// The ruleset a name stands for, ignoring case, spaces, `-` and `_` (`crazyhouse`,
    /// `King of the Hill`, `3check`, `giveaway`, …); `None` for Chess960 and unknown names.
    // Here rather than with the type: a ruleset's names are those of the `Variant` tag.
    pub fn from_name(name: &str) -> Option<Ruleset> {
        match Variant::from_tag(name) {
            Variant::Chess960 => None,
            variant => variant.ruleset(),
        }
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Variant {
    type Err = std::convert::Infallible;
    fn from_str(s: &str) -> Result<Variant, Self::Err> {
        Ok(Variant::from_tag(s))
    }
}
