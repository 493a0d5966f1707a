//! An explorer answer in the shape of lichess's explorer API, so that scripts written for
//! lichess read a private collection's answers as they are.
//!
//! Field names are lichess's (camelCase). A game also says where it is: `file`, `number`
//! (from 1) and `offset`, fields lichess does not have and its scripts pass over.

use serde_json::{Value, json};

use crate::dims::Winner;
use crate::query::{Explored, GameSummary, MoveStats};

/// The answer as lichess's explorer writes it.
pub fn explored(answer: &Explored) -> Value {
    json!({
        "white": answer.white,
        "draws": answer.draws,
        "black": answer.black,
        "moves": answer.moves.iter().map(move_stats).collect::<Vec<_>>(),
        "topGames": answer.top_games.iter().map(game).collect::<Vec<_>>(),
        "recentGames": answer.recent_games.iter().map(game).collect::<Vec<_>>(),
        "opening": answer.opening.as_ref().map(|(eco, name)| json!({"eco": eco, "name": name})),
    })
}

fn move_stats(m: &MoveStats) -> Value {
    let mut value = json!({
        "uci": m.uci,
        "san": m.san,
        "white": m.white,
        "draws": m.draws,
        "black": m.black,
        "averageRating": m.average_rating,
    });
    if let (Some(game_value), Some(map)) = (m.game.as_ref().map(game), value.as_object_mut()) {
        map.insert("game".into(), game_value);
    }
    value
}

/// A game as the explorer lists it.
pub fn game(g: &GameSummary) -> Value {
    let winner = match g.winner {
        Winner::White => Value::from("white"),
        Winner::Black => Value::from("black"),
        Winner::Draw | Winner::Unknown => Value::Null,
    };
    json!({
        "id": g.id.0.to_string(),
        "winner": winner,
        "speed": g.speed.map(|s| s.name()),
        "mode": g.rated.map(|rated| if rated { "rated" } else { "casual" }),
        "white": {"name": g.white.name, "rating": g.white.rating},
        "black": {"name": g.black.name, "rating": g.black.rating},
        "year": (g.year > 0).then_some(g.year),
        "month": (g.month > 0).then(|| format!("{:04}-{:02}", g.year, g.month)),
        "uci": g.uci,
        "file": g.reference.path,
        "number": g.reference.number,
        "offset": g.reference.offset,
    })
}
