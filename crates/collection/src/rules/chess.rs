//! Chess, for PGN files.

use std::fmt::Write as _;

use notation::{GameTree, WriteOptions};
use pgn::openings::{Classifier, Opening};

use super::FormatRules;

impl FormatRules for pgn::ChessRules {
    fn write_options(&self) -> WriteOptions {
        WriteOptions::PGN
    }

    /// Chess settles no game and reads none twice; a move read with nothing forgiven is
    /// written back as its token ([`notation::Rules::writes_tokens_as_read`]).
    fn writes_along(&self) -> bool {
        true
    }

    fn variant(&self, game: &GameTree<Self::Move>) -> String {
        self.variant_from(game, self.start(game).as_ref())
    }

    fn variant_from(&self, game: &GameTree<Self::Move>, start: Option<&pgn::Position>) -> String {
        variant(start, game.tags.get("Variant"))
    }

    fn fen(&self, position: &pgn::Position) -> Option<String> {
        Some(position.to_fen())
    }

    fn diagram(&self, position: &pgn::Position) -> Option<String> {
        Some(diagram(position))
    }

    fn names_openings(&self) -> bool {
        true
    }

    fn opening(&self, game: &GameTree<Self::Move>) -> Option<&'static Opening> {
        pgn::openings::classify_game(game)
    }

    fn see_opening(&self, classifier: &mut Classifier, position: &pgn::Position) {
        classifier.push(position);
    }

    fn judges_accuracy(&self) -> bool {
        true
    }

    fn white_to_move(&self, position: &pgn::Position) -> Option<bool> {
        Some(position.turn() == pgn::Color::White)
    }

    fn score_when_over(&self, position: &pgn::Position) -> Option<i32> {
        use crate::judgement::CEILING;
        use pgn::{Color, Outcome};
        match position.outcome()? {
            Outcome::Checkmate { winner }
            | Outcome::Variant {
                winner: Some(winner),
                ..
            } => Some(if winner == Color::White {
                CEILING
            } else {
                -CEILING
            }),
            Outcome::Stalemate | Outcome::Variant { winner: None, .. } => Some(0),
            _ => None,
        }
    }
}

/// The variant a chess game is played in, from its start position and its `Variant`
/// tag ([`FormatRules::variant`]).
pub(crate) fn variant(start: Option<&pgn::Position>, tag: Option<&str>) -> String {
    match start {
        // The ruleset the game is played by: a FEN with pockets makes a crazyhouse game
        // whether or not a Variant tag says so.
        Some(start) if start.ruleset() != pgn::Ruleset::Chess => start.ruleset().name().to_owned(),
        // A game that starts in a Chess960 position is a Chess960 game, whether or not
        // its Variant tag says so.
        Some(start) if start.castling_mode() == pgn::CastlingMode::Chess960 => {
            pgn::Variant::Chess960.name().to_owned()
        }
        _ => pgn::Variant::from_tag(tag.unwrap_or("")).name().to_owned(),
    }
}

/// A chess position as a diagram: ranks 8 to 1, files a to h, FEN letters for pieces,
/// `.` for empty squares; then whose turn it is, the variant when it is not standard chess
/// (with the pieces in hand in crazyhouse and the checks given in three-check), and the FEN.
pub fn diagram(pos: &pgn::Position) -> String {
    use pgn::{File, Rank, Square};
    let mut out = String::new();
    out.push_str("  +-----------------+\n");
    for rank in Rank::ALL.iter().rev() {
        let _ = write!(out, "{} |", rank.char());
        for file in File::ALL {
            let c = pos
                .piece_at(Square::from_coords(file, *rank))
                .map_or('.', |p| p.char());
            let _ = write!(out, " {c}");
        }
        out.push_str(" |\n");
    }
    out.push_str("  +-----------------+\n    a b c d e f g h\n");
    let turn = match pos.turn() {
        pgn::Color::White => "White",
        pgn::Color::Black => "Black",
    };
    let _ = writeln!(out, "{turn} to move");
    if pos.ruleset() != pgn::Ruleset::Chess {
        let _ = writeln!(out, "Variant: {}", pos.ruleset().name());
    }
    if let Some(pockets) = pos.pockets() {
        let _ = writeln!(
            out,
            "In hand: White {}, Black {}",
            in_hand(&pockets.white, pgn::Color::White),
            in_hand(&pockets.black, pgn::Color::Black)
        );
    }
    if let Some(left) = pos.remaining_checks() {
        let given = |left: u8| 3u8.saturating_sub(left);
        let _ = writeln!(
            out,
            "Checks given: White {}, Black {}",
            given(left.white),
            given(left.black)
        );
    }
    let _ = writeln!(out, "FEN: {}", pos.to_fen());
    out
}

/// A crazyhouse pocket as the diagram's letters (`QNP` for White, `qnp` for Black, queens
/// first), `-` when empty.
fn in_hand(pocket: &pgn::Pocket, color: pgn::Color) -> String {
    if pocket.is_empty() {
        return "-".to_owned();
    }
    let mut letters = String::new();
    for role in pgn::Pocket::ROLES {
        for _ in 0..pocket.count(role) {
            letters.push(pgn::Piece { color, role }.char());
        }
    }
    letters
}
