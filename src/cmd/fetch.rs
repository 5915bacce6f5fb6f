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
    // A folder of shards (`selfplay --out URL`), or a loop run's shards.
    (!key.contains('/') || key.starts_with("games/") || key.starts_with("eval/"))
        .then(|| key.to_string())
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
        pipeline::scale::write_whole(path, &bytes).map_err(crate::cli::pipeline_error)?;
        bar.inc(1);
    }
    bar.finish_and_clear();
    eprintln!("{url}: {} shards in {}", wanted.len(), cache.display());
    Ok(cache)
}

/// A `triad loop` run kept in a store: the loop works in a local mirror
/// (`$TRIAD_CACHE`, one folder per URL), pulled from the store at the
/// start (so a run resumes on any machine) and pushed back every minute
/// and at the end, whatever the end (docs/scale-out.md).
pub struct Mirror {
    store: Store,
    pub local: PathBuf,
    pushed: std::sync::Mutex<std::collections::HashMap<PathBuf, (u64, std::time::SystemTime)>>,
}

/// Files that stay local: locks and temporaries.
fn private(rel: &str) -> bool {
    rel.ends_with(".lock") || rel.contains(".tmp")
}

impl Mirror {
    /// Opens the store of `url` and pulls the run into its local mirror.
    pub fn pull(url: &str) -> Result<Mirror, CliError> {
        let store = Store::open(url).map_err(|e| CliError::input(format!("--run: {e}")))?;
        let local = cache_of(url).join("run");
        std::fs::create_dir_all(&local)
            .map_err(|e| CliError::input(format!("{}: {e}", local.display())))?;
        let listed = store
            .list("")
            .map_err(|e| CliError::failed(e.to_string()))?;
        let mut pulled = 0;
        for l in &listed {
            let path = local.join(&l.key);
            if std::fs::metadata(&path).is_ok_and(|m| m.len() == l.size) {
                continue;
            }
            let bytes = store
                .get(&l.key)
                .map_err(|e| CliError::failed(e.to_string()))?
                .unwrap_or_default();
            if let Some(dir) = path.parent() {
                std::fs::create_dir_all(dir)
                    .map_err(|e| CliError::failed(format!("{}: {e}", dir.display())))?;
            }
            pipeline::scale::write_whole(&path, &bytes).map_err(crate::cli::pipeline_error)?;
            pulled += 1;
        }
        eprintln!(
            "{url}: the run is mirrored in {} ({} objects, {pulled} fetched)",
            local.display(),
            listed.len()
        );
        Ok(Mirror {
            store,
            local,
            pushed: Default::default(),
        })
    }

    /// Uploads what changed since the last push. `state.json` is read
    /// first and uploaded last, so the store's state never names a stage
    /// whose files are not there yet.
    pub fn push(&self) -> Result<usize, CliError> {
        let state_path = self.local.join("state.json");
        let state = std::fs::read(&state_path).ok();
        let mut files = Vec::new();
        let mut stack = vec![self.local.clone()];
        while let Some(dir) = stack.pop() {
            let Ok(entries) = std::fs::read_dir(&dir) else {
                continue;
            };
            for e in entries.flatten() {
                let p = e.path();
                if p.is_dir() {
                    stack.push(p);
                } else if p != state_path {
                    files.push(p);
                }
            }
        }
        let mut pushed = self
            .pushed
            .lock()
            .map_err(|_| CliError::failed("mirror lock poisoned"))?;
        let mut n = 0;
        for p in files {
            let Ok(rel) = p.strip_prefix(&self.local) else {
                continue;
            };
            let rel = rel.to_string_lossy().replace('\\', "/");
            let Ok(meta) = std::fs::metadata(&p) else {
                continue;
            };
            let stamp = (meta.len(), meta.modified().unwrap_or(std::time::UNIX_EPOCH));
            if private(&rel) || pushed.get(&p) == Some(&stamp) {
                continue;
            }
            let Ok(bytes) = std::fs::read(&p) else {
                continue;
            };
            self.store
                .put(&rel, bytes)
                .map_err(|e| CliError::failed(e.to_string()))?;
            pushed.insert(p, stamp);
            n += 1;
        }
        if let Some(state) = state {
            self.store
                .put("state.json", state)
                .map_err(|e| CliError::failed(e.to_string()))?;
            n += 1;
        }
        Ok(n)
    }
}
