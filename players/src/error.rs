//! Why a network player could not be seated or a match in lockstep could
//! not go on. Handed to `eval` boxed in `PlayerError::Network` (`eval`
//! does not depend on torch), so its message and its source travel on.

use eval::PlayerError;

/// A network player that cannot be built, or a lockstep match that broke.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A checkpoint that cannot be loaded for the game (another game or
    /// variant, a missing or broken file).
    #[error(transparent)]
    Checkpoint(#[from] model::CheckpointError),
    /// A `symmetry=` option asked of a game without symmetries.
    #[error(transparent)]
    Symmetry(#[from] crate::spec::SymmetryError),
    /// A game thread panicked while holding the shared evaluation servers.
    #[error("net players: a game thread panicked")]
    Poisoned,
    /// A seat asked for a network the driver did not load.
    #[error("network `{path}` was not loaded")]
    NotLoaded { path: String },
    /// A time-limited network player (`net:…,movetime=`) asked of a match
    /// in lockstep, where a game's wall time is shared with every game in
    /// flight: such a match is played game by game.
    #[error("network player `{spec}` has movetime=: a time-limited player plays game by game, not in lockstep")]
    TimedInLockstep { spec: String },
    /// A network's evaluator could not answer a batch (a model outside
    /// Rust that failed; it keeps the error that says why): the match
    /// stops.
    #[error("network `{path}`: {source}")]
    Declined {
        path: String,
        #[source]
        source: mcts::Declined,
    },
}

impl From<Error> for PlayerError {
    fn from(e: Error) -> PlayerError {
        PlayerError::Network(Box::new(e))
    }
}

/// `--batching` that is neither `lockstep` nor `game`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown batching `{value}`: use `lockstep` or `game`")]
pub struct BatchingError {
    /// The value given.
    pub value: String,
}
