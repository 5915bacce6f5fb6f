//! The network's raw forward evaluations per second (`triad bench model`)
//! at several batch sizes, with and without the encoding: the ceiling
//! self-play's batched evaluation is measured against.

use crate::timing::measure;
use crate::Error;
use game::{Game, GameState};
use indicatif::ProgressBar;
use model::{Encoder, ModelConfig, Network, Shape};
use serde::{Serialize, Serializer};
use std::time::{Duration, Instant};

/// How long to measure and how large a batch to try.
#[derive(Clone, Debug)]
pub struct ModelOptions {
    /// Measurement per batch size and mode.
    pub budget: Duration,
    /// Largest batch size to try (default: 1024 on CPU, 16384 on CUDA,
    /// lowered to what fits in memory).
    pub max_batch: Option<usize>,
}

/// One batch size's figures.
#[derive(Clone, Debug, Serialize)]
pub struct BatchFigures {
    /// Positions per forward pass.
    pub batch: usize,
    /// Evaluations per second, encoding included (one decimal in JSON).
    #[serde(serialize_with = "round1")]
    pub evals_per_s: f64,
    /// Evaluations per second on pre-encoded batches (one decimal in JSON).
    #[serde(serialize_with = "round1")]
    pub evals_per_s_no_encode: f64,
    /// Share of the with-encoding time spent encoding (three decimals in
    /// JSON).
    #[serde(serialize_with = "round3")]
    pub encode_share: f64,
}

/// The figures of `triad bench model` (its `--json` object).
#[derive(Clone, Debug, Serialize)]
pub struct ModelFigures {
    /// The network's device, as tch writes it (`Cpu`, `Cuda(0)`).
    pub device: String,
    /// libtorch's threads.
    pub threads: i32,
    /// The network's shape.
    pub shape: Shape,
    /// Trainable parameters.
    pub parameters: usize,
    /// One entry per batch size, smallest first.
    pub batches: Vec<BatchFigures>,
}

fn round1<S: Serializer>(x: &f64, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_f64((x * 10.0).round() / 10.0)
}

fn round3<S: Serializer>(x: &f64, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_f64((x * 1000.0).round() / 1000.0)
}

/// Positions in the pool the batches are cut from.
const POOL: usize = 1024;

/// Builds the network of `config` for `game` and measures its forward pass
/// on random playout positions, at batch sizes 1, 16, 64, 256 up to the
/// cap and the largest that fits; `bar` counts the measurements (its
/// length is set here).
pub fn run<G: Game>(
    game: &G,
    config: &ModelConfig,
    options: &ModelOptions,
    bar: &ProgressBar,
) -> Result<ModelFigures, Error> {
    let net = Network::new(config, game.encoding(), 0).map_err(|e| Error::input(e.to_string()))?;
    let on_cpu = net.device() == tch::Device::Cpu;
    let cap = options
        .max_batch
        .unwrap_or(if on_cpu { 1024 } else { 16384 })
        .max(1);
    let pool = game::random_positions(&game.start(), POOL, 1, 160);

    let mut sizes: Vec<usize> = [1, 16, 64, 256].into_iter().filter(|&b| b <= cap).collect();
    let largest = largest_that_fits(&net, &pool, cap);
    if sizes.last().is_none_or(|&b| b < largest) {
        sizes.push(largest);
    }

    bar.set_length(sizes.len() as u64 * 2);
    let budget = options.budget;
    let mut rows = Vec::new();
    let mut enc = Encoder::new();
    let (mut policy, mut wdl) = (Vec::new(), Vec::new());
    for &b in &sizes {
        // With encoding: each iteration encodes a fresh slice of the pool.
        bar.set_message(format!("batch {b}, encoding"));
        let mut next = 0;
        let mut encode_time = Duration::ZERO;
        let with = measure(budget, 2, || {
            let t = Instant::now();
            enc.clear();
            for _ in 0..b {
                enc.push(&pool[next % POOL], 1);
                next += 1;
            }
            enc.finish();
            encode_time += t.elapsed();
            net.evaluate_encoded(&enc, &mut policy, &mut wdl);
        });
        bar.inc(1);
        let encode_share = encode_time.as_secs_f64() / with.secs();
        // Without: one pre-encoded batch, evaluated again and again.
        bar.set_message(format!("batch {b}, pre-encoded"));
        enc.clear();
        for i in 0..b {
            enc.push(&pool[i % POOL], 1);
        }
        enc.finish();
        let without = measure(budget, 2, || {
            net.evaluate_encoded(&enc, &mut policy, &mut wdl)
        });
        bar.inc(1);
        rows.push(BatchFigures {
            batch: b,
            evals_per_s: (with.iterations * b) as f64 / with.secs(),
            evals_per_s_no_encode: (without.iterations * b) as f64 / without.secs(),
            encode_share,
        });
    }
    bar.finish_and_clear();

    Ok(ModelFigures {
        device: format!("{:?}", net.device()),
        threads: tch::get_num_threads(),
        shape: net.shape(),
        parameters: net.parameter_count(),
        batches: rows,
    })
}

/// The largest power of two up to `cap` (and `cap` itself) whose forward
/// pass succeeds; an out-of-memory error from libtorch panics inside tch, so
/// each try runs under `catch_unwind`.
fn largest_that_fits<S: GameState>(net: &Network, pool: &[S], cap: usize) -> usize {
    let try_batch = |b: usize| {
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let mut enc = Encoder::<S>::new();
            for i in 0..b {
                enc.push(&pool[i % pool.len()], 1);
            }
            enc.finish();
            let (mut p, mut w) = (Vec::new(), Vec::new());
            net.evaluate_encoded(&enc, &mut p, &mut w);
        }))
        .is_ok()
    };
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let mut best = 1;
    let mut b = 256;
    while b < cap {
        if !try_batch(b) {
            break;
        }
        best = b;
        b *= 2;
    }
    if b >= cap && try_batch(cap) {
        best = cap;
    }
    std::panic::set_hook(hook);
    best
}
