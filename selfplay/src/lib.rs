//! Self-play: batched MCTS over many concurrent games.
//!
//! The tree search of one game is the `mcts` crate's ([`mcts::Search`],
//! its [`mcts::Evaluator`] and configuration); this crate plays many games
//! with it:
//!
//! - [`driver::SelfPlay`]: many games in flight, one batched evaluation per
//!   round, the positions of finished games as `data::PositionRecord`s.
//! - [`server::EvalServer`]: one network answering searches on other
//!   threads in shared batches (match players on a GPU).
//! - [`SelfplayConfig`]: the `[selfplay]` section of a run file.
//!
//! Every search trick and its constants are described in `docs/selfplay.md`.

pub mod config;
pub mod driver;
pub mod server;

pub use config::{ConfigError, SelfplayConfig};
pub use driver::{Adjudicator, FinishedGame, RoundStats, SelfPlay, Totals};
// The search moved to the `mcts` crate; these re-exports keep the binary's
// imports working until its commands import from `mcts` themselves.
pub use mcts::{
    gumbel_schedule, Algorithm, EvalCache, Evaluator, LeafHint, NetworkEvaluator, Request, Rng,
    Search, SearchParams, UniformEvaluator,
};
pub use server::{EvalClient, EvalServer};
