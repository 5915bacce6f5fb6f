//! `triad plot RUN_DIR`: the curves of a run as SVG or PNG: for a loop run
//! (`triad loop`), Elo by generation, the scores against the ladder and
//! (with `[eval] suite`) the benchmark error rates next to the training
//! curves; for a training run, the training curves.

use super::CliError;
use std::path::{Path, PathBuf};

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

/// `ratings.csv` of a loop run: Elo by generation, then score per ladder opponent.
fn rating_panels(path: &Path) -> Result<Vec<train::plot::Panel>, CliError> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| CliError::input(format!("{}: {e}", path.display())))?;
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap_or("").split(',').collect();
    // An empty cell: a ladder rung that generation did not play (skipped
    // as decided); its line just has no point there.
    let rows: Vec<Vec<Option<f64>>> = lines
        .map(|l| l.split(',').map(|x| x.parse().ok()).collect())
        .filter(|r: &Vec<Option<f64>>| r.len() == header.len() && r[0].is_some() && r[1].is_some())
        .collect();
    if rows.is_empty() {
        return Err(CliError::input(format!(
            "{}: no generations rated yet",
            path.display()
        )));
    }
    let col = |i: usize| {
        rows.iter()
            .filter_map(|r| Some((r[0]?, r[i]?)))
            .collect::<Vec<_>>()
    };
    let elo = train::plot::Panel::new("Elo (random = 0)", "generation").with("Elo", col(1));
    let mut scores = train::plot::Panel::new("score against the ladder", "generation");
    for (i, h) in header.iter().enumerate().skip(2) {
        scores = scores.with(h.trim_start_matches("score_vs_"), col(i));
    }
    Ok(vec![elo, scores])
}

/// `suite.csv` of a loop run with `[eval] suite`: the benchmark error rate
/// of each file by generation.
fn suite_panel(path: &Path) -> Result<Option<train::plot::Panel>, CliError> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(CliError::input(format!("{}: {e}", path.display()))),
    };
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap_or("").split(',').collect();
    let rows: Vec<Vec<Option<f64>>> = lines
        .map(|l| l.split(',').map(|x| x.parse().ok()).collect())
        .filter(|r: &Vec<Option<f64>>| r.len() == header.len() && r[0].is_some())
        .collect();
    if rows.is_empty() {
        return Ok(None);
    }
    let mut panel = train::plot::Panel::new("benchmark error rate (%)", "generation");
    for (i, h) in header.iter().enumerate().skip(2) {
        let points: Vec<(f64, f64)> = rows.iter().filter_map(|r| Some((r[0]?, r[i]?))).collect();
        panel = panel.with(h, points);
    }
    Ok(Some(panel))
}

pub fn run(mut args: Args) -> Result<(), CliError> {
    // A loop run in a store: plotted from its local mirror (the plot is
    // written there unless --out says otherwise).
    let text = args.run_dir.to_string_lossy().into_owned();
    if let Some(local) = text.strip_prefix("file://") {
        args.run_dir = PathBuf::from(local);
    } else if store::is_url(&args.run_dir) {
        args.run_dir = crate::cli::pull_mirror(&text)?.local;
    }
    let loop_run = args.run_dir.join("ratings.csv");
    let (csv, default_out) = if loop_run.exists() {
        (
            args.run_dir.join("train").join(train::METRICS_FILE),
            args.run_dir.join("plot.png"),
        )
    } else if args.run_dir.is_dir() {
        (
            args.run_dir.join(train::METRICS_FILE),
            args.run_dir.join("metrics.png"),
        )
    } else {
        let dir = args.run_dir.parent().map(PathBuf::from).unwrap_or_default();
        (args.run_dir.clone(), dir.join("metrics.png"))
    };
    let mut panels = Vec::new();
    if loop_run.exists() {
        panels.extend(rating_panels(&loop_run)?);
        panels.extend(suite_panel(&args.run_dir.join("suite.csv"))?);
    }
    if csv.exists() || !loop_run.exists() {
        let rows = train::read_metrics(&csv).map_err(CliError::input)?;
        if rows.is_empty() && panels.is_empty() {
            return Err(CliError::input(format!(
                "{}: no metrics rows yet",
                csv.display()
            )));
        }
        panels.extend(train::plot::metrics_panels(&rows));
    }
    let out = args.out.unwrap_or(default_out);
    train::plot::render(&panels, &out).map_err(CliError::input)?;
    println!("{}", out.display());
    Ok(())
}
