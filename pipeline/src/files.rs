//! Writing a run's files: whole and atomically ([`fsio::write_atomic`]),
//! an error naming the path.

use crate::Error;
use std::path::Path;

/// Writes `text` to `path` atomically ([`fsio::write_atomic`]), as the
/// run's files are written.
pub fn write_atomic(path: &Path, text: &str) -> Result<(), Error> {
    fsio::write_atomic(path, text.as_bytes()).map_err(|source| Error::CannotWrite {
        path: path.to_path_buf(),
        source,
    })
}
