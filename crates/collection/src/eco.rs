//! `notate eco`: every game written as `fmt` writes it, with the `ECO` and `Opening` tags
//! of its opening ([`pgn::openings`]: the deepest position of its main line that a named
//! line of lichess's table ends in).
//!
//! Without `--overwrite` a tag the game has stays, and where it differs from what the
//! moves give a warning says both; a tag it lacks is added. A game whose opening is not
//! found keeps its tags as they are and gets none. Draughts games have no ECO codes: they
//! are written as `fmt` writes them.

use notation::{GameTree, ReadGame};
use pgn::openings::Eco;

use crate::fmt::Inspect;
use crate::rules::FormatRules;

/// `eco`'s edit of each game: its opening's tags, set (`overwrite`) or added where missing.
#[derive(Clone, Copy, Debug)]
pub struct SetOpening {
    /// Whether the tags a game has are replaced.
    pub overwrite: bool,
}

impl<G: FormatRules> Inspect<G> for SetOpening {
    /// Warnings: the tags kept that differ from what the moves say.
    type Verdict = Vec<String>;

    /// The opening is found from the moves: large games are read into a tree too.
    fn needs_tree(&self) -> bool {
        true
    }

    fn inspect(&self, rules: &G, game: &mut ReadGame<G::Move>) -> Vec<String> {
        if game.has_errors() {
            // Written as it was read: its tags are not edited.
            return Vec::new();
        }
        set_opening_tags(rules, &mut game.game, self.overwrite)
    }
}

/// Sets a game's `ECO` and `Opening` tags to its opening's, if it is found: all of them
/// with `overwrite`, else only those it lacks. Gives a warning for each tag kept that
/// differs from the opening.
pub fn set_opening_tags<G: FormatRules>(
    rules: &G,
    game: &mut GameTree<G::Move>,
    overwrite: bool,
) -> Vec<String> {
    let mut notes = Vec::new();
    let Some(opening) = rules.opening(game) else {
        return notes;
    };
    let eco = opening.eco().to_string();
    for (name, value) in [("ECO", eco.as_str()), ("Opening", opening.name())] {
        match game.tags.get(name) {
            Some(kept) if !overwrite => {
                if !agrees(name, kept, value) {
                    notes.push(format!(
                        "the file says {name} {kept:?}, the moves say {value:?}; kept \
                         (--overwrite replaces it)"
                    ));
                }
            }
            _ => game.tags.set(name, value),
        }
    }
    notes
}

/// Whether a tag's value says what the moves give: ECO codes compare as codes (`b90` is
/// `B90`), names exactly.
fn agrees(name: &str, kept: &str, value: &str) -> bool {
    if name == "ECO"
        && let (Ok(kept), Ok(value)) = (kept.trim().parse::<Eco>(), value.parse::<Eco>())
    {
        return kept == value;
    }
    kept == value
}

#[cfg(test)]
mod tests {
    use super::*;
    use notation::{GameReader, ReadOptions};

    fn game(pgn: &str) -> GameTree<pgn::Move> {
        let rules = crate::rules::chess();
        GameReader::new(&rules, pgn.as_bytes(), ReadOptions::default())
            .next()
            .expect("a game")
            .expect("in memory")
            .game
    }

    #[test]
    fn tags_are_added_kept_or_overwritten() {
        let rules = crate::rules::chess();
        let najdorf = "1. e4 c5 2. Nf3 d6 3. d4 cxd4 4. Nxd4 Nf6 5. Nc3 a6 *";
        let mut bare = game(najdorf);
        assert!(set_opening_tags(&rules, &mut bare, false).is_empty());
        assert_eq!(bare.tags.get("ECO"), Some("B90"));
        assert_eq!(
            bare.tags.get("Opening"),
            Some("Sicilian Defense: Najdorf Variation")
        );

        let tagged = format!("[ECO \"b90\"]\n[Opening \"Sicilian\"]\n\n{najdorf}");
        let mut kept = game(&tagged);
        let notes = set_opening_tags(&rules, &mut kept, false);
        assert_eq!(
            notes,
            [
                "the file says Opening \"Sicilian\", the moves say \"Sicilian Defense: Najdorf \
              Variation\"; kept (--overwrite replaces it)"
            ]
        );
        assert_eq!(kept.tags.get("ECO"), Some("b90"));
        assert_eq!(kept.tags.get("Opening"), Some("Sicilian"));

        let mut replaced = game(&tagged);
        assert!(set_opening_tags(&rules, &mut replaced, true).is_empty());
        assert_eq!(replaced.tags.get("ECO"), Some("B90"));
        assert_eq!(
            replaced.tags.get("Opening"),
            Some("Sicilian Defense: Najdorf Variation")
        );
        // In place: the tags keep their order.
        let names: Vec<_> = replaced.tags.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(names, ["ECO", "Opening"]);
    }

    #[test]
    fn a_game_whose_opening_is_not_found_keeps_its_tags() {
        let rules = crate::rules::chess();
        let mut none = game(
            "[ECO \"A00\"]\n[SetUp \"1\"]\n[FEN \"8/8/4k3/8/8/4K3/4P3/8 w - - 0 1\"]\n\n1. Kd3 *",
        );
        assert!(set_opening_tags(&rules, &mut none, true).is_empty());
        assert_eq!(none.tags.get("ECO"), Some("A00"));
        assert!(!none.tags.contains("Opening"));
    }
}
