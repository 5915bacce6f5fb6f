//! Helpers shared by the commands (as ripgrep's `grep-cli` is for its
//! binary): the error every command returns with its exit status, JSON and
//! text output that tolerate a closed pipe, the `--generations` flag, shard
//! listing with one-line errors, progress over rows, and whole-file writes.
//! No command imports another; what two commands share lives here.

use std::path::PathBuf;

use data::{list_shards, list_shards_in, Generations, ShardFile, ShardReader};
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

/// Prints one JSON object on stdout.
pub fn print_json(value: &serde_json::Value) {
    println!("{value}");
}

/// A pipeline error as the command's exit status and message.
pub fn pipeline_error(e: pipeline::Error) -> CliError {
    CliError {
        code: e.exit_code(),
        message: e.to_string(),
    }
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

/// Lists the shards (of the generations in `range`, if given), as a
/// bad-input error when a path is missing or none is found.
pub fn shards_of(
    paths: &[PathBuf],
    range: Option<&Generations>,
) -> Result<Vec<ShardFile>, CliError> {
    let input = |e: data::DataError| CliError::input(e.to_string());
    let local = localize(paths)?;
    let paths = local.as_slice();
    let shards = match range {
        None => list_shards(paths).map_err(input)?,
        Some(r) => list_shards_in(paths, r)
            .map_err(|e| CliError::input(format!("--generations {r}: {e}")))?,
    };
    if shards.is_empty() {
        let places = paths
            .iter()
            .map(|p| p.display().to_string())
            .collect::<Vec<_>>()
            .join(", ");
        return Err(CliError::input(match range {
            None => format!("no shards (*.parquet) found in {places}"),
            Some(r) => {
                let held: Vec<u32> = list_shards(paths)
                    .map_err(input)?
                    .iter()
                    .filter_map(|s| s.generation)
                    .collect();
                match (held.iter().min(), held.iter().max()) {
                    (Some(a), Some(b)) => format!(
                        "--generations {r}: no shards of those generations in {places} (it has generations {a}..{b})"
                    ),
                    _ => format!("--generations {r}: no shards (*.parquet) found in {places}"),
                }
            }
        }));
    }
    Ok(shards)
}

/// `paths` with every run URL replaced by its local cache folder
/// ([`pipeline::scale::cache::localize`]), with a progress bar while many
/// shards download and a line on stderr for each run fetched.
pub fn localize(paths: &[PathBuf]) -> Result<Vec<PathBuf>, CliError> {
    use pipeline::scale::cache::Fetching;
    let mut bar = ProgressBar::hidden();
    pipeline::scale::cache::localize(paths, &mut |event| match event {
        Fetching::Start { todo, .. } => {
            if todo >= 20 {
                bar = ProgressBar::new(todo as u64);
                bar.set_style(
                    ProgressStyle::with_template(
                        "fetching {bar:30} {pos}/{len} shards  {eta} left",
                    )
                    .unwrap_or_else(|_| ProgressStyle::default_bar()),
                );
            }
        }
        Fetching::Shard => bar.inc(1),
        Fetching::Done { url, shards, cache } => {
            bar.finish_and_clear();
            bar = ProgressBar::hidden();
            eprintln!("{url}: {shards} shards in {}", cache.display());
        }
    })
    .map_err(pipeline_error)
}

/// Opens the run at `url` (`--run`) and pulls it into its local mirror
/// ([`pipeline::scale::mirror::Mirror`]), saying so on stderr.
pub fn pull_mirror(url: &str) -> Result<pipeline::scale::mirror::Mirror, CliError> {
    let store = store::Store::open(url).map_err(|e| CliError::input(format!("--run: {e}")))?;
    let local = pipeline::scale::cache::cache_dir(url).join("run");
    let (mirror, pulled) =
        pipeline::scale::mirror::Mirror::pull(store, local).map_err(pipeline_error)?;
    eprintln!(
        "{url}: the run is mirrored in {} ({} objects, {} fetched)",
        mirror.local.display(),
        pulled.objects,
        pulled.fetched
    );
    Ok(mirror)
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

/// Writes `text` to `path` atomically ([`fsio::write_atomic`]).
pub fn write_atomically(path: &std::path::Path, text: &[u8]) -> Result<(), CliError> {
    fsio::write_atomic(path, text)
        .map_err(|e| CliError::input(format!("cannot write {}: {e}", path.display())))
}
