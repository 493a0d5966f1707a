//! A position for the page's board: the line that reaches it (a FEN, or a start, and the
//! moves played from it) as the viewer shows a game, and the legal moves from it with
//! the cells each goes from and to, so that the page, which knows no rules, lets a user
//! play on the board.

use collection::html::Snapshots;
use index::{IndexError, IndexRules};
use notation::{GameTree, LineId};
use serde_json::{Value, json};

/// What the page needs of a game's rules to play on its board.
pub(crate) trait Playable: IndexRules + Snapshots {
    /// The legal moves from a position, each with the cells it goes from (none for a
    /// piece dropped in) and to, numbered as the viewer's board numbers them.
    fn legal(&self, position: &Self::Position) -> Vec<(Self::Move, Option<usize>, usize)>;
}

/// A chess square's cell (a8 first, h1 last), from its name.
fn chess_cell(name: &[u8]) -> Option<usize> {
    match *name {
        [file @ b'a'..=b'h', rank @ b'1'..=b'8'] => {
            Some(usize::from(b'8' - rank) * 8 + usize::from(file - b'a'))
        }
        _ => None,
    }
}

impl Playable for pgn::ChessRules {
    fn legal(&self, position: &pgn::Position) -> Vec<(pgn::Move, Option<usize>, usize)> {
        position
            .legal_moves()
            .into_iter()
            .filter_map(|mv| {
                let uci = mv.to_uci(pgn::CastlingMode::Standard).to_string();
                let bytes = uci.as_bytes();
                let to = chess_cell(bytes.get(2..4)?)?;
                let from = if bytes.get(1) == Some(&b'@') {
                    None
                } else {
                    Some(chess_cell(bytes.get(0..2)?)?)
                };
                Some((mv, from, to))
            })
            .collect()
    }
}

impl Playable for pdn::DraughtsRules {
    fn legal(&self, position: &pdn::PdnPosition) -> Vec<(pdn::PdnMove, Option<usize>, usize)> {
        let game_type = position.game_type();
        let board = position.position();
        board
            .legal_moves()
            .into_iter()
            .filter_map(|mv| {
                let from = collection::html::draughts_cell(game_type, mv.from())?;
                let to = collection::html::draughts_cell(game_type, mv.to())?;
                Some((pdn::PdnMove::from(mv), Some(from), to))
            })
            .collect()
    }
}

/// The line from a FEN (the start when none) through `moves` (as
/// [`index::position_of`] reads them), as the viewer shows a game, with the legal moves
/// from its last position: `{"fen", "view", "moves": [{"uci", "san", "from", "to"}]}`.
pub(crate) fn board<R: Playable>(
    rules: &R,
    fen: Option<&str>,
    variant: Option<&str>,
    moves: &str,
) -> Result<Value, IndexError> {
    let asked = index::position_of(rules, fen, variant, moves)?;
    let mut game = GameTree::new();
    game.tags = rules.setup_tags(fen, variant);
    if fen.is_some() {
        game.tags.set("SetUp", "1");
    }
    for mv in asked.moves {
        game.push_move(LineId::MAIN, mv);
    }
    let position = asked.position;
    let view: Value = serde_json::from_str(&collection::html::game_view(rules, &game, &[]))
        .map_err(|e| IndexError::Query(format!("the line does not write: {e}")))?;
    let legal: Vec<Value> = rules
        .legal(&position)
        .into_iter()
        .map(|(mv, from, to)| {
            json!({
                "uci": rules.uci(&position, &mv),
                "san": rules.move_text(&position, &mv),
                "from": from,
                "to": to,
            })
        })
        .collect();
    Ok(json!({
        "fen": rules.fen(&position).unwrap_or_default(),
        "view": view,
        "moves": legal,
    }))
}
