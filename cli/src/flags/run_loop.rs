//! The flags of `triad loop` (its `run` is `src/cmd/run_loop.rs`).

use std::path::PathBuf;

#[derive(clap::Args)]
#[command(
    after_help = "RUN_DIR holds config.toml (a copy of the run file), state.json, networks/gen-NNNN.*,\ngames/gen-NNNN/ (self-play shards), train/ (the training run), eval/ (match games),\nmatches.json and ratings.csv. Run the same command again to resume; `triad plot RUN_DIR`\ndraws Elo by generation and the training curves. Every stage runs in this process.\n\nExample:\n  triad loop --config configs/quickstart.toml --run runs/quickstart"
)]
pub struct Args {
    /// The run file (all sections: [game], [model], [selfplay], [train], [eval], [loop]).
    #[arg(long, value_name = "FILE")]
    pub config: PathBuf,
    /// The run directory (created if missing; resumed if it holds a run),
    /// or a store URL (s3://, gs://, az://: the loop works in a local
    /// mirror pulled from it and pushed back every minute and at the end).
    #[arg(long, value_name = "RUN_DIR|URL")]
    pub run: PathBuf,
    /// Run to this many generations (replaces [loop] generations): raising
    /// it, here or in the run file, extends a finished run.
    #[arg(long, value_name = "N")]
    pub generations: Option<u32>,
    /// A wall-clock budget in minutes (replaces [loop] minutes; 0: none):
    /// the generation under way when the loop's stages have taken this
    /// long is the run's last. Raising it extends a run that stopped on it.
    #[arg(long, value_name = "M")]
    pub minutes: Option<f64>,
    /// Stop after the last generation without treating it as the run's
    /// end (no `suite_final_sample`, decided ladder rungs not replayed):
    /// for a run extended a few generations at a time, as `triad bench
    /// learn` does.
    #[arg(long)]
    pub open_ended: bool,
    /// Print the final ratings as one JSON object.
    #[arg(long)]
    pub json: bool,
}
