//! The jobs a collection of recorded games needs — check it, write it in the export
//! format, pick games from it, drop its duplicates, name its openings, split it, turn it
//! into JSON Lines, Parquet tables or a web page, count it, show its positions — over
//! PGN (chess) and PDN (draughts) files alike, on every core, in constant memory.
//!
//! The `notate` command line is this library with clap, a progress bar and exit codes
//! around it; the Python package `notate` is built on it too.
//!
//! # How a job runs
//!
//! - [`input`] finds the inputs (files, folders, standard input), decompresses them and
//!   tells PGN from PDN; a Parquet table of games is read as text by [`table`].
//! - [`job`] holds a job's inputs and how it reports ([`job::Report`]: the terminal's
//!   progress bar, or nothing), opens each input in turn with the rules of its format,
//!   and says how the job ended.
//! - [`pipeline`] cuts an input into chunks at game boundaries, reads them on a pool of
//!   threads with a job's task, and hands the results back in input order.
//! - [`rules`] is where a format meets its rules: [`rules::FormatRules`], what every job
//!   needs of chess's rules and draughts'. What one job alone needs is a trait of that
//!   job's module (a move's JSON fields are [`json::JsonMoves`], the Parquet columns
//!   [`parquet::Columns`], …), so that a new job touches its own module and nothing else.
//! - [`mainline`] plays a game's main line through its positions; [`escape`] makes text
//!   safe for JSON and HTML; [`judgement`] reads engine evaluations as lichess does
//!   (mistakes, accuracy); [`range`] cuts a file into byte ranges at game boundaries;
//!   [`large`] is how a game too large for a tree is written all the same.
//!
//! # The jobs
//!
//! Each has a module with its task, the emitter that writes its results in input order,
//! and a `run` function over a [`job::Job`]: [`check`], [`fmt`] (with [`repair`]'s
//! corrections), [`select`], [`dedupe`], [`eco`], [`split`], [`scan`], [`json`],
//! [`parquet`], [`stats`], [`html`]; [`annotate`] has UCI engines analyse chess games;
//! and, for one position, [`show`] and [`svg`]; [`perft`] counts move trees.
//!
//! ```
//! use collection::job::{Job, Silent};
//! use collection::{check, input};
//! use notation::ReadOptions;
//!
//! let sources = input::collect(&["../../corpus/pgn/model.pgn".into()])?;
//! let mut job = Job::new(sources, 2, &Silent);
//! let mut out = Vec::new();
//! // Quiet: the summary line alone, no diagnostic.
//! let ended = check::run(&mut job, ReadOptions::default(), true, &mut out);
//! assert_eq!(ended, Ok(collection::job::Ended::default()));
//! assert!(String::from_utf8(out)?.starts_with("files=1 games="));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod annotate;
pub mod check;
pub mod dedupe;
#[doc(hidden)]
pub mod differential;
pub mod eco;
pub mod escape;
pub mod fmt;
pub mod html;
pub mod input;
pub mod job;
pub mod json;
pub mod judgement;
pub mod large;
pub mod mainline;
pub mod output;
pub mod parquet;
pub mod perft;
pub mod pipeline;
pub mod range;
pub mod repair;
pub mod rules;
pub mod scan;
pub mod select;
pub mod show;
pub mod split;
pub mod stats;
pub mod svg;
pub mod table;

pub mod fold;
