//! `triad bench train`: the trainer's loop (window, shuffle, decode and
//! encode on the prefetch thread, device copy, step) against the raw step it
//! is a superset of (the same forward, backward and optimiser step on
//! batches encoded beforehand), on real self-play rows, measured honestly:
//! the two phases alternate in slices within one process, several times,
//! and the figures are medians with their spread.
//!
//! The loop does everything the raw step does and more, so its throughput
//! cannot exceed the raw step's: a ratio above 1.05 is a broken measurement
//! (the command then fails, saying so) rather than a result.

use crate::cli::pipeline_error;
use crate::cmd::{print_json, CliError};
use crate::games::{self, with_game};
use data::{ReplayWindow, WindowOptions};
use game::{Game, GameTag};
use indicatif::{ProgressBar, ProgressStyle};
use model::{ModelConfig, Network, Shape};
use pipeline::selfplay::{load_network, play_to_shards, Job};
use selfplay::NetworkEvaluator;
use serde_json::json;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};
use train::{batch_builder, BatchBuilder, TrainBatch, TrainConfig, Trainer};

#[derive(clap::Args)]
#[command(
    after_help = "Rows: real self-play games of a fresh network of the config (a cheap search of at\nmost 8 simulations, not timed), or the shards of --data. Slice j of each phase steps on\nthe same batches of the window's stream. raw: forward, backward and optimiser step on\nthose batches encoded beforehand. loop: the trainer's data path (a fresh stream: replay\nwindow, shuffle, decode, encode on the prefetch thread, device copy) and the same\nsteps. The phases alternate in --slices slices of about --seconds / --slices each, taking turns at going first; the\nfigures are medians with [min, max]. ratio = loop / raw, pair by pair: above 1.05 the\nmeasurement is broken and the command exits 1. Run the release build.\n\nExamples:\n  triad bench train\n  triad bench train --config configs/quickstart.toml --json\n  triad bench train --config configs/quickstart.toml --data runs/quickstart/games/gen-0005"
)]
pub struct Args {
    /// Run file whose [game], [model], [selfplay] and [train] sections are
    /// used (default: the quickstart-sized defaults).
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
    /// Seconds of measurement for each of the two phases, split into slices.
    #[arg(long, default_value_t = 10.0, value_name = "S")]
    seconds: f64,
    /// Slices per phase (the phases alternate slice by slice).
    #[arg(long, default_value_t = 5, value_name = "N")]
    slices: usize,
    /// Self-play games played for the rows (when no --data is given).
    #[arg(long, default_value_t = 48, value_name = "N")]
    games: u64,
    /// Train on these shards (files or folders) instead of fresh self-play.
    #[arg(long, value_name = "DIR", num_args = 1..)]
    data: Vec<PathBuf>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

/// A loop faster than the raw step by more than this is a broken measurement.
const MAX_HONEST_RATIO: f64 = 1.05;

fn input(e: impl std::fmt::Display) -> CliError {
    CliError::input(e.to_string())
}

fn spinner(msg: &str) -> ProgressBar {
    let b = ProgressBar::new_spinner();
    if let Ok(s) = ProgressStyle::with_template("{spinner} {msg} [{elapsed}]") {
        b.set_style(s);
    }
    b.set_message(msg.to_string());
    b.enable_steady_tick(Duration::from_millis(200));
    b
}

/// Median, min and max.
fn spread(xs: &[f64]) -> (f64, f64, f64) {
    let mut v = xs.to_vec();
    v.sort_by(f64::total_cmp);
    let n = v.len();
    let median = if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    };
    (median, v[0], v[n - 1])
}

/// Samples per second of each phase's slices, and the encoding alone.
struct Figures {
    raw: Vec<f64>,
    train: Vec<f64>,
    encode: f64,
    rows: usize,
}

pub fn run(args: Args) -> Result<(), CliError> {
    if !(args.seconds > 0.0 && args.seconds.is_finite()) || args.games == 0 {
        return Err(CliError::input("--seconds and --games must be positive"));
    }
    if !(1..=100).contains(&args.slices) {
        return Err(CliError::input("--slices must be 1..=100"));
    }
    let (cfg, game) = match &args.config {
        Some(path) => {
            let run = crate::config::load_run(path)?;
            (run.config, run.game)
        }
        None => (
            pipeline::RunConfig::default(),
            games::from_flag(games::DEFAULT_GAME)?,
        ),
    };
    let device = cfg.model.tch_device().map_err(input)?;
    let dir = std::env::temp_dir().join(format!("triad-bench-train-{}", std::process::id()));
    let result = with_game!(game, |g| bench(&g, &args, &cfg, device, &dir));
    let _ = std::fs::remove_dir_all(&dir);
    let f = result?;
    let ratios: Vec<f64> = f.train.iter().zip(&f.raw).map(|(t, r)| t / r).collect();
    let (raw, raw_min, raw_max) = spread(&f.raw);
    let (real, real_min, real_max) = spread(&f.train);
    let (ratio, ratio_min, ratio_max) = spread(&ratios);
    let tc = &cfg.train;
    if args.json {
        print_json(&json!({
            "raw_samples_per_s": raw,
            "raw_samples_per_s_range": [raw_min, raw_max],
            "train_samples_per_s": real,
            "train_samples_per_s_range": [real_min, real_max],
            "ratio": ratio,
            "ratio_range": [ratio_min, ratio_max],
            "slices": args.slices,
            "encode_samples_per_s": f.encode,
            "window_rows": f.rows,
            "batch_size": tc.batch_size,
            "device": format!("{device:?}"),
            "threads": tch::get_num_threads(),
        }));
    } else {
        println!(
            "batch {}, device {device:?}, {} threads, {} rows, {} slices of {:.1} s per phase",
            tc.batch_size,
            tch::get_num_threads(),
            f.rows,
            args.slices,
            args.seconds / args.slices as f64
        );
        println!("raw step (batch in memory): {raw:>9.0} samples/s  [{raw_min:.0}, {raw_max:.0}]");
        println!(
            "training loop (window):     {real:>9.0} samples/s  [{real_min:.0}, {real_max:.0}]"
        );
        println!("ratio (pair by pair):       {ratio:>9.3}  [{ratio_min:.3}, {ratio_max:.3}]");
        println!("encoding alone (one thread): {:>8.0} samples/s", f.encode);
    }
    if ratio > MAX_HONEST_RATIO {
        return Err(CliError::failed(format!(
            "failed measurement: the training loop, a superset of the raw step, measured {ratio:.3} times as fast (> {MAX_HONEST_RATIO}); the machine's load changed between slices or the phases do different work"
        )));
    }
    Ok(())
}

/// Real self-play rows for the window: `args.games` games of a fresh
/// network of the config with a cheap search, written under `dir`.
fn selfplay_rows<G: Game>(
    game: &G,
    args: &Args,
    cfg: &pipeline::RunConfig,
    dir: &Path,
) -> Result<PathBuf, CliError>
where
    G::State: game::AlphaBetaState,
{
    let out = dir.join("shards");
    let (net, model_id) = load_network(game, &cfg.model, None, cfg.seed).map_err(pipeline_error)?;
    let mut sp = cfg.selfplay.clone();
    sp.simulations = sp.simulations.min(8);
    sp.cheap_simulations = sp.cheap_simulations.min(sp.simulations);
    let job = Job {
        out: out.clone(),
        games: args.games,
        first_game_id: 0,
        seed: cfg.seed,
        shard_games: args.games.div_ceil(4),
        model_id,
    };
    let bar = spinner("self-play for the rows (not timed)");
    play_to_shards(
        game,
        &sp,
        &mut NetworkEvaluator::new(net),
        &job,
        &AtomicBool::new(false),
        &bar,
    )
    .map_err(pipeline_error)?;
    bar.finish_and_clear();
    Ok(out)
}

fn bench<G: Game>(
    game: &G,
    args: &Args,
    cfg: &pipeline::RunConfig,
    device: tch::Device,
    dir: &Path,
) -> Result<Figures, CliError>
where
    G::State: game::AlphaBetaState,
{
    let (model_cfg, tc): (&ModelConfig, &TrainConfig) = (&cfg.model, &cfg.train);
    train::set_threads(tc, model_cfg);
    let data = if args.data.is_empty() {
        vec![selfplay_rows(game, args, cfg, dir)?]
    } else {
        args.data.clone()
    };
    let window = ReplayWindow::load_for(&data, tc.window, &GameTag::of(game)).map_err(input)?;
    if window.is_empty() {
        return Err(CliError::input("no rows to train on"));
    }
    let options = WindowOptions {
        batch_size: tc.batch_size,
        seed: tc.seed,
        symmetries: if tc.mirror { game.symmetries() } else { 1 },
        prefetch: tc.prefetch.max(1),
        epochs: None,
    };
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
                ..options.clone()
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
        return Err(CliError::failed("no decodable batch in the rows"));
    }
    let t = Instant::now();
    for b in &warm {
        trainer.step(b, tc.lr, false);
    }
    let per_step = t.elapsed().as_secs_f64() / warm.len() as f64;
    let n = ((args.seconds / args.slices as f64 / per_step.max(1e-6)).round() as usize).max(4);
    let bar = ProgressBar::new(2 * args.slices as u64);
    if let Ok(s) = ProgressStyle::with_template("{msg} [{bar:30}] {pos}/{len} slices") {
        bar.set_style(s);
    }
    let (mut raw, mut real) = (Vec::new(), Vec::new());
    for j in 0..args.slices {
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
                let (mut samples, t) = (0usize, Instant::now());
                for b in &batches {
                    if b.rows > 0 {
                        trainer.step(b, tc.lr, false);
                    }
                    samples += b.rows;
                }
                raw.push(samples as f64 / t.elapsed().as_secs_f64());
            } else {
                bar.set_message(format!("training loop ({n} steps)"));
                let (mut samples, t) = (0usize, Instant::now());
                let mut loop_builder = batch_builder(game, tc, trainer.net.shape());
                let mut produced = 0usize;
                let stream = window.batches_with(&options, move |b| {
                    produced += 1;
                    (produced > from).then(|| loop_builder.build_batch(&b, cheap))
                });
                for b in stream.flatten().take(n) {
                    let b = b.to_device(device);
                    if b.rows > 0 {
                        trainer.step(&b, tc.lr, false);
                    }
                    samples += b.rows;
                }
                real.push(samples as f64 / t.elapsed().as_secs_f64());
            }
            bar.inc(1);
        }
    }
    bar.finish_and_clear();
    Ok(Figures {
        raw,
        train: real,
        encode,
        rows: window.len(),
    })
}
