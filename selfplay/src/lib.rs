//! selfplay
