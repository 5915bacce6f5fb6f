//! The one error of the games: what a game refuses in its own texts and
//! options. Every game crate returns it (and re-exports it), so that
//! callers match on what was wrong instead of parsing a string. Each
//! variant's `Display` is its message alone, one line, as it always was.

/// Why a game refused a text, an option or a file.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GameError {
    /// A position text that is not a position of the game (or variant).
    #[error("{0}")]
    Position(String),
    /// A move text that cannot be read, or a move that is not legal.
    #[error("{0}")]
    Move(String),
    /// A variant or a `[game]` key the game does not have, or a value it
    /// refuses; the message names the key (`game.capacity: ...`).
    #[error("{0}")]
    Options(String),
    /// A game record or a benchmark file that cannot be read: the message
    /// names the line (and the file) at fault.
    #[error("{0}")]
    Record(String),
}

impl GameError {
    /// The message alone (what `Display` writes).
    pub fn message(&self) -> &str {
        match self {
            GameError::Position(m)
            | GameError::Move(m)
            | GameError::Options(m)
            | GameError::Record(m) => m,
        }
    }
}

/// For the callers that still carry errors as text: the message.
impl From<GameError> for String {
    fn from(e: GameError) -> String {
        match e {
            GameError::Position(m)
            | GameError::Move(m)
            | GameError::Options(m)
            | GameError::Record(m) => m,
        }
    }
}

/// An error equals a text when its message does (tests compare messages).
impl PartialEq<str> for GameError {
    fn eq(&self, other: &str) -> bool {
        self.message() == other
    }
}

impl PartialEq<&str> for GameError {
    fn eq(&self, other: &&str) -> bool {
        self.message() == *other
    }
}

impl PartialEq<String> for GameError {
    fn eq(&self, other: &String) -> bool {
        self.message() == other
    }
}
