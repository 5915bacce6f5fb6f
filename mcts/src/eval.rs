//! What the search asks of a network: priors over a position's legal moves
//! and win/draw/loss for the side to move, for a whole batch at once.
//!
//! The search only sees the [`Evaluator`] trait, so it is tested without
//! torch ([`UniformEvaluator`]) and runs on the real network through
//! [`NetworkEvaluator`]. [`EvalCache`] remembers recent evaluations.

use game::GameState;
use model::{Encoder, Network};

/// One position to evaluate: the position, how often it has occurred in its
/// game (the encoding has a repetition plane) and its legal moves, in the
/// order the priors must come back.
#[derive(Clone, Copy)]
pub struct Request<'a, S: GameState> {
    pub position: &'a S,
    pub repetitions: u8,
    pub moves: &'a [S::Move],
}

/// Evaluates batches of positions.
pub trait Evaluator<S: GameState> {
    /// Clears and fills `policy` with the priors of every request's moves,
    /// back to back (request i's after those of requests 0..i), and `wdl`
    /// with one `[win, draw, loss]` per request, for its side to move.
    fn evaluate(
        &mut self,
        batch: &[Request<'_, S>],
        policy: &mut Vec<f32>,
        wdl: &mut Vec<[f32; 3]>,
    );

    /// Whether this evaluator reads the network encoding of a request. When
    /// it does, self-play has each game's tree worker encode its own leaf
    /// and the tree thread assemble the next batch (while the network runs
    /// the other half of the games), and calls
    /// [`evaluate_prepared`](Evaluator::evaluate_prepared).
    fn wants_encoding(&self) -> bool {
        false
    }

    /// [`evaluate`](Evaluator::evaluate) with the batch already encoded:
    /// `encoded` holds the requests' positions, repetitions and moves, in
    /// order, finished. The answers must be those `evaluate` gives.
    fn evaluate_prepared(
        &mut self,
        batch: &[Request<'_, S>],
        encoded: &Encoder<S>,
        policy: &mut Vec<f32>,
        wdl: &mut Vec<[f32; 3]>,
    ) {
        let _ = encoded;
        self.evaluate(batch, policy, wdl);
    }
}

/// A second opinion on a leaf's value that the search mixes into the
/// network's (`[selfplay] leaf_eval_weight`): the win probability of the
/// position for its side to move, from something that knows the game
/// without learning (for the chess-like games, the `ab:` engine's
/// quiescence search over its material evaluation).
///
/// AlphaGo mixed its value network with rollouts the same way (`λ = 0.5`).
/// The network starts knowing nothing; a cheap tactical judgement makes the
/// first generations' games about material instead of noise. It is a
/// method, not a game rule: the search calls it once per expanded leaf
/// (never for terminal leaves, whose value is exact).
pub trait LeafHint<S>: Send {
    /// The win probability of `position` for its side to move, in [0, 1].
    fn win_probability(&mut self, position: &S) -> f32;
}

/// Equal priors and an even value ([1/3, 1/3, 1/3]): the search then is
/// driven by terminal positions alone. For tests.
#[derive(Default, Clone, Copy)]
pub struct UniformEvaluator;

impl<S: GameState> Evaluator<S> for UniformEvaluator {
    fn evaluate(
        &mut self,
        batch: &[Request<'_, S>],
        policy: &mut Vec<f32>,
        wdl: &mut Vec<[f32; 3]>,
    ) {
        policy.clear();
        wdl.clear();
        for r in batch {
            let p = 1.0 / r.moves.len().max(1) as f32;
            policy.extend(std::iter::repeat_n(p, r.moves.len()));
            wdl.push([1.0 / 3.0; 3]);
        }
    }
}

/// The network behind the trait, with a reusable [`Encoder`] so a batch
/// allocates nothing once the buffers have grown.
pub struct NetworkEvaluator<S: GameState> {
    pub net: Network,
    encoder: Encoder<S>,
    /// [`evaluate`](Evaluator::evaluate) scores the batch's moves packed
    /// ([`Network::evaluate_packed`]) instead of padded.
    packed: bool,
}

impl<S: GameState> NetworkEvaluator<S> {
    pub fn new(net: Network) -> NetworkEvaluator<S> {
        NetworkEvaluator {
            net,
            encoder: Encoder::new(),
            packed: false,
        }
    }

    /// An evaluator whose [`evaluate`](Evaluator::evaluate) scores a
    /// batch's moves packed when padding it to its widest position would
    /// score 1.2 times its moves or more: for batches whose move counts
    /// differ much (matches in lockstep), where padding costs more than
    /// batching gains. Prepared batches (self-play's) stay padded.
    pub fn packed(net: Network) -> NetworkEvaluator<S> {
        NetworkEvaluator {
            packed: true,
            ..NetworkEvaluator::new(net)
        }
    }
}

impl<S: GameState> Evaluator<S> for NetworkEvaluator<S> {
    fn evaluate(
        &mut self,
        batch: &[Request<'_, S>],
        policy: &mut Vec<f32>,
        wdl: &mut Vec<[f32; 3]>,
    ) {
        self.encoder.clear();
        for r in batch {
            self.encoder
                .push_with_moves(r.position, r.repetitions, r.moves);
        }
        // Packed only where padding would add a fifth or more to the
        // moves scored: with like move counts (Connect Four) the padded
        // pass is as fast, and its answers stay those of earlier runs.
        let moves = self.encoder.offsets().last().copied().unwrap_or(0);
        let padded = batch.len() * batch.iter().map(|r| r.moves.len()).max().unwrap_or(0);
        if self.packed && padded * 5 > moves * 6 {
            self.encoder.finish_packed();
            self.net.evaluate_packed(&self.encoder, policy, wdl);
        } else {
            self.encoder.finish();
            self.net.evaluate_encoded(&self.encoder, policy, wdl);
        }
    }

    fn wants_encoding(&self) -> bool {
        true
    }

    fn evaluate_prepared(
        &mut self,
        batch: &[Request<'_, S>],
        encoded: &Encoder<S>,
        policy: &mut Vec<f32>,
        wdl: &mut Vec<[f32; 3]>,
    ) {
        debug_assert_eq!(batch.len(), encoded.len());
        self.net.evaluate_encoded(encoded, policy, wdl);
    }
}

/// The cache key of a position: its Zobrist hash mixed with its repetition
/// count (the network sees that count, so the two are different inputs).
#[inline]
pub fn cache_key<S: GameState>(position: &S, repetitions: u8) -> u64 {
    position.hash() ^ (repetitions as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

struct Entry {
    key: u64,
    wdl: [f32; 3],
    policy: Vec<f32>,
}

/// A direct-mapped table of recent evaluations: slot `key % size`, newest
/// wins. Bounded by construction; each slot's policy vector keeps its
/// capacity, so after warm-up inserting allocates nothing. A hit also checks
/// the move count (a hash collision between positions with different move
/// lists is then caught; one with the same count is as rare as 2^-64).
pub struct EvalCache {
    entries: Vec<Entry>,
}

const EMPTY: u64 = 0;

impl EvalCache {
    /// A cache of `size` entries (0: a cache that never hits).
    pub fn new(size: usize) -> EvalCache {
        EvalCache {
            entries: (0..size)
                .map(|_| Entry {
                    key: EMPTY,
                    wdl: [0.0; 3],
                    policy: Vec::new(),
                })
                .collect(),
        }
    }

    /// The stored priors and W/D/L of `key` for a position with `moves` moves.
    #[inline]
    pub fn get(&self, key: u64, moves: usize) -> Option<(&[f32], [f32; 3])> {
        if self.entries.is_empty() || key == EMPTY {
            return None;
        }
        let e = &self.entries[(key % self.entries.len() as u64) as usize];
        (e.key == key && e.policy.len() == moves).then_some((e.policy.as_slice(), e.wdl))
    }

    pub fn insert(&mut self, key: u64, policy: &[f32], wdl: [f32; 3]) {
        if self.entries.is_empty() || key == EMPTY {
            return;
        }
        let n = self.entries.len() as u64;
        let e = &mut self.entries[(key % n) as usize];
        e.key = key;
        e.wdl = wdl;
        e.policy.clear();
        e.policy.extend_from_slice(policy);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cache_round_trip_and_bounds() {
        let mut c = EvalCache::new(4);
        c.insert(5, &[0.25, 0.75], [0.1, 0.2, 0.7]);
        assert_eq!(c.get(5, 2).map(|x| x.0.to_vec()), Some(vec![0.25, 0.75]));
        assert!(c.get(5, 3).is_none(), "move count is checked");
        c.insert(9, &[1.0], [1.0, 0.0, 0.0]); // 9 % 4 == 5 % 4: replaces
        assert!(c.get(5, 2).is_none());
        assert!(c.get(9, 1).is_some());
        assert!(EvalCache::new(0).get(9, 1).is_none());
    }
}
