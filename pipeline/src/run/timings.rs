//! `timings.csv`: the seconds of each stage of each generation.

use super::{write_atomic, Stage};
use crate::Error;
use std::path::Path;

/// Wall-clock seconds of each stage of each generation, kept in the run's
/// `timings.csv` (`generation,stage,seconds`): where a run's time goes,
/// and the x axis of strength against time. A stage replayed after a kill
/// replaces its row.
#[derive(Default)]
pub struct Timings {
    rows: Vec<(u32, Stage, f64)>,
}

impl Timings {
    const FILE: &'static str = "timings.csv";

    /// The run's timings (none when the file is missing).
    pub fn read(run: &Path) -> Result<Timings, Error> {
        let path = run.join(Self::FILE);
        let text = match std::fs::read_to_string(&path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Timings::default()),
            Err(source) => return Err(Error::Unreadable { path, source }),
        };
        let bad = |line: &str| Error::BadLine {
            path: path.clone(),
            line: line.to_string(),
            what: "timings",
        };
        let mut rows = Vec::new();
        for line in text.lines().skip(1).filter(|l| !l.trim().is_empty()) {
            let mut f = line.split(',');
            let (Some(g), Some(stage), Some(secs)) = (f.next(), f.next(), f.next()) else {
                return Err(bad(line));
            };
            let stage = Stage::ALL
                .into_iter()
                .find(|s| s.name() == stage)
                .ok_or_else(|| bad(line))?;
            rows.push((
                g.parse().map_err(|_| bad(line))?,
                stage,
                secs.parse().map_err(|_| bad(line))?,
            ));
        }
        Ok(Timings { rows })
    }

    /// Seconds of every recorded stage.
    pub fn total(&self) -> f64 {
        self.rows.iter().map(|r| r.2).sum()
    }

    /// Seconds of the stages of generations up to `g`.
    pub fn through(&self, g: u32) -> f64 {
        self.rows.iter().filter(|r| r.0 <= g).map(|r| r.2).sum()
    }

    pub(super) fn record(&mut self, g: u32, stage: Stage, secs: f64) {
        self.rows.retain(|&(g0, s0, _)| (g0, s0) != (g, stage));
        self.rows.push((g, stage, secs));
    }

    pub(super) fn write(&self, run: &Path) -> Result<(), Error> {
        let mut text = String::from("generation,stage,seconds\n");
        for (g, stage, secs) in &self.rows {
            text.push_str(&format!("{g},{},{secs:.3}\n", stage.name()));
        }
        write_atomic(&run.join(Self::FILE), &text)
    }

    /// One line: each stage's share of the run's recorded time.
    pub(super) fn shares(&self) -> String {
        let total = self.total();
        let parts: Vec<String> = [Stage::Selfplay, Stage::Train, Stage::Eval]
            .iter()
            .map(|&st| {
                let t: f64 = self.rows.iter().filter(|r| r.1 == st).map(|r| r.2).sum();
                format!(
                    "{} {:.0} s ({:.0}%)",
                    st.name(),
                    t,
                    100.0 * t / total.max(1e-9)
                )
            })
            .collect();
        format!("time by stage ({}): {}", Self::FILE, parts.join(", "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A replayed stage replaces its row; the file reads back as written;
    /// a damaged file is an error that says what to do.
    #[test]
    fn timings_replace_replayed_stages_and_read_back() {
        let dir = tempfile::tempdir().unwrap();
        let mut t = Timings::default();
        t.record(0, Stage::Init, 0.5);
        t.record(1, Stage::Selfplay, 10.0);
        t.record(1, Stage::Train, 3.0);
        t.record(1, Stage::Train, 4.0);
        t.record(1, Stage::Eval, 2.0);
        t.write(dir.path()).unwrap();
        let back = Timings::read(dir.path()).unwrap();
        assert_eq!(
            back.rows,
            [
                (0, Stage::Init, 0.5),
                (1, Stage::Selfplay, 10.0),
                (1, Stage::Train, 4.0),
                (1, Stage::Eval, 2.0)
            ]
        );
        assert!(
            back.shares().contains("eval 2 s (12%)"),
            "{}",
            back.shares()
        );
        std::fs::write(
            dir.path().join("timings.csv"),
            "generation,stage,seconds\n1,cook,2\n",
        )
        .unwrap();
        let e = Timings::read(dir.path()).err().unwrap().to_string();
        assert!(e.contains("cook") && e.contains("delete the file"), "{e}");
    }
}
