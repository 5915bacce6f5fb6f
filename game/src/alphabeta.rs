//! What a game gives the alpha-beta baseline (`eval::search`), split into
//! capabilities a game opts into:
//!
//! - [`AlphaBetaState`], what every searchable game gives: a static
//!   evaluation and the move facts of the ordering. It is the one bound
//!   generic code names.
//! - [`CaptureFacts`], for games with captures: check, and the captures
//!   quiescence follows and prunes. A game opts in with
//!   `type Captures = HasCaptures` and an `impl CaptureFacts`; a game
//!   without captures says `type Captures = NoCaptures` and implements
//!   nothing more: its quiescence is the static evaluation.
//! - [`ExactSolver`], for games with an exact solver (Connect Four):
//!   `type Solver = HasSolver` and an `impl ExactSolver`, or
//!   `type Solver = NoSolver`.
//! - [`EvalTables`], for evaluations that need per-variant tables;
//!   `type EvalTables = ()` for one that needs none.
//!
//! Why associated types: Rust has no specialization, so generic code
//! cannot ask "does `S` implement [`CaptureFacts`]?". Each optional
//! capability is therefore named by an associated type of
//! [`AlphaBetaState`] whose value is one of two types provided here (the
//! capability's "has" and "has not"), and generic code goes through the
//! bridge trait of that type ([`CaptureRules`], [`SolverSlot`]). The choice
//! is static, so with [`NoCaptures`] the engine's capture tests are
//! constants the compiler folds away, and no game writes a method only to
//! return "nothing".
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
/// [`ExactSolver`].
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
/// terms and the move facts of the ordering, with its optional
/// capabilities named by the associated types (see the module docs).
/// Every method is on the engine's hot path, so games implement them with
/// cheap, `#[inline]` code.
pub trait AlphaBetaState: GameState {
    /// Tunable evaluation weights (public in the engine so that matches can
    /// compare versions of them); `Default` is the game's documented set.
    type EvalParams: Clone + Debug + Default + PartialEq + Send + Sync + 'static;

    /// Tables the evaluation needs of a variant (built once, kept by the
    /// engine across searches, rebuilt when a position of another variant
    /// comes); `()` for a game that needs none.
    type EvalTables: EvalTables<Self>;

    /// The game's captures: [`HasCaptures`] for a game that implements
    /// [`CaptureFacts`], [`NoCaptures`] for one without captures (no check
    /// either; quiescence is then the static evaluation).
    type Captures: CaptureRules<Self>;

    /// The game's exact solver: [`HasSolver`] for a game that implements
    /// [`ExactSolver`], [`NoSolver`] for the others.
    type Solver: SolverSlot<Self>;

    /// Static evaluation in centipawns from the side to move's view.
    fn evaluate(&self, tables: &Self::EvalTables, params: &Self::EvalParams) -> i32;

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

    /// Builds the evaluation tables of this position's variant
    /// ([`EvalTables::build`]; games do not override this).
    #[inline]
    fn eval_tables(&self) -> Self::EvalTables {
        Self::EvalTables::build(self)
    }

    /// Whether `tables` were built for this position's variant
    /// ([`EvalTables::fits`]; games do not override this).
    #[inline]
    fn eval_tables_fit(&self, tables: &Self::EvalTables) -> bool {
        tables.fits(self)
    }

    /// The game's exact solver as a match player (`solver`,
    /// `solver:depth=N`), `None` for a game without one (its
    /// [`AlphaBetaState::Solver`] says which; games do not override this).
    /// `depth` limits how far it looks (wins and losses within the horizon
    /// exact, the rest a draw); `seed` breaks ties between equally scored
    /// moves, so that repeated games from one opening differ.
    fn solver(depth: Option<u32>, seed: u64) -> Option<Box<dyn PerfectPlayer<Self>>>
    where
        Self: Sized,
    {
        Self::Solver::player(depth, seed)
    }
}

/// Per-variant tables of an evaluation ([`AlphaBetaState::EvalTables`]).
/// `()` is the tables of an evaluation that needs none.
pub trait EvalTables<S: ?Sized>: Send + Sync + Sized + 'static {
    /// The tables of `pos`'s variant.
    fn build(pos: &S) -> Self;
    /// Whether these tables belong to `pos`'s variant.
    fn fits(&self, pos: &S) -> bool;
}

impl<S: ?Sized> EvalTables<S> for () {
    #[inline]
    fn build(_: &S) {}
    #[inline]
    fn fits(&self, _: &S) -> bool {
        true
    }
}

/// The capture facts of a game with captures, which quiescence, delta
/// pruning and check extensions read. A game implements this and sets
/// `type Captures = HasCaptures` in its [`AlphaBetaState`].
pub trait CaptureFacts: AlphaBetaState {
    /// Whether the side to move is in check: such nodes are extended,
    /// searched with every evasion in quiescence, and never stand pat.
    /// Games without check keep the default.
    #[inline]
    fn in_check(&self) -> bool {
        false
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

/// Keeps [`CaptureRules`] and [`SolverSlot`] to the types of this module.
mod sealed {
    pub trait Sealed {}
    impl Sealed for super::HasCaptures {}
    impl Sealed for super::NoCaptures {}
    impl Sealed for super::HasSolver {}
    impl Sealed for super::NoSolver {}
}

/// How the engine reads a game's captures ([`AlphaBetaState::Captures`]):
/// implemented by [`HasCaptures`] and [`NoCaptures`] alone (sealed), which
/// is how generic code tells the two kinds of game apart without
/// specialization.
pub trait CaptureRules<S: GameState>: sealed::Sealed {
    /// [`CaptureFacts::in_check`].
    fn in_check(pos: &S) -> bool;
    /// [`CaptureFacts::is_quiescence_move`].
    fn is_quiescence_move(pos: &S, m: S::Move) -> bool;
    /// [`CaptureFacts::capture_cell`].
    fn capture_cell(pos: &S, m: S::Move) -> Option<u32>;
    /// [`CaptureFacts::material_gain`].
    fn material_gain(pos: &S, m: S::Move) -> i32;
    /// [`CaptureFacts::is_losing_capture`].
    fn is_losing_capture(pos: &S, m: S::Move, after: &S) -> bool;
}

/// `type Captures = HasCaptures`: the game implements [`CaptureFacts`].
#[derive(Clone, Copy, Debug)]
pub enum HasCaptures {}

/// `type Captures = NoCaptures`: the game has no captures and no check.
/// Quiescence then searches no move: it is the static evaluation (or the
/// game's end, where the position has no legal move).
#[derive(Clone, Copy, Debug)]
pub enum NoCaptures {}

impl<S: CaptureFacts> CaptureRules<S> for HasCaptures {
    #[inline]
    fn in_check(pos: &S) -> bool {
        pos.in_check()
    }
    #[inline]
    fn is_quiescence_move(pos: &S, m: S::Move) -> bool {
        pos.is_quiescence_move(m)
    }
    #[inline]
    fn capture_cell(pos: &S, m: S::Move) -> Option<u32> {
        pos.capture_cell(m)
    }
    #[inline]
    fn material_gain(pos: &S, m: S::Move) -> i32 {
        pos.material_gain(m)
    }
    #[inline]
    fn is_losing_capture(pos: &S, m: S::Move, after: &S) -> bool {
        pos.is_losing_capture(m, after)
    }
}

impl<S: GameState> CaptureRules<S> for NoCaptures {
    #[inline]
    fn in_check(_: &S) -> bool {
        false
    }
    #[inline]
    fn is_quiescence_move(_: &S, _: S::Move) -> bool {
        false
    }
    #[inline]
    fn capture_cell(_: &S, _: S::Move) -> Option<u32> {
        None
    }
    #[inline]
    fn material_gain(_: &S, _: S::Move) -> i32 {
        0
    }
    #[inline]
    fn is_losing_capture(_: &S, _: S::Move, _: &S) -> bool {
        false
    }
}

/// A game's exact solver (Connect Four's). A game implements this and sets
/// `type Solver = HasSolver` in its [`AlphaBetaState`]; generic code asks
/// [`AlphaBetaState::solver`].
pub trait ExactSolver: AlphaBetaState {
    /// The solver as a match player: `depth` limits how far it looks,
    /// `seed` breaks ties (see [`AlphaBetaState::solver`]).
    fn perfect_player(depth: Option<u32>, seed: u64) -> Box<dyn PerfectPlayer<Self>>;
}

/// How generic code reaches a game's solver ([`AlphaBetaState::Solver`]):
/// implemented by [`HasSolver`] and [`NoSolver`] alone (sealed).
pub trait SolverSlot<S: GameState>: sealed::Sealed {
    /// The solver, `None` for [`NoSolver`].
    fn player(depth: Option<u32>, seed: u64) -> Option<Box<dyn PerfectPlayer<S>>>;
}

/// `type Solver = HasSolver`: the game implements [`ExactSolver`].
#[derive(Clone, Copy, Debug)]
pub enum HasSolver {}

/// `type Solver = NoSolver`: the game has no exact solver.
#[derive(Clone, Copy, Debug)]
pub enum NoSolver {}

impl<S: ExactSolver> SolverSlot<S> for HasSolver {
    fn player(depth: Option<u32>, seed: u64) -> Option<Box<dyn PerfectPlayer<S>>> {
        Some(S::perfect_player(depth, seed))
    }
}

impl<S: GameState> SolverSlot<S> for NoSolver {
    fn player(_: Option<u32>, _: u64) -> Option<Box<dyn PerfectPlayer<S>>> {
        None
    }
}
