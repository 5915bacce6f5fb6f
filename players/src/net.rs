//! Network players for matches: a checkpoint searched with the self-play
//! MCTS (no root noise, the most visited move). They live here because the
//! `eval` crate does not depend on torch; `eval` only sees [`NetFactory`].

use crate::error::{BatchingError, Error};
use crate::lockstep::{self, MatchEvaluator, NetKey};
use crate::spec::{player_search, search_config, symmetry_use};
use eval::arena::players::{NetFactory, NetSpec, Player, PlayerSpec};
use eval::arena::{PlayedGame, RunOptions, Schedule};
use eval::PlayerError;
use game::{AlphaBetaState, Game, GameState, GameTag, History};
use mcts::{Evaluator, NetworkEvaluator, Rng, Search, SearchParams, Symmetrized, SymmetryUse};
use selfplay::EvalServer;
use std::collections::HashMap;
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

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
    type Err = BatchingError;
    fn from_str(s: &str) -> Result<Batching, BatchingError> {
        match s {
            "lockstep" => Ok(Batching::Lockstep),
            "game" => Ok(Batching::Game),
            other => Err(BatchingError {
                value: other.to_string(),
            }),
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
    ) -> Result<Box<dyn Evaluator<S> + Send>, Error> {
        let inner = self.network(tag, &spec.path)?;
        Ok(if symmetries == SymmetryUse::Average(1) {
            inner
        } else {
            Box::new(Symmetrized::with(inner, symmetries))
        })
    }

    /// An evaluator of the checkpoint at `path`, which must be a network
    /// of `tag`'s game and variant.
    fn network(&self, tag: &GameTag, path: &str) -> Result<Box<dyn Evaluator<S> + Send>, Error> {
        let load = || model::Network::load(Path::new(path), tag, self.device).map(|(net, _)| net);
        if !self.shared {
            return Ok(Box::new(NetworkEvaluator::new(load()?)));
        }
        let mut servers = self.servers.lock().map_err(|_| Error::Poisoned)?;
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

impl<G: Game> NetFactory<G> for NetPlayers<G::State>
where
    G::State: AlphaBetaState,
{
    fn build(
        &self,
        game: &G,
        spec: &NetSpec,
        seed: u64,
    ) -> Result<Box<dyn Player<G>>, PlayerError> {
        let config = search_config(spec);
        let symmetries = symmetry_use(spec, game).map_err(Error::from)?;
        Ok(Box::new(NetPlayer {
            evaluator: self.evaluator(&GameTag::of(game), spec, symmetries)?,
            search: player_search(&config, &game.start()),
            sims: spec.sims,
            movetime: spec.movetime.map(Duration::from_millis),
            rng: Rng::new(seed),
        }))
    }

    /// Without a shared server (the CPU), matches are played in lockstep
    /// ([`crate::lockstep`]): each checkpoint loaded once per driver thread, its
    /// leaves batched across that thread's games in flight; with
    /// [`Batching::Game`], game by game (`None`). A match with a
    /// time-limited network player (`movetime=`) is played game by game
    /// too: in lockstep a game's wall time is shared with every game in
    /// flight, so a move's time would not be its own search's.
    fn run_match(
        &self,
        game: &G,
        players: &[PlayerSpec],
        schedule: &Schedule,
        openings: &[G::State],
        opts: &RunOptions,
        on_game: &mut dyn FnMut(&PlayedGame<G>) -> bool,
    ) -> Option<Result<Vec<PlayedGame<G>>, PlayerError>> {
        if self.shared
            || self.batching == Batching::Game
            || lockstep::timed_network(players).is_some()
        {
            return None;
        }
        let tag = GameTag::of(game);
        // The distinct checkpoints, each with the way it uses the
        // symmetries (a checkpoint played two ways is two networks).
        let mut keys: Vec<NetKey> = Vec::new();
        for spec in players {
            let PlayerSpec::Net(n) = spec else { continue };
            let key = match symmetry_use(n, game) {
                Ok(k) => (n.path.clone(), k),
                Err(e) => return Some(Err(Error::from(e).into())),
            };
            if !keys.contains(&key) {
                keys.push(key);
            }
        }
        // A copy of each for every driver thread.
        let mut networks: Vec<Vec<(NetKey, MatchEvaluator<G::State>)>> = Vec::new();
        for _ in 0..opts.threads.max(1) {
            let mut nets = Vec::with_capacity(keys.len());
            for key in &keys {
                match model::Network::load(Path::new(&key.0), &tag, self.device) {
                    Ok((net, _)) => {
                        let e: MatchEvaluator<G::State> = Box::new(NetworkEvaluator::packed(net));
                        nets.push((key.clone(), e));
                    }
                    Err(e) => return Some(Err(Error::from(e).into())),
                }
            }
            networks.push(nets);
        }
        // Each driver runs its forward passes on its own thread.
        let threads_before = tch::get_num_threads();
        tch::set_num_threads(1);
        let result = lockstep::run(game, players, networks, schedule, openings, opts, on_game);
        tch::set_num_threads(threads_before);
        Some(result)
    }
}

/// A network choosing moves by search, its leaves evaluated one at a time.
pub struct NetPlayer<S: GameState> {
    evaluator: Box<dyn Evaluator<S> + Send>,
    search: Search<S>,
    sims: u32,
    /// Wall time per move (`movetime=`): the search stops once it is
    /// spent, counted from the call to `choose`, after one simulation at
    /// least ([`Search::stop_at`]).
    movetime: Option<Duration>,
    rng: Rng,
}

impl<G: Game> Player<G> for NetPlayer<G::State> {
    fn choose(&mut self, game: &History<G::State>) -> G::Move {
        let started = Instant::now();
        let params = SearchParams {
            simulations: self.sims,
            noise: false,
        };
        // The subtree of the moves played since this player's last search
        // with `reuse=true`, else a fresh tree.
        self.search.follow(game);
        match self.movetime {
            None => self
                .search
                .run(game, params, self.evaluator.as_mut(), &mut self.rng),
            Some(budget) => {
                self.search.begin(game, params);
                self.search.stop_at(started + budget);
                let (mut policy, mut wdl) = (Vec::new(), Vec::new());
                while self.search.step(None, &mut self.rng) {
                    self.evaluator
                        .evaluate(&[self.search.request()], &mut policy, &mut wdl);
                    self.search.provide(&policy, wdl[0]);
                }
            }
        }
        self.search.choose_move(0.0, &mut self.rng)
    }

    fn last_simulations(&self) -> Option<u32> {
        Some(self.search.simulations())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use eval::arena::{self, openings::random_openings, players::PlayerSpec, RunOptions, Schedule};
    use model::{CheckpointInfo, Network, Shape};
    use piratechnics::{Piratechnics, Position};

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
            // Every move is on a clock; the network's count simulations,
            // 8 a move at most, and say whether they were in lockstep.
            for g in &games {
                let [w, b] = g.clocks;
                assert_eq!((w.moves + b.moves) as usize, g.game.ply());
                let net = if g.pairing.white == 0 { w } else { b };
                let sims = net.simulations.expect("a network counts simulations");
                assert!(sims >= net.moves && sims <= 8 * net.moves, "{net:?}");
                assert_eq!(net.lockstep, lockstep.is_some());
                let other = if g.pairing.white == 0 { b } else { w };
                assert_eq!((other.simulations, other.lockstep), (None, false));
            }
            assert_eq!(nets.servers.lock().unwrap().len(), shared as usize);
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// A random 1-block network of PiRaTeKnIcS at `path`.
    fn tiny_net(path: &std::path::Path) {
        let game = Piratechnics::standard();
        let shape = Shape {
            blocks: 1,
            channels: 8,
            ..Shape::of(&model::ModelConfig::default(), game.encoding())
        };
        Network::with_shape(shape, tch::Device::Cpu, 3)
            .save(path, &CheckpointInfo::new(&GameTag::of(&game), shape, 0))
            .unwrap();
    }

    /// A `movetime=` player stops each move within its time plus a
    /// generous margin (an upper bound, not a speed), after one simulation
    /// at least; `sims=` caps it well before its time; its matches are not
    /// played in lockstep, and the lockstep driver refuses it by name.
    #[test]
    fn a_movetime_player_stops_on_its_clock() {
        use std::time::{Duration, Instant};
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("tiny.safetensors");
        tiny_net(&path);
        let game = Piratechnics::standard();
        let nets = NetPlayers::<Position>::new(tch::Device::Cpu, false);
        let spec = |text: &str| match text.parse::<PlayerSpec>().unwrap() {
            PlayerSpec::Net(n) => n,
            other => panic!("{other:?}"),
        };
        let timed = spec(&format!("net:{},movetime=40", path.display()));
        let capped = spec(&format!("net:{},movetime=60000,sims=5", path.display()));
        let mut player = nets.build(&game, &timed, 1).unwrap();
        let mut quick = nets.build(&game, &capped, 1).unwrap();
        let margin = Duration::from_millis(250);
        for opening in random_openings(&game, 3, 4, 7) {
            let history = History::new(opening);
            let started = Instant::now();
            player.choose(&history);
            let took = started.elapsed();
            assert!(took <= Duration::from_millis(40) + margin, "{took:?}");
            assert!(player.last_simulations().unwrap() >= 1);
            let started = Instant::now();
            quick.choose(&history);
            // Stopped by its 5 simulations, long before its minute.
            assert!(started.elapsed() < Duration::from_secs(60));
            assert_eq!(quick.last_simulations(), Some(5));
        }
        // A match with it is left to the arena's game-by-game runner, and
        // the lockstep driver refuses it.
        let players = vec![PlayerSpec::Net(timed), PlayerSpec::Random];
        let openings = random_openings(&game, 1, 2, 9);
        let schedule = Schedule::gauntlet(2, 1, openings.len());
        let opts = RunOptions {
            threads: 1,
            max_plies: 4,
            seed: 5,
        };
        assert!(nets
            .run_match(&game, &players, &schedule, &openings, &opts, &mut |_| true)
            .is_none());
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
        assert_eq!(games.len(), 2);
        for g in &games {
            let net = g.clocks[if g.pairing.white == 0 { 0 } else { 1 }];
            assert!(net.moves >= 1 && !net.lockstep, "{net:?}");
            assert!(net.simulations.unwrap() >= net.moves);
            assert!(net.ms_per_move().unwrap() <= 40.0 + 250.0, "{net:?}");
        }
        let refused = crate::lockstep::run::<Piratechnics>(
            &game,
            &players,
            vec![Vec::new()],
            &schedule,
            &openings,
            &opts,
            &mut |_| true,
        )
        .map(|_| ())
        .unwrap_err();
        assert!(refused.to_string().contains("movetime="), "{refused}");
    }
}
