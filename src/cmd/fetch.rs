//! Runs given as URLs to the readers (`data info`, `openings`, `explore`,
//! `train --data`): the shards of `s3://…`, `gs://…`, `az://…` or `file://…`
//! are fetched into a local cache and read from there, so every reader
//! takes a URL wherever it takes a run directory (docs/scale-out.md).
//!
//! A `file://` URL is read in place. A distributed run's
//! `shards/gNNNNNN/*.parquet` land in
//! `CACHE/games/gen-NNNN/`, the layout of a `triad loop` run, so
//! `--generations` picks generations of either. A loop run stored under a
//! URL (`games/gen-NNNN/…`, `eval/…`) keeps its own layout. Objects already
//! in the cache with the same size are not fetched again; the cache is
//! `$TRIAD_CACHE` or the system's temporary folder, one folder per URL.

use std::path::{Path, PathBuf};

use super::CliError;
use indicatif::{ProgressBar, ProgressStyle};
use store::Store;

/// Whether `arg` names a store by URL rather than a local path.
pub fn is_url(arg: &Path) -> bool {
    let s = arg.to_string_lossy();
    [
        "s3://", "s3a://", "gs://", "az://", "abfs://", "file://", "https://", "http://",
    ]
    .iter()
    .any(|p| s.starts_with(p))
}

/// The local cache folder of a run URL.
fn cache_of(url: &str) -> PathBuf {
    let root = std::env::var_os("TRIAD_CACHE")
        .map(PathBuf::from)
        .unwrap_or_else(|| std::env::temp_dir().join("triad-cache"));
    let tag = pipeline::scale::sha256_hex(url.as_bytes());
    root.join(&tag[..16])
}

/// Where an object of a run lands in its cache (`None`: not a shard).
fn local_key(key: &str) -> Option<String> {
    if !key.ends_with(".parquet") {
        return None;
    }
    if let Some(rest) = key.strip_prefix(pipeline::scale::SHARDS) {
        let (folder, file) = rest.split_once('/')?;
        let g = pipeline::scale::gen_of(folder)?;
        return Some(format!("games/{}/{file}", pipeline::gen_name(g)));
    }
    (key.starts_with("games/") || key.starts_with("eval/")).then(|| key.to_string())
}

/// `paths` with every URL replaced by its local cache folder, the run's
/// shards fetched into it first (a progress bar when there are many).
pub fn localize(paths: &[PathBuf]) -> Result<Vec<PathBuf>, CliError> {
    paths
        .iter()
        .map(|p| {
            let text = p.to_string_lossy();
            match text.strip_prefix("file://") {
                // A local run is read in place (a distributed run's
                // shards/gNNNNNN/ are listed like games/gen-NNNN/).
                Some(local) => Ok(PathBuf::from(local)),
                None if is_url(p) => fetch(&text),
                None => Ok(p.clone()),
            }
        })
        .collect()
}

fn fetch(url: &str) -> Result<PathBuf, CliError> {
    let store = Store::open(url).map_err(|e| CliError::input(e.to_string()))?;
    let listed = store.list("").map_err(|e| CliError::input(e.to_string()))?;
    let cache = cache_of(url);
    let wanted: Vec<(String, PathBuf, u64)> = listed
        .into_iter()
        .filter_map(|l| local_key(&l.key).map(|k| (l.key, cache.join(k), l.size)))
        .collect();
    if wanted.is_empty() {
        return Err(CliError::input(format!(
            "{url}: no shards in this run (shards/ or games/)"
        )));
    }
    let todo: Vec<&(String, PathBuf, u64)> = wanted
        .iter()
        .filter(|(_, path, size)| std::fs::metadata(path).map_or(true, |m| m.len() != *size))
        .collect();
    let bar = if todo.len() < 20 {
        ProgressBar::hidden()
    } else {
        let b = ProgressBar::new(todo.len() as u64);
        b.set_style(
            ProgressStyle::with_template("fetching {bar:30} {pos}/{len} shards  {eta} left")
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        b
    };
    for (key, path, _) in todo {
        let bytes = store
            .get(key)
            .map_err(|e| CliError::failed(e.to_string()))?
            .ok_or_else(|| CliError::failed(format!("{url}: {key} went away while fetching")))?;
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)
                .map_err(|e| CliError::failed(format!("{}: {e}", dir.display())))?;
        }
        pipeline::scale::write_whole(path, &bytes).map_err(super::selfplay::pipeline_error)?;
        bar.inc(1);
    }
    bar.finish_and_clear();
    eprintln!("{url}: {} shards in {}", wanted.len(), cache.display());
    Ok(cache)
}
