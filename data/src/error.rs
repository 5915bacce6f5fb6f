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
    /// Row `ply` of game `game_id` that makes no sense.
    #[error("game {game_id} ply {ply}: {fault}")]
    Row {
        game_id: u64,
        ply: u32,
        fault: RowFault,
    },
    /// A symmetry the game does not have.
    #[error("symmetry {sym} out of range: {game} has {count}")]
    Symmetry {
        sym: usize,
        /// `name/variant`.
        game: String,
        count: usize,
    },
    /// No rows where a game was expected.
    #[error("a game needs at least one row")]
    NoRows,
    /// Rows of two games given as one.
    #[error("rows of games {first} and {other} mixed")]
    MixedGames { first: u64, other: u64 },
    /// Rows of one id in two games or variants (`name/variant` each).
    #[error("game {game_id}: rows of {first} and {other} mixed")]
    MixedVariants {
        game_id: u64,
        first: String,
        other: String,
    },
    /// A game's rows with a ply left out.
    #[error("game {game_id}: ply {expected} missing (found ply {found} instead)")]
    MissingPly {
        game_id: u64,
        expected: usize,
        found: u32,
    },
    /// A game of a shard whose start position the game refuses (`start`:
    /// the text, clipped).
    #[error("{}: game {game_id}: bad start position {start:?}: {source}", shard.display())]
    BadStart {
        shard: PathBuf,
        game_id: u64,
        start: String,
        source: Box<game::GameError>,
    },
    /// A game of a shard with a move its position does not allow.
    #[error("{}: game {game_id} ply {ply}: move code {code} is not legal", shard.display())]
    IllegalInShard {
        shard: PathBuf,
        game_id: u64,
        ply: usize,
        code: u32,
    },
    /// A position or move of the game that the game refuses.
    #[error(transparent)]
    Game(#[from] game::GameError),
}

/// What is wrong with one row of a game.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RowFault {
    #[error("empty game or variant name")]
    EmptyName,
    #[error("{found} visit counts for {legal} legal moves")]
    Visits { found: usize, legal: usize },
    #[error("{found} policy targets for {legal} legal moves")]
    Policy { found: usize, legal: usize },
    #[error("repetitions is 0 (a position has occurred at least once)")]
    ZeroRepetitions,
    /// A result and a termination that do not go together (`result`: as
    /// written, `*` for none).
    #[error("result {result} with termination {termination} (`*` goes with unfinished and only with it)")]
    ResultTermination {
        result: String,
        termination: game::Termination,
    },
    /// A row of another game or variant than the one reading it (each
    /// `name/variant`).
    #[error("a {row} row read as {game}")]
    OtherGame { row: String, game: String },
    #[error("bad position {position:?}: {source}")]
    BadPosition {
        position: String,
        source: game::GameError,
    },
    #[error("bad move code {0}")]
    MoveCode(u32),
    #[error("row position {row} differs from the replayed position {replayed}")]
    Position { row: String, replayed: String },
    #[error("row says repetition {row} of its position, the game's history {history}")]
    Repetition { row: u32, history: u32 },
    #[error("chosen move code {0} is not legal")]
    IllegalChosen(u32),
}

impl RecordError {
    /// The message alone (what `Display` writes).
    pub fn message(&self) -> String {
        self.to_string()
    }
}
