//! What the fuzz targets share: the invariants that must hold for any input, checked with
//! `assert!` so that libFuzzer reports a violation as a crash.
//!
//! - Reading never panics, and reading the same bytes with a validator (no tree) reports
//!   exactly what the tree builder reports.
//! - Writing a game read from anything gives text that reads back to as many games and
//!   writes to the same bytes: export is a fixed point.

use notation::{ReadGame, ReadOptions, Rules, WriteOptions, read_games, to_export_string};

/// Splits a walk-then-token input at its first `0xFF`: the move choices before it, the
/// token after it (empty if there is none).
pub fn split_walk(input: &[u8]) -> (&[u8], &[u8]) {
    match input.iter().position(|&b| b == 0xFF) {
        Some(i) => (&input[..i], &input[i + 1..]),
        None => (input, &[]),
    }
}

/// Checks that a validating reader (no tree) reported for each game exactly what the tree
/// builder reported, and counted the moves it built. A macro, since the chess and draughts
/// validators' game types are distinct.
#[macro_export]
macro_rules! assert_validator_agrees {
    ($tree:expr, $fast:expr) => {{
        let (tree, fast) = (&$tree, &$fast);
        assert_eq!(tree.len(), fast.len());
        for (t, f) in tree.iter().zip(fast.iter()) {
            assert_eq!(t.diagnostics, f.diagnostics, "game {}", t.index);
            // A game not held whole has no moves in its tree (`ReadGame::held`); the
            // validator counts those it read.
            if t.held {
                assert_eq!(t.game.node_count() as u64, f.plies, "game {}", t.index);
            }
            assert_eq!((t.index, t.span), (f.index, f.span));
        }
    }};
}

pub use notation::differential::read_options_for as options_for;

/// Exports every game, or `None` if one cannot be written (a tree the writer refuses is
/// reported as an error, which is allowed; a panic is not).
pub fn export_all<R: Rules>(
    rules: &R,
    games: &[ReadGame<R::Move>],
    options: &WriteOptions,
) -> Option<String> {
    let mut out = String::new();
    for game in games {
        out.push_str(&to_export_string(rules, &game.game, options).ok()?);
    }
    Some(out)
}

/// Reads `input` and writes back the games read without an error (as `notate fmt` does;
/// it passes the others through unchanged): the text must read back with no error, to as
/// many games, and write to the same bytes (export is a fixed point).
///
/// The games with an error are written too, best effort: their unread movetext is kept as
/// text, which must not make the writer or a second reading panic.
pub fn assert_export_fixed_point<R: Rules>(rules: &R, input: &[u8], options: &WriteOptions) {
    let first = read_games(rules, input, ReadOptions::default());
    let (clean, broken): (Vec<_>, Vec<_>) = first.into_iter().partition(|g| !g.has_errors());
    if let Some(text) = export_all(rules, &broken, options) {
        let _ = read_games(rules, text.as_bytes(), ReadOptions::default());
    }
    let Some(exported) = export_all(rules, &clean, options) else {
        return;
    };
    let second = read_games(rules, exported.as_bytes(), ReadOptions::default());
    assert_eq!(
        clean.len(),
        second.len(),
        "the export holds another number of games:\n{exported}"
    );
    for game in &second {
        assert!(
            !game.has_errors(),
            "the export reads back with an error: {:?}\n{exported}",
            game.diagnostics
        );
    }
    let again = export_all(rules, &second, options).expect("the export of an export is writable");
    if exported != again {
        let at = exported
            .bytes()
            .zip(again.bytes())
            .position(|(a, b)| a != b)
            .unwrap_or(exported.len().min(again.len()));
        let around = |s: &str| {
            let from = s.floor_char_boundary(at.saturating_sub(200));
            let to = s.ceil_char_boundary((at + 100).min(s.len()));
            format!("{:?}", &s[from..to])
        };
        panic!(
            "export is not a fixed point; first difference at byte {at}:\n first: {}\nsecond: {}",
            around(&exported),
            around(&again)
        );
    }
}
