//! The binary's side of the commands' shared helpers: those that know
//! nothing of triad are the `cli` crate (as ripgrep's are `grep-cli`),
//! re-exported here so that `crate::cli::…` names them all; those that
//! name triad's types (`--generations`, progress over rows, whole-file
//! writes, player flags) and the error [`CliError`] are here.

pub use crate::error::CliError;
pub use ::cli::*;

use data::{Generations, ShardFile, ShardReader};
use indicatif::{ProgressBar, ProgressStyle};

/// `--generations A..B`: the generations of a run to read.
#[derive(clap::Args)]
pub struct GenerationsArg {
    /// Only the shards of these generations (a run's games/gen-NNNN/
    /// folders): `A..B` (both included), `A..`, `..B`, or `N` alone.
    #[arg(long, value_name = "A..B")]
    generations: Option<String>,
}

impl GenerationsArg {
    /// The range given, or a bad-input error naming the flag.
    pub fn parse(&self) -> Result<Option<Generations>, CliError> {
        self.generations
            .as_deref()
            .map(|text| {
                text.parse::<Generations>()
                    .map_err(|e| CliError::input(format!("--generations {text}: {e}")))
            })
            .transpose()
    }
}

/// A progress bar over rows (hidden when there are few).
pub fn row_progress(shards: &[ShardFile], what: &str) -> ProgressBar {
    let total: u64 = shards
        .iter()
        .filter_map(|s| ShardReader::open(&s.path).ok().map(|r| r.num_rows()))
        .sum();
    let bar = if total < 200_000 {
        ProgressBar::hidden()
    } else {
        ProgressBar::new(total)
    };
    if let Ok(style) = ProgressStyle::with_template("{msg} {bar:30} {pos}/{len} rows ({eta})") {
        bar.set_style(style);
    }
    bar.set_message(what.to_string());
    bar
}

/// Writes `text` to `path` atomically ([`fsio::write_atomic`]).
pub fn write_atomically(path: &std::path::Path, text: &[u8]) -> Result<(), CliError> {
    fsio::write_atomic(path, text)
        .map_err(|e| CliError::input(format!("cannot write {}: {e}", path.display())))
}

/// A player flag's text (`--player`, `--engine`: `random`, `ab:depth=3`,
/// `net:CKPT,sims=64`, …) parsed once, or bad input naming the flag.
pub fn player_flag(flag: &str, text: &str) -> Result<eval::arena::players::PlayerSpec, CliError> {
    text.parse()
        .map_err(|e: eval::EvalError| CliError::input(format!("{flag}: {e}")))
}
