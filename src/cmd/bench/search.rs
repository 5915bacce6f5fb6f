//! `triad bench search`: alpha-beta speed on fixed positions (the harness
//! is `bench::search`).

pub use ::cli::flags::bench::search::*;

use super::print_figures;
use crate::cmd::CliError;
use crate::games::with_game;
use ::bench::search::{self, SearchOptions};

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
