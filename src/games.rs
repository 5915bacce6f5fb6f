//! The binary's side of the game registry (`registry/`, which lists the
//! games and builds them): the default game and the dispatch macro. A
//! game of a `--game` flag is `registry::from_flag`, of shards
//! `registry::of_shards` and its kin, of a run file `pipeline::load_game`
//! / `pipeline::load_run`; their errors become `CliError`s by `?`.
//!
//! Adding a game touches its crate and one line of `registry/src/lib.rs`
//! (docs/games.md), not this file.

pub use registry::DEFAULT_GAME;

/// Runs `$body` with `$g` bound to the concrete game value of `$any` (a
/// `registry::AnyGame`); the body is compiled once per game.
pub(crate) use registry::with_game;
