//! `triad worker`: a self-play worker of a run in an object store (or a
//! shared folder): any number of them, on any scheduler, feed one `triad
//! trainer` (docs/scale-out.md).

pub use ::cli::flags::worker::*;

use super::{print_json, CliError};
use crate::cli::stop_on_signal;
use crate::games::with_game;
use pipeline::roles::{prepare_worker, WorkerOutcome, WorkerRequest};
use serde_json::Value;

pub fn run(args: Args) -> Result<(), CliError> {
    let request = WorkerRequest {
        worker: args.worker,
        work: args.work,
        games_per_shard: args.games_per_shard,
        max_shards: args.max_shards,
        poll: args.poll,
        device: args.device,
        patience: args.patience,
    };
    let stop = stop_on_signal();
    let Some(job) = prepare_worker(&args.run, &request, &stop)? else {
        return Ok(());
    };
    let done = with_game!(job.run.game.clone(), |g| job.run(&g, &stop))?;
    if args.json {
        print_json(&json(&done));
    } else {
        eprintln!("{}", line(&done));
    }
    Ok(())
}

/// `--json`: the report, who it was and its rates.
fn json(done: &WorkerOutcome) -> Value {
    let r = &done.report;
    let mut v = serde_json::to_value(r).unwrap_or_default();
    v["worker"] = done.worker.into();
    v["incarnation"] = done.incarnation.clone().into();
    v["games_per_hour"] = r.per_hour(r.games).into();
    v["rows_per_hour"] = r.per_hour(r.rows).into();
    v
}

/// The worker's closing line on stderr.
fn line(done: &WorkerOutcome) -> String {
    let r = &done.report;
    format!(
        "worker {}: {} shards, {} games, {} rows in {:.1} s ({:.0} games/h; {:.1} s playing, {:.1} s uploading){}",
        done.worker,
        r.shards,
        r.games,
        r.rows,
        r.seconds,
        r.per_hour(r.games),
        r.play_seconds,
        r.upload_seconds,
        if r.interrupted { "; stopped by a signal after uploading its finished games" } else { "" }
    )
}
