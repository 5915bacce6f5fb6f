//! The flags of `triad selfplay` (its `run` is `src/cmd/selfplay.rs`).

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
    pub config: PathBuf,
    /// Checkpoint (NAME.safetensors with its NAME.json sidecar); default: a
    /// fresh random network from the config's [model] section.
    #[arg(long, value_name = "CKPT")]
    pub model: Option<PathBuf>,
    /// Games to play.
    #[arg(long, value_name = "N")]
    pub games: u64,
    /// Folder for the shards (created if missing), or a store URL (s3://,
    /// gs://, az://: each shard uploaded whole by put-if-absent at the end).
    #[arg(long, value_name = "DIR|URL")]
    pub out: PathBuf,
    /// Seed of the games (and of the random network); same seed, same games.
    #[arg(long, default_value_t = 1, value_name = "S")]
    pub seed: u64,
    /// The first game id (ids N..N+games): give each job of a run its own
    /// range so that game ids stay unique within the run.
    #[arg(long, default_value_t = 0, value_name = "N")]
    pub first_game_id: u64,
    /// Games per shard.
    #[arg(long, default_value_t = 1000, value_name = "N")]
    pub shard_games: u64,
    /// Print the summary as one JSON object.
    #[arg(long)]
    pub json: bool,
}
