//! The rule symmetries of Influence Chess, used for training augmentation.
//!
//! - **File mirror** (a ↔ d on all three boards): every movement rule is
//!   left–right symmetric (no castling, pawns move straight), influence and
//!   accompaniment depend only on corresponding squares, so the mirrored
//!   position plays the mirrored game.
//! - **Rank flip with the armies swapped** (rank 1 ↔ 7 on all three boards,
//!   White ↔ Black on the middle board and in the army field): a pawn's
//!   forward direction and last rank belong to its army, so swapping the
//!   armies as the board turns over keeps every rule. The players keep
//!   their boards and their turn.
//! - Both together (a 180° turn with the armies swapped).
//!
//! Not a symmetry: swapping the players (Above moves first and the seats
//! are the toolkit's colours). Tests check each symmetry with perft and
//! move by move (tests/boundary.rs).

use crate::position::Position;
use crate::types::{Bits, Move, Piece, Player, Square};

/// Identity, file mirror, rank flip + army swap, both.
pub const SYMMETRIES: usize = 4;

#[inline]
fn map(s: Square, sym: usize) -> Square {
    let s = if sym & 1 != 0 { s.mirror_file() } else { s };
    if sym & 2 != 0 {
        s.mirror_rank()
    } else {
        s
    }
}

/// `pos` under symmetry `sym` (`0..SYMMETRIES`).
pub fn transform(pos: &Position, sym: usize) -> Position {
    if sym == 0 {
        return *pos;
    }
    let swap = sym & 2 != 0;
    let army = if swap {
        pos.above_army().other()
    } else {
        pos.above_army()
    };
    let mut out = Position::empty(*pos.rules(), army);
    for s in Bits(pos.occupied()) {
        let p = pos.piece_at(s).expect("occupied");
        let p = if swap {
            Piece {
                army: p.army.other(),
                kind: p.kind,
            }
        } else {
            p
        };
        out.set_piece(map(s, sym), p);
    }
    for player in [Player::Above, Player::Below] {
        for s in Bits(pos.princes(player)) {
            out.set_influence(player, map(s, sym), false);
        }
        for s in Bits(pos.commander(player)) {
            out.set_influence(player, map(s, sym), true);
        }
    }
    out.set_state(pos.turn(), pos.clock(), pos.fullmove());
    out
}

/// Move `m` under symmetry `sym`: a move of `transform(pos, sym)`.
#[inline]
pub fn transform_move(m: Move, sym: usize) -> Move {
    m.map_squares(|s| map(s, sym))
}
