//! Whole-file writes for every crate of the workspace: the one place that
//! writes a file so that readers see either the old content or the new,
//! never part of it.
//!
//! [`write_atomic`] writes the bytes under a temporary name in the same
//! directory ([`temp_path`]: the file's name, `.tmp`, the process id and a
//! sequence number, so two writers in one process or in two never share
//! one), syncs the file to disk, and renames it over the destination (a
//! rename within one directory is atomic on POSIX file systems). On failure
//! the temporary is removed. Names containing `.tmp` are what the readers
//! of a run skip and what the cleaners of a killed run remove.

use std::ffi::OsString;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// Temporaries taken by this process so far (makes each name unique).
static SEQUENCE: AtomicU64 = AtomicU64::new(0);

/// A fresh temporary name beside `path`: `NAME.tmpPID-SEQ` in the same
/// directory, unique among the writers of this process and of others.
pub fn temp_path(path: &Path) -> PathBuf {
    let seq = SEQUENCE.fetch_add(1, Ordering::Relaxed);
    let mut name: OsString = path.file_name().unwrap_or_default().to_os_string();
    name.push(format!(".tmp{}-{seq}", std::process::id()));
    path.with_file_name(name)
}

/// Writes `bytes` to `path` atomically: under a [`temp_path`], synced,
/// then renamed over `path`. The error is the write's, sync's or rename's,
/// unchanged (callers add the path); no temporary is left behind.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let tmp = temp_path(path);
    let written = (|| {
        let mut file = std::fs::File::create(&tmp)?;
        file.write_all(bytes)?;
        file.sync_all()?;
        drop(file);
        std::fs::rename(&tmp, path)
    })();
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    written
}

/// Copies the folder `from` and everything below it to `to` (created,
/// with its parents, if missing; files there of the same names are
/// replaced). For tests and fixtures: not atomic.
pub fn copy_tree(from: &Path, to: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(to)?;
    for e in std::fs::read_dir(from)? {
        let e = e?;
        let target = to.join(e.file_name());
        if e.file_type()?.is_dir() {
            copy_tree(&e.path(), &target)?;
        } else {
            std::fs::copy(e.path(), target)?;
        }
    }
    Ok(())
}

/// Whether `name` is one of [`temp_path`]'s temporaries (or any name
/// containing `.tmp`, the mark the readers of a run skip).
pub fn is_temporary(name: &str) -> bool {
    name.contains(".tmp")
}

/// Removes the temporaries a killed writer left in `dir` (not below it)
/// and returns how many went. Call it only while holding the directory's
/// run lock, so that no live writer's temporary is taken: a process killed
/// between creating and renaming its temporary leaves it behind, and
/// [`temp_path`]'s unique names mean nothing else would ever replace it.
pub fn remove_temporaries(dir: &Path) -> usize {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return 0;
    };
    entries
        .flatten()
        .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
        .filter(|e| is_temporary(&e.file_name().to_string_lossy()))
        .filter(|e| std::fs::remove_file(e.path()).is_ok())
        .count()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_replaces_and_leaves_no_temporary() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("state.json");
        write_atomic(&path, b"one").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"one");
        write_atomic(&path, b"two, longer").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"two, longer");
        let names: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, vec![std::ffi::OsString::from("state.json")]);
    }

    #[test]
    fn a_killed_writers_temporaries_are_removed_and_nothing_else() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("timings.csv"), b"keep").unwrap();
        std::fs::write(dir.path().join("timings.csv.tmp3406-5"), b"x").unwrap();
        std::fs::write(dir.path().join("a.parquet.tmp"), b"x").unwrap();
        std::fs::create_dir(dir.path().join("sub.tmp")).unwrap();
        assert_eq!(remove_temporaries(dir.path()), 2);
        let mut names: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        assert_eq!(names, ["sub.tmp", "timings.csv"]);
        assert_eq!(remove_temporaries(&dir.path().join("absent")), 0);
    }

    #[test]
    fn a_tree_is_copied_whole() {
        let dir = tempfile::tempdir().unwrap();
        let from = dir.path().join("a");
        std::fs::create_dir_all(from.join("b/c")).unwrap();
        std::fs::write(from.join("x"), b"1").unwrap();
        std::fs::write(from.join("b/c/y"), b"2").unwrap();
        let to = dir.path().join("copy/here");
        copy_tree(&from, &to).unwrap();
        assert_eq!(std::fs::read(to.join("x")).unwrap(), b"1");
        assert_eq!(std::fs::read(to.join("b/c/y")).unwrap(), b"2");
        assert!(copy_tree(&dir.path().join("absent"), &to).is_err());
    }

    #[test]
    fn temporaries_are_unique_and_beside_the_file() {
        let path = Path::new("/some/dir/ratings.csv");
        let (a, b) = (temp_path(path), temp_path(path));
        assert_ne!(a, b);
        assert_eq!(a.parent(), path.parent());
        let name = a.file_name().unwrap().to_string_lossy().into_owned();
        assert!(name.starts_with("ratings.csv.tmp"), "{name}");
    }

    #[test]
    fn a_failed_write_names_the_cause_and_leaves_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("missing").join("x");
        let e = write_atomic(&path, b"x").unwrap_err();
        assert_eq!(e.kind(), std::io::ErrorKind::NotFound);
        // A directory in the way: the rename fails, the temporary goes.
        let blocked = dir.path().join("blocked");
        std::fs::create_dir(&blocked).unwrap();
        std::fs::write(blocked.join("inside"), b"keep").unwrap();
        assert!(write_atomic(&blocked, b"x").is_err());
        let names: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, vec![std::ffi::OsString::from("blocked")]);
    }
}
