//! `triad bench data`: shard write and read throughput, bytes per position,
//! and the opening-tree time, on synthetic games from random playouts
//! (the harness is `bench::data`).

pub use ::cli::flags::bench::data::*;

use super::print_figures;
use crate::cmd::CliError;
use crate::games::with_game;
use ::bench::data::{self as harness, DataOptions};

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
