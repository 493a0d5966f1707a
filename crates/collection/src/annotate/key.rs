//! What an engine is asked of a position, which names the position in a run and in the
//! cache file: its FEN with move number 1 (no engine reads the move number into its
//! search, so a position met at another move is the same question), its `UCI_Variant`,
//! and whether it is Chess960.

use pgn::{CastlingMode, Position, Ruleset};

/// A position as an engine is asked about it: its FEN, its `UCI_Variant` (`None` for
/// chess), whether it is Chess960.
pub(crate) type Key = (String, Option<&'static str>, bool);

/// The `UCI_Variant` names of the chess variants (Fairy-Stockfish's), by ruleset.
const VARIANTS: [(Ruleset, &str); 7] = [
    (Ruleset::Crazyhouse, "crazyhouse"),
    (Ruleset::Atomic, "atomic"),
    (Ruleset::Antichess, "antichess"),
    (Ruleset::KingOfTheHill, "kingofthehill"),
    (Ruleset::ThreeCheck, "3check"),
    (Ruleset::Horde, "horde"),
    (Ruleset::RacingKings, "racingkings"),
];

/// The key of a position.
pub(crate) fn key_of(position: &Position) -> Key {
    let fen = position.to_fen();
    let fen = match fen.rsplit_once(' ') {
        Some((head, _)) => format!("{head} 1"),
        None => fen,
    };
    let ruleset = position.ruleset();
    let variant = VARIANTS
        .iter()
        .find(|(r, _)| *r == ruleset)
        .map(|&(_, name)| name);
    let chess960 = position.castling_mode() == CastlingMode::Chess960;
    (fen, variant, chess960)
}

/// The `UCI_Variant` name `name` stands for, as `key_of` gives it; `None` for a name no
/// key holds.
pub(crate) fn variant_named(name: &str) -> Option<&'static str> {
    VARIANTS
        .iter()
        .find(|(_, known)| *known == name)
        .map(|&(_, known)| known)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_position_is_asked_with_move_number_one() {
        let position =
            Position::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 17")
                .expect("a FEN");
        let (fen, variant, chess960) = key_of(&position);
        assert_eq!(
            fen,
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
        );
        assert_eq!((variant, chess960), (None, false));
        assert_eq!(variant_named("crazyhouse"), Some("crazyhouse"));
        assert_eq!(variant_named("chess"), None);
    }
}
