//! `triad bench …`: throughput benchmarks of each layer. Figures go to
//! stdout (or one JSON object with `--json`); nothing here is a test. The
//! harnesses are the `bench` crate's; each file here parses its flags,
//! loads the inputs, makes one call and prints.

pub mod data;
pub mod env;
pub mod learn;
pub mod model;
pub mod pons;
pub mod search;
pub mod selfplay;
pub mod train;

use super::{print_json, CliError};

#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    which: Which,
}

#[derive(clap::Subcommand)]
enum Which {
    /// Shards: rows written and read per second, bytes per position, opening-tree time.
    Data(data::Args),
    /// Environment loops (the Python package's, in Rust): random-play moves/s, with observations, batch encoding.
    Env(env::Args),
    /// Learning: two run files' loops from scratch under one seed and budget, strength against minutes.
    Learn(learn::Args),
    /// Raw forward evaluations per second of the network, by batch size.
    Model(model::Args),
    /// Connect Four: a player's error rate on Pascal Pons's benchmark positions (AlphaZero.jl's measure).
    Pons(pons::Args),
    /// Alpha-beta search speed: nodes per second and depth reached per second.
    Search(search::Args),
    /// Self-play evaluations per second against the raw batched forward at the same batch size.
    Selfplay(selfplay::Args),
    /// Trainer: raw forward+backward+optimiser samples/s, the real loop on shards, their ratio.
    Train(train::Args),
}

pub fn run(args: Args) -> Result<(), CliError> {
    match args.which {
        Which::Data(a) => data::run(a),
        Which::Env(a) => env::run(a),
        Which::Learn(a) => learn::run(a),
        Which::Model(a) => model::run(a),
        Which::Pons(a) => pons::run(a),
        Which::Search(a) => search::run(a),
        Which::Selfplay(a) => selfplay::run(a),
        Which::Train(a) => train::run(a),
    }
}

/// Prints a harness's figures as the one JSON object of `--json`.
fn print_figures(figures: &impl serde::Serialize) {
    print_json(&serde_json::to_value(figures).expect("figures serialize to JSON"));
}
