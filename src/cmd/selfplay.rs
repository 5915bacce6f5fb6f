//! `triad selfplay`: plays games with batched MCTS and writes them as
//! Parquet shards (see `docs/selfplay.md` and `docs/data.md`).

use crate::cli::{pipeline_error, print_json, CliError};
use crate::config::{load_run, RunConfig};
use crate::games::with_game;
use game::Game;
use indicatif::{ProgressBar, ProgressStyle};
use pipeline::selfplay::{load_pool_evaluators, play_to_shards_pooled, Job};
use selfplay::Totals;
use serde_json::json;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

#[derive(clap::Args)]
#[command(
    after_help = "The [selfplay] section of the config sets the search (PUCT or Gumbel, \
simulations, noise, temperature, resignation, games in flight, pools); the [model] section the \
network when no --model is given. Shards are written as DIR/selfplay-s<SEED>-<NNNN>.parquet \
(with [selfplay] pools = P > 1, one series per pool: DIR/selfplay-s<SEED>-p<I>-<NNNN>.parquet; \
pools run a network copy each, on their own cores, and play the same games) \
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
    /// Folder for the shards (created if missing), or a store URL (s3://,
    /// gs://, az://: each shard uploaded whole by put-if-absent at the end).
    #[arg(long, value_name = "DIR|URL")]
    out: PathBuf,
    /// Seed of the games (and of the random network); same seed, same games.
    #[arg(long, default_value_t = 1, value_name = "S")]
    seed: u64,
    /// The first game id (ids N..N+games): give each job of a run its own
    /// range so that game ids stay unique within the run.
    #[arg(long, default_value_t = 0, value_name = "N")]
    first_game_id: u64,
    /// Games per shard.
    #[arg(long, default_value_t = 1000, value_name = "N")]
    shard_games: u64,
    /// Print the summary as one JSON object.
    #[arg(long)]
    json: bool,
}

pub fn run(mut args: Args) -> Result<(), CliError> {
    let run = load_run(&args.config)?;
    let cfg = &run.config;
    let out_text = args.out.to_string_lossy().into_owned();
    if let Some(local) = out_text.strip_prefix("file://") {
        args.out = PathBuf::from(local);
    } else if store::is_url(&args.out) {
        // Shards for a store: written whole in a local folder, then each
        // uploaded by put-if-absent (a name already there is refused).
        let store =
            store::Store::open(&out_text).map_err(|e| CliError::input(format!("--out: {e}")))?;
        let local =
            std::env::temp_dir().join(format!("triad-selfplay-{}", pipeline::scale::incarnation()));
        args.out = local.clone();
        with_game!(run.game, |g| run_game(&g, cfg, args))?;
        let result = upload_shards(&store, &local);
        let _ = std::fs::remove_dir_all(&local);
        let n = result?;
        eprintln!("{out_text}: {n} shards uploaded");
        return Ok(());
    }
    with_game!(run.game, |g| run_game(&g, cfg, args))
}

/// Uploads the finished shards of `dir` to `store`, each by put-if-absent.
fn upload_shards(store: &store::Store, dir: &std::path::Path) -> Result<usize, CliError> {
    let mut n = 0;
    let entries =
        std::fs::read_dir(dir).map_err(|e| CliError::failed(format!("{}: {e}", dir.display())))?;
    for e in entries.flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        if !name.ends_with(".parquet") {
            continue;
        }
        let bytes = std::fs::read(e.path())
            .map_err(|err| CliError::failed(format!("{}: {err}", e.path().display())))?;
        match store.put_new(&name, bytes) {
            Ok(store::PutOutcome::Created) => n += 1,
            Ok(store::PutOutcome::AlreadyExists) => {
                return Err(CliError::input(format!(
                    "{}: {name} exists already: choose another --seed or --out",
                    store.url()
                )))
            }
            Err(err) => return Err(CliError::failed(err.to_string())),
        }
    }
    Ok(n)
}

fn run_game<G: Game>(game: &G, cfg: &RunConfig, args: Args) -> Result<(), CliError>
where
    G::State: game::AlphaBetaState,
{
    let config = &cfg.selfplay;
    if args.games == 0 {
        return Err(CliError::input("--games must be at least 1"));
    }
    if args.shard_games == 0 {
        return Err(CliError::input("--shard-games must be at least 1"));
    }
    let (mut evaluators, model_id) = load_pool_evaluators(
        game,
        &cfg.model,
        args.model.as_deref(),
        args.seed,
        config.pools,
    )
    .map_err(pipeline_error)?;
    let stop = Arc::new(AtomicBool::new(false));
    {
        let stop = stop.clone();
        // Failing to install the handler (e.g. one already set) only loses
        // the clean stop; the run itself is fine.
        let _ = ctrlc::set_handler(move || stop.store(true, Ordering::SeqCst));
    }
    let bar = ProgressBar::new(args.games);
    bar.set_style(
        ProgressStyle::with_template("{elapsed_precise} [{bar:30}] {pos}/{len} games  {msg}")
            .expect("valid template")
            .progress_chars("=> "),
    );
    let job = Job {
        out: args.out.clone(),
        games: args.games,
        first_game_id: args.first_game_id,
        seed: args.seed,
        shard_games: args.shard_games,
        model_id: model_id.clone(),
    };
    // One writer per folder: a second `triad selfplay` into it is refused
    // naming the first; a killed one's lock is taken over.
    let _lock =
        pipeline::lock::RunLock::acquire(&args.out, "triad selfplay").map_err(pipeline_error)?;
    let report = play_to_shards_pooled(game, config, &mut evaluators, &job, &stop, &bar)
        .map_err(pipeline_error)?;
    bar.finish_and_clear();
    let (shards, interrupted) = (&report.shards, report.interrupted);
    let secs = report.seconds;
    let t = report.totals;
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
        for s in shards {
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
