//! `triad worker`: a self-play worker of a run in an object store (or a
//! shared folder): any number of them, on any scheduler, feed one `triad
//! trainer` (docs/scale-out.md).

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use super::{print_json, CliError};
use crate::games::with_game;
use pipeline::load_run;
use pipeline::scale::{self, worker};
use store::Store;

#[derive(clap::Args)]
#[command(
    after_help = "The worker's index comes from --worker, else from the scheduler: \
SLURM_ARRAY_TASK_ID (a Slurm array job), JOB_COMPLETION_INDEX (a Kubernetes Indexed Job) or \
TRIAD_WORKER. It reads the run file the trainer published (RUN/config.toml), polls RUN/LATEST \
between shards (a conditional GET), downloads each new network once and checks its SHA-256, \
plays --games-per-shard games and uploads them as one shard, \
RUN/shards/gNNNNNN/wIIII-<incarnation>-sNNNNNN.parquet, by put-if-absent. SIGTERM or Ctrl-C: \
the games in flight are dropped, finished ones uploaded, and it exits 0. An unreachable store is \
retried with backoff for 5 minutes, saying so on stderr.

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
    run: String,
    /// This worker's index (default: from the scheduler's environment).
    #[arg(long, value_name = "N")]
    worker: Option<u32>,
    /// A local folder for the current network and the shard being written
    /// (default: a folder under the system's temporary folder).
    #[arg(long, value_name = "DIR")]
    work: Option<PathBuf>,
    /// Games per uploaded shard.
    #[arg(long, default_value_t = 16, value_name = "N")]
    games_per_shard: u64,
    /// Stop after uploading this many shards (default: run until stopped).
    #[arg(long, value_name = "N")]
    max_shards: Option<u64>,
    /// Seconds between polls while the trainer has published nothing.
    #[arg(long, default_value_t = 5.0, value_name = "S")]
    poll: f64,
    /// The device of this worker's network, overriding the run file's
    /// [model] device: "cpu", "cuda", "cuda:N" or "auto".
    #[arg(long, value_name = "DEVICE")]
    device: Option<String>,
    /// Seconds to keep retrying an unreachable store (with backoff, saying
    /// so on stderr) before giving up with exit 1.
    #[arg(long, default_value_t = 300.0, value_name = "S")]
    patience: f64,
    /// Print one JSON object (what it played and uploaded) at the end.
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args) -> Result<(), CliError> {
    let index = worker::index(args.worker)?;
    if args.games_per_shard == 0 {
        return Err(CliError::input("--games-per-shard must be at least 1"));
    }
    if !(args.poll.is_finite() && args.poll > 0.0) {
        return Err(CliError::input(
            "--poll must be a positive number of seconds",
        ));
    }
    if !(args.patience.is_finite() && args.patience >= 0.0) {
        return Err(CliError::input(
            "--patience must be a number of seconds ≥ 0",
        ));
    }
    scale::set_patience(Duration::from_secs_f64(args.patience));
    let store = Store::open(&args.run).map_err(|e| CliError::input(format!("--run: {e}")))?;
    let incarnation = scale::incarnation();
    let work = (args.work.clone()).unwrap_or_else(|| worker::default_work(index, &incarnation));
    std::fs::create_dir_all(&work)
        .map_err(|e| CliError::input(format!("--work {}: {e}", work.display())))?;
    let stop = Arc::new(AtomicBool::new(false));
    {
        let stop = stop.clone();
        let _ = ctrlc::set_handler(move || stop.store(true, Ordering::SeqCst));
    }
    let poll = Duration::from_secs_f64(args.poll);
    let config = worker::wait_for_config(&store, &work, poll, &stop)?;
    let Some(config) = config else {
        return Ok(());
    };
    let mut run = load_run(&config)?;
    if let Some(device) = &args.device {
        // This machine's device, whatever the run file says: GPU and CPU
        // workers share a run (checkpoints are stored device-free).
        run.config.model.device = device.clone();
        run.config
            .model
            .tch_device()
            .map_err(|e| CliError::input(format!("--device: {}", e.0)))?;
    }
    let opts = worker::WorkerOptions {
        store: &store,
        worker: index,
        incarnation: incarnation.clone(),
        work: work.clone(),
        games_per_shard: args.games_per_shard,
        max_shards: args.max_shards,
        poll,
        stop: &stop,
    };
    let cfg = &run.config;
    let report = with_game!(run.game, |g| worker::run(&g, cfg, &opts))?;
    if args.work.is_none() {
        let _ = std::fs::remove_dir_all(&work);
    }
    let per_hour = |x: u64| report.per_hour(x);
    if args.json {
        let mut v = serde_json::to_value(&report).unwrap_or_default();
        v["worker"] = index.into();
        v["incarnation"] = incarnation.into();
        v["games_per_hour"] = per_hour(report.games).into();
        v["rows_per_hour"] = per_hour(report.rows).into();
        print_json(&v);
    } else {
        eprintln!(
            "worker {index}: {} shards, {} games, {} rows in {:.1} s ({:.0} games/h; {:.1} s playing, {:.1} s uploading){}",
            report.shards,
            report.games,
            report.rows,
            report.seconds,
            per_hour(report.games),
            report.play_seconds,
            report.upload_seconds,
            if report.interrupted { "; stopped by a signal after uploading its finished games" } else { "" }
        );
    }
    Ok(())
}
