//! The benchmarks behind `triad bench`: one harness per layer (shards,
//! learning, the network's forward pass, Pons's Connect Four positions,
//! alpha-beta search, self-play, the trainer), and the one timing module
//! they share. Each harness takes an options struct, reports progress on
//! an `indicatif::ProgressBar` it is given (never printing), and returns a
//! result struct whose serde form is the command's `--json` object; the
//! `triad` binary parses the flags, loads the inputs and prints.

pub mod data;
pub mod env;
pub mod learn;
pub mod model;
pub mod pons;
pub mod search;
pub mod selfplay;
mod text;
pub mod timing;
pub mod train;

use std::fmt;

/// Why a benchmark did not run to its figures.
#[derive(Debug)]
pub enum Error {
    /// Bad input: options, files or a configuration that cannot be used.
    Input(String),
    /// A check or a measurement that failed.
    Failed(String),
    /// An error of the pipeline layer (loading a network, self-play to
    /// shards), with its own exit status.
    Pipeline(pipeline::Error),
}

impl Error {
    /// Bad input with this message.
    pub fn input(message: impl Into<String>) -> Error {
        Error::Input(message.into())
    }
    /// A failed check with this message.
    pub fn failed(message: impl Into<String>) -> Error {
        Error::Failed(message.into())
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Input(m) | Error::Failed(m) => f.write_str(m),
            Error::Pipeline(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for Error {}

impl From<pipeline::Error> for Error {
    fn from(e: pipeline::Error) -> Error {
        Error::Pipeline(e)
    }
}
