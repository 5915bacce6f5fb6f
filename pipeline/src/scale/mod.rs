//! A run in an object store, fed by many self-play workers and one trainer
//! (docs/scale-out.md): the layout of the bucket, and what the two roles
//! share. The roles themselves are [`worker`] and [`trainer`].
//!
//! The design is KataGo's shared directory and minigo's bucket, not a
//! server: every object is immutable, uniquely named and written whole by
//! one put-if-absent, so any number of machines on any scheduler can take
//! part without talking to each other, and readers never see half a file.
//!
//! The names are the one layout of a run, the loop's ([`crate::layout`]):
//!
//! ```text
//! RUN/config.toml                               the run file (put once by the trainer)
//! RUN/networks/gen-0003-<trainer>.safetensors   a network's weights
//! RUN/networks/gen-0003.json                    its manifest: the fence that makes
//!                                               generation 3 this trainer's
//! RUN/LATEST                                    "gen-0003": a hint, one writer
//! RUN/games/gen-0003/w0007-<worker>-s000031.parquet  games of generation 3's network
//! RUN/matches/gen-0003.json                     generation 3's matches (`--matches`)
//! RUN/ratings.md                                the ratings refitted from them
//! ```
//!
//! The listing is the truth; `LATEST` only saves a worker a listing per poll.
//! A run in the old layout (`shards/g000003/`, `checkpoints/g000003…`) is
//! refused by both roles until `triad data upgrade` renames it.

pub mod cache;
pub mod matches;
pub mod mirror;
pub mod trainer;
pub mod upgrade;
pub mod worker;

use std::time::Duration;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use store::{Fetched, Store, StoreError};

use crate::layout::{self, gen_name, manifest, manifest_generation, parse_gen, NETWORKS_DIR};
use crate::Error;

/// The run file's key.
pub const CONFIG_KEY: &str = layout::CONFIG_FILE;
/// The newest generation's name: a hint with one writer (the trainer).
pub const LATEST_KEY: &str = layout::LATEST;

/// How long a role waits for an unreachable store before it gives up, by
/// default (`--patience`).
pub const STORE_PATIENCE: Duration = Duration::from_secs(300);

static PATIENCE_MS: std::sync::atomic::AtomicU64 =
    std::sync::atomic::AtomicU64::new(STORE_PATIENCE.as_millis() as u64);

/// Sets how long [`patiently`] retries an unreachable store.
pub fn set_patience(d: Duration) {
    PATIENCE_MS.store(d.as_millis() as u64, std::sync::atomic::Ordering::Relaxed);
}

fn patience() -> Duration {
    Duration::from_millis(PATIENCE_MS.load(std::sync::atomic::Ordering::Relaxed))
}

/// A published generation: where its weights are and how to check them.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Manifest {
    pub generation: u32,
    /// The weights' key, relative to the run.
    pub weights: String,
    /// SHA-256 of the weights, hex.
    pub sha256: String,
    pub bytes: u64,
    /// The checkpoint's sidecar (`model::CheckpointInfo` as JSON), written
    /// beside the downloaded weights so they load as any checkpoint.
    pub sidecar: serde_json::Value,
    /// The trainer incarnation that published it.
    pub trainer: String,
    /// Shards and rows the trainer had ingested when it trained it.
    pub shards_seen: u64,
    pub rows_seen: u64,
}

/// SHA-256 of `bytes`, hex.
pub fn sha256_hex(bytes: &[u8]) -> String {
    let digest = Sha256::digest(bytes);
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

/// A name no other process of this run will take: the time in
/// microseconds and the pid, in hex (8 + 6 characters).
pub fn incarnation() -> String {
    let micros = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_micros() as u64);
    format!(
        "{:08x}{:06x}",
        micros & 0xffff_ffff,
        std::process::id() & 0xff_ffff
    )
}

/// A store error as the roles report it: transient ones have been retried
/// already, so both are failures of the run (exit 1), naming the store.
pub fn store_error(e: StoreError) -> Error {
    Error::Store(e)
}

/// Runs `f` against the store, retrying transient failures with backoff
/// for up to the patience ([`set_patience`], default [`STORE_PATIENCE`])
/// and saying so on stderr.
pub fn patiently<T>(
    store: &Store,
    what: &str,
    f: impl FnMut(&Store) -> Result<T, StoreError>,
) -> Result<T, Error> {
    store
        .retry(
            patience(),
            |attempt, e, wait| {
                eprintln!(
                    "store unreachable ({what}, attempt {attempt}): {e}; retrying in {:.1} s",
                    wait.as_secs_f64()
                )
            },
            f,
        )
        .map_err(store_error)
}

/// The generations whose manifests are published, ascending.
pub fn published(store: &Store) -> Result<Vec<u32>, Error> {
    let listed = patiently(store, "listing networks", |s| s.list(NETWORKS_DIR))?;
    let mut gens: Vec<u32> = listed
        .iter()
        .filter_map(|l| manifest_generation(&l.key))
        .collect();
    gens.sort_unstable();
    Ok(gens)
}

/// Generation `g`'s manifest.
pub fn read_manifest(store: &Store, g: u32) -> Result<Manifest, Error> {
    let key = manifest(g);
    let bytes =
        patiently(store, "reading a manifest", |s| s.get(&key))?.ok_or_else(|| Error::Missing {
            url: store.url().to_string(),
            key: key.clone(),
        })?;
    serde_json::from_slice(&bytes).map_err(|source| Error::NotA {
        url: store.url().to_string(),
        key,
        what: "a manifest",
        source,
    })
}

/// Downloads generation `g`'s network into `dir` (weights and sidecar),
/// checking its SHA-256; returns the weights' local path.
pub fn download_network(
    store: &Store,
    manifest: &Manifest,
    dir: &std::path::Path,
) -> Result<std::path::PathBuf, Error> {
    let bytes = patiently(store, "downloading a network", |s| s.get(&manifest.weights))?
        .ok_or_else(|| Error::MissingWeights {
            url: store.url().to_string(),
            key: manifest.weights.clone(),
        })?;
    let sum = sha256_hex(&bytes);
    if sum != manifest.sha256 {
        return Err(Error::Checksum {
            url: store.url().to_string(),
            key: manifest.weights.clone(),
            found: sum,
            expected: manifest.sha256.clone(),
        });
    }
    std::fs::create_dir_all(dir).map_err(Error::io(&dir))?;
    let weights = dir.join(format!("{}.safetensors", gen_name(manifest.generation)));
    let sidecar = model::checkpoint::sidecar_path(&weights);
    let sidecar_text =
        serde_json::to_vec_pretty(&manifest.sidecar).map_err(|source| Error::Sidecar { source })?;
    write_whole(&sidecar, &sidecar_text)?;
    write_whole(&weights, &bytes)?;
    Ok(weights)
}

/// Writes a local file whole ([`fsio::write_atomic`]).
pub fn write_whole(path: &std::path::Path, bytes: &[u8]) -> Result<(), Error> {
    fsio::write_atomic(path, bytes).map_err(Error::io(&path))
}

/// The newest published generation, through `LATEST` when it changed
/// (`etag` is the one last seen; a conditional GET costs one round trip
/// when nothing changed), else by listing. `None` before the first.
pub fn newest(
    store: &Store,
    etag: &mut Option<String>,
    known: Option<u32>,
) -> Result<Option<u32>, Error> {
    let fetched = patiently(store, "polling LATEST", |s| {
        s.get_if_changed(LATEST_KEY, etag.as_deref())
    })?;
    match fetched {
        Fetched::NotModified => Ok(known),
        Fetched::Changed { bytes, etag: e } => {
            *etag = e;
            let text = String::from_utf8_lossy(&bytes);
            let hinted = parse_gen(text.trim());
            // The hint may be behind the listing (a trainer killed between
            // its manifest and LATEST), never ahead of it.
            let listed = published(store)?.last().copied();
            Ok(listed.max(hinted.filter(|h| Some(*h) <= listed)))
        }
        Fetched::Missing => Ok(published(store)?.last().copied()),
    }
}
