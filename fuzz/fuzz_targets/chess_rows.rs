//! The Parquet rows of chess games built as the validator reads them, with no tree,
//! against the rows of their trees: the same columns, the same diagnostics.
#![no_main]

use collection::differential::chess_rows_agree;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&selector, input)) = data.split_first() else {
        return;
    };
    if let Err(d) = chess_rows_agree(input, notation_fuzz::options_for(selector & 1)) {
        panic!("{d}");
    }
});
