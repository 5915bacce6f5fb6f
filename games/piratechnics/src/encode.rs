//! The ship-and-crew encoding: positions into input planes, moves into the
//! per-move features the policy head scores.
//!
//! Everything is from the side to move's point of view: for Black the ranks
//! are flipped and the colours swapped, so one network plays both sides and
//! the standard start looks the same to either player. The plane layout is
//! listed in `docs/model.md`; changing it means bumping [`ENCODING_VERSION`],
//! which makes old checkpoints refuse to load instead of silently misreading
//! their inputs.

use crate::{Color, Kind, Move, Position, Square, Variant};

/// Bumped whenever a plane or a move feature changes meaning.
pub const ENCODING_VERSION: u32 = 1;

/// Input planes per position.
pub const PLANES: usize = 47;
/// Numbers describing one move besides its two cells.
pub const MOVE_FEATURES: usize = 25;

// Plane indices (see docs/model.md).
const P_EXISTS: usize = 0;
const P_SHIP: usize = 1;
const P_EMPTY_SHIP: usize = 2;
const P_FREE: usize = 3;
const P_CREW: usize = 4; // 36 planes: (owner*6 + kind)*3 + (threshold-1)
const P_OWN_PROMOTION: usize = 40;
const P_ENEMY_PROMOTION: usize = 41;
const P_OWN_HALF: usize = 42;
const P_REVERSAL_FROM: usize = 43;
const P_REVERSAL_TO: usize = 44;
const P_REPETITION: usize = 45;
const P_CLOCK: usize = 46;

/// Plies without capture that end the game (RULES.md §7): the clock plane is
/// `clock / NO_CAPTURE_LIMIT`, so it reaches 1 when the draw falls.
const NO_CAPTURE_LIMIT: f32 = 100.0;

/// The index of `sq` in the `height × width` grid seen by `side`:
/// `rank' * width + file`, with `rank' = height - 1 - rank` for Black.
#[inline]
pub fn cell_index(variant: &Variant, side: Color, sq: Square) -> usize {
    let rank = match side {
        Color::White => sq.rank(),
        Color::Black => variant.height - 1 - sq.rank(),
    };
    rank as usize * variant.width as usize + sq.file() as usize
}

/// Writes the [`PLANES`] planes of one position into `out`
/// (`PLANES * height * width` values, plane-major). `repetitions` is how many
/// times this position has occurred in its game, this time included (as
/// `game::Game::repetition_count` says; 0 is read as 1): the position does
/// not know its history, the game does. The plane holds
/// `(repetitions − 1) / 2`, so it reaches 1 on the third occurrence.
pub fn encode_planes(pos: &Position, repetitions: u8, out: &mut [f32]) {
    let v = pos.variant();
    let hw = v.height as usize * v.width as usize;
    assert_eq!(out.len(), PLANES * hw, "plane buffer size");
    out.fill(0.0);
    let me = pos.side();
    let them = !me;
    let capacity = v.capacity as f32;
    let mut set = |plane: usize, cell: usize, value: f32| out[plane * hw + cell] = value;
    for sq in v.cells {
        let c = cell_index(v, me, sq);
        set(P_EXISTS, c, 1.0);
        if let Some(crew) = pos.ship_at(sq) {
            set(P_SHIP, c, 1.0);
            let total = crew.total();
            if total == 0 {
                set(P_EMPTY_SHIP, c, 1.0);
            }
            set(P_FREE, c, (capacity - total as f32).max(0.0) / capacity);
            for (owner, color) in [(0, me), (1, them)] {
                let counts = crew.color(color);
                for kind in Kind::ALL {
                    let n = counts.get(kind).min(3) as usize;
                    for t in 0..n {
                        set(P_CREW + (owner * 6 + kind.index()) * 3 + t, c, 1.0);
                    }
                }
            }
        }
        if v.promotion[me.index()].has(sq) {
            set(P_OWN_PROMOTION, c, 1.0);
        }
        if v.promotion[them.index()].has(sq) {
            set(P_ENEMY_PROMOTION, c, 1.0);
        }
        if v.half[me.index()].has(sq) {
            set(P_OWN_HALF, c, 1.0);
        }
    }
    if let Some((from, to)) = pos.reversal() {
        set(P_REVERSAL_FROM, cell_index(v, me, from), 1.0);
        set(P_REVERSAL_TO, cell_index(v, me, to), 1.0);
    }
    let rep = (repetitions.saturating_sub(1) as f32 / 2.0).min(1.0);
    let clock = (pos.clock() as f32 / NO_CAPTURE_LIMIT).min(1.0);
    out[P_REPETITION * hw..(P_REPETITION + 1) * hw].fill(rep);
    out[P_CLOCK * hw..(P_CLOCK + 1) * hw].fill(clock);
}

/// Writes the [`MOVE_FEATURES`] numbers of a move made by `side` into `out`:
/// 0 crew move; 1–6 moving own crew per kind (P N B R Q K); 7–12 captured
/// enemy kind (one-hot); 13–18 captured own kind (one-hot); 19–22 promotion
/// choices (N B R Q); 23 file displacement / (width − 1); 24 rank
/// displacement forward / (height − 1), from the mover's side.
pub fn encode_move_features(variant: &Variant, side: Color, m: Move, out: &mut [f32]) {
    let f = m.features(side);
    out.fill(0.0);
    out[0] = f.is_crew as u8 as f32;
    for k in 0..6 {
        out[1 + k] = f.moving[k] as f32;
    }
    if let Some((kind, own)) = f.captured {
        out[7 + (own as usize) * 6 + kind.index()] = 1.0;
    }
    for k in 0..4 {
        out[19 + k] = f.promotions[k] as f32;
    }
    let df = f.to.file() as f32 - f.from.file() as f32;
    let mut dr = f.to.rank() as f32 - f.from.rank() as f32;
    if side == Color::Black {
        // `0.0 - x`, not `-x`: a sideways move must give +0.0 for both
        // sides, or the two colours' encodings differ in the sign bit.
        dr = 0.0 - dr;
    }
    out[23] = df / (variant.width as f32 - 1.0).max(1.0);
    out[24] = dr / (variant.height as f32 - 1.0).max(1.0);
}
