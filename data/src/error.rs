//! One error type for everything that touches a shard: it always names the
//! file, because with thousands of shards "invalid footer" alone is useless.

use std::fmt;
use std::path::{Path, PathBuf};

/// An error reading, writing or listing shards, naming the file concerned.
#[derive(Debug, Clone)]
pub struct DataError {
    /// The shard (or directory) the error concerns.
    pub path: PathBuf,
    /// What went wrong, one line.
    pub message: String,
}

impl DataError {
    pub fn new(path: impl AsRef<Path>, message: impl Into<String>) -> DataError {
        DataError {
            path: path.as_ref().to_path_buf(),
            message: message.into(),
        }
    }
}

impl fmt::Display for DataError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path.display(), self.message)
    }
}

impl std::error::Error for DataError {}
