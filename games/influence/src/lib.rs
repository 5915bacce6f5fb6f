//! Influence Chess (Samuel H. Bell, 2002) behind the game boundary.
//!
//! Three 7×4 boards: two chess armies on the Middle board, and the private
//! boards of the two players, Above and Below, each holding four princes and
//! a commander. A player moves the middle pieces, of either army, that his
//! influence pieces control, for the army a coin gave him. The rules are
//! the Influence Chess rule book (normative, kept outside this repository;
//! docs/games/influence.md summarises it); this crate follows its sections:
//!
//! - [`types`]: squares, armies, players, pieces and moves (§1, §2, §10);
//! - [`tables`]: reach tables and Zobrist keys, built at compile time;
//! - [`Rules`]/[`Options`]: the book's decisions and the Appendix A
//!   alternatives offered as `[game]` keys;
//! - [`Position`]: the boards, influence and check (§5, §8), making moves;
//! - `movegen`: legal moves (§6–§8), allocation-free;
//! - `text`: position string, move text (§11), the diagram;
//! - `outcome`: mate, stalemate, repetition and the move clock (§9);
//! - `boundary`, `encode`, `symmetry`, `baseline`: the traits of the
//!   `game` crate, the network's encoding, the rule symmetries and the
//!   alpha-beta baseline's evaluation (docs/games/influence.md).

mod baseline;
mod boundary;
mod draw;
mod encode;
mod movegen;
mod outcome;
mod position;
pub mod rules;
mod symmetry;
pub mod tables;
mod text;
pub mod types;

pub use baseline::EvalParams;
pub use boundary::{Influence, DESCRIPTOR};
pub use encode::{ENCODING_VERSION, MOVE_FEATURES, PLANES};
pub use game::GameError;
pub use position::Position;
pub use rules::{CommanderStep, Options, Rules};
pub use types::{Army, Kind, Move, Piece, Player, Promotion, Square};

/// The start position of RULES.md §3, Above helping White.
pub const START: &str =
    "rkqn/pppp/4/4/4/PPPP/NQKR 4/4/P1P1/1C2/1P1P/4/4 4/4/1P1P/2C1/P1P1/4/4 A w 0 1";
/// The start position with Above helping Black.
pub const START_ABOVE_BLACK: &str =
    "rkqn/pppp/4/4/4/PPPP/NQKR 4/4/P1P1/1C2/1P1P/4/4 4/4/1P1P/2C1/P1P1/4/4 A b 0 1";
