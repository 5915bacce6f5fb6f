//! The curves of a run as a picture (`triad plot`): for a loop run, Elo by
//! generation, the scores against the ladder and (with `[eval] suite`) the
//! benchmark error rates, how self-play used the machine
//! (`diagnostics.csv`) next to the training curves; for a training run,
//! the training curves. Reads the run's CSV files into panels and draws
//! them with the `plot` crate.

use crate::Error;
use plot::Panel;
use std::path::{Path, PathBuf};
use train::MetricsRow;

pub use crate::error::PlotError;

fn read(path: &Path) -> impl FnOnce(std::io::Error) -> PlotError + '_ {
    move |source| PlotError::Read {
        path: path.to_path_buf(),
        source,
    }
}

/// `ratings.csv` of a loop run: Elo by generation, then score per ladder opponent.
fn rating_panels(path: &Path) -> Result<Vec<Panel>, PlotError> {
    let text = std::fs::read_to_string(path).map_err(read(path))?;
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap_or("").split(',').collect();
    // An empty cell: a ladder rung that generation did not play (skipped
    // as decided); its line just has no point there.
    let rows: Vec<Vec<Option<f64>>> = lines
        .map(|l| l.split(',').map(|x| x.parse().ok()).collect())
        .filter(|r: &Vec<Option<f64>>| r.len() == header.len() && r[0].is_some() && r[1].is_some())
        .collect();
    if rows.is_empty() {
        return Err(PlotError::NoRatings {
            path: path.to_path_buf(),
        });
    }
    let col = |i: usize| {
        rows.iter()
            .filter_map(|r| Some((r[0]?, r[i]?)))
            .collect::<Vec<_>>()
    };
    let elo = Panel::new("Elo (random = 0)", "generation")
        .y_label("Elo")
        .with("Elo", col(1));
    let mut scores =
        Panel::new("score against the ladder", "generation").y_label("score (win 1, draw 1/2)");
    for (i, h) in header.iter().enumerate().skip(2) {
        scores = scores.with(h.trim_start_matches("score_vs_"), col(i));
    }
    Ok(vec![elo, scores])
}

/// `suite.csv` of a loop run with `[eval] suite`: the benchmark error rate
/// of each file by generation.
fn suite_panel(path: &Path) -> Result<Option<Panel>, PlotError> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(read(path)(e)),
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
    let mut panel = Panel::new("benchmark error rate (%)", "generation").y_label("%");
    for (i, h) in header.iter().enumerate().skip(2) {
        let points: Vec<(f64, f64)> = rows.iter().filter_map(|r| Some((r[0]?, r[i]?))).collect();
        panel = panel.with(h, points);
    }
    Ok(Some(panel))
}

/// `diagnostics.csv` of a loop run: self-play's shares (network busy,
/// batch fill, cache hits) and the rates of self-play and training, by
/// generation. None for a run that has none yet (or predates the file).
fn diagnostics_panels(run_dir: &Path) -> Result<Vec<Panel>, PlotError> {
    use crate::run::diagnostics::{StageDiagnostics, COLUMNS};
    use crate::run::Stage;
    if !run_dir.join(StageDiagnostics::FILE).exists() {
        return Ok(Vec::new());
    }
    let d = StageDiagnostics::read(run_dir).map_err(|e| PlotError::Diagnostics(Box::new(e)))?;
    let series = |stage: Stage, column: &str| -> Vec<(f64, f64)> {
        let i = COLUMNS.iter().position(|c| *c == column).unwrap_or(0);
        d.of_stage(stage)
            .filter_map(|(g, f)| Some((g as f64, f[i]?)))
            .collect()
    };
    let shares = Panel::new("shares of the time (0-1)", "generation")
        .y_label("share")
        .with("network busy", series(Stage::Selfplay, "network_busy"))
        .with("batch fill", series(Stage::Selfplay, "batch_fill"))
        .with("cache hits", series(Stage::Selfplay, "cache_hit_rate"))
        .with(
            "training: waiting for data",
            series(Stage::Train, "data_wait_share"),
        );
    let rates = Panel::new("rates per second", "generation")
        .y_label("per second")
        .with(
            "self-play evaluations",
            series(Stage::Selfplay, "evals_per_s"),
        )
        .with("training samples", series(Stage::Train, "samples_per_s"));
    Ok([shares, rates]
        .into_iter()
        .filter(|p| p.series.iter().any(|s| !s.points.is_empty()))
        .collect())
}

/// The trainer's panels: losses, learning rate, policy entropy and value
/// accuracy, throughput — all by step.
pub fn metrics_panels(rows: &[MetricsRow]) -> Vec<Panel> {
    let col = |f: fn(&MetricsRow) -> f64| -> Vec<(f64, f64)> {
        rows.iter()
            .map(|r| (r.step as f64, f(r)))
            .filter(|p| p.1.is_finite())
            .collect()
    };
    vec![
        Panel::new("Loss", "step")
            .y_label("cross-entropy + MSE (nats)")
            .with("total", col(|r| r.loss))
            .with("policy", col(|r| r.policy_loss))
            .with("value", col(|r| r.value_loss)),
        Panel::new("Learning rate", "step")
            .y_label("per step")
            .with("lr", col(|r| r.lr)),
        Panel::new("Policy entropy (nats) and value accuracy", "step")
            .y_label("nats; share")
            .with("policy entropy", col(|r| r.policy_entropy))
            .with("value accuracy", col(|r| r.value_accuracy)),
        Panel::new("Samples per second", "step")
            .y_label("samples/s")
            .with("samples/s", col(|r| r.samples_per_s)),
    ]
}

/// Draws the curves of the run at `run_dir` (a loop run, a training run, or
/// a metrics.csv file) to `out`, .png or .svg (default: RUN_DIR/plot.png
/// for a loop run, RUN_DIR/metrics.png for a training run), and returns the
/// picture's path. The error ([`Error::Plot`]: nothing to plot, a file
/// that does not read) is one line naming the file at fault.
pub fn plot_run(run_dir: &Path, out: Option<&Path>) -> Result<PathBuf, Error> {
    Ok(plot(run_dir, out)?)
}

/// [`plot_run`] with its own error.
fn plot(run_dir: &Path, out: Option<&Path>) -> Result<PathBuf, PlotError> {
    let loop_run = run_dir.join("ratings.csv");
    let (csv, default_out) = if loop_run.exists() {
        (
            run_dir.join("train").join(train::METRICS_FILE),
            run_dir.join("plot.png"),
        )
    } else if run_dir.is_dir() {
        (
            run_dir.join(train::METRICS_FILE),
            run_dir.join("metrics.png"),
        )
    } else {
        let dir = run_dir.parent().map(PathBuf::from).unwrap_or_default();
        (run_dir.to_path_buf(), dir.join("metrics.png"))
    };
    let mut panels = Vec::new();
    if loop_run.exists() {
        panels.extend(rating_panels(&loop_run)?);
        panels.extend(suite_panel(&run_dir.join(crate::suite::SUITE_CSV))?);
        panels.extend(diagnostics_panels(run_dir)?);
    }
    if csv.exists() || !loop_run.exists() {
        let rows = train::read_metrics(&csv)?;
        if rows.is_empty() && panels.is_empty() {
            return Err(PlotError::NoMetrics { path: csv });
        }
        panels.extend(metrics_panels(&rows));
    }
    let out = out.map_or(default_out, Path::to_path_buf);
    plot::render(&panels, &out)?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The trainer's four panels, by step, from its metrics rows.
    #[test]
    fn metrics_make_four_panels_by_step() {
        let rows: Vec<MetricsRow> = (1..=20)
            .map(|s| MetricsRow {
                step: s * 10,
                loss: 5.0 / s as f64,
                policy_loss: 4.0 / s as f64,
                value_loss: 1.0 / s as f64,
                lr: 1e-3,
                samples_per_s: 1000.0,
                policy_entropy: 3.0,
                value_accuracy: 0.5,
                grad_norm: 1.0,
            })
            .collect();
        let panels = metrics_panels(&rows);
        assert_eq!(panels.len(), 4);
        assert_eq!(panels[0].series.len(), 3);
        assert_eq!(panels[0].series[1].points[1], (20.0, 2.0));
    }
}
