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
pub mod chess;
mod describe;
pub mod draw;
mod error;
mod history;
mod options;
mod outcome;
mod perft;
mod record;
mod repo_files;
mod rng;
mod sample;
mod state;
mod suite;
mod text;
mod traits;

pub use alphabeta::{
    win_probability, AlphaBetaState, CaptureFacts, CaptureRules, EvalTables, ExactSolver,
    HasCaptures, HasSolver, MoveOrder, NoCaptures, NoSolver, PerfectPlayer, SolverSlot,
};
pub use describe::{
    describe, legal_move_texts, position_or_start, position_to_move, PositionReport,
};
pub use draw::{CellRef, Drawing, Ground, Mark, MarkKind, Panel, Shape, Token};
pub use error::{Cause, GameError, MoveFault};
pub use history::{repetitions, History};
pub use options::{board_sides, unknown_key, About, Descriptor, GameOptions, OptionValue};
pub use outcome::{Color, GameResult, Outcome, Termination};
pub use perft::{
    divide, perft, perft_parallel, perft_suite, timed_perft, PerftLineProblem, PerftMismatch,
    PerftReport, PerftSuiteError, MAX_PERFT_DEPTH,
};
pub use record::{replay_moves, replay_numbered, write_numbered, RecordReplay};
pub use repo_files::{read_repo_file, repo_path};
pub use rng::SplitMix;
pub use sample::random_positions;
pub use state::{Encoding, GameMove, GameState};
pub use suite::{SuiteCase, SuiteFile};
pub use text::clip;
pub use traits::{Game, GameTag};
