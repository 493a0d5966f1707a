//! Draughts.
