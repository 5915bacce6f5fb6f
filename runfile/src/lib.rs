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
use std::path::Path;

/// A run file (or one of its sections) that could not be read or makes no
/// sense; the message is one line naming the key (and the file and line
/// when known).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigError(pub String);

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}
impl std::error::Error for ConfigError {}

impl ConfigError {
    /// The message alone (what `Display` writes).
    pub fn message(&self) -> &str {
        &self.0
    }
}

/// For the callers that still carry errors as text: the message.
impl From<ConfigError> for String {
    fn from(e: ConfigError) -> String {
        e.0
    }
}

/// Deserializes a whole run file's text; the error is one line without the
/// file name.
pub fn parse<T: DeserializeOwned>(text: &str) -> Result<T, ConfigError> {
    let de =
        toml::de::Deserializer::parse(text).map_err(|e| ConfigError(describe(text, &e, "")))?;
    serde_path_to_error::deserialize(de).map_err(|e| ConfigError(describe_tracked(text, &e)))
}

/// Reads the section `name` of a run file's text (`T::default()` when it is
/// absent; other sections are someone else's to check and pass through),
/// then checks it with `validate`.
pub fn parse_section<T: DeserializeOwned + Default>(
    text: &str,
    name: &str,
    validate: impl FnOnce(&T) -> Result<(), ConfigError>,
) -> Result<T, ConfigError> {
    let de =
        toml::de::Deserializer::parse(text).map_err(|e| ConfigError(describe(text, &e, "")))?;
    let mut track = serde_path_to_error::Track::new();
    let seed = SectionSeed::<T> {
        name,
        marker: PhantomData,
    };
    let section = seed
        .deserialize(serde_path_to_error::Deserializer::new(de, &mut track))
        .map_err(|e| {
            let e = serde_path_to_error::Error::new(track.path(), e);
            ConfigError(describe_tracked(text, &e))
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
    let text = std::fs::read_to_string(path)
        .map_err(|e| ConfigError(format!("{}: cannot read: {e}", path.display())))?;
    parse_section(&text, name, validate)
        .map_err(|e| ConfigError(format!("{}: {}", path.display(), e.0)))
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

fn describe_tracked(text: &str, e: &serde_path_to_error::Error<toml::de::Error>) -> String {
    let path = e.path().to_string();
    // serde_path_to_error writes "." for the root.
    let key = if path == "." { "" } else { path.as_str() };
    describe(text, e.inner(), key)
}

/// `line N: KEY: message`, each part only when known. toml's own Display is a
/// multi-line snippet, so it is rebuilt from the message and the byte span.
fn describe(text: &str, err: &toml::de::Error, key: &str) -> String {
    let mut out = String::new();
    if let Some(span) = err.span() {
        let start = span.start.min(text.len());
        let line = text[..start].bytes().filter(|&b| b == b'\n').count() + 1;
        out.push_str(&format!("line {line}: "));
    }
    if !key.is_empty() {
        out.push_str(&format!("{key}: "));
    }
    // Messages are short, but flatten any newline to keep one line.
    out.push_str(&err.message().trim().replace('\n', " "));
    out
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
            Err(ConfigError("[stage] rate: must be positive".into()))
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
        assert!(e.0.starts_with("line 4: stage.gamez: unknown field"), "{e}");
        let e =
            parse_section::<Stage>("[stage]\ngames = \"many\"\n", "stage", positive).unwrap_err();
        assert!(e.0.contains("stage.games"), "{e}");
        let e = parse_section::<Stage>("[stage]\nrate = -1.0\n", "stage", positive).unwrap_err();
        assert_eq!(e.0, "[stage] rate: must be positive");
        let e = parse_section::<Stage>("[stage\n", "stage", positive).unwrap_err();
        assert!(e.0.starts_with("line 1: ") && !e.0.contains('\n'), "{e}");
        let missing = Path::new("/nonexistent/run.toml");
        let e = load_section::<Stage>(missing, "stage", positive).unwrap_err();
        assert!(e.0.starts_with("/nonexistent/run.toml: cannot read"), "{e}");
    }
}
