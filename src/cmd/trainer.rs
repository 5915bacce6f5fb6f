//! `triad trainer`: the trainer of a run in an object store (or a shared
//! folder), fed by `triad worker`s (docs/scale-out.md).

pub use ::cli::flags::trainer::*;

use super::{print_json, CliError};
use crate::cli::stop_on_signal;
use pipeline::options::{run_trainer, TrainerFlags};

pub fn run(args: Args) -> Result<(), CliError> {
    let flags = TrainerFlags {
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
    let report = run_trainer(&args.config, &args.run, &flags, &stop)?;
    if args.json {
        print_json(&report.json());
    } else {
        eprintln!("{}", report.line());
    }
    if report.interrupted {
        return Err(CliError::failed(
            "interrupted: run the same command again to resume",
        ));
    }
    Ok(())
}
