//! The flags of `triad worker` (its `run` is `src/cmd/worker.rs`).

use std::path::PathBuf;

#[derive(clap::Args)]
#[command(
    after_help = "The worker's index comes from --worker, else from the scheduler: \
SLURM_ARRAY_TASK_ID (a Slurm array job), JOB_COMPLETION_INDEX (a Kubernetes Indexed Job) or \
TRIAD_WORKER. It reads the run file the trainer published (RUN/config.toml), polls RUN/LATEST \
between shards (a conditional GET), downloads each new network once and checks its SHA-256, \
plays --games-per-shard games and uploads them as one shard, \
RUN/games/gen-NNNN/wIIII-<incarnation>-sNNNNNN.parquet, by put-if-absent. SIGTERM or Ctrl-C: \
the games in flight are dropped, finished ones uploaded, and it exits 0. An unreachable store is \
retried with backoff for 5 minutes, saying so on stderr. A run in the old layout \
(shards/gNNNNNN/) is refused: `triad data upgrade RUN` renames it.

Stores: s3://bucket/prefix (AWS_ENDPOINT, AWS_ALLOW_HTTP, AWS_ACCESS_KEY_ID, \
AWS_SECRET_ACCESS_KEY, AWS_REGION), gs://bucket/prefix (GOOGLE_SERVICE_ACCOUNT, …), \
az://container/prefix (AZURE_STORAGE_ACCOUNT_NAME, …), file:///path or a plain path.

Examples:
  triad worker --run s3://triad-runs/c4-01
  SLURM_ARRAY_TASK_ID=3 triad worker --run /shared/runs/c4-01
  triad worker --run s3://triad-runs/c4-01 --worker 0 --max-shards 4 --json"
)]
pub struct Args {
    /// The run: a URL (s3://, gs://, az://, file://) or a path.
    #[arg(long, value_name = "URL")]
    pub run: String,
    /// This worker's index (default: from the scheduler's environment).
    #[arg(long, value_name = "N")]
    pub worker: Option<u32>,
    /// A local folder for the current network and the shard being written
    /// (default: a folder under the system's temporary folder).
    #[arg(long, value_name = "DIR")]
    pub work: Option<PathBuf>,
    /// Games per uploaded shard.
    #[arg(long, default_value_t = 16, value_name = "N")]
    pub games_per_shard: u64,
    /// Stop after uploading this many shards (default: run until stopped).
    #[arg(long, value_name = "N")]
    pub max_shards: Option<u64>,
    /// Seconds between polls while the trainer has published nothing.
    #[arg(long, default_value_t = 5.0, value_name = "S")]
    pub poll: f64,
    /// The device of this worker's network, overriding the run file's
    /// [model] device: "cpu", "cuda", "cuda:N" or "auto".
    #[arg(long, value_name = "DEVICE")]
    pub device: Option<String>,
    /// Seconds to keep retrying an unreachable store (with backoff, saying
    /// so on stderr) before giving up with exit 1.
    #[arg(long, default_value_t = 300.0, value_name = "S")]
    pub patience: f64,
    /// Print one JSON object (what it played and uploaded) at the end.
    #[arg(long)]
    pub json: bool,
}
