//! `triad bench train`: the raw forward + backward + optimiser step on a
//! batch already in memory, then the real training loop reading shards, and
//! their ratio (how much the data path costs the trainer).

use crate::cmd::{print_json, CliError};
use crate::games::{self, with_game};
use data::synthetic::random_game;
use data::{ReplayWindow, ShardWriter, WindowOptions};
use game::Game;
use indicatif::{ProgressBar, ProgressStyle};
use model::{ModelConfig, Network, Shape};
use serde_json::json;
use std::path::PathBuf;
use std::time::{Duration, Instant};
use train::{BatchBuilder, RunOptions, TrainConfig, Trainer};

#[derive(clap::Args)]
#[command(
    after_help = "Shards of synthetic games from random playouts are written to a temporary\ndirectory first (not timed). `raw_samples_per_s`: steps cycling over 8 batches\nencoded beforehand. `train_samples_per_s`: `triad train`'s loop on those shards (window,\nshuffling, decoding, encoding on the prefetch thread, metrics), start-up and\nfinal checkpoint excluded. Run the release build.\n\nExamples:\n  triad bench train\n  triad bench train --config configs/quickstart.toml --json"
)]
pub struct Args {
    /// Run file whose [model] and [train] sections are used (default: the
    /// quickstart network and [train] defaults).
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
    /// Seconds of measurement for each of the two phases.
    #[arg(long, default_value_t = 10.0, value_name = "S")]
    seconds: f64,
    /// Positions written to the shards.
    #[arg(long, default_value_t = 20_000, value_name = "N")]
    positions: usize,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

/// Pre-encoded batches the raw measurement cycles through.
const RAW_BATCHES: usize = 8;

fn input(e: impl std::fmt::Display) -> CliError {
    CliError::input(e.to_string())
}

pub fn run(args: Args) -> Result<(), CliError> {
    let game = match &args.config {
        Some(path) => games::load(path)?,
        None => games::from_flag(games::DEFAULT_GAME)?,
    };
    with_game!(game, |g| run_game(&g, args))
}

fn run_game<G: Game>(game: &G, args: Args) -> Result<(), CliError> {
    if !(args.seconds > 0.0 && args.seconds.is_finite()) || args.positions == 0 {
        return Err(CliError::input(
            "--seconds and --positions must be positive",
        ));
    }
    let (model_cfg, mut cfg) = match &args.config {
        Some(p) => (
            ModelConfig::from_file(p).map_err(input)?,
            TrainConfig::from_file(p).map_err(input)?,
        ),
        None => (ModelConfig::default(), TrainConfig::default()),
    };
    let device = model_cfg.tch_device().map_err(input)?;
    train::set_threads(&cfg, &model_cfg);
    let dir = std::env::temp_dir().join(format!("triad-bench-train-{}", std::process::id()));
    let result = bench(game, &args, &model_cfg, &mut cfg, device, &dir);
    let _ = std::fs::remove_dir_all(&dir);
    let (raw, real, encode) = result?;
    let ratio = real / raw.max(1e-9);
    if args.json {
        print_json(&json!({
            "raw_samples_per_s": raw,
            "train_samples_per_s": real,
            "ratio": ratio,
            "encode_samples_per_s": encode,
            "batch_size": cfg.batch_size,
            "device": format!("{device:?}"),
            "threads": tch::get_num_threads(),
        }));
    } else {
        println!(
            "batch {}, device {device:?}, {} threads",
            cfg.batch_size,
            tch::get_num_threads()
        );
        println!("raw step (batch in memory): {raw:>10.0} samples/s");
        println!("training loop (shards):     {real:>10.0} samples/s");
        println!("ratio:                      {ratio:>10.3}");
        println!("encoding alone (one thread): {encode:>9.0} samples/s");
    }
    Ok(())
}

fn bench<G: Game>(
    game: &G,
    args: &Args,
    model_cfg: &ModelConfig,
    cfg: &mut TrainConfig,
    device: tch::Device,
    dir: &std::path::Path,
) -> Result<(f64, f64, f64), CliError> {
    let spinner = |msg: &str| {
        let b = ProgressBar::new_spinner();
        if let Ok(s) = ProgressStyle::with_template("{spinner} {msg} [{elapsed}]") {
            b.set_style(s);
        }
        b.set_message(msg.to_string());
        b.enable_steady_tick(Duration::from_millis(200));
        b
    };
    // Synthetic shards (not timed).
    let shards = dir.join("shards");
    std::fs::create_dir_all(&shards)
        .map_err(|e| CliError::failed(format!("{}: {e}", shards.display())))?;
    let bar = spinner("writing synthetic shards");
    let start = game.start();
    let (mut written, mut game_id, mut shard) = (0usize, 0u64, 0u32);
    while written < args.positions {
        let path = shards.join(format!("shard-{shard:06}.parquet"));
        let mut w = ShardWriter::create(&path).map_err(input)?;
        while (w.rows() as usize) < args.positions.div_ceil(4) && written < args.positions {
            let record = random_game(game, game_id, &start, 1, 200);
            written += record.positions.len();
            game_id += 1;
            w.push_game(&record).map_err(input)?;
        }
        w.finish().map_err(input)?;
        shard += 1;
    }
    bar.finish_and_clear();

    // Raw: batches encoded beforehand, stepped on in turn.
    let bar = spinner("raw forward + backward + optimiser step");
    let window = ReplayWindow::load(&[&shards], cfg.window).map_err(input)?;
    // A few batches of the same stream the loop reads, so their move counts
    // are typical; encoded once and cycled through.
    let cheap = cfg.cheap_search_weight as f32;
    let mut builder = BatchBuilder::new(game).with_value_q_weight(cfg.value_q_weight as f32);
    let raw_batches: Vec<_> = window
        .batches(&WindowOptions {
            batch_size: cfg.batch_size,
            seed: cfg.seed,
            symmetries: if cfg.mirror { game.symmetries() } else { 1 },
            ..Default::default()
        })
        .take(RAW_BATCHES)
        .collect();
    // Encoding alone (decode rows, legal moves, planes, targets, tensors):
    // what the prefetch thread must keep ahead of.
    let t = Instant::now();
    let batches: Vec<_> = raw_batches
        .iter()
        .map(|b| builder.build(b.iter(), cheap).to_device(device))
        .collect();
    let encode = batches.iter().map(|b| b.rows).sum::<usize>() as f64 / t.elapsed().as_secs_f64();
    if batches.is_empty() {
        return Err(CliError::failed("no batch from the synthetic shards"));
    }
    let net = Network::with_shape(Shape::of(model_cfg, game.encoding()), device, cfg.seed);
    let mut trainer = Trainer::new(net, cfg);
    for batch in batches.iter().take(3) {
        trainer.step(batch, cfg.lr, false);
    }
    let budget = Duration::from_secs_f64(args.seconds);
    let t = Instant::now();
    let (mut steps, mut samples) = (0u64, 0usize);
    while t.elapsed() < budget {
        let batch = &batches[steps as usize % batches.len()];
        samples += batch.rows;
        // The loop's learning rates (warm-up included) and its logging
        // cadence: reading the loss back waits for the device.
        trainer.step(batch, cfg.lr_at(steps), steps % cfg.metrics_every == 0);
        steps += 1;
    }
    let seconds = t.elapsed().as_secs_f64();
    let raw_steps_per_s = steps as f64 / seconds;
    let raw = samples as f64 / seconds;
    drop(trainer);
    bar.finish_and_clear();

    // The real loop on the shards, for about the same time.
    let bar = spinner("training loop on shards");
    let steps = ((raw_steps_per_s * args.seconds).ceil() as u64).max(5);
    cfg.steps = steps;
    cfg.checkpoint_every = steps + 1;
    let opts = RunOptions {
        run_dir: dir.join("run"),
        data: vec![shards.clone()],
        ..Default::default()
    };
    let summary = train::train(game, model_cfg, cfg, &opts, &mut |_| {})
        .map_err(|e| CliError::failed(e.to_string()))?;
    bar.finish_and_clear();
    Ok((raw, summary.samples_per_s(), encode))
}
