//! The reader's 64-byte skim of a stopped game against the token loop: the same games,
//! ending at the same bytes, with the same diagnostics, read a few bytes at a time.
#![no_main]

use libfuzzer_sys::fuzz_target;
use notation::Dialect;
use notation::differential::skim_agrees;

fuzz_target!(|data: &[u8]| {
    let Some((&selector, input)) = data.split_first() else {
        return;
    };
    let dialect = if selector & 1 == 0 {
        Dialect::PGN
    } else {
        Dialect::PDN
    };
    let options = notation_fuzz::options_for(selector >> 1 & 1);
    // Whole reads, or 1 to 63 bytes at a time.
    let step = match selector >> 2 {
        0 => 1 << 16,
        n => usize::from(n),
    };
    if let Err(d) = skim_agrees(input, dialect, options, step) {
        panic!("{d}");
    }
});
