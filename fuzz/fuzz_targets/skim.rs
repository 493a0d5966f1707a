//! The reader's 64-byte skim of a stopped game against the token loop: the same games,
//! ending at the same bytes, with the same diagnostics, read a few bytes at a time.
#![no_main]

use collection::differential::fuzz_input;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Some(Err(d)) = fuzz_input("skim", data) {
        panic!("{d}");
    }
});
