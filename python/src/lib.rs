//! `triad._triad`: the extension module of the Python package `triad`
//! (python/triad), built by maturin. It binds the registry's games in
//! pyspiel's words (`load_game`, `Game`, `State`), batch encoding into
//! NumPy arrays without copies, a vectorised environment and the players. The Python layer sees every game through
//! [`dynamic::DynGame`] and [`dynamic::DynState`]; docs/python.md is the
//! user's guide.

mod data;
mod driven;
mod dynamic;
mod error;
mod evaluator;
mod network;
mod players;
mod vector;

use dynamic::{DynGame, DynState};
use game::{GameError, GameResult};
use numpy::{PyArray1, PyArrayDyn, PyArrayMethods, PyReadwriteArrayDyn, PyUntypedArrayMethods};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use std::sync::Arc;

/// A game's refusal as a Python `ValueError` with its message.
pub(crate) fn value_error(e: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(e.to_string())
}

fn game_error(e: GameError) -> PyErr {
    value_error(e.message())
}

/// One game and variant: makes states and says how they are encoded.
#[pyclass(module = "triad._triad", name = "Game", frozen)]
pub struct PyGame {
    pub(crate) inner: Arc<dyn DynGame>,
}

/// One game in progress: its start, its moves and its position.
#[pyclass(module = "triad._triad", name = "State")]
pub struct PyState {
    pub(crate) inner: Box<dyn DynState>,
}

/// `name/variant` of a game.
fn full_name(g: &dyn DynGame) -> String {
    format!("{}/{}", g.name(), g.variant())
}

/// The game of a `--game NAME[/VARIANT]` text (`connect4`,
/// `piratechnics/8x8`, `connect4/6x5`); `ValueError` naming what is wrong.
#[pyfunction]
fn load_game(name: &str) -> PyResult<PyGame> {
    let any = registry::from_flag(name).map_err(value_error)?;
    Ok(PyGame {
        inner: Arc::from(dynamic::of_any(&any)),
    })
}

/// The registry names of the games triad plays.
#[pyfunction]
fn registered_games() -> Vec<&'static str> {
    registry::GAMES.iter().map(|g| g.name).collect()
}

/// Each game's name, its variants and its own keys, as `triad games`
/// describes them.
#[pyfunction]
fn game_descriptions() -> Vec<(&'static str, &'static str, &'static str)> {
    registry::GAMES
        .iter()
        .map(|g| (g.name, g.variants, g.keys))
        .collect()
}

#[pymethods]
impl PyGame {
    /// The registry name (`connect4`).
    #[getter]
    fn name(&self) -> &'static str {
        self.inner.name()
    }

    /// The variant text (`7x6`, `standard`, `standard,capacity=5`).
    #[getter]
    fn variant(&self) -> String {
        self.inner.variant()
    }

    /// The start position, or the position of `position` (a position text
    /// as `triad --position` takes it).
    #[pyo3(signature = (position=None))]
    fn new_initial_state(&self, position: Option<&str>) -> PyResult<PyState> {
        let inner = self.inner.new_state(position).map_err(game_error)?;
        Ok(PyState { inner })
    }

    /// The state of a `State.serialize()` text (start and moves, replayed
    /// and checked).
    fn deserialize_state(&self, text: &str) -> PyResult<PyState> {
        let inner = self.inner.deserialize(text).map_err(game_error)?;
        Ok(PyState { inner })
    }

    /// `(planes, height, width)` of `State.observation_tensor()`.
    fn observation_tensor_shape(&self) -> (usize, usize, usize) {
        let e = self.inner.encoding();
        (e.planes, e.height, e.width)
    }

    /// Numbers per legal move besides its two cells, in the network's
    /// move encoding.
    fn move_features(&self) -> usize {
        self.inner.encoding().move_features
    }

    /// The encoding's version (bumped when a plane changes meaning).
    fn encoding_version(&self) -> u32 {
        self.inner.encoding().version
    }

    /// An exclusive bound of the move codes (action ids): the width for
    /// Connect Four, 7056 for Influence Chess, 2**32 for the games whose
    /// codes are sparse bit fields.
    fn num_distinct_actions(&self) -> u64 {
        self.inner.action_codes()
    }

    /// The game of the variant a position text is on, when the text is of
    /// another variant of this game (Pirate Chess's board sizes); else
    /// this game.
    fn game_for_position(&self, text: &str) -> PyGame {
        match self.inner.game_for_text(text) {
            Some(g) => PyGame {
                inner: Arc::from(g),
            },
            None => PyGame {
                inner: self.inner.clone(),
            },
        }
    }

    fn __str__(&self) -> String {
        full_name(self.inner.as_ref())
    }

    fn __repr__(&self) -> String {
        format!("triad.load_game({:?})", full_name(self.inner.as_ref()))
    }

    fn __eq__(&self, other: &PyGame) -> bool {
        full_name(self.inner.as_ref()) == full_name(other.inner.as_ref())
    }

    fn __hash__(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        full_name(self.inner.as_ref()).hash(&mut h);
        h.finish()
    }
}

#[pymethods]
impl PyState {
    /// The game this state is of.
    fn get_game(&self) -> PyGame {
        PyGame {
            inner: Arc::from(self.inner.game()),
        }
    }

    /// The legal moves' codes in the game's order; `[]` once the game is
    /// over.
    fn legal_actions(&self) -> Vec<u32> {
        self.inner.legal_actions().to_vec()
    }

    /// Plays the move of code `action`; `ValueError` when it is not legal.
    fn apply_action(&mut self, action: i64) -> PyResult<()> {
        let code = u32::try_from(action).map_err(|_| {
            value_error(format!(
                "action {action} is not a legal move in {}",
                self.inner.position()
            ))
        })?;
        self.inner.apply_action(code).map_err(game_error)
    }

    /// 0 (the first player, White) or 1, or -4 (pyspiel's terminal id)
    /// once the game is over.
    fn current_player(&self) -> i32 {
        self.inner.current_player()
    }

    /// Whether the game is over by the rules (repetition included).
    fn is_terminal(&self) -> bool {
        self.inner.outcome().is_some()
    }

    /// `[first, second]`: +1 a win, -1 a loss, 0 a draw or a game not over.
    fn returns(&self) -> [f64; 2] {
        match self.inner.outcome().map(|o| o.result) {
            Some(GameResult::WhiteWin) => [1.0, -1.0],
            Some(GameResult::BlackWin) => [-1.0, 1.0],
            _ => [0.0, 0.0],
        }
    }

    /// `(result, termination)` (`("1-0", "line")`) once over, else None.
    fn outcome(&self) -> Option<(String, String)> {
        self.inner
            .outcome()
            .map(|o| (o.result.to_string(), o.termination.to_string()))
    }

    /// An independent copy.
    fn clone(&self) -> PyState {
        PyState {
            inner: self.inner.clone_box(),
        }
    }

    fn __copy__(&self) -> PyState {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> PyState {
        self.clone()
    }

    /// The codes of the moves played since the start.
    fn history(&self) -> Vec<u32> {
        self.inner.history()
    }

    /// The game's text of the move of code `action` here.
    #[pyo3(signature = (action, player=None))]
    fn action_to_string(&self, action: i64, player: Option<i32>) -> PyResult<String> {
        let _ = player;
        let code = u32::try_from(action)
            .map_err(|_| value_error(format!("action {action} is not a move code")))?;
        self.inner.action_to_string(code).map_err(game_error)
    }

    /// The code of a legal move given in the game's move text.
    #[pyo3(signature = (text, player=None))]
    fn string_to_action(&self, text: &str, player: Option<i32>) -> PyResult<u32> {
        let _ = player;
        self.inner.string_to_action(text).map_err(game_error)
    }

    /// The position's text, as `triad --position` takes it.
    fn position(&self) -> String {
        self.inner.position()
    }

    /// How many times the position has occurred in this game, this time
    /// included.
    fn repetitions(&self) -> u32 {
        self.inner.repetitions()
    }

    /// The start position's text, a newline, then the moves' codes: read
    /// back by `Game.deserialize_state`, history (and so repetition) kept.
    fn serialize(&self) -> String {
        dynamic::serialize(self.inner.as_ref())
    }

    /// The network's input planes of this position, seen from the side to
    /// move: a float32 array of `Game.observation_tensor_shape()`.
    #[pyo3(signature = (player=None))]
    fn observation_tensor<'py>(
        &self,
        py: Python<'py>,
        player: Option<i32>,
    ) -> PyResult<Bound<'py, PyArrayDyn<f32>>> {
        let _ = player;
        let e = self.inner.game().encoding();
        let mut v = vec![0.0f32; e.plane_len()];
        self.inner.encode(&mut v);
        PyArray1::from_vec(py, v).reshape(vec![e.planes, e.height, e.width])
    }

    fn __str__(&self) -> String {
        self.inner.diagram()
    }

    fn __repr__(&self) -> String {
        format!(
            "<triad.State {}/{} {:?}>",
            self.inner.game_name(),
            self.inner.variant(),
            self.inner.position()
        )
    }
}

/// The states of a batch, checked to be of one game and variant; with
/// the planes' length of one.
fn batch_of<'a>(states: &'a [PyRef<'a, PyState>]) -> PyResult<(Vec<&'a dyn DynState>, usize)> {
    let Some(first) = states.first() else {
        return Ok((Vec::new(), 0));
    };
    let (name, variant) = (first.inner.game_name(), first.inner.variant());
    let mut out = Vec::with_capacity(states.len());
    for (i, s) in states.iter().enumerate() {
        if s.inner.game_name() != name || s.inner.variant() != variant {
            return Err(value_error(format!(
                "state {i} is of {}/{}, state 0 of {name}/{variant}: one batch holds one game",
                s.inner.game_name(),
                s.inner.variant()
            )));
        }
        out.push(s.inner.as_ref());
    }
    let len = first.inner.game().encoding().plane_len();
    Ok((out, len))
}

/// Checks that `out` is a C-contiguous float32 array of `n` positions'
/// planes and returns its buffer.
fn check_out<'a>(
    out: &'a mut PyReadwriteArrayDyn<'_, f32>,
    n: usize,
    len: usize,
) -> PyResult<&'a mut [f32]> {
    let shape = out.shape().to_vec();
    let slice = out.as_slice_mut().map_err(|_| {
        value_error("out must be a C-contiguous float32 array (np.empty(..., dtype=np.float32))")
    })?;
    if shape.first() != Some(&n) || slice.len() != n * len {
        return Err(value_error(format!(
            "out has shape {shape:?}: it must hold {n} positions of {len} floats, shape (N, planes, height, width)"
        )));
    }
    Ok(slice)
}

/// Encodes `states` (one game and variant) into `out`, a preallocated
/// C-contiguous float32 array of shape `(len(states), planes, height,
/// width)`, in place: no copy and no allocation per call.
#[pyfunction]
fn encode_batch(
    py: Python<'_>,
    states: Vec<PyRef<'_, PyState>>,
    mut out: PyReadwriteArrayDyn<'_, f32>,
) -> PyResult<()> {
    let (batch, len) = batch_of(&states)?;
    let slice = check_out(&mut out, batch.len(), len)?;
    let _ = py;
    for (s, chunk) in batch.iter().zip(slice.chunks_exact_mut(len.max(1))) {
        chunk.fill(0.0);
        s.encode(chunk);
    }
    Ok(())
}

/// Encodes `states` into `out` as `encode_batch` does, but through the
/// network's own batch encoder (`model::encode_batch`, the one self-play
/// and training use): for checking `encode_batch` against it.
#[pyfunction]
fn encode_batch_with_model(
    states: Vec<PyRef<'_, PyState>>,
    mut out: PyReadwriteArrayDyn<'_, f32>,
) -> PyResult<()> {
    let (batch, len) = batch_of(&states)?;
    let slice = check_out(&mut out, batch.len(), len)?;
    let Some(first) = batch.first() else {
        return Ok(());
    };
    first
        .game()
        .encode_with_model(&batch, slice)
        .map_err(value_error)
}

/// The network's whole input for `states` (one game and variant), as
/// triad's own encoder lays a batch out: a dict of `planes` `(B, planes,
/// height, width)` float32, `move_from` and `move_to` `(B, M)` int64 (the
/// cells of each legal move, in `legal_actions()` order; 0 in padding),
/// `move_features` `(B, M, features)` float32 and `mask` `(B, M)` bool, M
/// the most legal moves of any state. What `triad.torch.TriadNet` reads.
#[pyfunction]
fn network_inputs<'py>(
    py: Python<'py>,
    states: Vec<PyRef<'py, PyState>>,
) -> PyResult<Bound<'py, pyo3::types::PyDict>> {
    let (batch, _) = batch_of(&states)?;
    let Some(first) = batch.first() else {
        return Err(value_error("no states: a batch holds at least one"));
    };
    let game = first.game();
    let e = game.encoding();
    let x = game.network_inputs(&batch).map_err(value_error)?;
    let (b, m) = (batch.len(), x.max_moves);
    let d = pyo3::types::PyDict::new(py);
    d.set_item(
        "planes",
        PyArray1::from_vec(py, x.planes).reshape(vec![b, e.planes, e.height, e.width])?,
    )?;
    d.set_item(
        "move_from",
        PyArray1::from_vec(py, x.move_from).reshape(vec![b, m])?,
    )?;
    d.set_item(
        "move_to",
        PyArray1::from_vec(py, x.move_to).reshape(vec![b, m])?,
    )?;
    d.set_item(
        "move_features",
        PyArray1::from_vec(py, x.move_features).reshape(vec![b, m, e.move_features])?,
    )?;
    d.set_item("mask", PyArray1::from_vec(py, x.mask).reshape(vec![b, m])?)?;
    Ok(d)
}

/// The extension module.
#[pymodule]
fn _triad(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyGame>()?;
    m.add_class::<PyState>()?;
    m.add_class::<vector::VectorEnv>()?;
    m.add_class::<players::Solver>()?;
    m.add_class::<network::PyNetwork>()?;
    m.add_class::<driven::PySelfPlay>()?;
    m.add_function(wrap_pyfunction!(driven::play_match, m)?)?;
    m.add_function(wrap_pyfunction!(data::list_shards, m)?)?;
    m.add_function(wrap_pyfunction!(data::selfplay, m)?)?;
    m.add_function(wrap_pyfunction!(players::choose, m)?)?;
    m.add_function(wrap_pyfunction!(players::analyze, m)?)?;
    m.add_function(wrap_pyfunction!(players::mcts, m)?)?;
    m.add_function(wrap_pyfunction!(load_game, m)?)?;
    m.add_function(wrap_pyfunction!(registered_games, m)?)?;
    m.add_function(wrap_pyfunction!(game_descriptions, m)?)?;
    m.add_function(wrap_pyfunction!(encode_batch, m)?)?;
    m.add_function(wrap_pyfunction!(encode_batch_with_model, m)?)?;
    m.add_function(wrap_pyfunction!(network_inputs, m)?)?;
    Ok(())
}
