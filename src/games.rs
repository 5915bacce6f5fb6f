//! The binary's side of the game registry (`registry/`, which lists the
//! games and builds them): a game from a `--game` flag or shards, with the
//! registry's errors as one-line [`CliError`]s (exit 2) naming the flag.
//! (A run file's game is `pipeline::load_game` / `pipeline::load_run`.)
//!
//! Adding a game touches its crate and one line of `registry/src/lib.rs`
//! (docs/games.md), not this file.

use crate::cmd::CliError;
pub use registry::{AnyGame, DEFAULT_GAME};

/// Runs `$body` with `$g` bound to the concrete game value of `$any` (an
/// [`AnyGame`]); the body is compiled once per game.
pub(crate) use registry::with_game;

/// The game of a `--game NAME[/VARIANT]` flag (exit 2 naming the flag).
pub fn from_flag(flag: &str) -> Result<AnyGame, CliError> {
    registry::build(&registry::GameSpec::of_flag(flag))
        .map_err(|e| CliError::input(format!("--game {flag}: {e}")))
}

/// The game the shards under `paths` record (they must all be of one game
/// and variant); PiRaTeKnIcS standard when there are none.
pub fn of_shards(paths: &[std::path::PathBuf]) -> Result<AnyGame, CliError> {
    registry::of_shards(paths).map_err(|e| CliError::input(e.to_string()))
}

/// The game of a list of shards (see [`of_shards`]).
pub fn of_shard_files(shards: &[data::ShardFile]) -> Result<AnyGame, CliError> {
    registry::of_shard_files(shards).map_err(|e| CliError::input(e.to_string()))
}

/// The game of the first readable shard of `shards` (unreadable ones are
/// skipped; the explorer's index names them), for `triad explore` and
/// `triad openings --html`.
pub fn of_readable_shards(shards: &[data::ShardFile]) -> Result<AnyGame, crate::cmd::CliError> {
    for s in shards {
        if let Ok(Some(g)) = data::shard_game(&s.path) {
            return of_shard_files(std::slice::from_ref(s)).map_err(|e| {
                crate::cmd::CliError::input(format!("{}: {g}: {}", s.path.display(), e.message))
            });
        }
    }
    of_shard_files(&shards[..1])
}
