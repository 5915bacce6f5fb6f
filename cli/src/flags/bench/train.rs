//! The flags of `triad bench train` (its `run` is `src/cmd/bench/train.rs`).

use std::path::PathBuf;

#[derive(clap::Args)]
#[command(
    after_help = "Rows: real self-play games of a fresh network of the config (a cheap search of at\nmost 8 simulations, not timed), or the shards of --data. Slice j of each phase steps on\nthe same batches of the window's stream. raw: forward, backward and optimiser step on\nthose batches encoded beforehand. loop: the trainer's data path (a fresh stream: replay\nwindow, shuffle, decode, encode on the prefetch thread, device copy) and the same\nsteps. The phases alternate in --slices slices of about --seconds / --slices each, taking turns at going first; the\nfigures are medians with [min, max]. ratio = loop / raw, pair by pair: above 1.05 the\nmeasurement is broken and the command exits 1. Run the release build.\n\nExamples:\n  triad bench train\n  triad bench train --config configs/quickstart.toml --json\n  triad bench train --config configs/quickstart.toml --data runs/quickstart/games/gen-0005"
)]
pub struct Args {
    /// Run file whose [game], [model], [selfplay] and [train] sections are
    /// used (default: the quickstart-sized defaults).
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Seconds of measurement for each of the two phases, split into slices.
    #[arg(long, default_value_t = 10.0, value_name = "S")]
    pub seconds: f64,
    /// Slices per phase (the phases alternate slice by slice).
    #[arg(long, default_value_t = 5, value_name = "N")]
    pub slices: usize,
    /// Self-play games played for the rows (when no --data is given).
    #[arg(long, default_value_t = 48, value_name = "N")]
    pub games: u64,
    /// Train on these shards (files or folders) instead of fresh self-play.
    #[arg(long, value_name = "DIR", num_args = 1..)]
    pub data: Vec<PathBuf>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}
