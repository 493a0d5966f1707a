//! `fmt --fix-results` and `fmt --plycount`: a game's result and ply count put right
//! before it is written, each change a warning.
//!
//! The export format writes the `Result` tag and the termination marker from one value
//! (the game's result), so that what is decided here is that value:
//!
//! 1. When the position at the end of the main line decides the game by the rules of
//!    play ([`BoardResult::board_result`]: checkmate or stalemate in chess, a side that
//!    cannot move in draughts), that is the result, whatever the tag and the marker say.
//! 2. Else, when one of the tag and the marker is missing (or `*`, or a tag value that
//!    is no result) and the other gives a result, the missing one takes it.
//! 3. Else, when they give different results, the tag follows the marker (as
//!    pgn-extract's `--fixresulttags` does): the marker is the last word of the game as
//!    recorded, and the one a reader without tags sees.
//!
//! Results are compared by what they mean: `1-0` and `2-0` (the same win on PDN's two
//! scales) agree. Only games read without an error are repaired: the others go out as
//! written.

use notation::{GameResult, ReadGame};

use crate::fmt::Inspect;
use crate::mainline;
use crate::rules::FormatRules;

/// What `fmt --fix-results` needs of a game's rules beyond [`FormatRules`]: the result a
/// position decides.
pub trait BoardResult: FormatRules {
    /// The result a position (the end of a game's main line, [`mainline::end`]) decides
    /// by the rules of play alone: `None` when it decides none (the game may go on, or
    /// ended by resignation, agreement or a claim). The default: none (rules that keep no
    /// positions).
    fn board_result(&self, end: &Self::Position) -> Option<BoardVerdict> {
        let _ = end;
        None
    }
}

/// A result decided by the position on the board ([`BoardResult::board_result`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoardVerdict {
    /// The result, spelled as the game's rules write it (`2-0` in international draughts).
    pub result: GameResult,
    /// Why, for the warning: `White mates`, `stalemate`, `Black cannot move`.
    pub reason: &'static str,
}

impl BoardResult for pgn::ChessRules {
    /// Checkmate (the side that mated wins), stalemate (a draw), or a variant's own end
    /// (an exploded king, the hill, a third check, …). Insufficient material
    /// and the seventy-five-move rule are left to the players' record: a game may have
    /// been scored otherwise (a flag fall against a bare king is still a draw, but one
    /// against a lone knight is not), and `--fix-results` only corrects what is certain.
    fn board_result(&self, end: &pgn::Position) -> Option<BoardVerdict> {
        let (result, reason) = match end.outcome()? {
            pgn::Outcome::Checkmate {
                winner: pgn::Color::White,
            } => (GameResult::FirstWins, "White mates"),
            pgn::Outcome::Checkmate {
                winner: pgn::Color::Black,
            } => (GameResult::SecondWins, "Black mates"),
            pgn::Outcome::Stalemate => (GameResult::Draw, "stalemate"),
            pgn::Outcome::Variant { winner, end } => (
                match winner {
                    Some(pgn::Color::White) => GameResult::FirstWins,
                    Some(pgn::Color::Black) => GameResult::SecondWins,
                    None => GameResult::Draw,
                },
                end.description(),
            ),
            pgn::Outcome::InsufficientMaterial | pgn::Outcome::SeventyFiveMoves => return None,
        };
        Some(BoardVerdict { result, reason })
    }
}

impl BoardResult for pdn::DraughtsRules {
    /// The side to move that cannot move (no pieces left, or all blocked) loses, in
    /// every game type the draughts crate plays; the result is spelled in the game
    /// type's scale (`2-0` in international draughts, `1-0` in English draughts).
    fn board_result(&self, end: &pdn::PdnPosition) -> Option<BoardVerdict> {
        let position = end.position();
        let pdn::Outcome::Decisive { winner } = position.outcome()? else {
            return None;
        };
        let token = pdn::DraughtsResult::win(winner).to_str(position.game_type().result_type());
        let reason = match winner {
            pdn::Color::White => "Black cannot move",
            pdn::Color::Black => "White cannot move",
        };
        Some(BoardVerdict {
            result: GameResult::from_token(token.as_bytes())?,
            reason,
        })
    }
}

impl BoardResult for notation::RawRules {}

/// What `fmt` puts right in each game.
#[derive(Clone, Copy, Debug, Default)]
pub struct Repair {
    /// Make the `Result` tag and the termination marker agree with each other and with
    /// the board (`--fix-results`).
    pub fix_results: bool,
    /// Add or correct the `PlyCount` tag: the plies of the main line (`--plycount`).
    pub plycount: bool,
}

impl<G: BoardResult> Inspect<G> for Repair {
    /// The warnings, one per change, without the file and game number.
    type Verdict = Vec<String>;

    /// A large game is repaired too: its moves are needed, so it is read into a tree.
    fn needs_tree(&self) -> bool {
        self.fix_results || self.plycount
    }

    /// Without a repair asked for, nothing is looked at.
    fn judges_without_tree(&self) -> bool {
        !(self.fix_results || self.plycount)
    }

    fn inspect(&self, rules: &G, read: &mut ReadGame<G::Move>) -> Vec<String> {
        let mut notes = Vec::new();
        // A game with an error goes out as written, and one with movetext kept as text
        // has a main line that is not all of it.
        let asked = self.fix_results || self.plycount;
        if !asked || !read.built || read.has_errors() || read.game.tail.is_some() {
            return notes;
        }
        if self.fix_results {
            fix_result(rules, read, &mut notes);
        }
        if self.plycount {
            count_plies(&mut read.game, &mut notes);
        }
        notes
    }
}

/// What a result means, its spelling aside; `None` for `*`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Score {
    FirstWins,
    SecondWins,
    Draw,
    DoubleForfeit,
}

fn score(result: GameResult) -> Option<Score> {
    match result {
        GameResult::FirstWins | GameResult::FirstWinsTwo => Some(Score::FirstWins),
        GameResult::SecondWins | GameResult::SecondWinsTwo => Some(Score::SecondWins),
        GameResult::Draw | GameResult::DrawTwo => Some(Score::Draw),
        GameResult::DoubleForfeit => Some(Score::DoubleForfeit),
        GameResult::Unknown => None,
    }
}

/// Decides the game's result (see the module's rules) and notes each change.
fn fix_result<G: BoardResult>(rules: &G, read: &mut ReadGame<G::Move>, notes: &mut Vec<String>) {
    let game = &mut read.game;
    let tag_value = game.tags.get("Result").map(|v| v.trim().to_owned());
    let tag = tag_value.as_deref().and_then(|value| {
        GameResult::from_token(value.as_bytes())
            .or_else(|| GameResult::from_lenient_token(value.as_bytes()))
            .filter(|r| score(*r).is_some())
    });
    // Without a marker, the reader took the tag's result: the marker is what is missing.
    let marker = Some(game.result).filter(|r| read.marked && score(*r).is_some());
    let end = mainline::end(rules, game);
    let decided = match end.as_ref().and_then(|end| rules.board_result(end)) {
        Some(verdict) => Some((verdict.result, format!("{} on the board", verdict.reason))),
        None => match (tag, marker) {
            (Some(tag), None) => Some((tag, "as the Result tag says".to_owned())),
            (None, Some(marker)) => Some((marker, "as the termination marker says".to_owned())),
            (Some(tag), Some(marker)) if score(tag) != score(marker) => Some((
                marker,
                "as the termination marker says (the tag follows the marker)".to_owned(),
            )),
            _ => None,
        },
    };
    let Some((result, why)) = decided else {
        return;
    };
    // Spelled as the writer will write it (`2-0` for `1-0` in international draughts).
    let (result, _) = rules.game_result(&game.tags, end.as_ref(), result);
    let meant = score(result);
    if tag.and_then(score) != meant {
        let old = match &tag_value {
            Some(value) => format!("\"{value}\""),
            None => "missing".to_owned(),
        };
        notes.push(format!("Result tag {old} → \"{result}\": {why}"));
        game.tags.set("Result", result.as_str());
    }
    if marker.and_then(score) != meant {
        let old = if read.marked {
            game.result.to_string()
        } else {
            "missing".to_owned()
        };
        notes.push(format!("termination marker {old} → {result}: {why}"));
    }
    game.result = result;
}

/// Sets `PlyCount` to the plies of the main line: added silently when missing (that is
/// what was asked), a wrong value corrected with a note.
fn count_plies<M>(game: &mut notation::GameTree<M>, notes: &mut Vec<String>) {
    let plies = game.mainline().count().to_string();
    match game.tags.get("PlyCount") {
        Some(value) if value.trim() == plies => {}
        Some(value) => {
            notes.push(format!("PlyCount \"{value}\" → \"{plies}\""));
            game.tags.set("PlyCount", plies);
        }
        None => game.tags.set("PlyCount", plies),
    }
}
