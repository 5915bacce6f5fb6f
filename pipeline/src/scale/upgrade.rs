//! The refusal of a run in the old layout of distributed runs, and its
//! one-time upgrade ([`upgrade`], `triad data upgrade RUN`) to the one
//! layout of a run ([`crate::layout`]).
//!
//! The upgrade renames every object of the old layout ([`v1::rename`]) in
//! an order that keeps the run whole at every step: shards and weights
//! first, then match results, then the manifests (the fence: a manifest
//! never names weights that are not there yet), then `LATEST`, then the
//! ratings refitted under the new names. Each object is put-if-absent
//! under its new name, then the old one is deleted, so a killed upgrade
//! leaves old objects that a second upgrade finishes (an old object whose
//! new name already holds the same bytes is only deleted), and an upgrade
//! of an upgraded run does nothing. Run it with the run's trainer and
//! workers stopped: they refuse a run that still holds old objects.

use crate::layout::*;

use serde::Serialize;
use store::{PutOutcome, Store};

use crate::scale::{matches::GenerationMatches, patiently, Manifest};
use crate::Error;

/// What [`upgrade`] did to a run.
#[derive(Clone, Debug, Default, Serialize, PartialEq, Eq)]
pub struct UpgradeReport {
    /// The run, as given.
    pub run: String,
    /// Old objects copied to their new names (and deleted).
    pub renamed: u64,
    /// Old objects whose new name already held the same bytes (an upgrade
    /// killed between its copy and its delete): deleted.
    pub finished: u64,
    /// Whether `LATEST` was rewritten with the new name.
    pub latest: bool,
    /// Whether `ratings.md` was refitted under the new names.
    pub ratings: bool,
}

impl UpgradeReport {
    /// Whether the run was in the one layout already.
    pub fn was_current(&self) -> bool {
        self.renamed == 0 && self.finished == 0 && !self.latest && !self.ratings
    }

    /// `triad data upgrade`'s line.
    pub fn text(&self) -> String {
        if self.was_current() {
            return format!("{}: in the one layout already; nothing to do", self.run);
        }
        format!(
            "{}: upgraded: {} objects renamed, {} finished (renamed by an earlier upgrade){}{}",
            self.run,
            self.renamed,
            self.finished,
            if self.latest {
                "; LATEST rewritten"
            } else {
                ""
            },
            if self.ratings {
                "; ratings.md refitted"
            } else {
                ""
            },
        )
    }
}

/// The first old-layout object of the run, if any (one listing per old
/// folder: cheap for a run in the one layout, whose old folders are empty).
pub fn old_object(store: &Store) -> Result<Option<String>, Error> {
    for prefix in [v1::SHARDS, v1::CHECKPOINTS, v1::MATCHES] {
        let listed = patiently(store, "listing the run", |s| s.list(prefix))?;
        if let Some(l) = listed.into_iter().find(|l| v1::rename(&l.key).is_some()) {
            return Ok(Some(l.key));
        }
    }
    Ok(None)
}

/// Refuses a run that holds objects of the old layout, naming the upgrade
/// (the trainer and workers call it before they touch a run: layouts are
/// never mixed).
pub fn refuse_old(store: &Store) -> Result<(), Error> {
    match old_object(store)? {
        None => Ok(()),
        Some(key) => Err(Error::OldLayout {
            url: store.url().to_string(),
            key,
        }),
    }
}

/// Upgrades the run at `run` (a URL or a local folder) to the one layout:
/// see the module docs. Idempotent; safe to run again after a kill.
pub fn upgrade(run: &str) -> Result<UpgradeReport, Error> {
    let local = local_folder(run);
    if let Some(dir) = &local {
        if !dir.is_dir() {
            return Err(Error::NoSuchFolder {
                run: run.to_string(),
            });
        }
    }
    let store = Store::open(run).map_err(Error::BadStore)?;
    let mut report = UpgradeReport {
        run: run.to_string(),
        ..UpgradeReport::default()
    };
    let listed = patiently(&store, "listing the run", |s| s.list(""))?;
    let mut moves: Vec<(String, v1::Rename)> = listed
        .into_iter()
        .filter_map(|l| v1::rename(&l.key).map(|r| (l.key, r)))
        .collect();
    // Weights and shards, then match results, then the manifests (the fence).
    moves.sort_by_key(|(key, r)| {
        let rank = match r {
            v1::Rename::Same(_) => 0,
            v1::Rename::Matches(_) => 1,
            v1::Rename::Manifest(_) => 2,
        };
        (rank, key.clone())
    });
    for (old, rename) in &moves {
        if move_object(&store, old, rename)? {
            report.renamed += 1;
        } else {
            report.finished += 1;
        }
    }
    report.latest = upgrade_latest(&store)?;
    report.ratings = upgrade_ratings(&store)?;
    if let Some(dir) = &local {
        remove_empty_old_folders(dir);
    }
    Ok(report)
}

/// The folder of a local run (a path or `file://`), `None` for a URL.
fn local_folder(run: &str) -> Option<std::path::PathBuf> {
    match run.strip_prefix("file://") {
        Some(path) => Some(path.into()),
        None if run.contains("://") || store::is_url(std::path::Path::new(run)) => None,
        None => Some(run.into()),
    }
}

/// Puts `old`'s bytes (rewritten as `rename` says) under the new name if
/// absent, then deletes `old`; true when this call created the new
/// object. A new object of other bytes is an error (nothing is deleted).
fn move_object(store: &Store, old: &str, rename: &v1::Rename) -> Result<bool, Error> {
    let url = store.url();
    let Some(bytes) = patiently(store, "reading an old object", |s| s.get(old))? else {
        return Ok(false);
    };
    let bytes = match rename {
        v1::Rename::Same(_) => bytes,
        v1::Rename::Manifest(_) => {
            let mut m: Manifest = serde_json::from_slice(&bytes).map_err(|source| Error::NotA {
                url: url.to_string(),
                key: old.to_string(),
                what: "a manifest",
                source,
            })?;
            if let Some(r) = v1::rename(&m.weights) {
                m.weights = r.key().to_string();
            }
            pretty(&m)?
        }
        v1::Rename::Matches(_) => {
            let mut m: GenerationMatches =
                serde_json::from_slice(&bytes).map_err(|source| Error::NotA {
                    url: url.to_string(),
                    key: old.to_string(),
                    what: "match results",
                    source,
                })?;
            for r in &mut m.results {
                r.0 = v1::rename_player(&r.0);
            }
            pretty(&m)?
        }
    };
    let new = rename.key();
    let created = match patiently(store, "writing a new object", |s| {
        s.put_new(new, bytes.clone())
    })? {
        PutOutcome::Created => true,
        PutOutcome::AlreadyExists => {
            let theirs = patiently(store, "reading a new object", |s| s.get(new))?;
            if theirs.as_deref() != Some(&bytes[..]) {
                return Err(Error::BothLayouts {
                    url: url.to_string(),
                    old: old.to_string(),
                    new: new.to_string(),
                });
            }
            false
        }
    };
    patiently(store, "deleting an old object", |s| s.delete(old))?;
    Ok(created)
}

fn pretty(v: &impl Serialize) -> Result<Vec<u8>, Error> {
    serde_json::to_vec_pretty(v).map_err(Error::from)
}

/// Rewrites an old `LATEST` (`g000003`) with the new name.
fn upgrade_latest(store: &Store) -> Result<bool, Error> {
    let Some(bytes) = patiently(store, "reading LATEST", |s| s.get(LATEST))? else {
        return Ok(false);
    };
    let Some(g) = v1::parse_gen(String::from_utf8_lossy(&bytes).trim()) else {
        return Ok(false);
    };
    let text = format!("{}\n", gen_name(g)).into_bytes();
    patiently(store, "writing LATEST", |s| s.put(LATEST, text.clone()))?;
    Ok(true)
}

/// Refits `ratings.md` from the match results when it names an old
/// generation (`| g000003 |`).
fn upgrade_ratings(store: &Store) -> Result<bool, Error> {
    let Some(bytes) = patiently(store, "reading ratings.md", |s| s.get(RATINGS_MD))? else {
        return Ok(false);
    };
    let text = String::from_utf8_lossy(&bytes);
    if !text
        .split('|')
        .any(|cell| v1::parse_gen(cell.trim()).is_some())
    {
        return Ok(false);
    }
    crate::scale::matches::publish_ratings(store)?;
    Ok(true)
}

/// Removes the old layout's folders of a local run once they are empty
/// (a local store leaves a deleted object's folders behind).
fn remove_empty_old_folders(dir: &std::path::Path) {
    for old in [v1::SHARDS, v1::CHECKPOINTS] {
        let folder = dir.join(old);
        if let Ok(entries) = std::fs::read_dir(&folder) {
            for e in entries.flatten() {
                let _ = std::fs::remove_dir(e.path());
            }
        }
        let _ = std::fs::remove_dir(&folder);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::{Path, PathBuf};

    /// A copy of the old-layout run of `tests/fixtures/scale-run-v1`.
    fn old_run(dir: &Path) -> PathBuf {
        let fixture =
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/scale-run-v1/run");
        let run = dir.join("run");
        fsio::copy_tree(&fixture, &run).unwrap();
        run
    }

    /// Every object of the run with its bytes.
    fn objects(run: &Path) -> Vec<(String, Vec<u8>)> {
        let store = Store::open(run.to_str().unwrap()).unwrap();
        store
            .list("")
            .unwrap()
            .into_iter()
            .map(|l| {
                let bytes = store.get(&l.key).unwrap().unwrap();
                (l.key, bytes)
            })
            .collect()
    }

    const TRAINER: &str = "314ba4cd0044ff";
    const WORKER: &str = "w0000-315882f3004508";

    #[test]
    fn the_old_run_is_refused_then_upgraded_once() {
        let dir = tempfile::tempdir().unwrap();
        let run = old_run(dir.path());
        let url = run.to_str().unwrap();
        let store = Store::open(url).unwrap();
        let err = refuse_old(&store).unwrap_err();
        assert_eq!(err.exit_code(), 2);
        assert!(err.message().contains("triad data upgrade"), "{err}");
        let before = objects(&run);

        let report = upgrade(url).unwrap();
        assert_eq!((report.renamed, report.finished), (9, 0), "{report:?}");
        assert!(report.latest && report.ratings, "{report:?}");
        refuse_old(&store).unwrap();
        let after = objects(&run);
        let keys: Vec<&str> = after.iter().map(|(k, _)| k.as_str()).collect();
        let w = |g: u32, s: u32| format!("games/gen-000{g}/{WORKER}-s00000{s}.parquet");
        let t = |g: u32| format!("networks/gen-000{g}-{TRAINER}.safetensors");
        let mut want = vec![
            "LATEST".to_string(),
            "config.toml".into(),
            w(0, 0),
            w(0, 1),
            w(1, 2),
            w(1, 3),
            "matches/gen-0001.json".into(),
            t(0),
            "networks/gen-0000.json".into(),
            t(1),
            "networks/gen-0001.json".into(),
            "ratings.md".into(),
        ];
        want.sort();
        assert_eq!(keys, want);
        // Shards and weights keep their bytes; the old folders are gone.
        let old = |k: &str| &before.iter().find(|(o, _)| o == k).unwrap().1;
        let new = |k: &str| &after.iter().find(|(n, _)| n == k).unwrap().1;
        assert_eq!(
            new(&w(1, 3)),
            old(&format!("shards/g000001/{WORKER}-s000003.parquet"))
        );
        assert_eq!(
            new(&t(1)),
            old(&format!("checkpoints/g000001-{TRAINER}.safetensors"))
        );
        assert!(!run.join("shards").exists() && !run.join("checkpoints").exists());
        // The manifests name the new weights, and check against them.
        for g in [0, 1] {
            let m = crate::scale::read_manifest(&store, g).unwrap();
            assert_eq!(m.weights, t(g));
            assert_eq!(crate::scale::sha256_hex(new(&t(g))), m.sha256);
        }
        assert_eq!(crate::scale::published(&store).unwrap(), vec![0, 1]);
        assert_eq!(new("LATEST"), b"gen-0001\n");
        let matches = String::from_utf8(new("matches/gen-0001.json").clone()).unwrap();
        assert!(matches.contains("\"gen-0000\"") && !matches.contains("g000000"));
        let ratings = String::from_utf8(new("ratings.md").clone()).unwrap();
        assert!(ratings.contains("| gen-0001 |") && !ratings.contains("g00000"));

        // Twice: nothing to do, nothing changed.
        let again = upgrade(url).unwrap();
        assert!(again.was_current(), "{again:?}");
        assert_eq!(objects(&run), after);
    }

    #[test]
    fn an_interrupted_upgrade_completes_on_rerun() {
        let dir = tempfile::tempdir().unwrap();
        let clean = old_run(&dir.path().join("clean"));
        upgrade(clean.to_str().unwrap()).unwrap();
        let run = old_run(dir.path());
        let store = Store::open(run.to_str().unwrap()).unwrap();
        // Killed part way: two shards moved, a weights file and a manifest
        // copied but their old objects not yet deleted.
        for (old, done) in [
            (format!("shards/g000000/{WORKER}-s000000.parquet"), true),
            (format!("shards/g000000/{WORKER}-s000001.parquet"), true),
            (format!("checkpoints/g000000-{TRAINER}.safetensors"), false),
            ("checkpoints/g000000.json".to_string(), false),
        ] {
            let bytes = store.get(&old).unwrap().unwrap();
            move_object(&store, &old, &v1::rename(&old).unwrap()).unwrap();
            if !done {
                store.put_new(&old, bytes).unwrap();
            }
        }
        assert!(refuse_old(&store).is_err());
        let report = upgrade(run.to_str().unwrap()).unwrap();
        assert_eq!((report.renamed, report.finished), (5, 2), "{report:?}");
        assert_eq!(objects(&run), objects(&clean));
        assert!(upgrade(run.to_str().unwrap()).unwrap().was_current());
    }

    #[test]
    fn a_run_in_both_layouts_is_left_alone() {
        let dir = tempfile::tempdir().unwrap();
        let run = old_run(dir.path());
        let store = Store::open(run.to_str().unwrap()).unwrap();
        let old = format!("shards/g000001/{WORKER}-s000002.parquet");
        let new = v1::rename(&old).unwrap();
        store.put_new(new.key(), b"other".to_vec()).unwrap();
        let err = upgrade(run.to_str().unwrap()).unwrap_err();
        assert!(err.message().contains("both exist and differ"), "{err}");
        assert!(store.get(&old).unwrap().is_some());
        let missing = upgrade(dir.path().join("nothing").to_str().unwrap()).unwrap_err();
        assert_eq!(missing.exit_code(), 2, "{missing}");
    }
}
