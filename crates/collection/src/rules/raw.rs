//! Moves kept as their tokens ([`notation::RawRules`]), for games no crate plays.

use notation::{GameTree, RawRules, WriteOptions};

use super::FormatRules;

impl FormatRules for RawRules {
    fn write_options(&self) -> WriteOptions {
        WriteOptions::PGN
    }

    fn variant(&self, game: &GameTree<Self::Move>) -> String {
        let tags = &game.tags;
        if self.dialect.strict_layout {
            tags.get("Variant").unwrap_or("Standard").to_owned()
        } else {
            tags.get("GameType").unwrap_or("20").to_owned()
        }
    }

    fn fen(&self, _: &Self::Position) -> Option<String> {
        None
    }

    fn diagram(&self, _: &Self::Position) -> Option<String> {
        None
    }
}
