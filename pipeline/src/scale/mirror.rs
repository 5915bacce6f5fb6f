//! A run kept in a store and worked on locally (`triad loop --run URL`,
//! `train --out URL`, `plot URL`): a local mirror of the store's objects
//! (`$TRIAD_CACHE`, one folder per URL: [`super::cache::cache_dir`]),
//! pulled at the start (so a run resumes on any machine) and pushed back
//! every minute and at the end, whatever the end ([`Mirror::pushing`];
//! docs/scale-out.md).
//!
//! Nothing here prints: the caller reports what a pull fetched, and push
//! failures of the background thread go to its callback.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant, SystemTime};

use store::Store;

use super::write_whole;
use crate::Error;

/// A run's store and its local mirror.
pub struct Mirror {
    store: Store,
    /// The local folder the run is worked on in.
    pub local: PathBuf,
    /// Size and modification time of each file when it was last pushed.
    pushed: Mutex<HashMap<PathBuf, (u64, SystemTime)>>,
}

/// What [`Mirror::pull`] found and fetched.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pulled {
    /// Objects in the store.
    pub objects: usize,
    /// Of those, the ones downloaded (missing locally or of another size).
    pub fetched: usize,
}

/// Files that stay local: locks and temporaries.
fn private(rel: &str) -> bool {
    rel.ends_with(".lock") || rel.contains(".tmp")
}

impl Mirror {
    /// Pulls the run in `store` into the local folder `local` (created if
    /// missing: bad input when it cannot be).
    pub fn pull(store: Store, local: PathBuf) -> Result<(Mirror, Pulled), Error> {
        std::fs::create_dir_all(&local).map_err(|source| Error::Folder {
            path: local.clone(),
            source,
        })?;
        let listed = store.list("").map_err(Error::from)?;
        let mut fetched = 0;
        for l in &listed {
            let path = local.join(&l.key);
            if std::fs::metadata(&path).is_ok_and(|m| m.len() == l.size) {
                continue;
            }
            let bytes = store.get(&l.key).map_err(Error::from)?.unwrap_or_default();
            if let Some(dir) = path.parent() {
                std::fs::create_dir_all(dir).map_err(Error::io(&dir))?;
            }
            write_whole(&path, &bytes)?;
            fetched += 1;
        }
        let pulled = Pulled {
            objects: listed.len(),
            fetched,
        };
        let mirror = Mirror {
            store,
            local,
            pushed: Default::default(),
        };
        Ok((mirror, pulled))
    }

    /// Uploads what changed since the last push; returns how many files
    /// it uploaded. `state.json` is read first and uploaded last, so the
    /// store's state never names a stage whose files are not there yet.
    pub fn push(&self) -> Result<usize, Error> {
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
        let mut pushed = self.pushed.lock().map_err(|_| Error::MirrorPoisoned)?;
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
            self.store.put(&rel, bytes).map_err(Error::from)?;
            pushed.insert(p, stamp);
            n += 1;
        }
        if let Some(state) = state {
            self.store.put("state.json", state).map_err(Error::from)?;
            n += 1;
        }
        Ok(n)
    }

    /// Runs `body` while a background thread pushes the mirror every
    /// `every` (a failed push goes to `warn`, and the next one tries
    /// again), then pushes once more, whatever `body` returned. Returns
    /// `body`'s result and the last push's.
    pub fn pushing<T>(
        &self,
        every: Duration,
        warn: impl Fn(&Error) + Send,
        body: impl FnOnce() -> T,
    ) -> (T, Result<usize, Error>) {
        let stopped = AtomicBool::new(false);
        let done = &stopped;
        let result = std::thread::scope(|scope| {
            scope.spawn(move || {
                let mut last = Instant::now();
                while !done.load(Ordering::SeqCst) {
                    std::thread::sleep(Duration::from_millis(200));
                    if last.elapsed() >= every {
                        if let Err(e) = self.push() {
                            warn(&e);
                        }
                        last = Instant::now();
                    }
                }
            });
            let result = body();
            done.store(true, Ordering::SeqCst);
            result
        });
        (result, self.push())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pushes_what_changed_and_pulls_it_back() {
        let dir = tempfile::tempdir().unwrap();
        let remote = dir.path().join("remote");
        let open = || Store::open(remote.to_str().unwrap()).unwrap();
        let (m, pulled) = Mirror::pull(open(), dir.path().join("a")).unwrap();
        assert_eq!(
            pulled,
            Pulled {
                objects: 0,
                fetched: 0
            }
        );
        std::fs::create_dir_all(m.local.join("games")).unwrap();
        std::fs::write(m.local.join("games/x.parquet"), b"x").unwrap();
        std::fs::write(m.local.join("state.json"), b"{}").unwrap();
        std::fs::write(m.local.join("run.lock"), b"").unwrap();
        std::fs::write(m.local.join("y.tmp1-0"), b"").unwrap();
        let (v, pushed) = m.pushing(Duration::from_secs(60), |_| {}, || 7);
        assert_eq!((v, pushed.unwrap()), (7, 2));
        // Unchanged files are not pushed again; state.json always is.
        assert_eq!(m.push().unwrap(), 1);
        let (b, pulled) = Mirror::pull(open(), dir.path().join("b")).unwrap();
        assert_eq!(
            pulled,
            Pulled {
                objects: 2,
                fetched: 2
            }
        );
        assert_eq!(
            std::fs::read(b.local.join("games/x.parquet")).unwrap(),
            b"x"
        );
        assert!(!b.local.join("run.lock").exists());
    }
}
