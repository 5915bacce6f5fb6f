//! What a game gives the alpha-beta baseline (`eval::search`): a static
//! evaluation and the few facts about moves that the engine's pruning and
//! move ordering need.
//!
//! The engine itself (iterative deepening, PVS, transposition table,
//! quiescence, killers, history, reductions) knows no game: it is generic
//! over [`AlphaBetaState`] and monomorphised, so each method here is called
//! directly on the hot path. The rules stay where they are: mate, stalemate
//! and the draw rules come from [`GameState::terminal`] and repetition from
//! [`GameState::reversible_plies`]; nothing here re-states them.
//!
//! Scores are centipawns from the side to move's view (a pawn-like unit of
//! 100): the engine's pruning margins are in that unit.

use crate::GameState;
use std::fmt::Debug;

/// Where the move ordering puts a move (the hash move always comes first).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveOrder {
    /// Captures and promotions: tried before the killers and every quiet
    /// move, best score first (MVV-LVA and the like). Scores stay within
    /// ±100 000.
    Good(i32),
    /// A quiet move: killers first, then by the history heuristic.
    Quiet,
    /// A move rarely worth playing (a capture of one's own piece where that
    /// is legal): tried after every quiet move, by this score (±100 000)
    /// and then by history.
    Bad(i32),
}

/// An evaluation in centipawns as a win probability for the same side:
/// `1 / (1 + exp(-cp / scale))`. The one conversion the trainer's
/// evaluation targets (`[train] value_eval_scale`) and the search's leaf
/// hint (`[selfplay] leaf_eval_weight`) share.
#[inline]
pub fn win_probability(cp: f32, scale: f32) -> f32 {
    1.0 / (1.0 + (-cp / scale).exp())
}

/// A game's own exact (or depth-limited exact) move chooser: see
/// [`AlphaBetaState::solver`].
pub trait PerfectPlayer<S: GameState>: Send {
    /// A best move of `state` (which is not over) by the solver's score,
    /// with its score in the game's own convention (Pons's `22 - k` for
    /// Connect Four).
    fn choose(&mut self, state: &S) -> (S::Move, i32);

    /// The score of every legal move of `state` (not over) in the same
    /// convention, from the side to move's view, for analysis (`triad
    /// analysis`); `None`, the default, for a solver that only names its
    /// best move.
    fn move_scores(&mut self, state: &S) -> Option<Vec<(S::Move, i32)>> {
        let _ = state;
        None
    }
}

/// A position the alpha-beta baseline can search: the game's evaluation
/// terms and move facts. Every method is on the engine's hot path, so games
/// implement them with cheap, `#[inline]` code.
pub trait AlphaBetaState: GameState {
    /// Tunable evaluation weights (public in the engine so that matches can
    /// compare versions of them); `Default` is the game's documented set.
    type EvalParams: Clone + Debug + Default + PartialEq + Send + Sync + 'static;

    /// Tables the evaluation needs of a variant (built once, kept by the
    /// engine across searches, rebuilt when a position of another variant
    /// comes; `()` for a game that needs none).
    type EvalTables: Send + Sync + 'static;

    /// Builds the evaluation tables of this position's variant.
    fn eval_tables(&self) -> Self::EvalTables;

    /// The game's exact solver as a match player (`solver`,
    /// `solver:depth=N`), for games that have one (Connect Four): `None`,
    /// the default, for the others. `depth` limits how far it looks
    /// (wins and losses within the horizon exact, the rest a draw);
    /// `seed` breaks ties between equally scored moves, so that repeated
    /// games from one opening differ.
    fn solver(depth: Option<u32>, seed: u64) -> Option<Box<dyn PerfectPlayer<Self>>>
    where
        Self: Sized,
    {
        let _ = (depth, seed);
        None
    }

    /// Whether `tables` were built for this position's variant.
    fn eval_tables_fit(&self, tables: &Self::EvalTables) -> bool;

    /// Static evaluation in centipawns from the side to move's view.
    fn evaluate(&self, tables: &Self::EvalTables, params: &Self::EvalParams) -> i32;

    /// Whether the side to move is in check: such nodes are extended,
    /// searched with every evasion in quiescence, and never stand pat.
    /// Games without check keep the default.
    #[inline]
    fn in_check(&self) -> bool {
        false
    }

    /// Size of one side's history table: [`AlphaBetaState::history_index`]
    /// is below it.
    const HISTORY_SLOTS: usize;

    /// The history-heuristic slot of a move (typically kind, origin and
    /// destination).
    fn history_index(m: Self::Move) -> usize;

    /// Where move ordering puts `m`, a legal move here.
    fn order_move(&self, m: Self::Move) -> MoveOrder;

    /// Whether `m` changes no material (no capture, no promotion): only such
    /// moves become killers, feed the history and get late-move reductions.
    /// Games override the default with a cheaper test.
    #[inline]
    fn is_quiet(&self, m: Self::Move) -> bool {
        matches!(self.order_move(m), MoveOrder::Quiet)
    }

    /// Whether quiescence searches `m` when the side to move is not in check
    /// (the captures and promotions worth following; everything else is
    /// left to the full-width search).
    fn is_quiescence_move(&self, m: Self::Move) -> bool;

    /// The cell where `m` captures (any capture), `None` for a move that
    /// takes nothing. Deep in quiescence only recaptures on the cell of the
    /// last capture are searched.
    fn capture_cell(&self, m: Self::Move) -> Option<u32>;

    /// The most material `m`, a capture, can win at once (the victim plus
    /// any promotion gain): delta pruning skips captures that cannot bring
    /// the score near alpha even so.
    fn material_gain(&self, m: Self::Move) -> i32;

    /// Whether capture `m`, leading to `after`, plainly loses material
    /// (for instance the capturer is worth more than its victim and the
    /// opponent can take it back): quiescence skips it.
    fn is_losing_capture(&self, m: Self::Move, after: &Self) -> bool;
}
