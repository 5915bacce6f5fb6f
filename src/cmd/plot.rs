//! `triad plot RUN_DIR`: the curves of a run as SVG or PNG: for a loop run
//! (`triad loop`), Elo by generation, the scores against the ladder and
//! (with `[eval] suite`) the benchmark error rates next to the training
//! curves; for a training run, the training curves.

pub use ::cli::flags::plot::*;

use super::CliError;
use std::path::PathBuf;

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
