//! The one error type of the pipeline's roles: bad input (the user can fix
//! it: exit 2) or a failure while working (exit 1).

use std::fmt;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Error {
    /// Bad input: a config value, a path, a checkpoint of another game.
    Input(String),
    /// Something failed while working (I/O, a stage that stopped).
    Failed(String),
}

impl Error {
    pub fn input(m: impl Into<String>) -> Error {
        Error::Input(m.into())
    }
    pub fn failed(m: impl Into<String>) -> Error {
        Error::Failed(m.into())
    }
    /// The process exit status it maps to.
    pub fn exit_code(&self) -> i32 {
        match self {
            Error::Input(_) => 2,
            Error::Failed(_) => 1,
        }
    }
    pub fn message(&self) -> &str {
        match self {
            Error::Input(m) | Error::Failed(m) => m,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.message())
    }
}
impl std::error::Error for Error {}

/// A game that cannot be built (of a section, a flag, shards) is bad input.
impl From<registry::Error> for Error {
    fn from(e: registry::Error) -> Error {
        Error::Input(e.to_string())
    }
}

/// A run file's key or value that is wrong is bad input.
impl From<runfile::ConfigError> for Error {
    fn from(e: runfile::ConfigError) -> Error {
        Error::Input(e.0)
    }
}

/// A player spec, `[eval]` value, openings file or position that
/// `eval` refuses is bad input.
impl From<eval::EvalError> for Error {
    fn from(e: eval::EvalError) -> Error {
        Error::Input(e.message().to_string())
    }
}

/// Training's bad input and failures keep their kind.
impl From<train::TrainError> for Error {
    fn from(e: train::TrainError) -> Error {
        match e {
            train::TrainError::Input(m) => Error::Input(m),
            train::TrainError::Failed(m) => Error::Failed(m),
        }
    }
}
