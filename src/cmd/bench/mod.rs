//! `triad bench …`: throughput benchmarks of each layer. Figures go to
//! stdout (or one JSON object with `--json`); nothing here is a test. The
//! harnesses are the `bench` crate's; each file here parses its flags,
//! loads the inputs, makes one call and prints.

pub use ::cli::flags::bench::*;

pub mod data;
pub mod env;
pub mod learn;
pub mod model;
pub mod pons;
pub mod search;
pub mod selfplay;
pub mod train;

use super::{print_json, CliError};

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
