//! Many games in flight, one batched evaluation per round.
//!
//! A round: (1) idle slots start new games, in slot order; (2) in two
//! half-steps over the two halves of the slots, the calling thread (the only
//! one that touches the model, as tch modules are not `Sync`) evaluates one
//! half's waiting leaves in ONE call of the [`Evaluator`] while the rayon
//! pool runs the other half's searches on to their next leaf; (3) answers go
//! into the cache and back to their slots between half-steps; (4) finished
//! games are handed out in slot order.
//!
//! Everything a game draws at random comes from its own stream, seeded from
//! the master seed and the game id, and the batch order is the slot order,
//! so the same seed gives the same games whatever the thread count (with a
//! deterministic evaluator; see `docs/selfplay.md` for libtorch).

use crate::config::SelfplayConfig;
use data::{PositionRecord, Source};
use game::{Color, Game, GameMove, GameResult, GameState, History, Outcome, Termination};
use mcts::{
    Algorithm, Declined, EvalCache, Evaluator, LeafHint, Request, Rng, Search, SearchConfig,
    SearchParams,
};
use model::{EncodedLeaf, Encoder};
use rayon::prelude::*;
use std::sync::Arc;
use std::time::Instant;

/// The game's static evaluation of a position, in centipawns from the side
/// to move's view (`game::AlphaBetaState::evaluate`), used to adjudicate
/// games that reach `max_plies` (`[selfplay] adjudicate`).
pub type Adjudicator<S> = Arc<dyn Fn(&S) -> i32 + Send + Sync>;

/// A finished game, ready for the shard writer.
#[derive(Debug, Clone)]
pub struct FinishedGame {
    pub game_id: u64,
    pub outcome: Outcome,
    /// One row per searched position, result and termination filled in.
    pub records: Vec<PositionRecord>,
    /// In a game that could not resign: `Some(true)` if a resignation would
    /// have happened and was wrong (that side did not lose), `Some(false)`
    /// if it would have been right, `None` if none would have happened.
    pub false_resignation: Option<bool>,
}

/// One round's figures.
#[derive(Debug, Clone, Copy, Default)]
pub struct RoundStats {
    /// Positions sent to the network (in up to two calls, one per half).
    pub batch: usize,
    /// Moves played this round.
    pub positions: u64,
    /// Games finished this round.
    pub finished: usize,
}

/// Running totals of a self-play run.
#[derive(Debug, Clone, Copy, Default)]
pub struct Totals {
    pub games: u64,
    /// Plies of the finished games (their mean length is this / `games`).
    pub finished_plies: u64,
    /// Moves searched and played, in finished and unfinished games.
    pub positions: u64,
    pub evaluations: u64,
    /// Calls of the network (two per round once both halves are playing).
    pub rounds: u64,
    pub cache_hits: u64,
    pub white_wins: u64,
    pub black_wins: u64,
    pub draws: u64,
    pub resignations: u64,
    /// No-resign games in which a resignation would have happened.
    pub would_resign: u64,
    /// Of those, the ones where it would have been wrong.
    pub false_resignations: u64,
    /// Wall time the driver's thread spent inside the evaluator (ns): the
    /// network's busy time, copies and (on CUDA) the wait for the GPU
    /// included.
    pub network_nanos: u64,
    /// CPU time that thread spent inside the evaluator (ns); the rest of
    /// the process's CPU time is tree search, rules and writing.
    pub network_cpu_nanos: u64,
    /// Sum over network calls of the positions the call could have held
    /// (the games of its half): the mean batch fill is `evaluations` over
    /// this.
    pub batch_capacity: u64,
}

impl Totals {
    /// Mean positions per network call.
    pub fn mean_batch(&self) -> f64 {
        self.evaluations as f64 / self.rounds.max(1) as f64
    }
    /// Adds `other`'s counts (the totals of several drivers of one job).
    pub fn add(&mut self, other: &Totals) {
        self.games += other.games;
        self.finished_plies += other.finished_plies;
        self.positions += other.positions;
        self.evaluations += other.evaluations;
        self.rounds += other.rounds;
        self.cache_hits += other.cache_hits;
        self.white_wins += other.white_wins;
        self.black_wins += other.black_wins;
        self.draws += other.draws;
        self.resignations += other.resignations;
        self.would_resign += other.would_resign;
        self.false_resignations += other.false_resignations;
        self.network_nanos += other.network_nanos;
        self.network_cpu_nanos += other.network_cpu_nanos;
        self.batch_capacity += other.batch_capacity;
    }

    /// Mean share of each network call's capacity that held a position
    /// (0..1; 0 before any call).
    pub fn batch_fill(&self) -> f64 {
        self.evaluations as f64 / self.batch_capacity.max(1) as f64
    }

    /// Share of leaf lookups answered by the evaluation cache instead of
    /// the network (0..1).
    pub fn cache_hit_rate(&self) -> f64 {
        self.cache_hits as f64 / (self.cache_hits + self.evaluations).max(1) as f64
    }

    /// Share of would-be resignations that were wrong (`None` before any).
    pub fn false_resignation_rate(&self) -> Option<f64> {
        (self.would_resign > 0).then(|| self.false_resignations as f64 / self.would_resign as f64)
    }
}

/// A searched position kept until the game's result is known.
struct Row {
    position: String,
    repetitions: u32,
    hash: u64,
    side: Color,
    legal: Vec<u32>,
    /// The search columns: `None` for a random opening ply
    /// (`[selfplay] random_plies`), where no search ran.
    visits: Option<Vec<u32>>,
    policy: Option<Vec<f32>>,
    value: Option<f32>,
    wdl: Option<[f32; 3]>,
    chosen: u32,
    simulations: Option<u32>,
    temperature: f32,
    full: bool,
}

struct Active<S: GameState> {
    id: u64,
    seed: u64,
    game: History<S>,
    rows: Vec<Row>,
    no_resign: bool,
    /// Consecutive own moves with the root value below the threshold, per colour.
    low: [u32; 2],
    would_resign: Option<Color>,
    full: bool,
    simulations: u32,
}

struct Slot<S: GameState> {
    search: Search<S>,
    rng: Rng,
    active: Option<Active<S>>,
    finished: Option<FinishedGame>,
    waiting: bool,
    answer: Option<[f32; 3]>,
    answer_policy: Vec<f32>,
    moves: u64,
    visits: Vec<u32>,
    policy: Vec<f32>,
    /// Legal moves of a random opening ply (a buffer).
    legal: Vec<S::Move>,
    /// The network input of the leaf the search waits on, encoded by the
    /// tree worker that reached it (when the evaluator wants encodings).
    leaf: EncodedLeaf,
    /// Whether `leaf` holds the current request's encoding.
    leaf_ready: bool,
}

/// The self-play driver: `games_in_flight` games, stepped in rounds.
pub struct SelfPlay<G: Game> {
    /// The game's name and variant, written on every row.
    names: (Arc<str>, Arc<str>),
    config: SelfplayConfig,
    seed: u64,
    model_id: String,
    slots: Vec<Slot<G::State>>,
    cache: EvalCache,
    next_game: u64,
    /// Added to every game's index to make its recorded `game_id`.
    first_id: u64,
    /// The index of this driver's first game in its job (see
    /// [`SelfPlay::with_first_index`]).
    first_index: u64,
    max_games: u64,
    stopping: bool,
    pool: rayon::ThreadPool,
    policy: Vec<f32>,
    wdl: Vec<[f32; 3]>,
    start: G::State,
    /// Each half's next network batch, assembled by the tree thread that
    /// reached its leaves, and whether it is current.
    batches: [Encoder<G::State>; 2],
    prepared: [bool; 2],
    adjudicator: Option<Adjudicator<G::State>>,
    /// `[selfplay] leaf_eval_weight` asks for a leaf hint that
    /// [`SelfPlay::with_leaf_hint`] has not given yet.
    hint_missing: bool,
    pub totals: Totals,
}

/// What every slot's game needs to know to move on (shared by the tree
/// workers).
struct Ctx<'a, S> {
    config: &'a SelfplayConfig,
    cache: Option<&'a EvalCache>,
    encode: bool,
    model_id: &'a str,
    names: &'a (Arc<str>, Arc<str>),
    adjudicator: Option<&'a (dyn Fn(&S) -> i32 + Send + Sync)>,
}

impl<G: Game> SelfPlay<G> {
    /// A driver that will play `max_games` games (ids 0..max_games) of
    /// `game` from its start, seeded by `seed`. `model_id` is written on
    /// every row.
    pub fn new(
        game: &G,
        config: &SelfplayConfig,
        seed: u64,
        max_games: u64,
        model_id: &str,
    ) -> SelfPlay<G> {
        let start = game.start();
        // The searches start without the leaf hint (its weight set aside):
        // `with_leaf_hint` builds them again with one, and a round refuses
        // to run while the weight asks for one that is missing.
        let unhinted = SearchConfig {
            leaf_eval_weight: 0.0,
            ..config.search()
        };
        let slots = (0..config.games_in_flight)
            .map(|_| Slot {
                search: Search::new(&unhinted, &start, None),
                rng: Rng::new(0),
                active: None,
                finished: None,
                waiting: false,
                answer: None,
                answer_policy: Vec::new(),
                moves: 0,
                visits: Vec::new(),
                policy: Vec::new(),
                legal: Vec::new(),
                leaf: EncodedLeaf::new(),
                leaf_ready: false,
            })
            .collect();
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(config.tree_threads())
            .build()
            .unwrap_or_else(|_| {
                rayon::ThreadPoolBuilder::new()
                    .num_threads(1)
                    .build()
                    .expect("a one-thread pool")
            });
        SelfPlay {
            names: (Arc::from(G::NAME), Arc::from(game.variant())),
            config: config.clone(),
            seed,
            model_id: model_id.to_string(),
            slots,
            cache: EvalCache::new(config.cache_size),
            next_game: 0,
            first_id: 0,
            first_index: 0,
            max_games,
            stopping: false,
            pool,
            policy: Vec::new(),
            wdl: Vec::new(),
            start,
            batches: [Encoder::new(), Encoder::new()],
            prepared: [false; 2],
            adjudicator: None,
            hint_missing: config.leaf_eval_weight > 0.0,
            totals: Totals::default(),
        }
    }

    /// Records game ids from `first` on (`first..first + max_games`)
    /// instead of from 0, so that the games of several self-play jobs of
    /// one run (the loop's generations, distributed workers) have ids
    /// unique within the run. The games themselves do not change.
    pub fn with_first_game_id(mut self, first: u64) -> SelfPlay<G> {
        self.first_id = first;
        self
    }

    /// Plays the job's games `first..first + max_games` instead of
    /// `0..max_games`: their seeds and ids are those games' in a driver
    /// that plays the whole job, so a job split between several drivers
    /// (self-play pools, one network copy each) plays the same games.
    pub fn with_first_index(mut self, first: u64) -> SelfPlay<G> {
        self.first_index = first;
        self
    }

    /// Gives every game's search a leaf hint made by `make`, mixed in with
    /// `[selfplay] leaf_eval_weight` (nothing when the weight is 0). A
    /// driver whose weight is above 0 must be given one before its first
    /// [`SelfPlay::round`], which panics otherwise: the hint cannot be lost
    /// unseen.
    pub fn with_leaf_hint(mut self, make: impl Fn() -> Box<dyn LeafHint<G::State>>) -> SelfPlay<G> {
        if self.config.leaf_eval_weight > 0.0 {
            let search = self.config.search();
            for slot in &mut self.slots {
                slot.search = Search::new(&search, &self.start, Some(make()));
            }
        }
        self.hint_missing = false;
        self
    }

    /// Scores games that reach `max_plies` by `adjudicator` when
    /// `[selfplay] adjudicate` is set (without one, such games stay draws).
    pub fn with_adjudicator(mut self, adjudicator: Adjudicator<G::State>) -> SelfPlay<G> {
        self.adjudicator = Some(adjudicator);
        self
    }

    /// Start no more games (Ctrl-C); games in progress go on unless abandoned.
    pub fn stop(&mut self) {
        self.stopping = true;
    }

    /// Drops every unfinished game (nothing of them is written).
    pub fn abandon(&mut self) {
        self.stopping = true;
        self.prepared = [false; 2];
        for s in &mut self.slots {
            s.active = None;
            s.waiting = false;
            s.answer = None;
        }
    }

    /// Games still being played.
    pub fn in_flight(&self) -> usize {
        self.slots.iter().filter(|s| s.active.is_some()).count()
    }

    /// True when every game has been played (or stopping and none is left).
    pub fn is_done(&self) -> bool {
        self.in_flight() == 0 && (self.stopping || self.next_game >= self.max_games)
    }

    /// One round (see the module comment). Finished games are appended to
    /// `finished` in slot order.
    ///
    /// An evaluator that declines a batch ([`Evaluator::try_evaluate`]: a
    /// model outside Rust that failed) ends the round there with
    /// [`Declined`]: the games finished before it are appended all the
    /// same, the declined half's searches keep waiting at their leaves
    /// untouched, and the next round asks for those leaves again, so a
    /// driver whose evaluator failed goes on as if the call had not been
    /// made.
    pub fn round(
        &mut self,
        evaluator: &mut dyn Evaluator<G::State>,
        finished: &mut Vec<FinishedGame>,
    ) -> Result<RoundStats, Declined> {
        assert!(
            !self.hint_missing,
            "[selfplay] leaf_eval_weight needs a leaf hint: SelfPlay::with_leaf_hint was not called"
        );
        self.start_games();
        // (2)+(3) in two half-steps over the two halves of the slots: the
        // network evaluates one half's leaves on this thread while the rayon
        // pool does the other half's tree work, so neither waits for the
        // other (libtorch and the tree work each get a core).
        let half = self.slots.len().div_ceil(2);
        let encode = evaluator.wants_encoding();
        let mut n = 0;
        let mut calls = 0;
        let mut declined = Ok(());
        for turn in 0..2 {
            let (call, tree_ready, answered) = self.half_step(turn, half, evaluator, encode);
            self.prepared[turn] = false;
            self.prepared[1 - turn] = tree_ready;
            if answered.is_err() {
                declined = answered;
                break;
            }
            self.take_answers(turn, half);
            n += call.size;
            calls += (call.size > 0) as u64;
            if call.size > 0 {
                self.totals.network_nanos += call.wall_nanos;
                self.totals.network_cpu_nanos += call.cpu_nanos;
                self.totals.batch_capacity += call.capacity as u64;
            }
        }
        let stats = self.collect_finished(finished, n, calls);
        declined.map(|()| stats)
    }

    /// (2) Half-step `turn` of a round: half `turn` of the slots (split at
    /// `half`) evaluated on this thread while the pool runs the other half
    /// on to its next leaves (and, with `encode`, assembles their batch).
    /// Returns the network call, whether the other half's batch is
    /// assembled, and whether the evaluator answered.
    #[inline]
    fn half_step(
        &mut self,
        turn: usize,
        half: usize,
        evaluator: &mut dyn Evaluator<G::State>,
        encode: bool,
    ) -> (NetworkCall, bool, Result<(), Declined>) {
        let (first, second) = self.slots.split_at_mut(half);
        let [enc_first, enc_second] = &mut self.batches;
        let ((eval_group, eval_enc), (tree_group, tree_enc)) = if turn == 0 {
            ((first, enc_first), (second, enc_second))
        } else {
            ((second, enc_second), (first, enc_first))
        };
        let eval_ready = self.prepared[turn];
        let ctx = Ctx {
            config: &self.config,
            cache: (self.config.cache_size > 0).then_some(&self.cache),
            encode,
            model_id: self.model_id.as_str(),
            names: &self.names,
            adjudicator: self.adjudicator.as_deref(),
        };
        let ctx = &ctx;
        let pool = &self.pool;
        let (policy, wdl) = (&mut self.policy, &mut self.wdl);
        std::thread::scope(|scope| {
            let worker = scope.spawn(move || {
                pool.install(|| tree_work(ctx, tree_group, tree_enc, encode));
                encode
            });
            let output = Output {
                enc: eval_enc,
                policy,
                wdl,
            };
            let (call, answered) =
                evaluate_group(eval_group, eval_ready, encode, evaluator, output);
            match worker.join() {
                Ok(ready) => (call, ready, answered),
                Err(panic) => std::panic::resume_unwind(panic),
            }
        })
    }

    /// (1) New games in the free slots, in slot order: ids and seeds do not
    /// depend on timing.
    fn start_games(&mut self) {
        for slot in &mut self.slots {
            if slot.active.is_none() && !self.stopping && self.next_game < self.max_games {
                let index = self.first_index + self.next_game;
                self.next_game += 1;
                // The game's stream depends on its index only, so the
                // same seed gives the same games whatever the id base.
                let seed = Rng::derive(self.seed, index);
                let id = self.first_id + index;
                slot.rng = Rng::new(seed);
                let no_resign = slot.rng.uniform() < self.config.no_resign_share;
                let random_plies = opening_plies(&self.config, &mut slot.rng);
                slot.search.reset();
                slot.active = Some(Active {
                    id,
                    seed,
                    game: History::new(self.start.clone()),
                    rows: Vec::new(),
                    no_resign,
                    low: [0; 2],
                    would_resign: None,
                    full: true,
                    simulations: 0,
                });
                slot.waiting = false;
                slot.answer = None;
                if let Some(active) = &mut slot.active {
                    random_opening(random_plies, active, &mut slot.rng, &mut slot.legal);
                }
                begin_move(&self.config, slot);
            }
        }
    }

    /// The network's answers for one half of the slots (`turn` 0: the
    /// first `half`), back into their searches and into the cache, in slot
    /// order, while no tree work runs (lookups never race with inserts).
    fn take_answers(&mut self, turn: usize, half: usize) {
        let eval_group = if turn == 0 {
            &mut self.slots[..half]
        } else {
            &mut self.slots[half..]
        };
        let mut offset = 0;
        for (b, slot) in eval_group.iter_mut().filter(|s| s.waiting).enumerate() {
            let k = slot.search.request().moves.len();
            let policy = &self.policy[offset..offset + k];
            offset += k;
            let wdl = self.wdl[b];
            self.cache.insert(slot.search.request_key(), policy, wdl);
            slot.answer_policy.clear();
            slot.answer_policy.extend_from_slice(policy);
            slot.answer = Some(wdl);
            slot.waiting = false;
            slot.leaf_ready = false;
        }
    }

    /// (4) Finished games and the round's figures: `n` leaves evaluated in
    /// `calls` network calls.
    fn collect_finished(
        &mut self,
        finished: &mut Vec<FinishedGame>,
        n: usize,
        calls: u64,
    ) -> RoundStats {
        let mut stats = RoundStats {
            batch: n,
            ..Default::default()
        };
        for slot in &mut self.slots {
            stats.positions += std::mem::take(&mut slot.moves);
            if let Some(g) = slot.finished.take() {
                self.totals.games += 1;
                self.totals.finished_plies += g.records.len() as u64;
                match g.outcome.result {
                    GameResult::WhiteWin => self.totals.white_wins += 1,
                    GameResult::BlackWin => self.totals.black_wins += 1,
                    GameResult::Draw => self.totals.draws += 1,
                }
                if g.outcome.termination == Termination::Resignation {
                    self.totals.resignations += 1;
                }
                if let Some(wrong) = g.false_resignation {
                    self.totals.would_resign += 1;
                    self.totals.false_resignations += wrong as u64;
                }
                finished.push(g);
                stats.finished += 1;
            }
        }
        self.totals.cache_hits = self.slots.iter().map(|s| s.search.cache_hits).sum();
        self.totals.positions += stats.positions;
        self.totals.evaluations += n as u64;
        self.totals.rounds += calls;
        stats
    }
}

/// One network call of a half-step: the positions it evaluated, the wall
/// and CPU time it took on the calling thread (ns), and the positions the
/// half's slots could have sent.
#[derive(Clone, Copy)]
struct NetworkCall {
    size: usize,
    wall_nanos: u64,
    cpu_nanos: u64,
    capacity: usize,
}

/// Where a half-step's network call writes: the half's encoded batch, and
/// the policy and value answers.
struct Output<'a, S: GameState> {
    enc: &'a mut Encoder<S>,
    policy: &'a mut Vec<f32>,
    wdl: &'a mut Vec<[f32; 3]>,
}

/// The pool's share of a half-step: `group`'s searches run on to their
/// next leaves and, with `encode`, the next network batch assembled into
/// `enc` while the network runs this one (the owner thread only runs the
/// network).
#[inline]
fn tree_work<S: GameState>(
    ctx: &Ctx<'_, S>,
    group: &mut [Slot<S>],
    enc: &mut Encoder<S>,
    encode: bool,
) {
    group.par_iter_mut().for_each(|slot| advance(ctx, slot));
    if encode {
        assemble(group, enc);
    }
}

/// The calling thread's share of a half-step: the waiting leaves of
/// `group` evaluated in one call of `evaluator` (from the batch the pool
/// assembled when `ready`, else assembled here), timed; and whether the
/// evaluator answered.
#[inline]
fn evaluate_group<S: GameState>(
    group: &mut [Slot<S>],
    ready: bool,
    encode: bool,
    evaluator: &mut dyn Evaluator<S>,
    out: Output<'_, S>,
) -> (NetworkCall, Result<(), Declined>) {
    let waiting = group.iter().filter(|s| s.waiting).count();
    if encode && (!ready || out.enc.len() != waiting) {
        // Leaves reached before the evaluator wanted encodings.
        assemble(group, out.enc);
    }
    let group = &*group;
    let batch: Vec<Request<'_, S>> = group
        .iter()
        .filter(|s| s.waiting)
        .map(|s| s.search.request())
        .collect();
    let mut call = NetworkCall {
        size: batch.len(),
        wall_nanos: 0,
        cpu_nanos: 0,
        capacity: group.len(),
    };
    let mut answered = Ok(());
    if !batch.is_empty() {
        let (wall, cpu) = (Instant::now(), thread_cpu_nanos());
        let encoded = encode.then_some(&*out.enc);
        answered = evaluator.try_evaluate(&batch, encoded, out.policy, out.wdl);
        call.wall_nanos = wall.elapsed().as_nanos() as u64;
        call.cpu_nanos = thread_cpu_nanos().saturating_sub(cpu);
    }
    (call, answered)
}

/// CPU time of the calling thread so far (ns; 0 where the clock is missing).
fn thread_cpu_nanos() -> u64 {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes one timespec into `t`, which we own.
    let ok = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) } == 0;
    if ok {
        t.tv_sec as u64 * 1_000_000_000 + t.tv_nsec as u64
    } else {
        0
    }
}

/// Sets up the search of the game's next move: full or cheap, noise or not.
fn begin_move<S: GameState>(config: &SelfplayConfig, slot: &mut Slot<S>) {
    let active = slot.active.as_mut().expect("an active game");
    let full = config.cheap_share <= 0.0 || slot.rng.uniform() >= config.cheap_share;
    active.full = full;
    active.simulations = if full {
        config.simulations
    } else {
        config.cheap_simulations
    };
    let params = SearchParams {
        simulations: active.simulations,
        noise: full && config.algorithm == Algorithm::Puct,
    };
    slot.search.begin(&active.game, params);
}

/// The number of random opening plies of a new game: `random_plies`, or,
/// when `random_plies_max` is above it, a uniform draw from
/// `random_plies..=random_plies_max` from the game's stream (nothing is
/// drawn otherwise).
fn opening_plies(config: &SelfplayConfig, rng: &mut Rng) -> u32 {
    if config.random_plies_max <= config.random_plies {
        return config.random_plies;
    }
    let span = u64::from(config.random_plies_max - config.random_plies) + 1;
    config.random_plies + (rng.next_u64() % span) as u32
}

/// Plays the game's first `plies` moves uniformly at random, from the
/// game's own stream, each as a row without search (`[selfplay]
/// random_plies`): a move that would end the game is drawn again, and when
/// every legal move would end it the opening stops there, so the search
/// always starts from an open position. Draws nothing when `plies` is 0,
/// so a run without random plies plays the games it always played.
fn random_opening<S: GameState>(
    plies: u32,
    active: &mut Active<S>,
    rng: &mut Rng,
    legal: &mut Vec<S::Move>,
) {
    for _ in 0..plies {
        let pos = active.game.position().clone();
        pos.legal_moves(legal);
        let codes = legal.iter().map(|m| m.code()).collect();
        let mut mv = None;
        while !legal.is_empty() {
            let i = (rng.next_u64() % legal.len() as u64) as usize;
            let m = legal.swap_remove(i);
            active.game.play(m);
            let open = active.game.outcome().is_none();
            active.game.undo();
            if open {
                mv = Some(m);
                break;
            }
        }
        let Some(mv) = mv else { return };
        active.rows.push(Row {
            position: pos.to_text(),
            repetitions: active.game.repetition_count(),
            hash: pos.hash(),
            side: pos.side(),
            legal: codes,
            visits: None,
            policy: None,
            value: None,
            wdl: None,
            chosen: mv.code(),
            simulations: None,
            temperature: 0.0,
            full: false,
        });
        active.game.play(mv);
    }
}

/// Fills `enc` with the network batch of `group`'s waiting slots, in slot
/// order, from the leaves their tree workers encoded (encoding any that
/// were not).
fn assemble<S: GameState>(group: &mut [Slot<S>], enc: &mut Encoder<S>) {
    for slot in group.iter_mut().filter(|s| s.waiting && !s.leaf_ready) {
        encode_leaf(slot);
    }
    let leaves: Vec<(&EncodedLeaf, &[S::Move])> = group
        .iter()
        .filter(|s| s.waiting)
        .map(|s| (&s.leaf, s.search.request().moves))
        .collect();
    enc.fill_from_leaves(&leaves);
}

/// Encodes the leaf the slot's search waits on into its `leaf` buffer.
fn encode_leaf<S: GameState>(slot: &mut Slot<S>) {
    let r = slot.search.request();
    slot.leaf.encode(r.position, r.repetitions, r.moves);
    slot.leaf_ready = true;
}

/// Runs one slot's game until its search needs the network (encoding that
/// leaf when `encode`) or the game ends.
fn advance<S: GameState>(ctx: &Ctx<'_, S>, slot: &mut Slot<S>) {
    // A leaf still waiting (its half's evaluator declined last round) is
    // asked for again, not searched past.
    if slot.active.is_none() || slot.waiting {
        return;
    }
    if let Some(wdl) = slot.answer.take() {
        slot.search.provide(&slot.answer_policy, wdl);
        slot.answer_policy.clear();
    }
    loop {
        if slot.search.step(ctx.cache, &mut slot.rng) {
            slot.waiting = true;
            slot.leaf_ready = false;
            if ctx.encode {
                encode_leaf(slot);
            }
            return;
        }
        if let Some(done) = finish_move(ctx, slot) {
            slot.finished = Some(done);
            slot.active = None;
            return;
        }
        begin_move(ctx.config, slot);
    }
}

/// The search of the current position is complete: record it, play the
/// move (or resign), and return the game if it is over.
fn finish_move<S: GameState>(ctx: &Ctx<'_, S>, slot: &mut Slot<S>) -> Option<FinishedGame> {
    let (config, model_id, names) = (ctx.config, ctx.model_id, ctx.names);
    let active = slot.active.as_mut().expect("an active game");
    let pos = active.game.position().clone();
    let side = pos.side();
    // A root the MCTS-solver proved has an exact value: the proof, not the
    // visit average, is what the row records (and what the trainer may take
    // as the whole value target: docs/train.md, "proven_value_targets").
    let (value, wdl) = match slot.search.root_proof() {
        Some(v) => (v, proven_wdl(v)),
        None => (slot.search.root_value().0, slot.search.root_wdl()),
    };
    // Resignation: the root value of the side to move below the threshold
    // for `resign_plies` of its moves in a row.
    if config.resigns() {
        let low = &mut active.low[side.index()];
        *low = if value < config.resign_threshold {
            *low + 1
        } else {
            0
        };
        if *low >= config.resign_plies {
            if !active.no_resign {
                let outcome = Outcome {
                    result: GameResult::win_for(!side),
                    termination: Termination::Resignation,
                };
                return Some(close_game(active, outcome, model_id, names));
            }
            active.would_resign.get_or_insert(side);
        }
    }
    let ply = active.game.ply() as u32;
    let temperature = match config.algorithm {
        Algorithm::Gumbel => 0.0,
        Algorithm::Puct if ply < config.temperature_plies => config.temperature,
        Algorithm::Puct => config.final_temperature,
    };
    let mut mv = slot.search.choose_move(temperature, &mut slot.rng);
    // `[selfplay] random_move_share`: the searched position keeps its row,
    // but a uniformly random legal move is played. The share is tested
    // first so that a run without it draws exactly what it always drew.
    if config.random_move_share > 0.0
        && ply < config.random_move_plies
        && slot.rng.uniform() < config.random_move_share
    {
        let n = slot.search.root_moves().count() as u64;
        if n > 0 {
            let i = (slot.rng.next_u64() % n) as usize;
            if let Some(m) = slot.search.root_moves().nth(i) {
                mv = m;
            }
        }
    }
    slot.search.root_visits(&mut slot.visits);
    // Gumbel's improved policy, or PUCT's visits with forced playouts
    // pruned; else (None) the trainer normalises the visit counts.
    let has_policy = slot.search.improved_policy(&mut slot.policy)
        || slot.search.pruned_policy(&mut slot.policy);
    active.rows.push(Row {
        position: pos.to_text(),
        repetitions: active.game.repetition_count(),
        hash: pos.hash(),
        side,
        legal: slot.search.root_moves().map(|m| m.code()).collect(),
        visits: Some(slot.visits.clone()),
        policy: has_policy.then(|| slot.policy.clone()),
        value: Some(value),
        wdl: Some(wdl),
        chosen: mv.code(),
        simulations: Some(active.simulations),
        temperature,
        full: active.full,
    });
    slot.moves += 1;
    active.game.play(mv);
    slot.search.advance(mv);
    let outcome = active.game.outcome().or_else(|| {
        (active.game.ply() >= config.max_plies as usize)
            .then(|| adjudicate(config.adjudicate, ctx.adjudicator, active.game.position()))
    });
    outcome.map(|o| close_game(active, o, model_id, names))
}

/// The W/D/L of a proven value (+1, 0 or -1 for the side to move): exactly
/// one-hot, which a visit average never is (the root's own network
/// evaluation is part of it).
fn proven_wdl(v: f32) -> [f32; 3] {
    if v > 0.5 {
        [1.0, 0.0, 0.0]
    } else if v < -0.5 {
        [0.0, 0.0, 1.0]
    } else {
        [0.0, 1.0, 0.0]
    }
}

/// The outcome of a game stopped at `max_plies`: a draw, unless
/// `adjudicate` is set and the static evaluation puts one side at least
/// that far ahead.
fn adjudicate<S: GameState>(
    margin: u32,
    adjudicator: Option<&(dyn Fn(&S) -> i32 + Send + Sync)>,
    position: &S,
) -> Outcome {
    let draw = Outcome {
        result: GameResult::Draw,
        termination: Termination::MaxLength,
    };
    let Some(eval) = adjudicator.filter(|_| margin > 0).map(|f| f(position)) else {
        return draw;
    };
    let side = position.side();
    let winner = if eval >= margin as i32 {
        side
    } else if eval <= -(margin as i32) {
        !side
    } else {
        return draw;
    };
    Outcome {
        result: GameResult::win_for(winner),
        termination: Termination::Adjudication,
    }
}

fn close_game<S: GameState>(
    active: &mut Active<S>,
    outcome: Outcome,
    model_id: &str,
    names: &(Arc<str>, Arc<str>),
) -> FinishedGame {
    let length = active.game.ply() as u32;
    let records = std::mem::take(&mut active.rows)
        .into_iter()
        .enumerate()
        .map(|(ply, r)| PositionRecord {
            game: names.0.clone(),
            variant: names.1.clone(),
            game_id: active.id,
            ply: ply as u32,
            side_to_move: r.side,
            position: r.position,
            repetitions: Some(r.repetitions),
            position_hash: r.hash,
            legal_moves: r.legal,
            visits: r.visits,
            policy_target: r.policy,
            root_value: r.value,
            root_wdl: r.wdl,
            chosen_move: r.chosen,
            result: Some(outcome.result),
            termination: outcome.termination,
            game_length: length,
            model_id: model_id.to_string(),
            simulations: r.simulations,
            temperature: r.temperature,
            full_search: r.full,
            source: Source::SelfPlay,
            seed: active.seed,
        })
        .collect();
    FinishedGame {
        game_id: active.id,
        outcome,
        records,
        false_resignation: active
            .would_resign
            .map(|side| outcome.result.score_for(side) > 0.0),
    }
}
