//! Zobrist keys (built at compile time) for the position hash: everything in
//! the first five fields of the position string (§8.3's "position": board
//! with anchors, side to move, reserves, upgrade counts; the deployment
//! counts follow from the reserves), and nothing of the two counters.

/// SplitMix64, usable in a `const` context.
const fn splitmix(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (s, z ^ (z >> 31))
}

const fn table<const N: usize>(seed: u64) -> [u64; N] {
    let mut out = [0u64; N];
    let mut state = seed;
    let mut i = 0;
    while i < N {
        let (s, v) = splitmix(state);
        state = s;
        out[i] = v;
        i += 1;
    }
    out
}

/// `SHIP[sq * 32 + ship.key_index()]`.
pub static SHIP: [u64; 256 * 32] = table(0x5049_5241_5445_0001);
/// `RESERVE[side * 8 + type]`: the type is in that side's reserve.
pub static RESERVE: [u64; 16] = table(0x5049_5241_5445_0002);
/// `UPGRADES[(side * 2 + kind) * 3 + count]` (count 0 has key 0 in effect:
/// it is never xored in).
pub static UPGRADES: [u64; 12] = table(0x5049_5241_5445_0003);
/// Red to move.
pub const RED_TO_MOVE: u64 = splitmix(0x5049_5241_5445_0004).1;

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
