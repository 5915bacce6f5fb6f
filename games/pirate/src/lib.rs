//! Pirate Chess (in progress).
