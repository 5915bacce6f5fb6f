//! Perft for any game: the leaf count of the legal-move tree, the standard
//! check of a move generator.

use crate::GameState;

/// Leaf count of the legal-move tree of `depth` plies. The last ply is
/// counted without being played ("bulk counting"). Buffers are reused per
/// ply, so the walk allocates only at the start.
pub fn perft<S: GameState>(pos: &S, depth: u32) -> u64 {
    let mut bufs: Vec<Vec<S::Move>> = (0..depth.max(1)).map(|_| Vec::with_capacity(256)).collect();
    perft_with(pos, depth, &mut bufs)
}

fn perft_with<S: GameState>(pos: &S, depth: u32, bufs: &mut [Vec<S::Move>]) -> u64 {
    match depth {
        0 => return 1,
        1 => return pos.count_legal_moves(),
        _ => {}
    }
    let (buf, rest) = bufs.split_first_mut().expect("one buffer per ply");
    pos.legal_moves(buf);
    let mut n = 0;
    for &m in buf.iter() {
        n += perft_with(&pos.play(m), depth - 1, rest);
    }
    n
}
