//! Reach tables of the 7×4 boards, built at compile time: king and knight
//! steps, the eight rays (for rooks, queens and the commander), pawn
//! attacks and the squares between two squares of a line (for the path of
//! an accompanying influence piece, RULES.md §6.3), and the Zobrist keys.

use crate::types::{FILES, RANKS, SQUARES};
use game::chess::splitmix_step as splitmix;

// File and rank steps of the eight directions. The first four increase
// the square index (N, E, NE, NW), the last four decrease it (S, W, SW,
// SE): the first blocker on a ray is its lowest or highest set bit.
use game::chess::RAY_DIRECTIONS as DIRS;

const fn on_board(f: i8, r: i8) -> bool {
    f >= 0 && f < FILES as i8 && r >= 0 && r < RANKS as i8
}

const fn bit(f: i8, r: i8) -> u32 {
    1 << (r as u32 * FILES as u32 + f as u32)
}

const fn steps(deltas: &[(i8, i8)]) -> [u32; SQUARES] {
    let mut t = [0u32; SQUARES];
    let mut s = 0;
    while s < SQUARES {
        let (f, r) = ((s % 4) as i8, (s / 4) as i8);
        let mut i = 0;
        while i < deltas.len() {
            let (nf, nr) = (f + deltas[i].0, r + deltas[i].1);
            if on_board(nf, nr) {
                t[s] |= bit(nf, nr);
            }
            i += 1;
        }
        s += 1;
    }
    t
}

/// King (and prince) steps.
pub const KING: [u32; SQUARES] = steps(&DIRS);

/// Knight leaps.
pub const KNIGHT: [u32; SQUARES] = steps(&game::chess::KNIGHT_LEAPS);

/// `PAWN_ATTACKS[army][s]`: the squares a pawn of `army` on `s` attacks
/// (diagonally forward: White up, Black down).
pub const PAWN_ATTACKS: [[u32; SQUARES]; 2] =
    [steps(&[(1, 1), (-1, 1)]), steps(&[(1, -1), (-1, -1)])];

/// `PAWN_PUSH[army][s]`: the square straight ahead (empty at the last rank).
pub const PAWN_PUSH: [[u32; SQUARES]; 2] = [steps(&[(0, 1)]), steps(&[(0, -1)])];

const fn rays() -> [[u32; SQUARES]; 8] {
    let mut t = [[0u32; SQUARES]; 8];
    let mut d = 0;
    while d < 8 {
        let mut s = 0;
        while s < SQUARES {
            let (mut f, mut r) = ((s % 4) as i8, (s / 4) as i8);
            loop {
                f += DIRS[d].0;
                r += DIRS[d].1;
                if !on_board(f, r) {
                    break;
                }
                t[d][s] |= bit(f, r);
            }
            s += 1;
        }
        d += 1;
    }
    t
}

/// `RAYS[dir][s]`: every square from `s` towards `dir` to the edge.
pub const RAYS: [[u32; SQUARES]; 8] = rays();

/// The squares a slider on `s` reaches along `dir` on a board occupied by
/// `occ`: up to and including the first occupied square.
#[inline]
const fn ray_attacks(dir: usize, s: usize, occ: u32) -> u32 {
    let ray = RAYS[dir][s];
    let blockers = ray & occ;
    if blockers == 0 {
        return ray;
    }
    let first = if dir < 4 {
        blockers.trailing_zeros()
    } else {
        31 - blockers.leading_zeros()
    };
    ray ^ RAYS[dir][first as usize]
}

/// Rook reach (files and ranks).
#[inline]
pub const fn rook_attacks(s: usize, occ: u32) -> u32 {
    ray_attacks(0, s, occ)
        | ray_attacks(1, s, occ)
        | ray_attacks(4, s, occ)
        | ray_attacks(5, s, occ)
}

/// Diagonal reach (the queen's bishop half; the armies have no bishop).
#[inline]
pub const fn diagonal_attacks(s: usize, occ: u32) -> u32 {
    ray_attacks(2, s, occ)
        | ray_attacks(3, s, occ)
        | ray_attacks(6, s, occ)
        | ray_attacks(7, s, occ)
}

const fn between() -> [[u32; SQUARES]; SQUARES] {
    let mut t = [[0u32; SQUARES]; SQUARES];
    let mut d = 0;
    while d < 8 {
        let mut s = 0;
        while s < SQUARES {
            let (mut f, mut r) = ((s % 4) as i8, (s / 4) as i8);
            let mut passed = 0u32;
            loop {
                f += DIRS[d].0;
                r += DIRS[d].1;
                if !on_board(f, r) {
                    break;
                }
                let to = (r as usize) * 4 + f as usize;
                t[s][to] = passed;
                passed |= bit(f, r);
            }
            s += 1;
        }
        d += 1;
    }
    t
}

/// `BETWEEN[a][b]`: the squares strictly between `a` and `b` when they
/// share a rank, file or diagonal; empty otherwise (knight leaps, steps).
pub const BETWEEN: [[u32; SQUARES]; SQUARES] = between();

/// Commander targets one or two squares away along a line: `[s]` is the
/// one-square ring (= [`KING`]), `COMMANDER_TWO[s]` the two-square ring
/// (squares exactly two steps away along a line, i.e. the lame dabbaba and
/// alfil squares).
pub const COMMANDER_TWO: [u32; SQUARES] = steps(&[
    (0, 2),
    (2, 0),
    (2, 2),
    (-2, 2),
    (0, -2),
    (-2, 0),
    (-2, -2),
    (2, -2),
]);

/// Zobrist keys, fixed by a seeded generator at compile time so that hashes
/// are the same in every build (they appear in data files).
pub struct Keys {
    /// `[army][kind][square]` of the middle board.
    pub piece: [[[u64; SQUARES]; 5]; 2],
    /// `[player][0 prince, 1 commander][square]` of the influence boards.
    pub influence: [[[u64; SQUARES]; 2]; 2],
    /// Below to move.
    pub below_to_move: u64,
    /// Above helps Black.
    pub above_helps_black: u64,
}

const fn keys() -> Keys {
    let mut k = Keys {
        piece: [[[0; SQUARES]; 5]; 2],
        influence: [[[0; SQUARES]; 2]; 2],
        below_to_move: 0,
        above_helps_black: 0,
    };
    let mut state = 0x1F1u64 << 40 | 0x2002;
    let mut a = 0;
    while a < 2 {
        let mut kind = 0;
        while kind < 5 {
            let mut s = 0;
            while s < SQUARES {
                let (st, v) = splitmix(state);
                state = st;
                k.piece[a][kind][s] = v;
                s += 1;
            }
            kind += 1;
        }
        let mut kind = 0;
        while kind < 2 {
            let mut s = 0;
            while s < SQUARES {
                let (st, v) = splitmix(state);
                state = st;
                k.influence[a][kind][s] = v;
                s += 1;
            }
            kind += 1;
        }
        a += 1;
    }
    let (st, v) = splitmix(state);
    k.below_to_move = v;
    let (_, v) = splitmix(st);
    k.above_helps_black = v;
    k
}

pub static KEYS: Keys = keys();

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reach_tables_on_the_narrow_board() {
        // a1: king b1 a2 b2; knight b3 c2.
        assert_eq!(KING[0].count_ones(), 3);
        assert_eq!(KNIGHT[0], 1 << 9 | 1 << 6);
        // A rook on an empty board reaches 3 + 6 squares.
        assert_eq!(rook_attacks(0, 0).count_ones(), 9);
        // b2 (5): a rook stopped by c2 and b4 reaches a2 b1 c2 b3 b4.
        let occ = 1 << 6 | 1 << 13;
        assert_eq!(
            rook_attacks(5, occ),
            1 << 4 | 1 << 1 | 1 << 6 | 1 << 9 | 1 << 13
        );
        // d3 (11) to d7 (27): d4 d5 d6 between.
        assert_eq!(BETWEEN[11][27], 1 << 15 | 1 << 19 | 1 << 23);
        assert_eq!(BETWEEN[11][27], BETWEEN[27][11]);
        assert_eq!(BETWEEN[0][9], 0); // a knight leap
        assert_eq!(PAWN_PUSH[0][24], 0);
    }

    #[test]
    fn keys_are_distinct() {
        let mut all: Vec<u64> = KEYS.piece.iter().flatten().flatten().copied().collect();
        all.extend(KEYS.influence.iter().flatten().flatten());
        all.push(KEYS.below_to_move);
        all.push(KEYS.above_helps_black);
        let n = all.len();
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), n);
    }
}
