//! A game's main line played through its positions, set-ups in the movetext included:
//! what `json`, `html`, `show`, `repair`, `select`, `dedupe` and `parquet` walk.

use notation::{GameTree, LineId, Rules};

/// The position after a game's main line, its set-ups included; `None` when the start
/// position or a set-up cannot be set up.
pub fn end<R: Rules>(rules: &R, game: &GameTree<R::Move>) -> Option<R::Position> {
    let start = rules.start_position(&game.tags).ok()?.position;
    let mut end = None;
    walk(rules, start, game, |position, mv| {
        if mv.is_none() {
            end = Some(position.clone());
        }
        true
    });
    end
}

/// The position after an inline set-up, when there is one the rules accept (`position`
/// itself otherwise: the reader has reported the set-up).
pub fn apply_setup<R: Rules>(rules: &R, position: R::Position, setup: Option<&str>) -> R::Position {
    match setup {
        Some(text) => match rules.inline_setup(&position, text) {
            Ok(s) => s.position,
            Err(_) => position,
        },
        None => position,
    }
}

/// Calls `each` with every position of a game's main line played from `start` and the
/// move played from it (`None` after the last), in order, set-ups inside the movetext
/// included; stops when `each` returns `false`, or at a set-up that cannot be set up
/// (the reader reported it; `each` is not called with `None` then). Returns `false` when
/// the set-up before the first move cannot be set up.
pub fn walk<R: Rules>(
    rules: &R,
    position: R::Position,
    game: &GameTree<R::Move>,
    mut each: impl FnMut(&R::Position, Option<&R::Move>) -> bool,
) -> bool {
    walk_playing(rules, position, game, |position, mv| {
        if !each(position, mv) {
            return false;
        }
        if let Some(mv) = mv {
            rules.play(position, mv);
        }
        true
    })
}

/// [`walk`] for a caller that plays each move itself (so that it can write the
/// move as it plays it, [`Columns::play_with_columns`](crate::parquet::Columns::play_with_columns)): `each` gets the position and the
/// move to play from it, and leaves the position after that move when it goes on.
pub fn walk_playing<R: Rules>(
    rules: &R,
    mut position: R::Position,
    game: &GameTree<R::Move>,
    mut each: impl FnMut(&mut R::Position, Option<&R::Move>) -> bool,
) -> bool {
    if let Some(text) = &game.line(LineId::MAIN).setup {
        match rules.inline_setup(&position, text) {
            Ok(setup) => position = setup.position,
            Err(_) => return false,
        }
    }
    for node in game.mainline() {
        if !each(&mut position, Some(&node.mv)) {
            return true;
        }
        if let Some(text) = &node.setup {
            match rules.inline_setup(&position, text) {
                Ok(setup) => position = setup.position,
                Err(_) => return true,
            }
        }
    }
    each(&mut position, None);
    true
}
