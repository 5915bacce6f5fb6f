//! The benchmark-suite record of a loop run: each generation's network
//! scored on the game's suite (`[eval] suite`; Connect Four: Pons's
//! positions), kept in `suite.json` (every count) and `suite.csv` (error
//! rate in percent by generation and file, what `triad plot` draws beside
//! the ratings).

use crate::files::write_atomic;
use crate::Error;
use eval::suite::SuiteScore;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// One generation's scores.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SuiteRecord {
    pub generation: u32,
    /// The search the network played with (`net:…,sims=N`).
    pub player: String,
    pub files: Vec<SuiteScore>,
}

/// The file names of a run's suite record.
pub const SUITE_JSON: &str = "suite.json";
pub const SUITE_CSV: &str = "suite.csv";

/// Reads `run/suite.json` (empty when there is none yet).
pub fn read(run: &Path) -> Result<Vec<SuiteRecord>, Error> {
    let path = run.join(SUITE_JSON);
    match std::fs::read_to_string(&path) {
        Ok(text) => serde_json::from_str(&text).map_err(|source| Error::BadRecord { path, source }),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Vec::new()),
        Err(source) => Err(Error::Io { path, source }),
    }
}

/// Adds (or, for a generation evaluated again after a resume, replaces)
/// `record` and rewrites both files whole.
pub fn record(run: &Path, record: SuiteRecord) -> Result<(), Error> {
    let mut all = read(run)?;
    all.retain(|r| r.generation != record.generation);
    all.push(record);
    all.sort_by_key(|r| r.generation);
    write_atomic(
        &run.join(SUITE_JSON),
        &serde_json::to_string_pretty(&all).unwrap_or_default(),
    )?;
    write_atomic(&run.join(SUITE_CSV), &csv(&all))
}

/// `generation,positions,<stage>…`: error rates in percent, one column
/// per file in the order of the first record; `positions` is the sample
/// per file (the last generation may use whole files).
pub fn csv(all: &[SuiteRecord]) -> String {
    let stages: Vec<String> = all
        .first()
        .map(|r| r.files.iter().map(|f| f.stage.clone()).collect())
        .unwrap_or_default();
    let mut s = String::from("generation,positions");
    for st in &stages {
        s.push(',');
        s.push_str(&st.replace(',', ";"));
    }
    s.push('\n');
    for r in all {
        let n = r.files.iter().map(|f| f.positions).max().unwrap_or(0);
        s.push_str(&format!("{},{n}", r.generation));
        for st in &stages {
            match r.files.iter().find(|f| &f.stage == st) {
                Some(f) => s.push_str(&format!(",{:.2}", 100.0 * f.error_rate())),
                None => s.push(','),
            }
        }
        s.push('\n');
    }
    s
}
