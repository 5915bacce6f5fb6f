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

/// Leaf counts below each root move (`perft --divide`).
pub fn divide<S: GameState>(pos: &S, depth: u32) -> Vec<(S::Move, u64)> {
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    moves
        .into_iter()
        .map(|m| {
            let n = if depth <= 1 {
                1
            } else {
                perft(&pos.play(m), depth - 1)
            };
            (m, n)
        })
        .collect()
}

/// Perft split across `threads` threads at the root (the root moves are
/// handed out one at a time, so threads stay busy when subtrees differ).
pub fn perft_parallel<S: GameState>(pos: &S, depth: u32, threads: usize) -> u64 {
    if depth <= 1 || threads <= 1 {
        return perft(pos, depth);
    }
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    let next = std::sync::atomic::AtomicUsize::new(0);
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut total = 0;
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some(&m) = moves.get(i) else { break };
                        total += perft(&pos.play(m), depth - 1);
                    }
                    total
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("perft thread"))
            .sum()
    })
}
