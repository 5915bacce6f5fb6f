//! The tree search of one game, for self-play, matches, benchmarks and the
//! explorer alike.
//!
//! - [`Search`]: PUCT, or Gumbel AlphaZero at the root, with the
//!   MCTS-solver (proven values), tree reuse and the leaf hint; a state
//!   machine that stops whenever a leaf needs the network, so leaves of many
//!   games can share a forward pass.
//! - [`SearchConfig`]: every constant of a search in one typed value,
//!   the leaf hint's weight included.
//! - [`eval`]: the [`Evaluator`] trait the search talks to (the network, or
//!   a uniform stand-in for tests), the [`LeafHint`] trait and the
//!   evaluation cache.
//! - [`Rng`]: the random stream of one game.
//!
//! Every search trick and its constants are described in `docs/selfplay.md`.

pub mod config;
pub mod eval;
pub mod rng;
pub mod search;

pub use config::{Algorithm, SearchConfig};
pub use eval::{
    Declined, EvalCache, Evaluator, LeafHint, NetworkEvaluator, Request, Symmetrized, SymmetryUse,
    UniformEvaluator,
};
pub use rng::Rng;
pub use search::{
    gumbel_schedule, MoveStats, Search, SearchParams, VisitsError, LCB_MIN_VISIT_SHARE,
};
