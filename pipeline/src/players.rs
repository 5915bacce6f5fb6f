//! Network players for matches: a checkpoint searched with the self-play
//! MCTS (no root noise, the most visited move). They live here because the
//! `eval` crate does not depend on torch; `eval` only sees [`NetFactory`].

use eval::arena::players::{NetFactory, NetSpec, Player, PlayerSpec, SymmetrySpec};
use eval::arena::{PlayedGame, RunOptions, Schedule};
use game::{AlphaBetaState, Game, GameState, GameTag, History};
use mcts::{
    Algorithm, Evaluator, NetworkEvaluator, Rng, Search, SearchConfig, SearchParams, Symmetrized,
    SymmetryUse,
};
use selfplay::{EvalServer, SelfplayConfig};
use std::collections::HashMap;
use std::path::Path;
use std::sync::{Arc, Mutex};

/// Builds `net:` players whose networks run on `device`.
///
/// On CUDA the players of one checkpoint share one network behind an
/// [`EvalServer`], so the leaves of all games played at once go through the
/// GPU together (a batch-1 forward pass is all latency there). On the CPU a
/// whole match is played in lockstep ([`crate::lockstep`]): each thread's
/// games batch their leaves through its own copy of each network in a fixed
/// order, so a match is reproducible bit for bit from its seed; `build`
/// (one player evaluating its own leaves) serves single games.
pub struct NetPlayers<S: GameState> {
    device: tch::Device,
    shared: bool,
    batching: Batching,
    servers: Mutex<HashMap<String, Arc<EvalServer<S>>>>,
}

/// How a match with network players on the CPU is played (`triad eval
/// --batching`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Batching {
    /// In lockstep ([`crate::lockstep`]): each thread's games batch their
    /// leaves through its own copy of each network.
    #[default]
    Lockstep,
    /// Game by game: each thread plays one game at a time, each network
    /// player evaluating its own leaves one at a time (the runner before
    /// lockstep; kept to measure against it).
    Game,
}

impl std::str::FromStr for Batching {
    type Err = String;
    fn from_str(s: &str) -> Result<Batching, String> {
        match s {
            "lockstep" => Ok(Batching::Lockstep),
            "game" => Ok(Batching::Game),
            other => Err(format!(
                "unknown batching `{other}`: use `lockstep` or `game`"
            )),
        }
    }
}

/// Leaves in one shared forward pass at most.
const SHARED_MAX_BATCH: usize = 1024;

/// The factory for `net:` players on `device` (the run's `[model] device`
/// in the loop, `--device` in `triad eval`).
///
/// On the CPU it sets libtorch's intra-op threads to 1: matches and
/// benchmarks run one game or position per worker thread, each player
/// evaluating one leaf at a time, and libtorch's own threads (one per core
/// by default) would only compete with those workers. Measured on the
/// 2-core machine: `bench pons --threads 2` ran 2.6 times slower with the
/// default. The loop's stages set their own thread counts again.
pub fn factory<G: Game>(device: tch::Device) -> Option<Box<dyn NetFactory<G>>>
where
    G::State: AlphaBetaState,
{
    factory_with(device, Batching::Lockstep)
}

/// [`factory`] with matches on the CPU played as `batching` says.
pub fn factory_with<G: Game>(
    device: tch::Device,
    batching: Batching,
) -> Option<Box<dyn NetFactory<G>>>
where
    G::State: AlphaBetaState,
{
    if !device.is_cuda() {
        tch::set_num_threads(1);
    }
    let mut nets = NetPlayers::<G::State>::new(device, device.is_cuda());
    nets.batching = batching;
    Some(Box::new(nets))
}

impl<S: GameState> NetPlayers<S> {
    /// `shared`: one [`EvalServer`] per checkpoint instead of a network per
    /// player.
    pub fn new(device: tch::Device, shared: bool) -> NetPlayers<S> {
        NetPlayers {
            device,
            shared,
            batching: Batching::Lockstep,
            servers: Mutex::new(HashMap::new()),
        }
    }

    /// The evaluator of `spec`'s checkpoint, which must be a network of
    /// `tag`'s game and variant, under the symmetries as `symmetries` says
    /// ([`symmetry_use`]; `Average(1)`: evaluated once, as it is).
    fn evaluator(
        &self,
        tag: &GameTag,
        spec: &NetSpec,
        symmetries: SymmetryUse,
    ) -> Result<Box<dyn Evaluator<S> + Send>, String> {
        let inner = self.network(tag, &spec.path)?;
        Ok(if symmetries == SymmetryUse::Average(1) {
            inner
        } else {
            Box::new(Symmetrized::with(inner, symmetries))
        })
    }

    /// An evaluator of the checkpoint at `path`, which must be a network
    /// of `tag`'s game and variant.
    fn network(&self, tag: &GameTag, path: &str) -> Result<Box<dyn Evaluator<S> + Send>, String> {
        let load = || {
            model::Network::load(Path::new(path), tag, self.device)
                .map(|(net, _)| net)
                .map_err(|e| e.to_string())
        };
        if !self.shared {
            return Ok(Box::new(NetworkEvaluator::new(load()?)));
        }
        let mut servers = self
            .servers
            .lock()
            .map_err(|_| "net players: a game thread panicked")?;
        let server = match servers.get(path) {
            Some(s) => s.clone(),
            None => {
                let s = Arc::new(EvalServer::start(load()?, SHARED_MAX_BATCH));
                servers.insert(path.to_string(), s.clone());
                s
            }
        };
        Ok(Box::new(server.client()))
    }
}

/// The search configuration of a `net:` player (its options are read and
/// checked with the spec, [`NetSpec`]): `algorithm`, `cpuct`,
/// `mate_check` (default true), `solver` (default false), `leaf_eval` (the
/// weight of the game's quiescence judgement in each leaf's value, default
/// 0; see `[selfplay] leaf_eval_weight`), `reuse` (default false: keep the
/// subtree of the moves played since the last search, counting its visits
/// in the budget, as self-play's `tree_reuse`), `lcb` (LCB move selection
/// in standard errors, default 0: the most visited move); every other
/// constant the search's default.
pub(crate) fn search_config(spec: &NetSpec) -> SearchConfig {
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
pub(crate) fn symmetry_use<G: Game>(spec: &NetSpec, game: &G) -> Result<SymmetryUse, String> {
    let (name, salt) = match spec.symmetry {
        SymmetrySpec::None => return Ok(SymmetryUse::Average(1)),
        SymmetrySpec::Average => ("average", None),
        SymmetrySpec::Random(salt) => ("random", Some(salt)),
    };
    match (game.symmetries(), salt) {
        (k, None) if k > 1 => Ok(SymmetryUse::Average(k)),
        (count, Some(salt)) if count > 1 => Ok(SymmetryUse::Random { count, salt }),
        _ => Err(format!(
            "net player symmetry={name}: {} has no symmetry to use; remove the option",
            GameTag::of(game)
        )),
    }
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
pub(crate) fn player_search<S: AlphaBetaState>(config: &SearchConfig, start: &S) -> Search<S> {
    Search::new(config, start, crate::leafhint::quiescence_hint(config))
}

impl<G: Game> NetFactory<G> for NetPlayers<G::State>
where
    G::State: AlphaBetaState,
{
    fn build(&self, game: &G, spec: &NetSpec, seed: u64) -> Result<Box<dyn Player<G>>, String> {
        let config = search_config(spec);
        Ok(Box::new(NetPlayer {
            evaluator: self.evaluator(&GameTag::of(game), spec, symmetry_use(spec, game)?)?,
            search: player_search(&config, &game.start()),
            sims: spec.sims,
            rng: Rng::new(seed),
        }))
    }

    /// Without a shared server (the CPU), matches are played in lockstep
    /// (crate::lockstep): each checkpoint loaded once per driver thread, its
    /// leaves batched across that thread's games in flight; with
    /// [`Batching::Game`], game by game (`None`).
    fn run_match(
        &self,
        game: &G,
        players: &[PlayerSpec],
        schedule: &Schedule,
        openings: &[G::State],
        opts: &RunOptions,
        on_game: &mut dyn FnMut(&PlayedGame<G>) -> bool,
    ) -> Option<Result<Vec<PlayedGame<G>>, String>> {
        if self.shared || self.batching == Batching::Game {
            return None;
        }
        let tag = GameTag::of(game);
        // The distinct checkpoints, each with the way it uses the
        // symmetries (a checkpoint played two ways is two networks).
        let mut keys: Vec<crate::lockstep::NetKey> = Vec::new();
        for spec in players {
            let PlayerSpec::Net(n) = spec else { continue };
            let key = match symmetry_use(n, game) {
                Ok(k) => (n.path.clone(), k),
                Err(e) => return Some(Err(e)),
            };
            if !keys.contains(&key) {
                keys.push(key);
            }
        }
        // A copy of each for every driver thread.
        let mut networks: Vec<Vec<(crate::lockstep::NetKey, model::Network)>> = Vec::new();
        for _ in 0..opts.threads.max(1) {
            let mut nets = Vec::with_capacity(keys.len());
            for key in &keys {
                match model::Network::load(Path::new(&key.0), &tag, self.device) {
                    Ok((net, _)) => nets.push((key.clone(), net)),
                    Err(e) => return Some(Err(e.to_string())),
                }
            }
            networks.push(nets);
        }
        Some(crate::lockstep::run(
            game, players, networks, schedule, openings, opts, on_game,
        ))
    }
}

/// A network choosing moves by search.
pub struct NetPlayer<S: GameState> {
    evaluator: Box<dyn Evaluator<S> + Send>,
    search: Search<S>,
    sims: u32,
    rng: Rng,
}

impl<G: Game> Player<G> for NetPlayer<G::State> {
    fn choose(&mut self, game: &History<G::State>) -> G::Move {
        let params = SearchParams {
            simulations: self.sims,
            noise: false,
        };
        // The subtree of the moves played since this player's last search
        // with `reuse=true`, else a fresh tree.
        self.search.follow(game);
        self.search
            .run(game, params, self.evaluator.as_mut(), &mut self.rng);
        self.search.choose_move(0.0, &mut self.rng)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use eval::arena::{self, openings::random_openings, players::PlayerSpec, RunOptions, Schedule};
    use model::{CheckpointInfo, Network, Shape};
    use piratechnics::{Piratechnics, Position};

    /// `net:…,leaf_eval=W` sets the search's leaf weight and refuses a
    /// weight outside [0, 1], naming the option; the loop's players get
    /// the run's `[selfplay] leaf_eval_weight`.
    #[test]
    fn leaf_eval_is_a_weight_and_the_loop_passes_it_on() {
        let spec = |o: &str| -> Result<NetSpec, String> {
            match format!("net:x.safetensors,sims=8,{o}").parse()? {
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

    /// The quiescence hint: the start is about even; elsewhere the
    /// hint is at least the static evaluation's probability (the side to
    /// move may stand pat, out of check) and above it where a capture
    /// wins material, so it is the captures-played-out judgement.
    #[test]
    fn the_quiescence_hint_plays_out_the_captures() {
        use mcts::LeafHint;
        let mut hint = crate::leafhint::QuiescenceHint::<Position>::new();
        let mut engine = eval::Searcher::<Position>::new(1);
        let start = Position::start();
        let even = hint.win_probability(&start);
        assert!((even - 0.5).abs() < 0.05, "start: {even}");
        let prob = |cp: i32| game::win_probability(cp as f32, crate::leafhint::HINT_SCALE);
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

    /// Games on four threads whose net players share one evaluation server
    /// (what CUDA gets), games in lockstep (the CPU default) and games
    /// whose players each own their network (`--batching game`) all end
    /// properly; each game's moves are legal (the arena replays them
    /// through the rules).
    #[test]
    fn shared_and_private_net_players_play_whole_matches() {
        let dir = std::env::temp_dir().join(format!("triad-netplayers-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("tiny.safetensors");
        let game = Piratechnics::standard();
        let shape = Shape {
            blocks: 1,
            channels: 8,
            ..Shape::of(&model::ModelConfig::default(), game.encoding())
        };
        let net = Network::with_shape(shape, tch::Device::Cpu, 3);
        net.save(&path, &CheckpointInfo::new(&GameTag::of(&game), shape, 0))
            .unwrap();
        let players: Vec<PlayerSpec> = [format!("net:{},sims=8", path.display()), "random".into()]
            .iter()
            .map(|s| s.parse().unwrap())
            .collect();
        let openings = random_openings(&game, 4, 2, 9);
        let schedule = Schedule::gauntlet(2, 4, openings.len());
        let opts = RunOptions {
            threads: 4,
            max_plies: 60,
            seed: 5,
        };
        for (shared, batching) in [
            (true, Batching::Lockstep),
            (false, Batching::Lockstep),
            (false, Batching::Game),
        ] {
            let mut nets = NetPlayers::<Position>::new(tch::Device::Cpu, shared);
            nets.batching = batching;
            // Lockstep plays the CPU's matches; a shared server, or the
            // game-by-game runner, leaves them to the arena's workers.
            let lockstep =
                nets.run_match(&game, &players, &schedule, &openings, &opts, &mut |_| true);
            assert_eq!(
                lockstep.is_some(),
                !shared && batching == Batching::Lockstep
            );
            let games = arena::run(
                &game,
                &players,
                &schedule,
                &openings,
                &opts,
                Some(&nets),
                |_| true,
            )
            .unwrap();
            assert_eq!(games.len(), 8, "shared = {shared}");
            assert!(games.iter().all(|g| g.game.ply() > 0));
            assert_eq!(nets.servers.lock().unwrap().len(), shared as usize);
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
