//! `metrics.csv`: one row per logged step, flushed as it is written, so a
//! plot or a `tail -f` sees progress while the run goes on.

use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};

/// The file name in a run directory.
pub const METRICS_FILE: &str = "metrics.csv";

/// Column names, in file order.
pub const COLUMNS: [&str; 9] = [
    "step",
    "loss",
    "policy_loss",
    "value_loss",
    "lr",
    "samples_per_s",
    "policy_entropy",
    "value_accuracy",
    "grad_norm",
];

/// One logged step.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct MetricsRow {
    /// Optimiser steps taken when the row was written (1-based).
    pub step: u64,
    /// `policy_loss + value_loss_weight * value_loss`.
    pub loss: f64,
    /// Weighted cross-entropy against the search's policy target.
    pub policy_loss: f64,
    /// Weighted W/D/L cross-entropy against the game result.
    pub value_loss: f64,
    pub lr: f64,
    /// Training samples per second since the previous row.
    pub samples_per_s: f64,
    /// Mean entropy (nats) of the network's policy over the legal moves.
    pub policy_entropy: f64,
    /// Fraction of finished-game rows whose most likely W/D/L is the result.
    pub value_accuracy: f64,
    /// Global gradient norm before clipping.
    pub grad_norm: f64,
}

impl MetricsRow {
    fn values(&self) -> [f64; 8] {
        [
            self.loss,
            self.policy_loss,
            self.value_loss,
            self.lr,
            self.samples_per_s,
            self.policy_entropy,
            self.value_accuracy,
            self.grad_norm,
        ]
    }

    fn to_line(self) -> String {
        let mut s = self.step.to_string();
        for v in self.values() {
            s.push(',');
            s.push_str(&format!("{v:.6e}"));
        }
        s
    }
}

/// An I/O error on the metrics file `path`.
fn io(path: &Path) -> impl FnOnce(std::io::Error) -> crate::TrainError + '_ {
    move |source| crate::TrainError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// Appends rows to a run's `metrics.csv`.
pub struct MetricsWriter {
    file: File,
    path: PathBuf,
}

impl MetricsWriter {
    /// Opens `dir/metrics.csv` for appending. Rows after `keep_through`
    /// (rows a killed run logged after its last checkpoint, which the
    /// resumed run will log again) are dropped first, by rewriting the file
    /// under a temporary name; `None` starts a fresh file.
    pub fn open(dir: &Path, keep_through: Option<u64>) -> Result<MetricsWriter, crate::TrainError> {
        let path = dir.join(METRICS_FILE);
        let mut kept = vec![COLUMNS.join(",")];
        if let (Some(last), true) = (keep_through, path.exists()) {
            let f = File::open(&path).map_err(io(&path))?;
            for line in BufReader::new(f).lines().skip(1) {
                let line = line.map_err(io(&path))?;
                let step = line.split(',').next().and_then(|s| s.parse::<u64>().ok());
                if step.is_some_and(|s| s <= last) {
                    kept.push(line);
                }
            }
        }
        fsio::write_atomic(&path, (kept.join("\n") + "\n").as_bytes()).map_err(io(&path))?;
        let file = OpenOptions::new()
            .append(true)
            .open(&path)
            .map_err(io(&path))?;
        Ok(MetricsWriter { file, path })
    }

    /// Appends and flushes one row.
    pub fn write(&mut self, row: &MetricsRow) -> Result<(), crate::TrainError> {
        writeln!(self.file, "{}", row.to_line())
            .and_then(|_| self.file.flush())
            .map_err(io(&self.path))
    }
}

/// Reads a metrics file back (for plots and tests). Lines that do not parse
/// (e.g. a line cut by a crash) are skipped.
pub fn read_metrics(path: &Path) -> Result<Vec<MetricsRow>, crate::TrainError> {
    let text = std::fs::read_to_string(path).map_err(io(path))?;
    let mut lines = text.lines();
    let header = lines.next().unwrap_or_default();
    if header.trim() != COLUMNS.join(",") {
        return Err(crate::TrainError::NotMetrics {
            path: path.to_path_buf(),
            header: game::clip(header.trim(), 120).to_string(),
        });
    }
    let mut rows = Vec::new();
    for line in lines {
        let fields: Vec<&str> = line.split(',').collect();
        if fields.len() != COLUMNS.len() {
            continue;
        }
        let Ok(step) = fields[0].parse::<u64>() else {
            continue;
        };
        let v: Result<Vec<f64>, _> = fields[1..].iter().map(|f| f.parse::<f64>()).collect();
        let Ok(v) = v else { continue };
        rows.push(MetricsRow {
            step,
            loss: v[0],
            policy_loss: v[1],
            value_loss: v[2],
            lr: v[3],
            samples_per_s: v[4],
            policy_entropy: v[5],
            value_accuracy: v[6],
            grad_norm: v[7],
        });
    }
    Ok(rows)
}
