//! Seeded property tests of chess (strategies in `tests/src/arbitrary_chess.rs`):
//!
//! - random legal games with comments, glyphs, variations and set-up positions (Chess960
//!   too) read back from their export as the same tree, with nothing to forgive, and their
//!   export is a fixed point;
//! - FEN (and Shredder-FEN) written and read back is the same position, in every position
//!   of random walks;
//! - every legal move in every position of random walks (from the start, from Chess960
//!   starts, from positions rich in promotions, castling, en passant and ambiguous moves),
//!   written in SAN, reads back as that move with nothing forgiven, through the fast path
//!   and the general reader alike.
//!
//! The cases are the same on every run (a fixed seed, no failure files). Set
//! `PROPTEST_CASES` to run more of them.
#![allow(clippy::unwrap_used, missing_docs)]

use pgn::san::SanToken;
use pgn::{CastlingMode, GameTree, Position, Tags, read_games, to_export_string};
use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed, TestCaseResult};
use workspace_tests::arbitrary_chess::{game_spec, position_spec};

/// A fixed seed and no failure persistence, so that every run checks the same cases;
/// `PROPTEST_CASES` overrides the number of cases.
fn config(cases: u32) -> Config {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(cases);
    Config {
        cases,
        rng_seed: RngSeed::Fixed(0x00c4_e55a_11ce_5eed),
        failure_persistence: None,
        ..Config::default()
    }
}

/// The tree without its tags, which the export completes with the seven tag roster.
fn moves_only(game: &GameTree) -> GameTree {
    let mut game = game.clone();
    game.tags = Tags::new();
    game
}

/// Games per run of the round trip.
const GAME_CASES: u32 = 3000;
/// Random walks (of up to 100 positions each) per run of the FEN and SAN properties.
const POSITION_CASES: u32 = 1000;

fn export(game: &GameTree) -> String {
    to_export_string(game).unwrap()
}

proptest! {
    #![proptest_config(config(GAME_CASES))]

    /// Export → import gives the same tree; the export is a fixed point.
    #[test]
    fn export_reads_back_as_the_same_game(spec in game_spec(80)) {
        let game = spec.build();
        let text = export(&game);
        let read = read_games(text.as_bytes());
        prop_assert_eq!(read.len(), 1, "{}", text);
        let again = &read[0];
        prop_assert!(
            again.diagnostics.is_empty(),
            "{}\n{}",
            again.diagnostics.iter().map(ToString::to_string).collect::<Vec<_>>().join("\n"),
            text
        );
        prop_assert!(
            moves_only(&again.game) == moves_only(&game),
            "the tree read back differs from the tree written:\n{}\nread back:\n{}",
            text,
            export(&again.game)
        );
        for tag in &game.tags {
            prop_assert_eq!(again.game.tags.get(&tag.name), Some(tag.value.as_str()), "{}", text);
        }
        prop_assert_eq!(export(&again.game), text, "the export is not a fixed point");
    }

}

proptest! {
    #![proptest_config(config(POSITION_CASES))]

    /// FEN write → read is the identity, in X-FEN and Shredder-FEN, standard and Chess960,
    /// in every position of random walks.
    #[test]
    fn fen_reads_back_as_the_same_position(spec in position_spec(100)) {
        for pos in spec.walk() {
            fen_round_trip(&pos)?;
        }
    }

    /// For every legal move in every position of random walks, SAN write → read gives that
    /// move with nothing forgiven.
    #[test]
    fn san_reads_back_as_the_same_move(spec in position_spec(100)) {
        for pos in spec.walk() {
            san_round_trip(&pos)?;
        }
    }
}

fn fen_round_trip(pos: &Position) -> TestCaseResult {
    let pos = *pos;
    let mode = pos.castles().mode();
    let fen = pos.to_fen();
    let back = Position::from_fen_with_mode(&fen, mode);
    prop_assert!(back.is_ok(), "{}: {:?}", fen, back.err());
    let back = back.unwrap();
    prop_assert_eq!(back, pos, "{}", fen);
    prop_assert_eq!(back.to_fen(), fen.clone());
    // Without the mode, the reader picks it from the castling rights: the same position
    // in standard chess, the same FEN in any case.
    let auto = Position::from_fen(&fen).unwrap();
    prop_assert_eq!(auto.to_fen(), fen.clone());
    if mode == CastlingMode::Standard {
        prop_assert_eq!(auto, pos, "{}", fen);
    }
    let shredder = pos.to_shredder_fen();
    let back = Position::from_fen_with_mode(&shredder, mode);
    prop_assert!(back.is_ok(), "{}: {:?}", shredder, back.err());
    let back = back.unwrap();
    prop_assert_eq!(back, pos, "{}", shredder);
    prop_assert_eq!(back.to_shredder_fen(), shredder.clone());
    prop_assert_eq!(back.to_fen(), fen);
    Ok(())
}

fn san_round_trip(pos: &Position) -> TestCaseResult {
    let fen = pos.to_fen();
    for m in pos.legal_moves().iter() {
        let san = pos.san(m).to_string();
        let read = pos.resolve_san(san.as_bytes());
        prop_assert!(read.is_ok(), "{} in {}: {:?}", san, fen, read.err());
        let read = read.unwrap();
        prop_assert_eq!(read.mv, *m, "{} in {}", san, fen);
        prop_assert!(
            read.forgiven.is_empty(),
            "{} in {}: {}",
            san,
            fen,
            read.forgiven
        );
        prop_assert_eq!(read.after, pos.play(m), "{} in {}", san, fen);
        prop_assert_eq!(read.san().to_string(), san.clone());
        // The general reader (the fast path above skips it for most tokens) agrees.
        let general = SanToken::from_ascii(san.as_bytes()).and_then(|t| t.resolve(pos));
        prop_assert!(general.is_ok(), "{} in {}: {:?}", san, fen, general.err());
        let general = general.unwrap();
        prop_assert_eq!(general.mv, *m, "{} in {}", san, fen);
        prop_assert!(general.forgiven.is_empty(), "{} in {}", san, fen);
    }
    Ok(())
}
