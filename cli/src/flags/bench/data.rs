//! The flags of `triad bench data` (its `run` is `src/cmd/bench/data.rs`).

use std::path::PathBuf;

#[derive(clap::Args)]
#[command(
    after_help = "Generates legal games by random playouts (not timed), writes them as shards\n(timed), reads them back with every column (timed) and builds the opening\ntree as `triad openings --plies 4` does (timed). Run the release build.\n\nExample:\n  triad bench data --positions 1000000 --json"
)]
pub struct Args {
    /// Positions to generate, write and read.
    #[arg(long, default_value_t = 1_000_000)]
    pub positions: u64,
    /// Positions per shard.
    #[arg(long, default_value_t = 250_000)]
    pub shard_rows: u64,
    /// Depth of the opening tree.
    #[arg(long, default_value_t = 4)]
    pub plies: usize,
    /// Seed of the random playouts.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The game, `NAME[/VARIANT]`.
    #[arg(long, default_value = super::super::DEFAULT_GAME, value_name = "GAME")]
    pub game: String,
    /// Keep the shards in this directory (default: a temporary directory, removed afterwards).
    #[arg(long)]
    pub dir: Option<PathBuf>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}
