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

use super::print_figures;
use crate::cmd::CliError;
use ::bench::learn::{self as harness, LearnOptions, RunFile};
use pipeline::load_run;
use std::path::{Path, PathBuf};

#[derive(clap::Args)]
#[command(
    after_help = "Each run file is copied to OUT/<name>/run.toml with `seed` set to --seed (the \
first file's seed by default), and run there by `triad loop` one generation at a time, the \
runs taking turns (`triad loop --open-ended`: no generation is treated as the last), until \
its stages have taken --minutes of wall time (the generation under way when the budget runs \
out is finished). Each loop's log goes to OUT/<name>/loop.log. \
Running the same command again resumes, and a larger --minutes extends. The runs must be of \
one game and should share their [eval] ladder, so that their scores are against the same \
rungs. Writes OUT/learn.png (or --plot FILE): Elo, each rung's score and each benchmark \
file's error rate against minutes, a line per run.\n\n\
Examples:\n  triad bench learn --config configs/connect4-quickstart.toml --config my-c4.toml --minutes 10 --out runs/learn-c4\n  \
triad bench learn --config a.toml --config b.toml --minutes 30 --out runs/ab --json"
)]
pub struct Args {
    /// A run file; give two (or more) to compare.
    #[arg(long = "config", value_name = "FILE", required = true)]
    configs: Vec<PathBuf>,
    /// Wall-clock minutes of loop stages per run.
    #[arg(long, value_name = "M")]
    minutes: f64,
    /// The folder of the runs (one subfolder per run file).
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
    /// The seed of every run (replaces each file's `seed`).
    #[arg(long)]
    seed: Option<u64>,
    /// Where to write the plot (.png or .svg; default OUT/learn.png).
    #[arg(long, value_name = "FILE")]
    plot: Option<PathBuf>,
    /// Print one JSON object with every run's curve.
    #[arg(long)]
    json: bool,
}

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
