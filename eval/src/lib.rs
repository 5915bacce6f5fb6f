//! Evaluation of players: the alpha-beta baseline engine (`search`), pure
//! Monte Carlo tree search (`uct`), the match runner (`arena`), Elo and
//! SPRT (`elo`), match reports (`report`), and benchmark suites of positions with known answers
//! (`suite`).
//!
//! The baseline is the classical opponent networks are measured against, so
//! it is a real engine (iterative deepening, PVS, transposition table,
//! quiescence, each game's hand-written evaluation), deterministic for a
//! given depth or node limit so that matches can be replayed.
//!
//! Nothing here names a game: the engine is generic over
//! [`game::AlphaBetaState`] and the arena over [`game::Game`], both
//! monomorphised for the game the binary picks.

pub mod analyze;
pub mod arena;
pub mod choose;
pub mod config;
pub mod elo;
mod error;
pub mod play;
pub mod report;
pub mod search;
pub mod suite;
pub mod uct;

pub use config::EvalConfig;
pub use error::{EvalError, OpeningsError, PlayerError, SpecError};
pub use search::{
    EngineSpec, EngineSpecError, EngineSpecProblem, Limits, Score, SearchInfo, SearchResult,
    Searcher,
};
pub use uct::{MctsSpec, Terminal, Uct};
