//! The library crates' READMEs, which crates.io and docs.rs show: their examples run as
//! this crate's doc tests, so that they compile against the crates as they are and what
//! they assert holds. (`diagram`'s README has no example.)

/// `crates/notation/README.md`.
#[doc = include_str!("../../crates/notation/README.md")]
pub struct NotationReadme;

/// `crates/pgn/README.md`.
#[doc = include_str!("../../crates/pgn/README.md")]
pub struct PgnReadme;

/// `crates/pdn/README.md`.
#[doc = include_str!("../../crates/pdn/README.md")]
pub struct PdnReadme;
