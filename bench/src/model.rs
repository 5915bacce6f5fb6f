//! The network's raw forward evaluations per second (`triad bench model`)
//! at several batch sizes, with and without the encoding: the ceiling
//! self-play's batched evaluation is measured against. With several
//! precisions, each batch size measures them in turn (interleaved), and
//! each 16-bit copy's evaluations are compared with fp32's on the same
//! positions and weights.

use crate::timing::measure;
use crate::Error;
use game::{Game, GameState};
use indicatif::ProgressBar;
use model::{Encoder, ModelConfig, Network, Precision, Shape};
use serde::{Serialize, Serializer};
use std::time::{Duration, Instant};

/// How long to measure and how large a batch to try.
#[derive(Clone, Debug)]
pub struct ModelOptions {
    /// Measurement per batch size and mode.
    pub budget: Duration,
    /// Largest batch size to try (default: 1024 on CPU, 16384 on CUDA,
    /// lowered to what fits in memory); 0 is refused.
    pub max_batch: Option<usize>,
    /// The number formats to measure (at least one; fp32 is always the
    /// reference of the accuracy figures).
    pub precisions: Vec<Precision>,
}

/// One batch size's figures.
#[derive(Clone, Debug, Serialize)]
pub struct BatchFigures {
    /// Positions per forward pass.
    pub batch: usize,
    /// The number format of the weights and activations.
    pub precision: Precision,
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
    /// One entry per batch size and precision, smallest batch first.
    pub batches: Vec<BatchFigures>,
    /// For each 16-bit precision measured: its evaluations against fp32's
    /// on the same positions (absent when only fp32 ran).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub accuracy: Vec<Accuracy>,
}

/// How far a 16-bit network's evaluations are from the same weights' in
/// fp32, over the benchmark's positions (random playouts from the start).
#[derive(Clone, Debug, Serialize)]
pub struct Accuracy {
    pub precision: Precision,
    /// Positions compared.
    pub positions: usize,
    /// Total variation distance between the move distributions (half the
    /// sum of absolute differences, 0..1): mean and largest.
    #[serde(serialize_with = "round6")]
    pub policy_tv_mean: f64,
    #[serde(serialize_with = "round6")]
    pub policy_tv_max: f64,
    /// Difference in expected score (win - loss, -1..1): mean absolute and
    /// largest absolute.
    #[serde(serialize_with = "round6")]
    pub value_diff_mean: f64,
    #[serde(serialize_with = "round6")]
    pub value_diff_max: f64,
    /// Share of positions whose most probable move is the same.
    #[serde(serialize_with = "round6")]
    pub top_move_agreement: f64,
}

fn round1<S: Serializer>(x: &f64, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_f64((x * 10.0).round() / 10.0)
}

fn round3<S: Serializer>(x: &f64, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_f64((x * 1000.0).round() / 1000.0)
}

fn round6<S: Serializer>(x: &f64, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_f64((x * 1e6).round() / 1e6)
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
    if options.max_batch == Some(0) {
        return Err(Error::Flag {
            flags: "--max-batch",
            requirement: "at least 1",
        });
    }
    let net = Network::new(config, game.encoding(), 0)?;
    let on_cpu = net.device() == tch::Device::Cpu;
    let cap = options
        .max_batch
        .unwrap_or(if on_cpu { 1024 } else { 16384 });
    let pool = game::random_positions(&game.start(), POOL, 1, 160);
    let precisions = if options.precisions.is_empty() {
        vec![Precision::Fp32]
    } else {
        options.precisions.clone()
    };
    // One copy of the same weights per precision.
    let nets: Vec<Network> = precisions
        .iter()
        .map(|&p| {
            let mut copy = net.duplicate();
            copy.set_precision(p);
            copy
        })
        .collect();

    let (sizes, largest) = batch_sizes(&nets, &pool, cap);

    bar.set_length((sizes.len() * nets.len()) as u64 * 2);
    let mut rows = Vec::new();
    let mut buffers = Buffers {
        enc: Encoder::new(),
        policy: Vec::new(),
        wdl: Vec::new(),
    };
    for &b in &sizes {
        for net in &nets {
            rows.push(measure_batch(
                net,
                b,
                &pool,
                options.budget,
                &mut buffers,
                bar,
            ));
        }
    }
    bar.finish_and_clear();

    let accuracy = nets
        .iter()
        .filter(|n| n.precision() != Precision::Fp32)
        .map(|n| accuracy(&net, n, &pool, largest.min(256)))
        .collect();
    Ok(ModelFigures {
        device: format!("{:?}", net.device()),
        threads: tch::get_num_threads(),
        shape: net.shape(),
        parameters: net.parameter_count(),
        batches: rows,
        accuracy,
    })
}

/// The batch sizes to measure: 1, 16, 64 and 256 up to `cap`, then the
/// largest that every copy of `nets` can evaluate (at most `cap`), which
/// is also returned.
fn batch_sizes<S: GameState>(nets: &[Network], pool: &[S], cap: usize) -> (Vec<usize>, usize) {
    let mut sizes: Vec<usize> = [1, 16, 64, 256].into_iter().filter(|&b| b <= cap).collect();
    let largest = nets
        .iter()
        .map(|n| largest_that_fits(n, pool, cap))
        .min()
        .unwrap_or(1);
    if sizes.last().is_none_or(|&b| b < largest) {
        sizes.push(largest);
    }
    (sizes, largest)
}

/// The encoder and output buffers every measurement reuses.
struct Buffers<S: GameState> {
    enc: Encoder<S>,
    policy: Vec<f32>,
    wdl: Vec<[f32; 3]>,
}

/// `net`'s figures at batch size `b`: with the encoding (each iteration
/// encodes a fresh slice of `pool`), then without (one pre-encoded batch,
/// evaluated again and again), each for `budget`; two steps of `bar`.
fn measure_batch<S: GameState>(
    net: &Network,
    b: usize,
    pool: &[S],
    budget: Duration,
    buffers: &mut Buffers<S>,
    bar: &ProgressBar,
) -> BatchFigures {
    let Buffers { enc, policy, wdl } = buffers;
    let p = net.precision();
    bar.set_message(format!("batch {b} {p}, encoding"));
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
        net.evaluate_encoded(enc, policy, wdl);
    });
    bar.inc(1);
    let encode_share = encode_time.as_secs_f64() / with.secs();
    bar.set_message(format!("batch {b} {p}, pre-encoded"));
    enc.clear();
    for i in 0..b {
        enc.push(&pool[i % POOL], 1);
    }
    enc.finish();
    let without = measure(budget, 2, || net.evaluate_encoded(enc, policy, wdl));
    bar.inc(1);
    BatchFigures {
        batch: b,
        precision: p,
        evals_per_s: (with.iterations * b) as f64 / with.secs(),
        evals_per_s_no_encode: (without.iterations * b) as f64 / without.secs(),
        encode_share,
    }
}

/// `low`'s evaluations of every position of `pool` against `reference`'s
/// (fp32, the same weights), in batches of `batch`.
fn accuracy<S: GameState>(
    reference: &Network,
    low: &Network,
    pool: &[S],
    batch: usize,
) -> Accuracy {
    let (mut tv_sum, mut tv_max, mut v_sum, mut v_max, mut agree) = (0.0, 0.0f64, 0.0, 0.0f64, 0);
    let mut enc = Encoder::new();
    let (mut p32, mut w32, mut p16, mut w16) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for chunk in pool.chunks(batch.max(1)) {
        enc.clear();
        for s in chunk {
            enc.push(s, 1);
        }
        enc.finish();
        reference.evaluate_encoded(&enc, &mut p32, &mut w32);
        low.evaluate_encoded(&enc, &mut p16, &mut w16);
        let offsets = enc.offsets();
        for i in 0..chunk.len() {
            let (a, b) = (
                &p32[offsets[i]..offsets[i + 1]],
                &p16[offsets[i]..offsets[i + 1]],
            );
            let tv = 0.5
                * a.iter()
                    .zip(b)
                    .map(|(x, y)| (x - y).abs() as f64)
                    .sum::<f64>();
            tv_sum += tv;
            tv_max = tv_max.max(tv);
            let score = |w: [f32; 3]| (w[0] - w[2]) as f64;
            let dv = (score(w32[i]) - score(w16[i])).abs();
            v_sum += dv;
            v_max = v_max.max(dv);
            if argmax(a) == argmax(b) {
                agree += 1;
            }
        }
    }
    let n = pool.len().max(1) as f64;
    Accuracy {
        precision: low.precision(),
        positions: pool.len(),
        policy_tv_mean: tv_sum / n,
        policy_tv_max: tv_max,
        value_diff_mean: v_sum / n,
        value_diff_max: v_max,
        top_move_agreement: agree as f64 / n,
    }
}

/// The index of the largest value (the first of equals).
fn argmax(xs: &[f32]) -> usize {
    let mut best = 0;
    for (i, &x) in xs.iter().enumerate() {
        if x > xs[best] {
            best = i;
        }
    }
    best
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
