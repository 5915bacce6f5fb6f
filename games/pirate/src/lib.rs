//! Pirate Chess behind the game boundary: two fleets of eight ships on a
//! toroidal board, deployed from reserve during the game, anchored to be
//! safe from all but the PIRATE, sunk or captured, and merged two by two in
//! the harbour. The rules are the Pirate Chess rule book (normative, kept
//! outside this repository; docs/games/pirate.md summarises them); this
//! crate follows its sections:
//!
//! - [`types`]: sides, ship types, ships on squares, moves (§2, §9);
//! - [`geometry`]: board sizes, the torus, the harbour, how each type moves
//!   (§1, §3);
//! - [`Position`]: the position and how a turn changes it (§5–§7);
//! - `movegen`: the legal turns in canonical form, allocation-free, and
//!   their number by §9's formula (perft's bulk count);
//! - `text`: position string and move text (§10), the diagram;
//! - `outcome`: elimination, no legal turn and the draws (§8);
//! - `record`: game records (numbered lines, tab-separated turns);
//! - `zobrist`: the incremental hash;
//! - `boundary`, `encode`, `symmetry`, `baseline`: the traits of the `game`
//!   crate, the network's encoding, the symmetries and the alpha-beta
//!   baseline's evaluation (docs/games/pirate.md).

mod baseline;
mod boundary;
mod draw;
mod encode;
pub mod geometry;
mod movegen;
mod outcome;
mod position;
mod record;
mod symmetry;
mod text;
pub mod types;
mod zobrist;

pub use baseline::EvalParams;
pub use boundary::{middle_game_positions, Pirate, DESCRIPTOR};
pub use encode::{ENCODING_VERSION, MOVE_FEATURES, PLANES};
pub use game::GameError;
pub use geometry::{Geometry, Size};
pub use position::Position;
pub use symmetry::{map_square, map_type};
pub use types::{Effect, Main, Move, Ship, ShipType, Side, ToggleAt};
