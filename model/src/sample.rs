//! Positions from real play, for benchmarks and tests: random legal playouts
//! from the start.

use piratechnics::{Move, Position, SplitMix};

/// `n` positions visited by uniformly random legal playouts from the start
/// (a playout restarts after `max_plies` plies or when no move is legal),
/// each with its legal moves non-empty. Deterministic in `seed`.
pub fn random_positions(n: usize, seed: u64, max_plies: usize) -> Vec<Position> {
    let mut rng = SplitMix::new(seed);
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
        let m = moves[rng.below(moves.len() as u64) as usize];
        pos = pos.play(m);
        ply += 1;
    }
    out
}
