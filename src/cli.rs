//! Helpers shared by the commands (as ripgrep's `grep-cli` is for its
//! binary): JSON and text output that tolerate a closed pipe, the
//! `--generations` flag, progress over rows, and whole-file writes. (The
//! error is `crate::error::CliError`; shard listing is `pipeline::inputs`.)
//! No command imports another; what two commands share lives here.

use data::{Generations, ShardFile, ShardReader};
use indicatif::{ProgressBar, ProgressStyle};

pub use crate::error::CliError;

/// Prints one JSON object on stdout.
pub fn print_json(value: &serde_json::Value) {
    println!("{value}");
}

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

/// Prints `text` on stdout. A closed pipe (`| head`) is not an error and
/// must not panic, so write errors are ignored here.
pub fn emit(text: &str) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(text.as_bytes()).and_then(|_| out.flush());
}

/// Prints a result: the JSON object with `--json`, else the text.
pub fn print_either(
    json: bool,
    value: impl FnOnce() -> serde_json::Value,
    text: impl FnOnce() -> String,
) {
    if json {
        print_json(&value());
    } else {
        print!("{}", text());
    }
}

/// Prints a progress line: on stderr when stdout carries `--json`, else on
/// stdout.
pub fn say(json: bool, line: impl std::fmt::Display) {
    if json {
        eprintln!("{line}");
    } else {
        println!("{line}");
    }
}

/// Writes `text` to `path` atomically ([`fsio::write_atomic`]).
pub fn write_atomically(path: &std::path::Path, text: &[u8]) -> Result<(), CliError> {
    fsio::write_atomic(path, text)
        .map_err(|e| CliError::input(format!("cannot write {}: {e}", path.display())))
}

/// A flag set by Ctrl-C or SIGTERM, for the commands that stop cleanly.
/// Failing to install the handler (one already set) only loses the clean
/// stop; the command itself is fine.
pub fn stop_on_signal() -> std::sync::Arc<std::sync::atomic::AtomicBool> {
    use std::sync::atomic::{AtomicBool, Ordering};
    let stop = std::sync::Arc::new(AtomicBool::new(false));
    let flag = stop.clone();
    let _ = ctrlc::set_handler(move || flag.store(true, Ordering::SeqCst));
    stop
}
