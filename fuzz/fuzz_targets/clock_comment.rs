//! lichess's comments read at fixed offsets (`[%clk h:mm:ss]`, with or without an
//! evaluation before it) against the general scan of a comment's commands.
#![no_main]

use collection::differential::fuzz_input;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Some(Err(d)) = fuzz_input("clock_comment", data) {
        panic!("{d}");
    }
});
