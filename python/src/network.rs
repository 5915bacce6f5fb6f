//! triad's policy/value network in Python (`triad.Network`): a checkpoint
//! (`NAME.safetensors` and its `NAME.json` sidecar) loaded through
//! `model::Network::load` (a checkpoint of another game or variant is
//! refused), or a fresh one of `[model]`'s default shape; its policy over
//! a state's legal moves and its win/draw/loss, and saving a checkpoint
//! that the command line loads.

use crate::dynamic::{DynState, Play};
use crate::{value_error, PyGame, PyState};
use game::{Game, GameTag};
use model::{CheckpointInfo, ModelConfig, Network};
use pyo3::prelude::*;
use std::path::Path;
use std::sync::Mutex;

/// A position's answer: its legal moves' probabilities and its W/D/L.
pub type Answer = (Vec<f32>, [f32; 3]);

/// One network of one game, behind one interface for Python.
pub trait DynNet: Send {
    /// Each state's move probabilities (its legal moves' order) and W/D/L.
    fn evaluate(&self, states: &[&dyn DynState]) -> Result<Vec<Answer>, String>;
    /// Writes the checkpoint and its sidecar (whole files, atomically).
    fn save(&self, path: &Path, step: u64) -> Result<(), String>;
    /// The game and variant it plays, `name/variant`.
    fn game_text(&self) -> String;
    /// Its parameters.
    fn parameters(&self) -> usize;
}

/// A network and the game it plays.
pub struct GameNet<G: Game> {
    game: G,
    net: Network,
}

/// A fresh network of the default `[model]` shape for `game`.
pub fn fresh<G: Game>(game: &G, seed: u64) -> Box<dyn DynNet> {
    let shape = model::Shape::of(&ModelConfig::default(), game.encoding());
    Box::new(GameNet {
        game: game.clone(),
        net: Network::with_shape(shape, tch::Device::Cpu, seed),
    })
}

/// The checkpoint at `path`, which must be of `game`.
pub fn load<G: Game>(game: &G, path: &Path) -> Result<Box<dyn DynNet>, String> {
    let (net, _) =
        Network::load(path, &GameTag::of(game), tch::Device::Cpu).map_err(|e| e.to_string())?;
    Ok(Box::new(GameNet {
        game: game.clone(),
        net,
    }))
}

impl<G: Game> DynNet for GameNet<G> {
    fn evaluate(&self, states: &[&dyn DynState]) -> Result<Vec<Answer>, String> {
        let mut inputs = Vec::with_capacity(states.len());
        for s in states {
            let play = s
                .as_any()
                .downcast_ref::<Play<G>>()
                .filter(|p| p.game().variant() == self.game.variant())
                .ok_or_else(|| {
                    format!(
                        "a state of {}/{} for a network of {}",
                        s.game_name(),
                        s.variant(),
                        self.game_text()
                    )
                })?;
            inputs.push((play.state(), play.repetition_count()));
        }
        if inputs.is_empty() {
            return Ok(Vec::new());
        }
        Ok(self
            .net
            .evaluate(&inputs)
            .into_iter()
            .map(|e| (e.policy, e.wdl))
            .collect())
    }

    fn save(&self, path: &Path, step: u64) -> Result<(), String> {
        let info = CheckpointInfo::new(&GameTag::of(&self.game), self.net.shape(), step);
        self.net.save(path, &info).map_err(|e| e.to_string())
    }

    fn game_text(&self) -> String {
        format!("{}/{}", G::NAME, self.game.variant())
    }

    fn parameters(&self) -> usize {
        self.net.parameter_count()
    }
}

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
