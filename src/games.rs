//! The binary's side of the game registry (`registry/`, which lists the
//! games and builds them): a game from a run file's `[game]` section, a
//! `--game` flag or shards, with the registry's errors as one-line
//! [`CliError`]s (exit 2) naming the file or flag.
//!
//! Adding a game touches its crate and one line of `registry/src/lib.rs`
//! (docs/games.md), not this file.

use crate::cmd::CliError;
pub use registry::{AnyGame, DEFAULT_GAME};

/// Runs `$body` with `$g` bound to the concrete game value of `$any` (an
/// [`AnyGame`]); the body is compiled once per game.
pub(crate) use registry::with_game;

/// The `[game]` section (read by `pipeline::config`; the registry gives its
/// names meaning).
pub use pipeline::GameSection as GameConfig;

/// Builds the game of a `[game]` section; the error names the key at fault
/// (`game.variant`, `game.capacity`, ...) and what it may be.
pub fn build(cfg: &GameConfig) -> Result<AnyGame, registry::Error> {
    registry::build(&registry::GameSpec::of_toml(
        &cfg.name,
        &cfg.variant,
        &cfg.options,
    ))
}

/// The `[game]` section `game` resolves to (name and variant filled in,
/// the keys of `cfg`), for `triad config`.
pub fn resolved(game: &AnyGame, cfg: &GameConfig) -> GameConfig {
    let v = game.variant();
    GameConfig {
        name: game.name().to_string(),
        variant: v.split(',').next().unwrap_or(v).to_string(),
        options: cfg.options.clone(),
    }
}

/// The game of a run file (its `[game]` section; PiRaTeKnIcS standard when
/// absent). Errors name the file and the key (exit 2).
pub fn load(config: &std::path::Path) -> Result<AnyGame, CliError> {
    let cfg: GameConfig = runfile::load_section(config, "game", |_| Ok(()))
        .map_err(|e| CliError::input(e.to_string()))?;
    build(&cfg).map_err(|e| CliError::input(format!("{}: {e}", config.display())))
}

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
