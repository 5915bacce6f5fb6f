//! Subcommands. Each module has `Args` (clap) and `run(Args) -> Result<(), CliError>`.

pub mod analyze;
pub mod bench;
pub mod choose;
pub mod config;
pub mod data;
pub mod eval;
pub mod explore;
pub mod fetch;
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

/// A failure to report: a one-line message and the exit status
/// (1 a failed check, 2 bad input).
#[derive(Debug)]
pub struct CliError {
    pub code: i32,
    pub message: String,
}

impl CliError {
    /// Bad input (exit 2).
    pub fn input(message: impl Into<String>) -> CliError {
        CliError {
            code: 2,
            message: message.into(),
        }
    }
    /// A check that failed (exit 1).
    pub fn failed(message: impl Into<String>) -> CliError {
        CliError {
            code: 1,
            message: message.into(),
        }
    }
}

/// Prints one JSON object on stdout.
pub fn print_json(value: &serde_json::Value) {
    println!("{value}");
}
