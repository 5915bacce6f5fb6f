//! Self-play's evaluations per second (`triad bench selfplay`) against the
//! raw batched forward of the same network at the same batch size, on the
//! positions self-play sends. The ratio is the figure of merit of the
//! batching design (ARCHITECTURE.md).

use crate::timing::measure;
use crate::{Error, Measurement};
use game::{Game, GameState};
use indicatif::ProgressBar;
use mcts::{Evaluator, NetworkEvaluator, Request};
use model::{Encoder, ModelConfig};
use selfplay::shards::load_network;
use selfplay::{SelfPlay, SelfplayConfig, Totals};
use serde::Serialize;
use std::time::{Duration, Instant};

/// How long to measure and what to compare.
#[derive(Clone, Debug)]
pub struct SelfplayOptions {
    /// Measurement for each of raw and self-play, split into slices.
    pub budget: Duration,
    /// Also measure self-play with the encoding done on the network's
    /// thread (the old design), interleaved with the default.
    pub compare: bool,
}

/// Mean padded move count of a batch (its widest position's legal moves,
/// the policy head's width), in each phase.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct PaddedMoves {
    /// In the raw phases.
    pub raw: f64,
    /// In self-play.
    pub selfplay: f64,
}

/// Self-play with the encoding on the network's thread (`compare`).
#[derive(Clone, Copy, Debug, Serialize)]
pub struct OwnerEncoding {
    /// Network evaluations per second in self-play.
    pub selfplay_evals_per_s: f64,
    /// Those over the raw forward's.
    pub ratio: f64,
    /// Time inside the network over self-play's wall time.
    pub network_busy: f64,
}

/// The figures of `triad bench selfplay` (its `--json` object).
#[derive(Clone, Debug, Serialize)]
pub struct SelfplayFigures {
    /// The network's device, as tch writes it.
    pub device: String,
    /// The raw forward with its inputs ready.
    pub raw_evals_per_s: f64,
    /// The raw forward with the encoding on the same thread before it.
    pub raw_with_encoding_evals_per_s: f64,
    /// Self-play, encoding in the tree workers.
    pub selfplay_evals_per_s: f64,
    /// Self-play over the raw forward.
    pub ratio: f64,
    /// Self-play over the raw forward with encoding.
    pub ratio_to_raw_with_encoding: f64,
    /// Time inside the network over self-play's wall time.
    pub network_busy: f64,
    /// Evaluations per network call in self-play.
    pub mean_batch: f64,
    /// Padded move counts of both phases' batches.
    pub padded_moves: PaddedMoves,
    /// The raw phases' batch: half the games in flight.
    pub batch: usize,
    /// Positions searched and played per hour of self-play.
    pub positions_per_hour: f64,
    /// Games per hour at the mean length of the finished games (`None`
    /// when none finished).
    pub games_per_hour: Option<f64>,
    /// Games finished.
    pub games_finished: u64,
    /// Evaluations answered from the cache.
    pub cache_hits: u64,
    /// libtorch's threads.
    pub threads: i32,
    /// Self-play with the encoding on the network's thread (`compare`).
    pub owner_encoding: Option<OwnerEncoding>,
    /// Mean plies of the finished games (`None` when none finished).
    #[serde(skip)]
    pub plies_per_game: Option<f64>,
}

/// A position the network was asked about, kept for the raw phases.
type Kept<S> = (S, u8, Vec<<S as GameState>::Move>);

/// The newest positions self-play sent to the network, a ring of the last
/// `cap`: the raw phases run on these, so both see positions of the same
/// stage of the games (legal move counts, and with them the policy head's
/// cost, grow after the opening). Slots are overwritten in place, so
/// keeping allocates nothing once the ring is full.
struct Pool<S: GameState> {
    kept: Vec<Kept<S>>,
    cap: usize,
    /// Where the next kept position goes once the pool is full.
    write: usize,
}

impl<S: GameState> Pool<S> {
    fn keep(&mut self, batch: &[Request<'_, S>]) {
        for r in batch {
            if self.kept.len() < self.cap {
                self.kept
                    .push((r.position.clone(), r.repetitions, r.moves.to_vec()));
            } else {
                let slot = &mut self.kept[self.write];
                slot.0.clone_from(r.position);
                slot.1 = r.repetitions;
                slot.2.clear();
                slot.2.extend_from_slice(r.moves);
                self.write = (self.write + 1) % self.cap;
            }
        }
    }
    /// Position `i` counted from the oldest kept.
    fn get(&self, i: usize) -> &Kept<S> {
        &self.kept[(self.write + i) % self.kept.len()]
    }
}

/// Loads the network of `model` for `game`, warms self-play (`config`)
/// up, then measures the raw forward and self-play in alternating slices;
/// `bar` (a spinner) shows the phase.
pub fn run<G: Game>(
    game: &G,
    config: &SelfplayConfig,
    model: &ModelConfig,
    options: &SelfplayOptions,
    bar: &ProgressBar,
) -> Result<SelfplayFigures, Error>
where
    G::State: game::AlphaBetaState,
{
    let (net, _) = load_network(game, model, None, 0)?;
    // The driver evaluates the two halves of its games in turn.
    let batch = config.games_in_flight.div_ceil(2);
    let mut evaluator = NetworkEvaluator::new(net);
    // The leaf hint as self-play uses it (`[selfplay] leaf_eval_weight`):
    // the loop figure includes its cost.
    let mut driver = SelfPlay::new(game, config, 0, u64::MAX, "bench")
        .with_leaf_hint(|| Box::new(players::QuiescenceHint::<G::State>::new()));
    bar.enable_steady_tick(Duration::from_millis(200));
    let slice = options.budget / SLICES;
    bar.set_message("self-play warm-up");
    let mut pool = warm_up(&mut driver, &mut evaluator, batch, slice)?;
    let measured = measure_phases(
        &mut driver,
        &mut evaluator,
        &mut pool,
        batch,
        slice,
        options.compare,
        bar,
    );
    bar.finish_and_clear();
    let device = format!("{:?}", evaluator.net.device());
    Ok(figures(&measured, &driver.totals, batch, device))
}

/// (1) Self-play warm-up, keeping real positions: the newest 8 batches. It
/// lasts a slice (and at least until the pool is full, at most 2 minutes),
/// so the first raw slice runs on positions from as far into the games as
/// self-play will be.
fn warm_up<G: Game>(
    driver: &mut SelfPlay<G>,
    evaluator: &mut NetworkEvaluator<G::State>,
    batch: usize,
    slice: Duration,
) -> Result<Pool<G::State>, Error> {
    let mut finished = Vec::new();
    let mut pool = Pool {
        kept: Vec::new(),
        cap: 8 * batch,
        write: 0,
    };
    let mut warm_up = Timed {
        inner: evaluator,
        workers_encode: true,
        busy: Duration::ZERO,
        pool: &mut pool,
        padded_moves: 0,
        batches: 0,
    };
    let warm = Instant::now();
    while (warm_up.pool.kept.len() < warm_up.pool.cap || warm.elapsed() < slice)
        && warm.elapsed() < Duration::from_secs(120)
    {
        finished.clear();
        driver
            .round(&mut warm_up, &mut finished)
            .expect("a network evaluator never declines");
    }
    if pool.kept.is_empty() {
        return Err(Error::Measurement(Measurement::NothingEvaluated));
    }
    Ok(pool)
}

/// What the alternating slices measured.
struct Measured {
    /// The raw forward with its inputs ready (the network's throughput).
    raw: Phase,
    /// The raw forward with the encoding done on the same thread before it.
    raw_enc: Phase,
    /// Self-play, one phase per mode: encoding in the tree workers first,
    /// then (`--compare`) on the network's thread.
    selfplay: Vec<Phase>,
}

/// (2) The raw batched forward of the same network on the pool's positions,
/// and (3) self-play continuing the warm games. The phases alternate in
/// slices, so a change in machine load (other processes on a shared box)
/// hits every figure alike: the raw forward with its inputs ready, the raw
/// forward with the encoding done on the same thread before it (what
/// self-play did before its tree workers encoded), and self-play, each
/// `--compare` mode too. The raw phases run on the newest 8 batches
/// self-play sent.
fn measure_phases<G: Game>(
    driver: &mut SelfPlay<G>,
    evaluator: &mut NetworkEvaluator<G::State>,
    pool: &mut Pool<G::State>,
    batch: usize,
    slice: Duration,
    compare: bool,
    bar: &ProgressBar,
) -> Measured {
    let mut finished = Vec::new();
    let mut enc = Encoder::new();
    let (mut policy, mut wdl) = (Vec::new(), Vec::new());
    let mut next = 0;
    let encode_batch = |enc: &mut Encoder<G::State>, pool: &Pool<G::State>, next: &mut usize| {
        enc.clear();
        for _ in 0..batch {
            let (p, reps, moves) = pool.get(*next % pool.kept.len());
            enc.push_with_moves(p, *reps, moves);
            *next += 1;
        }
        enc.finish();
    };
    let mut ready: Vec<Encoder<G::State>> = (0..8).map(|_| Encoder::new()).collect();
    let mut modes = vec![Mode::Workers];
    if compare {
        modes.push(Mode::Owner);
    }
    let mut sp = vec![Phase::default(); modes.len()];
    let (mut raw, mut raw_enc) = (Phase::default(), Phase::default());
    for k in 0..SLICES {
        bar.set_message(format!("raw forward, batch {batch} ({}/{SLICES})", k + 1));
        for e in ready.iter_mut() {
            encode_batch(e, pool, &mut next);
        }
        let mut i = 0;
        let m = measure(slice, 1, || {
            evaluator
                .net
                .evaluate_encoded(&ready[i % ready.len()], &mut policy, &mut wdl);
            i += 1;
        });
        let (n, secs) = (m.iterations, m.secs());
        raw.add(n as u64 * batch as u64, secs, secs);
        // measure() calls once more than it counts (its one warm-up).
        raw.batches += n as u64;
        raw.padded_moves += (1..=n)
            .map(|j| ready[j % ready.len()].max_moves() as u64)
            .sum::<u64>();
        bar.set_message(format!(
            "raw forward with encoding, batch {batch} ({}/{SLICES})",
            k + 1
        ));
        let m = measure(slice, 1, || {
            encode_batch(&mut enc, pool, &mut next);
            evaluator.net.evaluate_encoded(&enc, &mut policy, &mut wdl);
        });
        let (n, secs) = (m.iterations, m.secs());
        raw_enc.add(n as u64 * batch as u64, secs, secs);
        for (mode, phase) in modes.iter().zip(sp.iter_mut()) {
            bar.set_message(format!("self-play, {} ({}/{SLICES})", mode.name(), k + 1));
            let before = driver.totals;
            let mut timed = Timed {
                inner: &mut *evaluator,
                workers_encode: *mode == Mode::Workers,
                busy: Duration::ZERO,
                pool: &mut *pool,
                padded_moves: 0,
                batches: 0,
            };
            let start = Instant::now();
            while start.elapsed() < slice {
                finished.clear();
                driver
                    .round(&mut timed, &mut finished)
                    .expect("a network evaluator never declines");
            }
            let wall = start.elapsed().as_secs_f64();
            let busy = timed.busy.as_secs_f64();
            let t = driver.totals;
            phase.add(t.evaluations - before.evaluations, wall, busy);
            phase.batches += timed.batches;
            phase.padded_moves += timed.padded_moves;
            phase.rounds += t.rounds - before.rounds;
            phase.positions += t.positions - before.positions;
        }
    }
    Measured {
        raw,
        raw_enc,
        selfplay: sp,
    }
}

/// The figures from the phases' sums and self-play's totals.
fn figures(m: &Measured, t: &Totals, batch: usize, device: String) -> SelfplayFigures {
    let (raw, raw_enc, sp) = (&m.raw, &m.raw_enc, &m.selfplay);
    let raw_evals_per_s = raw.per_s();
    let raw_with_encoding_per_s = raw_enc.per_s();
    let main = &sp[0];
    let selfplay_evals_per_s = main.per_s();
    let positions_per_hour = main.positions as f64 * 3600.0 / main.secs;
    // Games finish rarely in a short window; estimate from plies per game.
    let plies_per_game = if t.games > 0 {
        Some(t.finished_plies as f64 / t.games as f64)
    } else {
        None
    };
    SelfplayFigures {
        device,
        raw_evals_per_s,
        raw_with_encoding_evals_per_s: raw_with_encoding_per_s,
        selfplay_evals_per_s,
        ratio: selfplay_evals_per_s / raw_evals_per_s,
        ratio_to_raw_with_encoding: selfplay_evals_per_s / raw_with_encoding_per_s,
        network_busy: main.busy / main.secs,
        mean_batch: main.evals as f64 / main.rounds.max(1) as f64,
        padded_moves: PaddedMoves {
            raw: raw.mean_padded_moves(),
            selfplay: main.mean_padded_moves(),
        },
        batch,
        positions_per_hour,
        games_per_hour: plies_per_game.map(|p| positions_per_hour / p),
        games_finished: t.games,
        cache_hits: t.cache_hits,
        threads: tch::get_num_threads(),
        owner_encoding: sp.get(1).map(|p| OwnerEncoding {
            selfplay_evals_per_s: p.per_s(),
            ratio: p.per_s() / raw_evals_per_s,
            network_busy: p.busy / p.secs,
        }),
        plies_per_game,
    }
}

/// Alternating measurement slices of raw and self-play.
const SLICES: u32 = 4;

/// Where self-play encodes the leaves it sends to the network.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// Each game's tree worker encodes its own leaf (the default).
    Workers,
    /// The thread that runs the network encodes the batch before each
    /// forward pass (the design before; `--compare`).
    Owner,
}

impl Mode {
    fn name(self) -> &'static str {
        match self {
            Mode::Workers => "encoding in the tree workers",
            Mode::Owner => "encoding on the network's thread",
        }
    }
}

/// One phase's sums over its slices.
#[derive(Clone, Copy, Default)]
struct Phase {
    evals: u64,
    secs: f64,
    /// Seconds inside the network evaluator.
    busy: f64,
    rounds: u64,
    positions: u64,
    /// Batches sent and the sum of their padded move counts.
    batches: u64,
    padded_moves: u64,
}

impl Phase {
    fn add(&mut self, evals: u64, secs: f64, busy: f64) {
        self.evals += evals;
        self.secs += secs;
        self.busy += busy;
    }
    fn per_s(&self) -> f64 {
        self.evals as f64 / self.secs
    }
    /// Mean padded move count of a batch (0 when none was sent).
    fn mean_padded_moves(&self) -> f64 {
        self.padded_moves as f64 / self.batches.max(1) as f64
    }
}

/// The network evaluator, timed: `busy` sums the time spent in it (the
/// batch copied into tensors, the forward pass, the answers copied back;
/// with `workers_encode` off, the encoding as well). On CUDA the answers'
/// copy back waits for the GPU, so this is the GPU's time plus the copies.
struct Timed<'a, S: GameState> {
    inner: &'a mut NetworkEvaluator<S>,
    workers_encode: bool,
    busy: Duration,
    /// Keeps the positions asked (outside the timed part).
    pool: &'a mut Pool<S>,
    /// Sum over batches of the batch's padded move count (its widest
    /// position's legal moves): the policy head's cost grows with it.
    padded_moves: u64,
    batches: u64,
}

impl<S: GameState> Evaluator<S> for Timed<'_, S> {
    fn evaluate(
        &mut self,
        batch: &[Request<'_, S>],
        policy: &mut Vec<f32>,
        wdl: &mut Vec<[f32; 3]>,
    ) {
        self.pool.keep(batch);
        let t = Instant::now();
        self.inner.evaluate(batch, policy, wdl);
        self.busy += t.elapsed();
    }
    fn wants_encoding(&self) -> bool {
        self.workers_encode
    }
    fn evaluate_prepared(
        &mut self,
        batch: &[Request<'_, S>],
        encoded: &Encoder<S>,
        policy: &mut Vec<f32>,
        wdl: &mut Vec<[f32; 3]>,
    ) {
        self.pool.keep(batch);
        self.padded_moves += encoded.max_moves() as u64;
        self.batches += 1;
        let t = Instant::now();
        self.inner.evaluate_prepared(batch, encoded, policy, wdl);
        self.busy += t.elapsed();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use connect4::Connect4;

    /// The raw phases read the newest positions self-play sent, oldest
    /// first, overwritten in place once the ring is full: an earlier pool
    /// stopped keeping after the warm-up's first (opening) batches.
    #[test]
    fn the_pool_keeps_the_newest_positions_in_order() {
        let legal = |s: &<Connect4 as Game>::State| {
            let mut out = Vec::new();
            s.legal_moves(&mut out);
            out
        };
        let mut states = vec![Connect4::standard().start()];
        for i in 0..5 {
            let last = states.last().unwrap();
            let next = last.play(legal(last)[i]);
            states.push(next);
        }
        let moves: Vec<Vec<_>> = states.iter().map(legal).collect();
        let mut pool = Pool {
            kept: Vec::new(),
            cap: 4,
            write: 0,
        };
        for chunk in (0..6).collect::<Vec<_>>().chunks(2) {
            let batch: Vec<Request<'_, _>> = chunk
                .iter()
                .map(|&i| Request {
                    position: &states[i],
                    repetitions: i as u8,
                    moves: &moves[i],
                })
                .collect();
            pool.keep(&batch);
        }
        let kept: Vec<u8> = (0..4).map(|i| pool.get(i).1).collect();
        assert_eq!(kept, [2, 3, 4, 5]);
        for i in 0..4 {
            assert_eq!(pool.get(i).0.hash(), states[i + 2].hash());
            assert_eq!(pool.get(i).2, moves[i + 2]);
        }
    }
}
