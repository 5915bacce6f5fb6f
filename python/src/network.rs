//! triad's policy/value network in Python (`triad.Network`): a checkpoint
//! (`NAME.safetensors` and its `NAME.json` sidecar) loaded through
//! `model::Network::load` (a checkpoint of another game or variant is
//! refused), or a fresh one of `[model]`'s default shape; its policy over
//! a state's legal moves and its win/draw/loss, and saving a checkpoint
//! that the command line loads.

use crate::dynamic::{Answer, DynNet, DynState};
use crate::{value_error, PyGame, PyState};
use pyo3::prelude::*;
use std::sync::Mutex;

/// triad's policy/value network (libtorch through tch, on the CPU).
#[pyclass(module = "triad._triad", name = "Network")]
pub struct PyNetwork {
    inner: Mutex<Box<dyn DynNet>>,
}

fn locked(n: &PyNetwork) -> std::sync::MutexGuard<'_, Box<dyn DynNet>> {
    n.inner.lock().unwrap_or_else(|e| e.into_inner())
}

#[pymethods]
impl PyNetwork {
    /// The checkpoint `path` (`NAME.safetensors` beside its `NAME.json`)
    /// of `game`; `ValueError` naming what is wrong (a missing file, a
    /// checkpoint of another game or variant, another encoding).
    #[staticmethod]
    fn load(game: &PyGame, path: std::path::PathBuf) -> PyResult<PyNetwork> {
        let net = game.inner.load_network(&path).map_err(value_error)?;
        Ok(PyNetwork {
            inner: Mutex::new(net),
        })
    }

    /// A fresh network of `[model]`'s default shape for `game`, its
    /// weights drawn from `seed`.
    #[staticmethod]
    #[pyo3(signature = (game, seed=0))]
    fn fresh(game: &PyGame, seed: u64) -> PyNetwork {
        PyNetwork {
            inner: Mutex::new(game.inner.fresh_network(seed)),
        }
    }

    /// For each state: `(policy, wdl)`, the probabilities of its legal
    /// moves in `legal_actions()` order and its win/draw/loss for the side
    /// to move.
    fn evaluate(&self, py: Python<'_>, states: Vec<PyRef<'_, PyState>>) -> PyResult<Vec<Answer>> {
        let batch: Vec<&dyn DynState> = states.iter().map(|s| s.inner.as_ref()).collect();
        py.detach(|| locked(self).evaluate(&batch))
            .map_err(value_error)
    }

    /// Writes the checkpoint `path` (`NAME.safetensors`) and its sidecar
    /// `NAME.json`, each whole (`step`: the optimiser steps recorded).
    #[pyo3(signature = (path, step=0))]
    fn save(&self, path: std::path::PathBuf, step: u64) -> PyResult<()> {
        locked(self).save(&path, step).map_err(value_error)
    }

    /// The game and variant it plays, `name/variant`.
    #[getter]
    fn game(&self) -> String {
        locked(self).game_text()
    }

    /// Its number of parameters.
    fn parameter_count(&self) -> usize {
        locked(self).parameters()
    }
}
