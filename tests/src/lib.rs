//! Workspace-level tests over `corpus/` live in `tests/tests/`.
