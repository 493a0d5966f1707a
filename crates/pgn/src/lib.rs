//! Chess.
