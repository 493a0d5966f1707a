//! ChessRules PGN: the tree builder and the validating reader agree on every game, and the
//! export is a fixed point.
#![no_main]

use libfuzzer_sys::fuzz_target;
use notation::{GameReader, WriteOptions};
use notation_fuzz::{assert_export_fixed_point, options_for};
use pgn::{ChessRules, ValidatingReader};

fuzz_target!(|data: &[u8]| {
    let Some((&selector, input)) = data.split_first() else {
        return;
    };
    let options = options_for(selector);
    let mut tree_reader = GameReader::new(&ChessRules, input, options);
    let tree: Vec<_> = (&mut tree_reader)
        .map(|g| g.expect("reading a slice"))
        .collect();
    let mut fast_reader = ValidatingReader::with_options(input, options);
    let fast: Vec<_> = (&mut fast_reader)
        .map(|g| g.expect("reading a slice"))
        .collect();
    notation_fuzz::assert_validator_agrees!(tree, fast);
    assert_eq!(tree_reader.take_orphans(), fast_reader.take_orphans());

    let write = if selector & 0x80 == 0 {
        WriteOptions::default()
    } else {
        WriteOptions {
            reduced: true,
            ..WriteOptions::default()
        }
    };
    assert_export_fixed_point(&ChessRules, input, &write);
});
