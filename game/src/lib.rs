//! The game boundary: the traits every game implements ([`Game`],
//! [`GameState`], [`GameMove`]) and what all games share (the two seats,
//! results, a game's history for repetition, perft, SplitMix).
//!
//! Nothing here knows a particular game: each game is a crate under
//! `games/` that implements these traits, and everything above this layer
//! (search, encoding, data, training, evaluation) is generic over them and
//! monomorphised. The binary picks the game once, from a name.
//! `docs/games.md` walks through adding a game.

mod alphabeta;
pub mod draw;
mod history;
mod options;
mod outcome;
mod perft;
mod record;
mod rng;
mod sample;
mod shared;
mod suite;
mod text;
mod traits;

pub use alphabeta::{win_probability, AlphaBetaState, MoveOrder, PerfectPlayer};
pub use draw::{CellRef, Drawing, Ground, Mark, MarkKind, Panel, Shape, Token};
pub use history::{repetitions, History};
pub use options::{unknown_key, About, Descriptor, GameOptions, OptionValue};
pub use outcome::{Color, GameResult, Outcome, Termination};
pub use perft::{divide, perft, perft_parallel};
pub use record::{replay_numbered, write_numbered, RecordReplay};
pub use rng::SplitMix;
pub use sample::random_positions;
pub use shared::{read_shared, read_shared_spec};
pub use suite::{SuiteCase, SuiteFile};
pub use text::clip;
pub use traits::{Encoding, Game, GameMove, GameState, GameTag};
