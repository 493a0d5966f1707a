//! Draughts moves in every variant: any token read in any reachable position gives a legal
//! move or an error, and every legal move's minimal and full texts read back to that move.
//!
//! The input is a variant, a list of move choices, then `0xFF`, then the token.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pdn::{Position, Variant};

fuzz_target!(|data: &[u8]| {
    let Some((&selector, rest)) = data.split_first() else {
        return;
    };
    let mut pos = Position::new(Variant::ALL[usize::from(selector) % Variant::ALL.len()]);
    let (choices, token) = notation_fuzz::split_walk(rest);
    for &choice in choices {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        pos.play_unchecked(&moves[usize::from(choice) % moves.len()]);
    }

    let legal = pos.legal_moves();
    if let Ok(token) = std::str::from_utf8(token) {
        if let Ok((mv, _)) = pos.parse_move(token) {
            assert!(
                legal.contains(&mv),
                "{token} read as an illegal move in {}",
                pos.to_fen()
            );
        }
    }
    for mv in &legal {
        for text in [pos.move_to_text(mv), pos.move_to_text_full(mv)] {
            let (back, warnings) = pos
                .parse_move(&text)
                .unwrap_or_else(|e| panic!("{text} in {}: {e}", pos.to_fen()));
            assert!(back.same_effect(mv), "{text} in {}", pos.to_fen());
            assert!(
                warnings.is_empty(),
                "{text} in {}: {warnings:?}",
                pos.to_fen()
            );
        }
    }
});
