//! A lock on a run directory: one writer at a time.
//!
//! Two `triad loop` (or `train`, `selfplay`) writing into one directory
//! corrupt each other (lost metrics rows, mixed match results). The lock is
//! a file `triad.lock` created with `create_new` (atomic on every local
//! file system) holding the holder's pid, host and command. A second
//! process is refused with a message naming the holder. A lock left by a
//! killed process on this host (its pid no longer alive) is stale and is
//! taken over; a lock from another host is never taken over automatically
//! (the message says how to remove it by hand).

use crate::Error;
use std::io::Write;
use std::path::{Path, PathBuf};

/// The lock file's name inside a locked directory.
pub const LOCK_FILE: &str = "triad.lock";

/// A held lock; released (the file removed) when dropped.
#[derive(Debug)]
pub struct RunLock {
    path: PathBuf,
    content: String,
}

fn hostname() -> String {
    let mut buf = [0u8; 256];
    // SAFETY: the buffer is valid for its length; gethostname writes at
    // most that many bytes.
    let rc = unsafe { libc::gethostname(buf.as_mut_ptr() as *mut libc::c_char, buf.len()) };
    if rc != 0 {
        return "unknown-host".into();
    }
    let end = buf.iter().position(|&b| b == 0).unwrap_or(buf.len());
    String::from_utf8_lossy(&buf[..end]).into_owned()
}

/// Whether process `pid` exists on this host.
fn alive(pid: i32) -> bool {
    // SAFETY: signal 0 only checks that the process exists.
    let rc = unsafe { libc::kill(pid, 0) };
    rc == 0 || std::io::Error::last_os_error().raw_os_error() != Some(libc::ESRCH)
}

/// `(pid, host)` of a lock file's content.
fn holder(content: &str) -> Option<(i32, String)> {
    let mut pid = None;
    let mut host = None;
    for line in content.lines() {
        if let Some(p) = line.strip_prefix("pid ") {
            pid = p.trim().parse().ok();
        } else if let Some(h) = line.strip_prefix("host ") {
            host = Some(h.trim().to_string());
        }
    }
    Some((pid?, host?))
}

impl RunLock {
    /// Locks `dir` (created if missing) for `command` (e.g. `triad loop`).
    /// Refused (bad input, exit 2) while another live process holds it.
    pub fn acquire(dir: &Path, command: &str) -> Result<RunLock, Error> {
        std::fs::create_dir_all(dir).map_err(Error::cannot_create(&dir))?;
        let path = dir.join(LOCK_FILE);
        let host = hostname();
        let content = format!(
            "pid {}\nhost {host}\ncommand {command}\n",
            std::process::id()
        );
        for _ in 0..2 {
            match std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(&path)
            {
                Ok(mut f) => {
                    f.write_all(content.as_bytes())
                        .and_then(|_| f.sync_all())
                        .map_err(Error::io(&path))?;
                    return Ok(RunLock { path, content });
                }
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                    let old = std::fs::read_to_string(&path).unwrap_or_default();
                    match holder(&old) {
                        Some((pid, h)) if h == host && !alive(pid) => {
                            // Stale: its process is gone. Remove it only if
                            // it is still that same lock, then try again.
                            if std::fs::read_to_string(&path).unwrap_or_default() == old {
                                let _ = std::fs::remove_file(&path);
                            }
                            eprintln!(
                                "note: took over the stale lock of process {pid} (no longer running) in {}",
                                dir.display()
                            );
                        }
                        Some((pid, h)) => {
                            let cmd = old
                                .lines()
                                .find_map(|l| l.strip_prefix("command "))
                                .unwrap_or("triad");
                            return Err(Error::Locked {
                                dir: dir.to_path_buf(),
                                lock: path.clone(),
                                command: cmd.to_string(),
                                pid,
                                host: h.to_string(),
                            });
                        }
                        None => {
                            return Err(Error::UnreadableLock {
                                dir: dir.to_path_buf(),
                                lock: path.clone(),
                            })
                        }
                    }
                }
                Err(source) => return Err(Error::Io { path, source }),
            }
        }
        Err(Error::LockRace {
            dir: dir.to_path_buf(),
        })
    }
}

impl Drop for RunLock {
    fn drop(&mut self) {
        // Remove only our own lock (never one a later process took over).
        if std::fs::read_to_string(&self.path).is_ok_and(|c| c == self.content) {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_holder_is_refused_and_a_stale_lock_taken_over() {
        let dir = tempfile::tempdir().unwrap();
        let lock = RunLock::acquire(dir.path(), "triad loop").unwrap();
        let err = RunLock::acquire(dir.path(), "triad loop").unwrap_err();
        let msg = err.to_string();
        assert!(
            msg.contains(&format!("pid {}", std::process::id())) && msg.contains("triad loop"),
            "{msg}"
        );
        assert_eq!(err.exit_code(), 2);
        drop(lock);
        assert!(!dir.path().join(LOCK_FILE).exists(), "released on drop");
        // A lock of a process that is gone (a pid that cannot exist).
        std::fs::write(
            dir.path().join(LOCK_FILE),
            format!(
                "pid {}\nhost {}\ncommand triad loop\n",
                i32::MAX,
                hostname()
            ),
        )
        .unwrap();
        let taken = RunLock::acquire(dir.path(), "triad loop").unwrap();
        drop(taken);
        // Another host's lock is never taken over.
        std::fs::write(
            dir.path().join(LOCK_FILE),
            "pid 1\nhost elsewhere\ncommand triad loop\n",
        )
        .unwrap();
        let err = RunLock::acquire(dir.path(), "triad loop").unwrap_err();
        assert!(err.to_string().contains("elsewhere"), "{err}");
    }
}
