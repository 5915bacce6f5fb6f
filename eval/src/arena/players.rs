//! Players a match can seat: a uniform random mover, the alpha-beta
//! baseline at a named strength, pure MCTS with random playouts, a game's
//! exact solver where it has one (Connect Four), and (from the binary,
//! which has torch) a network with search. Each game gets fresh player instances built from a
//! [`PlayerSpec`], so games can run on several threads. Players are generic
//! over the game `G`.

use crate::search::{EngineSpec, Searcher, MAX_MOVETIME_MS};
use crate::uct::{MctsSpec, Uct};
use crate::PlayerError;
use game::{AlphaBetaState, Game, GameState, History, PerfectPlayer, SplitMix};
use std::fmt;
use std::str::FromStr;

/// Something that picks moves in games of `G`.
pub trait Player<G: Game>: Send {
    /// Picks a legal move for the side to move of `game`, which is not over.
    fn choose(&mut self, game: &History<G::State>) -> G::Move;

    /// The simulations the search of its last move ran, for a player that
    /// counts them (a network player); `None` (the default) for the others.
    fn last_simulations(&self) -> Option<u32> {
        None
    }
}

/// A player described by text: `random`, `ab:depth=3`, `mcts:sims=1000`,
/// `solver`, `solver:depth=8`, `net:PATH,sims=64`.
#[derive(Clone, Debug, PartialEq)]
pub enum PlayerSpec {
    Random,
    AlphaBeta(EngineSpec),
    /// Pure UCT with random playouts (`crate::uct`).
    Mcts(MctsSpec),
    /// The game's exact solver (`solver`), or one that looks `depth`
    /// plies ahead (`solver:depth=N`); only for games that have one.
    Solver(Option<u32>),
    /// A network checkpoint with search settings; built by a [`NetFactory`].
    Net(NetSpec),
}

/// The simulation budget of a `net:…,movetime=` player without `sims=`:
/// no bound but its time.
pub const UNBOUNDED_SIMS: u32 = u32::MAX;

/// How a `net:` player uses the game's symmetries (`symmetry=`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SymmetrySpec {
    /// `none`, the default: each leaf evaluated once, as it is.
    #[default]
    None,
    /// `average`: each leaf evaluated under every symmetry, the answers
    /// averaged (twice the network's work on Connect Four).
    Average,
    /// `random` or `random:SALT`: each leaf evaluated once, under one
    /// symmetry drawn from its position's hash mixed with SALT (default
    /// 0), as AlphaGo Zero drew one at random for each evaluation: the
    /// network's work unchanged.
    Random(u64),
}

/// `net:PATH[,sims=N][,movetime=MS][,algorithm=puct|gumbel][,cpuct=F][,mate_check=B][,solver=B][,leaf_eval=W][,reuse=B][,symmetry=none|average|random[:SALT]][,lcb=F]`:
/// a network checkpoint and how the network player searches with it
/// (docs/loop.md), read and checked once, when the spec's text is parsed.
/// The builder of the player ([`NetFactory`]) maps these onto the search's
/// own configuration.
#[derive(Clone, Debug, PartialEq)]
pub struct NetSpec {
    pub path: String,
    /// Simulations per move (`sims=N`, default 64). With `movetime=` it is
    /// an upper bound, and [`UNBOUNDED_SIMS`] when `sims=` is not given.
    pub sims: u32,
    /// Wall time per move in milliseconds (`movetime=MS`, 1 to
    /// 86,400,000, as `ab:movetime=`): the search runs until MS
    /// milliseconds are spent on the move, at least one simulation, and
    /// stops sooner only when `sims` are spent. `None`, the default: the
    /// simulations alone, and a match reproducible from its seed.
    pub movetime: Option<u64>,
    /// Gumbel AlphaZero at the root (`algorithm=gumbel`); PUCT otherwise
    /// (`algorithm=puct`, the default).
    pub gumbel: bool,
    /// The PUCT exploration constant (`cpuct=F`, above 0); `None`: the
    /// search's default.
    pub cpuct: Option<f32>,
    /// The mate check (`mate_check=true|false`, default true).
    pub mate_check: bool,
    /// The MCTS-solver (`solver=true|false`, default false).
    pub solver: bool,
    /// Weight of the game's quiescence judgement in each leaf's value
    /// (`leaf_eval=W`, in [0, 1], default 0; see `[selfplay]
    /// leaf_eval_weight`).
    pub leaf_eval: f32,
    /// Keep the subtree of the moves played since the last search, its
    /// visits counted in the budget (`reuse=true|false`, default false).
    pub reuse: bool,
    /// The game's symmetries ([`SymmetrySpec`]; `mcts::Symmetrized`):
    /// `symmetry=average` evaluates each leaf as it is and mirrored and
    /// averages the answers, at twice the network's work on Connect Four;
    /// `symmetry=random[:SALT]` evaluates each leaf once under a symmetry
    /// drawn from its hash; `symmetry=none`, the default, evaluates each
    /// leaf once as it is.
    pub symmetry: SymmetrySpec,
    /// LCB move selection (`lcb=F`, F ≥ 0 standard errors; KataGo uses 5):
    /// the move played is the one with the highest lower confidence bound
    /// on its value among those with at least 15% of the most visited
    /// move's visits; 0, the default, plays the most visited move
    /// (`mcts::SearchConfig::lcb_stdevs`).
    pub lcb: f32,
    /// The options after `sims` as they were written (`,key=value` each),
    /// so that a spec prints as it was given.
    written: String,
}

impl NetSpec {
    /// The checkpoint at `path` searched with `sims` simulations and every
    /// other option at its default.
    pub fn new(path: impl Into<String>, sims: u32) -> NetSpec {
        NetSpec {
            path: path.into(),
            sims,
            movetime: None,
            gumbel: false,
            cpuct: None,
            mate_check: true,
            solver: false,
            leaf_eval: 0.0,
            reuse: false,
            symmetry: SymmetrySpec::None,
            lcb: 0.0,
            written: String::new(),
        }
    }

    /// The same with `leaf_eval=weight` (in [0, 1]) added.
    pub fn with_leaf_eval(mut self, weight: f32) -> NetSpec {
        self.leaf_eval = weight;
        self.written.push_str(&format!(",leaf_eval={weight}"));
        self
    }

    /// The same with `reuse=true|false` added.
    pub fn with_reuse(mut self, reuse: bool) -> NetSpec {
        self.reuse = reuse;
        self.written.push_str(&format!(",reuse={reuse}"));
        self
    }

    /// Whether the player searches to a wall-clock time per move
    /// (`movetime=`), which makes its games not reproducible move for move.
    pub fn is_time_limited(&self) -> bool {
        self.movetime.is_some()
    }

    /// Reads one option `k=v` (not `sims`) into its field; an unknown key
    /// or a bad value is an error naming it.
    fn set(&mut self, k: &str, v: &str) -> Result<(), crate::EvalError> {
        let bad = |key: &'static str, expected: &'static str| {
            crate::EvalError::from(crate::SpecError::NetOption {
                key,
                value: v.to_string(),
                expected,
            })
        };
        let flag = |key: &'static str| match v {
            "true" | "1" => Ok(true),
            "false" | "0" => Ok(false),
            _ => Err(bad(key, "true or false")),
        };
        match k {
            "movetime" => {
                self.movetime = Some(
                    v.parse()
                        .ok()
                        .filter(|ms: &u64| (1..=MAX_MOVETIME_MS).contains(ms))
                        .ok_or_else(|| {
                            bad("movetime", "a whole number of milliseconds in 1..=86400000")
                        })?,
                )
            }
            "algorithm" => {
                self.gumbel = match v {
                    "puct" => false,
                    "gumbel" => true,
                    _ => return Err(bad("algorithm", "puct or gumbel")),
                }
            }
            "cpuct" => {
                self.cpuct = Some(
                    v.parse()
                        .ok()
                        .filter(|x: &f32| *x > 0.0)
                        .ok_or_else(|| bad("cpuct", "a positive number"))?,
                )
            }
            "mate_check" => self.mate_check = flag("mate_check")?,
            "solver" => self.solver = flag("solver")?,
            "leaf_eval" => {
                self.leaf_eval = v
                    .parse()
                    .ok()
                    .filter(|x: &f32| (0.0..=1.0).contains(x))
                    .ok_or_else(|| bad("leaf_eval", "a weight between 0 and 1"))?
            }
            "reuse" => self.reuse = flag("reuse")?,
            "symmetry" => {
                let bad = || {
                    bad(
                        "symmetry",
                        "none, average, random or random:SALT (SALT a whole number)",
                    )
                };
                self.symmetry = match v {
                    "none" => SymmetrySpec::None,
                    "average" => SymmetrySpec::Average,
                    "random" => SymmetrySpec::Random(0),
                    _ => match v.strip_prefix("random:") {
                        Some(salt) => SymmetrySpec::Random(salt.trim().parse().map_err(|_| bad())?),
                        None => return Err(bad()),
                    },
                }
            }
            "lcb" => {
                self.lcb = v
                    .parse()
                    .ok()
                    .filter(|x: &f32| x.is_finite() && *x >= 0.0)
                    .ok_or_else(|| {
                        bad(
                            "lcb",
                            "a number of standard errors of 0 or more (KataGo uses 5)",
                        )
                    })?
            }
            _ => return Err(crate::SpecError::UnknownNetOption { key: k.to_string() }.into()),
        }
        self.written.push_str(&format!(",{k}={v}"));
        Ok(())
    }
}

impl fmt::Display for PlayerSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayerSpec::Random => f.write_str("random"),
            PlayerSpec::AlphaBeta(s) => write!(f, "{s}"),
            PlayerSpec::Mcts(s) => write!(f, "{s}"),
            PlayerSpec::Solver(None) => f.write_str("solver"),
            PlayerSpec::Solver(Some(d)) => write!(f, "solver:depth={d}"),
            // A time-limited player without `sims=` has none to print.
            PlayerSpec::Net(n) if n.movetime.is_some() && n.sims == UNBOUNDED_SIMS => {
                write!(f, "net:{}{}", n.path, n.written)
            }
            PlayerSpec::Net(n) => write!(f, "net:{},sims={}{}", n.path, n.sims, n.written),
        }
    }
}

impl FromStr for PlayerSpec {
    type Err = crate::EvalError;
    /// Reads a player spec once, at the edge (a flag, the `[eval]` ladder);
    /// the error ([`crate::EvalError::Spec`]) is one line quoting the spec.
    fn from_str(s: &str) -> Result<PlayerSpec, crate::EvalError> {
        parse_spec(s.trim())
    }
}

/// [`PlayerSpec::from_str`]'s reading of a trimmed spec.
fn parse_spec(s: &str) -> Result<PlayerSpec, crate::EvalError> {
    let bad = |problem: String| {
        crate::EvalError::from(crate::SpecError::Player {
            spec: s.to_string(),
            problem,
        })
    };
    if s == "random" {
        return Ok(PlayerSpec::Random);
    }
    if s.starts_with("ab:") {
        return s
            .parse::<EngineSpec>()
            .map(PlayerSpec::AlphaBeta)
            .map_err(|e| crate::SpecError::Engine(e).into());
    }
    if s.starts_with("mcts:") {
        return s.parse::<MctsSpec>().map(PlayerSpec::Mcts);
    }
    if s == "solver" {
        return Ok(PlayerSpec::Solver(None));
    }
    if let Some(rest) = s.strip_prefix("solver:") {
        let depth = rest
            .trim()
            .strip_prefix("depth=")
            .and_then(|d| d.trim().parse::<u32>().ok())
            .filter(|&d| (1..=64).contains(&d))
            .ok_or_else(|| {
                bad("expected `solver` or `solver:depth=N` with N in 1..=64".to_string())
            })?;
        return Ok(PlayerSpec::Solver(Some(depth)));
    }
    if let Some(rest) = s.strip_prefix("net:") {
        let mut parts = rest.split(',');
        let path = parts.next().unwrap_or("").trim().to_string();
        if path.is_empty() {
            return Err(bad("net: needs a checkpoint path".to_string()));
        }
        let mut spec = NetSpec::new(path, 64);
        let mut sims = None;
        let mut options = Vec::new();
        for p in parts {
            let (k, v) = p
                .split_once('=')
                .ok_or_else(|| bad(format!("`{p}` is not key=value")))?;
            if k.trim() == "sims" {
                sims = Some(
                    v.trim()
                        .parse()
                        .ok()
                        .filter(|&n: &u32| n >= 1)
                        .ok_or_else(|| bad(format!("sims=`{v}` is not a positive number")))?,
                );
            } else {
                options.push((k.trim(), v.trim()));
            }
        }
        // The search options once the spec's shape is known, in order.
        for (k, v) in options {
            spec.set(k, v)?;
        }
        spec.sims = match (sims, spec.movetime) {
            (Some(n), _) => n,
            (None, None) => spec.sims,
            // Gumbel's sequential halving plans its simulations ahead.
            (None, Some(movetime)) if spec.gumbel => {
                return Err(crate::SpecError::GumbelMovetimeWithoutSims { movetime }.into())
            }
            (None, Some(_)) => UNBOUNDED_SIMS,
        };
        return Ok(PlayerSpec::Net(spec));
    }
    Err(bad(
        "expected `random`, `ab:depth=3` (or nodes=/movetime=), `mcts:sims=1000`, `solver[:depth=N]`, or `net:CHECKPOINT,sims=64`"
            .to_string(),
    ))
}

impl PlayerSpec {
    /// Whether the player stops its search on a wall-clock time per move
    /// (`ab:movetime=`, `net:…,movetime=`): its games are not
    /// reproducible move for move, though their openings follow the seed.
    pub fn is_time_limited(&self) -> bool {
        match self {
            PlayerSpec::AlphaBeta(s) => s.limits.movetime.is_some(),
            PlayerSpec::Net(n) => n.is_time_limited(),
            _ => false,
        }
    }

    /// Whether `word` (one comma-separated item of a player list) begins
    /// a new player rather than continuing the previous one's settings
    /// (`ab:depth=3,random=20` is one player, `ab:depth=3,random` two).
    pub fn starts_spec(word: &str) -> bool {
        let w = word.trim();
        w == "random"
            || w == "solver"
            || ["ab:", "mcts:", "net:", "solver:"]
                .iter()
                .any(|p| w.starts_with(p))
    }
}

/// Splits `a,b,c` where specs themselves contain commas (`ab:depth=3,random=20`):
/// a new player starts at every item that begins a spec (`random`, `ab:`,
/// `mcts:`, `solver`, `net:`; see [`PlayerSpec::starts_spec`]).
pub fn split_players(items: &[String]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for item in items {
        for part in item.split(',') {
            let p = part.trim();
            if p.is_empty() {
                continue;
            }
            let starts = PlayerSpec::starts_spec(p);
            match out.last_mut() {
                Some(last) if !starts => {
                    last.push(',');
                    last.push_str(p);
                }
                _ => out.push(p.to_string()),
            }
        }
    }
    out
}

/// The players of a `--players` list: their names as given and their
/// specs; at least two.
pub fn parse_players(items: &[String]) -> Result<(Vec<String>, Vec<PlayerSpec>), crate::EvalError> {
    let names = split_players(items);
    if names.len() < 2 {
        return Err(crate::SpecError::TooFewPlayers.into());
    }
    let players = names
        .iter()
        .map(|n| n.parse())
        .collect::<Result<_, crate::EvalError>>()?;
    Ok((names, players))
}

/// Builds network players of `G` (the binary provides one; `eval` does not
/// depend on torch).
pub trait NetFactory<G: Game>: Sync {
    /// A new player for `spec` in games of `game` (its variant), seeded with
    /// `seed`. A checkpoint of another game or variant is an error.
    fn build(&self, game: &G, spec: &NetSpec, seed: u64)
        -> Result<Box<dyn Player<G>>, PlayerError>;

    /// Plays a whole match whose players include networks, its games in
    /// lockstep so that their leaves go through each network in batches,
    /// as [`crate::arena::run`] describes; `None` (the default) leaves the
    /// match to `run`'s game-per-thread workers.
    fn run_match(
        &self,
        _game: &G,
        _players: &[PlayerSpec],
        _schedule: &super::Schedule,
        _openings: &[G::State],
        _opts: &super::RunOptions,
        _on_game: &mut dyn FnMut(&super::PlayedGame<G>) -> bool,
    ) -> Option<Result<Vec<super::PlayedGame<G>>, PlayerError>> {
        None
    }
}

/// Builds a fresh player for one game of `game`.
pub fn build_player<G: Game>(
    game: &G,
    spec: &PlayerSpec,
    seed: u64,
    nets: Option<&dyn NetFactory<G>>,
) -> Result<Box<dyn Player<G>>, PlayerError>
where
    G::State: AlphaBetaState,
{
    Ok(match spec {
        PlayerSpec::Random => Box::new(RandomPlayer::<G::Move>::new(seed)),
        PlayerSpec::AlphaBeta(s) => Box::new(AlphaBetaPlayer::<G::State>::new(s, seed)),
        PlayerSpec::Mcts(s) => Box::new(MctsPlayer::<G::State>::new(*s, seed)),
        PlayerSpec::Solver(depth) => match G::State::solver(*depth, seed) {
            Some(solver) => Box::new(SolverPlayer { solver }),
            None => {
                return Err(PlayerError::NoSolver {
                    spec: spec.to_string(),
                    game: G::NAME,
                })
            }
        },
        PlayerSpec::Net(n) => match nets {
            Some(f) => f.build(game, n, seed)?,
            None => {
                return Err(PlayerError::NoNetworks {
                    spec: spec.to_string(),
                })
            }
        },
    })
}

/// Plays a uniformly random legal move (`M`: the game's move).
pub struct RandomPlayer<M> {
    rng: SplitMix,
    buf: Vec<M>,
}

impl<M> RandomPlayer<M> {
    pub fn new(seed: u64) -> RandomPlayer<M> {
        RandomPlayer {
            rng: SplitMix::new(seed),
            buf: Vec::new(),
        }
    }
}

impl<G: Game> Player<G> for RandomPlayer<G::Move> {
    fn choose(&mut self, game: &History<G::State>) -> G::Move {
        game.position().legal_moves(&mut self.buf);
        self.buf[self.rng.below(self.buf.len() as u64) as usize]
    }
}

/// The alpha-beta baseline at a fixed strength, for positions `S`.
pub struct AlphaBetaPlayer<S: AlphaBetaState> {
    searcher: Searcher<S>,
    spec: EngineSpec,
}

impl<S: AlphaBetaState> AlphaBetaPlayer<S> {
    /// `seed` varies the engine's optional randomness between games.
    pub fn new(spec: &EngineSpec, seed: u64) -> AlphaBetaPlayer<S> {
        let mut searcher = Searcher::from_spec(spec);
        if spec.random > 0 {
            searcher.set_random(spec.random, spec.seed ^ seed);
        }
        AlphaBetaPlayer {
            searcher,
            spec: *spec,
        }
    }
}

impl<G: Game> Player<G> for AlphaBetaPlayer<G::State>
where
    G::State: AlphaBetaState,
{
    fn choose(&mut self, game: &History<G::State>) -> G::Move {
        let r = self.searcher.search_game(game, self.spec.limits, |_| {});
        match r.best {
            Some(m) => m,
            None => {
                let mut moves = Vec::new();
                game.position().legal_moves(&mut moves);
                moves[0]
            }
        }
    }
}

/// Pure MCTS (UCT, one random playout per leaf) with a fixed number of
/// simulations per move.
pub struct MctsPlayer<S: GameState> {
    uct: Uct<S>,
}

impl<S: GameState> MctsPlayer<S> {
    pub fn new(spec: MctsSpec, seed: u64) -> MctsPlayer<S> {
        MctsPlayer {
            uct: Uct::new(spec, seed),
        }
    }
}

impl<G: Game> Player<G> for MctsPlayer<G::State> {
    fn choose(&mut self, game: &History<G::State>) -> G::Move {
        match self.uct.search(game.position()) {
            Some(m) => m,
            None => {
                let mut moves = Vec::new();
                game.position().legal_moves(&mut moves);
                moves[0]
            }
        }
    }
}

/// A game's own solver seated as a player (see `game::PerfectPlayer`).
pub struct SolverPlayer<S: GameState> {
    solver: Box<dyn PerfectPlayer<S>>,
}

impl<G: Game> Player<G> for SolverPlayer<G::State> {
    fn choose(&mut self, game: &History<G::State>) -> G::Move {
        self.solver.choose(game.position()).0
    }
}

#[cfg(test)]
mod split_tests {
    use super::{parse_players, split_players};

    #[test]
    fn player_lists_split_on_player_words() {
        let v = split_players(&["ab:depth=3,random=20,random,net:x.safetensors,sims=8".into()]);
        assert_eq!(
            v,
            vec!["ab:depth=3,random=20", "random", "net:x.safetensors,sims=8"]
        );
        assert!(parse_players(&["random".into()]).is_err());
        assert_eq!(
            parse_players(&["random,ab:depth=1".into()])
                .unwrap()
                .1
                .len(),
            2
        );
    }
}
