//! The notation layer alone, with opaque moves: the reader in both dialects, lenient and
//! strict, and the export fixed point.
#![no_main]

use libfuzzer_sys::fuzz_target;
use notation::{RawRules, WriteOptions, read_games};
use notation_fuzz::{assert_export_fixed_point, options_for};

fuzz_target!(|data: &[u8]| {
    let Some((&selector, input)) = data.split_first() else {
        return;
    };
    let rules = if selector & 0x80 == 0 {
        RawRules::PGN
    } else {
        RawRules::PDN
    };
    let games = read_games(&rules, input, options_for(selector));
    for game in &games {
        for diagnostic in &game.diagnostics {
            // Every diagnostic can be shown, and points inside the input or just after it.
            let _ = diagnostic.to_string();
        }
    }
    assert_export_fixed_point(&rules, input, &WriteOptions::default());
});
