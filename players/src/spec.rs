//! How a `net:` spec becomes a search: its [`SearchConfig`], its use of
//! the game's symmetries, the leaf hint, and the spec the loop gives its
//! own match players. Shared by the players one game at a time
//! ([`crate::net`]) and the lockstep driver ([`crate::lockstep`]).

use eval::arena::players::{NetSpec, SymmetrySpec};
use game::{AlphaBetaState, Game, GameTag};
use mcts::{Algorithm, Search, SearchConfig, SymmetryUse};
use selfplay::SelfplayConfig;

/// The search configuration of a `net:` player (its options are read and
/// checked with the spec, [`NetSpec`]): `algorithm`, `cpuct`,
/// `mate_check` (default true), `solver` (default false), `leaf_eval` (the
/// weight of the game's quiescence judgement in each leaf's value, default
/// 0; see `[selfplay] leaf_eval_weight`), `reuse` (default false: keep the
/// subtree of the moves played since the last search, counting its visits
/// in the budget, as self-play's `tree_reuse`), `lcb` (LCB move selection
/// in standard errors, default 0: the most visited move); every other
/// constant the search's default.
pub fn search_config(spec: &NetSpec) -> SearchConfig {
    let default = SearchConfig::default();
    SearchConfig {
        algorithm: if spec.gumbel {
            Algorithm::Gumbel
        } else {
            Algorithm::Puct
        },
        c_puct: spec.cpuct.unwrap_or(default.c_puct),
        mate_check: spec.mate_check,
        solver: spec.solver,
        leaf_eval_weight: spec.leaf_eval,
        lcb_stdevs: spec.lcb,
        // A match player searches each move afresh unless told to keep
        // the subtree (`reuse=true`).
        tree_reuse: spec.reuse,
        ..default
    }
}

/// How a `net:` player uses the game's symmetries: averaged over all of
/// them with `symmetry=average`, one drawn per evaluation with
/// `symmetry=random[:SALT]`, else none (`Average(1)`: evaluated once, as it
/// is). Asked of a game (or variant) without symmetries, it is an error
/// naming the option.
pub fn symmetry_use<G: Game>(spec: &NetSpec, game: &G) -> Result<SymmetryUse, SymmetryError> {
    let (name, salt) = match spec.symmetry {
        SymmetrySpec::None => return Ok(SymmetryUse::Average(1)),
        SymmetrySpec::Average => ("average", None),
        SymmetrySpec::Random(salt) => ("random", Some(salt)),
    };
    match (game.symmetries(), salt) {
        (k, None) if k > 1 => Ok(SymmetryUse::Average(k)),
        (count, Some(salt)) if count > 1 => Ok(SymmetryUse::Random { count, salt }),
        _ => Err(SymmetryError {
            option: name,
            game: GameTag::of(game).to_string(),
        }),
    }
}

/// A `net:…,symmetry=…` option asked of a game (or variant) without
/// symmetries.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("net player symmetry={option}: {game} has no symmetry to use; remove the option")]
pub struct SymmetryError {
    /// The option's value: `average` or `random`.
    pub option: &'static str,
    /// The game and variant (`connect4/standard`).
    pub game: String,
}

/// The `net:` spec of a match player at `path` with `sims` simulations
/// that searches as the run's self-play does, beyond its simulations: the
/// leaf hint's weight (`[selfplay] leaf_eval_weight`), since the hint is
/// part of the agent, and tree reuse (`[selfplay] tree_reuse` with PUCT,
/// the players' algorithm): the subtree of the moves played since its last
/// search is kept, which cut a 128-simulation match against `ab:depth=1`
/// to 0.83 of its wall time at the same score (docs/methods.md, "Tree
/// reuse in matches").
pub fn selfplay_net_spec(path: String, sims: u32, config: &SelfplayConfig) -> NetSpec {
    let mut spec = NetSpec::new(path, sims);
    if config.leaf_eval_weight > 0.0 {
        spec = spec.with_leaf_eval(config.leaf_eval_weight);
    }
    if config.tree_reuse && config.algorithm == Algorithm::Puct {
        spec = spec.with_reuse(true);
    }
    spec
}

/// The search of a network player with `config`, the quiescence leaf hint
/// included when its `leaf_eval_weight` asks for one.
pub fn player_search<S: AlphaBetaState>(config: &SearchConfig, start: &S) -> Search<S> {
    Search::new(config, start, crate::leafhint::quiescence_hint(config))
}

#[cfg(test)]
mod tests {
    use super::*;
    use eval::arena::players::PlayerSpec;

    /// `net:…,leaf_eval=W` sets the search's leaf weight and refuses a
    /// weight outside [0, 1], naming the option; the loop's players get
    /// the run's `[selfplay] leaf_eval_weight`.
    #[test]
    fn leaf_eval_is_a_weight_and_the_loop_passes_it_on() {
        let spec = |o: &str| -> Result<NetSpec, String> {
            match format!("net:x.safetensors,sims=8,{o}")
                .parse()
                .map_err(|e: eval::EvalError| e.to_string())?
            {
                PlayerSpec::Net(n) => Ok(n),
                other => panic!("{other}"),
            }
        };
        let c = search_config(&spec("leaf_eval=0.25").unwrap());
        assert_eq!(c.leaf_eval_weight, 0.25);
        for bad in ["leaf_eval=1.5", "leaf_eval=-0.1", "leaf_eval=x"] {
            let e = spec(bad).unwrap_err();
            assert!(e.contains("leaf_eval"), "{e}");
        }
        let sp = SelfplayConfig {
            leaf_eval_weight: 0.5,
            ..SelfplayConfig::default()
        };
        let n = selfplay_net_spec("x".into(), 8, &sp);
        assert_eq!(
            PlayerSpec::Net(n.clone()).to_string(),
            "net:x,sims=8,leaf_eval=0.5,reuse=true"
        );
        let c = search_config(&n);
        assert_eq!(c.leaf_eval_weight, 0.5);
        assert!(c.tree_reuse);
        // A player keeps no tree unless told; self-play without reuse, or
        // with Gumbel (which never reuses), asks for none.
        assert!(!search_config(&spec("mate_check=true").unwrap()).tree_reuse);
        for sp in [
            SelfplayConfig {
                tree_reuse: false,
                ..SelfplayConfig::default()
            },
            SelfplayConfig {
                algorithm: Algorithm::Gumbel,
                ..SelfplayConfig::default()
            },
        ] {
            assert_eq!(selfplay_net_spec("x".into(), 8, &sp), NetSpec::new("x", 8));
        }
        assert!(spec("reuse=maybe").unwrap_err().contains("reuse"));
    }
}
