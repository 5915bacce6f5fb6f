//! `triad bench learn`: a learning benchmark. Two (or more) run files, the
//! loop from scratch for each under one seed and the same wall-clock budget
//! on this machine, their generations interleaved so that a change in the
//! machine's load hits every run alike; then the curve of strength against
//! minutes for each, in one plot and one JSON object.
//!
//! Strength is what the runs record: Elo and the score against each rung
//! of the `[eval]` ladder (`ratings.csv`), and with `[eval] suite` the error
//! rate on the game's benchmark positions (`suite.csv`: Connect Four's
//! ground truth). Minutes come from the loop's `timings.csv`. The harness
//! is `bench::learn`.

pub use ::cli::flags::bench::learn::*;

use super::print_figures;
use crate::cmd::CliError;
use ::bench::learn::{self as harness, LearnOptions, RunFile};
use pipeline::load_run;
use std::path::Path;

pub fn run(args: Args) -> Result<(), CliError> {
    if !(args.minutes > 0.0 && args.minutes.is_finite()) {
        return Err(CliError::input(
            "--minutes must be a positive number of minutes",
        ));
    }
    let exe = std::env::current_exe()
        .map_err(|e| CliError::failed(format!("cannot find the triad binary: {e}")))?;
    let options = LearnOptions {
        configs: args.configs.clone(),
        minutes: args.minutes,
        out: args.out.clone(),
        seed: args.seed,
        plot: args.plot.clone(),
        exe,
    };
    let load = |path: &Path| -> Result<RunFile, ::bench::Error> {
        let run = load_run(path).map_err(::bench::Error::Pipeline)?;
        Ok(RunFile {
            game: run.config.game.name.clone(),
            seed: run.config.seed,
            text: run.text,
        })
    };
    let bar = pipeline::bar_with(0, "{bar:30} {msg} [{elapsed}]");
    let f = harness::run(&options, &load, &bar)?;
    if args.json {
        print_figures(&f);
    } else {
        print!("{}", f.text());
    }
    Ok(())
}
