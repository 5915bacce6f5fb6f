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

/// Why rows do not make a game, or a game's rows cannot be replayed: rows
/// that disagree (ids, plies, lengths), a value out of range, a position or
/// move the game refuses. The message names the ply or game; the caller
/// adds the shard (as a [`DataError`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RecordError {
    /// Rows or values that do not make a game.
    #[error("{0}")]
    Rows(String),
    /// A position or move of the game that the game refuses.
    #[error(transparent)]
    Game(#[from] game::GameError),
}

impl RecordError {
    /// The message alone (what `Display` writes).
    pub fn message(&self) -> &str {
        match self {
            RecordError::Rows(m) => m,
            RecordError::Game(e) => e.message(),
        }
    }
}

/// For the callers that still carry errors as text: the message.
impl From<RecordError> for String {
    fn from(e: RecordError) -> String {
        e.to_string()
    }
}

/// Why a chart could not be drawn or written (no font, a file that cannot
/// be written); one line, naming the file when there is one.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct ChartError(pub String);

/// For the callers that still carry errors as text: the message.
impl From<ChartError> for String {
    fn from(e: ChartError) -> String {
        e.0
    }
}
