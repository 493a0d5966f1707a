//! `notate show`: a position as a text diagram, from a FEN or from a game in a file.

use std::fmt::Write as _;

use notation::{GameReader, KeepRaw, ReadOptions};

use crate::games::Notate;
use crate::perft::{Game, Start};

/// A chess position as a diagram: ranks 8 to 1, files a to h, FEN letters for pieces,
/// `.` for empty squares; then whose turn it is and the FEN.
pub fn chess_diagram(pos: &pgn::Position) -> String {
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
    let _ = writeln!(out, "FEN: {}", pos.to_fen());
    out
}

/// A draughts position as a diagram (`w`/`b` men, `W`/`B` kings, `.` empty playing
/// squares), then whose turn it is, the game type and the FEN.
pub fn draughts_diagram(pos: &pdn::Position) -> String {
    let mut out = pos.to_string();
    let _ = writeln!(out, "{} to move", pos.turn());
    let _ = writeln!(out, "GameType: {}", pos.game_type());
    let _ = writeln!(out, "FEN: {}", pos.to_fen());
    out
}

/// The diagram of a FEN: chess unless `game` says otherwise or the FEN is a draughts
/// one (`W:…`/`B:…`, international draughts unless `game` names the variant).
pub fn fen_diagram(fen: &str, game: Option<Game>) -> Result<String, String> {
    let game = match game {
        Some(g) => g,
        None => {
            let trimmed = fen.trim_start();
            if trimmed.starts_with("W:") || trimmed.starts_with("B:") || !trimmed.contains('/') {
                Game::Draughts(pdn::Variant::International)
            } else {
                Game::Chess
            }
        }
    };
    let (start, warnings) = Start::new(game, Some(fen))?;
    let mut out = String::new();
    for w in warnings {
        let _ = writeln!(out, "warning: {w}");
    }
    out.push_str(&match start {
        Start::Chess(pos) => chess_diagram(&pos),
        Start::Draughts(pos) => draughts_diagram(&pos),
    });
    Ok(out)
}

/// The diagram of game `number` (1-based) of an input after `ply` plies of its main line
/// (all of them when `None`).
pub fn game_diagram<G: Notate>(
    rules: &G,
    input: &mut dyn std::io::Read,
    number: u64,
    ply: Option<usize>,
) -> Result<String, String> {
    let mut reader = GameReader::new(rules, input, ReadOptions::default()).keep_raw(KeepRaw::Never);
    let mut seen = 0;
    let read = loop {
        match reader.read_game() {
            Ok(Some(game)) => {
                seen += 1;
                if seen == number {
                    break game;
                }
            }
            Ok(None) => return Err(format!("there are only {seen} games; no game {number}")),
            Err(e) => return Err(format!("read error: {e}")),
        }
    };
    let game = &read.game;
    let mut position = rules
        .start_position(&game.tags)
        .map_err(|e| format!("game {number}: cannot set up its start position: {e}"))?
        .position;
    let moves = game.mainline().count();
    let ply = ply.unwrap_or(moves);
    if ply > moves {
        return Err(format!(
            "game {number} has {moves} plies in its main line; no ply {ply}"
        ));
    }
    let mut last = None;
    for node in game.mainline().take(ply) {
        last = Some(format!(
            "{}{} {}",
            rules.move_number(&position),
            if rules.turn(&position) == notation::Player::First {
                "."
            } else {
                "..."
            },
            rules.move_text(&position, &node.mv)
        ));
        rules.play(&mut position, &node.mv);
    }
    let diagram = rules.diagram(&position).ok_or_else(|| {
        "this build reads the moves of this format as text only: it has no positions to show"
            .to_owned()
    })?;
    let mut out = String::new();
    let tag = |name: &str| game.tags.get(name).unwrap_or("?").to_owned();
    let _ = writeln!(
        out,
        "game {number}: {} - {} ({})",
        tag("White"),
        tag("Black"),
        game.result.as_str()
    );
    match last {
        Some(m) => {
            let _ = writeln!(out, "after ply {ply} of {moves}: {m}");
        }
        None => {
            let _ = writeln!(out, "start position ({moves} plies in the main line)");
        }
    }
    out.push_str(&diagram);
    Ok(out)
}
