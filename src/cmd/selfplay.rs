//! `triad selfplay`: plays games with batched MCTS and writes them as
//! Parquet shards (see `docs/selfplay.md` and `docs/data.md`).

use crate::cmd::{print_json, CliError};
use crate::games::{self, with_game};
use game::{Game, GameTag};
use indicatif::{ProgressBar, ProgressStyle};
use model::{ModelConfig, Network};
use selfplay::{NetworkEvaluator, SelfPlay, SelfplayConfig, Totals};
use serde_json::json;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

#[derive(clap::Args)]
#[command(
    after_help = "The [selfplay] section of the config sets the search (PUCT or Gumbel, \
simulations, noise, temperature, resignation, games in flight); the [model] section the \
network when no --model is given. Shards are written as DIR/selfplay-s<SEED>-<NNNN>.parquet \
under a temporary name and renamed when complete. Ctrl-C stops: finished games are kept, \
games in progress are dropped.\n\nExamples:\n  triad selfplay --config configs/quickstart.toml \
--games 64 --out runs/q/games\n  triad selfplay --config run.toml --model ckpt/net-000100.safetensors \
--games 5000 --out games --seed 7"
)]
pub struct Args {
    /// Run file (TOML) with the [selfplay] and [model] sections.
    #[arg(long, value_name = "FILE")]
    config: PathBuf,
    /// Checkpoint (NAME.safetensors with its NAME.json sidecar); default: a
    /// fresh random network from the config's [model] section.
    #[arg(long, value_name = "CKPT")]
    model: Option<PathBuf>,
    /// Games to play.
    #[arg(long, value_name = "N")]
    games: u64,
    /// Folder for the shards (created if missing).
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
    /// Seed of the games (and of the random network); same seed, same games.
    #[arg(long, default_value_t = 1, value_name = "S")]
    seed: u64,
    /// Games per shard.
    #[arg(long, default_value_t = 1000, value_name = "N")]
    shard_games: u64,
    /// Print the summary as one JSON object.
    #[arg(long)]
    json: bool,
}

/// The network a run uses and the id written on its rows: a checkpoint of
/// `game` (another game or variant is refused, naming both) or a fresh one.
pub fn load_network<G: Game>(
    game: &G,
    config: &Path,
    checkpoint: Option<&Path>,
    seed: u64,
) -> Result<(Network, String, ModelConfig), CliError> {
    let model_config =
        ModelConfig::from_file(config).map_err(|e| CliError::input(e.to_string()))?;
    match checkpoint {
        None => {
            let net =
                Network::new(&model_config, game.encoding(), seed)
                    .map_err(|e| CliError::input(e.to_string()))?;
            Ok((net, format!("random-seed{seed}"), model_config))
        }
        Some(path) => {
            let device = model_config
                .tch_device()
                .map_err(|e| CliError::input(e.to_string()))?;
            if model_config.threads > 0 {
                tch::set_num_threads(model_config.threads as i32);
            }
            let (net, info) =
                Network::load(path, &GameTag::of(game), device)
                    .map_err(|e| CliError::input(e.to_string()))?;
            let stem = path
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default();
            Ok((net, format!("{stem}@{}", info.step), model_config))
        }
    }
}

pub fn run(args: Args) -> Result<(), CliError> {
    let game = games::load(&args.config)?;
    with_game!(game, |g| run_game(&g, args))
}

fn run_game<G: Game>(game: &G, args: Args) -> Result<(), CliError> {
    let config =
        SelfplayConfig::from_file(&args.config).map_err(|e| CliError::input(e.to_string()))?;
    if args.games == 0 {
        return Err(CliError::input("--games must be at least 1"));
    }
    if args.shard_games == 0 {
        return Err(CliError::input("--shard-games must be at least 1"));
    }
    let (net, model_id, _) = load_network(game, &args.config, args.model.as_deref(), args.seed)?;
    std::fs::create_dir_all(&args.out)
        .map_err(|e| CliError::input(format!("{}: cannot create: {e}", args.out.display())))?;
    let shard_path = |i: u64| {
        args.out
            .join(format!("selfplay-s{}-{i:04}.parquet", args.seed))
    };
    if shard_path(0).exists() {
        return Err(CliError::input(format!(
            "{} exists: choose another --out or --seed",
            shard_path(0).display()
        )));
    }

    let stop = Arc::new(AtomicBool::new(false));
    {
        let stop = stop.clone();
        // Failing to install the handler (e.g. one already set) only loses
        // the clean stop; the run itself is fine.
        let _ = ctrlc::set_handler(move || stop.store(true, Ordering::SeqCst));
    }

    let mut evaluator = NetworkEvaluator::new(net);
    let mut driver = SelfPlay::new(game, &config, args.seed, args.games, &model_id);
    let bar = ProgressBar::new(args.games);
    bar.set_style(
        ProgressStyle::with_template("{elapsed_precise} [{bar:30}] {pos}/{len} games  {msg}")
            .expect("valid template")
            .progress_chars("=> "),
    );
    let started = Instant::now();
    let mut finished = Vec::new();
    let mut shard_index = 0;
    let mut in_shard = 0;
    let mut writer: Option<data::ShardWriter> = None;
    let mut shards = Vec::new();
    let mut interrupted = false;
    while !driver.is_done() {
        if stop.load(Ordering::SeqCst) && !interrupted {
            interrupted = true;
            driver.abandon();
            bar.println("interrupted: keeping finished games, dropping games in progress");
            continue;
        }
        finished.clear();
        driver.round(&mut evaluator, &mut finished);
        for g in &finished {
            if writer.is_none() {
                writer = Some(
                    data::ShardWriter::create(shard_path(shard_index))
                        .map_err(|e| CliError::failed(e.to_string()))?,
                );
            }
            let w = writer.as_mut().expect("shard just opened");
            for r in &g.records {
                w.push(r).map_err(|e| CliError::failed(e.to_string()))?;
            }
            in_shard += 1;
            if in_shard == args.shard_games {
                let done = writer.take().expect("open shard").finish();
                shards.push(done.map_err(|e| CliError::failed(e.to_string()))?);
                shard_index += 1;
                in_shard = 0;
            }
        }
        bar.set_position(driver.totals.games);
        bar.set_message(progress_message(
            &driver.totals,
            started.elapsed().as_secs_f64(),
        ));
    }
    if let Some(w) = writer.take() {
        shards.push(w.finish().map_err(|e| CliError::failed(e.to_string()))?);
    }
    bar.finish_and_clear();
    let secs = started.elapsed().as_secs_f64();
    let t = driver.totals;
    let per_hour = |x: u64| x as f64 * 3600.0 / secs.max(1e-9);
    // Searched positions include those of games dropped by an interrupt.
    let written: u64 = shards.iter().map(|s| s.rows).sum();
    if args.json {
        print_json(&json!({
            "games": t.games,
            "positions": written,
            "positions_searched": t.positions,
            "seconds": secs,
            "games_per_hour": per_hour(t.games),
            "positions_per_hour": per_hour(t.positions),
            "evals_per_s": t.evaluations as f64 / secs.max(1e-9),
            "mean_batch": t.mean_batch(),
            "cache_hits": t.cache_hits,
            "white_wins": t.white_wins,
            "black_wins": t.black_wins,
            "draws": t.draws,
            "resignations": t.resignations,
            "would_resign": t.would_resign,
            "false_resignations": t.false_resignations,
            "false_resignation_rate": t.false_resignation_rate(),
            "interrupted": interrupted,
            "model_id": model_id,
            "shards": shards.iter().map(|s| s.path.display().to_string()).collect::<Vec<_>>(),
        }));
    } else {
        println!(
            "{} games, {} positions written ({} searched) in {:.1} s: {:.0} games/h, {:.0} positions/h, {:.0} evals/s, mean batch {:.1}",
            t.games,
            written,
            t.positions,
            secs,
            per_hour(t.games),
            per_hour(t.positions),
            t.evaluations as f64 / secs.max(1e-9),
            t.mean_batch()
        );
        println!(
            "results: {} white wins, {} black wins, {} draws; {} resignations; false resignations: {}",
            t.white_wins,
            t.black_wins,
            t.draws,
            t.resignations,
            false_rate_text(&t)
        );
        for s in &shards {
            println!(
                "wrote {} ({} rows, {} bytes)",
                s.path.display(),
                s.rows,
                s.bytes
            );
        }
        if interrupted {
            println!("interrupted: games in progress were dropped");
        }
    }
    Ok(())
}

fn false_rate_text(t: &Totals) -> String {
    match t.false_resignation_rate() {
        Some(r) => format!(
            "{}/{} ({:.1}%) of no-resign games",
            t.false_resignations,
            t.would_resign,
            r * 100.0
        ),
        None => "none measured yet".to_string(),
    }
}

fn progress_message(t: &Totals, secs: f64) -> String {
    let secs = secs.max(1e-9);
    format!(
        "{:.0} pos/s  {:.0} evals/s  batch {:.1}  false-resign {}",
        t.positions as f64 / secs,
        t.evaluations as f64 / secs,
        t.mean_batch(),
        match t.false_resignation_rate() {
            Some(r) => format!("{:.1}%", r * 100.0),
            None => "-".into(),
        }
    )
}
