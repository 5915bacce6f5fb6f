//! The trainer's loop (`triad bench train`: window, shuffle, decode and
//! encode on the prefetch thread, device copy, step) against the raw step
//! it is a superset of (the same forward, backward and optimiser step on
//! batches encoded beforehand), on real self-play rows, measured honestly:
//! the two phases alternate in slices within one process, several times,
//! and the figures are medians with their spread.
//!
//! The loop does everything the raw step does and more, so its throughput
//! cannot exceed the raw step's: a ratio above [`MAX_HONEST_RATIO`] is a
//! broken measurement ([`TrainFigures::check`] says so) rather than a
//! result.

use crate::timing::spread;
use crate::{Error, Measurement};
use data::{ReplayWindow, WindowOptions};
use game::{Game, GameTag};
use indicatif::ProgressBar;
use mcts::NetworkEvaluator;
use model::{ModelConfig, Network, Shape};
use selfplay::shards::{load_network, play_to_shards, Job};
use serde::Serialize;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};
use train::{batch_builder, BatchBuilder, TrainBatch, TrainConfig, Trainer};

/// A loop faster than the raw step by more than this is a broken measurement.
pub const MAX_HONEST_RATIO: f64 = 1.05;

/// What to measure on which rows.
#[derive(Clone, Debug)]
pub struct TrainOptions {
    /// Seconds of measurement for each of the two phases, split into
    /// slices (positive and finite).
    pub seconds: f64,
    /// Slices per phase, at least 1 (the phases alternate slice by slice).
    pub slices: usize,
    /// Self-play games played for the rows when `data` is empty.
    pub games: u64,
    /// Shards (files or folders) to train on instead of fresh self-play.
    pub data: Vec<PathBuf>,
    /// A scratch folder for the self-play rows, removed at the end.
    pub scratch: PathBuf,
}

/// The progress bars of the two stages: a spinner while self-play plays
/// the rows (only without `data`), then a bar over the slices (its length
/// is set here).
pub struct TrainBars {
    /// Self-play for the rows.
    pub rows: ProgressBar,
    /// The measurement slices.
    pub slices: ProgressBar,
}

/// The figures of `triad bench train` (its `--json` object): medians over
/// the slices with their `[min, max]`.
#[derive(Clone, Debug, Serialize)]
pub struct TrainFigures {
    /// The raw step's samples per second.
    pub raw_samples_per_s: f64,
    /// Their `[min, max]` over the slices.
    pub raw_samples_per_s_range: [f64; 2],
    /// The training loop's samples per second.
    pub train_samples_per_s: f64,
    /// Their `[min, max]` over the slices.
    pub train_samples_per_s_range: [f64; 2],
    /// Loop over raw, pair by pair.
    pub ratio: f64,
    /// Its `[min, max]` over the slices.
    pub ratio_range: [f64; 2],
    /// Slices per phase.
    pub slices: usize,
    /// The encoding alone on one thread, samples per second.
    pub encode_samples_per_s: f64,
    /// Rows in the replay window.
    pub window_rows: usize,
    /// Rows per training batch.
    pub batch_size: usize,
    /// The device, as tch writes it.
    pub device: String,
    /// libtorch's threads.
    pub threads: i32,
}

impl TrainFigures {
    /// An error when the loop measured faster than the raw step it is a
    /// superset of (a broken measurement).
    pub fn check(&self) -> Result<(), Error> {
        let ratio = self.ratio;
        if ratio > MAX_HONEST_RATIO {
            return Err(Error::Measurement(Measurement::SupersetFaster {
                ratio,
                limit: MAX_HONEST_RATIO,
            }));
        }
        Ok(())
    }
}

/// Samples per second of each phase's slices, and the encoding alone.
struct Slices {
    raw: Vec<f64>,
    train: Vec<f64>,
    encode: f64,
    rows: usize,
}

/// Measures the raw step and the training loop of the run configuration
/// `cfg` for `game` on `device`, on the rows of `options.data` or of fresh
/// self-play written under `options.scratch` (removed afterwards).
pub fn run<G: Game>(
    game: &G,
    cfg: &pipeline::RunConfig,
    device: tch::Device,
    options: &TrainOptions,
    bars: &TrainBars,
) -> Result<TrainFigures, Error>
where
    G::State: game::AlphaBetaState,
{
    let result = bench(game, options, cfg, device, bars);
    let _ = std::fs::remove_dir_all(&options.scratch);
    let f = result?;
    let ratios: Vec<f64> = f.train.iter().zip(&f.raw).map(|(t, r)| t / r).collect();
    let raw = spread(&f.raw);
    let real = spread(&f.train);
    let ratio = spread(&ratios);
    Ok(TrainFigures {
        raw_samples_per_s: raw.median,
        raw_samples_per_s_range: [raw.min, raw.max],
        train_samples_per_s: real.median,
        train_samples_per_s_range: [real.min, real.max],
        ratio: ratio.median,
        ratio_range: [ratio.min, ratio.max],
        slices: options.slices,
        encode_samples_per_s: f.encode,
        window_rows: f.rows,
        batch_size: cfg.train.batch_size,
        device: format!("{device:?}"),
        threads: tch::get_num_threads(),
    })
}

/// Real self-play rows for the window: `options.games` games of a fresh
/// network of the config with a cheap search, written under `dir`.
fn selfplay_rows<G: Game>(
    game: &G,
    options: &TrainOptions,
    cfg: &pipeline::RunConfig,
    bar: &ProgressBar,
) -> Result<PathBuf, Error>
where
    G::State: game::AlphaBetaState,
{
    let out = options.scratch.join("shards");
    let (net, model_id) = load_network(game, &cfg.model, None, cfg.seed)?;
    let mut sp = cfg.selfplay.clone();
    sp.simulations = sp.simulations.min(8);
    sp.cheap_simulations = sp.cheap_simulations.min(sp.simulations);
    let job = Job {
        out: out.clone(),
        games: options.games,
        first_game_id: 0,
        seed: cfg.seed,
        shard_games: options.games.div_ceil(4),
        model_id,
    };
    bar.set_message("self-play for the rows (not timed)");
    bar.enable_steady_tick(Duration::from_millis(200));
    play_to_shards(
        game,
        &sp,
        &mut NetworkEvaluator::new(net),
        &job,
        &players::new_quiescence_hint,
        &AtomicBool::new(false),
        bar,
    )?;
    bar.finish_and_clear();
    Ok(out)
}

/// The replay window of `options.data`, or of fresh self-play rows when
/// none is given; refused when it holds no row.
fn load_window<G: Game>(
    game: &G,
    options: &TrainOptions,
    cfg: &pipeline::RunConfig,
    bar: &ProgressBar,
) -> Result<ReplayWindow, Error>
where
    G::State: game::AlphaBetaState,
{
    let data = if options.data.is_empty() {
        vec![selfplay_rows(game, options, cfg, bar)?]
    } else {
        options.data.clone()
    };
    let window = ReplayWindow::load_for(&data, cfg.train.window, &GameTag::of(game))
        .map_err(Error::Window)?;
    if window.is_empty() {
        return Err(Error::Measurement(Measurement::NoRows));
    }
    Ok(window)
}

/// The raw step's slice: a step on each of `batches` (encoded and on the
/// device beforehand, an empty one skipped), in samples per second.
fn raw_steps(trainer: &mut Trainer, batches: &[TrainBatch], lr: f64) -> f64 {
    let (mut samples, t) = (0usize, Instant::now());
    for b in batches {
        if b.rows > 0 {
            trainer.step(b, lr, false);
        }
        samples += b.rows;
    }
    samples as f64 / t.elapsed().as_secs_f64()
}

/// The training loop's slice: a step on each batch `batches` makes
/// through the data path (an empty one skipped), in samples per second
/// since `start`.
fn loop_steps(
    trainer: &mut Trainer,
    batches: impl Iterator<Item = TrainBatch>,
    lr: f64,
    start: Instant,
) -> f64 {
    let mut samples = 0usize;
    for b in batches {
        if b.rows > 0 {
            trainer.step(&b, lr, false);
        }
        samples += b.rows;
    }
    samples as f64 / start.elapsed().as_secs_f64()
}

/// The two phases' slices, alternating, on the same batches of the
/// window (see the comment inside), and the encoding's own rate.
fn bench<G: Game>(
    game: &G,
    options: &TrainOptions,
    cfg: &pipeline::RunConfig,
    device: tch::Device,
    bars: &TrainBars,
) -> Result<Slices, Error>
where
    G::State: game::AlphaBetaState,
{
    let (model_cfg, tc): (&ModelConfig, &TrainConfig) = (&cfg.model, &cfg.train);
    train::set_threads(tc, model_cfg);
    let window = load_window(game, options, cfg, &bars.rows)?;
    let window_options = train::window_options(game, tc);
    let cheap = tc.cheap_search_weight as f32;

    // The batches of slice j are batches j·n .. (j+1)·n of the window's
    // stream for the seed, for both phases: the raw step runs on them
    // encoded beforehand, the loop makes them again through its data path
    // (a fresh stream that skips to them without encoding the ones before,
    // as a resumed `triad train` does). Same batches, same steps: the loop
    // only adds the data path, so it cannot be faster.
    let net = Network::with_shape(Shape::of(model_cfg, game.encoding()), device, tc.seed);
    let mut trainer = Trainer::new(net, tc);
    // The builder training uses (value shares, proven and auxiliary
    // targets), so both phases time what `triad train` does.
    let mut builder = batch_builder(game, tc, trainer.net.shape());
    let prebuilt = |builder: &mut BatchBuilder<G>, from: usize, n: usize| -> Vec<TrainBatch> {
        window
            .batches(&WindowOptions {
                prefetch: 1,
                ..window_options.clone()
            })
            .skip(from)
            .take(n)
            .map(|b| builder.build_batch(&b, cheap).to_device(device))
            .collect()
    };
    // Warm-up, and the encoding's own rate, and the steps per slice.
    let t = Instant::now();
    let warm = prebuilt(&mut builder, 0, 4);
    let encode =
        warm.iter().map(|b| b.rows).sum::<usize>() as f64 / t.elapsed().as_secs_f64().max(1e-9);
    if warm.iter().all(|b| b.rows == 0) {
        return Err(Error::Measurement(Measurement::NoBatch));
    }
    let t = Instant::now();
    for b in &warm {
        trainer.step(b, tc.lr, false);
    }
    let per_step = t.elapsed().as_secs_f64() / warm.len() as f64;
    let n =
        ((options.seconds / options.slices as f64 / per_step.max(1e-6)).round() as usize).max(4);
    let bar = &bars.slices;
    bar.set_length(2 * options.slices as u64);
    let (mut raw, mut real) = (Vec::new(), Vec::new());
    for j in 0..options.slices {
        let from = 4 + j * n;
        // The phases take turns at going first (raw first in even slices,
        // the loop first in odd ones), so that neither always runs on a
        // warmer or a quieter machine.
        let order = if j % 2 == 0 {
            [true, false]
        } else {
            [false, true]
        };
        for raw_phase in order {
            if raw_phase {
                bar.set_message(format!("raw step ({n} steps)"));
                let batches = prebuilt(&mut builder, from, n);
                raw.push(raw_steps(&mut trainer, &batches, tc.lr));
            } else {
                bar.set_message(format!("training loop ({n} steps)"));
                let t = Instant::now();
                let mut loop_builder = batch_builder(game, tc, trainer.net.shape());
                let mut produced = 0usize;
                let stream = window.batches_with(&window_options, move |b| {
                    produced += 1;
                    (produced > from).then(|| loop_builder.build_batch(&b, cheap))
                });
                let batches = stream.flatten().take(n).map(|b| b.to_device(device));
                real.push(loop_steps(&mut trainer, batches, tc.lr, t));
            }
            bar.inc(1);
        }
    }
    bar.finish_and_clear();
    Ok(Slices {
        raw,
        train: real,
        encode,
        rows: window.len(),
    })
}
