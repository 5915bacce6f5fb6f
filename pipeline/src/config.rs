//! The run file: one TOML file describes a run, with a section per stage
//! (`[game]`, `[model]`, `[selfplay]`, `[train]`, `[eval]`, `[loop]`). Each
//! crate owns the serde struct of its own section; [`RunConfig`] composes
//! them, and [`RunConfig::load`] reads and checks the whole file once, every
//! section's values included, so a bad value stops a run before any work
//! (docs/config.md).

use crate::loop_config::LoopConfig;
use runfile::ConfigError;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;

/// The `[game]` section: which game, which variant, and the game's own
/// keys. Empty `name` / `variant` mean the defaults of the binary's game
/// registry (which fills them in: `triad config` prints the resolved game).
/// This crate knows no game; the binary's dispatch table reads the section.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct GameSection {
    /// The game's registry name (`triad config` lists them on a bad name).
    pub name: String,
    /// The game's variant.
    pub variant: String,
    /// The game's own keys (e.g. PiRaTeKnIcS's `capacity`), checked by the
    /// game when it is built.
    #[serde(flatten)]
    pub options: BTreeMap<String, toml::Value>,
}

/// A whole run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct RunConfig {
    /// Master seed: every stage derives its own random streams from it, so a
    /// run is reproducible from its config file.
    pub seed: u64,
    /// The game and its variant (docs/games.md).
    pub game: GameSection,
    /// Self-play search and driver settings (`selfplay/`, docs/selfplay.md).
    pub selfplay: selfplay::SelfplayConfig,
    /// Trainer settings (`train/`, docs/train.md).
    pub train: train::TrainConfig,
    /// The network (`model/`, docs/model.md).
    pub model: model::ModelConfig,
    /// Matches after each generation (`eval/`, docs/loop.md).
    pub eval: eval::EvalConfig,
    /// Generations of the loop (docs/loop.md).
    #[serde(rename = "loop")]
    pub r#loop: LoopConfig,
}

impl Default for RunConfig {
    fn default() -> Self {
        RunConfig {
            seed: 1,
            game: GameSection::default(),
            selfplay: selfplay::SelfplayConfig::default(),
            train: train::TrainConfig::default(),
            model: model::ModelConfig::default(),
            eval: eval::EvalConfig::default(),
            r#loop: LoopConfig::default(),
        }
    }
}

impl RunConfig {
    /// Reads a run file's text: syntax, unknown keys and types, then every
    /// section's values. The error is one line naming the key (and the
    /// line when the parser knows it), without the file name.
    pub fn parse(text: &str) -> Result<RunConfig, ConfigError> {
        let cfg: RunConfig = runfile::parse(text)?;
        cfg.validate()?;
        Ok(cfg)
    }

    /// [`RunConfig::parse`] of a file, returning the text too (the run
    /// directory keeps a copy); every error names the file.
    pub fn load(path: &Path) -> Result<(RunConfig, String), ConfigError> {
        let text = std::fs::read_to_string(path).map_err(|e| ConfigError::unreadable(path, e))?;
        let cfg = RunConfig::parse(&text).map_err(|e| e.in_file(path))?;
        Ok((cfg, text))
    }

    /// Checks the values of every section; the error names the key.
    pub fn validate(&self) -> Result<(), ConfigError> {
        self.model.validate()?;
        self.selfplay.validate()?;
        self.train.validate()?;
        // (`EvalConfig::validate` also parses every ladder entry.)
        self.eval.validate().map_err(|e| match e {
            eval::EvalError::Config(e) => e,
            other => ConfigError::value(other.to_string()),
        })?;
        if self.r#loop.gating && self.eval.every > 1 {
            return Err(ConfigError::invalid(
                "eval.every",
                "gating needs every generation evaluated; set eval.every = 1 or loop.gating = false",
            ));
        }
        self.r#loop.validate()
    }
}
