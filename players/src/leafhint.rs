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

/// A fresh quiescence hint, boxed: what self-play makes each game's hint
/// with (`selfplay::shards::MakeLeafHint`, `[selfplay] leaf_eval_weight`).
pub fn new_quiescence_hint<S: AlphaBetaState>() -> Box<dyn LeafHint<S>> {
    Box::new(QuiescenceHint::<S>::new())
}

/// The leaf hint a search with `config` needs: the quiescence hint when
/// its `leaf_eval_weight` is above 0, else none.
pub fn quiescence_hint<S: AlphaBetaState>(config: &SearchConfig) -> Option<Box<dyn LeafHint<S>>> {
    (config.leaf_eval_weight > 0.0).then(|| Box::new(QuiescenceHint::<S>::new()) as _)
}

#[cfg(test)]
mod tests {
    use super::*;
    use game::GameState;
    use piratechnics::Position;

    /// The quiescence hint: the start is about even; elsewhere the
    /// hint is at least the static evaluation's probability (the side to
    /// move may stand pat, out of check) and above it where a capture
    /// wins material, so it is the captures-played-out judgement.
    #[test]
    fn the_quiescence_hint_plays_out_the_captures() {
        use mcts::LeafHint;
        let mut hint = QuiescenceHint::<Position>::new();
        let mut engine = eval::Searcher::<Position>::new(1);
        let start = Position::start();
        let even = hint.win_probability(&start);
        assert!((even - 0.5).abs() < 0.05, "start: {even}");
        let prob = |cp: i32| game::win_probability(cp as f32, HINT_SCALE);
        let mut rng = game::SplitMix::new(3);
        let mut moves = Vec::new();
        let (mut checked, mut gains) = (0, 0);
        for _ in 0..6 {
            let mut pos = start.clone();
            for _ in 0..60 {
                pos.legal_moves(&mut moves);
                if moves.is_empty() || pos.terminal(true, 1).is_some() {
                    break;
                }
                let p = hint.win_probability(&pos);
                assert!((0.0..=1.0).contains(&p), "{p}");
                if !pos.in_check() {
                    let stand = prob(engine.evaluate(&pos));
                    assert!(p >= stand - 1e-6, "{pos}: hint {p} below static {stand}");
                    checked += 1;
                    if p > stand + 0.05 {
                        gains += 1;
                    }
                }
                pos = pos.play(moves[rng.below(moves.len() as u64) as usize]);
            }
        }
        assert!(
            checked > 100 && gains > 0,
            "{checked} positions, {gains} gains"
        );
    }
}
