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

    /// [`evaluate_prepared`](Evaluator::evaluate_prepared) (with
    /// `encoded`) or [`evaluate`](Evaluator::evaluate) (without) for a
    /// caller that can stop: an evaluator that may fail (a model outside
    /// Rust, such as a Python callable that raises or answers nonsense)
    /// returns [`Declined`] instead of answering, and keeps its own error
    /// for whoever built it. The caller then uses nothing of the call and
    /// may ask again. Rust's evaluators never decline (the default).
    fn try_evaluate(
        &mut self,
        batch: &[Request<'_, S>],
        encoded: Option<&Encoder<S>>,
        policy: &mut Vec<f32>,
        wdl: &mut Vec<[f32; 3]>,
    ) -> Result<(), Declined> {
        match encoded {
            Some(e) => self.evaluate_prepared(batch, e, policy, wdl),
            None => self.evaluate(batch, policy, wdl),
        }
        Ok(())
    }
}

/// An evaluator that could not answer a batch ([`Evaluator::try_evaluate`]):
/// its own error, kept by the evaluator, says why; the search used nothing
/// of the call.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("the evaluator could not answer the batch")]
pub struct Declined;

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

/// An evaluator behind a box answers as the evaluator does (so a
/// [`Symmetrized`] can wrap a player's boxed evaluator).
impl<S: GameState, E: Evaluator<S> + ?Sized> Evaluator<S> for Box<E> {
    fn evaluate(
        &mut self,
        batch: &[Request<'_, S>],
        policy: &mut Vec<f32>,
        wdl: &mut Vec<[f32; 3]>,
    ) {
        (**self).evaluate(batch, policy, wdl);
    }

    fn wants_encoding(&self) -> bool {
        (**self).wants_encoding()
    }

    fn evaluate_prepared(
        &mut self,
        batch: &[Request<'_, S>],
        encoded: &Encoder<S>,
        policy: &mut Vec<f32>,
        wdl: &mut Vec<[f32; 3]>,
    ) {
        (**self).evaluate_prepared(batch, encoded, policy, wdl);
    }

    fn try_evaluate(
        &mut self,
        batch: &[Request<'_, S>],
        encoded: Option<&Encoder<S>>,
        policy: &mut Vec<f32>,
        wdl: &mut Vec<[f32; 3]>,
    ) -> Result<(), Declined> {
        (**self).try_evaluate(batch, encoded, policy, wdl)
    }
}

/// How a [`Symmetrized`] evaluator uses the game's symmetries.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SymmetryUse {
    /// Every request under all of the game's `k` symmetries in one batch,
    /// the answers averaged (`net:…,symmetry=average`: `k` times the
    /// network's work). `Average(1)` is the inner evaluator.
    Average(usize),
    /// Every request under one of the game's `count` symmetries, drawn
    /// from its position's hash mixed with `salt` (`net:…,symmetry=random`:
    /// the network's work unchanged). AlphaGo Zero drew a symmetry at
    /// random for each evaluation; drawn from the hash, the answer stays a
    /// function of the position (an evaluation cache stays right, a run is
    /// reproducible), and a position and its mirror image get independent
    /// draws.
    Random { count: usize, salt: u64 },
}

impl SymmetryUse {
    /// The symmetry a request for `position` is evaluated under (0: as it
    /// is).
    #[inline]
    pub fn draw<S: GameState>(&self, position: &S) -> usize {
        match *self {
            SymmetryUse::Average(_) => 0,
            SymmetryUse::Random { count, salt } => {
                (mix64(position.hash() ^ salt) % count.max(1) as u64) as usize
            }
        }
    }
}

/// SplitMix64's finaliser: every bit of `x` moves every bit of the result,
/// so a draw modulo a small count is near uniform even where Zobrist hashes
/// share low bits.
#[inline]
fn mix64(mut x: u64) -> u64 {
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

/// The network under the game's symmetries ([`SymmetryUse`]; docs/methods.md,
/// "Averaging the network over the mirror" and "One drawn symmetry an
/// evaluation").
///
/// Averaged (`net:…,symmetry=average`), each request goes to the inner
/// evaluator as it is and under every other symmetry
/// (`GameState::transform`, its moves by `transform_move`, in the same
/// order), in one batch of `symmetries` times the requests; a request's
/// priors are the mean of its copies' priors move by move, its W/D/L the
/// mean of theirs. KataGo averages several symmetries in analysis. The
/// answer is the same for a position and its mirror image (up to rounding),
/// at `symmetries` times the network's work. With one symmetry it is the
/// inner evaluator.
///
/// Drawn (`net:…,symmetry=random`), each request goes to the inner
/// evaluator under the one symmetry [`SymmetryUse::draw`] picks for it, in
/// a batch of the requests' size: the priors come back in the request's
/// move order (its moves mapped by the same symmetry), the W/D/L as they
/// are.
///
/// The buffers keep their capacity; a batch allocates only its list of
/// requests, once.
pub struct Symmetrized<S: GameState, E> {
    inner: E,
    mode: SymmetryUse,
    positions: Vec<S>,
    moves: Vec<S::Move>,
    policy: Vec<f32>,
    wdl: Vec<[f32; 3]>,
}

impl<S: GameState, E: Evaluator<S>> Symmetrized<S, E> {
    /// `inner` averaged over `symmetries` symmetries (the game's
    /// `Game::symmetries()`; at least 1).
    pub fn new(inner: E, symmetries: usize) -> Symmetrized<S, E> {
        Symmetrized::with(inner, SymmetryUse::Average(symmetries.max(1)))
    }

    /// `inner` under the symmetries as `mode` says.
    pub fn with(inner: E, mode: SymmetryUse) -> Symmetrized<S, E> {
        let mode = match mode {
            SymmetryUse::Average(k) => SymmetryUse::Average(k.max(1)),
            SymmetryUse::Random { count, salt } => SymmetryUse::Random {
                count: count.max(1),
                salt,
            },
        };
        Symmetrized {
            inner,
            mode,
            positions: Vec::new(),
            moves: Vec::new(),
            policy: Vec::new(),
            wdl: Vec::new(),
        }
    }

    /// Each request under its drawn symmetry, answered straight into
    /// `policy` and `wdl`.
    fn evaluate_drawn(
        &mut self,
        batch: &[Request<'_, S>],
        policy: &mut Vec<f32>,
        wdl: &mut Vec<[f32; 3]>,
    ) -> Result<(), Declined> {
        let mode = self.mode;
        self.positions.clear();
        self.moves.clear();
        for r in batch {
            let sym = mode.draw(r.position);
            if sym != 0 {
                push_image(&mut self.positions, &mut self.moves, r, sym);
            }
        }
        let mut all: Vec<Request<'_, S>> = Vec::with_capacity(batch.len());
        let mut cursor = (0, 0);
        // The same draws again (a hash and a mix each), in the same order.
        for r in batch {
            all.push(match mode.draw(r.position) {
                0 => r.clone(),
                _ => next_image(&self.positions, &self.moves, &mut cursor, r),
            });
        }
        self.inner.try_evaluate(&all, None, policy, wdl)
    }
}

/// Appends `r`'s position under symmetry `sym` to `positions`, and its
/// moves, mapped in order, to `moves`.
fn push_image<S: GameState>(
    positions: &mut Vec<S>,
    moves: &mut Vec<S::Move>,
    r: &Request<'_, S>,
    sym: usize,
) {
    positions.push(r.position.transform(sym));
    moves.extend(r.moves.iter().map(|&m| r.position.transform_move(m, sym)));
}

/// The next image [`push_image`] stored, as a request shaped like `r`;
/// `cursor` (position, move) moves past it.
fn next_image<'b, S: GameState>(
    positions: &'b [S],
    moves: &'b [S::Move],
    cursor: &mut (usize, usize),
    r: &Request<'_, S>,
) -> Request<'b, S> {
    let (p, m) = *cursor;
    let n = r.moves.len();
    *cursor = (p + 1, m + n);
    Request {
        position: &positions[p],
        repetitions: r.repetitions,
        moves: &moves[m..m + n],
    }
}

impl<S: GameState, E: Evaluator<S>> Evaluator<S> for Symmetrized<S, E> {
    fn evaluate(
        &mut self,
        batch: &[Request<'_, S>],
        policy: &mut Vec<f32>,
        wdl: &mut Vec<[f32; 3]>,
    ) {
        // Only an inner evaluator that declines makes this fail, and that
        // one fills the answers all the same (`try_evaluate` says so).
        let _ = self.try_evaluate(batch, None, policy, wdl);
    }

    /// The symmetries' batch through the inner evaluator's `try_evaluate`:
    /// it declines when that one does.
    fn try_evaluate(
        &mut self,
        batch: &[Request<'_, S>],
        _encoded: Option<&Encoder<S>>,
        policy: &mut Vec<f32>,
        wdl: &mut Vec<[f32; 3]>,
    ) -> Result<(), Declined> {
        let k = match self.mode {
            SymmetryUse::Average(k) => k,
            SymmetryUse::Random { .. } => return self.evaluate_drawn(batch, policy, wdl),
        };
        if k == 1 {
            return self.inner.try_evaluate(batch, None, policy, wdl);
        }
        // Every request under symmetries 1..k: positions, then moves back
        // to back in request order, for each symmetry in turn.
        self.positions.clear();
        self.moves.clear();
        for sym in 1..k {
            for r in batch {
                push_image(&mut self.positions, &mut self.moves, r, sym);
            }
        }
        // The batch: the requests as they are, then each symmetry's copies.
        let mut all: Vec<Request<'_, S>> = Vec::with_capacity(batch.len() * k);
        all.extend_from_slice(batch);
        let mut cursor = (0, 0);
        for _ in 1..k {
            for r in batch {
                all.push(next_image(&self.positions, &self.moves, &mut cursor, r));
            }
        }
        self.inner
            .try_evaluate(&all, None, &mut self.policy, &mut self.wdl)?;
        // The mean of each request's copies: copy j of request i holds its
        // moves at block j's offset of i's moves.
        let per_block: usize = batch.iter().map(|r| r.moves.len()).sum();
        let scale = 1.0 / k as f32;
        policy.clear();
        wdl.clear();
        let mut offset = 0;
        for (i, r) in batch.iter().enumerate() {
            for a in 0..r.moves.len() {
                let sum: f32 = (0..k)
                    .map(|j| self.policy[j * per_block + offset + a])
                    .sum();
                policy.push(sum * scale);
            }
            offset += r.moves.len();
            let mut v = [0.0f32; 3];
            for j in 0..k {
                let w = self.wdl[j * batch.len() + i];
                for (x, y) in v.iter_mut().zip(w) {
                    *x += y * scale;
                }
            }
            wdl.push(v);
        }
        Ok(())
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
    use connect4::{Connect4, Position};
    use game::{Game, GameMove};

    /// Priors that grow with the move's column and a value from the
    /// position's hash: an evaluator that sees the mirror image as a
    /// different position.
    struct Lopsided;

    impl Evaluator<Position> for Lopsided {
        fn evaluate(
            &mut self,
            batch: &[Request<'_, Position>],
            policy: &mut Vec<f32>,
            wdl: &mut Vec<[f32; 3]>,
        ) {
            policy.clear();
            wdl.clear();
            for r in batch {
                let total: u32 = r.moves.iter().map(|m| m.code() + 1).sum();
                policy.extend(r.moves.iter().map(|m| (m.code() + 1) as f32 / total as f32));
                let w = (r.position.hash() % 97) as f32 / 200.0;
                wdl.push([w, 0.1, 0.9 - w]);
            }
        }
    }

    /// Each position's legal moves.
    fn legal_moves(positions: &[Position]) -> Vec<Vec<<Position as GameState>::Move>> {
        positions
            .iter()
            .map(|p| {
                let mut m = Vec::new();
                p.legal_moves(&mut m);
                m
            })
            .collect()
    }

    /// A request for each position with its moves.
    fn requests<'a>(
        positions: &'a [Position],
        moves: &'a [Vec<<Position as GameState>::Move>],
    ) -> Vec<Request<'a, Position>> {
        positions
            .iter()
            .zip(moves)
            .map(|(position, moves)| Request {
                position,
                repetitions: 1,
                moves,
            })
            .collect()
    }

    fn assert_close(got: &[f32], want: &[f32], what: &str) {
        assert_eq!(got.len(), want.len(), "{what}");
        for (g, w) in got.iter().zip(want) {
            assert!((g - w).abs() < 1e-6, "{what}: {got:?} against {want:?}");
        }
    }

    fn answer(
        e: &mut impl Evaluator<Position>,
        batch: &[Request<'_, Position>],
    ) -> (Vec<f32>, Vec<[f32; 3]>) {
        let (mut policy, mut wdl) = (Vec::new(), Vec::new());
        e.evaluate(batch, &mut policy, &mut wdl);
        (policy, wdl)
    }

    /// Averaged over the mirror, each request's answer is the mean of the
    /// inner evaluator's answers for the position and its mirror image
    /// (moves mapped), and the same for a position and its mirror image.
    #[test]
    fn symmetrized_answers_average_the_mirror_images() {
        let game = Connect4::standard();
        assert_eq!(game.symmetries(), 2);
        let positions: Vec<Position> = ["", "1", "4453", "1122334", "7766"]
            .iter()
            .map(|t| game.parse_state(t).unwrap())
            .collect();
        let moves = legal_moves(&positions);
        let batch = requests(&positions, &moves);
        let mut sym = Symmetrized::new(Lopsided, game.symmetries());
        let (policy, wdl) = answer(&mut sym, &batch);
        let (plain, _) = answer(&mut Lopsided, &batch);
        assert_ne!(policy, plain, "the mirror changes this evaluator's answers");
        let mut offset = 0;
        for (i, r) in batch.iter().enumerate() {
            let mirror = r.position.transform(1);
            let mirror_moves: Vec<_> = r
                .moves
                .iter()
                .map(|&m| r.position.transform_move(m, 1))
                .collect();
            let one = [*r];
            let other = [Request {
                position: &mirror,
                repetitions: 1,
                moves: &mirror_moves,
            }];
            let (p0, w0) = answer(&mut Lopsided, &one);
            let (p1, w1) = answer(&mut Lopsided, &other);
            let n = r.moves.len();
            let mean: Vec<f32> = p0.iter().zip(&p1).map(|(a, b)| (a + b) / 2.0).collect();
            assert_close(&policy[offset..offset + n], &mean, "priors");
            let mean: Vec<f32> = w0[0]
                .iter()
                .zip(w1[0])
                .map(|(a, b)| (a + b) / 2.0)
                .collect();
            assert_close(&wdl[i], &mean, "W/D/L");
            // The mirror image, averaged, gets the same answer.
            let (pm, wm) = answer(&mut sym, &other);
            assert_close(
                &pm,
                &policy[offset..offset + n],
                "the mirror image's priors",
            );
            assert_close(&wm[0], &wdl[i], "the mirror image's W/D/L");
            offset += n;
        }
        assert_eq!(offset, policy.len());
        // One symmetry: the inner evaluator's answers, untouched.
        assert_eq!(answer(&mut Symmetrized::new(Lopsided, 1), &batch).0, plain);
    }

    /// Counts the requests it is asked, then answers as [`Lopsided`].
    struct Counting(usize);

    impl Evaluator<Position> for Counting {
        fn evaluate(
            &mut self,
            batch: &[Request<'_, Position>],
            policy: &mut Vec<f32>,
            wdl: &mut Vec<[f32; 3]>,
        ) {
            self.0 += batch.len();
            Lopsided.evaluate(batch, policy, wdl);
        }
    }

    /// Under a drawn symmetry each request's answer is the inner
    /// evaluator's for the image its hash draws (moves mapped), from one
    /// pass of the batch's size; both images are drawn across positions,
    /// the salt changes the draws, and a position asked again gets the
    /// same answer.
    #[test]
    fn a_drawn_symmetry_answers_for_the_drawn_image() {
        let game = Connect4::standard();
        let positions: Vec<Position> = [
            "", "1", "4453", "1122334", "7766", "12", "3", "2233", "671", "55", "4", "4444",
        ]
        .iter()
        .map(|t| game.parse_state(t).unwrap())
        .collect();
        let moves = legal_moves(&positions);
        let batch = requests(&positions, &moves);
        let mut draws_by_salt = Vec::new();
        for salt in 0..4u64 {
            let mode = SymmetryUse::Random { count: 2, salt };
            let mut sym = Symmetrized::with(Counting(0), mode);
            let (policy, wdl) = answer(&mut sym, &batch);
            assert_eq!(sym.inner.0, batch.len(), "one evaluation a request");
            let mut draws = Vec::new();
            let mut offset = 0;
            for (i, r) in batch.iter().enumerate() {
                let d = mode.draw(r.position);
                assert!(d < 2);
                draws.push(d);
                let image = r.position.transform(d);
                let image_moves: Vec<_> = r
                    .moves
                    .iter()
                    .map(|&m| r.position.transform_move(m, d))
                    .collect();
                let (p, w) = answer(
                    &mut Lopsided,
                    &[Request {
                        position: &image,
                        repetitions: 1,
                        moves: &image_moves,
                    }],
                );
                let n = r.moves.len();
                assert_close(&policy[offset..offset + n], &p, "priors of the drawn image");
                assert_close(&wdl[i], &w[0], "W/D/L of the drawn image");
                offset += n;
            }
            assert_eq!(offset, policy.len());
            assert_eq!(answer(&mut sym, &batch), (policy, wdl), "asked again");
            draws_by_salt.push(draws);
        }
        let all: Vec<usize> = draws_by_salt.iter().flatten().copied().collect();
        assert!(all.contains(&0) && all.contains(&1), "{draws_by_salt:?}");
        assert!(
            draws_by_salt.windows(2).any(|w| w[0] != w[1]),
            "the salt changes the draws: {draws_by_salt:?}"
        );
        // One symmetry: nothing to draw.
        let one = SymmetryUse::Random { count: 1, salt: 9 };
        assert!(positions.iter().all(|p| one.draw(p) == 0));
    }

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
