//! [`ChessRules`]: the rules of chess as the notation layer needs them ([`notation::Rules`]).

use std::fmt;

use notation::{Dialect, Forgiveness, MoveContext, Player, Rules, Setup, SetupError, Tags};

use crate::Forgiven;
use crate::san::{IllegalReason, SanError};
use crate::{CastlingMode, Color, Move, Position, Ruleset, Variant};

/// The rules of chess (and Chess960) for the notation layer: plug it into
/// [`notation::GameReader`], [`notation::write_game`] and the rest, or use this crate's
/// shortcuts ([`read_games`](crate::read_games), [`write_game`](crate::write_game)).
///
/// Positions are [`Position`]s, moves are [`Move`]s; moves are read as lenient SAN (what
/// was forgiven comes back as [`Forgiven`]) and written as canonical SAN with `+` or `#`.
///
/// ```
/// use pgn::ChessRules;
/// use notation::{read_games, ReadOptions};
/// let games = read_games(&ChessRules, &b"1. e4 e5 2. Nf3 *"[..], ReadOptions::default());
/// assert_eq!(games[0].game.mainline().count(), 3);
/// ```
///
/// This is the seam between the game-agnostic reader and writer of `notation` and the chess
/// core of this crate: the start position from the tags (`Variant`, `SetUp`, `FEN`), reading
/// a move token (lenient SAN, see [`SanToken`](crate::san::SanToken)), writing a move (canonical
/// SAN with `+` or `#`), playing it.
///
/// # Start positions
///
/// - **`Variant`**: absent, or naming standard chess (`Standard`, `From Position`, `normal`,
///   …), the game is standard chess; `Chess960` (or `fischerandom`, `Chess 960`, `frc`, …)
///   plays Chess960. Crazyhouse, atomic, antichess, king of the hill, three-check, horde and
///   racing kings (in the spellings files use: `Three-check`, `threeCheck`, `King of the
///   Hill`, `racingKings`, …, and combined with Chess960 as `Crazyhouse960`) are played by
///   their [`Ruleset`]: the start position, legal moves, SAN with drops, checks and the
///   outcome are the variant's. A name nobody knows is [`SetupError::Unsupported`]: the game
///   is kept with its whole movetext as text, never played as if it were standard chess.
/// - **A FEN with pockets or check counters and no `Variant` tag** is read as crazyhouse or
///   three-check, with a warning.
/// - **`SetUp` and `FEN`**: `SetUp "1"` with a `FEN` tag starts from the FEN. A `FEN` tag
///   without `SetUp "1"` is used too, with a warning; `SetUp "1"` without a `FEN` tag (or
///   with an empty one) starts from the initial position, with a warning.
/// - **Lenient FEN**: missing fields (counters, en-passant, castling), irregular white space,
///   an upper-case side to move, a full-move number of 0, and castling rights or an
///   en-passant square that do not fit the board (they are dropped) are forgiven, each with
///   a warning. A FEN that cannot be read, or whose position is impossible (no king, a pawn
///   on the last rank, the side not to move in check, …), is [`SetupError::Invalid`].
/// - **Chess960 castling**: in a Chess960 game the castling field may be X-FEN (`KQkq` for
///   the outermost rooks, file letters for others) or Shredder-FEN (`HAha`).
/// - **A FEN implying Chess960 in a game not said to be Chess960**: when the castling
///   rights name a king or rook off the standard squares (`[FEN "…/RBNNQKBR w HAha - 0 1"]`
///   with no `Variant` tag, or a standard-chess one), the rights only make sense in
///   Chess960. The game is then read with Chess960 castling, with a warning, rather than
///   dropping rights the file plainly means: a Chess960 game whose `Variant` tag was left
///   out is far more common than a standard game with impossible rights. The tags are kept
///   as written; writing the game back gives the same tags, so it reads back the same way.
///
/// ```
/// use pgn::{ChessRules, Player, Position};
/// use notation::{Rules, Tags};
///
/// let mut tags = Tags::new();
/// tags.set("FEN", "4k3/8/8/8/8/8/4P3/4K3 b - - 0 39");
/// let setup = ChessRules.start_position(&tags)?;
/// assert_eq!(setup.warnings, ["FEN tag without SetUp \"1\"; the FEN is used"]);
/// assert_eq!(ChessRules.turn(&setup.position), Player::Second);
/// assert_eq!(ChessRules.move_number(&setup.position), 39);
///
/// tags.set("Variant", "Shogi");
/// let error = ChessRules.start_position(&tags).unwrap_err();
/// assert_eq!(error.to_string(), "variant Shogi is not supported");
/// # Ok::<(), notation::SetupError>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ChessRules;

/// What is wrong with a move token, without the token itself (the diagnostic names it).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveProblem {
    /// The token is not a move in any form this reader knows.
    #[error("not a move: {0}")]
    Unreadable(&'static str),
    /// The token reads as a move, but no legal move matches it.
    #[error("illegal move: {0}")]
    Illegal(IllegalReason),
    /// Several legal moves match the token.
    #[error("ambiguous move: could be {}", .0.join(" or "))]
    Ambiguous(Vec<String>),
}

/// Why a move token could not be read or played: the problem, and the position it was read
/// in, as FEN. The token itself, its line and its column are in the
/// [`Diagnostic`](notation::Diagnostic) that carries this message.
///
/// ```
/// use pgn::{ChessRules, Position};
/// use notation::{MoveContext, Rules};
/// let error = ChessRules.read_move(&Position::new(), b"Ke2", MoveContext::default()).unwrap_err();
/// assert_eq!(
///     error.to_string(),
///     "illegal move: no white king can move to e2 \
///      (position rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1)"
/// );
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{problem} (position {fen})")]
pub struct MoveError {
    /// What is wrong.
    pub problem: MoveProblem,
    /// The position the token was read in, as FEN.
    pub fen: String,
}

impl MoveError {
    /// The error for a token that `position` refused with `error`.
    pub fn new(error: SanError, position: &Position) -> MoveError {
        let problem = match error {
            SanError::Unreadable { reason, .. } => MoveProblem::Unreadable(reason),
            SanError::Illegal { reason, .. } => MoveProblem::Illegal(reason),
            SanError::Ambiguous { candidates, .. } => MoveProblem::Ambiguous(candidates),
        };
        MoveError {
            problem,
            fen: position.to_fen(),
        }
    }
}

impl Forgiveness for Forgiven {
    fn is_none(&self) -> bool {
        self.is_empty()
    }
}

/// The tags that say where a game starts.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct StartTags<'a> {
    pub variant: Option<&'a str>,
    pub set_up: Option<&'a str>,
    pub fen: Option<&'a str>,
}

impl<'a> StartTags<'a> {
    pub(crate) fn of(tags: &'a Tags) -> StartTags<'a> {
        StartTags {
            variant: tags.get("Variant"),
            set_up: tags.get("SetUp"),
            fen: tags.get("FEN"),
        }
    }
}

/// The start position the tags give, with a warning for everything forgiven; see the
/// [module documentation](self).
pub(crate) fn start_position(tags: StartTags<'_>) -> Result<Setup<Position>, SetupError> {
    let mut warnings = Vec::new();
    let variant = match tags.variant {
        None => None,
        Some(name) => {
            let variant = Variant::from_tag(name);
            if !variant.is_supported() {
                return Err(SetupError::Unsupported(format!(
                    "variant {} is not supported",
                    name.trim()
                )));
            }
            Some(variant)
        }
    };
    let chess960 = variant == Some(Variant::Chess960);
    let ruleset = variant.as_ref().and_then(Variant::ruleset);

    let fen = match (tags.set_up, tags.fen) {
        (Some("1"), Some(fen)) => Some(fen),
        (None, Some(fen)) => {
            warnings.push("FEN tag without SetUp \"1\"; the FEN is used".to_owned());
            Some(fen)
        }
        (Some("0"), Some(fen)) => {
            warnings.push("SetUp \"0\" with a FEN tag; the FEN is used".to_owned());
            Some(fen)
        }
        (Some(other), Some(fen)) => {
            warnings.push(format!(
                "SetUp \"{other}\" is neither \"0\" nor \"1\"; the FEN is used"
            ));
            Some(fen)
        }
        (Some("1"), None) => {
            warnings.push(
                "SetUp \"1\" without a FEN tag; the game starts from the initial position"
                    .to_owned(),
            );
            None
        }
        (None | Some("0"), None) => None,
        (Some(other), None) => {
            warnings.push(format!(
                "SetUp \"{other}\" is neither \"0\" nor \"1\"; no FEN tag, so the game starts \
                 from the initial position"
            ));
            None
        }
    };
    let fen = match fen {
        Some(fen) if fen.trim().is_empty() => {
            warnings
                .push("the FEN tag is empty; the game starts from the initial position".to_owned());
            None
        }
        other => other,
    };

    let Some(fen) = fen else {
        let position = Position::start(ruleset.unwrap_or_default());
        let position = if chess960 {
            position
                .with_castling_mode(CastlingMode::Chess960)
                .map_err(|e| SetupError::Invalid(e.to_string()))?
        } else {
            position
        };
        return Ok(Setup { position, warnings });
    };

    let setup = crate::fen::Setup::from_fen(fen)
        .map_err(|e| SetupError::Invalid(format!("FEN \"{fen}\": {e}")))?;
    fen_form_warnings(fen, &mut warnings);
    let ruleset = match ruleset {
        Some(ruleset) => ruleset,
        None => {
            let implied = setup.implied_ruleset();
            if implied != Ruleset::Chess {
                warnings.push(format!(
                    "the FEN has {}, which only {implied} has, and no Variant tag; the game is \
                     read as {implied}",
                    if implied == Ruleset::Crazyhouse {
                        "pockets"
                    } else {
                        "check counters"
                    }
                ));
            }
            implied
        }
    };
    let mode = chess960.then_some(CastlingMode::Chess960);
    let (position, dropped) = Position::from_setup_repairing_in(ruleset, &setup, mode)
        .map_err(|e| SetupError::Invalid(format!("FEN \"{fen}\": impossible position: {e}")))?;
    for reason in dropped {
        warnings.push(format!("FEN: {reason}; dropped"));
    }
    if !chess960 && position.castling_mode() == CastlingMode::Chess960 {
        warnings.push(
            "the FEN's castling rights only make sense in Chess960, which no Variant tag \
             says; castling is read as in Chess960"
                .to_owned(),
        );
    }
    Ok(Setup { position, warnings })
}

/// Warnings for a FEN record that was read but departs from the standard's form.
fn fen_form_warnings(fen: &str, warnings: &mut Vec<String>) {
    // Three-check counters (`3+3`, `+1+2`) are not among the six fields.
    let fields: Vec<&str> = fen
        .split_ascii_whitespace()
        .filter(|field| !field.contains('+'))
        .collect();
    if fields.len() < 6 {
        const NAMES: [&str; 6] = [
            "piece placement",
            "side to move",
            "castling",
            "en passant",
            "half-move clock",
            "full-move number",
        ];
        let missing = NAMES.get(fields.len()..).unwrap_or(&[]).join(", ");
        warnings.push(format!(
            "FEN has {} fields of 6; missing: {missing} (taken as - - 0 1)",
            fields.len()
        ));
    }
    if fen.split_ascii_whitespace().collect::<Vec<_>>().join(" ") != fen {
        warnings.push("FEN has extra white space".to_owned());
    }
    if matches!(fields.get(1), Some(&("W" | "B"))) {
        warnings.push("FEN's side to move is written in upper case".to_owned());
    }
    if fields.get(5) == Some(&"0") {
        warnings.push("FEN's full-move number 0 read as 1".to_owned());
    }
}

impl Rules for ChessRules {
    type Position = Position;
    type Move = Move;
    type Forgiven = Forgiven;
    type MoveError = MoveError;

    fn dialect(&self) -> Dialect {
        Dialect::PGN
    }

    fn start_position(&self, tags: &Tags) -> Result<Setup<Position>, SetupError> {
        start_position(StartTags::of(tags))
    }

    fn read_move(
        &self,
        position: &Position,
        token: &[u8],
        _context: MoveContext,
    ) -> Result<(Move, Forgiven), MoveError> {
        position
            .resolve_san(token)
            .map(|resolved| (resolved.mv, resolved.forgiven))
            .map_err(|error| MoveError::new(error, position))
    }

    fn read_and_play(
        &self,
        position: &mut Position,
        token: &[u8],
        _context: MoveContext,
    ) -> Result<(Move, Forgiven), MoveError> {
        // Reading plays the move (for its check sign) where the position is, uncopied;
        // on error it leaves the position as it was.
        position
            .play_san(token)
            .map_err(|error| MoveError::new(error, position))
    }

    fn write_move(&self, position: &Position, mv: &Move, out: &mut String) {
        use fmt::Write as _;
        // Writing into a String cannot fail.
        let _ = write!(out, "{}", position.san(mv));
    }

    /// A token read with nothing forgiven ([`Forgiven`](crate::Forgiven): each flag
    /// is a departure from SAN) is the move's SAN, its check sign included.
    fn writes_tokens_as_read(&self) -> bool {
        true
    }

    fn play(&self, position: &mut Position, mv: &Move) {
        position.play_mut(mv);
    }

    fn turn(&self, position: &Position) -> Player {
        match position.turn() {
            Color::White => Player::First,
            Color::Black => Player::Second,
        }
    }

    fn move_number(&self, position: &Position) -> u64 {
        u64::from(position.fullmoves())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn start(variant: Option<&str>, set_up: Option<&str>, fen: Option<&str>) -> Setup<Position> {
        start_position(StartTags {
            variant,
            set_up,
            fen,
        })
        .unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn variants() {
        for name in ["Standard", "From Position", "normal", " Standard    ", ""] {
            let setup = start(Some(name), None, None);
            assert_eq!(setup.position, Position::new(), "{name}");
            assert!(setup.warnings.is_empty());
        }
        for name in ["Chess960", "fischerandom", "Fischerandom", "chess 960"] {
            let setup = start(Some(name), None, None);
            assert_eq!(setup.position.castling_mode(), CastlingMode::Chess960);
        }
        for (name, ruleset) in [
            ("Crazyhouse", Ruleset::Crazyhouse),
            ("atomic", Ruleset::Atomic),
            ("Antichess", Ruleset::Antichess),
            ("Three-check", Ruleset::ThreeCheck),
            ("threecheck", Ruleset::ThreeCheck),
            ("King of the Hill", Ruleset::KingOfTheHill),
            ("kingOfTheHill", Ruleset::KingOfTheHill),
            ("Horde", Ruleset::Horde),
            ("Racing Kings", Ruleset::RacingKings),
            ("racingKings", Ruleset::RacingKings),
        ] {
            let setup = start(Some(name), None, None);
            assert_eq!(setup.position, Position::start(ruleset), "{name}");
            assert!(setup.warnings.is_empty());
        }
        for (name, shown) in [("starwars", "starwars"), ("shogi ", "shogi")] {
            let error = start_position(StartTags {
                variant: Some(name),
                ..StartTags::default()
            });
            assert_eq!(
                error.map(|s| s.position),
                Err(SetupError::Unsupported(format!(
                    "variant {shown} is not supported"
                )))
            );
        }
    }

    #[test]
    fn set_up_tags() {
        let fen = "4k3/8/8/8/8/8/4P3/4K3 b - - 0 39";
        let setup = start(None, Some("1"), Some(fen));
        assert!(setup.warnings.is_empty());
        assert_eq!(setup.position.to_fen(), fen);
        assert_eq!(start(None, None, Some(fen)).warnings.len(), 1);
        assert_eq!(start(None, Some("0"), Some(fen)).warnings.len(), 1);
        let missing = start(None, Some("1"), None);
        assert_eq!(missing.position, Position::new());
        assert_eq!(missing.warnings.len(), 1);
        let empty = start(None, Some("1"), Some(" "));
        assert_eq!(empty.position, Position::new());
        assert_eq!(empty.warnings.len(), 1);
    }

    #[test]
    fn lenient_fen() {
        let setup = start(None, Some("1"), Some("4k3/8/8/8/8/8/4P3/4K2R  W KQ"));
        assert_eq!(setup.position.to_fen(), "4k3/8/8/8/8/8/4P3/4K2R w K - 0 1");
        assert_eq!(
            setup.warnings,
            [
                "FEN has 3 fields of 6; missing: en passant, half-move clock, full-move number \
                 (taken as - - 0 1)",
                "FEN has extra white space",
                "FEN's side to move is written in upper case",
                "FEN: castling right `Q` is impossible: there is no rook on that side of the \
                 king; dropped",
            ]
        );
    }

    #[test]
    fn invalid_fen() {
        for fen in [
            "8/8/8/8/8/8/8/8 w - - 0 1",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1",
            "4k3/8/8/8/8/8/8/4K2P w - - 0 1",
        ] {
            let error = start_position(StartTags {
                set_up: Some("1"),
                fen: Some(fen),
                ..StartTags::default()
            });
            assert!(
                matches!(error, Err(SetupError::Invalid(ref m)) if m.contains(fen)),
                "{fen}: {error:?}"
            );
        }
    }

    #[test]
    fn chess960_castling() {
        let shredder = "rbnnqkbr/pppppppp/8/8/8/8/PPPPPPPP/RBNNQKBR w HAha - 0 1";
        let setup = start(Some("Chess960"), Some("1"), Some(shredder));
        assert!(setup.warnings.is_empty());
        assert_eq!(setup.position.castling_mode(), CastlingMode::Chess960);
        assert_eq!(setup.position.to_shredder_fen(), shredder);
        let xfen = "rbkrnnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKRNNBQ w KQkq - 0 1";
        let setup = start(Some("Chess960"), Some("1"), Some(xfen));
        assert!(setup.warnings.is_empty());
        assert_eq!(setup.position.castles().rights().bits().count_ones(), 4);
        // Without a Variant tag, the castling rights make it Chess960, with a warning.
        let setup = start(None, Some("1"), Some(shredder));
        assert_eq!(setup.position.castling_mode(), CastlingMode::Chess960);
        assert_eq!(setup.warnings.len(), 1);
        assert!(setup.warnings[0].contains("Chess960"));
    }
}
