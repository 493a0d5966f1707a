//! The engine of `notate`, the command-line tool for PGN (chess) and PDN (draughts) game
//! collections, as a library: inputs ([`input`]: files, folders, decompression, the
//! format), the pool that reads them in chunks and hands results back in input order
//! ([`pipeline`]), where a format meets its rules ([`games`]), and a module per
//! subcommand's task. The command line (`src/main.rs`) and the Python package
//! (`crates/python`) are built on it.

pub mod boards;
pub mod check;
pub mod dedupe;
pub mod eco;
pub mod fmt;
pub mod fold;
pub mod games;
pub mod html;
pub mod input;
pub mod job;
pub mod json;
pub mod large;
pub mod parquet;
pub mod perft;
pub mod pipeline;
pub mod range;
pub mod repair;
pub mod scan;
pub mod select;
pub mod show;
pub mod split;
pub mod stats;
pub mod svg;
