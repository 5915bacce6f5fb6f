//! The one error of training: bad input (a config value, a checkpoint of
//! another game, shards that hold nothing: exit 2) or a failure while
//! training (a file that cannot be written: exit 1). Each `Display` is its
//! message alone, one line.

use model::CheckpointError;
use runfile::ConfigError;
use std::path::PathBuf;

/// Why a run (or a metrics file) stopped.
#[derive(Debug, thiserror::Error)]
pub enum TrainError {
    /// A `[train]` or `[model]` value out of range, or a device that
    /// cannot be used.
    #[error(transparent)]
    Config(#[from] ConfigError),
    /// A run file (`--config`) that cannot be read.
    #[error("{}: cannot read: {source}", path.display())]
    ReadConfig {
        path: PathBuf,
        source: std::io::Error,
    },
    /// A run file whose `[model]` or `[train]` section is wrong.
    #[error("{}: {source}", path.display())]
    ConfigFile {
        path: PathBuf,
        source: Box<ConfigError>,
    },
    /// A `--mix` part that is not another variant of the run's game.
    #[error(
        "--mix {part}: a mix part must be another variant of {game} (the run's variant is {variant})"
    )]
    MixNotVariant {
        /// The part's `name/variant`.
        part: String,
        /// The run's game.
        game: &'static str,
        /// The run's variant.
        variant: String,
    },
    /// A `--mix` part without shards.
    #[error("--mix {part}: no shards given for it")]
    MixNoShards { part: String },
    /// A `--mix` part whose replay window cannot be opened.
    #[error("--mix {part}: {source}")]
    MixWindow {
        part: String,
        source: Box<TrainError>,
    },
    /// The run directory already holds checkpoints and `--resume` was not
    /// given.
    #[error(
        "{} already holds a run (checkpoints in {}); pass --resume to continue it or choose another --out",
        run_dir.display(),
        checkpoints.display()
    )]
    AlreadyRun {
        run_dir: PathBuf,
        checkpoints: PathBuf,
    },
    /// The run's checkpoint directory cannot be created.
    #[error("{}: {source}", path.display())]
    CreateDir {
        path: PathBuf,
        source: std::io::Error,
    },
    /// A checkpoint to start from (`--init`, `--resume`) that is missing,
    /// of another game or shape, or unreadable. Bad input unless reading
    /// it failed for another reason than a missing, forbidden or invalid
    /// file.
    #[error(transparent)]
    LoadCheckpoint(CheckpointError),
    /// A checkpoint that cannot be written.
    #[error(transparent)]
    SaveCheckpoint(CheckpointError),
    /// An optimiser state beside a checkpoint that cannot be used.
    #[error("{}: optimiser state: {problem}", path.display())]
    OptimizerState {
        path: PathBuf,
        problem: OptimizerStateError,
    },
    /// An optimiser state that cannot be written.
    #[error("{}: {source}", path.display())]
    SaveOptimizer {
        path: PathBuf,
        source: tch::TchError,
    },
    /// Shards that cannot be listed or read.
    #[error(transparent)]
    Data(#[from] data::DataError),
    /// Shards that hold no position.
    #[error("no positions in the shards under {}", list(.data))]
    EmptyWindow { data: Vec<PathBuf> },
    /// The replay window's batches ended (it is endless: a bug or a
    /// reader that died).
    #[error("the batch stream stopped")]
    BatchStreamStopped,
    /// A file of the run (metrics, the config's copy) that cannot
    /// be read or written.
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    /// A metrics file whose header is not ours.
    #[error("{}: not a triad metrics file (header \"{header}\")", path.display())]
    NotMetrics {
        path: PathBuf,
        /// The header found, clipped to 120 characters.
        header: String,
    },
}

/// What is wrong with an optimiser state file.
#[derive(Debug, thiserror::Error)]
pub enum OptimizerStateError {
    /// The file cannot be read as safetensors.
    #[error(transparent)]
    Unreadable(tch::TchError),
    /// The update count is not there.
    #[error("no update count")]
    NoUpdateCount,
    /// A buffer of a variable is not there.
    #[error("missing {key} (another optimiser or network?)")]
    Missing { key: String },
    /// A buffer of another shape than its variable.
    #[error("{key} has shape {found:?}, expected {expected:?}")]
    Shape {
        key: String,
        found: Vec<i64>,
        expected: Vec<i64>,
    },
    /// A buffer that cannot be copied into place.
    #[error("{key}: {source}")]
    Copy { key: String, source: tch::TchError },
}

fn list(paths: &[PathBuf]) -> String {
    paths
        .iter()
        .map(|p| p.display().to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

impl TrainError {
    /// Whether it is bad input the user can fix (exit 2) rather than a
    /// failure while working (exit 1).
    pub fn is_input(&self) -> bool {
        match self {
            TrainError::Config(_)
            | TrainError::ReadConfig { .. }
            | TrainError::ConfigFile { .. }
            | TrainError::MixNotVariant { .. }
            | TrainError::MixNoShards { .. }
            | TrainError::MixWindow { .. }
            | TrainError::AlreadyRun { .. }
            | TrainError::CreateDir { .. }
            | TrainError::OptimizerState { .. }
            | TrainError::Data(_)
            | TrainError::EmptyWindow { .. } => true,
            // A checkpoint given to load that is missing or unreadable is
            // bad input (`train --init /missing` exits 2); only other I/O
            // failures (a disk error while reading) are failures.
            TrainError::LoadCheckpoint(CheckpointError::Io { error, .. }) => matches!(
                error.kind(),
                std::io::ErrorKind::NotFound
                    | std::io::ErrorKind::PermissionDenied
                    | std::io::ErrorKind::InvalidData
            ),
            TrainError::LoadCheckpoint(_) => true,
            TrainError::SaveCheckpoint(_)
            | TrainError::SaveOptimizer { .. }
            | TrainError::BatchStreamStopped
            | TrainError::Io { .. }
            | TrainError::NotMetrics { .. } => false,
        }
    }

    /// The process exit status it maps to: 2 for bad input, 1 for a
    /// failure.
    pub fn exit_code(&self) -> i32 {
        if self.is_input() {
            2
        } else {
            1
        }
    }

    /// The message alone (what `Display` writes).
    pub fn message(&self) -> String {
        self.to_string()
    }
}
