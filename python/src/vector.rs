//! `VectorEnv`: N games of one variant stepped at once, for the
//! random-play and policy-sampling loops researchers write (EnvPool's and
//! Pgx's shape): one Python call moves every game and fills whole NumPy
//! arrays (observations, returns, done flags, legal moves) in place.

use crate::dynamic::{DynGame, DynState};
use crate::{value_error, PyGame, PyState};
use game::{GameResult, SplitMix};
use numpy::{PyArray1, PyArray2, PyArrayDyn, PyArrayMethods, PyReadonlyArray1};
use pyo3::prelude::*;
use std::sync::Arc;

/// N games of one variant, each reset to the start when it ends.
#[pyclass(module = "triad._triad", name = "VectorEnv")]
pub struct VectorEnv {
    game: Arc<dyn DynGame>,
    states: Vec<Box<dyn DynState>>,
    rng: SplitMix,
}

impl VectorEnv {
    fn fresh(&self) -> PyResult<Box<dyn DynState>> {
        self.game
            .new_state(None)
            .map_err(|e| value_error(e.message()))
    }

    fn observations<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArrayDyn<f32>>> {
        let e = self.game.encoding();
        let len = e.plane_len();
        let arr = PyArrayDyn::<f32>::zeros(
            py,
            vec![self.states.len(), e.planes, e.height, e.width],
            false,
        );
        {
            let mut rw = arr.readwrite();
            let out = rw.as_slice_mut().map_err(value_error)?;
            for (s, chunk) in self.states.iter().zip(out.chunks_exact_mut(len.max(1))) {
                s.encode(chunk);
            }
        }
        Ok(arr)
    }
}

#[pymethods]
impl VectorEnv {
    /// `n` games of `game` from its start; `seed` seeds `random_actions`.
    #[new]
    #[pyo3(signature = (game, n, seed=0))]
    fn new(game: &PyGame, n: usize, seed: u64) -> PyResult<VectorEnv> {
        if n == 0 {
            return Err(value_error("n must be at least 1"));
        }
        let mut env = VectorEnv {
            game: game.inner.clone(),
            states: Vec::new(),
            rng: SplitMix::new(seed),
        };
        for _ in 0..n {
            let s = env.fresh()?;
            env.states.push(s);
        }
        Ok(env)
    }

    /// How many games.
    fn __len__(&self) -> usize {
        self.states.len()
    }

    /// Every game back to the start; returns the observations, shape
    /// `(N, planes, height, width)`.
    fn reset<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyArrayDyn<f32>>> {
        for i in 0..self.states.len() {
            self.states[i] = self.fresh()?;
        }
        self.observations(py)
    }

    /// The observations now, shape `(N, planes, height, width)`.
    fn observe<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArrayDyn<f32>>> {
        self.observations(py)
    }

    /// Plays `actions[i]` (a legal move code) in game i. Returns
    /// `(obs, returns, dones, legal)`: the observations after the step
    /// (a finished game is reset, so its row shows the start), returns
    /// `(N, 2)` float32 (each player's +1/-1/0 in the games that just
    /// ended, else 0), dones `(N,)` bool, and `legal_actions()`.
    /// `ValueError` naming the game and the move when one is not legal
    /// (no game moves then).
    #[allow(clippy::type_complexity)]
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        actions: PyReadonlyArray1<'py, i64>,
    ) -> PyResult<(
        Bound<'py, PyArrayDyn<f32>>,
        Bound<'py, PyArray2<f32>>,
        Bound<'py, PyArray1<bool>>,
        Bound<'py, PyArray2<i64>>,
    )> {
        let actions = actions.as_slice().map_err(value_error)?;
        let n = self.states.len();
        if actions.len() != n {
            return Err(value_error(format!(
                "{} actions for {n} games: one action per game",
                actions.len()
            )));
        }
        for (i, (&a, s)) in actions.iter().zip(&self.states).enumerate() {
            if !u32::try_from(a).is_ok_and(|c| s.legal_actions().contains(&c)) {
                return Err(value_error(format!(
                    "game {i}: action {a} is not a legal move in {}",
                    s.position()
                )));
            }
        }
        let returns = PyArray2::<f32>::zeros(py, [n, 2], false);
        let dones = PyArray1::<bool>::zeros(py, n, false);
        {
            let mut r = returns.readwrite();
            let r = r.as_slice_mut().map_err(value_error)?;
            let mut d = dones.readwrite();
            let d = d.as_slice_mut().map_err(value_error)?;
            for i in 0..n {
                self.states[i]
                    .apply_action(actions[i] as u32)
                    .map_err(|e| value_error(e.message()))?;
                if let Some(o) = self.states[i].outcome() {
                    let (w, b) = match o.result {
                        GameResult::WhiteWin => (1.0, -1.0),
                        GameResult::BlackWin => (-1.0, 1.0),
                        GameResult::Draw => (0.0, 0.0),
                    };
                    r[2 * i] = w;
                    r[2 * i + 1] = b;
                    d[i] = true;
                    self.states[i] = self.fresh()?;
                }
            }
        }
        let obs = self.observations(py)?;
        let legal = self.legal_actions(py);
        Ok((obs, returns, dones, legal))
    }

    /// The legal move codes of every game, shape `(N, M)` int64 with M the
    /// most legal moves of any game, padded with -1 (`legal >= 0` is the
    /// mask).
    fn legal_actions<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<i64>> {
        let m = self
            .states
            .iter()
            .map(|s| s.legal_actions().len())
            .max()
            .unwrap_or(0);
        let mut flat = vec![-1i64; self.states.len() * m];
        for (s, row) in self.states.iter().zip(flat.chunks_exact_mut(m.max(1))) {
            for (slot, &c) in row.iter_mut().zip(s.legal_actions()) {
                *slot = c as i64;
            }
        }
        PyArray1::from_vec(py, flat)
            .reshape([self.states.len(), m])
            .expect("the legal moves' array has N * M entries")
    }

    /// One uniformly random legal move per game (seeded by the
    /// constructor's `seed`), shape `(N,)` int64; -1 for a game without
    /// one (none: a finished game restarts at once).
    fn random_actions<'py>(&mut self, py: Python<'py>) -> Bound<'py, PyArray1<i64>> {
        let picks: Vec<i64> = self
            .states
            .iter()
            .map(|s| {
                let legal = s.legal_actions();
                if legal.is_empty() {
                    return -1;
                }
                legal[self.rng.below(legal.len() as u64) as usize] as i64
            })
            .collect();
        PyArray1::from_vec(py, picks)
    }

    /// A copy of game i's state.
    fn state(&self, i: usize) -> PyResult<PyState> {
        let s = self
            .states
            .get(i)
            .ok_or_else(|| value_error(format!("game {i} of {}", self.states.len())))?;
        Ok(PyState {
            inner: s.clone_box(),
        })
    }
}
