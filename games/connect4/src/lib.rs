//! Connect Four behind the game boundary, with a perfect solver.
//!
//! - [`Position`]: Pascal Pons's bitboards (the side to move's stones and
//!   every stone, one sentinel bit per column), any board whose
//!   `width × (height + 1)` fits 64 bits (7×6 by default); the position's
//!   text is its move sequence in Pons's notation (`4453`: 1-based
//!   columns), the empty board `""` (or `-`).
//! - [`Connect4`]: `game::Game`; [`Column`]: `game::GameMove`; the
//!   network encoding and the alpha-beta baseline's evaluation
//!   (`game::AlphaBetaState`) are in `boundary.rs`.
//! - [`Solver`]: the exact score of a position and of each of its columns,
//!   as Pons's test files give them, and a depth-limited version.
//! - [`check`]: solving a list of positions and checking them against
//!   Pons's values (`triad solve`).
//! - [`pons`]: Pons's benchmark files and AlphaZero.jl's error, as the
//!   game's benchmark suite (`game::Game::read_suite`).
//!
//! docs/games/connect4.md describes the encoding and the solver's figures.

mod boundary;
pub mod check;
mod draw;
pub mod pons;
mod position;
mod solver;
mod variant;

pub use boundary::{ENCODING_VERSION, MOVE_FEATURES, PLANES};
pub use game::GameError;
pub use position::{column_char, parse_column, Position, Size, MAX_SIDE};
pub use solver::{Solver, SolverPlayer};
pub use variant::{Column, Connect4, DESCRIPTOR};
