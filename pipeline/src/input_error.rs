//! Bad input to a role, as the commands and the Python module hand it
//! over: a flag out of range, a folder or store that cannot be used,
//! shards that are missing or lie, record files that cannot be read, a
//! run file whose game or suite cannot be built. Each names what was
//! wrong, in one line; all but one are bad input (exit 2): records of
//! which none could be imported are a failed check (exit 1).

use data::import::ImportError;
use std::path::PathBuf;

/// What was wrong with a role's input.
#[derive(Debug, thiserror::Error)]
pub enum InputError {
    /// A flag out of range.
    #[error("{flags} must be {requirement}")]
    Flag {
        /// The flag or flags (`--poll`, `--games`).
        flags: &'static str,
        /// What they must be (`at least 1`).
        requirement: &'static str,
    },
    /// A store (`--run`, `--out`) that cannot be opened.
    #[error("{flag}: {source}")]
    Store {
        flag: &'static str,
        #[source]
        source: store::StoreError,
    },
    /// `--work` that cannot be made.
    #[error("--work {}: {source}", path.display())]
    Work {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// `--device` that this machine does not have.
    #[error("--device: {source}")]
    Device {
        #[source]
        source: runfile::ConfigError,
    },
    /// `--minutes` out of range.
    #[error("--minutes: {source}")]
    Minutes {
        #[source]
        source: runfile::ConfigError,
    },
    /// `--mix GAME=…` whose game cannot be built.
    #[error("--mix {game}: {source}")]
    MixGame {
        game: String,
        #[source]
        source: registry::Error,
    },
    /// `--mix GAME=…` of another game than the run's.
    #[error("--mix {game}: not a variant of {run_game} (the run's game)")]
    MixNotVariant {
        game: String,
        run_game: &'static str,
    },
    /// Shards that cannot be listed.
    #[error(transparent)]
    Shards(data::DataError),
    /// Shards of `--generations` that cannot be listed.
    #[error("--generations {range}: {source}")]
    Generations {
        range: String,
        #[source]
        source: data::DataError,
    },
    /// No shard where shards were asked for.
    #[error("no shards (*.parquet) found in {places}")]
    NoShards {
        /// The places looked in, as given.
        places: String,
    },
    /// No shard of the generations asked for, where others are.
    #[error("--generations {range}: no shards of those generations in {places} (it has generations {first}..{last})")]
    NoShardsOfGenerations {
        range: String,
        places: String,
        first: u32,
        last: u32,
    },
    /// No shard at all where `--generations` looked.
    #[error("--generations {range}: no shards (*.parquet) found in {places}")]
    NoShardsForGenerations { range: String, places: String },
    /// A `[loop]` key the distributed trainer does not take.
    #[error("{key} is for `triad loop`; {advice}")]
    LoopOnly {
        /// The key (`loop.mix`).
        key: &'static str,
        /// What to do instead.
        advice: &'static str,
    },
    /// A shard that fails its game's rules.
    #[error("{}: {fault}: this shard is not what its game's rules say, and is not trained on; `triad data verify` lists every fault, --skip-bad-shards trains on the other shards", path.display())]
    BadShard {
        path: PathBuf,
        /// Its first fault.
        fault: Box<data::verify::Fault>,
    },
    /// `--out` that exists already.
    #[error("{} exists: give --out a new file", path.display())]
    OutExists { path: PathBuf },
    /// A record file that cannot be read.
    #[error("cannot read {}: {source}", path.display())]
    Read {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// Records that cannot be imported.
    #[error(transparent)]
    Import(ImportError),
    /// A run file whose `[game]` cannot be built.
    #[error("{}: {source}", path.display())]
    RunFileGame {
        path: PathBuf,
        #[source]
        source: registry::Error,
    },
    /// A run file whose `[eval] suite` does not hold the game's suite.
    #[error("{}: eval.suite: {source}", path.display())]
    RunFileSuite {
        path: PathBuf,
        #[source]
        source: game::GameError,
    },
}

impl InputError {
    /// Whether it is bad input (exit 2); records of which none could be
    /// imported are a failed check (exit 1).
    pub fn is_input(&self) -> bool {
        !matches!(self, InputError::Import(ImportError::Nothing { .. }))
    }
}
