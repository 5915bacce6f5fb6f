//! `triad loop`: generations of self-play, training and evaluation in one
//! run directory, resumable by running the same command again. The loop
//! itself is `pipeline::Loop`; this reads the arguments and the run file,
//! picks the game and prints the ratings.

use super::CliError;
use crate::cli::{print_either, stop_on_signal};
use pipeline::options::{run_loop, LoopFlags};
use std::path::PathBuf;

#[derive(clap::Args)]
#[command(
    after_help = "RUN_DIR holds config.toml (a copy of the run file), state.json, networks/gen-NNNN.*,\ngames/gen-NNNN/ (self-play shards), train/ (the training run), eval/ (match games),\nmatches.json and ratings.csv. Run the same command again to resume; `triad plot RUN_DIR`\ndraws Elo by generation and the training curves. Every stage runs in this process.\n\nExample:\n  triad loop --config configs/quickstart.toml --run runs/quickstart"
)]
pub struct Args {
    /// The run file (all sections: [game], [model], [selfplay], [train], [eval], [loop]).
    #[arg(long, value_name = "FILE")]
    config: PathBuf,
    /// The run directory (created if missing; resumed if it holds a run),
    /// or a store URL (s3://, gs://, az://: the loop works in a local
    /// mirror pulled from it and pushed back every minute and at the end).
    #[arg(long, value_name = "RUN_DIR|URL")]
    run: PathBuf,
    /// Run to this many generations (replaces [loop] generations): raising
    /// it, here or in the run file, extends a finished run.
    #[arg(long, value_name = "N")]
    generations: Option<u32>,
    /// A wall-clock budget in minutes (replaces [loop] minutes; 0: none):
    /// the generation under way when the loop's stages have taken this
    /// long is the run's last. Raising it extends a run that stopped on it.
    #[arg(long, value_name = "M")]
    minutes: Option<f64>,
    /// Stop after the last generation without treating it as the run's
    /// end (no `suite_final_sample`, decided ladder rungs not replayed):
    /// for a run extended a few generations at a time, as `triad bench
    /// learn` does.
    #[arg(long)]
    open_ended: bool,
    /// Print the final ratings as one JSON object.
    #[arg(long)]
    json: bool,
}

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
