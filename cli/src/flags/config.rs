//! The flags of `triad config` (its `run` is `src/cmd/config.rs`).

use std::path::PathBuf;

/// Check a run config (TOML) and print it with every default filled in.
///
/// An unknown key or a bad value in any section is an error (exit 2)
/// naming the file and the key. See docs/config.md, which also names the
/// five [train] keys printed only when set away from their defaults.
#[derive(clap::Args)]
#[command(
    after_help = "Examples:\n  triad config configs/quickstart.toml\n  triad config run.toml --json"
)]
pub struct Args {
    /// The run config, e.g. configs/quickstart.toml.
    pub file: PathBuf,
    /// Print the resolved config as one JSON object instead of TOML.
    #[arg(long)]
    pub json: bool,
}
