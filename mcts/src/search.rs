//! The tree search of one game: PUCT, or Gumbel AlphaZero at the root.
//!
//! The search is a state machine so that many games can share one network:
//! [`Search::step`] runs simulations until one reaches a leaf the network
//! must evaluate (or the budget is spent); the caller batches that leaf with
//! other games' leaves, evaluates them together and hands the result back
//! with [`Search::provide`]. Terminal leaves and cache hits are resolved
//! inside `step` without a round trip.
//!
//! The tree is an arena: nodes and edges live in two vectors, an edge holds
//! its move, prior and the index of its child (created on first visit).
//! Values are kept per node from the point of view of that node's side to
//! move; an edge's value for the side choosing it is minus its child's.
//! Convention: a node's visit count is 1 (its own evaluation) plus the sum
//! of its children's visit counts, so the root has `1 + simulations`.
//! See `docs/selfplay.md` for the formulas and constants.

use crate::config::{Algorithm, SearchConfig};
use crate::eval::{cache_key, EvalCache, Evaluator, LeafHint, Request};
use crate::rng::Rng;
use game::{GameResult, GameState, History};
use std::time::Instant;

/// A node whose visits are not one more than its children's
/// ([`Search::check_visits`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("node {node}: {visits} visits, children {children}")]
pub struct VisitsError {
    /// The node's index in the tree.
    pub node: usize,
    pub visits: u32,
    /// The sum of its children's visits.
    pub children: u32,
}

const NONE: u32 = u32::MAX;

/// LCB move selection (`lcb_stdevs`) considers the root moves with at least
/// this share of the most visited move's visits (KataGo's
/// `minVisitPropForLCB`).
pub const LCB_MIN_VISIT_SHARE: f32 = 0.15;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum State {
    Unexpanded,
    Expanded,
    Terminal,
}

#[derive(Clone, Copy, Debug)]
struct Node {
    first_edge: u32,
    num_edges: u32,
    state: State,
    visits: u32,
    /// Sum of backed-up values, for this node's side to move.
    value_sum: f32,
    /// Sum of the squares of the backed-up values (their spread, for LCB
    /// move selection).
    value_sq_sum: f32,
    /// Sum of backed-up draw probabilities (the same for both sides).
    draw_sum: f32,
    /// The network's (or the rules') value and draw probability of this node.
    own_value: f32,
    own_draw: f32,
}

impl Node {
    fn new() -> Node {
        Node {
            first_edge: 0,
            num_edges: 0,
            state: State::Unexpanded,
            visits: 0,
            value_sum: 0.0,
            value_sq_sum: 0.0,
            draw_sum: 0.0,
            own_value: 0.0,
            own_draw: 0.0,
        }
    }
}

#[derive(Clone, Copy, Debug)]
struct Edge<M> {
    mv: M,
    /// The prior the search uses (the network's, plus noise at a noisy root).
    prior: f32,
    /// The network's prior, kept so noise can be reset when a subtree is reused.
    raw_prior: f32,
    child: u32,
}

/// One root move's statistics ([`Search::root_stats`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MoveStats<M> {
    /// The move.
    pub mv: M,
    /// Visits of its subtree.
    pub visits: u32,
    /// Mean value in [-1, 1] for the side to move at the root (0 unvisited).
    pub value: f32,
    /// Mean draw probability of its subtree (0 unvisited).
    pub draw: f32,
    /// The network's prior of the move.
    pub prior: f32,
    /// Its result proven by the MCTS-solver for the side to move at the
    /// root (+1, 0, -1), when proven.
    pub proven: Option<f32>,
}

/// What one move's search is asked to do.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SearchParams {
    /// Simulation budget. PUCT counts visits reused from the previous move;
    /// Gumbel always starts a fresh root.
    pub simulations: u32,
    /// Dirichlet noise at the root (PUCT full searches).
    pub noise: bool,
}

/// The search constants taken from the [`SearchConfig`], as the search
/// applies them (tree reuse and forced playouts only with PUCT).
#[derive(Clone, Debug)]
struct Settings {
    algorithm: Algorithm,
    c_puct: f32,
    fpu_reduction: f32,
    root_fpu_reduction: f32,
    dirichlet_alpha: f32,
    dirichlet_epsilon: f32,
    gumbel_m: u32,
    c_visit: f32,
    c_scale: f32,
    tree_reuse: bool,
    mate_check: bool,
    solver: bool,
    forced_k: f32,
    lcb_stdevs: f32,
}

/// The search of one game. Reusable from move to move: its buffers keep
/// their capacity, so after the first moves a simulation allocates nothing.
pub struct Search<S: GameState> {
    s: Settings,
    nodes: Vec<Node>,
    edges: Vec<Edge<S::Move>>,
    spare_nodes: Vec<Node>,
    spare_edges: Vec<Edge<S::Move>>,
    stack: Vec<(u32, u32)>,
    root_pos: S,
    /// The game's position hashes, then those of the current path.
    history: Vec<u64>,
    game_len: usize,
    params: SearchParams,
    /// Simulations completed in this search (not counting reused visits).
    sims: u32,
    /// The wall-clock time at which this search stops once it has run a
    /// simulation ([`Search::stop_at`]); `None`: the budget alone.
    deadline: Option<Instant>,
    prepared: bool,
    waiting: bool,
    path: Vec<u32>,
    leaf_pos: S,
    leaf_moves: Vec<S::Move>,
    leaf_reps: u8,
    leaf_key: u64,
    /// Gumbel root state: one Gumbel sample and log-prior per root edge,
    /// the visit schedule of sequential halving.
    gumbel: Vec<f32>,
    logits: Vec<f32>,
    schedule: Vec<u32>,
    scratch: Vec<f32>,
    /// Leaves resolved from the cache.
    pub cache_hits: u64,
    /// Leaves resolved by the rules (mate, draw).
    pub terminal_hits: u64,
    /// Expanded nodes found to have a mating move (`mate_check`).
    pub mate_hits: u64,
    /// Nodes proven by the MCTS-solver from their children (`solver`).
    pub proofs: u64,
    /// The leaf hint and its weight in a leaf's value (`leaf_eval_weight`).
    hint: Option<(f32, Box<dyn LeafHint<S>>)>,
}

/// The `n` target visit counts of Gumbel sequential halving over `m`
/// actions (as in DeepMind's mctx): simulation k visits the best-scoring
/// considered action whose visit count equals `out[k]`. Phases of
/// `max(1, n / (ceil(log2 m) · considered))` visits per considered action,
/// halving the considered actions (down to 2) after each phase.
pub fn gumbel_schedule(m: u32, n: u32, out: &mut Vec<u32>) {
    out.clear();
    let (m, n) = (m as usize, n as usize);
    if m <= 1 {
        out.extend(0..n as u32);
        return;
    }
    let log2max = (m as f64).log2().ceil() as usize;
    let mut visits = vec![0u32; m];
    let mut considered = m;
    while out.len() < n {
        let extra = (n / (log2max * considered)).max(1);
        for _ in 0..extra {
            out.extend_from_slice(&visits[..considered]);
            for v in &mut visits[..considered] {
                *v += 1;
            }
        }
        considered = (considered / 2).max(2);
    }
    out.truncate(n);
}

impl<S: GameState> Search<S> {
    /// A search with the constants of `config`. `start` is any position of
    /// the game (the buffers' first contents; [`Search::begin`] sets the
    /// root).
    ///
    /// `hint` is the leaf hint, mixed into every expanded leaf's value with
    /// weight `w = config.leaf_eval_weight` (clamped to 1): value
    /// `(1 - w)·(W - L) + w·(2p - 1)`, draw probability `(1 - w)·D` (the
    /// hint says nothing of draws). Terminal and mated leaves keep their
    /// exact values, and the evaluation cache keeps the network's own
    /// answer, so the mix is the same on a hit. With weight 0 the hint is
    /// dropped (`None` will do); a weight above 0 without a hint is a bug of
    /// the caller and panics, so that no caller can lose the hint unseen.
    pub fn new(config: &SearchConfig, start: &S, hint: Option<Box<dyn LeafHint<S>>>) -> Search<S> {
        let w = config.leaf_eval_weight;
        let hinted = w > 0.0;
        assert!(
            !hinted || hint.is_some(),
            "leaf_eval_weight {w} needs a leaf hint (Search::new got none)"
        );
        Search {
            s: Settings {
                algorithm: config.algorithm,
                c_puct: config.c_puct,
                fpu_reduction: config.fpu_reduction,
                root_fpu_reduction: config.root_fpu_reduction,
                dirichlet_alpha: config.dirichlet_alpha,
                dirichlet_epsilon: config.dirichlet_epsilon,
                gumbel_m: config.gumbel_m,
                c_visit: config.gumbel_c_visit,
                c_scale: config.gumbel_c_scale,
                tree_reuse: config.tree_reuse && config.algorithm == Algorithm::Puct,
                mate_check: config.mate_check,
                solver: config.solver,
                forced_k: if config.algorithm == Algorithm::Puct {
                    config.forced_playouts
                } else {
                    0.0
                },
                lcb_stdevs: if config.algorithm == Algorithm::Puct {
                    config.lcb_stdevs.max(0.0)
                } else {
                    0.0
                },
            },
            nodes: Vec::new(),
            edges: Vec::new(),
            spare_nodes: Vec::new(),
            spare_edges: Vec::new(),
            stack: Vec::new(),
            root_pos: start.clone(),
            history: Vec::new(),
            game_len: 0,
            params: SearchParams {
                simulations: 1,
                noise: false,
            },
            sims: 0,
            deadline: None,
            prepared: false,
            waiting: false,
            path: Vec::new(),
            leaf_pos: start.clone(),
            leaf_moves: Vec::new(),
            leaf_reps: 1,
            leaf_key: 0,
            gumbel: Vec::new(),
            logits: Vec::new(),
            schedule: Vec::new(),
            scratch: Vec::new(),
            cache_hits: 0,
            terminal_hits: 0,
            mate_hits: 0,
            proofs: 0,
            hint: hint.filter(|_| hinted).map(|h| (w.min(1.0), h)),
        }
    }

    /// Forgets the tree (a new game).
    pub fn reset(&mut self) {
        self.nodes.clear();
        self.edges.clear();
    }

    /// Starts a search of the game's current position, which must not be
    /// over. Keeps the tree left by [`Search::advance`] if there is one.
    /// The search has no deadline until [`Search::stop_at`] gives it one.
    pub fn begin(&mut self, game: &History<S>, params: SearchParams) {
        self.root_pos.clone_from(game.position());
        self.history.clear();
        self.history.extend_from_slice(game.hashes());
        self.game_len = self.history.len();
        self.params = params;
        self.sims = 0;
        self.deadline = None;
        self.prepared = false;
        self.waiting = false;
        if self.nodes.is_empty() {
            self.nodes.push(Node::new());
        }
    }

    /// Simulations run by this search so far.
    pub fn simulations(&self) -> u32 {
        self.sims
    }

    /// Gives the search under way (after [`Search::begin`]) a deadline:
    /// once it has run at least one simulation, [`Search::step`] stops at
    /// the first simulation that ends at or after `deadline`, as it stops
    /// when the budget is spent (a time-limited player, `net:…,movetime=`).
    /// The clock is read once a simulation, only by a search with a
    /// deadline; a leaf already handed out is answered first, so a search
    /// overruns its deadline by at most one simulation.
    pub fn stop_at(&mut self, deadline: Instant) {
        self.deadline = Some(deadline);
    }

    fn done(&self) -> bool {
        let spent = match self.s.algorithm {
            Algorithm::Puct => self.nodes[0].visits > self.params.simulations,
            Algorithm::Gumbel => self.sims >= self.params.simulations,
        };
        spent
            || self
                .deadline
                .is_some_and(|d| self.sims > 0 && Instant::now() >= d)
    }

    /// Runs simulations until one needs the network (true: read
    /// [`Search::request`], then call [`Search::provide`]) or the budget is
    /// spent (false).
    pub fn step(&mut self, cache: Option<&EvalCache>, rng: &mut Rng) -> bool {
        debug_assert!(
            !self.waiting,
            "step called while a leaf awaits its evaluation"
        );
        loop {
            if self.nodes[0].state == State::Unexpanded {
                self.path.clear();
                self.path.push(0);
                self.leaf_pos.clone_from(&self.root_pos);
                self.history.truncate(self.game_len);
                if self.resolve_leaf(cache) {
                    return true;
                }
                continue;
            }
            if !self.prepared {
                self.prepare(rng);
            }
            if self.done() {
                return false;
            }
            // Selection.
            self.path.clear();
            self.path.push(0);
            self.leaf_pos.clone_from(&self.root_pos);
            self.history.truncate(self.game_len);
            let mut node = 0u32;
            loop {
                match self.nodes[node as usize].state {
                    State::Terminal => break,
                    State::Unexpanded => break,
                    State::Expanded => {}
                }
                let e = if node == 0 {
                    match self.s.algorithm {
                        Algorithm::Puct => self
                            .forced_root_edge()
                            .unwrap_or_else(|| self.select_puct(0, self.s.root_fpu_reduction)),
                        Algorithm::Gumbel => self.select_gumbel_root(),
                    }
                } else {
                    self.select_puct(node, self.s.fpu_reduction)
                };
                let mv = self.edges[e].mv;
                self.leaf_pos.apply(mv);
                self.history.push(self.leaf_pos.hash());
                let mut child = self.edges[e].child;
                if child == NONE {
                    child = self.nodes.len() as u32;
                    self.nodes.push(Node::new());
                    self.edges[e].child = child;
                }
                self.path.push(child);
                node = child;
            }
            let leaf = &self.nodes[node as usize];
            if leaf.state == State::Terminal {
                let (v, d) = (leaf.own_value, leaf.own_draw);
                self.terminal_hits += 1;
                self.backup(v, d);
                continue;
            }
            if self.resolve_leaf(cache) {
                return true;
            }
        }
    }

    /// The leaf at the end of `path` (position in `leaf_pos`): resolved by
    /// the rules or the cache (false), or left waiting for the network (true).
    fn resolve_leaf(&mut self, cache: Option<&EvalCache>) -> bool {
        let leaf = *self.path.last().expect("path has the root") as usize;
        self.leaf_pos.legal_moves(&mut self.leaf_moves);
        let reps = game::repetitions(&self.history, self.leaf_pos.reversible_plies());
        // The rules are the game's (`GameState::terminal`): values for the
        // leaf's side to move.
        let terminal = self
            .leaf_pos
            .terminal(!self.leaf_moves.is_empty(), reps)
            .map(|o| match o.result {
                GameResult::Draw => (0.0, 1.0),
                r if r == GameResult::win_for(self.leaf_pos.side()) => (1.0, 0.0),
                _ => (-1.0, 0.0),
            });
        if let Some((v, d)) = terminal {
            debug_assert!(leaf != 0, "the root of a search is never over");
            let n = &mut self.nodes[leaf];
            n.state = State::Terminal;
            n.own_value = v;
            n.own_draw = d;
            self.terminal_hits += 1;
            self.backup(v, d);
            self.propagate_proof();
            return false;
        }
        self.leaf_reps = reps.min(255) as u8;
        self.leaf_key = cache_key(&self.leaf_pos, self.leaf_reps);
        if let Some((policy, wdl)) = cache.and_then(|c| c.get(self.leaf_key, self.leaf_moves.len()))
        {
            self.cache_hits += 1;
            self.expand(leaf, policy, wdl);
            return false;
        }
        self.waiting = true;
        true
    }

    /// The leaf waiting for the network.
    pub fn request(&self) -> Request<'_, S> {
        debug_assert!(self.waiting);
        Request {
            position: &self.leaf_pos,
            repetitions: self.leaf_reps,
            moves: &self.leaf_moves,
        }
    }

    /// The cache key of the waiting leaf.
    pub fn request_key(&self) -> u64 {
        self.leaf_key
    }

    /// Hands the network's answer for the waiting leaf back.
    pub fn provide(&mut self, policy: &[f32], wdl: [f32; 3]) {
        debug_assert!(self.waiting);
        self.waiting = false;
        let leaf = *self.path.last().expect("path has the root") as usize;
        self.expand(leaf, policy, wdl);
    }

    /// Index in `leaf_moves` of a move that mates at once, if any.
    fn mating_move(&self) -> Option<usize> {
        self.leaf_moves
            .iter()
            .position(|&mv| self.leaf_pos.is_winning_move(mv))
    }

    fn expand(&mut self, leaf: usize, policy: &[f32], wdl: [f32; 3]) {
        let mating = if self.s.mate_check {
            self.mating_move()
        } else {
            None
        };
        if mating.is_some() {
            self.mate_hits += 1;
            if leaf != 0 {
                // A proven win for the side to move: exact, like a rules
                // terminal, and never searched below.
                let n = &mut self.nodes[leaf];
                n.state = State::Terminal;
                n.own_value = 1.0;
                n.own_draw = 0.0;
                self.backup(1.0, 0.0);
                self.propagate_proof();
                return;
            }
        }
        let first = self.edges.len() as u32;
        for (i, &mv) in self.leaf_moves.iter().enumerate() {
            // At the root the mating move gets the whole prior mass: PUCT
            // and Gumbel's top-m both search it first, and its first visit
            // returns the exact win.
            let p = if mating == Some(i) {
                1.0
            } else {
                policy.get(i).copied().unwrap_or(0.0)
            };
            self.edges.push(Edge {
                mv,
                prior: p,
                raw_prior: p,
                child: NONE,
            });
        }
        let (mut v, mut d) = (wdl[0] - wdl[2], wdl[1]);
        if let Some((w, hint)) = self.hint.as_mut() {
            let p = hint.win_probability(&self.leaf_pos).clamp(0.0, 1.0);
            v = (1.0 - *w) * v + *w * (2.0 * p - 1.0);
            d *= 1.0 - *w;
        }
        let n = &mut self.nodes[leaf];
        n.first_edge = first;
        n.num_edges = self.leaf_moves.len() as u32;
        n.state = State::Expanded;
        n.own_value = v;
        n.own_draw = d;
        self.backup(v, d);
    }

    /// Adds a simulation's result to every node of the path; `v` is for the
    /// leaf's side to move and changes sign at each ply up.
    fn backup(&mut self, mut v: f32, d: f32) {
        if self.path.len() > 1 {
            self.sims += 1;
        }
        for &i in self.path.iter().rev() {
            let n = &mut self.nodes[i as usize];
            n.visits += 1;
            n.value_sum += v;
            n.value_sq_sum += v * v;
            n.draw_sum += d;
            v = -v;
        }
    }

    /// The MCTS-solver (`solver`): the node at the end of `path` has just
    /// been proven (by the rules, the mate check, or a proof below it);
    /// proves its ancestors where that decides them. A node is a proven win
    /// for its side to move when one child is a proven loss for the
    /// opponent, and proven at the best of its children's values when every
    /// child is proven. A proven node becomes terminal: later simulations
    /// stop there and back up its exact value. The root is never marked
    /// (its search goes on); [`Search::choose_move`] reads its children.
    fn propagate_proof(&mut self) {
        if !self.s.solver {
            return;
        }
        for k in (1..self.path.len().saturating_sub(1)).rev() {
            let node = self.path[k] as usize;
            let child = self.path[k + 1] as usize;
            debug_assert_eq!(self.nodes[child].state, State::Terminal);
            let value = if self.nodes[child].own_value <= -1.0 {
                Some(1.0)
            } else {
                self.all_children_proven(node)
            };
            let Some(v) = value else {
                return;
            };
            let n = &mut self.nodes[node];
            n.state = State::Terminal;
            n.own_value = v;
            n.own_draw = if v == 0.0 { 1.0 } else { 0.0 };
            self.proofs += 1;
        }
    }

    /// The value of `node` for its side to move if every child is proven
    /// (the best of the children's values), else `None`.
    fn all_children_proven(&self, node: usize) -> Option<f32> {
        let n = &self.nodes[node];
        let mut best = f32::NEG_INFINITY;
        for e in &self.edges[n.first_edge as usize..(n.first_edge + n.num_edges) as usize] {
            let c = self.nodes.get(e.child as usize)?;
            if c.state != State::Terminal {
                return None;
            }
            best = best.max(-c.own_value);
        }
        best.is_finite().then_some(best)
    }

    /// A proven result of root edge `e` for the side to move at the root:
    /// +1 a proven win, 0 a proven draw, -1 a proven loss (`solver` only).
    fn proven_edge(&self, e: &Edge<S::Move>) -> Option<f32> {
        if !self.s.solver || e.child == NONE {
            return None;
        }
        let c = &self.nodes[e.child as usize];
        (c.state == State::Terminal).then_some(-c.own_value)
    }

    /// Root set-up once the root is expanded: priors reset to the network's
    /// (dropping noise left from a reused subtree), then Dirichlet noise or
    /// the Gumbel samples and schedule.
    fn prepare(&mut self, rng: &mut Rng) {
        self.prepared = true;
        let root = self.nodes[0];
        let range = root.first_edge as usize..(root.first_edge + root.num_edges) as usize;
        for e in &mut self.edges[range.clone()] {
            e.prior = e.raw_prior;
        }
        match self.s.algorithm {
            Algorithm::Puct => {
                if self.params.noise && self.s.dirichlet_epsilon > 0.0 && range.len() > 1 {
                    self.scratch.resize(range.len(), 0.0);
                    rng.dirichlet(self.s.dirichlet_alpha as f64, &mut self.scratch);
                    let eps = self.s.dirichlet_epsilon;
                    for (e, &n) in self.edges[range].iter_mut().zip(&self.scratch) {
                        e.prior = (1.0 - eps) * e.raw_prior + eps * n;
                    }
                }
            }
            Algorithm::Gumbel => {
                self.gumbel.clear();
                self.logits.clear();
                for e in &self.edges[range.clone()] {
                    self.gumbel.push(rng.gumbel());
                    self.logits.push(e.raw_prior.max(1e-30).ln());
                }
                let m = self.s.gumbel_m.min(range.len() as u32);
                gumbel_schedule(m, self.params.simulations, &mut self.schedule);
            }
        }
    }

    /// Child visits and mean value for the side choosing edge `e`.
    #[inline]
    fn edge_stats(&self, e: &Edge<S::Move>) -> (u32, f32) {
        if e.child == NONE {
            return (0, 0.0);
        }
        let c = &self.nodes[e.child as usize];
        if c.visits == 0 {
            (0, 0.0)
        } else if c.state == State::Terminal {
            // Exact: a node proven by the solver keeps the estimates backed
            // up before its proof in `value_sum`.
            (c.visits, -c.own_value)
        } else {
            (c.visits, -c.value_sum / c.visits as f32)
        }
    }

    /// PUCT: argmax of `Q + c·P·sqrt(N)/(1+n)`, with first-play urgency
    /// `Q_parent − reduction·sqrt(visited prior mass)` for unvisited moves.
    fn select_puct(&self, node: u32, reduction: f32) -> usize {
        let n = &self.nodes[node as usize];
        let first = n.first_edge as usize;
        let edges = &self.edges[first..first + n.num_edges as usize];
        let parent_q = n.value_sum / n.visits.max(1) as f32;
        let mut visited_mass = 0.0;
        for e in edges {
            if self.edge_stats(e).0 > 0 {
                visited_mass += e.prior;
            }
        }
        let fpu = parent_q - reduction * visited_mass.sqrt();
        let explore = self.s.c_puct * (n.visits as f32).sqrt();
        let mut best = first;
        let mut best_score = f32::NEG_INFINITY;
        for (i, e) in edges.iter().enumerate() {
            // MCTS-solver: a move proven lost is never searched again
            // (its value is exact); its unproven siblings get the visits,
            // so the node can be proven (every move lost) or saved.
            if self.proven_edge(e) == Some(-1.0) {
                continue;
            }
            let (visits, q) = self.edge_stats(e);
            let q = if visits == 0 { fpu } else { q };
            let score = q + explore * e.prior / (1 + visits) as f32;
            if score > best_score {
                best_score = score;
                best = first + i;
            }
        }
        best
    }

    /// Whether this search uses forced playouts: PUCT with root noise (the
    /// full searches of self-play) and `forced_playouts > 0`.
    fn forcing(&self) -> bool {
        self.s.forced_k > 0.0 && self.params.noise
    }

    /// Forced playouts (KataGo): the first visited root edge, in legal-move
    /// order, with fewer than `sqrt(k · P · N)` visits, `N` the visits below
    /// the root. Unvisited moves are left to PUCT, as in KataGo.
    fn forced_root_edge(&self) -> Option<usize> {
        if !self.forcing() {
            return None;
        }
        let r = &self.nodes[0];
        let below = r.visits.saturating_sub(1) as f32;
        let first = r.first_edge as usize;
        (first..first + r.num_edges as usize).find(|&i| {
            let e = &self.edges[i];
            let n = self.edge_stats(e).0;
            n > 0 && (n as f32) < (self.s.forced_k * e.prior * below).sqrt()
        })
    }

    /// The root's visit counts with forced playouts taken back out
    /// (KataGo's policy-target pruning), into `out` in legal-move order.
    /// The most visited move keeps its count; every other loses up to its
    /// `sqrt(k · P · N)` forced visits, but no more than keeps its PUCT score
    /// below the best move's (visits PUCT would have given anyway stay);
    /// a move left with one visit or fewer gets 0. Without forced
    /// playouts, the plain visit counts.
    pub fn pruned_visits(&self, out: &mut Vec<f32>) {
        out.clear();
        let r = &self.nodes[0];
        let first = r.first_edge as usize;
        let edges = &self.edges[first..first + r.num_edges as usize];
        out.extend(edges.iter().map(|e| self.edge_stats(e).0 as f32));
        if !self.forcing() {
            return;
        }
        let Some(best) = (0..out.len()).max_by(|&a, &b| out[a].total_cmp(&out[b]).then(b.cmp(&a)))
        else {
            return;
        };
        let below = r.visits.saturating_sub(1) as f32;
        let explore = self.s.c_puct * (r.visits as f32).sqrt();
        let (best_n, best_q) = self.edge_stats(&edges[best]);
        let best_score = best_q + explore * edges[best].prior / (1 + best_n) as f32;
        for (i, e) in edges.iter().enumerate() {
            let (n, q) = self.edge_stats(e);
            if i == best || n == 0 {
                continue;
            }
            let forced = (self.s.forced_k * e.prior * below).sqrt();
            let gap = best_score - q;
            // Fewest visits at which PUCT still scores this move below the
            // best one: q + explore·P/(1 + n') ≤ best_score.
            let needed = if gap > 0.0 {
                explore * e.prior / gap - 1.0
            } else {
                n as f32
            };
            let kept = (n as f32 - forced).max(needed.ceil()).clamp(0.0, n as f32);
            out[i] = if kept <= 1.0 { 0.0 } else { kept };
        }
    }

    /// The pruned visit counts as a distribution (the row's policy target)
    /// when forced playouts were used; false (nothing written) otherwise.
    pub fn pruned_policy(&self, out: &mut Vec<f32>) -> bool {
        if !self.forcing() {
            return false;
        }
        self.pruned_visits(out);
        let sum: f32 = out.iter().sum();
        if sum <= 0.0 {
            return false;
        }
        for x in out.iter_mut() {
            *x /= sum;
        }
        true
    }

    /// Gumbel's completed Q of every root edge, mapped to [0, 1] and put
    /// through `sigma(q) = (c_visit + max n) · c_scale · q`, into `scratch`.
    /// Unvisited moves get `v_mix`, the network value blended with the
    /// prior-weighted mean Q of the visited ones.
    fn root_sigma_q(&mut self) {
        let root = self.nodes[0];
        let first = root.first_edge as usize;
        let count = root.num_edges as usize;
        let (mut sum_n, mut max_n, mut mass, mut weighted) = (0u32, 0u32, 0.0f32, 0.0f32);
        for e in &self.edges[first..first + count] {
            let (n, q) = self.edge_stats(e);
            sum_n += n;
            max_n = max_n.max(n);
            if n > 0 {
                mass += e.raw_prior;
                weighted += e.raw_prior * q;
            }
        }
        let v_mix = if sum_n > 0 && mass > 0.0 {
            (root.own_value + sum_n as f32 / mass * weighted) / (1.0 + sum_n as f32)
        } else {
            root.own_value
        };
        let scale = (self.s.c_visit + max_n as f32) * self.s.c_scale;
        self.scratch.clear();
        for i in 0..count {
            let (n, q) = self.edge_stats(&self.edges[first + i]);
            let q = if n > 0 { q } else { v_mix };
            self.scratch.push(scale * (q + 1.0) / 2.0);
        }
    }

    /// Gumbel root: among the moves whose visit count is the schedule's
    /// target for this simulation, the best `g + logit + sigma(q)`.
    fn select_gumbel_root(&mut self) -> usize {
        let target = self.schedule[(self.sims as usize).min(self.schedule.len() - 1)];
        self.best_gumbel(|n| n == target)
            .or_else(|| self.best_gumbel(|_| true))
            .expect("the root has moves")
    }

    /// The root edge maximising `g + logit + sigma(q)` among those whose
    /// visit count passes `keep`.
    fn best_gumbel(&mut self, keep: impl Fn(u32) -> bool) -> Option<usize> {
        self.root_sigma_q();
        let first = self.nodes[0].first_edge as usize;
        let mut best = None;
        let mut best_score = f32::NEG_INFINITY;
        for i in 0..self.scratch.len() {
            let (n, _) = self.edge_stats(&self.edges[first + i]);
            if !keep(n) {
                continue;
            }
            let score = self.gumbel[i] + self.logits[i] + self.scratch[i];
            if best.is_none() || score > best_score {
                best_score = score;
                best = Some(first + i);
            }
        }
        best
    }

    /// The root's moves, in legal-move order.
    pub fn root_moves(&self) -> impl Iterator<Item = S::Move> + '_ {
        let r = &self.nodes[0];
        self.edges[r.first_edge as usize..(r.first_edge + r.num_edges) as usize]
            .iter()
            .map(|e| e.mv)
    }

    /// Visit counts of the root's moves, in legal-move order.
    pub fn root_visits(&self, out: &mut Vec<u32>) {
        out.clear();
        let r = &self.nodes[0];
        for e in &self.edges[r.first_edge as usize..(r.first_edge + r.num_edges) as usize] {
            out.push(self.edge_stats(e).0);
        }
    }

    /// The root's result proven by the solver, for its side to move: +1
    /// when one move is a proven win, else the best value when every move is
    /// proven, else (and always without `solver`) `None`.
    pub fn root_proof(&self) -> Option<f32> {
        let r = &self.nodes[0];
        let mut best = f32::NEG_INFINITY;
        let mut all = true;
        for e in &self.edges[r.first_edge as usize..(r.first_edge + r.num_edges) as usize] {
            match self.proven_edge(e) {
                Some(v) if v >= 1.0 => return Some(1.0),
                Some(v) => best = best.max(v),
                // Not decided yet: a later move may still be a proven win.
                None => all = false,
            }
        }
        (all && best.is_finite()).then_some(best)
    }

    /// Each root move's statistics, in legal-move order, for analysis
    /// (`triad analysis`): visits, the mean value and draw share for the
    /// side to move at the root, the network's prior, and the result
    /// proven by the solver if any.
    pub fn root_stats(&self, out: &mut Vec<MoveStats<S::Move>>) {
        out.clear();
        let r = &self.nodes[0];
        for e in &self.edges[r.first_edge as usize..(r.first_edge + r.num_edges) as usize] {
            let (visits, value) = self.edge_stats(e);
            out.push(MoveStats {
                mv: e.mv,
                visits,
                value,
                draw: self.node_draw(e.child),
                prior: e.raw_prior,
                proven: self.proven_edge(e),
            });
        }
    }

    /// The principal variation that starts with root move `first`: `first`,
    /// then the most visited move of each node below, while a node has
    /// visited children, at most `max_len` moves, into `out`.
    pub fn principal_variation(&self, first: S::Move, max_len: usize, out: &mut Vec<S::Move>) {
        out.clear();
        let r = &self.nodes[0];
        let mut edge = self.edges[r.first_edge as usize..(r.first_edge + r.num_edges) as usize]
            .iter()
            .find(|e| e.mv == first);
        while let Some(e) = edge {
            if out.len() >= max_len {
                break;
            }
            out.push(e.mv);
            let Some(n) = self.nodes.get(e.child as usize) else {
                break;
            };
            if n.state != State::Expanded {
                break;
            }
            edge = self.edges[n.first_edge as usize..(n.first_edge + n.num_edges) as usize]
                .iter()
                .filter(|c| self.edge_stats(c).0 > 0)
                .max_by_key(|c| self.edge_stats(c).0);
        }
    }

    /// The network's own value of the root for its side to move and its
    /// draw probability (before any search below it).
    pub fn root_network_value(&self) -> (f32, f32) {
        let r = &self.nodes[0];
        (r.own_value, r.own_draw)
    }

    /// The mean draw share backed up through node `child` (0 when unvisited).
    fn node_draw(&self, child: u32) -> f32 {
        match self.nodes.get(child as usize) {
            Some(c) if c.state == State::Terminal => c.own_draw,
            Some(c) if c.visits > 0 => c.draw_sum / c.visits as f32,
            _ => 0.0,
        }
    }

    /// Visits of the root (1 + the sum of its children's visits).
    pub fn root_visit_count(&self) -> u32 {
        self.nodes[0].visits
    }

    /// Search value of the root for its side to move and its draw share:
    /// the mean of every backed-up value.
    pub fn root_value(&self) -> (f32, f32) {
        let r = &self.nodes[0];
        let n = r.visits.max(1) as f32;
        (r.value_sum / n, r.draw_sum / n)
    }

    /// Win, draw, loss for the side to move from the root value and draw share.
    pub fn root_wdl(&self) -> [f32; 3] {
        let (v, d) = self.root_value();
        let w = ((1.0 + v - d) / 2.0).clamp(0.0, 1.0);
        let l = ((1.0 - v - d) / 2.0).clamp(0.0, 1.0);
        [w, d.clamp(0.0, 1.0), l]
    }

    /// Gumbel's improved policy `softmax(logit + sigma(completed Q))`, one
    /// per root move; `None` for PUCT.
    pub fn improved_policy(&mut self, out: &mut Vec<f32>) -> bool {
        if self.s.algorithm != Algorithm::Gumbel {
            return false;
        }
        self.root_sigma_q();
        out.clear();
        let mut max = f32::NEG_INFINITY;
        for (l, s) in self.logits.iter().zip(&self.scratch) {
            out.push(l + s);
            max = max.max(l + s);
        }
        let mut sum = 0.0;
        for x in out.iter_mut() {
            *x = (*x - max).exp();
            sum += *x;
        }
        for x in out.iter_mut() {
            *x /= sum;
        }
        true
    }

    /// The move to play. PUCT: visit counts to the power `1/temperature`
    /// (the most visited move at temperature 0, ties to the better Q).
    /// Gumbel: among the most visited moves, the best `g + logit + sigma(q)`
    /// (the Gumbel samples already provide the exploration).
    ///
    /// With the solver, a proven win is played at once and a proven loss
    /// only when every move is one.
    pub fn choose_move(&mut self, temperature: f32, rng: &mut Rng) -> S::Move {
        let r = self.nodes[0];
        let first = r.first_edge as usize;
        let count = r.num_edges as usize;
        let edges = &self.edges[first..first + count];
        if let Some(e) = edges.iter().find(|e| self.proven_edge(e) == Some(1.0)) {
            return e.mv;
        }
        let all_lost = self.s.solver && edges.iter().all(|e| self.proven_edge(e) == Some(-1.0));
        if self.s.algorithm == Algorithm::Gumbel {
            let max_n = (0..count)
                .map(|i| self.edge_stats(&self.edges[first + i]).0)
                .max()
                .unwrap_or(0);
            let e = self
                .best_gumbel(|n| n == max_n)
                .expect("the root has moves");
            return self.edges[e].mv;
        }
        // Visit counts, with forced playouts taken back out when used.
        let mut weights = std::mem::take(&mut self.scratch);
        self.pruned_visits(&mut weights);
        let avoid = |i: usize| !all_lost && self.proven_edge(&self.edges[first + i]) == Some(-1.0);
        let mut best = 0;
        let mut best_key = (0.0f32, f32::NEG_INFINITY);
        for (i, &n) in weights.iter().enumerate() {
            if avoid(i) {
                continue;
            }
            let q = self.edge_stats(&self.edges[first + i]).1;
            if n > best_key.0 || (n == best_key.0 && q > best_key.1) {
                best_key = (n, q);
                best = i;
            }
        }
        if temperature <= 0.0 && self.s.lcb_stdevs > 0.0 {
            best = self.lcb_choice(&weights, best, avoid);
        }
        let mut chosen = best;
        if temperature > 0.0 && best_key.0 > 0.0 {
            let inv = 1.0 / temperature as f64;
            let max = best_key.0 as f64;
            let weight = |i: usize| {
                if avoid(i) {
                    0.0
                } else {
                    (weights[i] as f64 / max).powf(inv)
                }
            };
            let total: f64 = (0..count).map(weight).sum();
            let mut x = rng.uniform() * total;
            for i in 0..count {
                let w = weight(i);
                if w > 0.0 && x < w {
                    chosen = i;
                    break;
                }
                x -= w;
            }
        }
        self.scratch = weights;
        self.edges[first + chosen].mv
    }

    /// LCB move selection (`lcb_stdevs`): among the root moves not avoided
    /// with at least [`LCB_MIN_VISIT_SHARE`] of `most`'s count in
    /// `weights`, the one with the highest lower confidence bound
    /// ([`Search::edge_lcb`]); `most` (the most visited move) on ties.
    fn lcb_choice(&self, weights: &[f32], most: usize, avoid: impl Fn(usize) -> bool) -> usize {
        let first = self.nodes[0].first_edge as usize;
        let floor = LCB_MIN_VISIT_SHARE * weights[most];
        let mut best = most;
        let mut best_lcb = self.edge_lcb(&self.edges[first + most]);
        for (i, &n) in weights.iter().enumerate() {
            if i == most || avoid(i) || n <= 0.0 || n < floor {
                continue;
            }
            let lcb = self.edge_lcb(&self.edges[first + i]);
            if lcb > best_lcb {
                best_lcb = lcb;
                best = i;
            }
        }
        best
    }

    /// The lower confidence bound of edge `e`'s value for the side choosing
    /// it: its mean value less `lcb_stdevs` standard errors of the mean,
    /// the variance taken from the backed-up values' squares with KataGo's
    /// small prior towards the widest spread (weight `1/n²`, so one or two
    /// visits never look certain). A proven child is exact (no radius); an
    /// unvisited one is at the bottom of the range.
    fn edge_lcb(&self, e: &Edge<S::Move>) -> f32 {
        let (n, mean) = self.edge_stats(e);
        if n == 0 {
            return -1.0 - 2.0 * self.s.lcb_stdevs;
        }
        let c = &self.nodes[e.child as usize];
        if c.state == State::Terminal {
            return mean;
        }
        let w = n as f32;
        let prior_w = 1.0 / (w * w);
        let sq = (c.value_sq_sum / w).max(mean * mean + 1e-8);
        let sq = (sq * w + (sq + 1.0) * prior_w) / (w + prior_w);
        let ess = (w + prior_w) * (w + prior_w) / (w + prior_w * prior_w);
        let variance = (sq - mean * mean).max(0.0);
        mean - self.s.lcb_stdevs * (variance / ess).sqrt()
    }

    /// The move `m` was played: keep its subtree as the next root (PUCT with
    /// tree reuse; the subtree is copied into the spare arena, so the arena
    /// holds only live nodes) or drop the tree.
    pub fn advance(&mut self, m: S::Move) {
        let child = if self.s.tree_reuse && !self.nodes.is_empty() {
            let r = self.nodes[0];
            self.edges[r.first_edge as usize..(r.first_edge + r.num_edges) as usize]
                .iter()
                .find(|e| e.mv == m)
                .map(|e| e.child)
                .unwrap_or(NONE)
        } else {
            NONE
        };
        if child == NONE || self.nodes[child as usize].state != State::Expanded {
            self.reset();
            return;
        }
        self.spare_nodes.clear();
        self.spare_edges.clear();
        self.stack.clear();
        self.spare_nodes.push(self.nodes[child as usize]);
        self.stack.push((child, 0));
        while let Some((old, new)) = self.stack.pop() {
            let n = self.nodes[old as usize];
            if n.state != State::Expanded {
                continue;
            }
            let new_first = self.spare_edges.len() as u32;
            for i in n.first_edge..n.first_edge + n.num_edges {
                let mut e = self.edges[i as usize];
                if e.child != NONE {
                    let idx = self.spare_nodes.len() as u32;
                    self.spare_nodes.push(self.nodes[e.child as usize]);
                    self.stack.push((e.child, idx));
                    e.child = idx;
                }
                self.spare_edges.push(e);
            }
            self.spare_nodes[new as usize].first_edge = new_first;
        }
        std::mem::swap(&mut self.nodes, &mut self.spare_nodes);
        std::mem::swap(&mut self.edges, &mut self.spare_edges);
    }

    /// Brings the tree up to `game`'s current position, before
    /// [`Search::begin`], for a player that only sees the game between its
    /// own moves (a match player): when `game` continues the game of this
    /// tree's root (its history up to the root is the root's history), the
    /// moves played since, its own and the opponent's, are followed down the
    /// tree ([`Search::advance`]) and the subtree under the position now to
    /// play is kept with its visits; any other game, or tree reuse off,
    /// drops the tree. PUCT's budget counts the kept visits, so a search that
    /// foresaw the reply spends fewer evaluations on the next move.
    pub fn follow(&mut self, game: &History<S>) {
        let hashes = game.hashes();
        let root = self.game_len;
        let continues = self.s.tree_reuse
            && !self.nodes.is_empty()
            && root > 0
            && hashes.len() >= root
            && self.history.len() >= root
            && hashes[..root] == self.history[..root];
        if !continues {
            self.reset();
            return;
        }
        // A move off the tree leaves it empty, and the later moves keep
        // it so.
        for &m in &game.moves()[root - 1..] {
            self.advance(m);
        }
    }

    /// Runs a whole search with one evaluator, one leaf at a time (tests,
    /// analysis). Self-play batches leaves across games instead.
    pub fn run(
        &mut self,
        game: &History<S>,
        params: SearchParams,
        evaluator: &mut dyn Evaluator<S>,
        rng: &mut Rng,
    ) {
        self.begin(game, params);
        let (mut policy, mut wdl) = (Vec::new(), Vec::new());
        while self.step(None, rng) {
            evaluator.evaluate(&[self.request()], &mut policy, &mut wdl);
            self.provide(&policy, wdl[0]);
        }
    }

    /// The Gumbel samples of the root's moves (empty for PUCT).
    pub fn root_gumbel(&self) -> &[f32] {
        &self.gumbel
    }

    /// Nodes in the arena (tests, statistics).
    pub fn tree_size(&self) -> usize {
        self.nodes.len()
    }

    /// Checks the visit-count invariant on every expanded node: visits =
    /// 1 + sum of children's visits. Returns the first offending node.
    pub fn check_visits(&self) -> Result<(), VisitsError> {
        for (i, n) in self.nodes.iter().enumerate() {
            if n.state != State::Expanded {
                continue;
            }
            let sum: u32 = (n.first_edge..n.first_edge + n.num_edges)
                .map(|e| self.edge_stats(&self.edges[e as usize]).0)
                .sum();
            if n.visits != sum + 1 {
                return Err(VisitsError {
                    node: i,
                    visits: n.visits,
                    children: sum,
                });
            }
        }
        Ok(())
    }
}
