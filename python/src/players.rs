//! The players, callable on a state: the alpha-beta engine (`analyze`, as
//! `triad analyze`), pure MCTS (`mcts`, the player `mcts:sims=N`) and the
//! Connect Four solver (`Solver`, as `triad solve`). Each is the crate's
//! own search, reached through [`crate::dynamic::DynState`].

use crate::dynamic::{DynState, Play};
use crate::{value_error, PyState};
use connect4::Connect4;
use pyo3::prelude::*;
use pyo3::types::PyDict;

/// The codes of a line of move texts played from `state`.
fn line_codes(state: &dyn DynState, line: &[String]) -> PyResult<Vec<u32>> {
    let mut s = state.clone_box();
    let mut codes = Vec::with_capacity(line.len());
    for text in line {
        let code = s
            .string_to_action(text)
            .map_err(|e| value_error(e.message()))?;
        s.apply_action(code).map_err(|e| value_error(e.message()))?;
        codes.push(code);
    }
    Ok(codes)
}

/// The alpha-beta engine's search of `state` (as `triad analyze`), by
/// `depth` plies, `movetime` milliseconds and/or `nodes` (depth 6 when
/// none is given), with a `hash_mb` MiB table. Returns a dict: `bestmove`
/// (a code, None when the game is over), `bestmove_text`, `score` (pawns
/// from the side to move's view, None with a mate), `mate` (moves, < 0:
/// the side to move is mated), `depth`, `seldepth`, `nodes`, `time_ms`,
/// `pv` (codes) and `pv_text`.
#[pyfunction]
#[pyo3(signature = (state, depth=None, movetime=None, nodes=None, hash_mb=16))]
pub fn analyze<'py>(
    py: Python<'py>,
    state: &PyState,
    depth: Option<u32>,
    movetime: Option<u64>,
    nodes: Option<u64>,
    hash_mb: usize,
) -> PyResult<Bound<'py, PyDict>> {
    if depth == Some(0) {
        return Err(value_error("depth must be at least 1"));
    }
    if hash_mb == 0 {
        return Err(value_error("hash_mb must be at least 1"));
    }
    let limits = eval::Limits {
        depth,
        nodes,
        movetime,
    };
    let s = state.inner.as_ref();
    let a = py.detach(|| s.analyze(limits, hash_mb));
    let pv = line_codes(s, &a.pv)?;
    let best = match &a.bestmove {
        Some(t) => Some(
            s.string_to_action(t)
                .map_err(|e| value_error(e.message()))?,
        ),
        None => None,
    };
    let d = PyDict::new(py);
    d.set_item("bestmove", best)?;
    d.set_item("bestmove_text", a.bestmove)?;
    d.set_item("score", a.score)?;
    d.set_item("mate", a.mate)?;
    d.set_item("depth", a.depth)?;
    d.set_item("seldepth", a.seldepth)?;
    d.set_item("nodes", a.nodes)?;
    d.set_item("time_ms", a.time_ms)?;
    d.set_item("pv", pv)?;
    d.set_item("pv_text", a.pv)?;
    Ok(d)
}

/// Pure MCTS on `state` (UCT with random playouts, the player
/// `mcts:sims=N[,c=X][,plies=N][,terminal=visits|outcome]`), seeded by
/// `seed`. Returns `(move, edges)`: the code it plays (None when the game
/// is over) and its root edges as `(code, visits, mean result)` for the
/// side to move.
#[pyfunction]
#[pyo3(signature = (state, spec="mcts:sims=1000", seed=0))]
#[allow(clippy::type_complexity)]
pub fn mcts(
    py: Python<'_>,
    state: &PyState,
    spec: &str,
    seed: u64,
) -> PyResult<(Option<u32>, Vec<(u32, u32, f32)>)> {
    let spec: eval::MctsSpec = spec.parse().map_err(value_error)?;
    let s = state.inner.as_ref();
    Ok(py.detach(|| s.mcts(spec, seed)))
}

/// The perfect Connect Four solver (Pascal Pons's scores: from the side to
/// move's view, `(cells + 1 - n) / 2` for a win with the stone after `n`
/// stones, 0 a draw, negative a loss), with a transposition table of
/// `2**table_bits` entries kept between calls.
#[pyclass(module = "triad._triad", name = "Solver")]
pub struct Solver {
    inner: connect4::Solver,
}

fn connect4_position(state: &PyState) -> PyResult<connect4::Position> {
    state
        .inner
        .as_any()
        .downcast_ref::<Play<Connect4>>()
        .map(|p| *p.state())
        .ok_or_else(|| {
            value_error(format!(
                "the solver knows Connect Four only, not {}",
                state.inner.game_name()
            ))
        })
}

#[pymethods]
impl Solver {
    /// A solver with a table of `2**table_bits` entries (8 bytes each).
    #[new]
    #[pyo3(signature = (table_bits=22))]
    fn new(table_bits: u32) -> PyResult<Solver> {
        if !(10..=30).contains(&table_bits) {
            return Err(value_error("table_bits must be 10..=30"));
        }
        Ok(Solver {
            inner: connect4::Solver::new(table_bits),
        })
    }

    /// The exact score of a Connect Four state (or seen `depth` plies
    /// ahead: wins and losses within them exact, the rest a draw).
    #[pyo3(signature = (state, depth=None))]
    fn solve(&mut self, py: Python<'_>, state: &PyState, depth: Option<u32>) -> PyResult<i32> {
        let pos = connect4_position(state)?;
        let solver = &mut self.inner;
        Ok(py.detach(|| match depth {
            Some(d) => solver.solve_depth(&pos, d.max(1)),
            None => solver.solve(&pos),
        }))
    }

    /// The exact score of each column for the side to move (None for a
    /// full column, and for all once the game is over), as Pons's
    /// `.moves` files give them.
    fn column_values(&mut self, py: Python<'_>, state: &PyState) -> PyResult<Vec<Option<i32>>> {
        let pos = connect4_position(state)?;
        let solver = &mut self.inner;
        Ok(py.detach(|| solver.column_values(&pos)))
    }
}

/// The move code a fresh player of `player` chooses in `state`, as `triad
/// move --player SPEC` does: any spec the command line takes (`random`,
/// `ab:depth=N`, `mcts:sims=N`, `net:CKPT,sims=N[,...]` with the same
/// search options), seeded by `seed`; `device` runs `net:` players
/// (`cpu`, `cuda`, `cuda:N`, `auto`). `ValueError` for a bad spec or
/// checkpoint, or a game that is over.
#[pyfunction]
#[pyo3(signature = (state, player, seed=1, device="cpu"))]
pub fn choose(
    py: Python<'_>,
    state: &PyState,
    player: &str,
    seed: u64,
    device: &str,
) -> PyResult<u32> {
    let spec: eval::arena::players::PlayerSpec = player
        .parse()
        .map_err(|e: eval::EvalError| value_error(format!("player: {e}")))?;
    let device = model::ModelConfig::device_flag(device).map_err(value_error)?;
    let s = state.inner.as_ref();
    py.detach(|| s.choose(&spec, seed, device))
        .map_err(|e| value_error(format!("player: {e}")))
}
