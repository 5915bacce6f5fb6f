//! One error type for everything that touches a shard: it always names the
//! file, because with thousands of shards "invalid footer" alone is useless.

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// An error reading, writing or listing shards, naming the file concerned.
#[derive(Debug, Clone)]
pub struct DataError {
    /// The shard (or directory) the error concerns.
    pub path: PathBuf,
    /// What went wrong, one line.
    pub message: String,
    /// The underlying error (a column of the wrong type, a row that does
    /// not decode, ...), when there is one: `message` is its text.
    pub source: Option<Arc<dyn std::error::Error + Send + Sync>>,
}

impl DataError {
    pub fn new(path: impl AsRef<Path>, message: impl Into<String>) -> DataError {
        DataError {
            path: path.as_ref().to_path_buf(),
            message: message.into(),
            source: None,
        }
    }

    /// The error `source` about the file `path`.
    pub fn caused(
        path: impl AsRef<Path>,
        source: impl std::error::Error + Send + Sync + 'static,
    ) -> DataError {
        DataError {
            path: path.as_ref().to_path_buf(),
            message: source.to_string(),
            source: Some(Arc::new(source)),
        }
    }
}

impl fmt::Display for DataError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path.display(), self.message)
    }
}

impl std::error::Error for DataError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.source
            .as_deref()
            .map(|e| e as &(dyn std::error::Error + 'static))
    }
}

/// A column of a batch that is missing or of the wrong type.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ColumnError {
    /// The batch has no such column.
    #[error("missing column {name:?}")]
    Missing { name: String },
    /// The column is not of the type asked for (`expected`: `uint64`, `a
    /// string`, `a list of UInt32`).
    #[error("column {name:?} is not {expected}")]
    NotA { name: String, expected: String },
    /// A version 1 column whose type is not its version 2 column's.
    #[error("column {name:?} is {found} (expected {expected})")]
    Type {
        name: String,
        found: arrow_schema::DataType,
        expected: arrow_schema::DataType,
    },
}

/// Why a batch of a shard could not be read as records: a column, a row
/// that makes no sense, arrow refusing a version 1 batch.
#[derive(Debug, thiserror::Error)]
pub enum BatchError {
    #[error(transparent)]
    Column(#[from] ColumnError),
    /// Row `row` of the batch (counted from 0).
    #[error("row {row}: {problem}")]
    Row { row: usize, problem: RowProblem },
    /// A version 1 batch that arrow cannot rebuild in version 2's layout.
    #[error("cannot upgrade a version 1 batch: {0}")]
    Upgrade(arrow_schema::ArrowError),
    /// Arrow refused an operation on a column.
    #[error(transparent)]
    Arrow(#[from] arrow_schema::ArrowError),
}

/// What is wrong with one row of a batch.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RowProblem {
    #[error("bad side_to_move {0:?}")]
    SideToMove(String),
    #[error("root_win, root_draw and root_loss are null together or not at all")]
    PartialWdl,
    #[error("unknown result {0:?}")]
    Result(String),
    #[error("unknown termination {0:?}")]
    Termination(String),
    #[error("unknown source {0:?}")]
    Source(String),
    #[error("null legal_moves")]
    NullLegalMoves,
}

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

/// Why a chart could not be drawn or written (no font, a file that cannot
/// be written); one line, naming the file when there is one.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct ChartError(pub String);

/// For the callers that still carry errors as text (`bench`'s data
/// benchmark): the message.
impl From<RecordError> for String {
    fn from(e: RecordError) -> String {
        e.to_string()
    }
}
