//! Run configuration: one TOML file describes a run, with a section per stage
//! (`[game]`, `[model]`, `[selfplay]`, `[train]`, `[eval]`, `[loop]`). Each crate owns
//! the serde struct of its own section (`#[serde(deny_unknown_fields,
//! default)]`, documented defaults); [`RunConfig`] only composes them, so a
//! stage's settings live next to the code that uses them. See `docs/config.md`.
//!
//! [`load_toml`] turns every mistake in such a file (syntax, unknown key, bad
//! value) into a one-line [`CliError`] (exit 2) naming the file, the line and
//! the key, because a typo in a config must stop a run before it starts, not
//! be silently ignored hours into it.

use crate::cmd::CliError;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// A whole run. Stage sections are added here by the owners of the stage
/// crates as they define them (e.g. `pub model: model::ModelConfig`); every
/// section is optional in the file and takes its documented defaults.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct RunConfig {
    /// Master seed: every stage derives its own random streams from it, so a
    /// run is reproducible from its config file.
    pub seed: u64,
    /// The game and its variant (`[game]`, docs/games.md).
    pub game: crate::games::GameConfig,
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
    pub r#loop: crate::cmd::run_loop::LoopConfig,
}

impl Default for RunConfig {
    fn default() -> Self {
        RunConfig {
            seed: 1,
            game: crate::games::GameConfig::default(),
            selfplay: selfplay::SelfplayConfig::default(),
            train: train::TrainConfig::default(),
            model: model::ModelConfig::default(),
            eval: eval::EvalConfig::default(),
            r#loop: crate::cmd::run_loop::LoopConfig::default(),
        }
    }
}

/// Reads and deserializes a TOML file. Errors are one line: `FILE: line N:
/// KEY: what is wrong` (exit 2); a missing or unreadable file names the file.
pub fn load_toml<T: DeserializeOwned>(path: impl AsRef<Path>) -> Result<T, CliError> {
    let path = path.as_ref();
    let text = std::fs::read_to_string(path)
        .map_err(|e| CliError::input(format!("{}: cannot read: {e}", path.display())))?;
    parse_toml(&text).map_err(|msg| CliError::input(format!("{}: {msg}", path.display())))
}

/// Deserializes TOML text; the error is one line without the file name.
pub fn parse_toml<T: DeserializeOwned>(text: &str) -> Result<T, String> {
    runfile::parse(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn load_toml_names_the_file() {
        let dir = std::env::temp_dir().join(format!("triad-config-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("run.toml");
        std::fs::write(&file, "[train]\nlr = true\n").unwrap();
        let err = load_toml::<RunConfig>(&file).unwrap_err();
        assert_eq!(err.code, 2);
        assert!(
            err.message
                .starts_with(&format!("{}: line 2: train.lr: ", file.display())),
            "{}",
            err.message
        );
        let missing = load_toml::<RunConfig>(dir.join("missing.toml")).unwrap_err();
        assert!(
            missing.message.contains("missing.toml: cannot read"),
            "{}",
            missing.message
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn run_config_defaults_and_presets_load() {
        let run: RunConfig = parse_toml("").unwrap();
        assert_eq!(run, RunConfig::default());
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/configs");
        let mut presets = 0;
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "toml") {
                load_toml::<RunConfig>(&path)
                    .unwrap_or_else(|e| panic!("{}: {}", path.display(), e.message));
                presets += 1;
            }
        }
        assert!(presets >= 2, "configs/ holds quickstart.toml and gpu.toml");
    }
}
