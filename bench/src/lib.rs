//! The benchmarks behind `triad bench`: one harness per layer (shards,
//! learning, the network's forward pass, Pons's Connect Four positions,
//! alpha-beta search, self-play, the trainer), and the one timing module
//! they share. Each harness takes an options struct, reports progress on
//! an `indicatif::ProgressBar` it is given (never printing), and returns a
//! result struct whose serde form is the command's `--json` object; the
//! `triad` binary parses the flags, loads the inputs and prints.

pub mod data;
pub mod env;
pub mod learn;
pub mod model;
pub mod pons;
pub mod search;
pub mod selfplay;
mod text;
pub mod timing;
pub mod train;

use std::path::PathBuf;

/// Why a benchmark did not run to its figures: bad input (exit 2), a
/// measurement or a check that failed (exit 1), or an error of a layer
/// below with its own kind.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A flag out of range.
    #[error("{flags} must be {requirement}")]
    Flag {
        /// The flag or flags (`--max-batch`, `--nodes and --movetime`).
        flags: &'static str,
        /// What they must be (`at least 1`, `positive`).
        requirement: &'static str,
    },
    /// `bench learn`: run files of different games.
    #[error("{}: game `{game}`, but the first run file's is `{first}`; compare run files of one game", path.display())]
    OtherGame {
        path: PathBuf,
        game: String,
        first: String,
    },
    /// A run file that is not TOML.
    #[error("{}: {source}", path.display())]
    RunFile {
        path: PathBuf,
        #[source]
        source: toml::de::Error,
    },
    /// A run file that cannot be written back as TOML.
    #[error("{}: {source}", path.display())]
    RunFileText {
        path: PathBuf,
        #[source]
        source: toml::ser::Error,
    },
    /// A folder that cannot be made (bad input: where the output goes).
    #[error("cannot create {}: {source}", path.display())]
    CreateFolder {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// A file of a run that cannot be read or opened.
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// `triad loop` that cannot be started.
    #[error("cannot start triad loop: {source}")]
    StartLoop {
        #[source]
        source: std::io::Error,
    },
    /// `triad loop` that failed.
    #[error("{run}: triad loop failed ({status}); its log is {}", log.display())]
    LoopFailed {
        run: String,
        status: std::process::ExitStatus,
        log: PathBuf,
    },
    /// A measurement that contradicts itself (a superset measured faster
    /// than its part, rows lost, nothing evaluated).
    #[error("{0}")]
    Measurement(Measurement),
    /// A network that cannot be built from the configuration.
    #[error(transparent)]
    Model(#[from] ::model::ConfigError),
    /// Shards that cannot be written or read back.
    #[error(transparent)]
    Data(#[from] ::data::DataError),
    /// The replay window of the shards given that cannot be loaded (bad
    /// input: the shards are the user's).
    #[error(transparent)]
    Window(::data::DataError),
    /// A game record (of the opening tree) that does not replay.
    #[error(transparent)]
    Record(#[from] ::data::RecordError),
    /// A player of a benchmark that cannot be built or failed.
    #[error(transparent)]
    Player(#[from] eval::PlayerError),
    /// Training's refusal (the replay window).
    #[error(transparent)]
    Train(#[from] ::train::TrainError),
    /// The learning benchmark's plot that cannot be drawn or written (a
    /// failure).
    #[error(transparent)]
    Plot(#[from] ::plot::Error),
    /// Self-play to shards (loading a network, playing, writing), with
    /// its own exit status.
    #[error(transparent)]
    Selfplay(#[from] ::selfplay::ShardsError),
    /// An error of the pipeline layer (a run's files), with its own exit
    /// status.
    #[error(transparent)]
    Pipeline(#[from] pipeline::Error),
}

/// What a failed measurement found.
#[derive(Debug, Clone, PartialEq)]
pub enum Measurement {
    /// Self-play evaluated nothing.
    NothingEvaluated,
    /// Rows written and read back differ.
    RowsLost { written: u64, read: u64 },
    /// The training loop, a superset of the raw step, ran faster.
    SupersetFaster { ratio: f64, limit: f64 },
    /// No rows in the training window.
    NoRows,
    /// No batch of the rows could be decoded.
    NoBatch,
}

impl std::fmt::Display for Measurement {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Measurement::NothingEvaluated => f.write_str("self-play asked the network nothing"),
            Measurement::RowsLost { written, read } => {
                write!(f, "wrote {written} rows, read {read}")
            }
            Measurement::SupersetFaster { ratio, limit } => write!(
                f,
                "failed measurement: the training loop, a superset of the raw step, measured {ratio:.3} times as fast (> {limit}); the machine's load changed between slices or the phases do different work"
            ),
            Measurement::NoRows => f.write_str("no rows to train on"),
            Measurement::NoBatch => f.write_str("no decodable batch in the rows"),
        }
    }
}

impl Error {
    /// The process exit status: 2 for bad input, 1 for a failure, the
    /// lower layer's own where it has one.
    pub fn exit_code(&self) -> i32 {
        match self {
            Error::Flag { .. }
            | Error::OtherGame { .. }
            | Error::RunFile { .. }
            | Error::CreateFolder { .. }
            | Error::Model(_)
            | Error::Window(_)
            | Error::Player(_)
            | Error::Measurement(Measurement::NoRows) => 2,
            Error::Train(e) => e.exit_code(),
            Error::Selfplay(e) => e.exit_code(),
            Error::Pipeline(e) => e.exit_code(),
            _ => 1,
        }
    }
}
