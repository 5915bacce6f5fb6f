//! Positions from real play, for benchmarks and tests: random legal
//! playouts from a start, for any game.

use crate::{GameState, SplitMix};

/// `n` positions visited by uniformly random legal playouts from `start`
/// (a playout restarts after `max_plies` plies or when no move is legal),
/// each with its legal moves non-empty. Deterministic in `seed`.
pub fn random_positions<S: GameState>(start: &S, n: usize, seed: u64, max_plies: usize) -> Vec<S> {
    let mut rng = SplitMix::new(seed);
    let mut out = Vec::with_capacity(n);
    let mut moves: Vec<S::Move> = Vec::new();
    let mut pos = start.clone();
    let mut ply = 0;
    while out.len() < n {
        pos.legal_moves(&mut moves);
        if moves.is_empty() || ply >= max_plies {
            if ply == 0 {
                // The start itself has no move: nothing to sample.
                break;
            }
            pos = start.clone();
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
