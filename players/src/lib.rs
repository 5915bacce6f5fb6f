//! What turns a player spec into something that moves, beyond what `eval`
//! builds without torch: network players (a checkpoint searched with the
//! self-play MCTS, [`net`]), matches played in lockstep with their leaves
//! batched through each network ([`lockstep`]), how a `net:` spec becomes
//! a search ([`spec`]) and the alpha-beta engine's leaf hint
//! ([`leafhint`]). Used by the loop's matches, `triad eval`, `play`,
//! `choose`, `bench pons`, the analysis engine, the explorer and Python.
//!
//! The modules use each other one way: `spec` and `leafhint` at the
//! bottom, `lockstep` over `spec`, `net` over both.

mod error;
pub mod leafhint;
pub mod lockstep;
pub mod net;
pub mod spec;

pub use error::{BatchingError, Error};
pub use leafhint::{new_quiescence_hint, quiescence_hint, QuiescenceHint, HINT_SCALE};
pub use net::{factory, factory_with, Batching, NetPlayer, NetPlayers};
pub use spec::{player_search, search_config, selfplay_net_spec, symmetry_use, SymmetryError};
