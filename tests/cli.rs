//! The end-to-end tests of the `triad` binary, one test binary with a
//! module per file: one compile and link instead of eleven (each linked
//! the whole workspace), and tests of different files share the two test
//! threads instead of waiting for the slowest test of each file. Run one
//! file's tests by its module: `cargo test --test cli hostile::`.

mod common;

mod analysis;
#[path = "connect4.rs"]
mod connect4_cli;
mod explore;
mod fuzz;
mod games_cli;
mod hostile;
mod import;
mod loop_and_eval;
#[path = "pirate.rs"]
mod pirate_cli;
mod resume;
mod run_dir;
mod scale;
mod slurm;
mod transfer;
mod upgrade;
mod verify;
mod workspace;
