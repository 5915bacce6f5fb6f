//! The flags of `triad plot` (its `run` is `src/cmd/plot.rs`).

use std::path::PathBuf;

/// Plot a run: Elo by generation for a `triad loop` run directory, and the
/// training curves (losses, learning rate, policy entropy, value accuracy,
/// samples per second) from metrics.csv.
#[derive(clap::Args)]
#[command(
    after_help = "Text needs a TrueType font: DejaVu Sans or Liberation Sans from the usual\nsystem folders, or TRIAD_FONT=/path/to/font.ttf.\n\nExamples:\n  triad plot runs/quickstart          (a loop run: Elo by generation + training)\n  triad plot runs/demo/train --out curves.svg"
)]
pub struct Args {
    /// The run directory (a loop run, a training run, or a metrics.csv
    /// file), or a loop run's store URL (s3://, gs://, az://, file://).
    pub run_dir: PathBuf,
    /// Output file, .png or .svg (default: RUN_DIR/plot.png for a loop run,
    /// RUN_DIR/metrics.png for a training run).
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
}
