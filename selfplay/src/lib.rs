//! Self-play: batched MCTS over many concurrent games.
//!
//! - [`mcts::Search`]: the tree search of one game (PUCT, or Gumbel
//!   AlphaZero at the root), a state machine that stops whenever a leaf
//!   needs the network, so leaves of many games can share a forward pass.
//! - [`eval`]: the [`Evaluator`] trait the search talks to (the network, or
//!   a uniform stand-in for tests) and the evaluation cache.
//! - [`driver::SelfPlay`]: many games in flight, one batched evaluation per
//!   round, the positions of finished games as `data::PositionRecord`s.
//! - [`server::EvalServer`]: one network answering searches on other
//!   threads in shared batches (match players on a GPU).
//! - [`SelfplayConfig`]: the `[selfplay]` section of a run file.
//!
//! Every search trick and its constants are described in `docs/selfplay.md`.

pub mod config;
pub mod driver;
pub mod eval;
pub mod mcts;
pub mod rng;
pub mod server;

pub use config::{Algorithm, ConfigError, SelfplayConfig};
pub use driver::{Adjudicator, FinishedGame, RoundStats, SelfPlay, Totals};
pub use eval::{EvalCache, Evaluator, LeafHint, NetworkEvaluator, Request, UniformEvaluator};
pub use mcts::{gumbel_schedule, Search, SearchParams};
pub use rng::Rng;
pub use server::{EvalClient, EvalServer};
