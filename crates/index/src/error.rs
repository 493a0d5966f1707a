//! What can go wrong with an index, each with the file it concerns.

use std::io;
use std::path::PathBuf;

/// An error opening, building or querying an index.
#[derive(Debug, thiserror::Error)]
pub enum IndexError {
    /// A file of the index could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        source: io::Error,
    },
    /// The folder holds no index.
    #[error("{path}: not an index (no index.json; `notate index FILE… -o {path}` builds one)")]
    NotAnIndex {
        /// The folder.
        path: PathBuf,
    },
    /// The index was written by another version of this program.
    #[error(
        "{path}: an index of format {found}, and this program reads format {expected}; \
         build it again"
    )]
    Version {
        /// The file.
        path: PathBuf,
        /// The version found.
        found: u64,
        /// The version read.
        expected: u64,
    },
    /// A file of the index does not hold what it should: cut, damaged or edited.
    #[error("{path}: damaged index: {what}")]
    Damaged {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        what: String,
    },
    /// A query the index cannot answer as asked (a FEN that does not parse, a move
    /// that is not legal, a filter that does not read).
    #[error("{0}")]
    Query(String),
    /// An input that the index refuses (already indexed, another game).
    #[error("{0}")]
    Input(String),
}

impl IndexError {
    pub(crate) fn io(path: &std::path::Path, source: io::Error) -> IndexError {
        IndexError::Io {
            path: path.to_owned(),
            source,
        }
    }
}
