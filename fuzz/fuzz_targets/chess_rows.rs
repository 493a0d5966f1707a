//! The Parquet rows of chess games built as the validator reads them, with no tree,
//! against the rows of their trees: the same columns, the same diagnostics.
#![no_main]

use collection::differential::fuzz_input;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Some(Err(d)) = fuzz_input("chess_rows", data) {
        panic!("{d}");
    }
});
