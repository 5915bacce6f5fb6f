//! The loop's game ids and paths; every name in a run comes from
//! [`crate::layout`].

use std::path::{Path, PathBuf};

pub use crate::layout::gen_name;

/// The game id of generation `g`'s `i`th self-play game: ids are unique
/// within a run (`g · 2³²` + i), so readers that group a run's rows by
/// game id never merge two games.
pub fn selfplay_game_id(g: u32, i: u64) -> u64 {
    ((g as u64) << 32) | i
}

/// The game id of generation `g`'s `i`th match game: `g · 2³² + 2³¹ + i`,
/// apart from every self-play id of the run.
pub fn match_game_id(g: u32, i: u64) -> u64 {
    ((g as u64) << 32) | (1 << 31) | i
}

/// The path of a generation's network in a run directory.
pub fn network_path(run: &Path, g: u32) -> PathBuf {
    run.join(crate::layout::network(g))
}
