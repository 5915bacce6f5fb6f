//! Positions from real play, for benchmarks and tests: random legal playouts
//! from the start.

use game::{Move, Position};

/// A small deterministic generator (SplitMix64): enough to pick moves, and
/// keeps the crate free of an RNG dependency.
pub struct SplitMix(pub u64);

impl SplitMix {
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// Uniform in `0..n` (n > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (((self.next_u64() >> 32) * n as u64) >> 32) as usize
    }
}

/// `n` positions visited by uniformly random legal playouts from the start
/// (a playout restarts after `max_plies` plies or when no move is legal),
/// each with its legal moves non-empty. Deterministic in `seed`.
pub fn random_positions(n: usize, seed: u64, max_plies: usize) -> Vec<Position> {
    let mut rng = SplitMix(seed);
    let mut out = Vec::with_capacity(n);
    let mut moves: Vec<Move> = Vec::new();
    let mut pos = Position::start();
    let mut ply = 0;
    while out.len() < n {
        pos.legal_moves(&mut moves);
        if moves.is_empty() || ply >= max_plies {
            pos = Position::start();
            ply = 0;
            continue;
        }
        out.push(pos.clone());
        let m = moves[rng.below(moves.len())];
        pos = pos.play(m);
        ply += 1;
    }
    out
}
