//! Large games are read without their tree, and written as they are read again
//! (`notation::write_text_to`), since a game of millions of moves takes some twenty times
//! its text as a tree. These tests read every game as a large one (a threshold of 0
//! bytes) and check that:
//!
//! - the diagnostics are those of the game read into a tree;
//! - a game that streams (no error, annotations in the export format's order, nothing
//!   for the rules to settle) is written byte for byte as its tree is, in every
//!   `WriteOptions` the CLI uses (reduced, suffix glyphs);
//! - a game whose annotations come in another order is refused, with nothing written;
//!
//! over the project's corpus (chess and draughts), random chess and draughts games with
//! comments, glyphs, variations and set-ups, and hand-written orders of annotations.
#![allow(clippy::unwrap_used, missing_docs)]

use notation::{
    GameReader, GameText, KeepRaw, ReadGame, ReadOptions, Rules, WriteError, WriteOptions,
    to_export_string, write_text_to,
};
use pdn::{DraughtsRules, PDN_WRITE};
use pgn::ChessRules;
use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed};
use workspace_tests::arbitrary_chess::game_spec;
use workspace_tests::corpus_files;

/// What reading a text as large games gave.
#[derive(Debug, Default, PartialEq, Eq)]
struct Tally {
    games: usize,
    streamed: usize,
    refused: usize,
}

/// Every game of `text`, read into a tree and read as a large game: the same
/// diagnostics; the stream's export equals the tree's where the game streams.
fn compare<R: Rules>(rules: &R, text: &[u8], options: &[WriteOptions]) -> Tally {
    let read = ReadOptions::default();
    let trees: Vec<ReadGame<R::Move>> = GameReader::new(rules, text, read)
        .map(Result::unwrap)
        .collect();
    let large: Vec<ReadGame<R::Move>> = GameReader::new(rules, text, read)
        .keep_raw(KeepRaw::Always)
        .large_after(0)
        .map(Result::unwrap)
        .collect();
    assert_eq!(trees.len(), large.len());
    let mut tally = Tally::default();
    for (tree, large) in trees.iter().zip(&large) {
        tally.games += 1;
        let said = |g: &ReadGame<R::Move>| -> Vec<String> {
            g.diagnostics.iter().map(ToString::to_string).collect()
        };
        assert_eq!(said(tree), said(large), "game {}", tree.index + 1);
        let mut raw = GameText {
            bytes: large.raw.clone().unwrap(),
            starts_line: large.starts_line,
        };
        let shown = String::from_utf8_lossy(&raw.bytes).into_owned();
        if !large.built && large.streams && !large.has_errors() {
            tally.streamed += 1;
            for write in options {
                let expected = to_export_string(rules, &tree.game, write);
                let mut out = String::new();
                let written = write_text_to(rules, &mut raw, read, write, &mut out);
                match expected {
                    Ok(expected) => {
                        assert_eq!(written, Ok(()), "{shown}");
                        assert_eq!(out, expected, "{shown}");
                    }
                    Err(e) => {
                        assert_eq!(written, Err(e), "{shown}");
                        assert_eq!(out, "", "{shown}");
                    }
                }
                assert_eq!(
                    String::from_utf8_lossy(&raw.bytes),
                    shown,
                    "the text is given back"
                );
            }
        } else if !large.built && !large.has_errors() && !large.streams {
            let mut out = String::new();
            let written = write_text_to(rules, &mut raw, read, &options[0], &mut out);
            if written == Err(WriteError::NotInExportOrder) {
                tally.refused += 1;
                assert_eq!(out, "", "nothing is written");
            }
        }
    }
    tally
}

fn chess_options() -> Vec<WriteOptions> {
    let default = WriteOptions::default();
    vec![
        default,
        WriteOptions {
            reduced: true,
            ..default
        },
        WriteOptions {
            suffix_symbols: true,
            line_width: 40,
            ..default
        },
    ]
}

fn draughts_options() -> Vec<WriteOptions> {
    vec![
        PDN_WRITE,
        WriteOptions {
            reduced: true,
            ..PDN_WRITE
        },
    ]
}

#[test]
fn the_chess_corpus_is_written_as_read_as_from_its_trees() {
    let mut total = Tally::default();
    for path in corpus_files("pgn", "pgn") {
        let tally = compare(
            &ChessRules,
            &std::fs::read(&path).unwrap(),
            &chess_options(),
        );
        total.games += tally.games;
        total.streamed += tally.streamed;
    }
    // Not vacuous: most games of the corpus stream.
    assert!(total.games > 20, "{total:?}");
    assert!(total.streamed * 10 > total.games * 8, "{total:?}");
}

#[test]
fn the_draughts_corpus_is_written_as_read_as_from_its_trees() {
    let mut total = Tally::default();
    for path in corpus_files("pdn", "pdn") {
        let tally = compare(
            &DraughtsRules::new(),
            &std::fs::read(&path).unwrap(),
            &draughts_options(),
        );
        total.games += tally.games;
        total.streamed += tally.streamed;
    }
    assert!(total.games > 40, "{total:?}");
    assert!(total.streamed * 2 > total.games, "{total:?}");
}

#[test]
fn annotations_in_any_order_after_a_move_stream() {
    // Glyphs and comments after a move come in either order; the export puts the glyphs
    // first. Variations, set-ups, a line's comments, and variations left open.
    let texts: [&[u8]; 6] = [
        b"1. e4 {a} $1 {b} $2 e5 *",
        b"1. e4 $1 {a} (1. d4 {b} $2 (1. c4) 1... d5) (1. Nf3) 1... e5 {c} *",
        b"{before} 1. e4 ({in front} 1. d4 d5 {x}) e5 2. Nf3 ({y} 2. f4) *",
        b"1. e4 e5 (1... c5 2. Nf3 (2. c3 d5 *",
        b"[FEN \"4k3/8/8/8/8/8/8/4K3 w - - 0 40\"]\n\n40. Kd2 Kd7 41. Kc3 ; rest\n Kc6 1/2-1/2",
        b"1. e4 ! e5 ?? 2. Nf3 !? {good} Nc6 *",
    ];
    for text in texts {
        let tally = compare(&ChessRules, text, &chess_options());
        assert_eq!(tally.streamed, 1, "{}", String::from_utf8_lossy(text));
    }
    // Draughts set-ups after a move's variations, and before a line's first move.
    let pdn: &[u8] = b"[GameType \"20\"]\n[FEN \"W:WK46:BK1\"]\n\n1. 46-41 (1. 46-37 1-6) \
                       /B:WK41:BK1/ 1... 1-6 2. 41-37 {back} 6-1 *";
    let tally = compare(&DraughtsRules::new(), pdn, &draughts_options());
    assert_eq!(tally.streamed, 1);
}

#[test]
fn annotations_out_of_the_export_order_are_refused() {
    // A comment or a glyph after a variation of the move it follows: the tree holds it
    // before the variation, and only the tree can write it there.
    let texts: [&[u8]; 3] = [
        b"1. e4 (1. d4) {late} e5 *",
        b"1. e4 (1. d4) $1 e5 *",
        b"1. e4 (1. d4 (1. c4) {late} d5) e5 *",
    ];
    for text in texts {
        let tally = compare(&ChessRules, text, &chess_options());
        assert_eq!(
            (tally.streamed, tally.refused),
            (0, 1),
            "{}",
            String::from_utf8_lossy(text)
        );
    }
    // A comment after a set-up: the tree holds it before the set-up.
    let pdn: &[u8] =
        b"[GameType \"20\"]\n[FEN \"W:WK46:BK1\"]\n\n1. 46-41 /B:WK41:BK1/ {late} 1-6 *";
    let tally = compare(&DraughtsRules::new(), pdn, &draughts_options());
    assert_eq!((tally.streamed, tally.refused), (0, 1));
}

#[test]
fn draughts_games_the_rules_settle_are_not_streamed() {
    // No game type declared: the tree is settled (read again as the game type the moves
    // settled), which only the tree can do.
    let text: &[u8] = b"1. 32-28 19-23 2. 28x19 14x23 *";
    let large: Vec<_> = GameReader::new(&DraughtsRules::new(), text, ReadOptions::default())
        .large_after(0)
        .map(Result::unwrap)
        .collect();
    assert_eq!(large.len(), 1);
    assert!(!large[0].built && !large[0].streams);
}

proptest! {
    #![proptest_config(Config {
        cases: 300,
        rng_seed: RngSeed::Fixed(0x0005_eed0_f5e7),
        failure_persistence: None,
        ..Config::default()
    })]

    /// Random legal games with comments, glyphs, variations and set-ups: their export,
    /// read as a large game, streams and is written again as the same text.
    #[test]
    fn random_chess_games_stream_as_their_trees_are_written(spec in game_spec(80)) {
        let game = spec.build();
        let text = to_export_string(&ChessRules, &game, &WriteOptions::default()).unwrap();
        let tally = compare(&ChessRules, text.as_bytes(), &chess_options());
        prop_assert_eq!(tally, Tally { games: 1, streamed: 1, refused: 0 });
    }
}
