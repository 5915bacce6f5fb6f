//! Pure Monte Carlo tree search: UCT with one uniformly random playout per
//! leaf and no network, the baseline that OpenSpiel (`MCTSBot` with
//! `RandomRolloutEvaluator(1)`) and AlphaZero.jl's benchmarks use. It needs
//! nothing from a game but its rules, so every game has it, as the match
//! player and ladder rung `mcts:sims=N`.
//!
//! One simulation: from the root, follow the edge maximising
//! `Q + c·sqrt(ln N / n)` (an edge never tried first, in an order shuffled
//! once per node) down to an edge without a node; make that node (one
//! position per node, so a simulation plays each tree move once), play a
//! random game from it, and add the result to every edge on the path, seen
//! from the side that chose the edge. Results are +1 win, 0 draw, -1 loss,
//! so `c = 2` means what it means in OpenSpiel. A terminal node is scored
//! exactly, without a playout. The move played is the most visited root
//! edge (ties: the better mean). `terminal=outcome` switches to OpenSpiel's
//! treatment of game-ending edges ([`Terminal::Outcome`]), for comparisons
//! with its `MCTSBot`.
//!
//! Playouts ask [`GameState::terminal`] with a repetition count of 1:
//! repetitions are not tracked inside a random game (a playout of a chess
//! variant ends by mate, the move clock, or `max_plies`, scored a draw).
//! After warm-up a search allocates nothing: its arrays keep their capacity.

use game::{Color, GameState, SplitMix};
use std::fmt;
use std::str::FromStr;

/// `mcts:sims=N[,c=X][,plies=N][,terminal=visits|outcome]`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MctsSpec {
    /// Simulations (playouts) per move.
    pub sims: u32,
    /// The UCT exploration constant (rewards in [-1, 1]).
    pub c: f32,
    /// A playout longer than this is scored a draw.
    pub max_plies: u32,
    /// How a game-ending edge is treated once tried; see [`Terminal`].
    pub terminal: Terminal,
}

/// How UCT treats an edge whose child ends the game, once it has been
/// tried.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Terminal {
    /// Like any other edge: its mean (the exact result, every time) plus
    /// the exploration term; the move played is the most visited. An
    /// immediate win keeps being chosen, so the position before it is
    /// soon seen as lost by the side that allowed it. triad's default.
    #[default]
    Visits,
    /// OpenSpiel's `MCTSBot` (also with `solve` off): a tried edge that
    /// ends the game is valued by its result alone, without the
    /// exploration term, so its siblings keep drawing visits while their
    /// bonus exceeds 1; the move played is one with a known result first
    /// (a win over everything, a draw over unknown moves only by visits),
    /// then the most visited. For like-for-like comparisons with it.
    Outcome,
}

impl MctsSpec {
    pub const DEFAULT_C: f32 = 2.0;
    pub const DEFAULT_PLIES: u32 = 1000;
}

impl fmt::Display for MctsSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "mcts:sims={}", self.sims)?;
        if self.c != MctsSpec::DEFAULT_C {
            write!(f, ",c={}", self.c)?;
        }
        if self.max_plies != MctsSpec::DEFAULT_PLIES {
            write!(f, ",plies={}", self.max_plies)?;
        }
        if self.terminal == Terminal::Outcome {
            f.write_str(",terminal=outcome")?;
        }
        Ok(())
    }
}

impl FromStr for MctsSpec {
    type Err = crate::EvalError;
    fn from_str(s: &str) -> Result<MctsSpec, crate::EvalError> {
        let rest = s.trim().strip_prefix("mcts:").ok_or_else(|| {
            crate::EvalError::from(crate::SpecError::Player {
                spec: s.to_string(),
                problem: "expected mcts:sims=N".to_string(),
            })
        })?;
        let mut spec = MctsSpec {
            sims: 0,
            c: MctsSpec::DEFAULT_C,
            max_plies: MctsSpec::DEFAULT_PLIES,
            terminal: Terminal::Visits,
        };
        for part in rest.split(',').filter(|p| !p.trim().is_empty()) {
            let (k, v) = part.split_once('=').ok_or_else(|| {
                crate::EvalError::from(crate::SpecError::Player {
                    spec: s.to_string(),
                    problem: format!("`{part}` is not key=value"),
                })
            })?;
            let (k, v) = (k.trim(), v.trim());
            match k {
                "sims" => {
                    spec.sims = v
                        .parse()
                        .ok()
                        .filter(|n| (1..=100_000_000).contains(n))
                        .ok_or_else(|| {
                            crate::EvalError::from(crate::SpecError::Player {
                                spec: s.to_string(),
                                problem: format!("sims=`{v}` is not a number 1..100000000"),
                            })
                        })?
                }
                "c" => {
                    spec.c = v
                        .parse()
                        .ok()
                        .filter(|c: &f32| c.is_finite() && *c >= 0.0)
                        .ok_or_else(|| {
                            crate::EvalError::from(crate::SpecError::Player {
                                spec: s.to_string(),
                                problem: format!("c=`{v}` is not a number >= 0"),
                            })
                        })?
                }
                "plies" => {
                    spec.max_plies = v.parse().ok().filter(|&n: &u32| n >= 1).ok_or_else(|| {
                        crate::EvalError::from(crate::SpecError::Player {
                            spec: s.to_string(),
                            problem: format!("plies=`{v}` is not a positive number"),
                        })
                    })?
                }
                "terminal" => {
                    spec.terminal = match v {
                        "visits" => Terminal::Visits,
                        "outcome" => Terminal::Outcome,
                        _ => {
                            return Err(crate::EvalError::from(crate::SpecError::Player {
                                spec: s.to_string(),
                                problem: format!("terminal=`{v}` is not `visits` or `outcome`"),
                            }))
                        }
                    }
                }
                other => {
                    return Err(crate::EvalError::from(crate::SpecError::Player {
                        spec: s.to_string(),
                        problem: format!(
                            "unknown key `{other}` (mcts: takes sims, c, plies, terminal)"
                        ),
                    }))
                }
            }
        }
        if spec.sims == 0 {
            return Err(crate::EvalError::from(crate::SpecError::Player {
                spec: s.to_string(),
                problem: "mcts: needs sims=N".to_string(),
            }));
        }
        Ok(spec)
    }
}

const NONE: u32 = u32::MAX;

struct Node<S> {
    state: S,
    /// Exact value for the side to move at a terminal node.
    terminal: Option<f32>,
    /// Edges `first..first + count` (set on the first visit).
    first: u32,
    count: u32,
    /// Simulations that chose an edge here.
    visits: u32,
}

struct Edge<M> {
    mv: M,
    child: u32,
    visits: u32,
    /// Sum of results seen from the side that chooses this edge.
    total: f32,
}

/// A reusable UCT searcher for positions `S`.
pub struct Uct<S: GameState> {
    spec: MctsSpec,
    rng: SplitMix,
    nodes: Vec<Node<S>>,
    edges: Vec<Edge<S::Move>>,
    path: Vec<u32>,
    moves: Vec<S::Move>,
    /// Playouts played by the last search (for figures).
    pub last_playouts: u64,
}

impl<S: GameState> Uct<S> {
    pub fn new(spec: MctsSpec, seed: u64) -> Uct<S> {
        Uct {
            spec,
            rng: SplitMix::new(seed),
            nodes: Vec::new(),
            edges: Vec::new(),
            path: Vec::new(),
            moves: Vec::new(),
            last_playouts: 0,
        }
    }

    /// The spec this searcher plays.
    pub fn spec(&self) -> MctsSpec {
        self.spec
    }

    /// Searches `root` (not over) with the spec's simulations and returns
    /// the most visited move, or `None` when it has no legal move.
    pub fn search(&mut self, root: &S) -> Option<S::Move> {
        self.nodes.clear();
        self.edges.clear();
        self.last_playouts = 0;
        let node = self.make_node(root.clone());
        if self.nodes[node as usize].terminal.is_some() {
            return None;
        }
        for _ in 0..self.spec.sims {
            self.simulate();
        }
        let root = &self.nodes[0];
        let edges = &self.edges[root.first as usize..(root.first + root.count) as usize];
        // A known result ranks first only in OpenSpiel's mode; 0 (as for
        // an unknown move) otherwise.
        let known = |e: &Edge<S::Move>| match self.spec.terminal {
            Terminal::Outcome => self.known_result(e).unwrap_or(0.0),
            Terminal::Visits => 0.0,
        };
        edges
            .iter()
            .max_by(|a, b| {
                let mean = |e: &Edge<S::Move>| e.total / e.visits.max(1) as f32;
                known(a)
                    .total_cmp(&known(b))
                    .then(a.visits.cmp(&b.visits))
                    .then(mean(a).total_cmp(&mean(b)))
            })
            .map(|e| e.mv)
    }

    /// Root edges as (move, visits, mean result for the side to move).
    pub fn root_edges(&self) -> impl Iterator<Item = (S::Move, u32, f32)> + '_ {
        let (first, count) = self
            .nodes
            .first()
            .map(|r| (r.first as usize, r.count as usize))
            .unwrap_or((0, 0));
        self.edges[first..first + count]
            .iter()
            .map(|e| (e.mv, e.visits, e.total / e.visits.max(1) as f32))
    }

    fn make_node(&mut self, state: S) -> u32 {
        state.legal_moves(&mut self.moves);
        let terminal = state
            .terminal(!self.moves.is_empty(), 1)
            .map(|o| 2.0 * o.result.score_for(state.side()) - 1.0);
        let first = self.edges.len() as u32;
        let count = if terminal.is_some() {
            0
        } else {
            let start = self.edges.len();
            self.edges.extend(self.moves.iter().map(|&mv| Edge {
                mv,
                child: NONE,
                visits: 0,
                total: 0.0,
            }));
            // Untried edges are taken in this (random) order.
            self.rng.shuffle(&mut self.edges[start..]);
            self.moves.len() as u32
        };
        self.nodes.push(Node {
            state,
            terminal,
            first,
            count,
            visits: 0,
        });
        (self.nodes.len() - 1) as u32
    }

    /// The exact result of `e` for the side choosing it, when its child
    /// is a finished game.
    fn known_result(&self, e: &Edge<S::Move>) -> Option<f32> {
        if e.child == NONE {
            return None;
        }
        self.nodes[e.child as usize].terminal.map(|v| -v)
    }

    /// The edge UCT picks at `node` (which has edges).
    fn select(&self, node: u32) -> u32 {
        let n = &self.nodes[node as usize];
        let ln = (n.visits.max(1) as f32).ln();
        let (mut best, mut best_score) = (n.first, f32::NEG_INFINITY);
        for i in n.first..n.first + n.count {
            let e = &self.edges[i as usize];
            if e.visits == 0 {
                return i;
            }
            let score = match self.known_result(e) {
                Some(v) if self.spec.terminal == Terminal::Outcome => v,
                _ => e.total / e.visits as f32 + self.spec.c * (ln / e.visits as f32).sqrt(),
            };
            if score > best_score {
                best = i;
                best_score = score;
            }
        }
        best
    }

    fn simulate(&mut self) {
        self.path.clear();
        let mut node = 0u32;
        // Descend while the node has a child for the chosen edge.
        let value = loop {
            let n = &self.nodes[node as usize];
            if let Some(v) = n.terminal {
                break v;
            }
            let edge = self.select(node);
            self.nodes[node as usize].visits += 1;
            self.path.push(edge);
            let child = self.edges[edge as usize].child;
            if child != NONE {
                node = child;
                continue;
            }
            let state = self.nodes[node as usize]
                .state
                .play(self.edges[edge as usize].mv);
            let child = self.make_node(state);
            self.edges[edge as usize].child = child;
            let c = &self.nodes[child as usize];
            break match c.terminal {
                Some(v) => v,
                None => self.playout(child),
            };
        };
        // `value` is for the side to move at `node`; walk back up, flipping
        // at each ply (every edge changes the side to move).
        let mut v = value;
        for &edge in self.path.iter().rev() {
            v = -v;
            let e = &mut self.edges[edge as usize];
            e.visits += 1;
            e.total += v;
        }
    }

    /// A uniformly random game from `node`'s position: the result for the
    /// side to move there.
    fn playout(&mut self, node: u32) -> f32 {
        self.last_playouts += 1;
        let mut state = self.nodes[node as usize].state.clone();
        let side: Color = state.side();
        for _ in 0..self.spec.max_plies {
            state.legal_moves(&mut self.moves);
            if let Some(o) = state.terminal(!self.moves.is_empty(), 1) {
                return 2.0 * o.result.score_for(side) - 1.0;
            }
            let m = self.moves[self.rng.below(self.moves.len() as u64) as usize];
            state.apply(m);
        }
        0.0
    }
}
