//! The flags of every `triad` command: one module per command, each with
//! its clap `Args` (and the verbs of a command that has them), their help
//! text and the value parsers they name. The command's `run`, in the
//! binary's `src/cmd/`, only wires these to the library crates, so that
//! the binary stays the small part (docs/architecture.md).
//!
//! Flags hold plain values (text, numbers, paths, the flag's own small
//! enums): turning them into the libraries' types is the command's job,
//! so this crate names none of them. The few defaults that are library
//! constants are repeated here, and `tests/workspace.rs` checks that each
//! equals its library's.

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

/// The game a command plays when `--game` is not given
/// (`registry::DEFAULT_GAME`; a test checks they agree).
pub const DEFAULT_GAME: &str = "piratechnics";

/// The alpha-beta engine's transposition table in MiB when `--hash` is
/// not given (`eval::search::DEFAULT_HASH_MB`; a test checks they agree).
pub const DEFAULT_HASH_MB: usize = 16;

/// `--generations A..B`: the generations of a run to read (the command
/// reads the text with `data::Generations`).
#[derive(clap::Args, Debug, Clone, Default)]
pub struct GenerationsArg {
    /// Only the shards of these generations (a run's games/gen-NNNN/
    /// folders): `A..B` (both included), `A..`, `..B`, or `N` alone.
    #[arg(long, value_name = "A..B")]
    pub generations: Option<String>,
}
