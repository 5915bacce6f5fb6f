//! `triad bench env`: the Python package's environment loops in Rust
//! (the harness is `bench::env`; `scripts/bench-python.py` runs it beside
//! the Python loops and pyspiel's).

use super::print_figures;
use crate::cmd::CliError;
use crate::games::with_game;
use ::bench::env::{self as harness, EnvOptions};

/// Environment loops: random play, with observations, batch encoding.
///
/// Three phases alternate for `--rounds` rounds, each `--seconds` long:
/// random games one at a time (legal moves, a random pick, the move, the
/// result by the rules with repetitions), the same with the network's
/// input planes written after every move, and positions encoded a batch at
/// a time into one buffer. Reports the median and spread of each rate.
#[derive(clap::Args)]
#[command(after_help = "Examples:\n  triad bench env --game connect4\n  \
triad bench env --game piratechnics --seconds 2 --rounds 5 --json")]
pub struct Args {
    /// The game, `NAME[/VARIANT]`.
    #[arg(long, default_value = crate::games::DEFAULT_GAME, value_name = "GAME")]
    game: String,
    /// Seconds per phase and round.
    #[arg(long, default_value_t = 1.0)]
    seconds: f64,
    /// Rounds (the phases alternate within each).
    #[arg(long, default_value_t = 5)]
    rounds: usize,
    /// Positions per encoded batch.
    #[arg(long, default_value_t = 256)]
    batch: usize,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Print one JSON object instead.
    #[arg(long)]
    json: bool,
}

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
