//! The streaming writer of large games against the tree writer: each game read without
//! its tree and written as its text is read again gives the export text and the JSON of
//! its tree, with chess's rules and draughts'.
#![no_main]

use libfuzzer_sys::fuzz_target;
use notation::differential::stream_agrees;
use notation::{ReadOptions, Rules, WriteOptions};

fn check<R: Rules>(rules: &R, input: &[u8], read: ReadOptions, write: &WriteOptions) {
    if let Err(d) = stream_agrees(rules, input, read, write) {
        panic!("{d}");
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&selector, input)) = data.split_first() else {
        return;
    };
    let read = notation_fuzz::options_for(selector >> 2 & 1);
    let write = WriteOptions {
        reduced: selector & 8 != 0,
        ..WriteOptions::default()
    };
    let json = |result| {
        if let Err(d) = result {
            panic!("{d}");
        }
    };
    // Not `RawRules`, which follows the move numbers written as it reads (a game
    // starting `12...` streams as `12...`) while its tree is numbered from 1.
    if selector & 1 == 0 {
        let rules = collection::rules::chess();
        check(&rules, input, read, &write);
        json(collection::differential::json_stream_agrees(&rules, input));
    } else {
        let rules = collection::rules::draughts(None);
        check(&rules, input, read, &write);
        json(collection::differential::json_stream_agrees(&rules, input));
    }
});
