//! Zobrist keys. Fixed by a seeded generator so hashes are stable across
//! runs and machines (they key the transposition table, the evaluation cache
//! and repetition detection, and appear in data files).

use crate::crew::Crew;
use crate::types::Square;
use std::sync::OnceLock;

pub(crate) struct Keys {
    /// `[square][piece][count]`, count 0 unused.
    pub crew: Box<[[[u64; 8]; 12]; 64]>,
    pub ship: [u64; 64],
    pub black_to_move: u64,
    pub reversal_from: [u64; 64],
    pub reversal_to: [u64; 64],
}

/// The next key of the SplitMix64 sequence at `state`.
fn splitmix(state: &mut u64) -> u64 {
    let (next, v) = game::chess::splitmix_step(*state);
    *state = next;
    v
}

pub(crate) fn keys() -> &'static Keys {
    static KEYS: OnceLock<Keys> = OnceLock::new();
    KEYS.get_or_init(|| {
        let mut s = 0x0071_21AD_u64;
        let mut crew = Box::new([[[0u64; 8]; 12]; 64]);
        for sq in crew.iter_mut() {
            for piece in sq.iter_mut() {
                for k in piece.iter_mut() {
                    *k = splitmix(&mut s);
                }
            }
        }
        let mut arr = || {
            let mut a = [0u64; 64];
            for x in a.iter_mut() {
                *x = splitmix(&mut s);
            }
            a
        };
        let ship = arr();
        let reversal_from = arr();
        let reversal_to = arr();
        Keys {
            crew,
            ship,
            black_to_move: splitmix(&mut s),
            reversal_from,
            reversal_to,
        }
    })
}

impl Keys {
    /// The key of one cell: zero without a ship, else the ship key and one key
    /// per (piece, count) aboard.
    #[inline]
    pub fn cell(&self, sq: Square, has_ship: bool, crew: Crew) -> u64 {
        if !has_ship {
            return 0;
        }
        let mut h = self.ship[sq.index()];
        let table = &self.crew[sq.index()];
        let mut x = crew.0;
        while x != 0 {
            let i = (x.trailing_zeros() / 4) as usize;
            let n = ((x >> (4 * i)) & 0xF) as usize;
            h ^= table[i][n & 7];
            x &= !(0xF << (4 * i));
        }
        h
    }

    #[inline]
    pub fn reversal(&self, r: Option<(Square, Square)>) -> u64 {
        match r {
            None => 0,
            Some((a, b)) => self.reversal_from[a.index()] ^ self.reversal_to[b.index()],
        }
    }
}
