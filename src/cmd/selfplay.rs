//! `triad selfplay`: plays games with batched MCTS and writes them as
//! Parquet shards (see `docs/selfplay.md` and `docs/data.md`).

use crate::cli::{print_json, CliError};
use crate::games::with_game;
use game::Game;
use indicatif::{ProgressBar, ProgressStyle};
use pipeline::selfplay::{prepare_job, upload_shards, Job};
use pipeline::{load_run, RunConfig};
use std::path::PathBuf;

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
        let store = pipeline::options::open_store(&out_text, "--out")?;
        let local =
            std::env::temp_dir().join(format!("triad-selfplay-{}", pipeline::scale::incarnation()));
        args.out = local.clone();
        with_game!(run.game, |g| run_game(&g, cfg, args))?;
        let result = upload_shards(&store, &local).map_err(CliError::from);
        let _ = std::fs::remove_dir_all(&local);
        let n = result?;
        eprintln!("{out_text}: {n} shards uploaded");
        return Ok(());
    }
    with_game!(run.game, |g| run_game(&g, cfg, args))
}

fn run_game<G: Game>(game: &G, cfg: &RunConfig, args: Args) -> Result<(), CliError>
where
    G::State: game::AlphaBetaState,
{
    if args.games == 0 {
        return Err(CliError::input("--games must be at least 1"));
    }
    if args.shard_games == 0 {
        return Err(CliError::input("--shard-games must be at least 1"));
    }
    let job = Job {
        out: args.out.clone(),
        games: args.games,
        first_game_id: args.first_game_id,
        seed: args.seed,
        shard_games: args.shard_games,
        model_id: String::new(),
    };
    let prepared = prepare_job(game, cfg, args.model.as_deref(), job)?;
    let model_id = prepared.model_id().to_string();
    let stop = crate::cli::stop_on_signal();
    let bar = ProgressBar::new(args.games);
    bar.set_style(
        ProgressStyle::with_template("{elapsed_precise} [{bar:30}] {pos}/{len} games  {msg}")
            .expect("valid template")
            .progress_chars("=> "),
    );
    let report = prepared.run(game, &stop, &bar)?;
    bar.finish_and_clear();
    if args.json {
        print_json(&report.summary_json(&model_id));
    } else {
        print!("{}", report.summary_text());
    }
    Ok(())
}
