//! `triad worker`: a self-play worker of a run in an object store (or a
//! shared folder): any number of them, on any scheduler, feed one `triad
//! trainer` (docs/scale-out.md).

pub use ::cli::flags::worker::*;

use super::{print_json, CliError};
use crate::cli::stop_on_signal;
use pipeline::options::{run_worker, WorkerFlags};

pub fn run(args: Args) -> Result<(), CliError> {
    let flags = WorkerFlags {
        worker: args.worker,
        work: args.work,
        games_per_shard: args.games_per_shard,
        max_shards: args.max_shards,
        poll: args.poll,
        device: args.device,
        patience: args.patience,
    };
    let stop = stop_on_signal();
    match run_worker(&args.run, &flags, &stop)? {
        Some(done) if args.json => print_json(&done.json()),
        Some(done) => eprintln!("{}", done.line()),
        None => {}
    }
    Ok(())
}
