//! Where a loop is ([`State`], [`Stage`]), kept in the run's `state.json`,
//! and what a finished loop reports ([`Summary`]).

use super::write_atomic;
use crate::ratings::Matches;
use crate::Error;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// Where the loop is: the next stage to run.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct State {
    pub generation: u32,
    pub stage: Stage,
    /// The generation self-play uses.
    pub best: u32,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Stage {
    #[default]
    Init,
    Selfplay,
    Train,
    Eval,
    Done,
}

impl Stage {
    pub(super) const ALL: [Stage; 5] = [
        Stage::Init,
        Stage::Selfplay,
        Stage::Train,
        Stage::Eval,
        Stage::Done,
    ];

    /// The name in `state.json` and `timings.csv`.
    pub fn name(self) -> &'static str {
        match self {
            Stage::Init => "init",
            Stage::Selfplay => "selfplay",
            Stage::Train => "train",
            Stage::Eval => "eval",
            Stage::Done => "done",
        }
    }
}

impl State {
    const FILE: &'static str = "state.json";

    /// The run's `state.json` (the start of a run when it is missing).
    pub(super) fn read(run: &Path) -> Result<State, Error> {
        Ok(read_json(&run.join(Self::FILE))?.unwrap_or_default())
    }

    /// Saves the state as the run's `state.json`.
    pub(super) fn write(&self, run: &Path) -> Result<(), Error> {
        write_atomic(
            &run.join(Self::FILE),
            &serde_json::to_string_pretty(self).unwrap_or_default(),
        )
    }
}

/// What a finished (or already complete) loop reports.
#[derive(Clone, Debug)]
pub struct Summary {
    pub state: State,
    pub matches: Matches,
}

/// `path` read as JSON; `None` when it is missing.
pub(super) fn read_json<T: for<'de> Deserialize<'de>>(path: &Path) -> Result<Option<T>, Error> {
    match std::fs::read_to_string(path) {
        Ok(t) => serde_json::from_str(&t)
            .map(Some)
            .map_err(|source| Error::Corrupt {
                path: path.to_path_buf(),
                source,
            }),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(source) => Err(Error::Io {
            path: path.to_path_buf(),
            source,
        }),
    }
}
