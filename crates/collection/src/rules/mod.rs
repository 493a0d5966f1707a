//! Where a format meets its rules: PGN files are read with chess's ([`chess`]), PDN files
//! with draughts' ([`draughts`]), and [`FormatRules`] is what every job needs of them
//! beyond [`notation::Rules`].
//!
//! What only one job needs lives with that job, as a trait of its own implemented for
//! both games: a move's JSON fields ([`json::JsonMoves`](crate::json::JsonMoves)), a
//! picture ([`svg::Draw`](crate::svg::Draw)), the viewer's boards
//! ([`html::Snapshots`](crate::html::Snapshots)), the result a board decides
//! ([`repair::BoardResult`](crate::repair::BoardResult)), a fast check
//! ([`check::Check`](crate::check::Check)), the Parquet columns
//! ([`parquet::Columns`](crate::parquet::Columns)), `select`'s positions
//! ([`select::Boards`](crate::select::Boards)) and `dedupe`'s digests
//! ([`dedupe::Digest`](crate::dedupe::Digest)). Plugging in other rules is a matter of
//! these impls.

use notation::{GameTree, Rules, WriteOptions};
use pgn::openings::{Classifier, Opening};

pub(crate) mod chess;
pub(crate) mod draughts;
mod raw;

/// A format's rules, as every job uses them.
pub trait FormatRules: Rules + Sync {
    /// How `fmt` writes a game.
    fn write_options(&self) -> WriteOptions;

    /// Whether `fmt` writes these rules' games as it reads them, with no tree
    /// ([`notation::ExportText`]), where no inspection looks at them: for rules that
    /// neither settle a game once read nor read it a second time, either of which sends
    /// the game back to be read into a tree. The default: no.
    fn writes_along(&self) -> bool {
        false
    }

    /// The variant a game is played in, for `json` and `stats`: from its tags, or from
    /// its moves where they settle it.
    fn variant(&self, game: &GameTree<Self::Move>) -> String;

    /// [`FormatRules::variant`] of a game whose start position ([`FormatRules::start`])
    /// is known.
    fn variant_from(&self, game: &GameTree<Self::Move>, _start: Option<&Self::Position>) -> String {
        self.variant(game)
    }

    /// The start position of a game as `json` gives it: the tags' (the default), or the
    /// one of the game type its moves settled.
    fn start(&self, game: &GameTree<Self::Move>) -> Option<Self::Position> {
        self.start_position(&game.tags).ok().map(|s| s.position)
    }

    /// A position as FEN, when the rules know positions.
    fn fen(&self, position: &Self::Position) -> Option<String>;

    /// A move as text, for `stats` (openings) and `show`.
    fn move_text(&self, position: &Self::Position, mv: &Self::Move) -> String {
        let mut out = String::new();
        self.write_move(position, mv, &mut out);
        out
    }

    /// A text diagram of a position, when the rules know positions.
    fn diagram(&self, position: &Self::Position) -> Option<String>;

    /// Whether the rules name openings (chess): `json` then gives each game's opening,
    /// `eco` sets its tags, `stats` counts them.
    fn names_openings(&self) -> bool {
        false
    }

    /// The opening of a game, from the positions of its main line
    /// ([`pgn::openings::classify_game`]); `None` for rules that name none.
    fn opening(&self, _game: &GameTree<Self::Move>) -> Option<&'static Opening> {
        None
    }

    /// Gives the next position of a game's main line (its start first) to `classifier`,
    /// for a game read without its tree; nothing for rules that name no openings.
    fn see_opening(&self, _classifier: &mut Classifier, _position: &Self::Position) {}

    /// Whether the rules' games carry engine evaluations that give each player's accuracy
    /// (chess; [`judgement::EvalsAlong`](crate::judgement::EvalsAlong)): `json` then gives
    /// it, `stats` its means.
    fn judges_accuracy(&self) -> bool {
        false
    }

    /// Whether White is to move in a position; `None` for rules that judge no accuracy.
    fn white_to_move(&self, _position: &Self::Position) -> Option<bool> {
        None
    }

    /// White's centipawns in a position where the game is over (a mate, a stalemate, a
    /// variant's end), which no engine is asked about; `None` where it goes on.
    fn score_when_over(&self, _position: &Self::Position) -> Option<i32> {
        None
    }
}

/// The rules for PGN files.
pub fn chess() -> pgn::ChessRules {
    pgn::ChessRules
}

/// The rules for PDN files: PDN's (international draughts unless a game's tags or moves
/// say otherwise), or, with a game type given (`--variant`), that game type for every
/// game that declares none, whatever its moves.
pub fn draughts(game_type: Option<pdn::GameType>) -> pdn::DraughtsRules {
    match game_type {
        None => pdn::DraughtsRules::new(),
        Some(game_type) => pdn::DraughtsRules::with_default(game_type).inferring(false),
    }
}

/// Reads the value of `--variant`: a draughts variant by name (`russian`, `checkers`, …),
/// a PDN `GameType` number (`25`), or a whole `GameType` value (`20,W,10,10,N1,0`).
///
/// Chess games name their variant in their own tags; the option is for draughts games
/// that do not.
///
/// # Errors
/// A message saying what it expected.
pub fn parse_game_type(value: &str) -> Result<pdn::GameType, String> {
    if let Ok(variant) = value.parse::<pdn::Variant>() {
        return Ok(pdn::GameType::new(variant));
    }
    let lower = value.trim().to_ascii_lowercase();
    if matches!(lower.as_str(), "chess" | "chess960" | "0") {
        return Err(format!(
            "{value:?} is chess: chess games name their variant in a Variant tag; \
             --variant gives the game type of draughts games that have no GameType tag"
        ));
    }
    pdn::GameType::parse(value.trim()).map_err(|e| {
        format!(
            "{value:?} is not a draughts game type ({e}); expected international, english, \
             italian, pool, spanish, russian, brazilian, canadian, portuguese, czech, turkish, \
             thai, frisian, spantsiretti, or a GameType such as 25 or 20,W,10,10,N1,0"
        )
    })
}
