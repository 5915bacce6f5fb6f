//! `triad worker`: a self-play worker of a run in an object store (or a
//! shared folder): any number of them, on any scheduler, feed one `triad
//! trainer` (docs/scale-out.md).

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use super::{print_json, CliError};
use crate::config::load_run;
use crate::games::with_game;
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

/// The worker index: the flag, else the scheduler's variables.
fn worker_index(flag: Option<u32>) -> Result<u32, CliError> {
    if let Some(n) = flag {
        return Ok(n);
    }
    for var in [
        "SLURM_ARRAY_TASK_ID",
        "JOB_COMPLETION_INDEX",
        "TRIAD_WORKER",
    ] {
        if let Ok(v) = std::env::var(var) {
            return v.trim().parse().map_err(|_| {
                CliError::input(format!("{var}={v:?} is not a worker index (a number)"))
            });
        }
    }
    Err(CliError::input(
        "no worker index: give --worker N, or run under a scheduler that sets SLURM_ARRAY_TASK_ID or JOB_COMPLETION_INDEX",
    ))
}

pub fn run(args: Args) -> Result<(), CliError> {
    let index = worker_index(args.worker)?;
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
    let work = args.work.clone().unwrap_or_else(|| {
        std::env::temp_dir().join(format!("triad-worker-{index}-{incarnation}"))
    });
    std::fs::create_dir_all(&work)
        .map_err(|e| CliError::input(format!("--work {}: {e}", work.display())))?;
    let stop = Arc::new(AtomicBool::new(false));
    {
        let stop = stop.clone();
        let _ = ctrlc::set_handler(move || stop.store(true, Ordering::SeqCst));
    }
    let poll = Duration::from_secs_f64(args.poll);
    let config = wait_for_config(&store, &work, poll, &stop)?;
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
    let report = with_game!(run.game, |g| worker::run(&g, cfg, &opts))
        .map_err(crate::cli::pipeline_error)?;
    if args.work.is_none() {
        let _ = std::fs::remove_dir_all(&work);
    }
    let per_hour = |x: u64| x as f64 * 3600.0 / report.seconds.max(1e-9);
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

/// Downloads the run file into `work`, waiting for the trainer to publish
/// it; `None` when stopped first.
fn wait_for_config(
    store: &Store,
    work: &std::path::Path,
    poll: Duration,
    stop: &AtomicBool,
) -> Result<Option<PathBuf>, CliError> {
    let mut said = false;
    loop {
        let got = scale::patiently(store, "reading config.toml", |s| s.get(scale::CONFIG_KEY))
            .map_err(crate::cli::pipeline_error)?;
        if let Some(bytes) = got {
            let path = work.join("config.toml");
            scale::write_whole(&path, &bytes).map_err(crate::cli::pipeline_error)?;
            return Ok(Some(path));
        }
        if !said {
            eprintln!(
                "waiting for the trainer to publish {}/config.toml",
                store.url()
            );
            said = true;
        }
        let until = std::time::Instant::now() + poll;
        while std::time::Instant::now() < until {
            if stop.load(Ordering::SeqCst) {
                return Ok(None);
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}
