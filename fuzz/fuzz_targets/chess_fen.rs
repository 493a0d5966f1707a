//! Chess FEN: any text reads to a position or an error; a position's FEN (X-FEN and
//! Shredder) reads back to the same position.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pgn::{CastlingMode, Position};
use pgn::fen::Setup;

fuzz_target!(|data: &[u8]| {
    let Ok(setup) = Setup::from_ascii(data) else {
        return;
    };
    for mode in [CastlingMode::Standard, CastlingMode::Chess960] {
        if let Ok(pos) = Position::from_setup(&setup, mode) {
            assert_fen_identity(&pos, mode);
        }
    }
    if let Ok(pos) = Position::from_setup_auto(&setup) {
        assert_fen_identity(&pos, pos.castles().mode());
    }
});

fn assert_fen_identity(pos: &Position, mode: CastlingMode) {
    for fen in [pos.to_fen(), pos.to_shredder_fen()] {
        let again = Position::from_fen_with_mode(&fen, mode).expect("a written FEN reads back");
        assert_eq!(&again, pos, "{fen}");
        assert_eq!(again.to_fen(), pos.to_fen());
    }
}
