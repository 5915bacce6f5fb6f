//! The PiRaTeKnIcS rules engine: board, ships, crew, moves, legality, TFEN
//! and move text, Zobrist hashing, game results and perft.
//!
//! It implements the game boundary of the `game` crate ([`Piratechnics`]:
//! `game::Game`, `Position`: `game::GameState`, `Move`: `game::GameMove`)
//! and holds the game's encoding for the network ([`encode_planes`]) and its
//! evaluation for the alpha-beta baseline ([`evaluate`]:
//! `game::AlphaBetaState`). It has no dependency on torch and is the fastest
//! code in the project. The rules it implements are
//! `shared/spec/RULES.md`; board shape, ship capacity and start position are
//! parameters of a [`Variant`], so variants need no new code.

mod baseline;
mod boundary;
mod crew;
mod diagram;
mod draw;
mod encode;
mod error;
mod mirror;
mod movegen;
mod moves;
mod notation;
mod outcome;
mod position;
mod record;
mod tfen;
mod types;
mod variant;
mod zobrist;

pub use baseline::{evaluate, EvalParams, Geometry};
pub use boundary::{
    Piratechnics, BENCH_POSITIONS, DESCRIPTOR, START_8X8, START_CAPACITY2, VARIANTS,
};
pub use crew::{Crew, KindCounts, PromoCounts};
pub use diagram::diagram;
pub use encode::{
    cell_index, encode_move_features, encode_planes, ENCODING_VERSION, MOVE_FEATURES, PLANES,
};
pub use error::{TfenError, TfenProblem, VariantError};
pub use game::GameError;
pub use game::SplitMix;
pub use game::{divide, perft, perft_parallel};
pub use movegen::MoveList;
pub use moves::{Move, MoveFeatures, MoveKind};
pub use notation::{Marks, MoveParseError, MoveProblem};
pub use outcome::{
    outcome_of, outcome_of_with, repetitions, Game, GameResult, Outcome, Termination,
    NO_CAPTURE_LIMIT,
};
pub use position::Position;
pub use record::{
    parse_record, replay, write_record, RecordItem, Replay, ReplayError, ReplayedPly,
};
pub use types::{Bitboard, Color, Kind, Piece, Square};
pub use variant::{Variant, STANDARD_START};
