//! The generic notation layer.
