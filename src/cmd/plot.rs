//! `triad plot RUN_DIR`: the curves of a run as SVG or PNG: for a loop run
//! (`triad loop`), Elo by generation, the scores against the ladder and
//! (with `[eval] suite`) the benchmark error rates next to the training
//! curves; for a training run, the training curves.

use super::CliError;
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
    run_dir: PathBuf,
    /// Output file, .png or .svg (default: RUN_DIR/plot.png for a loop run,
    /// RUN_DIR/metrics.png for a training run).
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
}

pub fn run(mut args: Args) -> Result<(), CliError> {
    // A loop run in a store: plotted from its local mirror (the plot is
    // written there unless --out says otherwise).
    let text = args.run_dir.to_string_lossy().into_owned();
    if let Some(local) = text.strip_prefix("file://") {
        args.run_dir = PathBuf::from(local);
    } else if store::is_url(&args.run_dir) {
        args.run_dir = pipeline::inputs::pull_mirror(&text)?.local;
    }
    let out = pipeline::plot::plot_run(&args.run_dir, args.out.as_deref())?;
    println!("{}", out.display());
    Ok(())
}
