//! The one error type of the pipeline's roles: bad input (the user can fix
//! it: exit 2) or a failure while working (exit 1). Each variant has one
//! kind ([`Error::exit_code`]); its `Display` is the message alone, one
//! line.

use std::path::PathBuf;

#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// Self-play into shards that could not run or stopped (its networks,
    /// its folder, a pool, an upload), each keeping its kind.
    #[error(transparent)]
    Selfplay(#[from] selfplay::ShardsError),
    /// The run mirror's lock was poisoned by a panic (a failure).
    #[error("mirror lock poisoned")]
    MirrorPoisoned,
    /// A run file's key or value that is wrong (bad input).
    #[error(transparent)]
    Config(#[from] runfile::ConfigError),
    /// Bad input to a role: a flag, shards, record files, a run file's
    /// game (exit 2, but for records none of which could be imported).
    #[error(transparent)]
    Request(#[from] crate::InputError),
    /// A game that cannot be built (of a section, a flag, shards): bad
    /// input.
    #[error(transparent)]
    Game(#[from] registry::Error),
    /// A player spec, `[eval]` value, openings file or position that
    /// `eval` refuses: bad input.
    #[error(transparent)]
    Eval(#[from] eval::EvalError),
    /// `[loop] init` that cannot be loaded: bad input.
    #[error("[loop] init: {source}")]
    Init { source: model::CheckpointError },
    /// A network player's checkpoint that cannot be loaded: bad input.
    #[error("player net:{path}: {source}")]
    PlayerCheckpoint {
        /// The path as the spec gives it.
        path: String,
        source: model::CheckpointError,
    },
    /// A network player's checkpoint that does not exist: bad input.
    #[error("player net:{path}: no such checkpoint")]
    NoPlayerCheckpoint { path: String },
    /// `[eval] suite` that cannot be read: bad input.
    #[error("eval.suite: {source}")]
    Suite { source: game::GameError },
    /// `[loop] mix` naming a variant that cannot be built: bad input.
    #[error("[loop] mix: {source}")]
    Mix { source: registry::Error },
    /// `[loop] mix` naming another game's variant: bad input.
    #[error("[loop] mix: {game} is not a variant of the run's game")]
    MixNotVariant {
        /// `name/variant` as read.
        game: String,
    },
    /// `[loop] mix` naming the run's own variant: bad input.
    #[error("[loop] mix: {variant:?} is the run's own variant; list the others")]
    MixOwnVariant { variant: String },
    /// A run directory whose config differs from the one given: bad input.
    #[error(
        "{} holds a run of another config (its config.toml differs in more than [loop] generations and minutes); use the same file or a new run directory",
        run.display()
    )]
    OtherConfig { run: PathBuf },
    /// A store whose run holds another config than the trainer's: bad
    /// input.
    #[error(
        "{url}: the run holds another config.toml: train it with that file (download it) or start a new run at another prefix"
    )]
    StoreOtherConfig { url: String },
    /// A record of the run that does not parse: bad input (removing it
    /// starts that part again).
    #[error("{}: corrupt ({source}); remove it to start that part again", path.display())]
    Corrupt {
        path: PathBuf,
        source: serde_json::Error,
    },
    /// A record of the run that does not parse, named with its error:
    /// bad input.
    #[error("{}: {source}", path.display())]
    BadRecord {
        path: PathBuf,
        source: serde_json::Error,
    },
    /// A generation another trainer published first: this trainer stops
    /// (bad input: one trainer per run).
    #[error(
        "{url}: generation {generation} was published by another trainer ({trainer}) first: this trainer is fenced off and stops (one trainer per run)"
    )]
    Fenced {
        url: String,
        generation: u32,
        trainer: String,
    },
    /// A run in a store without shards: bad input.
    #[error("{url}: no shards in this run ({dir}/)")]
    NoShards { url: String, dir: &'static str },
    /// A worker index from the environment that is not a number: bad
    /// input.
    #[error("{var}={value:?} is not a worker index (a number)")]
    WorkerIndex { var: &'static str, value: String },
    /// No worker index anywhere: bad input.
    #[error(
        "no worker index: give --worker N, or run under a scheduler that sets SLURM_ARRAY_TASK_ID or JOB_COMPLETION_INDEX"
    )]
    NoWorkerIndex,
    /// A local folder (a mirror's) that cannot be created: bad input.
    #[error("{}: {source}", path.display())]
    Folder {
        path: PathBuf,
        source: std::io::Error,
    },
    /// A folder to write to that cannot be created: bad input.
    #[error("cannot create {}: {source}", path.display())]
    CreateOut {
        path: PathBuf,
        source: std::io::Error,
    },
    /// A directory another process holds the lock of: bad input.
    #[error(
        "{} is in use by {command} (pid {pid} on {host}); wait for it to finish, or remove {} if that process is gone",
        dir.display(),
        lock.display()
    )]
    Locked {
        dir: PathBuf,
        lock: PathBuf,
        command: String,
        pid: i32,
        host: String,
    },
    /// A lock file that does not read: bad input.
    #[error(
        "{} holds an unreadable lock file {}; remove it if no triad process uses the directory",
        dir.display(),
        lock.display()
    )]
    UnreadableLock { dir: PathBuf, lock: PathBuf },
    /// A lock taken by another process at the same time: bad input.
    #[error("{}: another process took the lock at the same time; try again", dir.display())]
    LockRace { dir: PathBuf },
    /// A run in the old layout, which must be upgraded first: bad input.
    #[error("{url}: {} ({key})", data::layout::old_layout_message(url))]
    OldLayout {
        url: String,
        /// The first object of the old layout found.
        key: String,
    },
    /// A run named that is not a folder: bad input.
    #[error("{run}: no such folder")]
    NoSuchFolder { run: String },
    /// A curve plot that cannot be drawn: bad input.
    #[error(transparent)]
    Plot(#[from] PlotError),
    /// A match or benchmark suite whose player failed while playing (a
    /// failure).
    #[error(transparent)]
    Play(eval::EvalError),
    /// Training's bad input and failures, each keeping its kind.
    #[error(transparent)]
    Train(#[from] train::TrainError),
    /// A file or folder that cannot be read or written (a failure).
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    /// A folder given (or made for one given) that cannot be created: bad
    /// input.
    #[error("{}: cannot create: {source}", path.display())]
    CannotCreate {
        path: PathBuf,
        source: std::io::Error,
    },
    /// A file of the run that cannot be written (a failure).
    #[error("{}: cannot write: {source}", path.display())]
    CannotWrite {
        path: PathBuf,
        source: std::io::Error,
    },
    /// Shards that cannot be written or read while working (a failure).
    #[error(transparent)]
    Data(data::DataError),
    /// Shards given that cannot be used: bad input.
    #[error(transparent)]
    BadData(data::DataError),
    /// A store (`--run`, `--store`) given that cannot be opened or listed:
    /// bad input.
    #[error(transparent)]
    BadStore(store::StoreError),
    /// A store that failed while working (a failure).
    #[error(transparent)]
    Store(#[from] store::StoreError),
    /// A network that cannot be written or read while working (a
    /// failure).
    #[error(transparent)]
    Checkpoint(#[from] model::CheckpointError),
    /// Training that ended without a checkpoint (a failure).
    #[error("{}: training wrote no checkpoint", dir.display())]
    NoCheckpoint { dir: PathBuf },
    /// A run stopped by a signal before it was done (a failure): running
    /// the same command resumes it.
    #[error(
        "interrupted: the run stopped before generation {generation}'s {stage} stage; run the same command to resume"
    )]
    Interrupted {
        generation: u32,
        /// The stage it stopped before (`Selfplay`, `Train`, `Eval`).
        stage: String,
    },
    /// A file of the run that cannot be read (a failure).
    #[error("cannot read {}: {source}", path.display())]
    Unreadable {
        path: PathBuf,
        source: std::io::Error,
    },
    /// A line of a run's CSV record (`what`: diagnostics, timings) that
    /// does not read (a failure; deleting the file starts it afresh).
    #[error("{}: bad line `{line}`; delete the file to start its {what} afresh", path.display())]
    BadLine {
        path: PathBuf,
        line: String,
        what: &'static str,
    },
    /// A checkpoint that cannot be copied (a failure).
    #[error("cannot copy {} to {}: {source}", from.display(), to.display())]
    Copy {
        from: PathBuf,
        to: PathBuf,
        source: std::io::Error,
    },
    /// A store object that should be there and is not (a failure).
    #[error("{url}: {key} is missing")]
    Missing { url: String, key: String },
    /// The weights a manifest names that are not there (a failure).
    #[error("{url}: {key} is missing (its manifest names it)")]
    MissingWeights { url: String, key: String },
    /// A store object listed that was gone when fetched (a failure).
    #[error("{url}: {key} went away while fetching")]
    WentAway { url: String, key: String },
    /// A store object that does not parse as what it should be (`what`:
    /// a manifest, match results; a failure).
    #[error("{url}: {key}: not {what}: {source}")]
    NotA {
        url: String,
        key: String,
        what: &'static str,
        source: serde_json::Error,
    },
    /// Downloaded weights whose checksum is not the manifest's (a
    /// failure).
    #[error(
        "{url}: {key}: checksum {found} is not the manifest's {expected}: a corrupt download or object"
    )]
    Checksum {
        url: String,
        key: String,
        found: String,
        expected: String,
    },
    /// A sidecar that cannot be read (a failure).
    #[error("{}: unreadable sidecar", path.display())]
    UnreadableSidecar { path: PathBuf },
    /// A sidecar that cannot be written as JSON (a failure).
    #[error("sidecar: {source}")]
    Sidecar { source: serde_json::Error },
    /// An object of the old layout and of the new that differ (a failure:
    /// nothing is deleted).
    #[error(
        "{url}: {old} and {new} both exist and differ: the run was written in both layouts; nothing was deleted"
    )]
    BothLayouts {
        url: String,
        old: String,
        new: String,
    },
    /// Self-play stopped by a signal (a failure: running the loop again
    /// resumes it).
    #[error(
        "interrupted during generation {generation}'s self-play; run the loop again to resume"
    )]
    SelfplayInterrupted { generation: u32 },
    /// A record that cannot be written as JSON (a failure).
    #[error(transparent)]
    Json(#[from] serde_json::Error),
}

impl Error {
    /// Whether it is bad input the user can fix (exit 2) rather than a
    /// failure while working (exit 1).
    pub fn is_input(&self) -> bool {
        match self {
            Error::Request(e) => e.is_input(),
            Error::Selfplay(e) => e.is_input(),
            Error::Config(_)
            | Error::Game(_)
            | Error::Eval(_)
            | Error::CannotCreate { .. }
            | Error::BadData(_)
            | Error::BadStore(_)
            | Error::Init { .. }
            | Error::PlayerCheckpoint { .. }
            | Error::NoPlayerCheckpoint { .. }
            | Error::Suite { .. }
            | Error::Mix { .. }
            | Error::MixNotVariant { .. }
            | Error::MixOwnVariant { .. }
            | Error::OtherConfig { .. }
            | Error::StoreOtherConfig { .. }
            | Error::Corrupt { .. }
            | Error::BadRecord { .. }
            | Error::Fenced { .. }
            | Error::NoShards { .. }
            | Error::WorkerIndex { .. }
            | Error::NoWorkerIndex
            | Error::Folder { .. }
            | Error::CreateOut { .. }
            | Error::Locked { .. }
            | Error::UnreadableLock { .. }
            | Error::LockRace { .. }
            | Error::NoSuchFolder { .. }
            | Error::OldLayout { .. }
            | Error::Plot(_) => true,
            Error::Train(e) => e.is_input(),
            Error::MirrorPoisoned
            | Error::Play(_)
            | Error::Io { .. }
            | Error::CannotWrite { .. }
            | Error::Data(_)
            | Error::Store(_)
            | Error::Checkpoint(_)
            | Error::NoCheckpoint { .. }
            | Error::Interrupted { .. }
            | Error::Unreadable { .. }
            | Error::BadLine { .. }
            | Error::Copy { .. }
            | Error::Missing { .. }
            | Error::MissingWeights { .. }
            | Error::WentAway { .. }
            | Error::NotA { .. }
            | Error::Checksum { .. }
            | Error::UnreadableSidecar { .. }
            | Error::Sidecar { .. }
            | Error::BothLayouts { .. }
            | Error::SelfplayInterrupted { .. }
            | Error::Json(_) => false,
        }
    }

    /// The process exit status it maps to.
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

    /// An I/O failure on `path`.
    pub fn io(path: impl Into<PathBuf>) -> impl FnOnce(std::io::Error) -> Error {
        let path = path.into();
        move |source| Error::Io { path, source }
    }

    /// A folder given that cannot be created.
    pub fn cannot_create(path: impl Into<PathBuf>) -> impl FnOnce(std::io::Error) -> Error {
        let path = path.into();
        move |source| Error::CannotCreate { path, source }
    }
}

/// Why a run's curves could not be drawn: a file that does not read,
/// nothing to plot yet. Each names the file at fault; all are bad input
/// (exit 2).
#[derive(Debug, thiserror::Error)]
pub enum PlotError {
    /// A CSV file of the run that cannot be read.
    #[error("{}: {source}", path.display())]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    /// `ratings.csv` without a rated generation.
    #[error("{}: no generations rated yet", path.display())]
    NoRatings { path: PathBuf },
    /// `metrics.csv` without a row, and nothing else to plot.
    #[error("{}: no metrics rows yet", path.display())]
    NoMetrics { path: PathBuf },
    /// `diagnostics.csv` that does not read.
    #[error(transparent)]
    Diagnostics(Box<Error>),
    /// The metrics file that does not read.
    #[error(transparent)]
    Train(#[from] train::TrainError),
    /// The picture that cannot be drawn or written.
    #[error(transparent)]
    Draw(#[from] plot::Error),
}
