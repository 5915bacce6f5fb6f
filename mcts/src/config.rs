//! The search's configuration: [`SearchConfig`], every constant one
//! search of one game runs with (the leaf hint's weight included), and
//! [`Algorithm`]. Self-play reads it from its `[selfplay]` section
//! (`selfplay::SelfplayConfig::search`), match players from their `net:`
//! spec. The constants are described in `docs/selfplay.md`.

use serde::{Deserialize, Serialize};

/// Which search runs at the root.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Algorithm {
    /// AlphaZero's PUCT with Dirichlet noise and a move temperature.
    Puct,
    /// Gumbel AlphaZero at the root (Gumbel top-k, sequential halving,
    /// completed-Q policy target); PUCT below the root.
    Gumbel,
}

/// Everything a [`crate::Search`] runs with, taken whole by
/// [`crate::Search::new`]. The fields mean what the `[selfplay]` keys of
/// the same names mean (docs/selfplay.md); the defaults are theirs.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchConfig {
    /// PUCT or Gumbel at the root (default PUCT).
    pub algorithm: Algorithm,
    /// PUCT exploration constant (default 1.5).
    pub c_puct: f32,
    /// First-play urgency reduction below the root (default 0.2).
    pub fpu_reduction: f32,
    /// First-play urgency reduction at the root (default 0.0).
    pub root_fpu_reduction: f32,
    /// Dirichlet noise concentration at the root of full PUCT searches (default 0.3).
    pub dirichlet_alpha: f32,
    /// Weight of the noise in the root priors (default 0.25; 0 disables).
    pub dirichlet_epsilon: f32,
    /// Gumbel: actions sampled at the root (default 16).
    pub gumbel_m: u32,
    /// Gumbel: c_visit of the sigma transform of Q (default 50).
    pub gumbel_c_visit: f32,
    /// Gumbel: c_scale of the sigma transform of Q (default 1.0).
    pub gumbel_c_scale: f32,
    /// Keep the subtree of the played move for the next search (PUCT only;
    /// default true).
    pub tree_reuse: bool,
    /// Look for a mating move whenever a node is expanded (default true).
    pub mate_check: bool,
    /// The MCTS-solver: proven results propagate up the tree (default false).
    pub solver: bool,
    /// KataGo's forced playouts and policy-target pruning, `k` (PUCT only;
    /// default 0: off).
    pub forced_playouts: f32,
    /// Weight of the leaf hint ([`crate::LeafHint`]) in every expanded
    /// leaf's value, in [0, 1] (default 0: the network alone). A weight
    /// above 0 needs the hint, handed to [`crate::Search::new`] with it.
    pub leaf_eval_weight: f32,
    /// The move at temperature 0 by a lower confidence bound on its value
    /// (KataGo's LCB selection), in standard errors (default 0: off, the
    /// most visited move). Among the root moves with at least
    /// [`crate::LCB_MIN_VISIT_SHARE`] of the most visited move's visits,
    /// the one whose mean value less `lcb_stdevs` standard errors of that
    /// mean is highest is played; KataGo uses 5. Move choice only: the
    /// search and the visit counts (the policy targets) are unchanged.
    /// PUCT only. See docs/selfplay.md, "LCB move selection".
    pub lcb_stdevs: f32,
}

impl Default for SearchConfig {
    fn default() -> Self {
        SearchConfig {
            algorithm: Algorithm::Puct,
            c_puct: 1.5,
            fpu_reduction: 0.2,
            root_fpu_reduction: 0.0,
            dirichlet_alpha: 0.3,
            dirichlet_epsilon: 0.25,
            gumbel_m: 16,
            gumbel_c_visit: 50.0,
            gumbel_c_scale: 1.0,
            tree_reuse: true,
            mate_check: true,
            solver: false,
            forced_playouts: 0.0,
            leaf_eval_weight: 0.0,
            lcb_stdevs: 0.0,
        }
    }
}
