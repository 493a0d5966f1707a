//! `notate`: the command-line tool for PGN and PDN collections.
fn main() {}
