//! The alpha-beta baseline engine, for any game that implements
//! [`game::AlphaBetaState`] (its evaluation and move facts, and through
//! `AlphaBetaState::Captures` its capture facts, if it has captures).
//!
//! Iterative-deepening negamax with principal variation search, a
//! transposition table ([`tt`]), quiescence over captures and promotions,
//! move ordering ([`ordering`]: hash move, captures by victim/attacker,
//! killers, history), check extension, late-move reductions and reverse
//! futility pruning at shallow depths, mate scores with exact distance to
//! mate, and repetition inside the tree. Every other end of a game (mate,
//! stalemate, move-clock draws) is the game's own rule
//! ([`GameState::terminal`]), and how far back a position can repeat is
//! [`GameState::reversible_plies`].
//!
//! The engine is generic over the position type and monomorphised: each
//! game's searcher calls its evaluation and move facts directly.
//!
//! Determinism: with only depth and/or node limits the clock is never read
//! for decisions, so a search from the same state (TT included) gives the
//! same result; `movetime` is the one non-deterministic limit.

pub mod limits;
pub mod ordering;
pub mod tt;

pub use limits::{
    EngineSpec, EngineSpecError, EngineSpecProblem, Limits, DEFAULT_HASH_MB, MAX_DEPTH,
    MAX_MOVETIME_MS,
};

use game::{AlphaBetaState, CaptureRules, Color, GameResult, GameState, History, Outcome};
use ordering::{score_move, select_next, HISTORY_MAX};
use std::time::{Duration, Instant};
use tt::{Bound, Table};

/// Score of being mated at the root; mated in `p` plies scores `-MATE + p`.
pub const MATE: i32 = 32_000;
/// Scores at least this large in magnitude are mate scores.
pub const MATE_BOUND: i32 = MATE - 1_000;
const INF: i32 = 32_500;
/// Quiescence plies after which only recaptures are searched.
const QS_RECAPTURES_FROM: usize = 4;
/// Quiescence plies after which the static evaluation is final.
const QS_MAX: usize = 10;
/// Deepest ply the search reaches (extensions and quiescence included).
pub const MAX_PLY: usize = 128;
/// Reverse futility pruning: a quiet node this far (centipawns per ply of
/// depth) above beta is cut.
const RFP_MARGIN: i32 = 120;
/// Delta pruning: a capture is skipped when even winning its material and
/// this margin (centipawns) leaves the score below alpha.
const DELTA_MARGIN: i32 = 200;

/// A search score as people read it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawns from the side to move's view.
    Cp(i32),
    /// Mate in N moves (N > 0: the side to move mates; N < 0: it is mated).
    Mate(i32),
}

impl Score {
    pub fn from_internal(v: i32) -> Score {
        if v >= MATE_BOUND {
            Score::Mate((MATE - v + 1) / 2)
        } else if v <= -MATE_BOUND {
            Score::Mate(-(MATE + v) / 2)
        } else {
            Score::Cp(v)
        }
    }
}

impl std::fmt::Display for Score {
    /// `+0.35` (pawns) or `mate 2` / `mate -1`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            Score::Cp(cp) => write!(f, "{:+.2}", cp as f64 / 100.0),
            Score::Mate(n) => write!(f, "mate {n}"),
        }
    }
}

/// What one completed iteration found (`M`: the game's move).
#[derive(Clone, Debug)]
pub struct SearchInfo<M> {
    pub depth: u32,
    /// Deepest ply reached, quiescence included.
    pub seldepth: u32,
    pub score: Score,
    /// The internal score (centipawns, or ±(MATE - plies)).
    pub value: i32,
    /// Nodes searched so far in this search (all iterations).
    pub nodes: u64,
    pub time: Duration,
    pub pv: Vec<M>,
}

impl<M> SearchInfo<M> {
    pub fn nps(&self) -> u64 {
        let s = self.time.as_secs_f64();
        if s > 0.0 {
            (self.nodes as f64 / s) as u64
        } else {
            0
        }
    }
}

/// The outcome of a search.
#[derive(Clone, Debug)]
pub struct SearchResult<M> {
    /// `None` only when the position has no legal move.
    pub best: Option<M>,
    /// The last completed iteration (`None` without legal moves).
    pub info: Option<SearchInfo<M>>,
    /// All nodes searched, the unfinished iteration included.
    pub nodes: u64,
}

/// An alpha-beta engine with its tables, for positions of type `S`. Keep
/// one per player for a whole game: the transposition table and history
/// carry over between moves.
pub struct Searcher<S: AlphaBetaState> {
    /// The game's evaluation weights (its documented defaults at first).
    pub params: S::EvalParams,
    /// The evaluation's tables for the variant last searched (built by the
    /// first search or evaluation).
    tables: Option<Box<S::EvalTables>>,
    tt: Table<S::Move>,
    use_tt: bool,
    selective: bool,
    random: u32,
    seed: u64,
    killers: Vec<[Option<S::Move>; 2]>,
    /// Per side, [`AlphaBetaState::HISTORY_SLOTS`] entries.
    history: Vec<i32>,
    /// Game history then the search path: repetition detection.
    hashes: Vec<u64>,
    moves: Vec<Vec<S::Move>>,
    scores: Vec<Vec<i32>>,
    pv: Vec<Option<S::Move>>,
    pv_len: [usize; MAX_PLY + 1],
    nodes: u64,
    seldepth: usize,
    limits: Limits,
    start: Instant,
    allow_stop: bool,
    stopped: bool,
    root_depth: usize,
    /// Most quiescence plies (default [`QS_MAX`]).
    qs_max: usize,
}

impl<S: AlphaBetaState> Searcher<S> {
    /// An engine with a `hash_mb` MiB transposition table and no randomness.
    pub fn new(hash_mb: usize) -> Searcher<S> {
        Searcher::with_table(Table::new(hash_mb), 256)
    }

    /// An engine for [`Searcher::quiescence_value`] alone, small enough to
    /// keep one per self-play game (`[selfplay] leaf_eval_weight`):
    /// quiescence reads no transposition table, so it gets the smallest,
    /// and its move lists grow only at the few plies it reaches. An engine
    /// of [`Searcher::new`] holds about 1.5 MB; 256 of them added a third
    /// to self-play's memory.
    pub fn for_quiescence() -> Searcher<S> {
        Searcher::with_table(Table::with_buckets(1), 0)
    }

    /// An engine with `tt` and move lists of `move_capacity` per ply.
    fn with_table(tt: Table<S::Move>, move_capacity: usize) -> Searcher<S> {
        Searcher {
            params: S::EvalParams::default(),
            tables: None,
            tt,
            use_tt: true,
            selective: true,
            random: 0,
            seed: 0,
            killers: vec![[None; 2]; MAX_PLY + 1],
            history: vec![0; 2 * S::HISTORY_SLOTS],
            hashes: Vec::with_capacity(1024),
            moves: (0..=MAX_PLY)
                .map(|_| Vec::with_capacity(move_capacity))
                .collect(),
            scores: (0..=MAX_PLY)
                .map(|_| Vec::with_capacity(move_capacity))
                .collect(),
            pv: vec![None; (MAX_PLY + 1) * (MAX_PLY + 1)],
            pv_len: [0; MAX_PLY + 1],
            nodes: 0,
            seldepth: 0,
            limits: Limits::default(),
            start: Instant::now(),
            allow_stop: false,
            stopped: false,
            root_depth: 1,
            qs_max: QS_MAX,
        }
    }

    /// An engine configured by a spec (hash size and randomness).
    pub fn from_spec(spec: &EngineSpec) -> Searcher<S> {
        let mut s = Searcher::new(spec.hash_mb);
        s.random = spec.random;
        s.seed = spec.seed;
        if let Some(q) = spec.quiesce {
            s.qs_max = q as usize;
        }
        s
    }

    /// Turns the transposition table off or on (tests compare both).
    pub fn set_tt(&mut self, enabled: bool) {
        self.use_tt = enabled;
    }

    /// Turns the window-dependent pruning (late-move reductions, reverse
    /// futility) off or on. Without it the search is plain alpha-beta, whose
    /// value does not depend on move order: tests use this to check that the
    /// transposition table changes no result.
    pub fn set_selective(&mut self, enabled: bool) {
        self.selective = enabled;
    }

    /// Sets the seeded evaluation noise (amplitude in centipawns).
    pub fn set_random(&mut self, amplitude: u32, seed: u64) {
        self.random = amplitude;
        self.seed = seed;
    }

    /// Forgets everything learned (a new game).
    pub fn clear(&mut self) {
        self.tt.clear();
        self.history.fill(0);
        self.killers.fill([None; 2]);
    }

    /// Static evaluation with this engine's parameters (and noise).
    pub fn evaluate(&mut self, pos: &S) -> i32 {
        self.fit_tables(pos);
        self.eval(pos)
    }

    /// The quiescence value of `pos` (centipawns, side to move's view): the
    /// static evaluation once the captures in the air have been played
    /// out, as the search's leaves see it. No time or node limit applies;
    /// the capture tree is bounded as [`Searcher::search`]'s is.
    pub fn quiescence_value(&mut self, pos: &S) -> i32 {
        self.fit_tables(pos);
        self.allow_stop = false;
        self.stopped = false;
        self.quiescence(pos, -INF, INF, 0, 0, None)
    }

    /// Builds the evaluation tables for `pos`'s variant unless they are.
    fn fit_tables(&mut self, pos: &S) {
        if !self
            .tables
            .as_deref()
            .is_some_and(|t| pos.eval_tables_fit(t))
        {
            self.tables = Some(Box::new(pos.eval_tables()));
        }
    }

    /// The static evaluation; [`Searcher::fit_tables`] has run.
    #[inline]
    fn eval(&self, pos: &S) -> i32 {
        let tables = self.tables.as_deref().expect("evaluation tables built");
        let mut v = pos.evaluate(tables, &self.params);
        if self.random > 0 {
            // A fixed function of position and seed, so TT entries stay valid.
            let r = splitmix(pos.hash() ^ self.seed);
            let span = 2 * self.random as u64 + 1;
            v += (r % span) as i32 - self.random as i32;
        }
        v
    }

    /// Searches `pos` within `limits`. `history` holds the hashes of the
    /// game's earlier positions (oldest first, `pos` itself excluded), for
    /// repetition draws. `on_iteration` is called after each completed depth.
    pub fn search(
        &mut self,
        pos: &S,
        history: &[u64],
        limits: Limits,
        mut on_iteration: impl FnMut(&SearchInfo<S::Move>),
    ) -> SearchResult<S::Move> {
        self.fit_tables(pos);
        self.limits = limits;
        self.start = Instant::now();
        self.nodes = 0;
        self.stopped = false;
        self.tt.new_search();
        for h in self.history.iter_mut() {
            *h /= 8;
        }
        self.killers.fill([None; 2]);
        self.hashes.clear();
        self.hashes.extend_from_slice(history);
        self.hashes.push(pos.hash());

        let mut root_moves = Vec::new();
        pos.legal_moves(&mut root_moves);
        if root_moves.is_empty() {
            return SearchResult {
                best: None,
                info: None,
                nodes: 0,
            };
        }
        let max_depth = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        let mut best: Option<SearchInfo<S::Move>> = None;
        for depth in 1..=max_depth {
            self.allow_stop = depth > 1;
            self.root_depth = depth as usize;
            self.seldepth = 0;
            let value = self.negamax(pos, depth as i32, -INF, INF, 0);
            if self.stopped {
                break;
            }
            let pv: Vec<S::Move> = (0..self.pv_len[0]).filter_map(|i| self.pv[i]).collect();
            let info = SearchInfo {
                depth,
                seldepth: self.seldepth as u32,
                score: Score::from_internal(value),
                value,
                nodes: self.nodes,
                time: self.start.elapsed(),
                pv,
            };
            on_iteration(&info);
            let mate_found = value.abs() >= MATE_BOUND
                && (MATE - value.abs()) as u32 <= depth
                && limits.depth.is_none();
            best = Some(info);
            if mate_found {
                break;
            }
            if let Some(n) = limits.nodes {
                if self.nodes >= n {
                    break;
                }
            }
            if let Some(ms) = limits.movetime {
                // Another iteration would most likely not finish.
                if self.start.elapsed() >= Duration::from_millis(ms) / 2 {
                    break;
                }
            }
        }
        let best_move = best
            .as_ref()
            .and_then(|i| i.pv.first().copied())
            .or(Some(root_moves[0]));
        SearchResult {
            best: best_move,
            info: best,
            nodes: self.nodes,
        }
    }

    /// Searches the current position of a game, with its history for
    /// repetition draws.
    pub fn search_game(
        &mut self,
        game: &History<S>,
        limits: Limits,
        on_iteration: impl FnMut(&SearchInfo<S::Move>),
    ) -> SearchResult<S::Move> {
        let h = game.hashes();
        self.search(game.position(), &h[..h.len() - 1], limits, on_iteration)
    }

    /// Whether the search must stop now. Only the node and time limits stop
    /// a search early, and never during the first iteration.
    #[inline]
    fn check_stop(&mut self) -> bool {
        if self.stopped {
            return true;
        }
        if !self.allow_stop {
            return false;
        }
        if let Some(n) = self.limits.nodes {
            if self.nodes >= n {
                self.stopped = true;
            }
        }
        if let Some(ms) = self.limits.movetime {
            if self.nodes & 1023 == 0 && self.start.elapsed() >= Duration::from_millis(ms) {
                self.stopped = true;
            }
        }
        self.stopped
    }

    /// Whether the position on top of the path repeats an earlier one (the
    /// same side to move, within the game's `reversible` plies). One
    /// repetition scores as a draw: if repeating was good once, it is good
    /// again.
    #[inline]
    fn is_repetition(&self, reversible: u32) -> bool {
        let n = self.hashes.len();
        let h = self.hashes[n - 1];
        let back = (reversible as usize).min(n - 1);
        let mut i = 2;
        while i <= back {
            if self.hashes[n - 1 - i] == h {
                return true;
            }
            i += 2;
        }
        false
    }

    #[inline(always)]
    fn update_pv(&mut self, ply: usize, m: S::Move) {
        let row = ply * (MAX_PLY + 1);
        let next = (ply + 1) * (MAX_PLY + 1);
        self.pv[row + ply] = Some(m);
        let end = self.pv_len[ply + 1].max(ply + 1);
        for i in ply + 1..end {
            self.pv[row + i] = self.pv[next + i];
        }
        self.pv_len[ply] = end;
    }

    fn negamax(
        &mut self,
        pos: &S,
        mut depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
    ) -> i32 {
        self.pv_len[ply] = ply;
        let pv_node = beta - alpha > 1;
        if ply > 0 {
            if let Some(s) = self.settle_inner_node(pos, &mut alpha, &mut beta, ply) {
                return s;
            }
        }
        let in_check = S::Captures::in_check(pos);
        // Check extension, limited to twice the iteration depth so that
        // long series of checks (common with crew on many ships) stay finite.
        if in_check && ply < 2 * self.root_depth {
            depth += 1;
        }
        if depth <= 0 || ply >= MAX_PLY - 1 {
            return self.quiescence(pos, alpha, beta, ply, 0, None);
        }
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply);

        let key = pos.hash();
        let hash_move = match self.probe_tt(key, depth, alpha, beta, ply, pv_node) {
            Probe::Cut(s) => return s,
            Probe::Move(m) => m,
        };

        if let Some(s) = self.reverse_futility(pos, depth, beta, ply, pv_node, in_check) {
            return s;
        }

        let mut moves = std::mem::take(&mut self.moves[ply]);
        let mut scores = std::mem::take(&mut self.scores[ply]);
        pos.legal_moves(&mut moves);
        // The game's end by its rules: mate or stalemate without a move; at
        // inner nodes also the draws by move clock (repetition is the
        // tree's own test above). The root is searched whatever its clock.
        let has_move = !moves.is_empty();
        if !has_move || ply > 0 {
            if let Some(o) = pos.terminal(has_move, 1) {
                self.put_lists(ply, moves, scores);
                return terminal_value(pos, o, ply);
            }
        }
        let us = pos.side();
        let slots = S::HISTORY_SLOTS;
        let hist = &self.history[us.index() * slots..(us.index() + 1) * slots];
        let killers = self.killers[ply];
        scores.clear();
        scores.extend(
            moves
                .iter()
                .map(|&m| score_move(pos, m, hash_move, &killers, hist)),
        );

        let orig_alpha = alpha;
        let mut best = -INF;
        let mut best_move = None;
        for i in 0..moves.len() {
            let m = select_next(&mut moves, &mut scores, i);
            let quiet = pos.is_quiet(m);
            let child = pos.play(m);
            // Late-move reduction for quiet moves well down the list.
            let reduce = self.selective
                && ply > 0
                && depth >= 3
                && i >= 3
                && quiet
                && !in_check
                && scores[i] < ordering::HASH_MOVE / 4;
            let score = self.search_child(&child, i, reduce, depth, alpha, beta, ply);
            if self.stopped {
                self.put_lists(ply, moves, scores);
                return 0;
            }
            if score > best {
                best = score;
                best_move = Some(m);
                if score > alpha {
                    alpha = score;
                    self.update_pv(ply, m);
                    if score >= beta {
                        if quiet {
                            self.reward_quiet_cutoff(us, m, depth, ply);
                        }
                        break;
                    }
                }
            }
        }
        self.put_lists(ply, moves, scores);

        if self.use_tt {
            let bound = bound_of(best, orig_alpha, beta);
            self.tt
                .store(key, best_move, score_to_tt(best, ply), depth, bound);
        }
        best
    }

    /// At an inner node: 0 when the search must stop or the position
    /// repeats one on the path (a draw), else the window narrowed by mate
    /// distance pruning (no line from here beats a mate found nearer the
    /// root), and `alpha` when that closes it.
    #[inline(always)]
    fn settle_inner_node(
        &mut self,
        pos: &S,
        alpha: &mut i32,
        beta: &mut i32,
        ply: usize,
    ) -> Option<i32> {
        if self.check_stop() {
            return Some(0);
        }
        if self.is_repetition(pos.reversible_plies()) {
            return Some(0);
        }
        *alpha = (*alpha).max(-MATE + ply as i32);
        *beta = (*beta).min(MATE - ply as i32 - 1);
        if *alpha >= *beta {
            return Some(*alpha);
        }
        None
    }

    /// Reverse futility pruning: far above beta at shallow depth, a quiet
    /// position (outside the PV, not in check, not the root) is not going
    /// to fall below it; its static evaluation is then the node's value.
    #[inline(always)]
    fn reverse_futility(
        &self,
        pos: &S,
        depth: i32,
        beta: i32,
        ply: usize,
        pv_node: bool,
        in_check: bool,
    ) -> Option<i32> {
        if self.selective
            && !pv_node
            && !in_check
            && depth <= 3
            && beta.abs() < MATE_BOUND
            && ply > 0
        {
            let static_eval = self.eval(pos);
            if static_eval - RFP_MARGIN * depth >= beta {
                return Some(static_eval);
            }
        }
        None
    }

    /// Gives ply `ply` its move and score lists back (taken for the node
    /// so that their allocations serve every node at that ply).
    #[inline(always)]
    fn put_lists(&mut self, ply: usize, moves: Vec<S::Move>, scores: Vec<i32>) {
        self.moves[ply] = moves;
        self.scores[ply] = scores;
    }

    /// The transposition table's word on this node: a score that settles
    /// it (a deep enough entry whose bound cuts, never at the root or in a
    /// PV node), or else the move to try first, if any.
    #[inline]
    fn probe_tt(
        &self,
        key: u64,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
        pv_node: bool,
    ) -> Probe<S::Move> {
        if !self.use_tt {
            return Probe::Move(None);
        }
        let Some(e) = self.tt.probe(key) else {
            return Probe::Move(None);
        };
        if ply > 0 && !pv_node && e.depth >= depth {
            let s = score_from_tt(e.score, ply);
            let cut = match e.bound {
                Bound::Exact => true,
                Bound::Lower => s >= beta,
                Bound::Upper => s <= alpha,
            };
            if cut {
                return Probe::Cut(s);
            }
        }
        Probe::Move(e.mv)
    }

    /// One child's score by principal variation search: the first move
    /// (`i == 0`) with the full window, later ones with a null window,
    /// reduced by a ply (two from the tenth move at depth 6 and more) when
    /// `reduce` allows and the move gives no check, then re-searched at
    /// full depth and with the full window while they beat alpha. Keeps
    /// the path of hashes that repetition reads.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn search_child(
        &mut self,
        child: &S,
        i: usize,
        reduce: bool,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        self.hashes.push(child.hash());
        let score = if i == 0 {
            -self.negamax(child, depth - 1, -beta, -alpha, ply + 1)
        } else {
            let r = if reduce && !S::Captures::in_check(child) {
                if depth >= 6 && i >= 10 {
                    2
                } else {
                    1
                }
            } else {
                0
            };
            let mut s = -self.negamax(child, depth - 1 - r, -alpha - 1, -alpha, ply + 1);
            if s > alpha && r > 0 {
                s = -self.negamax(child, depth - 1, -alpha - 1, -alpha, ply + 1);
            }
            if s > alpha && s < beta {
                s = -self.negamax(child, depth - 1, -beta, -alpha, ply + 1);
            }
            s
        };
        self.hashes.pop();
        score
    }

    /// A quiet move that cut: it becomes this ply's first killer, and its
    /// history score grows by depth squared (the side's whole table halves
    /// when one entry passes [`HISTORY_MAX`], so old successes fade).
    #[inline]
    fn reward_quiet_cutoff(&mut self, us: Color, m: S::Move, depth: i32, ply: usize) {
        let k = &mut self.killers[ply];
        if k[0] != Some(m) {
            k[1] = k[0];
            k[0] = Some(m);
        }
        let slots = S::HISTORY_SLOTS;
        let base = us.index() * slots;
        let h = &mut self.history[base + S::history_index(m)];
        *h += depth * depth;
        if *h > HISTORY_MAX {
            for x in &mut self.history[base..base + slots] {
                *x /= 2;
            }
        }
    }

    /// Quiescence: stand pat on the static evaluation, then try the moves
    /// the game names for it ([`game::CaptureFacts::is_quiescence_move`]:
    /// captures and promotions), skipping captures that plainly lose
    /// material or cannot reach alpha. In check, every evasion is tried.
    /// A game without captures ([`game::NoCaptures`]) names no move: its
    /// quiescence is the static evaluation (or the game's end).
    ///
    /// Captures can be everywhere (pieces that all touch, long chains of
    /// trades), so the capture tree is bounded: after
    /// [`QS_RECAPTURES_FROM`] plies only recaptures on the cell of the last
    /// capture are tried, and after [`QS_MAX`] plies the evaluation stands.
    fn quiescence(
        &mut self,
        pos: &S,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        qply: usize,
        last_target: Option<u32>,
    ) -> i32 {
        self.pv_len[ply] = ply;
        if self.check_stop() {
            return 0;
        }
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply);
        let in_check = S::Captures::in_check(pos);
        if let Some(v) = self.quiescence_limit(pos, ply, qply, in_check) {
            return v;
        }
        let mut best = -INF;
        if !in_check {
            let stand = self.eval(pos);
            if stand >= beta {
                return stand;
            }
            alpha = alpha.max(stand);
            best = stand;
        }
        let mut moves = std::mem::take(&mut self.moves[ply]);
        let mut scores = std::mem::take(&mut self.scores[ply]);
        pos.legal_moves(&mut moves);
        if moves.is_empty() {
            self.put_lists(ply, moves, scores);
            return self.no_move_value(pos, ply);
        }
        if !in_check {
            keep_quiescence_moves(pos, &mut moves, qply, last_target);
        }
        let us = pos.side();
        let slots = S::HISTORY_SLOTS;
        let hist = &self.history[us.index() * slots..(us.index() + 1) * slots];
        scores.clear();
        let killers = [None; 2];
        scores.extend(
            moves
                .iter()
                .map(|&m| score_move(pos, m, None, &killers, hist)),
        );
        for i in 0..moves.len() {
            let m = select_next(&mut moves, &mut scores, i);
            let child = pos.play(m);
            let captured_on = S::Captures::capture_cell(pos, m);
            if !in_check
                && captured_on.is_some()
                && self.futile_capture(pos, m, &child, best, alpha)
            {
                continue;
            }
            let target = captured_on.or(last_target);
            let score = -self.quiescence(&child, -beta, -alpha, ply + 1, qply + 1, target);
            if self.stopped {
                break;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    self.update_pv(ply, m);
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        self.put_lists(ply, moves, scores);
        if self.stopped {
            return 0;
        }
        best
    }

    /// Where quiescence stops short: at the spec's quiescence depth a
    /// static judgement (but a position without a move still ends by the
    /// rules: mate and stalemate are told apart from it); at the deepest
    /// ply, or in check past [`QS_RECAPTURES_FROM`], the evaluation.
    #[inline(always)]
    fn quiescence_limit(&self, pos: &S, ply: usize, qply: usize, in_check: bool) -> Option<i32> {
        if qply >= self.qs_max {
            if !pos.has_legal_move() {
                return Some(self.no_move_value(pos, ply));
            }
            return Some(self.eval(pos));
        }
        if ply >= MAX_PLY - 1 || (in_check && qply >= QS_RECAPTURES_FROM) {
            return Some(self.eval(pos));
        }
        None
    }

    /// Whether quiescence skips the capture `m` (giving `child`): it
    /// plainly loses material, or (delta pruning) even winning the
    /// material cannot lift `best` to `alpha`.
    #[inline(always)]
    fn futile_capture(&self, pos: &S, m: S::Move, child: &S, best: i32, alpha: i32) -> bool {
        S::Captures::is_losing_capture(pos, m, child)
            || (self.selective && best + S::Captures::material_gain(pos, m) + DELTA_MARGIN < alpha)
    }

    /// The value of `pos`, which has no legal move, by the game's rules
    /// (mate or stalemate in chess-like games).
    #[inline]
    fn no_move_value(&self, pos: &S, ply: usize) -> i32 {
        match pos.terminal(false, 1) {
            Some(o) => terminal_value(pos, o, ply),
            None => {
                debug_assert!(false, "a position without a legal move must be over");
                0
            }
        }
    }
}

/// The bound a node's `best` score is, searched with the window
/// `orig_alpha..beta`: at least (a cut), exact, or at most (no move beat
/// alpha).
#[inline(always)]
fn bound_of(best: i32, orig_alpha: i32, beta: i32) -> Bound {
    if best >= beta {
        Bound::Lower
    } else if best > orig_alpha {
        Bound::Exact
    } else {
        Bound::Upper
    }
}

/// Keeps of `moves` the game's quiescence moves (captures and
/// promotions); from [`QS_RECAPTURES_FROM`] quiescence plies on, only
/// recaptures on `last_target`, the cell of the last capture.
#[inline(always)]
fn keep_quiescence_moves<S: AlphaBetaState>(
    pos: &S,
    moves: &mut Vec<S::Move>,
    qply: usize,
    last_target: Option<u32>,
) {
    moves.retain(|&m| {
        S::Captures::is_quiescence_move(pos, m)
            && (qply < QS_RECAPTURES_FROM
                || matches!((S::Captures::capture_cell(pos, m), last_target),
                    (Some(a), Some(b)) if a == b))
    });
}

/// The search value of a game's end `o` at `pos`, `ply` plies from the
/// root: a win or loss of the side to move at the distance that gives the
/// shortest win and the longest loss, or a draw.
#[inline]
fn terminal_value<S: GameState>(pos: &S, o: Outcome, ply: usize) -> i32 {
    if o.result == GameResult::Draw {
        0
    } else if o.result == GameResult::win_for(pos.side()) {
        MATE - ply as i32
    } else {
        -MATE + ply as i32
    }
}

/// What the transposition table says at a node: a score that settles it,
/// or the move to order first.
enum Probe<M> {
    Cut(i32),
    Move(Option<M>),
}

/// Mate scores are stored relative to the node, so a mate found through a
/// transposition keeps its true distance from the root that reads it.
#[inline]
fn score_to_tt(s: i32, ply: usize) -> i32 {
    if s >= MATE_BOUND {
        s + ply as i32
    } else if s <= -MATE_BOUND {
        s - ply as i32
    } else {
        s
    }
}

#[inline]
fn score_from_tt(s: i32, ply: usize) -> i32 {
    if s >= MATE_BOUND {
        s - ply as i32
    } else if s <= -MATE_BOUND {
        s + ply as i32
    } else {
        s
    }
}

#[inline]
fn splitmix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}
