//! The streaming writer of large games against the tree writer: each game read without
//! its tree and written as its text is read again gives the export text and the JSON of
//! its tree, with chess's rules and draughts'.
#![no_main]

use collection::differential::fuzz_input;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Some(Err(d)) = fuzz_input("stream", data) {
        panic!("{d}");
    }
});
