//! `triad plot RUN_DIR`: the training curves of a run as SVG or PNG.

use super::CliError;
use std::path::PathBuf;

/// Plot a training run's curves (losses, learning rate, policy entropy and
/// value accuracy, samples per second) from RUN_DIR/metrics.csv.
#[derive(clap::Args)]
#[command(
    after_help = "Text needs a TrueType font: DejaVu Sans or Liberation Sans from the usual\nsystem folders, or TRIAD_FONT=/path/to/font.ttf.\n\nExamples:\n  triad plot runs/demo/train\n  triad plot runs/demo/train --out curves.svg"
)]
pub struct Args {
    /// The run directory (or a metrics.csv file).
    run_dir: PathBuf,
    /// Output file, .png or .svg (default: RUN_DIR/metrics.png).
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
}

pub fn run(args: Args) -> Result<(), CliError> {
    let (csv, dir) = if args.run_dir.is_dir() {
        (args.run_dir.join(train::METRICS_FILE), args.run_dir.clone())
    } else {
        let dir = args.run_dir.parent().map(PathBuf::from).unwrap_or_default();
        (args.run_dir.clone(), dir)
    };
    let rows = train::read_metrics(&csv).map_err(CliError::input)?;
    if rows.is_empty() {
        return Err(CliError::input(format!(
            "{}: no metrics rows yet",
            csv.display()
        )));
    }
    let out = args.out.unwrap_or_else(|| dir.join("metrics.png"));
    let panels = train::plot::metrics_panels(&rows);
    train::plot::render(&panels, &out).map_err(CliError::input)?;
    println!("{}", out.display());
    Ok(())
}
