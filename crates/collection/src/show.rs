//! `notate show` and `notate svg`: a position picked from a FEN or from a game of a file
//! (`--game N`, `--ply K`), shown as a text diagram or drawn as an SVG picture.

use std::fmt::Write as _;
use std::path::PathBuf;

use notation::{GameReader, GameTree as Tree, KeepRaw, LineId, ReadOptions, Rules};

use crate::input::{self, Format, Source};
use crate::job::with_rules;
use crate::perft::{BoardGame, Start};
use crate::rules::FormatRules;
use crate::svg::{self, Draw};

/// How a position is shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum View {
    /// `show`: a text diagram, with the side to move and the FEN (and, for a game of a
    /// file, which game and ply).
    Text,
    /// `svg`: an SVG picture.
    Svg(svg::Options),
}

/// The game a FEN is of: `game` when given, else draughts for a draughts FEN (`W:…`,
/// `B:…`, or no `/`: international draughts), chess otherwise.
pub fn fen_game(fen: &str, game: Option<BoardGame>) -> BoardGame {
    match game {
        Some(g) => g,
        None => {
            let trimmed = fen.trim_start();
            if trimmed.starts_with("W:") || trimmed.starts_with("B:") || !trimmed.contains('/') {
                BoardGame::Draughts(pdn::Variant::International)
            } else {
                BoardGame::Chess
            }
        }
    }
}

/// The position of a FEN (of the game [`fen_game`] says) as `view` shows it, and the
/// warnings its reading gave.
pub fn fen_view(
    fen: &str,
    game: Option<BoardGame>,
    view: View,
) -> Result<(String, Vec<String>), String> {
    let (start, warnings) = Start::new(fen_game(fen, game), Some(fen))?;
    let shown = match (view, start) {
        (View::Text, Start::Chess(pos)) => crate::rules::chess::diagram(&pos),
        (View::Text, Start::Draughts(pos)) => crate::rules::draughts::diagram(&pos),
        (View::Svg(options), Start::Chess(pos)) => svg::chess(&pos, None, &[], &options),
        (View::Svg(options), Start::Draughts(pos)) => svg::draughts(&pos, None, &options),
    };
    Ok((shown, warnings))
}

/// The diagram of a FEN, its warnings first: `show`'s text.
pub fn fen_diagram(fen: &str, game: Option<BoardGame>) -> Result<String, String> {
    let (diagram, warnings) = fen_view(fen, game, View::Text)?;
    let mut out = String::new();
    for w in warnings {
        let _ = writeln!(out, "warning: {w}");
    }
    out.push_str(&diagram);
    Ok(out)
}

/// A game of an input at a ply of its main line.
pub struct AtPly<G: Rules> {
    /// The game.
    pub game: Tree<G::Move>,
    /// Its number in the input, from 1.
    pub number: u64,
    /// How many plies of the main line were played.
    pub ply: usize,
    /// How many plies the main line has.
    pub plies: usize,
    /// The position after them.
    pub position: G::Position,
    /// The position before the last of them (none at the start).
    pub before: Option<G::Position>,
}

impl<G: Rules> AtPly<G> {
    /// The main line's move that led to the position.
    pub fn last_move(&self) -> Option<&G::Move> {
        let index = self.ply.checked_sub(1)?;
        self.game.mainline().nth(index).map(|node| &node.mv)
    }

    /// The comments that go with the position: after the move that led to it, or before
    /// the main line's first move at the start.
    pub fn comments(&self) -> &[String] {
        match self.ply.checked_sub(1) {
            Some(index) => self
                .game
                .mainline()
                .nth(index)
                .map_or(&[], |node| node.comments.as_slice()),
            None => &self.game.line(LineId::MAIN).comments,
        }
    }
}

/// Game `number` (1-based) of an input after `ply` plies of its main line (all of them
/// when `None`).
pub fn game_at_ply<G: FormatRules>(
    rules: &G,
    input: &mut dyn std::io::Read,
    number: u64,
    ply: Option<usize>,
) -> Result<AtPly<G>, String> {
    let mut reader = GameReader::new(rules, input, ReadOptions::default()).keep_raw(KeepRaw::Never);
    let mut seen = 0;
    let game = loop {
        match reader.read_game() {
            Ok(Some(read)) => {
                seen += 1;
                if seen == number {
                    // A game that ends where the input failed is not shown as if whole.
                    if let Some(e) = reader.input_error() {
                        return Err(format!("read error: {e} (in game {number})"));
                    }
                    break read.game;
                }
            }
            Ok(None) => return Err(format!("there are only {seen} games; no game {number}")),
            Err(e) => return Err(format!("read error: {e}")),
        }
    };
    let start = rules
        .start_position(&game.tags)
        .map_err(|e| format!("game {number}: cannot set up its start position: {e}"))?
        .position;
    let plies = game.mainline().count();
    let ply = ply.unwrap_or(plies);
    if ply > plies {
        return Err(format!(
            "game {number} has {plies} plies in its main line; no ply {ply}"
        ));
    }
    // Played as every reader of the main line plays it: set-ups in the movetext too.
    let (mut played, mut before, mut at) = (0, None, None);
    crate::mainline::walk(rules, start, &game, |position, _| {
        if played + 1 == ply {
            before = Some(position.clone());
        }
        if played == ply {
            at = Some(position.clone());
            return false;
        }
        played += 1;
        true
    });
    let position = at.ok_or_else(|| {
        format!("game {number}: a set-up in its movetext cannot be set up (before ply {played})")
    })?;
    Ok(AtPly {
        game,
        number,
        ply,
        plies,
        position,
        before,
    })
}

/// Game `number` (1-based) of an input after `ply` plies of its main line (all of them
/// when `None`), as `view` shows it.
pub fn game_view<G: Draw>(
    rules: &G,
    input: &mut dyn std::io::Read,
    number: u64,
    ply: Option<usize>,
    view: View,
) -> Result<String, String> {
    let at = game_at_ply(rules, input, number, ply)?;
    let no_positions = || {
        "this build reads the moves of this format as text only: it has no positions to show"
            .to_owned()
    };
    match view {
        View::Text => game_text(rules, &at).ok_or_else(no_positions),
        View::Svg(options) => rules
            .svg(&at.position, at.last_move(), at.comments(), &options)
            .ok_or_else(no_positions),
    }
}

/// `show`'s text for a game at a ply: which game, the last move, the diagram.
fn game_text<G: FormatRules>(rules: &G, at: &AtPly<G>) -> Option<String> {
    let diagram = rules.diagram(&at.position)?;
    let mut out = String::new();
    let tag = |name: &str| at.game.tags.get(name).unwrap_or("?").to_owned();
    let _ = writeln!(
        out,
        "game {}: {} - {} ({})",
        at.number,
        tag("White"),
        tag("Black"),
        at.game.result.as_str()
    );
    match (&at.before, at.last_move()) {
        (Some(before), Some(mv)) => {
            let _ = writeln!(
                out,
                "after ply {} of {}: {}{} {}",
                at.ply,
                at.plies,
                rules.move_number(before),
                if rules.turn(before) == notation::Player::First {
                    "."
                } else {
                    "..."
                },
                rules.move_text(before, mv)
            );
        }
        _ => {
            let _ = writeln!(out, "start position ({} plies in the main line)", at.plies);
        }
    }
    out.push_str(&diagram);
    Some(out)
}

/// A position `show` or `svg` shows, and the warnings its reading gave that are not in it.
pub struct Shown {
    /// The text diagram or the SVG picture.
    pub text: String,
    /// What reading a FEN forgave, for an SVG picture (a text diagram says it itself).
    pub warnings: Vec<String>,
}

/// The position `target` names as `view` shows it: a FEN (of the game `variant` names,
/// else guessed from the FEN), or a file (`-`: standard input, read as `format` when
/// given) whose game `game` (from 1) is shown after `ply` plies of its main line (all of
/// them when `None`); a draughts `variant` is then the game type of its games that
/// declare none.
///
/// # Errors
/// A message: the file cannot be read, the game or ply is not there, the FEN or the
/// variant does not read.
pub fn pick(
    target: &str,
    variant: Option<&str>,
    format: Option<Format>,
    game: u64,
    ply: Option<usize>,
    view: View,
) -> Result<Shown, String> {
    let path = PathBuf::from(target);
    if target == "-" || path.is_file() {
        let source = Source {
            name: target.to_owned(),
            path: (target != "-").then_some(path),
        };
        let opened = input::open(&source, format, |_| {}).map_err(|e| format!("{target}: {e}"))?;
        let mut reader = opened.reader;
        // A draughts variant is the game type of the file's games that declare none.
        let game_type = match variant {
            Some(name) => match BoardGame::parse(name)? {
                BoardGame::Draughts(_) => Some(crate::rules::parse_game_type(name)?),
                BoardGame::Chess | BoardGame::Chess960 | BoardGame::ChessVariant(_) => None,
            },
            None => None,
        };
        let text = with_rules!(opened.format, game_type, |rules| game_view(
            rules,
            &mut reader,
            game.max(1),
            ply,
            view
        ))
        .map_err(|e| format!("{target}: {e}"))?;
        Ok(Shown {
            text,
            warnings: Vec::new(),
        })
    } else {
        let game = variant.map(BoardGame::parse).transpose()?;
        match view {
            View::Text => Ok(Shown {
                text: fen_diagram(target, game)?,
                warnings: Vec::new(),
            }),
            View::Svg(_) => {
                let (text, warnings) = fen_view(target, game, view)?;
                Ok(Shown { text, warnings })
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The lines of `show`'s diagram of a FEN after the board.
    fn under_the_board(fen: &str, game: Option<BoardGame>) -> Vec<String> {
        let diagram = fen_diagram(fen, game).expect("a position");
        let lines: Vec<String> = diagram.lines().map(str::to_owned).collect();
        let files = lines
            .iter()
            .position(|l| l == "    a b c d e f g h")
            .expect("the files under the board");
        lines[files + 1..].to_vec()
    }

    #[test]
    fn standard_chess_names_no_variant() {
        assert_eq!(
            under_the_board("4k3/8/8/8/8/8/8/4K3 b - - 0 1", None),
            ["Black to move", "FEN: 4k3/8/8/8/8/8/8/4K3 b - - 0 1"]
        );
    }

    #[test]
    fn crazyhouse_pieces_in_hand() {
        // A FEN with a pocket is crazyhouse, with or without --variant.
        let fen = "2k5/8/8/8/8/8/8/4K3[QNNpb] b - - 0 1";
        let expected = [
            "Black to move",
            "Variant: Crazyhouse",
            "In hand: White QNN, Black bp",
            "FEN: 2k5/8/8/8/8/8/8/4K3[QNNbp] b - - 0 1",
        ];
        assert_eq!(under_the_board(fen, None), expected);
        let crazyhouse = BoardGame::parse("crazyhouse").expect("a variant");
        assert_eq!(under_the_board(fen, Some(crazyhouse)), expected);
        // The start, read as crazyhouse: nothing in hand.
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        assert_eq!(
            under_the_board(start, Some(crazyhouse))[2],
            "In hand: White -, Black -"
        );
    }

    #[test]
    fn three_check_checks_given() {
        // lichess's two forms: the checks left before the clocks, the checks given after.
        for fen in [
            "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 2+3 0 1",
            "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1 +1+0",
        ] {
            assert_eq!(
                under_the_board(fen, BoardGame::parse("threecheck").ok()),
                [
                    "White to move",
                    "Variant: Three-check",
                    "Checks given: White 1, Black 0",
                    "FEN: r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1 +1+0",
                ],
                "{fen}"
            );
        }
    }

    #[test]
    fn a_variant_reads_the_fen_by_its_rules() {
        let horde = pgn::Ruleset::Horde.start_fen();
        assert!(fen_diagram(horde, None).is_err(), "no white king in chess");
        let lines = under_the_board(horde, BoardGame::parse("horde").ok());
        assert_eq!(lines[1], "Variant: Horde");
        assert_eq!(lines[2], format!("FEN: {horde}"));
    }
}
