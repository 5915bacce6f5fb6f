//! The binary's side of the game registry (`registry/`, which lists the
//! games and builds them): a game from a `--game` flag, its error naming
//! the flag (exit 2). A game of shards is `registry::of_shards` and its
//! kin; a run file's game is `pipeline::load_game` / `pipeline::load_run`.
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
    Ok(registry::from_flag(flag)?)
}
