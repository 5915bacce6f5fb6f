//! Reading a run file: one TOML file describes a run, with a section per
//! stage (`[model]`, `[selfplay]`, `[train]`, `[eval]`, `[loop]`).
//!
//! Each stage crate owns the serde struct of its section and reads only that
//! section with [`parse_section`] / [`load_section`], so it can be used on
//! its own; `triad` reads the whole file with [`parse`]. All of them turn
//! every mistake (syntax, unknown key, bad value) into one line naming the
//! line and the key (`line N: model.block: unknown field …`), because a typo
//! in a config must stop a run before it starts, not be silently ignored
//! hours into it.

use serde::de::{DeserializeOwned, DeserializeSeed, IgnoredAny, MapAccess, Visitor};
use std::fmt;
use std::marker::PhantomData;
use std::path::{Path, PathBuf};

/// A run file (or one of its sections, or a flag standing for a key) that
/// could not be read or makes no sense. `Display` is one line: the file,
/// the line and the key when known, then the problem (`run.toml: line 4:
/// train.window: must be at least 1`).
#[derive(Debug)]
pub struct ConfigError {
    /// The run file, when known.
    pub file: Option<PathBuf>,
    /// The line of the file, when known.
    pub line: Option<usize>,
    /// The key (`train.window`, `shape.blocks`, `--device`), when known.
    pub key: Option<String>,
    /// What is wrong.
    pub problem: ConfigProblem,
}

/// What is wrong with a run file or one of its values.
#[derive(Debug)]
pub enum ConfigProblem {
    /// The file cannot be read.
    Unreadable(std::io::Error),
    /// TOML that does not parse, an unknown key, a value of the wrong type.
    Toml(Box<toml::de::Error>),
    /// A value out of range or in conflict with another; the text says
    /// what is expected.
    Invalid(String),
}

impl fmt::Display for ConfigProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConfigProblem::Unreadable(e) => write!(f, "cannot read: {e}"),
            // toml's own Display is a multi-line snippet: its message alone,
            // any newline flattened to keep one line.
            ConfigProblem::Toml(e) => f.write_str(&e.message().trim().replace('\n', " ")),
            ConfigProblem::Invalid(what) => f.write_str(what),
        }
    }
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(file) = &self.file {
            write!(f, "{}: ", file.display())?;
        }
        if let Some(line) = self.line {
            write!(f, "line {line}: ")?;
        }
        if let Some(key) = &self.key {
            write!(f, "{key}: ")?;
        }
        self.problem.fmt(f)
    }
}

impl std::error::Error for ConfigError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.problem {
            ConfigProblem::Unreadable(e) => Some(e),
            ConfigProblem::Toml(e) => Some(&**e),
            ConfigProblem::Invalid(_) => None,
        }
    }
}

impl ConfigError {
    /// The value of `key` is wrong: `what` says how (`must be at least 1`).
    pub fn invalid(key: impl Into<String>, what: impl Into<String>) -> ConfigError {
        ConfigError {
            file: None,
            line: None,
            key: Some(key.into()),
            problem: ConfigProblem::Invalid(what.into()),
        }
    }

    /// A value that is wrong, before the key it was given for is known
    /// (see [`ConfigError::for_key`]).
    pub fn value(what: impl Into<String>) -> ConfigError {
        ConfigError {
            file: None,
            line: None,
            key: None,
            problem: ConfigProblem::Invalid(what.into()),
        }
    }

    /// The run file `path` cannot be read.
    pub fn unreadable(path: &Path, error: std::io::Error) -> ConfigError {
        ConfigError {
            file: Some(path.to_path_buf()),
            line: None,
            key: None,
            problem: ConfigProblem::Unreadable(error),
        }
    }

    /// The same error, naming the file it is in (an error that names one
    /// already keeps it).
    pub fn in_file(mut self, path: &Path) -> ConfigError {
        if self.file.is_none() {
            self.file = Some(path.to_path_buf());
        }
        self
    }

    /// The same error, naming `key` (the one it names already is replaced:
    /// `model.device` becomes `--device` for the flag).
    pub fn for_key(mut self, key: impl Into<String>) -> ConfigError {
        self.key = Some(key.into());
        self
    }

    /// The message alone (what `Display` writes).
    pub fn message(&self) -> String {
        self.to_string()
    }
}

/// Deserializes a whole run file's text; the error is one line without the
/// file name.
pub fn parse<T: DeserializeOwned>(text: &str) -> Result<T, ConfigError> {
    let de = toml::de::Deserializer::parse(text).map_err(|e| describe(text, e, ""))?;
    serde_path_to_error::deserialize(de).map_err(|e| describe_tracked(text, e))
}

/// Reads the section `name` of a run file's text (`T::default()` when it is
/// absent; other sections are someone else's to check and pass through),
/// then checks it with `validate`.
pub fn parse_section<T: DeserializeOwned + Default>(
    text: &str,
    name: &str,
    validate: impl FnOnce(&T) -> Result<(), ConfigError>,
) -> Result<T, ConfigError> {
    let de = toml::de::Deserializer::parse(text).map_err(|e| describe(text, e, ""))?;
    let mut track = serde_path_to_error::Track::new();
    let seed = SectionSeed::<T> {
        name,
        marker: PhantomData,
    };
    let section = seed
        .deserialize(serde_path_to_error::Deserializer::new(de, &mut track))
        .map_err(|e| {
            let e = serde_path_to_error::Error::new(track.path(), e);
            describe_tracked(text, e)
        })?;
    let section = section.unwrap_or_default();
    validate(&section)?;
    Ok(section)
}

/// [`parse_section`] of a file; every error names the file.
pub fn load_section<T: DeserializeOwned + Default>(
    path: &Path,
    name: &str,
    validate: impl FnOnce(&T) -> Result<(), ConfigError>,
) -> Result<T, ConfigError> {
    let text = std::fs::read_to_string(path).map_err(|e| ConfigError::unreadable(path, e))?;
    parse_section(&text, name, validate).map_err(|e| e.in_file(path))
}

/// Picks one key of the top-level table and deserializes it as `T`,
/// skipping the others (their checks belong to their own sections).
struct SectionSeed<'a, T> {
    name: &'a str,
    marker: PhantomData<T>,
}

impl<'de, T: DeserializeOwned> DeserializeSeed<'de> for SectionSeed<'_, T> {
    type Value = Option<T>;
    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<Option<T>, D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de, T: DeserializeOwned> Visitor<'de> for SectionSeed<'_, T> {
    type Value = Option<T>;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "a run file with an optional [{}] section", self.name)
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Option<T>, A::Error> {
        let mut found = None;
        while let Some(key) = map.next_key::<String>()? {
            if key == self.name {
                found = Some(map.next_value::<T>()?);
            } else {
                map.next_value::<IgnoredAny>()?;
            }
        }
        Ok(found)
    }
}

fn describe_tracked(text: &str, e: serde_path_to_error::Error<toml::de::Error>) -> ConfigError {
    let path = e.path().to_string();
    // serde_path_to_error writes "." for the root.
    let key = if path == "." { "" } else { path.as_str() };
    describe(text, e.into_inner(), key)
}

/// The error naming the line (from the byte span) and the key, each only
/// when known.
fn describe(text: &str, err: toml::de::Error, key: &str) -> ConfigError {
    let line = err.span().map(|span| {
        let start = span.start.min(text.len());
        text[..start].bytes().filter(|&b| b == b'\n').count() + 1
    });
    ConfigError {
        file: None,
        line,
        key: (!key.is_empty()).then(|| key.to_string()),
        problem: ConfigProblem::Toml(Box::new(err)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    /// A stand-in for a stage section, shaped like the real ones.
    #[derive(Debug, Deserialize, PartialEq)]
    #[serde(deny_unknown_fields, default)]
    struct Stage {
        games: u32,
        rate: f64,
    }
    impl Default for Stage {
        fn default() -> Self {
            Stage {
                games: 10,
                rate: 0.5,
            }
        }
    }

    #[derive(Debug, Deserialize, PartialEq, Default)]
    #[serde(deny_unknown_fields, default)]
    struct Run {
        seed: u64,
        stage: Stage,
    }

    #[test]
    fn empty_file_and_empty_section_take_defaults() {
        let run: Run = parse("").unwrap();
        assert_eq!(run.stage, Stage::default());
        let run: Run = parse("# only a comment\n[stage]\n").unwrap();
        assert_eq!(run.stage.games, 10);
        let run: Run = parse("seed = 7\n[stage]\nrate = 0.25\n").unwrap();
        assert_eq!((run.seed, run.stage.games, run.stage.rate), (7, 10, 0.25));
    }

    #[test]
    fn unknown_key_names_section_key_and_line() {
        let err = parse::<Run>("seed = 3\n\n[stage]\ngamez = 4\n").unwrap_err();
        assert!(!err.message().contains('\n'), "{err}");
        assert!(err.message().starts_with("line 4: stage.gamez: "), "{err}");
        assert!(err.message().contains("unknown field `gamez`"), "{err}");
    }

    #[test]
    fn unknown_section_is_an_error() {
        let err = parse::<Run>("[stages]\ngames = 4\n").unwrap_err();
        assert!(err.message().contains("unknown field `stages`"), "{err}");
        assert!(err.message().starts_with("line 1: "), "{err}");
    }

    #[test]
    fn bad_value_names_the_key() {
        let err = parse::<Run>("[stage]\ngames = \"many\"\n").unwrap_err();
        assert!(!err.message().contains('\n'), "{err}");
        assert!(err.message().starts_with("line 2: stage.games: "), "{err}");
        assert!(err.message().contains("invalid type"), "{err}");
        let err = parse::<Run>("seed = -1\n").unwrap_err();
        assert!(err.message().starts_with("line 1: seed: "), "{err}");
    }

    #[test]
    fn syntax_error_is_one_line_with_its_line() {
        let err = parse::<Run>("seed = 1\n[stage\n").unwrap_err();
        assert!(!err.message().contains('\n'), "{err}");
        assert!(err.message().starts_with("line 2: "), "{err}");
    }

    fn positive(s: &Stage) -> Result<(), ConfigError> {
        if s.rate > 0.0 {
            Ok(())
        } else {
            Err(ConfigError::invalid("[stage] rate", "must be positive"))
        }
    }

    #[test]
    fn a_section_takes_defaults_and_ignores_the_others() {
        let s: Stage = parse_section("seed = 2\n[other]\nx = 1\n", "stage", positive).unwrap();
        assert_eq!(s, Stage::default());
        let s: Stage =
            parse_section("[stage]\ngames = 4\n[other]\nx = 1\n", "stage", positive).unwrap();
        assert_eq!(s.games, 4);
    }

    #[test]
    fn section_errors_name_line_and_key_and_file() {
        let e = parse_section::<Stage>("seed = 3\n\n[stage]\ngamez = 4\n", "stage", positive)
            .unwrap_err();
        assert!(
            e.message()
                .starts_with("line 4: stage.gamez: unknown field"),
            "{e}"
        );
        assert_eq!((e.line, e.key.as_deref()), (Some(4), Some("stage.gamez")));
        let e =
            parse_section::<Stage>("[stage]\ngames = \"many\"\n", "stage", positive).unwrap_err();
        assert!(e.message().contains("stage.games"), "{e}");
        let e = parse_section::<Stage>("[stage]\nrate = -1.0\n", "stage", positive).unwrap_err();
        assert_eq!(e.message(), "[stage] rate: must be positive");
        let e = parse_section::<Stage>("[stage\n", "stage", positive).unwrap_err();
        assert!(
            e.message().starts_with("line 1: ") && !e.message().contains('\n'),
            "{e}"
        );
        let missing = Path::new("/nonexistent/run.toml");
        let e = load_section::<Stage>(missing, "stage", positive).unwrap_err();
        assert!(
            e.message()
                .starts_with("/nonexistent/run.toml: cannot read"),
            "{e}"
        );
        assert!(std::error::Error::source(&e).is_some(), "{e:?}");
    }
}
