//! Subcommands. Each module re-exports its flags, `Args` (clap, defined in
//! `cli/src/flags/<name>.rs`), and has `run(Args) -> Result<(), CliError>`.

pub mod analysis;
pub mod analyze;
pub mod bench;
pub mod choose;
pub mod config;
pub mod data;
pub mod eval;
pub mod explore;
pub mod openings;
pub mod perft;
pub mod play;
pub mod plot;
pub mod replay;
pub mod run_loop;
pub mod selfplay;
pub mod show;
pub mod solve;
pub mod train;
pub mod trainer;
pub mod version;
pub mod worker;

pub use crate::cli::print_json;
pub use crate::cli::CliError;
