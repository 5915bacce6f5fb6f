//! Perft: counting the leaves of the legal-move tree, the standard check of a
//! move generator (vectors in `shared/spec/vectors/perft.txt`).

use crate::movegen::MoveList;
use crate::moves::Move;
use crate::position::Position;

/// Leaf count of the legal-move tree of `depth` plies. The last ply is
/// counted without being played ("bulk counting").
pub fn perft(pos: &Position, depth: u32) -> u64 {
    let mut bufs: Vec<MoveList> = (0..depth.max(1)).map(|_| Vec::with_capacity(256)).collect();
    perft_with(pos, depth, &mut bufs)
}

fn perft_with(pos: &Position, depth: u32, bufs: &mut [MoveList]) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_legal(),
        _ => {
            let (buf, rest) = bufs.split_first_mut().expect("one buffer per ply");
            pos.legal_moves(buf);
            let mut n = 0;
            for &m in buf.iter() {
                n += perft_with(&pos.play(m), depth - 1, rest);
            }
            n
        }
    }
}

/// Leaf counts below each root move (`perft --divide`).
pub fn divide(pos: &Position, depth: u32) -> Vec<(Move, u64)> {
    let mut out = Vec::new();
    for m in pos.legal_move_vec() {
        let n = if depth <= 1 {
            1
        } else {
            perft(&pos.play(m), depth - 1)
        };
        out.push((m, n));
    }
    out
}

/// Perft split across `threads` threads at the root.
pub fn perft_parallel(pos: &Position, depth: u32, threads: usize) -> u64 {
    if depth <= 1 || threads <= 1 {
        return perft(pos, depth);
    }
    let moves = pos.legal_move_vec();
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
