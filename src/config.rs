//! The run file as the binary reads it: `pipeline::RunConfig` checked in
//! full (every section's values, `docs/config.md`) and its `[game]` built
//! by the dispatch table, once, before any work starts. Every mistake is a
//! one-line [`CliError`] (exit 2) naming the file and the key, because a
//! typo in a config must stop a run before it starts, not be silently
//! ignored hours into it.

use crate::cmd::CliError;
use crate::games::{self, AnyGame};
pub use pipeline::RunConfig;
use std::path::Path;

/// A run file read and checked: the config, its text and its game.
pub struct Run {
    pub config: RunConfig,
    pub text: String,
    pub game: AnyGame,
}

/// Reads a run file, checks every section and builds its game. Errors are
/// one line, `FILE: line N: KEY: what is wrong` (exit 2).
pub fn load_run(path: &Path) -> Result<Run, CliError> {
    let (config, text) = RunConfig::load(path).map_err(CliError::input)?;
    let game = games::build(&config.game)
        .map_err(|e| CliError::input(format!("{}: {e}", path.display())))?;
    Ok(Run { config, text, game })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(dir: &Path, name: &str, text: &str) -> std::path::PathBuf {
        let file = dir.join(name);
        std::fs::write(&file, text).unwrap();
        file
    }

    #[test]
    fn load_run_names_the_file_and_the_key() {
        let dir = tempfile::tempdir().unwrap();
        let file = write(dir.path(), "run.toml", "[train]\nlr = true\n");
        let err = load_run(&file).err().unwrap();
        assert_eq!(err.code, 2);
        assert!(
            err.message
                .starts_with(&format!("{}: line 2: train.lr: ", file.display())),
            "{}",
            err.message
        );
        let missing = load_run(&dir.path().join("missing.toml")).err().unwrap();
        assert!(
            missing.message.contains("missing.toml: cannot read"),
            "{}",
            missing.message
        );
    }

    /// A bad value in every section is refused before any work, naming the
    /// key and the file (`triad config` and every command that reads a run
    /// file go through `load_run`).
    #[test]
    fn a_bad_value_in_every_section_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let cases = [
            ("[game]\nname = \"chess\"\n", "game.name"),
            ("[game]\nvariant = \"9x9\"\n", "game.variant"),
            ("[game]\ncapacity = 9\n", "game.capacity"),
            ("[game]\nshipz = 2\n", "game.shipz"),
            ("[model]\nchannels = 0\n", "model.channels"),
            ("[model]\ndevice = \"tpu\"\n", "model.device"),
            ("[selfplay]\nsimulations = 0\n", "selfplay.simulations"),
            ("[selfplay]\ncheap_share = 1.5\n", "selfplay.cheap_share"),
            ("[train]\nlr = -1.0\n", "train.lr"),
            ("[train]\nlr = 0.0\n", "train.lr"),
            ("[train]\nlr = nan\n", "train.lr"),
            ("[train]\nlr = inf\n", "train.lr"),
            ("[train]\nbatch_size = 0\n", "train.batch_size"),
            ("[train]\nwindow = 0\n", "train.window"),
            ("[eval]\ngames = 0\n", "eval.games"),
            ("[eval]\nladder = [\"bogus:1\"]\n", "eval.ladder"),
            ("[loop]\ngenerations = 0\n", "loop.generations"),
            ("[loop]\ngate_score = 2.0\n", "loop.gate_score"),
        ];
        for (i, (text, key)) in cases.iter().enumerate() {
            let file = write(dir.path(), &format!("bad{i}.toml"), text);
            let err = load_run(&file)
                .err()
                .unwrap_or_else(|| panic!("{text:?} was accepted"));
            assert_eq!(err.code, 2, "{text:?}");
            assert!(
                err.message.contains(key) && err.message.contains(&*file.to_string_lossy()),
                "{text:?}: {}",
                err.message
            );
        }
    }

    #[test]
    fn run_config_defaults_and_presets_load() {
        let run = RunConfig::parse("").unwrap();
        assert_eq!(run, RunConfig::default());
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/configs");
        let mut presets = 0;
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "toml") {
                load_run(&path).unwrap_or_else(|e| panic!("{}: {}", path.display(), e.message));
                presets += 1;
            }
        }
        assert!(presets >= 2, "configs/ holds quickstart.toml and gpu.toml");
    }
}
