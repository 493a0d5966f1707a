//! lichess's comments read at fixed offsets (`[%clk h:mm:ss]`, with or without an
//! evaluation before it) against the general scan of a comment's commands.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pgn::differential::comment_agrees;

fuzz_target!(|data: &[u8]| {
    // A comment's text is decoded before it is read: any bytes, as text.
    let text = String::from_utf8_lossy(data);
    if let Err(d) = comment_agrees(&text) {
        panic!("{d}");
    }
});
