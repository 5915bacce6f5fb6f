//! `triad bench model`: raw forward evaluations per second of the network at
//! several batch sizes, with and without the encoding. This is the ceiling
//! self-play's batched evaluation is measured against (the harness is
//! `bench::model`).

pub use ::cli::flags::bench::model::*;

use super::print_figures;
use crate::cmd::CliError;
use crate::games::{self, with_game};
use ::bench::model::{self as harness, ModelOptions};
use model::ModelConfig;
use std::time::Duration;

pub fn run(args: Args) -> Result<(), CliError> {
    let game = match (&args.config, &args.game) {
        (Some(path), _) => pipeline::load_game(path)?,
        (None, Some(flag)) => registry::from_flag(flag)?,
        (None, None) => registry::from_flag(games::DEFAULT_GAME)?,
    };
    if !(args.seconds > 0.0 && args.seconds.is_finite()) {
        return Err(CliError::input("--seconds must be a positive number"));
    }
    let config = match &args.config {
        Some(path) => ModelConfig::from_file(path)?,
        None => ModelConfig::default(),
    };
    let options = ModelOptions {
        budget: Duration::from_secs_f64(args.seconds),
        max_batch: args.max_batch,
        precisions: args
            .precision
            .iter()
            .map(|p| p.parse())
            .collect::<Result<_, _>>()?,
    };
    let bar = pipeline::bar_with(0, "{msg:>24} [{bar:30}] {pos}/{len}");
    let f = with_game!(game, |g| harness::run(&g, &config, &options, &bar))?;
    if args.json {
        print_figures(&f);
    } else {
        print!("{}", f.text());
    }
    Ok(())
}
