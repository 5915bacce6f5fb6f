//! The flags of `triad trainer` (its `run` is `src/cmd/trainer.rs`).

use std::path::PathBuf;

#[derive(clap::Args)]
#[command(
    after_help = "Publishes the run file as RUN/config.toml (a run holding another \
one is refused) and a fresh network as generation 0, then for each generation: lists \
RUN/games/, downloads the new shards, waits until --min-new-games new games have come in, \
trains (at most --max-sample-ratio samples per new sample), uploads the weights under a name \
of its own (RUN/networks/gen-NNNN-<trainer>.safetensors) and publishes the generation's \
manifest RUN/networks/gen-NNNN.json by put-if-absent, then RUN/LATEST. Every new shard is \
verified first (as `triad data verify`, game ids unique across the run): one that fails \
is moved to RUN/quarantine/games/… with a .reason.json beside it, said and counted, and \
never trained on. A second trainer on \
the same run loses that put and stops, saying so (exit 2). Killed, it resumes from --work (or, with a new one, from the newest \
published network). A run in the old layout (shards/gNNNNNN/, checkpoints/gNNNNNN…) is \
refused: `triad data upgrade RUN` renames it.

Defaults come from the run file: --generations is [loop] generations, --min-new-games \
[loop] games_per_generation, --steps [loop] train_steps_per_generation.

Examples:
  triad trainer --config configs/connect4-quickstart.toml --run s3://triad-runs/c4-01
  triad trainer --config run.toml --run /shared/runs/r1 --work /scratch/r1 --max-sample-ratio 4"
)]
pub struct Args {
    /// The run file.
    #[arg(long, value_name = "FILE")]
    pub config: PathBuf,
    /// The run: a URL (s3://, gs://, az://, file://) or a path.
    #[arg(long, value_name = "URL")]
    pub run: String,
    /// A local folder for training state and ingested shards (default: a
    /// folder under the system's temporary folder named after the run).
    #[arg(long, value_name = "DIR")]
    pub work: Option<PathBuf>,
    /// Train up to this generation (default: [loop] generations).
    #[arg(long, value_name = "N")]
    pub generations: Option<u32>,
    /// New games needed before a generation (default: [loop] games_per_generation).
    #[arg(long, value_name = "N")]
    pub min_new_games: Option<u64>,
    /// Training steps per generation (default: [loop] train_steps_per_generation).
    #[arg(long, value_name = "N")]
    pub steps: Option<u64>,
    /// At most this many samples trained per new sample (0: no cap).
    #[arg(long, default_value_t = 0.0, value_name = "R")]
    pub max_sample_ratio: f64,
    /// Train on the shards of the last K generations only (0: all).
    #[arg(long, default_value_t = 0, value_name = "K")]
    pub window_generations: u32,
    /// Seconds between listings while waiting for games.
    #[arg(long, default_value_t = 5.0, value_name = "S")]
    pub poll: f64,
    /// After each generation, play it against the previous one and the
    /// [eval] ladder with the [eval] settings: RUN/matches/gen-NNNN.json and
    /// the refitted RUN/ratings.md.
    #[arg(long)]
    pub matches: bool,
    /// Seconds to keep retrying an unreachable store (with backoff, saying
    /// so on stderr) before giving up with exit 1.
    #[arg(long, default_value_t = 300.0, value_name = "S")]
    pub patience: f64,
    /// Ingest shards without verifying them against the game's rules (by
    /// default a shard that fails is moved to RUN/quarantine/ and never
    /// trained on); for measuring what verification costs.
    #[arg(long)]
    pub no_verify: bool,
    /// Print one JSON object (generations published, ingestion rates,
    /// shards quarantined) at the end.
    #[arg(long)]
    pub json: bool,
}
