//! Runs given as URLs to the readers (`data info`, `openings`, `explore`,
//! `train --data`): the shards of `s3://…`, `gs://…`, `az://…` or `file://…`
//! are fetched into a local cache and read from there, so every reader
//! takes a URL wherever it takes a run directory (docs/scale-out.md).
//!
//! A `file://` URL is read in place. A run's shards keep their names
//! (`games/gen-NNNN/…`, `eval/…`: the one layout, [`crate::layout`]), so
//! `--generations` picks generations of a loop or a distributed run alike;
//! a run in the old layout (`shards/gNNNNNN/`) is refused, naming the
//! upgrade. Objects already
//! in the cache with the same size are not fetched again; the cache is
//! `$TRIAD_CACHE` or the system's temporary folder, one folder per URL
//! ([`cache_dir`]).
//!
//! Nothing here prints: progress goes to the caller's callback
//! ([`Fetching`]).

use std::path::{Path, PathBuf};

use store::Store;

use super::{sha256_hex, write_whole};
use crate::layout::{v1, EVAL_DIR, GAMES_DIR};
use crate::Error;

/// What [`localize`] reports while it fetches a run, for the caller's
/// progress bar and message.
#[derive(Debug)]
pub enum Fetching<'a> {
    /// `todo` shards of `url` are to be downloaded (the rest are cached).
    Start { url: &'a str, todo: usize },
    /// One more shard downloaded.
    Shard,
    /// The run's `shards` are all in `cache`.
    Done {
        url: &'a str,
        shards: usize,
        cache: &'a Path,
    },
}

/// The local cache folder of a run URL: `$TRIAD_CACHE` (else the system's
/// temporary folder's `triad-cache`), then 16 hex digits of the URL's
/// SHA-256.
pub fn cache_dir(url: &str) -> PathBuf {
    let root = std::env::var_os("TRIAD_CACHE")
        .map(PathBuf::from)
        .unwrap_or_else(|| std::env::temp_dir().join("triad-cache"));
    let tag = sha256_hex(url.as_bytes());
    root.join(&tag[..16])
}

/// Where an object of a run lands in its cache (`None`: not a shard).
fn local_key(key: &str) -> Option<String> {
    if !key.ends_with(".parquet") {
        return None;
    }
    // A folder of shards (`selfplay --out URL`), or a run's shards.
    let folder = key.split_once('/').map(|(f, _)| f);
    (folder.is_none() || folder == Some(GAMES_DIR) || folder == Some(EVAL_DIR))
        .then(|| key.to_string())
}

/// `paths` with every URL replaced by its local cache folder, the run's
/// shards fetched into it first (reported to `progress`). A `file://` URL
/// is read in place; other paths are returned as given.
pub fn localize(
    paths: &[PathBuf],
    progress: &mut dyn FnMut(Fetching<'_>),
) -> Result<Vec<PathBuf>, Error> {
    paths
        .iter()
        .map(|p| {
            let text = p.to_string_lossy();
            match text.strip_prefix("file://") {
                // A local run is read in place.
                Some(local) => Ok(PathBuf::from(local)),
                None if store::is_url(p) => fetch(&text, progress),
                None => Ok(p.clone()),
            }
        })
        .collect()
}

/// Fetches the shards of the run at `url` that its cache lacks.
fn fetch(url: &str, progress: &mut dyn FnMut(Fetching<'_>)) -> Result<PathBuf, Error> {
    let store = Store::open(url).map_err(Error::BadStore)?;
    let listed = store.list("").map_err(Error::BadStore)?;
    if let Some(old) = listed.iter().find(|l| v1::rename(&l.key).is_some()) {
        return Err(Error::OldLayout {
            url: url.to_string(),
            key: old.key.clone(),
        });
    }
    let cache = cache_dir(url);
    let wanted: Vec<(String, PathBuf, u64)> = listed
        .into_iter()
        .filter_map(|l| local_key(&l.key).map(|k| (l.key, cache.join(k), l.size)))
        .collect();
    if wanted.is_empty() {
        return Err(Error::NoShards {
            url: url.to_string(),
            dir: GAMES_DIR,
        });
    }
    let todo: Vec<&(String, PathBuf, u64)> = wanted
        .iter()
        .filter(|(_, path, size)| std::fs::metadata(path).map_or(true, |m| m.len() != *size))
        .collect();
    progress(Fetching::Start {
        url,
        todo: todo.len(),
    });
    for (key, path, _) in todo {
        let bytes = store
            .get(key)
            .map_err(Error::from)?
            .ok_or_else(|| Error::WentAway {
                url: url.to_string(),
                key: key.clone(),
            })?;
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(Error::io(&dir))?;
        }
        write_whole(path, &bytes)?;
        progress(Fetching::Shard);
    }
    progress(Fetching::Done {
        url,
        shards: wanted.len(),
        cache: &cache,
    });
    Ok(cache)
}

#[cfg(test)]
mod tests {
    use super::local_key;

    #[test]
    fn shards_keep_their_names() {
        assert_eq!(
            local_key("games/gen-0003/w0001-ab-s000002.parquet").as_deref(),
            Some("games/gen-0003/w0001-ab-s000002.parquet")
        );
        assert_eq!(local_key("shards/g000003/w0001-ab-s000002.parquet"), None);
        assert_eq!(local_key("a.parquet").as_deref(), Some("a.parquet"));
        assert_eq!(
            local_key("games/gen-0001/x.parquet").as_deref(),
            Some("games/gen-0001/x.parquet")
        );
        assert_eq!(local_key("networks/gen-0001.json"), None);
        assert_eq!(local_key("other/x.parquet"), None);
    }
}
