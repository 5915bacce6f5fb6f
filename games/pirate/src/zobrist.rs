//! Zobrist keys (built at compile time) for the position hash: everything in
//! the first five fields of the position string (§8.3's "position": board
//! with anchors, side to move, reserves, upgrade counts; the deployment
//! counts follow from the reserves), and nothing of the two counters.

use game::chess::{splitmix_step, splitmix_table as table};

/// `SHIP[sq * 32 + ship.key_index()]`.
pub static SHIP: [u64; 256 * 32] = table(0x5049_5241_5445_0001);
/// `RESERVE[side * 8 + type]`: the type is in that side's reserve.
pub static RESERVE: [u64; 16] = table(0x5049_5241_5445_0002);
/// `UPGRADES[(side * 2 + kind) * 3 + count]` (count 0 has key 0 in effect:
/// it is never xored in).
pub static UPGRADES: [u64; 12] = table(0x5049_5241_5445_0003);
/// Red to move.
pub const RED_TO_MOVE: u64 = splitmix_step(0x5049_5241_5445_0004).1;

#[inline]
pub fn ship(sq: u8, key_index: usize) -> u64 {
    SHIP[sq as usize * 32 + key_index]
}

#[inline]
pub fn upgrades(side: usize, kind: usize, count: u8) -> u64 {
    if count == 0 {
        0
    } else {
        UPGRADES[(side * 2 + kind) * 3 + count as usize]
    }
}
