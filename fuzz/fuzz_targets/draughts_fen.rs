//! Draughts FEN in every variant: any text reads to a position or an error, and a
//! position's canonical FEN reads back to the same position.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pdn::{GameType, Position, Variant};

fuzz_target!(|data: &[u8]| {
    let Some((&selector, text)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(text) else {
        return;
    };
    let game_type = GameType::new(Variant::ALL[usize::from(selector & 0x7F) % Variant::ALL.len()]);
    let read = if selector & 0x80 == 0 {
        Position::from_fen(game_type, text)
    } else {
        Position::from_fen_crowning(game_type, text)
    };
    let Ok((pos, _)) = read else {
        return;
    };
    let fen = pos.to_fen();
    let (again, warnings) = Position::from_fen(game_type, &fen).expect("a written FEN reads back");
    assert!(warnings.is_empty(), "{fen}: {warnings:?}");
    assert_eq!(again.to_fen(), fen);
    assert_eq!(again.turn(), pos.turn());
    assert_eq!(again.pieces(), pos.pieces(), "{fen}");
});
