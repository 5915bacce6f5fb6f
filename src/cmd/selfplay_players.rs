//! Network players for matches: a checkpoint searched with the self-play
//! MCTS (no root noise, the most visited move). They live here because the
//! `eval` crate does not depend on torch; `eval` only sees [`NetFactory`].

use eval::arena::players::{NetFactory, NetSpec, Player};
use game::{Game, Move};
use selfplay::{Algorithm, NetworkEvaluator, Rng, Search, SearchParams, SelfplayConfig};
use std::path::Path;

/// Builds `net:` players whose networks run on `device`.
pub struct NetPlayers {
    device: tch::Device,
}

/// The factory for `net:` players on `device` (the run's `[model] device`
/// in the loop, `--device` in `triad eval`).
pub fn factory(device: tch::Device) -> Option<Box<dyn NetFactory>> {
    Some(Box::new(NetPlayers { device }))
}

/// Reads a `net:` spec's options into a search configuration:
/// `algorithm=puct|gumbel`, `cpuct=F`, `mate_check=true|false` (default
/// true). Unknown options are errors.
fn search_config(spec: &NetSpec) -> Result<SelfplayConfig, String> {
    let mut c = SelfplayConfig {
        simulations: spec.sims,
        ..SelfplayConfig::default()
    };
    for (k, v) in &spec.options {
        match k.as_str() {
            "algorithm" => {
                c.algorithm = match v.as_str() {
                    "puct" => Algorithm::Puct,
                    "gumbel" => Algorithm::Gumbel,
                    _ => return Err(format!("net player: algorithm=`{v}` is not puct or gumbel")),
                }
            }
            "cpuct" => {
                c.c_puct =
                    v.parse().ok().filter(|x: &f32| *x > 0.0).ok_or_else(|| {
                        format!("net player: cpuct=`{v}` is not a positive number")
                    })?
            }
            "mate_check" => {
                c.mate_check = match v.as_str() {
                    "true" | "1" => true,
                    "false" | "0" => false,
                    _ => return Err(format!("net player: mate_check=`{v}` is not true or false")),
                }
            }
            _ => {
                return Err(format!(
                    "net player: unknown option `{k}` (known: sims, algorithm, cpuct, mate_check)"
                ))
            }
        }
    }
    Ok(c)
}

impl NetFactory for NetPlayers {
    fn build(&self, spec: &NetSpec, seed: u64) -> Result<Box<dyn Player>, String> {
        let config = search_config(spec)?;
        let (net, _) =
            model::Network::load(Path::new(&spec.path), self.device).map_err(|e| e.to_string())?;
        Ok(Box::new(NetPlayer {
            evaluator: NetworkEvaluator::new(net),
            search: Search::new(&config),
            sims: spec.sims,
            rng: Rng::new(seed),
        }))
    }
}

/// A network choosing moves by search.
pub struct NetPlayer {
    evaluator: NetworkEvaluator,
    search: Search,
    sims: u32,
    rng: Rng,
}

impl Player for NetPlayer {
    fn choose(&mut self, game: &Game) -> Move {
        let params = SearchParams {
            simulations: self.sims,
            noise: false,
        };
        // A fresh tree each move: the opponent's moves never went through
        // this search, so a kept tree would describe another position.
        self.search.reset();
        self.search
            .run(game, params, &mut self.evaluator, &mut self.rng);
        self.search.choose_move(0.0, &mut self.rng)
    }
}
