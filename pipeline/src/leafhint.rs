//! The leaf hint the search mixes into the network's value
//! (`[selfplay] leaf_eval_weight`, `net:…,leaf_eval=W`): the `ab:`
//! engine's quiescence value of the leaf, as a win probability.

use eval::search::Searcher;
use game::AlphaBetaState;
use mcts::{LeafHint, SearchConfig};

/// Centipawns at which the hint says 73% (`1 / (1 + e^-1)`): the scale
/// `[train] value_eval_scale` uses too, so a pawn ahead is 56%, a piece
/// (about 300) 68%, a rook 78%.
pub const HINT_SCALE: f32 = 400.0;

/// The quiescence value of a leaf (captures played out, default
/// evaluation weights) as `1 / (1 + exp(-cp / 400))`.
pub struct QuiescenceHint<S: AlphaBetaState> {
    engine: Searcher<S>,
}

impl<S: AlphaBetaState> QuiescenceHint<S> {
    pub fn new() -> QuiescenceHint<S> {
        QuiescenceHint {
            engine: Searcher::for_quiescence(),
        }
    }
}

impl<S: AlphaBetaState> Default for QuiescenceHint<S> {
    fn default() -> Self {
        QuiescenceHint::new()
    }
}

impl<S: AlphaBetaState> LeafHint<S> for QuiescenceHint<S> {
    fn win_probability(&mut self, position: &S) -> f32 {
        game::win_probability(self.engine.quiescence_value(position) as f32, HINT_SCALE)
    }
}

/// The leaf hint a search with `config` needs: the quiescence hint when
/// its `leaf_eval_weight` is above 0, else none.
pub fn quiescence_hint<S: AlphaBetaState>(config: &SearchConfig) -> Option<Box<dyn LeafHint<S>>> {
    (config.leaf_eval_weight > 0.0).then(|| Box::new(QuiescenceHint::<S>::new()) as _)
}
