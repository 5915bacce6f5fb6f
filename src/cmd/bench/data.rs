//! `triad bench data`: shard write and read throughput, bytes per position,
//! and the opening-tree time, on synthetic games from random playouts
//! (the harness is `bench::data`).

use std::path::PathBuf;

use super::print_figures;
use crate::cmd::CliError;
use crate::games::with_game;
use ::bench::data::{self as harness, DataOptions};

#[derive(clap::Args)]
#[command(
    after_help = "Generates legal games by random playouts (not timed), writes them as shards\n(timed), reads them back with every column (timed) and builds the opening\ntree as `triad openings --plies 4` does (timed). Run the release build.\n\nExample:\n  triad bench data --positions 1000000 --json"
)]
pub struct Args {
    /// Positions to generate, write and read.
    #[arg(long, default_value_t = 1_000_000)]
    positions: u64,
    /// Positions per shard.
    #[arg(long, default_value_t = 250_000)]
    shard_rows: u64,
    /// Depth of the opening tree.
    #[arg(long, default_value_t = 4)]
    plies: usize,
    /// Seed of the random playouts.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The game, `NAME[/VARIANT]`.
    #[arg(long, default_value = crate::games::DEFAULT_GAME, value_name = "GAME")]
    game: String,
    /// Keep the shards in this directory (default: a temporary directory, removed afterwards).
    #[arg(long)]
    dir: Option<PathBuf>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args) -> Result<(), CliError> {
    if args.positions == 0 || args.shard_rows == 0 {
        return Err(CliError::input(
            "--positions and --shard-rows must be positive",
        ));
    }
    let (dir, remove_after) = match &args.dir {
        Some(d) => (d.clone(), false),
        None => (
            std::env::temp_dir().join(format!("triad-bench-data-{}", std::process::id())),
            true,
        ),
    };
    std::fs::create_dir_all(&dir)
        .map_err(|e| CliError::input(format!("cannot create {}: {e}", dir.display())))?;
    let game = registry::from_flag(&args.game)?;
    let options = DataOptions {
        positions: args.positions,
        shard_rows: args.shard_rows,
        plies: args.plies,
        seed: args.seed,
    };
    let bar = pipeline::bar_with(0, "{msg} {bar:30} {pos}/{len} ({eta})");
    let result = with_game!(game, |g| harness::run(&g, &options, &dir, &bar));
    if remove_after {
        let _ = std::fs::remove_dir_all(&dir);
    }
    let f = result?;
    if args.json {
        print_figures(&f);
    } else {
        print!("{}", f.text());
    }
    Ok(())
}
