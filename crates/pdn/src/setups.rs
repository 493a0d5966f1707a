//! The FEN set-ups read last on this thread, kept for the games that follow.
//!
//! The games of a file mostly start from one FEN: an archive of 8×8 games writes the
//! start position as a FEN in every game, and a game that declares no type is set up in
//! each game type it may be. Reading the FEN and putting its pieces on a board costs more
//! than reading the game's first moves, so each FEN is read once and set up once per game
//! type, as long as it stays among the last few used.

use std::cell::RefCell;

use crate::fen::{FenText, FenWarning};
use crate::gametype::GameType;
use crate::position::Position;

/// How many FENs are kept: a game's own and an inline set-up or two.
const FENS: usize = 4;

/// How many game types each FEN is kept set up in: the inferred ones, and a few
/// numberings of them.
const GAME_TYPES: usize = 24;

/// A set-up in one game type: the position and its warnings, or why it fails.
type SetUp = Result<(Position, Vec<FenWarning>), String>;

/// One FEN, read, and set up in the game types asked for so far.
struct Fen {
    text: Box<str>,
    read: FenText,
    set_up: Vec<(GameType, SetUp)>,
}

thread_local! {
    /// Most recently used first.
    static FENS_READ: RefCell<Vec<Fen>> = const { RefCell::new(Vec::new()) };
}

/// The start position of a game type: the FEN's, or the standard one.
pub(crate) fn start_in(
    game_type: GameType,
    fen: Option<&str>,
) -> Result<(Position, Vec<FenWarning>), String> {
    match fen {
        Some(fen) => set_up(game_type, fen),
        None => Ok((Position::start(game_type), Vec::new())),
    }
}

/// The position a FEN sets up in a game type, with its warnings, or why it cannot
/// (the message names the FEN). The same as reading it afresh.
pub(crate) fn set_up(game_type: GameType, text: &str) -> SetUp {
    FENS_READ.with_borrow_mut(|fens| {
        match fens.iter().position(|f| *f.text == *text) {
            Some(0) => {}
            Some(i) => fens[..=i].rotate_right(1),
            None => {
                fens.truncate(FENS - 1);
                fens.insert(
                    0,
                    Fen {
                        text: text.into(),
                        read: FenText::read(text),
                        set_up: Vec::new(),
                    },
                );
            }
        }
        let fen = &mut fens[0];
        if let Some((_, found)) = fen.set_up.iter().find(|(gt, _)| *gt == game_type) {
            return found.clone();
        }
        let found = Position::from_fen_text(game_type, &fen.read, true)
            .map_err(|e| format!("FEN \"{text}\": {e}"));
        if fen.set_up.len() < GAME_TYPES {
            fen.set_up.push((game_type, found.clone()));
        }
        found
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Variant;

    fn fresh(game_type: GameType, text: &str) -> SetUp {
        Position::from_fen_text(game_type, &FenText::read(text), true)
            .map_err(|e| format!("FEN \"{text}\": {e}"))
    }

    #[test]
    fn a_kept_set_up_is_the_one_read_afresh() {
        let fens = [
            "W:W29,30,31,32,25,26,27,28,21,22,23,24:B9,10,11,12,5,6,7,8,1,2,3,4.",
            "B:W31-50:B1-20",
            "W:Wc1,e1:Bd8",
            "W:W5:B5",
            "X:W1",
        ];
        let game_types = [
            GameType::new(Variant::International),
            GameType::new(Variant::Russian),
            GameType::new(Variant::English),
        ];
        // More FENs than are kept, twice over, so that some are read again.
        for _ in 0..2 {
            for text in fens.iter().chain(&fens) {
                for &gt in &game_types {
                    let kept = set_up(gt, text);
                    let afresh = fresh(gt, text);
                    match (kept, afresh) {
                        (Ok((p, w)), Ok((q, v))) => {
                            assert_eq!(p, q, "{text} in {gt}");
                            assert_eq!(w, v, "{text} in {gt}");
                        }
                        (Err(e), Err(f)) => assert_eq!(e, f, "{text} in {gt}"),
                        (kept, afresh) => panic!("{text} in {gt}: {kept:?} against {afresh:?}"),
                    }
                }
            }
        }
    }
}
