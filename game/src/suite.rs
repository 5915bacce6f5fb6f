//! Benchmark suites: positions whose right answers are known (Pascal
//! Pons's Connect Four files with every column's exact value; a chess
//! EPD's best moves), read by the game that owns their format
//! ([`crate::Game::read_suite`]) into one game-independent shape, so that
//! `triad bench pons` and the loop's per-generation benchmark
//! (`[eval] suite`) score any player on any game that has one.

use crate::GameState;

/// One position and the moves that are not errors in it.
#[derive(Clone, Debug)]
pub struct SuiteCase<S: GameState> {
    pub position: S,
    /// The right moves: a player errs when its move is not one of them.
    /// (For Pons's files, AlphaZero.jl's definition: every move whose
    /// outcome class, win, draw or loss, is as good as the best.)
    pub good: Vec<S::Move>,
}

impl<S: GameState> SuiteCase<S> {
    /// Whether playing `m` here is an error.
    pub fn is_error(&self, m: S::Move) -> bool {
        !self.good.contains(&m)
    }
}

/// One file (or section) of a suite: its name, a short stage label for
/// tables and plots, and its cases in file order.
#[derive(Clone, Debug)]
pub struct SuiteFile<S: GameState> {
    pub name: String,
    pub stage: String,
    pub cases: Vec<SuiteCase<S>>,
}

impl<S: GameState> SuiteFile<S> {
    /// `n` cases spread over the file (every k-th from the first, k =
    /// len / n); all of them for `None` or an `n` at least the file's
    /// length.
    pub fn sample(&self, n: Option<usize>) -> Vec<&SuiteCase<S>> {
        self.sample_indexed(n).into_iter().map(|(_, c)| c).collect()
    }

    /// [`SuiteFile::sample`] with each case's index in the file (0-based:
    /// line `index + 1` of a one-position-a-line file).
    pub fn sample_indexed(&self, n: Option<usize>) -> Vec<(usize, &SuiteCase<S>)> {
        let n = n.unwrap_or(usize::MAX).max(1);
        let step = (self.cases.len() / n).max(1);
        self.cases
            .iter()
            .enumerate()
            .step_by(step)
            .take(n)
            .collect()
    }
}
