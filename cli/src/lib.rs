//! The `triad` binary's helpers, as ripgrep's `grep-cli` is for its
//! binary: the one error [`CliError`] (a one-line message and the exit
//! status; every library crate's error maps to it here, once, so that a
//! command uses `?`), JSON and text output that tolerate a closed pipe, the
//! `--generations` flag, progress over rows, whole-file writes, a stop flag
//! set by signals, and the allocator's start-up settings. Shard listing is
//! `pipeline::inputs`. No command imports another; what two commands share
//! lives here. Every command's flags and help text are [`flags`].

pub mod flags;

use data::{Generations, ShardFile, ShardReader};
use indicatif::{ProgressBar, ProgressStyle};

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

/// The pipeline's errors carry their own exit status.
impl From<pipeline::Error> for CliError {
    fn from(e: pipeline::Error) -> CliError {
        CliError {
            code: e.exit_code(),
            message: e.to_string(),
        }
    }
}

/// Training: bad input (exit 2) or a failure while training (exit 1).
impl From<train::TrainError> for CliError {
    fn from(e: train::TrainError) -> CliError {
        match e {
            train::TrainError::Input(m) => CliError::input(m),
            train::TrainError::Failed(m) => CliError::failed(m),
        }
    }
}

/// A benchmark harness: bad input, a failed measurement, or the pipeline's.
impl From<bench::Error> for CliError {
    fn from(e: bench::Error) -> CliError {
        match e {
            bench::Error::Input(m) => CliError::input(m),
            bench::Error::Failed(m) => CliError::failed(m),
            bench::Error::Pipeline(e) => e.into(),
        }
    }
}

/// Shards that cannot be listed or read are bad input (exit 2).
impl From<data::DataError> for CliError {
    fn from(e: data::DataError) -> CliError {
        CliError::input(e.to_string())
    }
}

/// A game that cannot be built (of a section, a flag, shards): exit 2.
impl From<registry::Error> for CliError {
    fn from(e: registry::Error) -> CliError {
        CliError::input(e.to_string())
    }
}

/// A game id the shards do not hold, or shards that cannot be read: exit 2.
impl From<data::FindGameError> for CliError {
    fn from(e: data::FindGameError) -> CliError {
        CliError::input(e.to_string())
    }
}

/// The explorer's errors are all bad input (exit 2).
impl From<explore::Error> for CliError {
    fn from(e: explore::Error) -> CliError {
        CliError::input(e.to_string())
    }
}

/// A run file's section or a flag's value refused (names the key): exit 2.
impl From<runfile::ConfigError> for CliError {
    fn from(e: runfile::ConfigError) -> CliError {
        CliError::input(e.to_string())
    }
}

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

/// Fixes glibc's malloc thresholds so that libtorch's large tensors are
/// reused from the heap instead of being `mmap`ed and unmapped on every
/// allocation. By default glibc serves blocks above a dynamic threshold
/// (128 KiB at first) with `mmap` and returns them at `free`; a training
/// step or a batched forward pass allocates and frees many such tensors, so
/// each step paid fresh page faults for them. Measured with
/// `triad bench train` on the quickstart network (2-core CPU): the raw step
/// ran at 1,240–2,040 samples/s with glibc's defaults and 2,680–2,820 with
/// these settings (docs/train.md). The cost is memory kept by the process
/// for reuse instead of given back to the system between steps.
pub fn keep_large_allocations() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only changes allocator parameters; it is called at
    // start-up before any other thread exists.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 1 << 30);
        libc::mallopt(libc::M_TRIM_THRESHOLD, 1 << 30);
    }
}

/// Output piped into `head` and the like: the process ends quietly when the
/// reader goes away, as command-line tools do, instead of panicking in
/// `println!` (the default disposition of SIGPIPE restored). Call first
/// thing in `main`.
pub fn end_quietly_on_closed_pipe() {
    // SAFETY: restoring the default disposition of a signal at start-up,
    // before any thread exists.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

/// A player flag's text (`--player`, `--engine`: `random`, `ab:depth=3`,
/// `net:CKPT,sims=64`, …) parsed once, or bad input naming the flag.
pub fn player_flag(flag: &str, text: &str) -> Result<eval::arena::players::PlayerSpec, CliError> {
    text.parse()
        .map_err(|e: eval::EvalError| CliError::input(format!("{flag}: {e}")))
}
