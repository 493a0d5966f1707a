//! Where games start: the start position of each [`Ruleset`], and a game's own start from
//! its variant and its `FEN` tag ([`Variant::start_position`]).

use crate::fen::{FenError, Setup};
use crate::{CastlingMode, Position, PositionError, Ruleset, Variant};

impl Position {
    /// The position games of `ruleset` start from ([`Ruleset::start_fen`]).
    ///
    /// ```
    /// use pgn::{Position, Ruleset};
    /// assert_eq!(Position::start(Ruleset::Chess), Position::new());
    /// assert_eq!(Position::start(Ruleset::ThreeCheck).to_fen(),
    ///            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 +0+0");
    /// ```
    pub fn start(ruleset: Ruleset) -> Position {
        if ruleset == Ruleset::Chess {
            return Position::new();
        }
        // Read from FEN once: every game of a file starts here.
        static STARTS: std::sync::OnceLock<[Position; 8]> = std::sync::OnceLock::new();
        let starts = STARTS.get_or_init(|| {
            Ruleset::ALL.map(|ruleset| {
                Setup::from_fen(ruleset.start_fen())
                    .ok()
                    .and_then(|setup| {
                        Position::from_setup_in(ruleset, &setup, CastlingMode::Standard).ok()
                    })
                    .unwrap_or_default()
            })
        });
        starts[ruleset as usize]
    }
}

/// Why a game cannot start: its variant is not played here, or its FEN is unusable.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum StartError {
    /// The variant is recognised (or not) but not played by this crate.
    #[error("the variant {0} is not supported")]
    UnsupportedVariant(Variant),
    /// The FEN is unreadable or the position impossible.
    #[error(transparent)]
    Fen(#[from] FenError),
}

impl Variant {
    /// The position a game of this variant starts from: its `FEN` tag if there is one, else
    /// the variant's start ([`Ruleset::start_fen`]).
    ///
    /// Castling rights and an en-passant square that do not fit the board are dropped, and
    /// the reasons returned for warnings. For standard chess the castling mode is chosen
    /// from the rights (a FEN with Chess960 rights is read as Chess960); for Chess960 it is
    /// always Chess960.
    ///
    /// ```
    /// use pgn::{CastlingMode, Variant};
    /// let (pos, dropped) = Variant::Standard.start_position(None)?;
    /// assert_eq!(pos, pgn::Position::new());
    /// assert!(dropped.is_empty());
    /// let fen = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9";
    /// let (pos, _) = Variant::Chess960.start_position(Some(fen))?;
    /// assert_eq!(pos.castling_mode(), CastlingMode::Chess960);
    /// let (pos, _) = Variant::RacingKings.start_position(None)?;
    /// assert_eq!(pos.to_fen(), "8/8/8/8/8/8/krbnNBRK/qrbnNBRQ w - - 0 1");
    /// assert!(Variant::Unknown("shogi".into()).start_position(None).is_err());
    /// # Ok::<(), pgn::StartError>(())
    /// ```
    ///
    /// # Errors
    /// [`StartError`] for an unsupported variant or an unusable FEN.
    pub fn start_position(
        &self,
        fen: Option<&str>,
    ) -> Result<(Position, Vec<PositionError>), StartError> {
        let Some(ruleset) = self.ruleset() else {
            return Err(StartError::UnsupportedVariant(self.clone()));
        };
        let mode = match self {
            Variant::Chess960 => Some(CastlingMode::Chess960),
            _ => None,
        };
        match fen {
            None => {
                let pos = Position::start(ruleset);
                match mode {
                    Some(mode) => Ok((
                        pos.with_castling_mode(mode).map_err(FenError::from)?,
                        Vec::new(),
                    )),
                    None => Ok((pos, Vec::new())),
                }
            }
            Some(fen) => {
                let setup = Setup::from_fen(fen).map_err(FenError::from)?;
                Ok(Position::from_setup_repairing_in(ruleset, &setup, mode)
                    .map_err(FenError::from)?)
            }
        }
    }
}
