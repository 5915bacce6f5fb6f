//! `triad trainer`: the trainer of a run in an object store (or a shared
//! folder), fed by `triad worker`s (docs/scale-out.md).

pub use ::cli::flags::trainer::*;

use super::{print_json, CliError};
use crate::cli::stop_on_signal;
use crate::games::with_game;
use pipeline::roles::{prepare_trainer, TrainerRequest};
use pipeline::scale::trainer::TrainerReport;
use serde_json::Value;

pub fn run(args: Args) -> Result<(), CliError> {
    let request = TrainerRequest {
        work: args.work,
        generations: args.generations,
        min_new_games: args.min_new_games,
        steps: args.steps,
        max_sample_ratio: args.max_sample_ratio,
        window_generations: args.window_generations,
        poll: args.poll,
        matches: args.matches,
        patience: args.patience,
        no_verify: args.no_verify,
    };
    let stop = stop_on_signal();
    let job = prepare_trainer(&args.config, &args.run, &request)?;
    let report = with_game!(job.run.game.clone(), |g| job.run(&g, &stop))?;
    if args.json {
        print_json(&json(&report));
    } else {
        eprintln!("{}", line(&report));
    }
    if report.interrupted {
        return Err(CliError::failed(
            "interrupted: run the same command again to resume",
        ));
    }
    Ok(())
}

/// `--json`: the report with its ingestion rates.
fn json(report: &TrainerReport) -> Value {
    let mut v = serde_json::to_value(report).unwrap_or_default();
    v["shards_per_s"] = report.shards_per_s().into();
    v["rows_per_s"] = report.rows_per_s().into();
    v
}

/// The trainer's closing line on stderr.
fn line(r: &TrainerReport) -> String {
    format!(
        "trainer: published {:?}; ingested {} shards ({} rows) at {:.1} shards/s, {:.0} rows/s ({:.1} s of it verifying), {} quarantined; {} steps in {:.1} s",
        r.published,
        r.shards_ingested,
        r.rows_ingested,
        r.shards_per_s(),
        r.rows_per_s(),
        r.verify_seconds,
        r.shards_quarantined,
        r.steps,
        r.train_seconds
    )
}
