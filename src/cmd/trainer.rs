//! `triad trainer`: the trainer of a run in an object store (or a shared
//! folder), fed by `triad worker`s (docs/scale-out.md).

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use super::{print_json, CliError};
use crate::games::with_game;
use pipeline::load_run;
use pipeline::scale::{self, trainer};
use store::Store;

#[derive(clap::Args)]
#[command(
    after_help = "Publishes the run file as RUN/config.toml (a run holding another \
one is refused) and a fresh network as generation 0, then for each generation: lists \
RUN/shards/, downloads the new shards, waits until --min-new-games new games have come in, \
trains (at most --max-sample-ratio samples per new sample), uploads the weights under a name \
of its own and publishes the generation's manifest RUN/checkpoints/gNNNNNN.json by \
put-if-absent, then RUN/LATEST. A second trainer on the same run loses that put and stops, \
saying so (exit 2). Killed, it resumes from --work (or, with a new one, from the newest \
published network).

Defaults come from the run file: --generations is [loop] generations, --min-new-games \
[loop] games_per_generation, --steps [loop] train_steps_per_generation.

Examples:
  triad trainer --config configs/connect4-quickstart.toml --run s3://triad-runs/c4-01
  triad trainer --config run.toml --run /shared/runs/r1 --work /scratch/r1 --max-sample-ratio 4"
)]
pub struct Args {
    /// The run file.
    #[arg(long, value_name = "FILE")]
    config: PathBuf,
    /// The run: a URL (s3://, gs://, az://, file://) or a path.
    #[arg(long, value_name = "URL")]
    run: String,
    /// A local folder for training state and ingested shards (default: a
    /// folder under the system's temporary folder named after the run).
    #[arg(long, value_name = "DIR")]
    work: Option<PathBuf>,
    /// Train up to this generation (default: [loop] generations).
    #[arg(long, value_name = "N")]
    generations: Option<u32>,
    /// New games needed before a generation (default: [loop] games_per_generation).
    #[arg(long, value_name = "N")]
    min_new_games: Option<u64>,
    /// Training steps per generation (default: [loop] train_steps_per_generation).
    #[arg(long, value_name = "N")]
    steps: Option<u64>,
    /// At most this many samples trained per new sample (0: no cap).
    #[arg(long, default_value_t = 0.0, value_name = "R")]
    max_sample_ratio: f64,
    /// Train on the shards of the last K generations only (0: all).
    #[arg(long, default_value_t = 0, value_name = "K")]
    window_generations: u32,
    /// Seconds between listings while waiting for games.
    #[arg(long, default_value_t = 5.0, value_name = "S")]
    poll: f64,
    /// After each generation, play it against the previous one and the
    /// [eval] ladder with the [eval] settings: RUN/matches/gNNNNNN.json and
    /// the refitted RUN/ratings.md.
    #[arg(long)]
    matches: bool,
    /// Seconds to keep retrying an unreachable store (with backoff, saying
    /// so on stderr) before giving up with exit 1.
    #[arg(long, default_value_t = 300.0, value_name = "S")]
    patience: f64,
    /// Print one JSON object (generations published, ingestion rates) at the end.
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args) -> Result<(), CliError> {
    let run = load_run(&args.config)?;
    if !(args.poll.is_finite() && args.poll > 0.0) {
        return Err(CliError::input(
            "--poll must be a positive number of seconds",
        ));
    }
    if !(args.max_sample_ratio.is_finite() && args.max_sample_ratio >= 0.0) {
        return Err(CliError::input("--max-sample-ratio must be a number ≥ 0"));
    }
    if !(args.patience.is_finite() && args.patience >= 0.0) {
        return Err(CliError::input(
            "--patience must be a number of seconds ≥ 0",
        ));
    }
    scale::set_patience(Duration::from_secs_f64(args.patience));
    let store = Store::open(&args.run).map_err(|e| CliError::input(format!("--run: {e}")))?;
    let cfg = &run.config;
    let work = (args.work.clone()).unwrap_or_else(|| trainer::default_work(&args.run));
    let stop = Arc::new(AtomicBool::new(false));
    {
        let stop = stop.clone();
        let _ = ctrlc::set_handler(move || stop.store(true, Ordering::SeqCst));
    }
    let opts = trainer::TrainerOptions {
        store: &store,
        incarnation: scale::incarnation(),
        work: work.clone(),
        config_text: run.text.clone(),
        generations: args.generations.unwrap_or(cfg.r#loop.generations),
        min_new_games: args
            .min_new_games
            .unwrap_or(cfg.r#loop.games_per_generation),
        steps_per_generation: args.steps.unwrap_or(cfg.r#loop.train_steps_per_generation),
        max_sample_ratio: args.max_sample_ratio,
        window_generations: args.window_generations,
        poll: Duration::from_secs_f64(args.poll),
        matches: args.matches,
        stop: &stop,
    };
    opts.check(cfg)?;
    eprintln!(
        "trainer: run {} (work folder {})",
        store.url(),
        work.display()
    );
    let report = with_game!(run.game, |g| trainer::run(&g, cfg, &opts))?;
    if args.json {
        let mut v = serde_json::to_value(&report).unwrap_or_default();
        v["shards_per_s"] = report.shards_per_s().into();
        v["rows_per_s"] = report.rows_per_s().into();
        print_json(&v);
    } else {
        eprintln!(
            "trainer: published {:?}; ingested {} shards ({} rows) at {:.1} shards/s, {:.0} rows/s; {} steps in {:.1} s",
            report.published,
            report.shards_ingested,
            report.rows_ingested,
            report.shards_per_s(),
            report.rows_per_s(),
            report.steps,
            report.train_seconds
        );
    }
    if report.interrupted {
        return Err(CliError::failed(
            "interrupted: run the same command again to resume",
        ));
    }
    Ok(())
}
