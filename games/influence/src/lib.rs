//! Influence Chess (in progress).
