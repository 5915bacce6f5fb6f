//! The one error of the binary, [`CliError`]: a one-line message and the
//! exit status (1 a failed check, 2 bad input). Every library crate's
//! error maps to it here, in one place, so that a command uses `?`; a
//! message that names a flag is added where the command reads the flag.

/// A failure to report: a one-line message and the exit status
/// (1 a failed check, 2 bad input).
#[derive(Debug)]
pub struct CliError {
    pub code: i32,
    pub message: String,
}

impl CliError {
    /// Bad input (exit 2).
    pub fn input(message: impl Into<String>) -> CliError {
        CliError {
            code: 2,
            message: message.into(),
        }
    }
    /// A check that failed (exit 1).
    pub fn failed(message: impl Into<String>) -> CliError {
        CliError {
            code: 1,
            message: message.into(),
        }
    }
}

/// The pipeline's errors carry their own exit status.
impl From<pipeline::Error> for CliError {
    fn from(e: pipeline::Error) -> CliError {
        CliError {
            code: e.exit_code(),
            message: e.to_string(),
        }
    }
}

/// Training: bad input (exit 2) or a failure while training (exit 1).
impl From<train::TrainError> for CliError {
    fn from(e: train::TrainError) -> CliError {
        CliError {
            code: e.exit_code(),
            message: e.to_string(),
        }
    }
}

/// A benchmark harness: bad input, a failed measurement, or a lower
/// layer's error, each with its exit status.
impl From<bench::Error> for CliError {
    fn from(e: bench::Error) -> CliError {
        CliError {
            code: e.exit_code(),
            message: e.to_string(),
        }
    }
}

/// A chart of `triad openings --chart` that cannot be drawn or written
/// (a file name of the wrong kind, no font): bad input (exit 2).
impl From<plot::Error> for CliError {
    fn from(e: plot::Error) -> CliError {
        CliError::input(e.to_string())
    }
}

/// Shards that cannot be listed or read are bad input (exit 2).
impl From<data::DataError> for CliError {
    fn from(e: data::DataError) -> CliError {
        CliError::input(e.to_string())
    }
}

/// A position, a move, a key or a file a game refuses: exit 2.
impl From<game::GameError> for CliError {
    fn from(e: game::GameError) -> CliError {
        CliError::input(e.to_string())
    }
}

/// A game that cannot be built (of a section, a flag, shards): exit 2.
impl From<registry::Error> for CliError {
    fn from(e: registry::Error) -> CliError {
        CliError::input(e.to_string())
    }
}

/// Shard rows that do not make a game (an opening tree's games): exit 2.
impl From<data::RecordError> for CliError {
    fn from(e: data::RecordError) -> CliError {
        CliError::input(e.to_string())
    }
}

/// A game id the shards do not hold, or shards that cannot be read: exit 2.
impl From<data::FindGameError> for CliError {
    fn from(e: data::FindGameError) -> CliError {
        CliError::input(e.to_string())
    }
}

/// The explorer's errors are all bad input (exit 2).
impl From<explore::Error> for CliError {
    fn from(e: explore::Error) -> CliError {
        CliError::input(e.to_string())
    }
}

/// A run file's section or a flag's value refused (names the key): exit 2.
impl From<runfile::ConfigError> for CliError {
    fn from(e: runfile::ConfigError) -> CliError {
        CliError::input(e.to_string())
    }
}

/// The analysis engine: a player it cannot seat is bad input (exit 2), its
/// input failing a failure (exit 1).
impl From<analysis::Error> for CliError {
    fn from(e: analysis::Error) -> CliError {
        if e.is_input() {
            CliError::input(e.to_string())
        } else {
            CliError::failed(e.to_string())
        }
    }
}
