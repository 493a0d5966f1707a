//! Inputs the fuzz targets (`fuzz/`) found to break an invariant, each kept here as a
//! regression test of the same invariant, minimised by hand. Every case states what went
//! wrong before the fix.
#![allow(clippy::unwrap_used, missing_docs)]

use notation::{RawRules, ReadOptions, Rules, WriteOptions, read_games, to_export_string};
use pdn::{Draughts, PDN_WRITE};
use pgn::Chess;

/// Reads, writes, reads and writes again: the same number of games, and the same text.
fn assert_export_fixed_point<R: Rules>(rules: &R, input: &str, options: &WriteOptions) {
    let export = |text: &str| -> (usize, String) {
        let games = read_games(rules, text.as_bytes(), ReadOptions::default());
        let written = games
            .iter()
            .map(|g| to_export_string(rules, &g.game, options).unwrap())
            .collect();
        (games.len(), written)
    };
    let (count, first) = export(input);
    let (count_again, second) = export(&first);
    assert_eq!(count, count_again, "{first}");
    assert_eq!(first, second, "export is not a fixed point");
}

fn all_rules(input: &str) {
    assert_export_fixed_point(&Chess, input, &WriteOptions::default());
    assert_export_fixed_point(&Draughts::new(), input, &PDN_WRITE);
    assert_export_fixed_point(&RawRules::PGN, input, &WriteOptions::default());
    assert_export_fixed_point(&RawRules::PDN, input, &PDN_WRITE);
}

/// `pgn_games`: the movetext kept after an unreadable move opened a variation and never
/// closed it; the termination marker written after it was read as text inside that
/// variation, so every export added one more `*`.
#[test]
fn tail_with_an_open_variation() {
    all_rules("1. e4 Zz ( 1... e5 *\n\n");
    all_rules("1. e4 Zz ( 1... e5 ( 1... c5 ) *\n\n");
}

/// The same with a brace comment left open in the kept text.
#[test]
fn tail_with_an_open_comment() {
    all_rules("1. e4 Zz {no end\n");
}

/// `pdn_games`: the kept text ended in an unterminated string (`rs"]`), which swallowed the
/// marker written after it; a string wrapped onto two lines by the writer would do the same.
#[test]
fn tail_with_an_open_string() {
    all_rules("[Event \"x\"]\n\nrs\"] *\n\n");
    all_rules(
        "1. Zz \"a long string that the writer must not wrap onto a second line, because a string ends at the end of its line\" *\n",
    );
}
