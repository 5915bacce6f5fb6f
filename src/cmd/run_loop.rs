//! `triad loop`: generations of self-play, training and evaluation in one
//! run directory, resumable by running the same command again. The loop
//! itself is `pipeline::Loop`; this reads the arguments and the run file,
//! picks the game and prints the ratings.

pub use ::cli::flags::run_loop::*;

use super::CliError;
use crate::cli::{print_either, stop_on_signal};
use pipeline::options::{run_loop, LoopFlags};

pub fn run(args: Args) -> Result<(), CliError> {
    let flags = LoopFlags {
        generations: args.generations,
        minutes: args.minutes,
        open_ended: args.open_ended,
    };
    let stop = stop_on_signal();
    let json = args.json;
    run_loop(&args.config, &args.run, &flags, &stop, &mut |done| {
        print_either(json, || done.json(), || done.text())
    })?;
    Ok(())
}
