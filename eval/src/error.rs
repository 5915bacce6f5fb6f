//! The one error of evaluation: a spec that cannot be read, an `[eval]`
//! value out of range, a player that cannot be built or fails, a position
//! the game refuses. Each `Display` is its message alone, one line.

/// Why a match, a player or a setting of evaluation was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EvalError {
    /// A player, engine or test spec that cannot be read (`--player`,
    /// `--players`, `--sprt`, the `[eval] ladder`).
    #[error("{0}")]
    Spec(String),
    /// An `[eval]` value out of range; the message names the key.
    #[error("{0}")]
    Config(String),
    /// A player that cannot be built (a checkpoint of another game, ...)
    /// or that failed to move.
    #[error("{0}")]
    Player(String),
    /// An openings file (`--openings`, `[eval] openings`) that cannot be
    /// read, holds a bad position or none.
    #[error("{0}")]
    Openings(String),
    /// A position the game refuses.
    #[error(transparent)]
    Game(#[from] game::GameError),
}

impl EvalError {
    /// The message alone (what `Display` writes).
    pub fn message(&self) -> &str {
        match self {
            EvalError::Spec(m)
            | EvalError::Config(m)
            | EvalError::Player(m)
            | EvalError::Openings(m) => m,
            EvalError::Game(e) => e.message(),
        }
    }
}

/// For the callers that still carry errors as text: the message.
impl From<EvalError> for String {
    fn from(e: EvalError) -> String {
        e.to_string()
    }
}
