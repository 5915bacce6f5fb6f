//! The flags of every `triad` command: one module per command, each with
//! its clap `Args` (and the verbs of a command that has them), their help
//! text and the value parsers they name. The command's `run`, in the
//! binary's `src/cmd/`, only wires these to the library crates, so that
//! the binary stays the small part (docs/architecture.md).

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
