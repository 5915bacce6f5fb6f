//! The run file as the commands read it: [`RunConfig`] checked in full
//! (every section's values, `docs/config.md`) and its `[game]` built by
//! the registry, once, before any work starts. Every mistake is a one-line
//! [`InputError`] or a run file's [`runfile::ConfigError`] (exit 2) naming the file and the key, because a typo in
//! a config must stop a run before it starts, not be silently ignored
//! hours into it.

use crate::{Error, GameSection, InputError, RunConfig};
use registry::AnyGame;
use std::path::Path;

/// A run file read and checked: the config, its text and its game.
pub struct Run {
    /// The config, every section checked.
    pub config: RunConfig,
    /// The file's text (copied into run directories as config.toml).
    pub text: String,
    /// The game of its `[game]` section.
    pub game: AnyGame,
}

/// Reads a run file, checks every section and builds its game. Errors are
/// one line, `FILE: line N: KEY: what is wrong` (exit 2).
pub fn load_run(path: &Path) -> Result<Run, Error> {
    let (config, text) = RunConfig::load(path)?;
    let game = config
        .game
        .build()
        .map_err(|source| InputError::RunFileGame {
            path: path.to_path_buf(),
            source,
        })?;
    check_suite(&config, &game).map_err(|source| InputError::RunFileSuite {
        path: path.to_path_buf(),
        source,
    })?;
    Ok(Run { config, text, game })
}

/// The game of a run file's `[game]` section alone (PiRaTeKnIcS standard
/// when absent). Errors name the file and the key (exit 2).
pub fn load_game(path: &Path) -> Result<AnyGame, Error> {
    let cfg: GameSection = runfile::load_section(path, "game", |_| Ok(()))?;
    cfg.build().map_err(|source| {
        InputError::RunFileGame {
            path: path.to_path_buf(),
            source,
        }
        .into()
    })
}

impl GameSection {
    /// Builds the game of this section; the error names the key at fault
    /// (`game.variant`, `game.capacity`, ...) and what it may be.
    pub fn build(&self) -> Result<AnyGame, registry::Error> {
        registry::build(&registry::GameSpec::of_toml(
            &self.name,
            &self.variant,
            &self.options,
        ))
    }

    /// The section `game` resolves to (name and variant filled in, the
    /// keys of this one), for `triad config`.
    pub fn resolved(&self, game: &AnyGame) -> GameSection {
        let v = game.variant();
        GameSection {
            name: game.name().to_string(),
            variant: v.split(',').next().unwrap_or(v).to_string(),
            options: self.options.clone(),
        }
    }
}

/// The `[eval] suite` folder must hold the game's benchmark suite: a
/// missing folder is found by `triad config`, not by the loop's first
/// evaluation.
fn check_suite(config: &RunConfig, game: &AnyGame) -> Result<(), game::GameError> {
    let dir = config.eval.suite.as_str();
    if dir.is_empty() {
        return Ok(());
    }
    game.check_suite(Path::new(dir))
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
        assert_eq!(err.exit_code(), 2);
        assert!(
            err.message()
                .starts_with(&format!("{}: line 2: train.lr: ", file.display())),
            "{}",
            err.message()
        );
        let missing = load_run(&dir.path().join("missing.toml")).err().unwrap();
        assert!(
            missing.message().contains("missing.toml: cannot read"),
            "{}",
            missing.message()
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
            ("[train]\nema_decay = 1.0\n", "train.ema_decay"),
            ("[train]\nema_decay = -0.5\n", "train.ema_decay"),
            ("[train]\nschedule_steps = -1\n", "train.schedule_steps"),
            (
                "[train]\nschedule = \"constant\"\nschedule_steps = 900\n",
                "train.schedule_steps",
            ),
            (
                "[train]\nwarmup_steps = 100\nschedule_steps = 50\n",
                "train.schedule_steps",
            ),
            ("[eval]\ngames = 0\n", "eval.games"),
            ("[eval]\nladder = [\"bogus:1\"]\n", "eval.ladder"),
            ("[loop]\ngenerations = 0\n", "loop.generations"),
            ("[loop]\ngate_score = 2.0\n", "loop.gate_score"),
            ("[loop]\nlate_from = 1.0\n", "loop.late_from"),
            ("[loop]\nlate_from = 0.0\n", "loop.late_from"),
            ("[loop]\nlate_simulations = -1\n", "loop.late_simulations"),
            (
                "[loop]\nlate_simulations = 2000000\n",
                "loop.late_simulations",
            ),
        ];
        for (i, (text, key)) in cases.iter().enumerate() {
            let file = write(dir.path(), &format!("bad{i}.toml"), text);
            let err = load_run(&file)
                .err()
                .unwrap_or_else(|| panic!("{text:?} was accepted"));
            assert_eq!(err.exit_code(), 2, "{text:?}");
            assert!(
                err.message().contains(key) && err.message().contains(&*file.to_string_lossy()),
                "{text:?}: {}",
                err.message()
            );
        }
    }

    #[test]
    fn run_config_defaults_and_presets_load() {
        let run = RunConfig::parse("").unwrap();
        assert_eq!(run, RunConfig::default());
        let root = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
        // The presets name the suite folder relative to the repository
        // (where `triad` runs); this test runs in `pipeline/`, so each is
        // loaded from a copy whose `suite` is anchored at the root.
        let copies = tempfile::tempdir().unwrap();
        let mut presets = 0;
        for entry in std::fs::read_dir(format!("{root}/configs")).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "toml") {
                let text = std::fs::read_to_string(&path).unwrap();
                let text = text.replace(
                    "suite = \"benchmarks/",
                    &format!("suite = \"{root}/benchmarks/"),
                );
                let path = write(
                    copies.path(),
                    &path.file_name().unwrap().to_string_lossy(),
                    &text,
                );
                match load_run(&path) {
                    Ok(_) => presets += 1,
                    Err(e) => panic!("{}: {}", path.display(), e.message()),
                }
            }
        }
        assert!(presets >= 2, "configs/ holds quickstart.toml and gpu.toml");
    }

    /// Every key of every section (read from the defaults, so a new key is
    /// probed too) with values of the wrong type, negative, not a number
    /// and infinite: each file is refused with exit 2 naming the file and
    /// `section.key`. The few values a key legitimately takes are listed
    /// with the reason. With the semantic cases above this is the probe's
    /// "bad run files" list, grown to every key.
    #[test]
    fn every_key_refuses_values_of_the_wrong_kind_or_range() {
        // (key, value): accepted on purpose.
        let allowed: [(&str, &str, &str); 3] = [
            (
                "selfplay.resign_threshold",
                "-1.0",
                "a threshold of -1 never resigns",
            ),
            (
                "eval.ladder",
                "[]",
                "an empty ladder plays the previous generation only",
            ),
            ("eval.suite", "\"\"", "empty: no suite"),
        ];
        let dir = tempfile::tempdir().unwrap();
        let defaults = toml::to_string(&RunConfig::default()).unwrap();
        let table: toml::Table = defaults.parse().unwrap();
        let mut probes: Vec<(String, String, String)> = Vec::new();
        for (name, value) in &table {
            let (section, keys) = match value {
                toml::Value::Table(t) => (Some(name.as_str()), t.clone()),
                other => {
                    let mut t = toml::Table::new();
                    t.insert(name.clone(), other.clone());
                    (None, t)
                }
            };
            for (key, v) in &keys {
                let bad: &[&str] = match v {
                    toml::Value::String(_) => &["3", "true", "[1]"],
                    toml::Value::Boolean(_) => &["\"yes\"", "2"],
                    toml::Value::Integer(_) => &["-1", "\"x\"", "1.5", "true"],
                    toml::Value::Float(_) => &["nan", "inf", "-inf", "\"x\""],
                    toml::Value::Array(_) => &["1", "\"x\"", "[[1]]"],
                    _ => &["\"x\""],
                };
                for b in bad {
                    let header = section.map_or(String::new(), |s| format!("[{s}]\n"));
                    let full_key = section.map_or(key.clone(), |s| format!("{s}.{key}"));
                    probes.push((full_key, b.to_string(), format!("{header}{key} = {b}\n")));
                }
            }
        }
        // Negative floats where a key must be positive or in a range.
        for key in [
            "selfplay.c_puct",
            "selfplay.fpu_reduction",
            "selfplay.dirichlet_alpha",
            "selfplay.dirichlet_epsilon",
            "selfplay.temperature",
            "selfplay.gumbel_c_visit",
            "selfplay.gumbel_c_scale",
            "selfplay.cheap_share",
            "selfplay.no_resign_share",
            "train.lr",
            "train.eps",
            "train.weight_decay",
            "train.grad_clip",
            "train.min_lr_factor",
            "train.momentum",
            "loop.gate_score",
        ] {
            let (s, k) = key.split_once('.').unwrap();
            probes.push((
                key.to_string(),
                "-0.5".into(),
                format!("[{s}]\n{k} = -0.5\n"),
            ));
        }
        let mut refused = 0;
        for (i, (key, value, text)) in probes.iter().enumerate() {
            if allowed.iter().any(|(k, v, _)| k == key && v == value) {
                continue;
            }
            let file = write(dir.path(), &format!("p{i}.toml"), text);
            let err = load_run(&file)
                .err()
                .unwrap_or_else(|| panic!("{key} = {value} was accepted"));
            assert_eq!(err.exit_code(), 2, "{text:?}");
            let short = key.rsplit('.').next().unwrap();
            assert!(
                err.message().contains(short) && err.message().contains(&*file.to_string_lossy()),
                "{key} = {value}: {}",
                err.message()
            );
            refused += 1;
        }
        assert!(refused > 250, "{refused} bad files");
        eprintln!("{refused} bad run files refused, each naming its key");
    }

    /// A suite folder that does not exist is refused by `triad config`, not
    /// found by the loop's first evaluation; so is a learning rate that
    /// diverges at once.
    #[test]
    fn a_missing_suite_and_absurd_rates_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        for (text, key) in [
            ("[eval]\nsuite = \"no/such/folder\"\n", "eval.suite"),
            ("[train]\nlr = 1e30\n", "train.lr"),
            ("[train]\neps = 2.0\n", "train.eps"),
        ] {
            let file = write(dir.path(), "x.toml", text);
            let err = load_run(&file).err().expect("refused");
            assert_eq!(err.exit_code(), 2);
            assert!(err.message().contains(key), "{}", err.message());
        }
    }
}
