//! `triad bench env`: the Python package's environment loops in Rust
//! (the harness is `bench::env`; `scripts/bench-python.py` runs it beside
//! the Python loops and pyspiel's).

pub use ::cli::flags::bench::env::*;

use super::print_figures;
use crate::cmd::CliError;
use crate::games::with_game;
use ::bench::env::{self as harness, EnvOptions};

pub fn run(args: Args) -> Result<(), CliError> {
    let game = registry::from_flag(&args.game)?;
    let options = EnvOptions {
        seconds: args.seconds,
        rounds: args.rounds,
        batch: args.batch,
        seed: args.seed,
    };
    let bar = pipeline::bar_with(0, "{msg} [{bar:30}] {pos}/{len} rounds");
    bar.set_message("bench env");
    let f = with_game!(game, |g| harness::run(&g, &options, &bar))?;
    bar.finish_and_clear();
    if args.json {
        print_figures(&f);
    } else {
        print!("{}", f.text());
    }
    Ok(())
}
