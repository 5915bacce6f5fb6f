//! Your own model in triad's search: a Python callable as the search's
//! [`Evaluator`] (mctx's and LightZero's shape: the search compiled, the
//! model the user's).
//!
//! The search runs in Rust without the GIL up to the leaves that need the
//! network; [`PyEvaluator`] takes the GIL, hands the callable one dict of
//! NumPy arrays for the whole batch (the network's own input, the legal
//! move codes, and for games of few move codes a mask over them), and reads
//! back `(policy, value)`. The arrays are views of buffers kept between
//! calls (grown when a batch needs more, never shrunk): a model that keeps
//! one past its call must copy it. What comes back is checked before the
//! search sees any of it; a wrong shape or dtype, a value that is not
//! finite, a negative or unnormalised probability, or an exception in the
//! model is kept as the Python error to raise, and the search is told
//! [`Declined`], so it uses nothing of the call.

use game::{GameMove, GameState};
use mcts::{Declined, Evaluator, Request};
use model::Encoder;
use numpy::{Element, PyArray1, PyArrayDyn, PyArrayMethods, PyUntypedArrayMethods};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PySlice, PyTuple};
use std::time::Instant;

/// Games with at most this many move codes also get `legal_mask`, a
/// `(B, A)` mask over every code, and may answer with a policy over codes
/// (`actions=True`): Connect Four (7) and Influence Chess.
pub const DENSE_CODES: u64 = 4096;

/// How far a row of probabilities may sum from 1.
const SUM_TOLERANCE: f64 = 1e-3;

/// What the model's answers are.
#[derive(Clone, Copy, Debug, Default)]
pub struct ModelForm {
    /// Policy and W/D/L rows are logits (a softmax is taken over each
    /// row's legal moves), not probabilities.
    pub logits: bool,
    /// The policy has a column per move code, `(B, A)`, rather than a
    /// column per entry of `legal`, `(B, M)` (games of at most
    /// [`DENSE_CODES`] codes).
    pub actions: bool,
}

/// Where an evaluator's time went.
#[derive(Clone, Copy, Debug, Default)]
pub struct Timing {
    /// Calls of the model.
    pub calls: u64,
    /// Leaves evaluated.
    pub leaves: u64,
    /// Inside the Python callable (ns).
    pub model_nanos: u64,
    /// Filling the arrays and checking and reading the answers (ns).
    pub io_nanos: u64,
}

/// A flat NumPy buffer kept between calls.
struct Buffer<T: Element> {
    array: Option<Py<PyArray1<T>>>,
}

impl<T: Element + Copy> Buffer<T> {
    fn new() -> Buffer<T> {
        Buffer { array: None }
    }

    /// Its first `shape.iter().product()` elements, filled by `fill` and
    /// viewed with `shape` (a view: no copy).
    fn view<'py>(
        &mut self,
        py: Python<'py>,
        shape: &[usize],
        fill: impl FnOnce(&mut [T]),
    ) -> PyResult<Bound<'py, PyAny>> {
        let n: usize = shape.iter().product();
        let grow = self.array.as_ref().is_none_or(|a| a.bind(py).len() < n);
        if grow {
            let capacity = (n + n / 2).max(16);
            self.array = Some(PyArray1::<T>::zeros(py, capacity, false).unbind());
        }
        let array = self
            .array
            .as_ref()
            .expect("the buffer was just made")
            .bind(py);
        {
            let mut rw = array.readwrite();
            let slice = rw
                .as_slice_mut()
                .map_err(|e| PyValueError::new_err(e.to_string()))?;
            fill(&mut slice[..n]);
        }
        let part = array.get_item(PySlice::new(py, 0, n as isize, 1))?;
        part.call_method1("reshape", (PyTuple::new(py, shape)?,))
    }
}

/// A Python callable as the search's evaluator (module docs).
pub struct PyEvaluator<S: GameState> {
    model: Py<PyAny>,
    form: ModelForm,
    /// The game's number of move codes when it is dense.
    dense: Option<usize>,
    /// Encodes a batch the caller did not encode (matches).
    encoder: Encoder<S>,
    planes: Buffer<f32>,
    move_from: Buffer<i64>,
    move_to: Buffer<i64>,
    move_features: Buffer<f32>,
    mask: Buffer<bool>,
    legal: Buffer<i64>,
    legal_mask: Buffer<bool>,
    error: Option<PyErr>,
    pub timing: Timing,
}

impl<S: GameState> PyEvaluator<S> {
    /// `model` answering as `form` says, for a game of `codes` move codes.
    /// A policy over codes asked of a game with too many is refused.
    pub fn new(model: Py<PyAny>, form: ModelForm, codes: u64) -> PyResult<PyEvaluator<S>> {
        let dense = (codes <= DENSE_CODES).then_some(codes as usize);
        if form.actions && dense.is_none() {
            return Err(PyValueError::new_err(format!(
                "actions=True: this game has {codes} move codes, more than {DENSE_CODES}; \
                 answer with a column per legal move (actions=False)"
            )));
        }
        Ok(PyEvaluator {
            model,
            form,
            dense,
            encoder: Encoder::new(),
            planes: Buffer::new(),
            move_from: Buffer::new(),
            move_to: Buffer::new(),
            move_features: Buffer::new(),
            mask: Buffer::new(),
            legal: Buffer::new(),
            legal_mask: Buffer::new(),
            error: None,
            timing: Timing::default(),
        })
    }

    /// The error of the call that declined, once.
    pub fn take_error(&mut self) -> Option<PyErr> {
        self.error.take()
    }

    /// One call of the model for `batch` (encoded in `enc`), its answers
    /// checked and written to `policy` and `wdl`.
    fn call(
        &mut self,
        py: Python<'_>,
        batch: &[Request<'_, S>],
        enc: &Encoder<S>,
        policy: &mut Vec<f32>,
        wdl: &mut Vec<[f32; 3]>,
    ) -> PyResult<()> {
        // Ctrl-C while the search ran in Rust.
        py.check_signals()?;
        let started = Instant::now();
        let inputs = self.inputs(py, batch, enc)?;
        let called = Instant::now();
        let out = self.model.bind(py).call1((inputs,))?;
        let answered = Instant::now();
        read_answers(&out, batch, self.form, self.dense, policy, wdl)?;
        self.timing.calls += 1;
        self.timing.leaves += batch.len() as u64;
        self.timing.model_nanos += (answered - called).as_nanos() as u64;
        self.timing.io_nanos += ((called - started) + answered.elapsed()).as_nanos() as u64;
        Ok(())
    }

    /// The dict the model is called with.
    fn inputs<'py>(
        &mut self,
        py: Python<'py>,
        batch: &[Request<'_, S>],
        enc: &Encoder<S>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let (b, m) = (enc.len(), enc.max_moves());
        let e = enc
            .encoding()
            .ok_or_else(|| PyValueError::new_err("an empty batch has no encoding"))?;
        let d = PyDict::new(py);
        let planes = enc.planes();
        d.set_item(
            "planes",
            self.planes
                .view(py, &[b, e.planes, e.height, e.width], |s| {
                    copy(s, planes.view())
                })?,
        )?;
        let from = enc.move_from();
        d.set_item(
            "move_from",
            self.move_from.view(py, &[b, m], |s| copy(s, from.view()))?,
        )?;
        let to = enc.move_to();
        d.set_item(
            "move_to",
            self.move_to.view(py, &[b, m], |s| copy(s, to.view()))?,
        )?;
        let features = enc.move_features();
        d.set_item(
            "move_features",
            self.move_features
                .view(py, &[b, m, e.move_features], |s| copy(s, features.view()))?,
        )?;
        let mask = enc.mask();
        d.set_item(
            "mask",
            self.mask.view(py, &[b, m], |s| copy(s, mask.view()))?,
        )?;
        d.set_item(
            "legal",
            self.legal.view(py, &[b, m], |s| {
                for (row, r) in s.chunks_exact_mut(m.max(1)).zip(batch) {
                    row.fill(-1);
                    for (slot, mv) in row.iter_mut().zip(r.moves) {
                        *slot = i64::from(mv.code());
                    }
                }
            })?,
        )?;
        if let Some(a) = self.dense {
            d.set_item(
                "legal_mask",
                self.legal_mask.view(py, &[b, a], |s| {
                    s.fill(false);
                    for (row, r) in s.chunks_exact_mut(a.max(1)).zip(batch) {
                        for mv in r.moves {
                            if let Some(slot) = row.get_mut(mv.code() as usize) {
                                *slot = true;
                            }
                        }
                    }
                })?,
            )?;
        }
        Ok(d)
    }
}

/// Copies an encoder array into `dst` in C order (one `memcpy`: the
/// encoder's arrays are contiguous).
fn copy<T: Copy, D: ndarray::Dimension>(dst: &mut [T], values: ndarray::ArrayView<'_, T, D>) {
    match values.as_slice() {
        Some(s) => dst.copy_from_slice(s),
        None => {
            for (d, v) in dst.iter_mut().zip(values.iter()) {
                *d = *v;
            }
        }
    }
}

impl<S: GameState> Evaluator<S> for PyEvaluator<S> {
    /// Even priors and value where the model failed (its error kept): the
    /// callers that can stop use [`Evaluator::try_evaluate`].
    fn evaluate(
        &mut self,
        batch: &[Request<'_, S>],
        policy: &mut Vec<f32>,
        wdl: &mut Vec<[f32; 3]>,
    ) {
        if self.try_evaluate(batch, None, policy, wdl).is_err() {
            mcts::UniformEvaluator.evaluate(batch, policy, wdl);
        }
    }

    fn wants_encoding(&self) -> bool {
        true
    }

    fn evaluate_prepared(
        &mut self,
        batch: &[Request<'_, S>],
        encoded: &Encoder<S>,
        policy: &mut Vec<f32>,
        wdl: &mut Vec<[f32; 3]>,
    ) {
        if self
            .try_evaluate(batch, Some(encoded), policy, wdl)
            .is_err()
        {
            mcts::UniformEvaluator.evaluate(batch, policy, wdl);
        }
    }

    fn try_evaluate(
        &mut self,
        batch: &[Request<'_, S>],
        encoded: Option<&Encoder<S>>,
        policy: &mut Vec<f32>,
        wdl: &mut Vec<[f32; 3]>,
    ) -> Result<(), Declined> {
        if batch.is_empty() {
            policy.clear();
            wdl.clear();
            return Ok(());
        }
        let mut own = std::mem::take(&mut self.encoder);
        let enc = match encoded {
            Some(e) => e,
            None => {
                own.clear();
                for r in batch {
                    own.push_with_moves(r.position, r.repetitions, r.moves);
                }
                own.finish();
                &own
            }
        };
        let result = Python::attach(|py| self.call(py, batch, enc, policy, wdl));
        self.encoder = own;
        result.map_err(|e| {
            self.error = Some(e);
            Declined
        })
    }
}

/// A float array of the model's answer as one flat float32 slice, in C
/// order: a C-contiguous float32 array is read in place, any other
/// (float64, strided) copied once.
struct Floats<'py> {
    shape: Vec<usize>,
    data: FloatData<'py>,
}

enum FloatData<'py> {
    Borrowed(numpy::PyReadonlyArrayDyn<'py, f32>),
    Owned(Vec<f32>),
}

impl Floats<'_> {
    fn values(&self) -> &[f32] {
        match &self.data {
            FloatData::Borrowed(a) => a.as_slice().unwrap_or(&[]),
            FloatData::Owned(v) => v,
        }
    }
}

/// `obj` as a float array (a NumPy array, or anything `numpy.asarray`
/// takes: a CPU tensor, a list); another dtype is a `TypeError` naming it.
fn floats<'py>(obj: &Bound<'py, PyAny>, what: &str) -> PyResult<Floats<'py>> {
    let py = obj.py();
    let array = if obj.cast::<numpy::PyUntypedArray>().is_ok() {
        obj.clone()
    } else {
        py.import("numpy")?.call_method1("asarray", (obj,))?
    };
    if let Ok(a) = array.cast::<PyArrayDyn<f32>>() {
        let r = a.readonly();
        let shape = r.shape().to_vec();
        if r.as_slice().is_ok() {
            return Ok(Floats {
                shape,
                data: FloatData::Borrowed(r),
            });
        }
        let v = r.as_array().iter().copied().collect();
        return Ok(Floats {
            shape,
            data: FloatData::Owned(v),
        });
    }
    if let Ok(a) = array.cast::<PyArrayDyn<f64>>() {
        let r = a.readonly();
        let v = r.as_array().iter().map(|&x| x as f32).collect();
        return Ok(Floats {
            shape: r.shape().to_vec(),
            data: FloatData::Owned(v),
        });
    }
    let dtype = array
        .getattr("dtype")
        .map(|d| d.to_string())
        .unwrap_or_else(|_| "unknown".into());
    Err(PyTypeError::new_err(format!(
        "evaluator: {what} has dtype {dtype}: it must be float32 or float64"
    )))
}

fn bad(message: String) -> PyErr {
    PyValueError::new_err(format!("evaluator: {message}"))
}

/// Checks the model's `out` for `batch` and writes its policy (each
/// request's moves, back to back) and W/D/L rows.
fn read_answers<S: GameState>(
    out: &Bound<'_, PyAny>,
    batch: &[Request<'_, S>],
    form: ModelForm,
    dense: Option<usize>,
    policy: &mut Vec<f32>,
    wdl: &mut Vec<[f32; 3]>,
) -> PyResult<()> {
    let pair = out.cast::<PyTuple>().ok().filter(|t| t.len() == 2);
    let Some(pair) = pair else {
        let kind = out.get_type().name()?.to_string();
        return Err(PyTypeError::new_err(format!(
            "evaluator: returned a {kind}; it must return a tuple (policy, value)"
        )));
    };
    let p = floats(&pair.get_item(0)?, "policy")?;
    let v = floats(&pair.get_item(1)?, "value")?;
    let b = batch.len();
    let m = batch
        .iter()
        .map(|r| r.moves.len())
        .max()
        .unwrap_or(0)
        .max(1);
    let (columns, over) = match (form.actions, dense) {
        (true, Some(a)) => (a, "a column per move code (actions=True)"),
        _ => (m, "a column per entry of batch['legal']"),
    };
    if p.shape != [b, columns] {
        return Err(bad(format!(
            "policy has shape {:?}; expected ({b}, {columns}): a row per leaf, {over}",
            p.shape
        )));
    }
    read_policy(p.values(), columns, batch, form, policy)?;
    read_values(&v, b, form.logits, wdl)
}

fn read_policy<S: GameState>(
    p: &[f32],
    columns: usize,
    batch: &[Request<'_, S>],
    form: ModelForm,
    policy: &mut Vec<f32>,
) -> PyResult<()> {
    policy.clear();
    for (i, (r, row)) in batch.iter().zip(p.chunks_exact(columns)).enumerate() {
        let start = policy.len();
        for (j, mv) in r.moves.iter().enumerate() {
            let column = if form.actions { mv.code() as usize } else { j };
            let x = row[column];
            if !x.is_finite() {
                return Err(bad(format!(
                    "policy[{i}, {column}] is {x}: every legal move needs a finite number"
                )));
            }
            if !form.logits && x < 0.0 {
                return Err(bad(format!(
                    "policy[{i}, {column}] is {x}: probabilities cannot be negative \
                     (pass logits=True for logits)"
                )));
            }
            policy.push(x);
        }
        let row = &mut policy[start..];
        if form.logits {
            softmax(row);
        } else if !row.is_empty() {
            let sum: f64 = row.iter().map(|&x| f64::from(x)).sum();
            if (sum - 1.0).abs() > SUM_TOLERANCE {
                return Err(bad(format!(
                    "policy row {i} sums to {sum} over its {} legal moves: probabilities \
                     must sum to 1 (pass logits=True for logits)",
                    row.len()
                )));
            }
        }
    }
    Ok(())
}

fn read_values(v: &Floats<'_>, b: usize, logits: bool, wdl: &mut Vec<[f32; 3]>) -> PyResult<()> {
    wdl.clear();
    let shape = v.shape.as_slice();
    let values = v.values();
    let scalar = shape == [b] || shape == [b, 1];
    if !scalar && shape != [b, 3] {
        return Err(bad(format!(
            "value has shape {shape:?}; expected ({b}, 3) win/draw/loss for the side to \
             move, or ({b},) values in [-1, 1]"
        )));
    }
    for i in 0..b {
        if scalar {
            let x = values[i];
            if !x.is_finite() || x.abs() > 1.0 {
                return Err(bad(format!(
                    "value[{i}] is {x}: a value is a finite number in [-1, 1]"
                )));
            }
            wdl.push([(1.0 + x) / 2.0, 0.0, (1.0 - x) / 2.0]);
            continue;
        }
        let mut row = [0.0f32; 3];
        for (k, slot) in row.iter_mut().enumerate() {
            let x = values[3 * i + k];
            if !x.is_finite() || (!logits && x < 0.0) {
                return Err(bad(format!(
                    "value[{i}, {k}] is {x}: win/draw/loss {} finite{}",
                    if logits {
                        "logits are"
                    } else {
                        "probabilities are"
                    },
                    if logits { "" } else { " and not negative" }
                )));
            }
            *slot = x;
        }
        if logits {
            softmax(&mut row);
        } else {
            let sum: f64 = row.iter().map(|&x| f64::from(x)).sum();
            if (sum - 1.0).abs() > SUM_TOLERANCE {
                return Err(bad(format!(
                    "value row {i} sums to {sum}: win/draw/loss probabilities must sum \
                     to 1 (pass logits=True for logits)"
                )));
            }
        }
        wdl.push(row);
    }
    Ok(())
}

/// The softmax of `row`, in place.
fn softmax(row: &mut [f32]) {
    let max = row.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let mut sum = 0.0;
    for x in row.iter_mut() {
        *x = (*x - max).exp();
        sum += *x;
    }
    for x in row.iter_mut() {
        *x /= sum;
    }
}
