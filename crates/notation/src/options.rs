//! How leniently a reader reads, and how much it accepts: [`ReadOptions`].

use crate::diagnostic::{DiagnosticKind, Severity};

/// How leniently to read, and how much to accept.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReadOptions {
    /// Whether every departure from the standard is an error rather than a warning.
    pub strict: bool,
    /// The largest game, in bytes, that is read; a larger one is reported and skipped.
    pub max_game_bytes: usize,
}

impl Default for ReadOptions {
    fn default() -> Self {
        ReadOptions {
            strict: false,
            max_game_bytes: 256 << 20,
        }
    }
}

impl ReadOptions {
    /// Strict reading: every departure from the standard is an error.
    pub fn strict() -> ReadOptions {
        ReadOptions {
            strict: true,
            ..ReadOptions::default()
        }
    }

    /// The severity of a diagnostic of this kind under these options.
    pub fn severity(&self, kind: &DiagnosticKind) -> Severity {
        if self.strict {
            Severity::Error
        } else {
            kind.default_severity()
        }
    }
}
