//! Self-play and matches driven by a Python model ([`PyEvaluator`]):
//! `triad.SelfPlay`, the self-play driver of `triad selfplay` writing the
//! same shards, and `triad.play_match`, a match in lockstep whose `net:`
//! players may be Python models named in `models`.

use crate::dynamic::DynGame;
use crate::evaluator::{ModelForm, PyEvaluator, Timing};
use crate::{value_error, PyGame};
use eval::arena::players::{NetFactory, NetSpec, Player, PlayerSpec};
use eval::arena::{PlayedGame, RunOptions, Schedule, Table};
use eval::PlayerError;
use game::{AlphaBetaState, Game, GameResult, GameTag};
use mcts::NetworkEvaluator;
use players::lockstep::{self, MatchEvaluator, NetKey};
use pyo3::exceptions::{PyOSError, PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use selfplay::shards::{progress_message, Diagnostics, Job, ShardRun, ShardsError};
use selfplay::{SelfplayConfig, Totals};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// What a self-play job asks, as the Python call gave it.
struct SelfPlayRequest {
    pub model: Py<PyAny>,
    pub form: ModelForm,
    pub config: SelfplayConfig,
    pub job: Job,
}

/// A self-play job driven by a Python model, of one game.
trait DynSelfPlay: Send {
    /// Plays until every game is played (the last shard published) or the
    /// model fails (its error raised; the job can be played on).
    fn play(&mut self, py: Python<'_>) -> PyResult<()>;
    /// The figures so far.
    fn report(&self) -> Report;
}

/// A self-play job's figures.
struct Report {
    totals: Totals,
    shards: Vec<PathBuf>,
    seconds: f64,
    timing: Timing,
    done: bool,
}

/// The job of one game.
struct Driven<G: Game> {
    run: Option<ShardRun<G>>,
    /// The job's games (the progress bar's length).
    games: u64,
    evaluator: PyEvaluator<G::State>,
    totals: Totals,
    shards: Vec<PathBuf>,
    seconds: f64,
    /// One writer per folder, as `triad selfplay`, until the job is done.
    lock: Option<pipeline::lock::RunLock>,
}

/// A self-play job of `game` (module docs).
fn selfplay_of<G: Game>(game: &G, request: SelfPlayRequest) -> PyResult<Box<dyn DynSelfPlay>>
where
    G::State: AlphaBetaState,
{
    let SelfPlayRequest {
        model,
        form,
        config,
        job,
    } = request;
    ShardRun::<G>::prepare(&job).map_err(shards_error)?;
    let lock = pipeline::lock::RunLock::acquire(&job.out, "triad.SelfPlay")
        .map_err(|e| PyOSError::new_err(e.to_string()))?;
    let evaluator = PyEvaluator::new(model, form, game.action_codes())?;
    let hint = &players::new_quiescence_hint::<G::State>;
    let run = ShardRun::new(game, &config, &job, None, hint);
    Ok(Box::new(Driven {
        run: Some(run),
        games: job.games,
        evaluator,
        totals: Totals::default(),
        shards: Vec::new(),
        seconds: 0.0,
        lock: Some(lock),
    }))
}

/// A self-play failure as the Python error it is: bad input a
/// `ValueError`, a file that cannot be written an `OSError`.
fn shards_error(e: ShardsError) -> PyErr {
    if e.is_input() {
        PyValueError::new_err(e.to_string())
    } else {
        PyOSError::new_err(e.to_string())
    }
}

impl<G: Game> DynSelfPlay for Driven<G>
where
    G::State: AlphaBetaState,
{
    fn play(&mut self, py: Python<'_>) -> PyResult<()> {
        let Some(run) = self.run.as_mut() else {
            return Ok(());
        };
        let stop = AtomicBool::new(false);
        let bar = indicatif::ProgressBar::new(self.games);
        let started = Instant::now();
        let evaluator = &mut self.evaluator;
        let result = py.detach(|| {
            run.play(evaluator, &stop, &mut |t: &Totals| {
                let d = Diagnostics::of(t, started.elapsed().as_secs_f64(), 1, 0.0);
                bar.set_position(t.games);
                bar.set_message(progress_message(t, &d));
            })
        });
        bar.finish_and_clear();
        self.seconds += started.elapsed().as_secs_f64();
        self.totals = *run.totals();
        self.shards = run.shards().iter().map(|s| s.path.clone()).collect();
        match result {
            Ok(()) => {
                let Some(run) = self.run.take() else {
                    return Ok(());
                };
                let (totals, shards, _) = run.finish().map_err(shards_error)?;
                self.totals = totals;
                self.shards = shards.into_iter().map(|s| s.path).collect();
                self.lock = None;
                Ok(())
            }
            Err(ShardsError::Declined(_)) => {
                Err(self.evaluator.take_error().unwrap_or_else(|| {
                    PyRuntimeError::new_err("the evaluator declined a batch without an error")
                }))
            }
            Err(e) => {
                // A shard that cannot be written: the job cannot go on.
                self.run = None;
                self.lock = None;
                Err(shards_error(e))
            }
        }
    }

    fn report(&self) -> Report {
        Report {
            totals: self.totals,
            shards: self.shards.clone(),
            seconds: self.seconds,
            timing: self.evaluator.timing,
            done: self.run.is_none(),
        }
    }
}

/// Self-play driven by your own model: the self-play driver of `triad
/// selfplay` (the same search, settings, leaf hint, adjudication and shard
/// schema), its leaves evaluated by `model`, a Python callable.
#[pyclass(module = "triad._triad", name = "SelfPlay")]
pub struct PySelfPlay {
    inner: Mutex<Box<dyn DynSelfPlay>>,
}

fn locked(s: &PySelfPlay) -> std::sync::MutexGuard<'_, Box<dyn DynSelfPlay>> {
    s.inner.lock().unwrap_or_else(|e| e.into_inner())
}

#[pymethods]
impl PySelfPlay {
    /// `games` games of `game` into shards under `out`, the leaves of
    /// their searches evaluated by `model(batch) -> (policy, value)`.
    /// `config`: a run file whose `[selfplay]` section sets the search
    /// (its `[game]` must be `game`; default: `[selfplay]`'s defaults);
    /// `seed` seeds the games, ids run from `first_game_id`, `shard_games`
    /// games per shard; `model_id` is written on every row. `logits`:
    /// the model answers logits rather than probabilities; `actions`: its
    /// policy has a column per move code (games of at most 4096 codes).
    #[new]
    #[pyo3(signature = (game, model, out, games, *, config=None, seed=1, first_game_id=0,
        shard_games=1000, model_id="python", logits=false, actions=false))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        game: &PyGame,
        model: Py<PyAny>,
        out: PathBuf,
        games: u64,
        config: Option<PathBuf>,
        seed: u64,
        first_game_id: u64,
        shard_games: u64,
        model_id: &str,
        logits: bool,
        actions: bool,
    ) -> PyResult<PySelfPlay> {
        let config = match config {
            Some(path) => selfplay_section(game.inner.as_ref(), &path)?,
            None => SelfplayConfig::default(),
        };
        let request = SelfPlayRequest {
            model,
            form: ModelForm { logits, actions },
            config,
            job: Job {
                out,
                games,
                first_game_id,
                seed,
                shard_games,
                model_id: model_id.to_string(),
            },
        };
        let any = registry_game(game.inner.as_ref())?;
        let inner = registry::with_game!(any, |g| selfplay_of(&g, request))?;
        Ok(PySelfPlay {
            inner: Mutex::new(inner),
        })
    }

    /// Plays until every game is played and returns the report (a dict:
    /// `games`, `positions`, `evaluations`, `shards`, `seconds`,
    /// `positions_per_second`, `model_calls`, `mean_batch`,
    /// `model_seconds` (inside the callable), `io_seconds` (filling its
    /// arrays, checking its answers), `done`). When the model raises or
    /// answers wrongly, that error is raised here, nothing it answered is
    /// used, and `play()` called again goes on where it stopped.
    fn play<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let mut inner = locked(self);
        inner.play(py)?;
        report_dict(py, &inner.report())
    }

    /// The report so far, as `play` returns it.
    fn report<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        report_dict(py, &locked(self).report())
    }
}

/// The registry's game of `game` (its name and variant), for the calls
/// that need the game's own type.
fn registry_game(game: &dyn DynGame) -> PyResult<registry::AnyGame> {
    registry::build(&registry::GameSpec::recorded(game.name(), &game.variant()))
        .map_err(value_error)
}

/// The `[selfplay]` section of the run file at `path`, whose game must be
/// `game`.
fn selfplay_section(game: &dyn DynGame, path: &Path) -> PyResult<SelfplayConfig> {
    let run = pipeline::load_run(path).map_err(value_error)?;
    let theirs = crate::dynamic::of_any(&run.game);
    if theirs.name() != game.name() || theirs.variant() != game.variant() {
        return Err(value_error(format!(
            "{}: the run file's game is {}/{}, not {}/{}",
            path.display(),
            theirs.name(),
            theirs.variant(),
            game.name(),
            game.variant()
        )));
    }
    Ok(run.config.selfplay)
}

fn report_dict<'py>(py: Python<'py>, r: &Report) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    let t = &r.totals;
    let secs = r.seconds.max(1e-9);
    d.set_item("games", t.games)?;
    d.set_item("positions", t.positions)?;
    d.set_item("evaluations", t.evaluations)?;
    let shards: Vec<String> = r
        .shards
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    d.set_item("shards", shards)?;
    d.set_item("seconds", r.seconds)?;
    d.set_item("positions_per_second", t.positions as f64 / secs)?;
    d.set_item("model_calls", r.timing.calls)?;
    d.set_item(
        "mean_batch",
        r.timing.leaves as f64 / r.timing.calls.max(1) as f64,
    )?;
    d.set_item("model_seconds", r.timing.model_nanos as f64 * 1e-9)?;
    d.set_item("io_seconds", r.timing.io_nanos as f64 * 1e-9)?;
    d.set_item("done", r.done)?;
    Ok(d)
}

/// What a match asks, as the Python call gave it.
struct MatchRequest {
    pub players: Vec<PlayerSpec>,
    pub models: HashMap<String, Py<PyAny>>,
    pub form: ModelForm,
    pub games: usize,
    pub random_plies: u32,
    pub max_plies: usize,
    pub seed: u64,
}

/// A match's result: each game's (white, black, result) and the first
/// player's record.
struct MatchResult {
    pub games: Vec<(usize, usize, GameResult)>,
    pub table: Table,
}

/// The `net:` players of a match: a spec whose path names one of
/// `models` is that Python model, any other a checkpoint on the CPU. The
/// whole match is played in lockstep on this thread ([`lockstep`]), each
/// model called with the leaves of all games at once.
struct Models<'a> {
    models: &'a HashMap<String, Py<PyAny>>,
    form: ModelForm,
    /// The first model's error, when one failed.
    error: Arc<Mutex<Option<PyErr>>>,
}

impl<G: Game> NetFactory<G> for Models<'_>
where
    G::State: AlphaBetaState,
{
    fn build(
        &self,
        _game: &G,
        spec: &NetSpec,
        _seed: u64,
    ) -> Result<Box<dyn Player<G>>, PlayerError> {
        // `run_match` plays every match: no player is built alone.
        Err(PlayerError::NoNetworks {
            spec: format!("net:{}", spec.path),
        })
    }

    fn run_match(
        &self,
        game: &G,
        players: &[PlayerSpec],
        schedule: &Schedule,
        openings: &[G::State],
        opts: &RunOptions,
        on_game: &mut dyn FnMut(&PlayedGame<G>) -> bool,
    ) -> Option<Result<Vec<PlayedGame<G>>, PlayerError>> {
        let nets = match self.evaluators(game, players) {
            Ok(n) => n,
            Err(e) => return Some(Err(e)),
        };
        Some(lockstep::run(
            game,
            players,
            vec![nets],
            schedule,
            openings,
            opts,
            on_game,
        ))
    }
}

impl Models<'_> {
    /// The evaluator of each distinct `net:` player of `players`: its
    /// Python model, or its checkpoint's network.
    #[allow(clippy::type_complexity)]
    fn evaluators<G: Game>(
        &self,
        game: &G,
        players: &[PlayerSpec],
    ) -> Result<Vec<(NetKey, MatchEvaluator<G::State>)>, PlayerError>
    where
        G::State: AlphaBetaState,
    {
        let tag = GameTag::of(game);
        let mut nets: Vec<(NetKey, MatchEvaluator<G::State>)> = Vec::new();
        for spec in players {
            let PlayerSpec::Net(n) = spec else { continue };
            let symmetries = players::spec::symmetry_use(n, game)
                .map_err(|e| PlayerError::Network(Box::new(e)))?;
            let key = (n.path.clone(), symmetries);
            if nets.iter().any(|(k, _)| *k == key) {
                continue;
            }
            let e: MatchEvaluator<G::State> = match self.models.get(&n.path) {
                Some(model) => {
                    let model = Python::attach(|py| model.clone_ref(py));
                    let e = PyEvaluator::<G::State>::new(model, self.form, game.action_codes())
                        .map_err(|e| self.keep(e, &n.path))?;
                    Box::new(Reporting {
                        inner: e,
                        error: self.error.clone(),
                    })
                }
                None => {
                    let (net, _) = model::Network::load(Path::new(&n.path), &tag, tch::Device::Cpu)
                        .map_err(|e| PlayerError::Network(Box::new(e)))?;
                    Box::new(NetworkEvaluator::packed(net))
                }
            };
            nets.push((key, e));
        }
        Ok(nets)
    }

    /// Keeps `e` as the match's error; the player error names the model.
    fn keep(&self, e: PyErr, name: &str) -> PlayerError {
        if let Ok(mut slot) = self.error.lock() {
            slot.get_or_insert(e);
        }
        PlayerError::NoNetworks {
            spec: format!("net:{name}"),
        }
    }
}

/// A Python model's evaluator in a match, handing the error of a call that
/// failed to the match (the evaluator lives inside the lockstep driver).
struct Reporting<S: game::GameState> {
    inner: PyEvaluator<S>,
    error: Arc<Mutex<Option<PyErr>>>,
}

impl<S: game::GameState> mcts::Evaluator<S> for Reporting<S> {
    fn evaluate(
        &mut self,
        batch: &[mcts::Request<'_, S>],
        policy: &mut Vec<f32>,
        wdl: &mut Vec<[f32; 3]>,
    ) {
        self.inner.evaluate(batch, policy, wdl);
    }

    fn try_evaluate(
        &mut self,
        batch: &[mcts::Request<'_, S>],
        encoded: Option<&model::Encoder<S>>,
        policy: &mut Vec<f32>,
        wdl: &mut Vec<[f32; 3]>,
    ) -> Result<(), mcts::Declined> {
        let r = self.inner.try_evaluate(batch, encoded, policy, wdl);
        if let Some(e) = self.inner.take_error() {
            if let Ok(mut slot) = self.error.lock() {
                slot.get_or_insert(e);
            }
        }
        r
    }
}

/// Plays the match of `request` in `game` (module docs).
fn play_match_of<G: Game>(game: &G, request: &MatchRequest, py: Python<'_>) -> PyResult<MatchResult>
where
    G::State: AlphaBetaState,
{
    let pairs = request.games.div_ceil(2).max(1);
    let openings =
        eval::arena::openings::random_openings(game, pairs, request.random_plies, request.seed);
    let schedule = Schedule::gauntlet(request.players.len(), pairs, openings.len());
    let opts = RunOptions {
        threads: 1,
        max_plies: request.max_plies,
        seed: request.seed,
    };
    let models = Models {
        models: &request.models,
        form: request.form,
        error: Arc::new(Mutex::new(None)),
    };
    let played = py.detach(|| {
        eval::arena::run(
            game,
            &request.players,
            &schedule,
            &openings,
            &opts,
            Some(&models as &dyn NetFactory<G>),
            |_| true,
        )
    });
    let model_error = models.error.lock().ok().and_then(|mut e| e.take());
    let played = match (played, model_error) {
        (Ok(p), None) => p,
        (_, Some(e)) => return Err(e),
        (Err(e), None) => return Err(value_error(e)),
    };
    let mut table = Table::new(request.players.len());
    let games = played
        .iter()
        .map(|g| {
            table.add(g);
            (g.pairing.white, g.pairing.black, g.outcome.result)
        })
        .collect();
    Ok(MatchResult { games, table })
}

/// Plays a match between `players` (specs as `triad eval --players`
/// takes them) in `game`: the first against each of the others, `games`
/// games a pairing (colour-swapped pairs, openings of `random_plies`
/// random plies drawn from `seed`), scored a draw at `max_plies`. A
/// `net:NAME,sims=N[,...]` player whose NAME is a key of `models` is that
/// Python model searched by triad's MCTS (with the spec's search options),
/// answering as `logits` and `actions` say (see `SelfPlay`); any other
/// `net:` path is a checkpoint, run on the CPU. Every game is played at
/// once in lockstep, each model called with the leaves of all of them.
/// Returns a dict: `players`, `games` (a list of `(white, black, result)`
/// with result `"1-0"`, `"0-1"` or `"1/2-1/2"`), and the first player's
/// `wins`, `draws`, `losses` and `score` (wins plus half the draws, over
/// the games), in all and `against` each opponent. A model's error is
/// raised as it came.
#[pyfunction]
#[pyo3(signature = (game, players, models=None, games=20, random_plies=4, max_plies=300,
    seed=1, logits=false, actions=false))]
#[allow(clippy::too_many_arguments)]
pub fn play_match<'py>(
    py: Python<'py>,
    game: &PyGame,
    players: Vec<String>,
    models: Option<HashMap<String, Py<PyAny>>>,
    games: usize,
    random_plies: u32,
    max_plies: usize,
    seed: u64,
    logits: bool,
    actions: bool,
) -> PyResult<Bound<'py, PyDict>> {
    if players.len() < 2 {
        return Err(value_error("players: a match needs at least two"));
    }
    if games == 0 || max_plies == 0 {
        return Err(value_error("games and max_plies must be at least 1"));
    }
    let specs = players
        .iter()
        .map(|s| {
            s.parse::<PlayerSpec>()
                .map_err(|e| value_error(format!("players: {e}")))
        })
        .collect::<PyResult<Vec<_>>>()?;
    let request = MatchRequest {
        players: specs,
        models: models.unwrap_or_default(),
        form: ModelForm { logits, actions },
        games,
        random_plies,
        max_plies,
        seed,
    };
    let any = registry_game(game.inner.as_ref())?;
    let result = registry::with_game!(any, |g| play_match_of(&g, &request, py))?;
    let d = PyDict::new(py);
    d.set_item("players", players.clone())?;
    let text = |r: GameResult| match r {
        GameResult::WhiteWin => "1-0",
        GameResult::BlackWin => "0-1",
        GameResult::Draw => "1/2-1/2",
    };
    let list: Vec<(usize, usize, &str)> = result
        .games
        .iter()
        .map(|&(w, b, r)| (w, b, text(r)))
        .collect();
    d.set_item("games", list)?;
    let record = |w: &eval::elo::Wdl| -> PyResult<Bound<'py, PyDict>> {
        let r = PyDict::new(py);
        let n = (w.wins + w.draws + w.losses).max(1) as f64;
        r.set_item("wins", w.wins)?;
        r.set_item("draws", w.draws)?;
        r.set_item("losses", w.losses)?;
        r.set_item("score", (w.wins as f64 + 0.5 * w.draws as f64) / n)?;
        Ok(r)
    };
    let total = record(&result.table.total(0))?;
    for (k, v) in total.iter() {
        d.set_item(k, v)?;
    }
    let against = PyDict::new(py);
    for (j, name) in players.iter().enumerate().skip(1) {
        against.set_item(name, record(&result.table.wdl[0][j])?)?;
    }
    d.set_item("against", against)?;
    Ok(d)
}
