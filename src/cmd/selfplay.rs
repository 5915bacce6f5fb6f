//! `triad selfplay`: plays games with batched MCTS and writes them as
//! Parquet shards (see `docs/selfplay.md` and `docs/data.md`).

use crate::cli::{print_either, stop_on_signal, CliError};
use pipeline::options::{run_selfplay, SelfplayFlags};
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

pub fn run(args: Args) -> Result<(), CliError> {
    let flags = SelfplayFlags {
        model: args.model,
        games: args.games,
        out: args.out,
        seed: args.seed,
        first_game_id: args.first_game_id,
        shard_games: args.shard_games,
    };
    let json = args.json;
    let stop = stop_on_signal();
    run_selfplay(&args.config, &flags, &stop, &mut |report, model_id| {
        print_either(
            json,
            || report.summary_json(model_id),
            || report.summary_text(),
        )
    })?;
    Ok(())
}
