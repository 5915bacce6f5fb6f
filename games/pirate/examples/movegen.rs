//! Move generation, counting, playing and per-move features, timed over the
//! positions of seeded random games (the hot paths of self-play):
//! `cargo run --release -p pirate --example movegen`.

use game::{GameState, SplitMix};
use pirate::{Move, Position, Size, MOVE_FEATURES};
use std::time::Instant;

fn main() {
    // Positions of 40 random games, every ply up to 120.
    let mut rng = SplitMix::new(5);
    let mut positions = Vec::new();
    let mut moves = Vec::new();
    for _ in 0..40 {
        let mut p = Position::start(Size::DEFAULT);
        for _ in 0..120 {
            p.legal_moves(&mut moves);
            if moves.is_empty() || p.terminal(true, 1).is_some() {
                break;
            }
            positions.push(p.clone());
            let attacks: Vec<Move> = moves.iter().copied().filter(|m| m.is_attack()).collect();
            let m = if !attacks.is_empty() && rng.below(2) == 0 {
                attacks[rng.below(attacks.len() as u64) as usize]
            } else {
                moves[rng.below(moves.len() as u64) as usize]
            };
            p.apply(m);
        }
    }
    let rounds = 20;
    let t = Instant::now();
    let mut total = 0u64;
    for _ in 0..rounds {
        for p in &positions {
            p.legal_moves(&mut moves);
            total += moves.len() as u64;
        }
    }
    let s = t.elapsed().as_secs_f64();
    let calls = (rounds * positions.len()) as f64;
    println!(
        "{} positions, {:.0} turns each on average",
        positions.len(),
        total as f64 / calls
    );
    println!(
        "legal_moves: {:.2} M calls/s, {:.0} M turns/s ({:.2} us a call)",
        calls / s / 1e6,
        total as f64 / s / 1e6,
        s / calls * 1e6
    );
    let t = Instant::now();
    let mut counted = 0u64;
    for _ in 0..rounds {
        for p in &positions {
            counted += p.count_legal();
        }
    }
    let s = t.elapsed().as_secs_f64();
    assert_eq!(counted, total);
    println!("count_legal: {:.2} M calls/s", calls / s / 1e6);
    let mut features = [0.0f32; MOVE_FEATURES];
    let t = Instant::now();
    let mut n = 0u64;
    let mut sink = 0usize;
    for p in &positions {
        p.legal_moves(&mut moves);
        for &m in &moves {
            let (a, b) = p.encode_move(m, &mut features);
            sink = sink.wrapping_add(a + b);
            n += 1;
        }
    }
    let s = t.elapsed().as_secs_f64();
    println!("encode_move: {:.1} M turns/s ({sink})", n as f64 / s / 1e6);
    let t = Instant::now();
    let mut h = 0u64;
    for p in &positions {
        p.legal_moves(&mut moves);
        for &m in &moves {
            h ^= p.play(m).hash();
        }
    }
    let s = t.elapsed().as_secs_f64();
    println!("play: {:.1} M turns/s ({h:x})", n as f64 / s / 1e6);
}
