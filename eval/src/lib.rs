//! Evaluation of players: the alpha-beta baseline engine (`search`), and
//! later the match runner, Elo and SPRT.
//!
//! The baseline is the classical opponent networks are measured against, so
//! it is a real engine (iterative deepening, PVS, transposition table,
//! quiescence, hand-written evaluation), deterministic for a given depth or
//! node limit so that matches can be replayed.

pub mod arena;
pub mod config;
pub mod elo;
pub mod search;

pub use config::EvalConfig;
pub use search::{
    EngineSpec, EngineSpecError, EvalParams, Limits, Score, SearchInfo, SearchResult, Searcher,
};
