//! `triad bench search`: alpha-beta speed on fixed positions (the harness
//! is `bench::search`).

use super::print_figures;
use crate::cmd::CliError;
use crate::games::with_game;
use ::bench::search::{self, SearchOptions};

/// Alpha-beta search speed.
///
/// Searches each of six fixed middle-game positions to a fixed node budget
/// and reports nodes per second, then searches the start position for one
/// second and reports the depth completed.
#[derive(clap::Args)]
pub struct Args {
    /// Nodes per middle-game position.
    #[arg(long, default_value_t = 1_000_000)]
    nodes: u64,
    /// Milliseconds for the start-position depth test.
    #[arg(long, default_value_t = 1000)]
    movetime: u64,
    /// The game, `NAME[/VARIANT]` (its fixed benchmark positions,
    /// `Game::bench_positions`).
    #[arg(long, default_value = crate::games::DEFAULT_GAME, value_name = "GAME")]
    game: String,
    /// Print one JSON object instead.
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args) -> Result<(), CliError> {
    let game = registry::from_flag(&args.game)?;
    if args.nodes == 0 || args.movetime == 0 {
        return Err(CliError::input("--nodes and --movetime must be positive"));
    }
    let options = SearchOptions {
        nodes: args.nodes,
        movetime: args.movetime,
    };
    let bar = pipeline::bar_with(0, "{msg} [{bar:30}] {pos}/{len}");
    bar.set_message("bench search");
    let f = with_game!(game, |g| search::run(&g, &options, &bar))?;
    if args.json {
        print_figures(&f);
    } else {
        print!("{}", f.text());
    }
    Ok(())
}
