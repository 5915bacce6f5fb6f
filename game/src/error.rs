//! The one error of the games: what a game refuses in its own texts and
//! options. Every game crate returns it (and re-exports it), so that
//! callers match on what was wrong instead of parsing a string. Each
//! variant carries the text, key or line at fault and, where another error
//! caused it, that error as its `source()`; its `Display` is its message
//! alone, one line, as it always was.

use std::sync::Arc;

/// Why a game refused a text, an option or a file.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GameError {
    /// A position text that is not a position of the game (or variant).
    #[error("{message}")]
    Position {
        /// The text at fault: the position text, or the field or part of
        /// it that is wrong (a rank, the reserve field, a square).
        text: String,
        /// The message, naming the part at fault.
        message: String,
        /// The error this one wraps (a move of a move-list position).
        #[source]
        source: Option<Cause>,
    },
    /// A move text that cannot be read, or a move that cannot be played.
    #[error("{message}")]
    Move {
        /// The move text (or the action code) at fault.
        text: String,
        /// Whether the text does not read or the move does not fit.
        fault: MoveFault,
        /// The message.
        message: String,
    },
    /// A variant or a `[game]` key the game does not have, or a value it
    /// refuses; the message names the key (`game.capacity: ...`).
    #[error("{message}")]
    Options {
        /// The key at fault without `game.` (`capacity`), or `variant` for
        /// a variant name or board size.
        key: String,
        /// The message, naming the key.
        message: String,
        /// The error this one wraps (a board size refused).
        #[source]
        source: Option<Cause>,
    },
    /// A game record, a benchmark file or a serialized state that cannot
    /// be read: the message names the line (and the file) at fault.
    #[error("{message}")]
    Record {
        /// The line (1-based) or the move number at fault, where there is
        /// one.
        line: Option<usize>,
        /// The message, naming the place at fault.
        message: String,
        /// The error this one wraps: the move or position refused, the
        /// file's read error, the number that does not parse.
        #[source]
        source: Option<Cause>,
    },
}

/// Why a move text was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MoveFault {
    /// The text is not a move of the game (syntax, a cell or a code that
    /// does not exist).
    Unreadable,
    /// A move of the game, but not one the position allows.
    Illegal,
    /// The game is over: no move can be played.
    GameOver,
}

/// The error a [`GameError`] wraps.
#[derive(Debug, Clone, thiserror::Error)]
pub enum Cause {
    /// Another game error (the move of a record, a board size).
    #[error(transparent)]
    Game(Box<GameError>),
    /// A file that cannot be read.
    #[error(transparent)]
    Io(Arc<std::io::Error>),
    /// A number that does not parse.
    #[error(transparent)]
    Number(#[from] std::num::ParseIntError),
}

/// Causes are equal when they are of one kind and say the same (an
/// `io::Error` has no equality of its own).
impl PartialEq for Cause {
    fn eq(&self, other: &Cause) -> bool {
        match (self, other) {
            (Cause::Game(a), Cause::Game(b)) => a == b,
            (Cause::Io(a), Cause::Io(b)) => a.kind() == b.kind() && a.to_string() == b.to_string(),
            (Cause::Number(a), Cause::Number(b)) => a == b,
            _ => false,
        }
    }
}

impl Eq for Cause {}

impl From<GameError> for Cause {
    fn from(e: GameError) -> Cause {
        Cause::Game(Box::new(e))
    }
}

impl From<std::io::Error> for Cause {
    fn from(e: std::io::Error) -> Cause {
        Cause::Io(Arc::new(e))
    }
}

impl GameError {
    /// A position text refused: `text` the part at fault.
    pub fn position(text: impl Into<String>, message: impl Into<String>) -> GameError {
        GameError::Position {
            text: text.into(),
            message: message.into(),
            source: None,
        }
    }

    /// A move text that does not read as a move of the game.
    pub fn unreadable_move(text: impl Into<String>, message: impl Into<String>) -> GameError {
        GameError::moves(text, MoveFault::Unreadable, message)
    }

    /// A move that the position does not allow.
    pub fn illegal_move(text: impl Into<String>, message: impl Into<String>) -> GameError {
        GameError::moves(text, MoveFault::Illegal, message)
    }

    /// A move refused because the game is over.
    pub fn game_over(text: impl Into<String>, message: impl Into<String>) -> GameError {
        GameError::moves(text, MoveFault::GameOver, message)
    }

    fn moves(text: impl Into<String>, fault: MoveFault, message: impl Into<String>) -> GameError {
        GameError::Move {
            text: text.into(),
            fault,
            message: message.into(),
        }
    }

    /// A variant or a `[game]` key refused: `key` without `game.`.
    pub fn options(key: impl Into<String>, message: impl Into<String>) -> GameError {
        GameError::Options {
            key: key.into(),
            message: message.into(),
            source: None,
        }
    }

    /// A record or file refused at `line` (where there is one).
    pub fn record(line: Option<usize>, message: impl Into<String>) -> GameError {
        GameError::Record {
            line,
            message: message.into(),
            source: None,
        }
    }

    /// This error with `cause` as its source (a `Move` has none: it is
    /// returned unchanged). The message is not changed: it already says
    /// what the cause says where it should.
    pub fn because(mut self, cause: impl Into<Cause>) -> GameError {
        match &mut self {
            GameError::Position { source, .. }
            | GameError::Options { source, .. }
            | GameError::Record { source, .. } => *source = Some(cause.into()),
            GameError::Move { .. } => {}
        }
        self
    }

    /// The message alone (what `Display` writes).
    pub fn message(&self) -> &str {
        match self {
            GameError::Position { message, .. }
            | GameError::Move { message, .. }
            | GameError::Options { message, .. }
            | GameError::Record { message, .. } => message,
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::error::Error;

    #[test]
    fn the_message_is_the_display_and_the_cause_the_source() {
        let inner = GameError::illegal_move("d2-d5", "d2-d5 is not legal in X");
        let outer =
            GameError::record(Some(3), "line 3: d2-d5 is not legal in X").because(inner.clone());
        assert_eq!(outer.to_string(), "line 3: d2-d5 is not legal in X");
        assert_eq!(
            outer.source().map(|s| s.to_string()),
            Some(inner.to_string())
        );
        assert!(matches!(outer, GameError::Record { line: Some(3), .. }));
        assert!(matches!(
            inner,
            GameError::Move {
                fault: MoveFault::Illegal,
                ..
            }
        ));
        let moved = inner.clone().because(std::io::Error::other("x"));
        assert_eq!(moved, inner);
    }
}
