//! The binary's side of the commands' shared helpers: the flags and the
//! helpers that know nothing of the libraries are the `cli` crate (as
//! ripgrep's are `grep-cli`), re-exported here so that `crate::cli::…`
//! names them all; those that name triad's types (reading
//! `--generations`, progress over rows, whole-file writes, player flags)
//! and the error [`CliError`] are here.

pub use crate::error::CliError;
pub use ::cli::*;

use data::{Generations, ShardFile, ShardReader};
use indicatif::{ProgressBar, ProgressStyle};

/// The range `--generations A..B` gives, or a bad-input error naming the
/// flag.
pub fn generations(arg: &flags::GenerationsArg) -> Result<Option<Generations>, CliError> {
    arg.generations
        .as_deref()
        .map(|text| {
            text.parse::<Generations>()
                .map_err(|e| CliError::input(format!("--generations {text}: {e}")))
        })
        .transpose()
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
