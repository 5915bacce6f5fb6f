//! The flags of `triad bench learn` (its `run` is `src/cmd/bench/learn.rs`).

use std::path::PathBuf;

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
    pub configs: Vec<PathBuf>,
    /// Wall-clock minutes of loop stages per run.
    #[arg(long, value_name = "M")]
    pub minutes: f64,
    /// The folder of the runs (one subfolder per run file).
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    /// The seed of every run (replaces each file's `seed`).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Where to write the plot (.png or .svg; default OUT/learn.png).
    #[arg(long, value_name = "FILE")]
    pub plot: Option<PathBuf>,
    /// Print one JSON object with every run's curve.
    #[arg(long)]
    pub json: bool,
}
