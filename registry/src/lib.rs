//! The games triad plays, and the one place outside `games/` that names
//! them. Each game crate declares its [`game::Descriptor`] (name, variants,
//! keys, and how to build it from a `[game]` section); the [`games!`] line
//! below lists them, one line per game, and makes of that list [`AnyGame`]
//! (a built game, one variant per game), [`with_game!`] (which hands the
//! concrete game to a generic body, compiled once per game: the hot paths
//! never see a virtual call) and [`GAMES`].
//!
//! A game is built from a [`GameSpec`] (the `[game]` section of a run file,
//! a `--game NAME[/VARIANT]` flag, or the game recorded in shards) by
//! [`build`], [`of_shards`] and [`of_shard_files`]; their [`Error`] says
//! which key is at fault and what it may be. Adding a game: docs/games.md.

use game::{GameOptions, OptionValue};
use std::collections::BTreeMap;
use std::fmt;
use std::path::Path;

/// Makes the registry of a list of games, `Variant(game type) =>
/// descriptor`: the enum [`AnyGame`], the macro [`with_game!`], the list
/// [`GAMES`] and the dispatch of [`build`].
macro_rules! games {
    ($($variant:ident($ty:ty) => $desc:path),+ $(,)?) => {
        games!(@with ($) $($variant($ty) => $desc),+);
    };
    (@with ($d:tt) $($variant:ident($ty:ty) => $desc:path),+) => {
        /// A built game, one variant per game of [`GAMES`].
        #[derive(Debug, Clone)]
        pub enum AnyGame {
            $(
                #[doc = concat!("`", stringify!($ty), "`.")]
                $variant($ty),
            )+
        }

        $(
            impl From<$ty> for AnyGame {
                fn from(g: $ty) -> AnyGame {
                    AnyGame::$variant(g)
                }
            }
        )+

        /// The games triad plays, in the order `triad` lists them.
        pub const GAMES: &[game::About] = &[$($desc.about),+];

        /// Runs `$body` with `$g` bound to the concrete game value of
        /// `$any` (an [`AnyGame`]); the body is compiled once per game.
        #[macro_export]
        macro_rules! with_game {
            ($d any:expr, |$d g:ident| $d body:expr) => {
                match $d any {
                    $($d crate::AnyGame::$variant($d g) => $d body,)+
                }
            };
        }

        /// The game `name` of the registry, built by its descriptor.
        fn build_named(
            name: &str,
            variant: &str,
            options: &GameOptions,
        ) -> Option<Result<AnyGame, game::GameError>> {
            $(
                if name == $desc.about.name {
                    return Some(($desc.build)(variant, options).map(AnyGame::$variant));
                }
            )+
            None
        }
    };
}

// The games, one line each: `Variant(its game::Game type) => its descriptor`.
games! {
    Piratechnics(piratechnics::Piratechnics) => piratechnics::DESCRIPTOR,
    Connect4(connect4::Connect4) => connect4::DESCRIPTOR,
    Influence(influence::Influence) => influence::DESCRIPTOR,
    Pirate(pirate::Pirate) => pirate::DESCRIPTOR,
}

/// The default game when `[game] name` is empty or absent.
pub const DEFAULT_GAME: &str = "piratechnics";

/// Which game to build: its registry name, its variant and its own keys.
/// Empty `name` and `variant` mean [`DEFAULT_GAME`] and `standard`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct GameSpec {
    /// The game's registry name (`[game] name`).
    pub name: String,
    /// The game's variant (`[game] variant`).
    pub variant: String,
    /// The game's own keys (the rest of the `[game]` section).
    pub options: GameOptions,
}

impl GameSpec {
    /// The game of a `[game]` section's name, variant and other keys (as the
    /// run file's TOML values).
    pub fn of_toml(name: &str, variant: &str, options: &BTreeMap<String, toml::Value>) -> GameSpec {
        GameSpec {
            name: name.to_string(),
            variant: variant.to_string(),
            options: options
                .iter()
                .map(|(k, v)| (k.clone(), option_of_toml(v)))
                .collect(),
        }
    }

    /// The game of a `--game NAME[/VARIANT]` flag (e.g. `piratechnics/8x8`).
    pub fn of_flag(flag: &str) -> GameSpec {
        let (name, variant) = flag.split_once('/').unwrap_or((flag, ""));
        GameSpec {
            name: name.to_string(),
            variant: variant.to_string(),
            options: GameOptions::new(),
        }
    }

    /// The game as recorded in shards and checkpoints: its name and its
    /// variant text, whose `key=value` parts after the base name are the
    /// game's own keys (`standard,capacity=5`; a whole number is an
    /// integer, anything else text).
    pub fn recorded(name: &str, variant: &str) -> GameSpec {
        let mut parts = variant.split(',');
        let base = parts.next().unwrap_or("standard");
        let mut options = GameOptions::new();
        for p in parts {
            if let Some((k, v)) = p.split_once('=') {
                let value = v
                    .parse::<i64>()
                    .map(toml::Value::Integer)
                    .unwrap_or_else(|_| toml::Value::String(v.to_string()));
                options.insert(k.to_string(), option_of_toml(&value));
            }
        }
        GameSpec {
            name: name.to_string(),
            variant: base.to_string(),
            options,
        }
    }
}

/// A run file's TOML value as a game key's value; error messages show it
/// as TOML writes it.
pub fn option_of_toml(value: &toml::Value) -> OptionValue {
    match value {
        toml::Value::Integer(v) => OptionValue::Integer(*v),
        toml::Value::Boolean(v) => OptionValue::Boolean(*v),
        toml::Value::String(s) => OptionValue::Text {
            text: s.clone(),
            quoted: value.to_string(),
        },
        other => OptionValue::Other(other.to_string()),
    }
}

/// Why no game could be built. Each is one line (its `Display`).
#[derive(Debug, Clone)]
pub enum Error {
    /// The spec names no game triad plays (`game.name`).
    UnknownGame {
        /// The name asked for.
        name: String,
    },
    /// The game refused the variant or a key; its error names the key at
    /// fault (`game.variant`, `game.capacity`, ...) and what it may be.
    Refused(game::GameError),
    /// A `--game NAME[/VARIANT]` flag whose game cannot be built.
    Flag {
        /// The flag's text.
        flag: String,
        /// Why its game cannot be built.
        source: Box<Error>,
    },
    /// The shards could not be listed or read, or record different games.
    Shards(data::DataError),
    /// The shards record a game (`name/variant`) that cannot be built.
    ShardGame {
        /// The recorded game, `name/variant`.
        game: String,
        /// Why it cannot be built.
        source: Box<Error>,
    },
    /// The first readable shard of a set records a game that cannot be
    /// built.
    ShardFile {
        /// The shard.
        path: std::path::PathBuf,
        /// The game it records, `name/variant`.
        game: String,
        /// Why it cannot be built.
        source: Box<Error>,
    },
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::UnknownGame { name } => write!(
                f,
                "game.name: unknown game {name:?}: triad plays {}",
                GAMES.iter().map(|g| g.name).collect::<Vec<_>>().join(", ")
            ),
            Error::Refused(e) => write!(f, "{e}"),
            Error::Flag { flag, source } => write!(f, "--game {flag}: {source}"),
            Error::Shards(e) => write!(f, "{e}"),
            Error::ShardGame { game, source } => write!(f, "the shards' game {game}: {source}"),
            Error::ShardFile { path, game, source } => {
                write!(f, "{}: {game}: {source}", path.display())
            }
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::UnknownGame { .. } => None,
            Error::Refused(e) => Some(e),
            Error::Shards(e) => Some(e),
            Error::Flag { source, .. }
            | Error::ShardGame { source, .. }
            | Error::ShardFile { source, .. } => Some(source.as_ref()),
        }
    }
}

/// Builds the game of a spec; the error names the key at fault
/// (`game.variant`, `game.capacity`, ...) and what it may be.
pub fn build(spec: &GameSpec) -> Result<AnyGame, Error> {
    let name = if spec.name.is_empty() {
        DEFAULT_GAME
    } else {
        &spec.name
    };
    let variant = if spec.variant.is_empty() {
        "standard"
    } else {
        &spec.variant
    };
    match build_named(name, variant, &spec.options) {
        Some(built) => built.map_err(Error::Refused),
        None => Err(Error::UnknownGame {
            name: name.to_string(),
        }),
    }
}

/// The game of a `--game NAME[/VARIANT]` flag; the error names the flag.
pub fn from_flag(flag: &str) -> Result<AnyGame, Error> {
    build(&GameSpec::of_flag(flag)).map_err(|e| Error::Flag {
        flag: flag.to_string(),
        source: Box::new(e),
    })
}

/// The game the shards under `paths` record (they must all be of one game
/// and variant); PiRaTeKnIcS standard when there are none.
pub fn of_shards<P: AsRef<Path>>(paths: &[P]) -> Result<AnyGame, Error> {
    let shards = data::list_shards(paths).map_err(Error::Shards)?;
    of_shard_files(&shards)
}

/// The game of a list of shards (see [`of_shards`]).
pub fn of_shard_files(shards: &[data::ShardFile]) -> Result<AnyGame, Error> {
    match data::common_game(shards).map_err(Error::Shards)? {
        Some(g) => build(&GameSpec::recorded(&g.name, &g.variant)).map_err(|e| Error::ShardGame {
            game: g.to_string(),
            source: Box::new(e),
        }),
        None => build(&GameSpec::default()),
    }
}

/// The game of the first readable shard of `shards` (unreadable ones are
/// skipped; the explorer's index names them), for `triad explore` and
/// `triad openings --html`; an error names that shard and its game.
pub fn of_readable_shards(shards: &[data::ShardFile]) -> Result<AnyGame, Error> {
    for s in shards {
        if let Ok(Some(g)) = data::shard_game(&s.path) {
            return of_shard_files(std::slice::from_ref(s)).map_err(|e| Error::ShardFile {
                path: s.path.clone(),
                game: g.to_string(),
                source: Box::new(e),
            });
        }
    }
    of_shard_files(&shards[..1])
}

/// Checks the rows of one shard against the rules of their game (the
/// rows' own `game` and `variant`, built here and dispatched to
/// [`data::verify::verify_records`]); no rows pass. An error only when the
/// rows' game cannot be built.
pub fn verify_records(rows: &[data::PositionRecord]) -> Result<data::verify::Checked, Error> {
    let Some(first) = rows.first() else {
        return Ok(data::verify::Checked::default());
    };
    let game =
        build(&GameSpec::recorded(&first.game, &first.variant)).map_err(|e| Error::ShardGame {
            game: first.shard_game().to_string(),
            source: Box::new(e),
        })?;
    Ok(with_game!(&game, |g| data::verify::verify_records(g, rows)))
}

/// Checks every shard of `shards` against the rules of the game its
/// metadata records ([`data::verify::Verifier::shard`]), game ids unique
/// across all of them, and all of one game and variant (the first
/// shard's); `progress` is told the rows of each shard checked. Never an
/// error: an unreadable shard, or one of a game that cannot be built, is a
/// fault of its file.
pub fn verify_shards(
    shards: &[data::ShardFile],
    progress: &mut dyn FnMut(u64),
) -> data::verify::Report {
    use data::verify::{FaultKind, GameIds, ShardCheck};
    let started = std::time::Instant::now();
    let mut ids = GameIds::default();
    let mut built: Vec<(data::ShardGame, AnyGame)> = Vec::new();
    let mut first: Option<(data::ShardGame, &Path)> = None;
    let mut checks = Vec::with_capacity(shards.len());
    for s in shards {
        let path = s.path.as_path();
        let check = match data::shard_game(path) {
            Err(e) => ShardCheck::failed(path, FaultKind::Unreadable, e.message),
            Ok(None) => {
                data::verify::verify_shard(&piratechnics::Piratechnics::standard(), path, &ids)
            }
            Ok(Some(tag)) => {
                let game = match built.iter().find(|(t, _)| *t == tag) {
                    Some((_, g)) => Ok(g.clone()),
                    None => build(&GameSpec::recorded(&tag.name, &tag.variant)).inspect(|g| {
                        built.push((tag.clone(), g.clone()));
                    }),
                };
                let mut check = match game {
                    Ok(g) => with_game!(&g, |g| data::verify::verify_shard(g, path, &ids)),
                    Err(e) => ShardCheck::failed(
                        path,
                        FaultKind::Metadata,
                        format!("the shard's game {tag} cannot be built: {e}"),
                    ),
                };
                match &first {
                    Some((g, p)) if *g != tag => check.checked.faults.insert(
                        0,
                        data::verify::Fault::file(
                            FaultKind::Metadata,
                            format!(
                                "shard is {tag}, but {} is {g}: one run's shards are of one game and variant",
                                p.display()
                            ),
                        ),
                    ),
                    Some(_) => {}
                    None => first = Some((tag, path)),
                }
                check
            }
        };
        ids.add(path, &check.checked.ids);
        progress(check.checked.rows);
        checks.push(check);
    }
    data::verify::Report {
        shards: checks,
        seconds: started.elapsed().as_secs_f64(),
    }
}

impl AnyGame {
    /// The game's registry name (`Game::NAME`).
    pub fn name(&self) -> &'static str {
        fn of<G: game::Game>(_: &G) -> &'static str {
            G::NAME
        }
        with_game!(self, |g| of(g))
    }

    /// The game's variant text, as recorded in shards and checkpoints
    /// (`standard,capacity=5`).
    pub fn variant(&self) -> &str {
        with_game!(self, |g| game::Game::variant(g))
    }

    /// Checks that the folder `dir` holds the game's benchmark suite
    /// ([`game::Game::read_suite`]): a run file's `[eval] suite` is checked
    /// when the file is read, not at the loop's first evaluation.
    pub fn check_suite(&self, dir: &Path) -> Result<(), game::GameError> {
        with_game!(self, |g| game::Game::read_suite(g, dir).map(|_| ()))
    }

    /// The concrete game, if it is a `G` (`game.as_game::<Connect4>()`,
    /// for the tools only one game has).
    pub fn as_game<G: 'static>(&self) -> Option<&G> {
        with_game!(self, |g| (g as &dyn std::any::Any).downcast_ref::<G>())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(name: &str, variant: &str, options: &[(&str, toml::Value)]) -> GameSpec {
        let options = options
            .iter()
            .map(|(k, v)| (k.to_string(), v.clone()))
            .collect();
        GameSpec::of_toml(name, variant, &options)
    }

    fn err(spec: &GameSpec) -> String {
        build(spec).expect_err("an error").to_string()
    }

    /// Every descriptor's name is its game's `Game::NAME`, and each builds
    /// its standard variant.
    #[test]
    fn every_game_builds_under_its_own_name() {
        for about in GAMES {
            let g = build(&spec(about.name, "", &[])).unwrap();
            assert_eq!(g.name(), about.name);
            assert!(g.variant().starts_with("standard") || g.variant().contains('x'));
        }
        assert_eq!(build(&GameSpec::default()).unwrap().name(), DEFAULT_GAME);
    }

    #[test]
    fn errors_name_the_key() {
        use toml::Value::{Float, Integer, String as Text};
        assert_eq!(
            err(&spec("piratechnics", "", &[("capacity", Float(3.5))])),
            "game.capacity: 3.5 is not a ship capacity 1..6"
        );
        assert_eq!(
            err(&spec(
                "piratechnics",
                "",
                &[("capacity", Text("big".into()))]
            )),
            "game.capacity: \"big\" is not a ship capacity 1..6"
        );
        assert_eq!(
            err(&spec("piratechnics", "", &[("foo", Integer(1))])),
            "game.foo: unknown key for piratechnics (its keys: capacity)"
        );
        assert_eq!(
            err(&spec("connect4", "", &[("width", Integer(17))])),
            "game.width: 17 is not a board side 4..16"
        );
        assert_eq!(
            err(&spec("pirate", "", &[("height", Integer(7))])),
            "game.height: 7 is not a board side (even, 6..16)"
        );
        assert_eq!(
            err(&spec("chess", "", &[])),
            "game.name: unknown game \"chess\": triad plays piratechnics, connect4, influence, pirate"
        );
        assert!(err(&GameSpec::of_flag("connect4/9")).starts_with("game.variant: "));
    }

    #[test]
    fn recorded_variants_carry_their_keys() {
        let g = build(&GameSpec::recorded("piratechnics", "standard,capacity=5")).unwrap();
        assert_eq!(g.variant(), "standard,capacity=5");
        let c = build(&GameSpec::of_flag("connect4/8x7")).unwrap();
        let c4 = c.as_game::<connect4::Connect4>().unwrap();
        assert_eq!(game::Game::variant(c4), "8x7");
        assert!(c.as_game::<pirate::Pirate>().is_none());
    }
}
