//! `triad bench train`: the trainer's loop (window, shuffle, decode and
//! encode on the prefetch thread, device copy, step) against the raw step it
//! is a superset of (the same forward, backward and optimiser step on
//! batches encoded beforehand), on real self-play rows, measured honestly:
//! the two phases alternate in slices within one process, several times,
//! and the figures are medians with their spread.
//!
//! The loop does everything the raw step does and more, so its throughput
//! cannot exceed the raw step's: a ratio above 1.05 is a broken measurement
//! (the command then fails, saying so) rather than a result. The harness
//! is `bench::train`.

pub use ::cli::flags::bench::train::*;

use super::print_figures;
use crate::cmd::CliError;
use crate::games::{self, with_game};
use ::bench::train::{self as harness, TrainBars, TrainOptions};
use indicatif::{ProgressBar, ProgressStyle};

pub fn run(args: Args) -> Result<(), CliError> {
    if !(args.seconds > 0.0 && args.seconds.is_finite()) || args.games == 0 {
        return Err(CliError::input("--seconds and --games must be positive"));
    }
    if !(1..=100).contains(&args.slices) {
        return Err(CliError::input("--slices must be 1..=100"));
    }
    let (cfg, game) = match &args.config {
        Some(path) => {
            let run = pipeline::load_run(path)?;
            (run.config, run.game)
        }
        None => (
            pipeline::RunConfig::default(),
            registry::from_flag(games::DEFAULT_GAME)?,
        ),
    };
    let device = cfg.model.tch_device()?;
    let options = TrainOptions {
        seconds: args.seconds,
        slices: args.slices,
        games: args.games,
        data: args.data.clone(),
        scratch: std::env::temp_dir().join(format!("triad-bench-train-{}", std::process::id())),
    };
    let bars = TrainBars {
        rows: ProgressBar::new_spinner(),
        slices: pipeline::bar_with(0, "{msg} [{bar:30}] {pos}/{len} slices"),
    };
    if let Ok(s) = ProgressStyle::with_template("{spinner} {msg} [{elapsed}]") {
        bars.rows.set_style(s);
    }
    let f = with_game!(game, |g| harness::run(&g, &cfg, device, &options, &bars))?;
    if args.json {
        print_figures(&f);
    } else {
        print!("{}", f.text(args.slices, args.seconds));
    }
    Ok(f.check()?)
}
