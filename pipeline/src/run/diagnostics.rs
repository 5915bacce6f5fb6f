//! `diagnostics.csv`: how each stage of each generation used the machine,
//! beside `timings.csv`'s seconds. Self-play rows hold the rates and
//! shares of [`selfplay::shards::Diagnostics`] (evaluations/s, batch fill,
//! network busy share, cache hit rate, CPU per evaluation outside the
//! network, games and positions/s); training rows its samples/s and the
//! share of its time spent waiting for batches. A stage
//! replayed after a kill replaces its row. Like the seconds, the figures
//! are measured in wall time: a resumed run's differ from an uninterrupted
//! one's, its rows do not. `triad plot` draws them.

use super::{write_atomic, Stage};
use crate::Error;
use selfplay::shards::Diagnostics;
use std::path::Path;

/// The columns after `generation,stage`, in order.
pub const COLUMNS: [&str; 10] = [
    "evals_per_s",
    "mean_batch",
    "batch_fill",
    "network_busy",
    "cache_hit_rate",
    "cpu_us_per_eval",
    "games_per_s",
    "positions_per_s",
    "samples_per_s",
    "data_wait_share",
];

/// One stage's figures, `None` where the stage has none (an empty cell).
pub type Figures = [Option<f64>; COLUMNS.len()];

/// A self-play stage's figures.
pub fn of_selfplay(d: &Diagnostics) -> Figures {
    [
        Some(d.evals_per_s),
        Some(d.mean_batch),
        Some(d.batch_fill),
        Some(d.network_busy),
        Some(d.cache_hit_rate),
        Some(d.cpu_us_per_eval),
        Some(d.games_per_s),
        Some(d.positions_per_s),
        None,
        None,
    ]
}

/// A training stage's figures: samples/s and the share of time spent
/// waiting for data (`None`: it took no step).
pub fn of_training(summary: &train::Summary) -> Figures {
    let mut f = [None; COLUMNS.len()];
    if summary.steps_run > 0 {
        f[COLUMNS.len() - 2] = Some(summary.samples_per_s());
        f[COLUMNS.len() - 1] = Some(summary.data_wait_share());
    }
    f
}

/// The rows of a run's `diagnostics.csv`.
#[derive(Default)]
pub struct StageDiagnostics {
    rows: Vec<(u32, Stage, Figures)>,
}

impl StageDiagnostics {
    pub const FILE: &'static str = "diagnostics.csv";

    /// The run's rows (none when the file is missing).
    pub fn read(run: &Path) -> Result<StageDiagnostics, Error> {
        let path = run.join(Self::FILE);
        let text = match std::fs::read_to_string(&path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Ok(StageDiagnostics::default())
            }
            Err(source) => return Err(Error::Unreadable { path, source }),
        };
        let bad = |line: &str| {
            let shown: String = line.chars().take(80).collect();
            Error::BadLine {
                path: path.clone(),
                line: shown,
                what: "diagnostics",
            }
        };
        let mut rows = Vec::new();
        for line in text.lines().skip(1).filter(|l| !l.trim().is_empty()) {
            let cells: Vec<&str> = line.split(',').collect();
            if cells.len() != 2 + COLUMNS.len() {
                return Err(bad(line));
            }
            let g = cells[0].parse().map_err(|_| bad(line))?;
            let stage = Stage::ALL
                .into_iter()
                .find(|s| s.name() == cells[1])
                .ok_or_else(|| bad(line))?;
            let mut figures = [None; COLUMNS.len()];
            for (f, cell) in figures.iter_mut().zip(&cells[2..]) {
                if !cell.is_empty() {
                    *f = Some(cell.parse().map_err(|_| bad(line))?);
                }
            }
            rows.push((g, stage, figures));
        }
        Ok(StageDiagnostics { rows })
    }

    /// Generation `g`'s `stage` measured `figures` (replacing a row of a
    /// replayed stage).
    pub(super) fn record(&mut self, g: u32, stage: Stage, figures: Figures) {
        self.rows.retain(|&(g0, s0, _)| (g0, s0) != (g, stage));
        self.rows.push((g, stage, figures));
    }

    pub(super) fn write(&self, run: &Path) -> Result<(), Error> {
        let mut text = format!("generation,stage,{}\n", COLUMNS.join(","));
        for (g, stage, figures) in &self.rows {
            text.push_str(&format!("{g},{}", stage.name()));
            for f in figures {
                match f {
                    Some(x) => text.push_str(&format!(",{x:.4}")),
                    None => text.push(','),
                }
            }
            text.push('\n');
        }
        write_atomic(&run.join(Self::FILE), &text)
    }

    /// The rows of `stage`: (generation, figures).
    pub fn of_stage(&self, stage: Stage) -> impl Iterator<Item = (u32, &Figures)> {
        self.rows
            .iter()
            .filter(move |r| r.1 == stage)
            .map(|r| (r.0, &r.2))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Rows read back as written, empty cells included; a replayed stage
    /// replaces its row; a damaged file is an error that says what to do.
    #[test]
    fn rows_replace_replayed_stages_and_read_back() {
        let dir = tempfile::tempdir().unwrap();
        let d = Diagnostics {
            games_per_s: 2.0,
            positions_per_s: 50.0,
            evals_per_s: 900.0,
            mean_batch: 60.5,
            batch_fill: 0.95,
            network_busy: 0.9,
            cache_hit_rate: 0.2,
            cpu_us_per_eval: 120.0,
        };
        let mut t = StageDiagnostics::default();
        t.record(1, Stage::Selfplay, of_selfplay(&Diagnostics::default()));
        t.record(1, Stage::Selfplay, of_selfplay(&d));
        let mut f = [None; COLUMNS.len()];
        f[COLUMNS.len() - 2] = Some(1234.5);
        t.record(1, Stage::Train, f);
        t.write(dir.path()).unwrap();
        let back = StageDiagnostics::read(dir.path()).unwrap();
        assert_eq!(back.rows, t.rows);
        assert_eq!(back.of_stage(Stage::Selfplay).count(), 1);
        let text = std::fs::read_to_string(dir.path().join(StageDiagnostics::FILE)).unwrap();
        assert!(text.ends_with("1,train,,,,,,,,,1234.5000,\n"), "{text}");
        std::fs::write(dir.path().join(StageDiagnostics::FILE), "h\n1,cook\n").unwrap();
        let e = StageDiagnostics::read(dir.path())
            .err()
            .unwrap()
            .to_string();
        assert!(e.contains("cook") && e.contains("delete the file"), "{e}");
    }
}
