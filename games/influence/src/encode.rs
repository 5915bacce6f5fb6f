//! The network's view of a position (docs/games/influence.md): the three
//! boards stacked as planes on one 7×4 grid, because the rules link each
//! square of the middle board only to the *same* square of the influence
//! boards (§5): stacked, a cell holds a piece and the influence over it
//! together, where a side-by-side layout would put them 4 or 8 columns
//! apart. Seen from the side to move: "my army" is the one the mover helps,
//! and the grid is turned so that it moves up the board.

use crate::position::Position;
use crate::types::{Army, Bits, Kind, Move, Square, SQUARES};

/// Bumped whenever a plane or a move feature changes meaning.
pub const ENCODING_VERSION: u32 = 1;
/// Input planes (see the module docs and docs/games/influence.md).
pub const PLANES: usize = 21;
/// Numbers per legal move besides its two cells.
pub const MOVE_FEATURES: usize = 17;

/// The grid cell of `s` seen by the mover helping `mine`: row 0 is the far
/// side from the army the mover helps (rank 7 for White, rank 1 for Black).
#[inline]
fn cell(s: Square, mine: Army) -> usize {
    let row = match mine {
        Army::White => 6 - s.rank() as usize,
        Army::Black => s.rank() as usize,
    };
    row * 4 + s.file() as usize
}

#[inline]
fn fill_bits(out: &mut [f32], plane: usize, bits: u32, mine: Army) {
    for s in Bits(bits) {
        out[plane * SQUARES + cell(s, mine)] = 1.0;
    }
}

#[inline]
fn fill_const(out: &mut [f32], plane: usize, v: f32) {
    out[plane * SQUARES..(plane + 1) * SQUARES].fill(v);
}

/// Writes the 21 planes of `pos` (`PLANES × 7 × 4` floats).
pub fn encode_planes(pos: &Position, repetitions: u8, out: &mut [f32]) {
    out[..PLANES * SQUARES].fill(0.0);
    let me = pos.turn();
    let opp = me.other();
    let mine = pos.army_of(me);
    for (k, kind) in Kind::ALL.into_iter().enumerate() {
        fill_bits(out, k, pos.pieces(mine, kind), mine);
        fill_bits(out, 5 + k, pos.pieces(mine.other(), kind), mine);
    }
    fill_bits(out, 10, pos.princes(me), mine);
    fill_bits(out, 11, pos.commander(me), mine);
    fill_bits(out, 12, pos.princes(opp), mine);
    fill_bits(out, 13, pos.commander(opp), mine);
    fill_bits(out, 14, pos.influence(me), mine);
    fill_bits(out, 15, pos.influence(opp), mine);
    let flag = |b: bool| if b { 1.0 } else { 0.0 };
    fill_const(out, 16, flag(pos.in_check()));
    fill_const(out, 17, flag(me == crate::Player::Above));
    fill_const(out, 18, flag(mine == Army::White));
    fill_const(out, 19, flag(repetitions >= 2));
    let limit = match pos.rules().move_limit {
        0 => 100.0,
        n => n as f32,
    };
    fill_const(out, 20, (pos.clock() as f32 / limit).min(1.0));
}

/// Material of a piece kind in pawns (for the capture feature).
const VALUE: [f32; 5] = [1.0, 3.0, 5.0, 9.0, 0.0];

/// Writes the 17 features of `m` and returns its origin and destination
/// cells on the mover's grid.
pub fn encode_move(pos: &Position, m: Move, f: &mut [f32]) -> (usize, usize) {
    f[..MOVE_FEATURES].fill(0.0);
    let me = pos.turn();
    let mine = pos.army_of(me);
    let (from, to) = (m.from(), m.to());
    if !m.is_middle() {
        f[0] = 1.0;
        if pos.commander(me) & from.bit() != 0 {
            f[2] = 1.0;
        } else {
            f[1] = 1.0;
        }
    } else if let Some(p) = pos.piece_at(from) {
        f[if p.army == mine { 3 } else { 4 }] = 1.0;
        f[5 + p.kind.index()] = 1.0;
        if let Some(v) = pos.piece_at(to) {
            f[10] = 1.0;
            f[11] = VALUE[v.kind.index()] / 9.0;
            f[12] = if v.army == mine { 1.0 } else { 0.0 };
        }
        match m.promotion() {
            crate::Promotion::None => {}
            crate::Promotion::Queen => f[13] = 1.0,
            crate::Promotion::Rook => f[14] = 1.0,
            crate::Promotion::Knight => f[15] = 1.0,
        }
        if m.is_accompanied() {
            f[16] = 1.0;
        }
    }
    (cell(from, mine), cell(to, mine))
}
