//! [`Ruleset`]: the rules a [`Position`](crate::Position) is played by.

use std::fmt;

/// The rules a position is played by: standard chess or one of the variants lichess plays.
///
/// A position carries its ruleset: legal moves, checks, playing a move, FEN and the game's
/// outcome all follow it. Chess960 is not a ruleset but a way of castling
/// ([`CastlingMode`](crate::CastlingMode)), and combines with any ruleset that castles.
///
/// ```
/// use pgn::{Position, Ruleset};
/// let pos = Position::start(Ruleset::Crazyhouse);
/// assert_eq!(pos.to_fen(), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1");
/// assert_eq!(Ruleset::from_name("king-of-the-hill"), Some(Ruleset::KingOfTheHill));
/// assert_eq!(Position::start(Ruleset::Horde).legal_moves().len(), 8);
/// ```
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Ruleset {
    /// Standard chess (and Chess960).
    #[default]
    Chess,
    /// Crazyhouse: a captured piece goes to the capturer's pocket and may be dropped back on
    /// an empty square instead of a move.
    Crazyhouse,
    /// Atomic: a capture explodes the capturing piece and every piece but pawns around the
    /// target square; exploding the other king wins.
    Atomic,
    /// Antichess (giveaway): captures are compulsory, the king is an ordinary piece, and a
    /// side that has lost every piece or cannot move wins.
    Antichess,
    /// King of the hill: a king reaching d4, e4, d5 or e5 wins.
    KingOfTheHill,
    /// Three-check: the side giving a third check wins.
    ThreeCheck,
    /// Horde: white has 36 pawns and no king and wins by mate; black wins by taking them all.
    Horde,
    /// Racing kings: no checks, and the first king to reach the eighth rank wins (black,
    /// moving second, may still draw by reaching it at once).
    RacingKings,
}

impl Ruleset {
    /// Every ruleset, standard chess first.
    pub const ALL: [Ruleset; 8] = [
        Ruleset::Chess,
        Ruleset::Crazyhouse,
        Ruleset::Atomic,
        Ruleset::Antichess,
        Ruleset::KingOfTheHill,
        Ruleset::ThreeCheck,
        Ruleset::Horde,
        Ruleset::RacingKings,
    ];

    /// The name a PGN `Variant` tag gives it (`Standard` for chess).
    pub const fn name(self) -> &'static str {
        match self {
            Ruleset::Chess => "Standard",
            Ruleset::Crazyhouse => "Crazyhouse",
            Ruleset::Atomic => "Atomic",
            Ruleset::Antichess => "Antichess",
            Ruleset::KingOfTheHill => "King of the Hill",
            Ruleset::ThreeCheck => "Three-check",
            Ruleset::Horde => "Horde",
            Ruleset::RacingKings => "Racing Kings",
        }
    }

    /// The FEN of the position games of this ruleset start from.
    pub const fn start_fen(self) -> &'static str {
        match self {
            Ruleset::Horde => {
                "rnbqkbnr/pppppppp/8/1PP2PP1/PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP w kq - 0 1"
            }
            Ruleset::RacingKings => "8/8/8/8/8/8/krbnNBRK/qrbnNBRQ w - - 0 1",
            Ruleset::Antichess => "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1",
            _ => "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        }
    }

    /// `true` if castling exists (not in antichess or racing kings).
    pub const fn castles(self) -> bool {
        !matches!(self, Ruleset::Antichess | Ruleset::RacingKings)
    }
}

impl fmt::Display for Ruleset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
