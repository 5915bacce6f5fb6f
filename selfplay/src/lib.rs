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
//! - [`shards`]: self-play orchestration, the one home of it: a job's
//!   networks loaded (one copy per pool), its games played into Parquet
//!   shards, the report and progress line, shards uploaded to a store.
//!   `triad selfplay`, the loop's self-play stage, the distributed worker
//!   and `triad bench` all play through it.
//!
//! Every search trick and its constants are described in `docs/selfplay.md`.

pub mod config;
pub mod driver;
pub mod server;
pub mod shards;

pub use config::{ConfigError, SelfplayConfig};
pub use driver::{Adjudicator, FinishedGame, RoundStats, SelfPlay, Totals};
pub use server::{EvalClient, EvalServer};
pub use shards::ShardsError;
