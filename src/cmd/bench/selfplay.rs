//! `triad bench selfplay`: evaluations per second inside self-play against
//! the raw batched forward of the same network at the same batch size. The
//! ratio is the figure of merit of the batching design (ARCHITECTURE.md).
//! The harness is `bench::selfplay`.

pub use ::cli::flags::bench::selfplay::*;

use super::print_figures;
use crate::cmd::CliError;
use crate::games::with_game;
use ::bench::selfplay::{self as harness, SelfplayOptions};
use indicatif::{ProgressBar, ProgressStyle};
use selfplay::SelfplayConfig;
use std::time::Duration;

pub fn run(args: Args) -> Result<(), CliError> {
    let game = pipeline::load_game(&args.config)?;
    if !(args.seconds > 0.0 && args.seconds.is_finite()) {
        return Err(CliError::input("--seconds must be a positive number"));
    }
    let config = SelfplayConfig::from_file(&args.config)?;
    let model = model::ModelConfig::from_file(&args.config)?;
    let options = SelfplayOptions {
        budget: Duration::from_secs_f64(args.seconds),
        compare: args.compare,
    };
    let bar = ProgressBar::new_spinner();
    bar.set_style(ProgressStyle::with_template("{spinner} {msg}").expect("valid template"));
    let f = with_game!(game, |g| harness::run(&g, &config, &model, &options, &bar))?;
    if args.json {
        print_figures(&f);
        return Ok(());
    }
    print!("{}", f.text());
    Ok(())
}
