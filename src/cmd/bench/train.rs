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

use super::print_figures;
use crate::cmd::CliError;
use crate::games::{self, with_game};
use ::bench::train::{self as harness, TrainBars, TrainOptions};
use indicatif::{ProgressBar, ProgressStyle};
use std::path::PathBuf;

#[derive(clap::Args)]
#[command(
    after_help = "Rows: real self-play games of a fresh network of the config (a cheap search of at\nmost 8 simulations, not timed), or the shards of --data. Slice j of each phase steps on\nthe same batches of the window's stream. raw: forward, backward and optimiser step on\nthose batches encoded beforehand. loop: the trainer's data path (a fresh stream: replay\nwindow, shuffle, decode, encode on the prefetch thread, device copy) and the same\nsteps. The phases alternate in --slices slices of about --seconds / --slices each, taking turns at going first; the\nfigures are medians with [min, max]. ratio = loop / raw, pair by pair: above 1.05 the\nmeasurement is broken and the command exits 1. Run the release build.\n\nExamples:\n  triad bench train\n  triad bench train --config configs/quickstart.toml --json\n  triad bench train --config configs/quickstart.toml --data runs/quickstart/games/gen-0005"
)]
pub struct Args {
    /// Run file whose [game], [model], [selfplay] and [train] sections are
    /// used (default: the quickstart-sized defaults).
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
    /// Seconds of measurement for each of the two phases, split into slices.
    #[arg(long, default_value_t = 10.0, value_name = "S")]
    seconds: f64,
    /// Slices per phase (the phases alternate slice by slice).
    #[arg(long, default_value_t = 5, value_name = "N")]
    slices: usize,
    /// Self-play games played for the rows (when no --data is given).
    #[arg(long, default_value_t = 48, value_name = "N")]
    games: u64,
    /// Train on these shards (files or folders) instead of fresh self-play.
    #[arg(long, value_name = "DIR", num_args = 1..)]
    data: Vec<PathBuf>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

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
