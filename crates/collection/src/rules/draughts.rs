//! Draughts, for PDN files.

use std::fmt::Write as _;

use notation::{GameTree, Rules, WriteOptions};

use super::FormatRules;
use crate::mainline;

impl FormatRules for pdn::DraughtsRules {
    fn write_options(&self) -> WriteOptions {
        pdn::PDN_WRITE
    }

    fn variant(&self, game: &GameTree<Self::Move>) -> String {
        match settled(self, game) {
            Some(board) => board.game_type().variant().name().to_owned(),
            // Game types the crate does not play (chess, Othello, …): as the tag says.
            None => game.tags.get("GameType").unwrap_or("?").to_owned(),
        }
    }

    fn start(&self, game: &GameTree<Self::Move>) -> Option<pdn::PdnPosition> {
        let start = self.start_position(&game.tags).ok()?.position;
        let settled = settled(self, game)?.game_type();
        if settled == start.game_type() {
            return Some(start);
        }
        // The moves settled another game type than the one first tried (a game with no
        // GameType tag whose first move is English, say): that game type's start.
        pdn::DraughtsRules::with_default(settled)
            .inferring(false)
            .start_position(&game.tags)
            .ok()
            .map(|s| s.position)
    }

    fn fen(&self, board: &pdn::PdnPosition) -> Option<String> {
        Some(board.position().to_fen())
    }

    fn diagram(&self, board: &pdn::PdnPosition) -> Option<String> {
        Some(diagram(board.position()))
    }
}

/// The board after a draughts game's main line: its preferred reading is the game type the
/// moves settled (a game read in several game types keeps the first that reads them all).
fn settled(rules: &pdn::DraughtsRules, game: &GameTree<pdn::PdnMove>) -> Option<pdn::PdnPosition> {
    mainline::end(rules, game)
}

/// A draughts position as a diagram (`w`/`b` men, `W`/`B` kings, `.` empty playing
/// squares), then whose turn it is, the game type and the FEN.
pub fn diagram(pos: &pdn::Position) -> String {
    let mut out = pos.to_string();
    let _ = writeln!(out, "{} to move", pos.turn());
    let _ = writeln!(out, "GameType: {}", pos.game_type());
    let _ = writeln!(out, "FEN: {}", pos.to_fen());
    out
}
