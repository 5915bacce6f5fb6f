//! How a game is named and built from a `[game]` section: its
//! [`Descriptor`] (registry name, variants, its own keys, and the function
//! that builds it) and the values of its keys ([`OptionValue`]), typed here
//! so that a game crate reads its keys without knowing the run file's
//! format. The registry (`registry/`) lists the descriptors, one line per
//! game (docs/games.md).

use std::collections::BTreeMap;
use std::fmt;

/// One value of a game's own `[game]` key (`capacity = 2`,
/// `commander = "two"`), as the run file, a `--game` flag or a shard's
/// recorded variant gives it. Its `Display` is the value as the run file
/// writes it (`2`, `"two"`, `3.5`), which error messages quote.
#[derive(Debug, Clone, PartialEq)]
pub enum OptionValue {
    /// A whole number.
    Integer(i64),
    /// `true` or `false`.
    Boolean(bool),
    /// Text: `text` is the value itself, `quoted` how the run file writes
    /// it (`"two"`).
    Text { text: String, quoted: String },
    /// A value of another type (a float, a date, an array, a table), as
    /// the run file writes it (`3.5`); no game key takes one.
    Other(String),
}

impl OptionValue {
    /// The value as a whole number, if it is one.
    pub fn as_integer(&self) -> Option<i64> {
        match self {
            OptionValue::Integer(v) => Some(*v),
            _ => None,
        }
    }

    /// The value as text: a text value itself, any other as it is written
    /// (`two`, `true`, `200`), for games whose keys read text.
    pub fn text(&self) -> String {
        match self {
            OptionValue::Text { text, .. } => text.clone(),
            other => other.to_string(),
        }
    }
}

impl fmt::Display for OptionValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionValue::Integer(v) => write!(f, "{v}"),
            OptionValue::Boolean(v) => write!(f, "{v}"),
            OptionValue::Text { quoted, .. } => f.write_str(quoted),
            OptionValue::Other(written) => f.write_str(written),
        }
    }
}

/// A game's own `[game]` keys and their values, in key order (the order in
/// which they are checked, so the first bad key is the one reported).
pub type GameOptions = BTreeMap<String, OptionValue>;

/// What the registry knows of a game `G`: its name, what its variants and
/// keys are (for people), and how to build it. Each game crate declares
/// one (`pub const DESCRIPTOR`); the registry lists them.
pub struct Descriptor<G> {
    /// Its name and help texts.
    pub about: About,
    /// Builds the game of a variant name (`standard` when the section
    /// names none) and the game's own keys. The error is one line naming
    /// the key at fault and what it may be: `game.capacity: 7 is not a
    /// ship capacity 1..6`, `game.variant: ...`, `game.foo: unknown key for
    /// NAME (its keys: ...)`.
    pub build: fn(variant: &str, options: &GameOptions) -> Result<G, crate::GameError>,
}

/// A game's registry name (`Game::NAME`, what `[game] name` and `--game`
/// say) and, for people, its variants and its own `[game]` keys.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct About {
    /// The registry name, equal to the game's `Game::NAME`.
    pub name: &'static str,
    /// Its variants, e.g. `standard (7x6), or WxH`.
    pub variants: &'static str,
    /// Its own `[game]` keys and what they take.
    pub keys: &'static str,
}

/// The error of a key that the game does not have: `game.KEY: unknown key
/// for NAME (its keys: KEYS)`.
pub fn unknown_key(key: &str, game: &str, keys: &str) -> String {
    format!("game.{key}: unknown key for {game} (its keys: {keys})")
}

/// The `width` and `height` keys of a game whose board size is its only
/// option (Connect Four, Pirate Chess): each value goes through `side`,
/// which gives the side or `None`; a refused value is `game.KEY: VALUE is
/// not a board side RANGE`, any other key [`unknown_key`] for `game`.
pub fn board_sides(
    options: &GameOptions,
    game: &str,
    range: &str,
    side: impl Fn(i64) -> Option<u32>,
) -> Result<(Option<u32>, Option<u32>), crate::GameError> {
    let (mut width, mut height) = (None, None);
    for (key, value) in options {
        let slot = match key.as_str() {
            "width" => &mut width,
            "height" => &mut height,
            other => {
                return Err(crate::GameError::options(
                    other,
                    unknown_key(other, game, "width, height"),
                ))
            }
        };
        *slot = Some(value.as_integer().and_then(&side).ok_or_else(|| {
            let message = format!("game.{key}: {value} is not a board side {range}");
            crate::GameError::options(key.as_str(), message)
        })?);
    }
    Ok((width, height))
}
