//! The errors of the Python layer's own checks, typed; each becomes a
//! Python `ValueError` with its message (`From<Error> for PyErr`).

use pyo3::exceptions::PyValueError;
use pyo3::PyErr;

/// Why a call of the boxed game, state or network interface was refused.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A batch holding a state of another game or variant than the one
    /// asked.
    #[error("a state of {found} in a batch of {expected}")]
    MixedBatch {
        /// The state's `game/variant`.
        found: String,
        /// The batch's `game/variant`.
        expected: String,
    },
    /// A state of another game or variant than the network's.
    #[error("a state of {found} for a network of {expected}")]
    OtherNetwork {
        /// The state's `game/variant`.
        found: String,
        /// The network's `game/variant`.
        expected: String,
    },
    /// The encoder's batch could not be read as one slice.
    #[error("the encoder's batch is not contiguous")]
    NotContiguous,
    /// An output array of the wrong size.
    #[error("the output holds {output} floats, the batch is {batch}")]
    OutputSize {
        /// The floats the caller's array holds.
        output: usize,
        /// The floats the batch needs.
        batch: usize,
    },
    /// A move asked of a finished game.
    #[error("the game is over in this position: no move to choose")]
    GameOver,
    /// A checkpoint that cannot be read or written.
    #[error(transparent)]
    Checkpoint(#[from] model::CheckpointError),
    /// A player that cannot be built or failed.
    #[error(transparent)]
    Eval(#[from] eval::EvalError),
    /// A position or move the game refuses.
    #[error(transparent)]
    Game(#[from] game::GameError),
}

impl From<Error> for PyErr {
    fn from(e: Error) -> PyErr {
        PyValueError::new_err(e.to_string())
    }
}
