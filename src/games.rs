//! The dispatch table: the only place in triad outside `games/` that names
//! a game. The `[game]` section of a run file (or `--game` on commands
//! without one) is read into a [`GameConfig`], built once into an
//! [`AnyGame`], and [`with_game!`] hands the concrete game to a generic
//! body, which the compiler monomorphises per game: the hot paths never see
//! a virtual call.
//!
//! Adding a game: a crate under `games/`, a variant of [`AnyGame`], an arm
//! in [`build`] and one in [`with_game!`] (docs/games.md).

use connect4::Connect4;
use influence::Influence;
use pirate::Pirate;
use piratechnics::Piratechnics;
use std::collections::BTreeMap;

/// The `[game]` section (read by `pipeline::config`; this table gives its
/// names meaning).
pub use pipeline::GameSection as GameConfig;

/// The default game when `[game] name` is empty or absent.
pub const DEFAULT_GAME: &str = "piratechnics";

/// The games triad plays: `(name, its variants, its own [game] keys)`.
pub const GAMES: [(&str, &str, &str); 4] = [
    (
        "piratechnics",
        "standard, 8x8, capacity2, capacity4",
        "capacity = 1..6 (ship capacity, overrides the variant's)",
    ),
    (
        "connect4",
        "standard (7x6), or WxH",
        "width, height = 4..16 with width x (height + 1) <= 64",
    ),
    (
        "influence",
        "standard (the rule book's decisions)",
        "commander, knight_accompaniment, promotion, safe_kings, stalemate, move_limit, repetition, army (docs/games/influence.md)",
    ),
    (
        "pirate",
        "standard (8x8), or WxH",
        "width, height = even, 6..16 (docs/games/pirate.md)",
    ),
];

/// A built game, one variant per game of [`GAMES`].
#[derive(Debug, Clone)]
pub enum AnyGame {
    Piratechnics(Piratechnics),
    Connect4(Connect4),
    Influence(Influence),
    Pirate(Pirate),
}

/// The Connect Four game of `game`, if it is one (for `triad solve` and
/// the Pons benchmark, which only Connect Four has).
pub fn connect4(game: &AnyGame) -> Option<&Connect4> {
    match game {
        AnyGame::Connect4(g) => Some(g),
        _ => None,
    }
}

/// Reads `--game NAME[/VARIANT]` (e.g. `piratechnics/8x8`).
pub fn flag_config(flag: &str) -> GameConfig {
    let (name, variant) = flag.split_once('/').unwrap_or((flag, ""));
    GameConfig {
        name: name.to_string(),
        variant: variant.to_string(),
        options: BTreeMap::new(),
    }
}

/// Builds the game of a `[game]` section; the error names the key at fault
/// (`game.variant`, `game.capacity`, ...) and what it may be.
pub fn build(cfg: &GameConfig) -> Result<AnyGame, String> {
    let name = if cfg.name.is_empty() {
        DEFAULT_GAME
    } else {
        &cfg.name
    };
    let variant = if cfg.variant.is_empty() {
        "standard"
    } else {
        &cfg.variant
    };
    match name {
        "piratechnics" => {
            let mut capacity = None;
            for (key, value) in &cfg.options {
                match key.as_str() {
                    "capacity" => {
                        let c = value
                            .as_integer()
                            .filter(|c| (1..=6).contains(c))
                            .ok_or_else(|| {
                                format!("game.capacity: {value} is not a ship capacity 1..6")
                            })?;
                        capacity = Some(c as u8);
                    }
                    other => {
                        return Err(format!(
                            "game.{other}: unknown key for piratechnics (its keys: capacity)"
                        ))
                    }
                }
            }
            Piratechnics::named(variant, capacity)
                .map(AnyGame::Piratechnics)
                .map_err(|e| format!("game.variant: {e}"))
        }
        "connect4" => {
            let (mut width, mut height) = (None, None);
            for (key, value) in &cfg.options {
                let side = || {
                    value
                        .as_integer()
                        .filter(|v| (4..=16).contains(v))
                        .map(|v| v as u32)
                        .ok_or_else(|| format!("game.{key}: {value} is not a board side 4..16"))
                };
                match key.as_str() {
                    "width" => width = Some(side()?),
                    "height" => height = Some(side()?),
                    other => {
                        return Err(format!(
                            "game.{other}: unknown key for connect4 (its keys: width, height)"
                        ))
                    }
                }
            }
            Connect4::named(variant, width, height)
                .map(AnyGame::Connect4)
                .map_err(|e| format!("game.variant: {e}"))
        }
        "influence" => {
            // The game's keys take text (`two`, `true`, `200`); it checks them.
            let keys: Vec<(&str, String)> = cfg
                .options
                .iter()
                .map(|(k, v)| {
                    let text = match v {
                        toml::Value::String(s) => s.clone(),
                        other => other.to_string(),
                    };
                    (k.as_str(), text)
                })
                .collect();
            Influence::named(variant, keys.iter().map(|(k, v)| (*k, v.as_str())))
                .map(AnyGame::Influence)
        }
        "pirate" => {
            let (mut width, mut height) = (None, None);
            for (key, value) in &cfg.options {
                let side = || {
                    value
                        .as_integer()
                        .and_then(|v| u32::try_from(v).ok())
                        .filter(|v| (6..=16).contains(v) && v.is_multiple_of(2))
                        .ok_or_else(|| {
                            format!("game.{key}: {value} is not a board side (even, 6..16)")
                        })
                };
                match key.as_str() {
                    "width" => width = Some(side()?),
                    "height" => height = Some(side()?),
                    other => {
                        return Err(format!(
                            "game.{other}: unknown key for pirate (its keys: width, height)"
                        ))
                    }
                }
            }
            Pirate::named(variant, width, height)
                .map(AnyGame::Pirate)
                .map_err(|e| format!("game.variant: {e}"))
        }
        other => Err(format!(
            "game.name: unknown game {other:?}: triad plays {}",
            GAMES.map(|g| g.0).join(", ")
        )),
    }
}

impl AnyGame {
    /// The `[game]` section this game resolves to (name and variant filled
    /// in), for `triad config`.
    pub fn resolved(&self, cfg: &GameConfig) -> GameConfig {
        fn of<G: game::Game>(g: &G, cfg: &GameConfig) -> GameConfig {
            let v = g.variant();
            GameConfig {
                name: G::NAME.to_string(),
                variant: v.split(',').next().unwrap_or(v).to_string(),
                options: cfg.options.clone(),
            }
        }
        with_game!(self, |g| of(g, cfg))
    }
}

/// Runs `$body` with `$g` bound to the concrete game value of `$any` (an
/// [`AnyGame`]); the body is compiled once per game.
macro_rules! with_game {
    ($any:expr, |$g:ident| $body:expr) => {
        match $any {
            $crate::games::AnyGame::Piratechnics($g) => $body,
            $crate::games::AnyGame::Connect4($g) => $body,
            $crate::games::AnyGame::Influence($g) => $body,
            $crate::games::AnyGame::Pirate($g) => $body,
        }
    };
}
pub(crate) use with_game;

/// The game of a run file (its `[game]` section; PiRaTeKnIcS standard when
/// absent). Errors name the file and the key (exit 2).
pub fn load(config: &std::path::Path) -> Result<AnyGame, crate::cmd::CliError> {
    let cfg: GameConfig = runfile::load_section(config, "game", |_| Ok(()))
        .map_err(|e| crate::cmd::CliError::input(e.to_string()))?;
    build(&cfg).map_err(|e| crate::cmd::CliError::input(format!("{}: {e}", config.display())))
}

/// The game of a `--game NAME[/VARIANT]` flag (exit 2 naming the flag).
pub fn from_flag(flag: &str) -> Result<AnyGame, crate::cmd::CliError> {
    build(&flag_config(flag))
        .map_err(|e| crate::cmd::CliError::input(format!("--game {flag}: {e}")))
}

/// The config of a game as recorded in shards and checkpoints: its name
/// and its variant text, whose `key=value` parts after the base name are
/// the game's own keys (`standard,capacity=5`).
pub fn recorded(name: &str, variant: &str) -> GameConfig {
    let mut parts = variant.split(',');
    let base = parts.next().unwrap_or("standard");
    let mut options = BTreeMap::new();
    for p in parts {
        if let Some((k, v)) = p.split_once('=') {
            let value = v
                .parse::<i64>()
                .map(toml::Value::Integer)
                .unwrap_or_else(|_| toml::Value::String(v.to_string()));
            options.insert(k.to_string(), value);
        }
    }
    GameConfig {
        name: name.to_string(),
        variant: base.to_string(),
        options,
    }
}

/// The game the shards under `paths` record (they must all be of one game
/// and variant); PiRaTeKnIcS standard when there are none.
pub fn of_shards(paths: &[std::path::PathBuf]) -> Result<AnyGame, crate::cmd::CliError> {
    let shards =
        data::list_shards(paths).map_err(|e| crate::cmd::CliError::input(e.to_string()))?;
    of_shard_files(&shards)
}

/// The game of a list of shards (see [`of_shards`]).
pub fn of_shard_files(shards: &[data::ShardFile]) -> Result<AnyGame, crate::cmd::CliError> {
    use crate::cmd::CliError;
    match data::common_game(shards).map_err(|e| CliError::input(e.to_string()))? {
        Some(g) => build(&recorded(&g.name, &g.variant))
            .map_err(|e| CliError::input(format!("the shards' game {g}: {e}"))),
        None => build(&GameConfig::default()).map_err(CliError::input),
    }
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
