//! Self-play into shards: the networks of a job loaded (one copy per
//! pool), the [`SelfPlay`] driver run until its games are played, finished
//! games written to Parquet shards as they come, the report and the
//! progress line. Used by `triad selfplay`, the loop's self-play stage and
//! the distributed worker (all in `pipeline`) and by `triad bench`.

use crate::{Adjudicator, FinishedGame, SelfPlay, SelfplayConfig, Totals};
use data::{ShardSummary, ShardWriter};
use game::{AlphaBetaState, Game, GameTag};
use indicatif::ProgressBar;
use mcts::{Evaluator, LeafHint, NetworkEvaluator};
use model::{ModelConfig, Network};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// Why a self-play job could not run or stopped: bad input the user can
/// fix (exit 2) or a failure while working (exit 1), each variant one kind
/// ([`ShardsError::is_input`]). Its `Display` is the message alone, one
/// line.
#[derive(Debug, thiserror::Error)]
pub enum ShardsError {
    /// `[model]` that cannot build a network or whose device this machine
    /// lacks: bad input.
    #[error(transparent)]
    Config(#[from] runfile::ConfigError),
    /// A network given (`--model`, the loop's best) that cannot be loaded:
    /// bad input.
    #[error(transparent)]
    BadCheckpoint(model::CheckpointError),
    /// A job with no pool (no evaluator): bad input.
    #[error("self-play needs at least one pool")]
    NoPools,
    /// A pool's thread that panicked: a failure.
    #[error("a self-play pool panicked")]
    PoolPanicked,
    /// A job of no games, or of no games per shard: bad input.
    #[error("games and games per shard must be at least 1")]
    NoGames,
    /// An output folder that cannot be created: bad input.
    #[error("{}: cannot create: {source}", path.display())]
    CannotCreate {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// An output folder that holds the job's first shard already: bad
    /// input.
    #[error("{} exists: choose another output folder or seed", path.display())]
    Exists { path: PathBuf },
    /// A shard that cannot be written: a failure.
    #[error(transparent)]
    Data(data::DataError),
    /// A shard folder or shard that cannot be read for uploading: a
    /// failure.
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// A shard to upload whose name the store holds already: bad input.
    #[error("{url}: {key} exists already: choose another --seed or --out")]
    ObjectExists { url: String, key: String },
    /// A store that failed while uploading: a failure.
    #[error(transparent)]
    Store(#[from] store::StoreError),
    /// An evaluator that could not answer a batch (a model outside Rust
    /// that failed; it keeps the error that says why): a failure. The
    /// [`ShardRun`] that met it may be played on.
    #[error("self-play stopped: {0}")]
    Declined(#[from] mcts::Declined),
}

impl ShardsError {
    /// Whether it is bad input the user can fix (exit 2) rather than a
    /// failure while working (exit 1).
    pub fn is_input(&self) -> bool {
        match self {
            ShardsError::Config(_)
            | ShardsError::BadCheckpoint(_)
            | ShardsError::NoPools
            | ShardsError::NoGames
            | ShardsError::CannotCreate { .. }
            | ShardsError::Exists { .. }
            | ShardsError::ObjectExists { .. } => true,
            ShardsError::PoolPanicked
            | ShardsError::Declined(_)
            | ShardsError::Data(_)
            | ShardsError::Io { .. }
            | ShardsError::Store(_) => false,
        }
    }

    /// The process exit status it maps to: 2 for bad input, 1 for a
    /// failure.
    pub fn exit_code(&self) -> i32 {
        if self.is_input() {
            2
        } else {
            1
        }
    }
}

/// What gives each game's search its leaf hint (`[selfplay]
/// leaf_eval_weight`; asked only when the weight is above 0): the binary's
/// roles pass the `ab:` engine's quiescence hint (`players`), which this
/// crate does not know. Shared by the pools' threads.
pub type MakeLeafHint<S> = dyn Fn() -> Box<dyn LeafHint<S>> + Sync;

/// The network a run uses and the id written on its rows: the checkpoint
/// at `checkpoint` (a network of `game`; another game or variant is
/// refused, naming both) or a fresh one from `model` drawn from `seed`,
/// in `[model] precision`.
pub fn load_network<G: Game>(
    game: &G,
    model: &ModelConfig,
    checkpoint: Option<&Path>,
    seed: u64,
) -> Result<(Network, String), ShardsError> {
    load_network_as(game, model, checkpoint, seed, false)
}

/// [`load_network`], and with `any_variant` the checkpoint may be of
/// another variant of `game` with the `[model]` shape (the loop's `[loop]
/// mix` variants play with the run's network: its weights do not depend
/// on the board's size).
pub fn load_network_as<G: Game>(
    game: &G,
    model: &ModelConfig,
    checkpoint: Option<&Path>,
    seed: u64,
    any_variant: bool,
) -> Result<(Network, String), ShardsError> {
    match checkpoint {
        None => {
            let mut net = Network::new(model, game.encoding(), seed)?;
            net.set_precision(model.precision);
            Ok((net, format!("random-seed{seed}")))
        }
        Some(path) => {
            let device = model.tch_device()?;
            if model.threads > 0 {
                tch::set_num_threads(model.threads as i32);
            }
            let tag = GameTag::of(game);
            let (mut net, info) = if any_variant {
                let shape = model::Shape::of(model, game.encoding());
                Network::load_transfer(path, &tag, shape, device)
            } else {
                Network::load(path, &tag, device)
            }
            .map_err(ShardsError::BadCheckpoint)?;
            net.set_precision(model.precision);
            let stem = path
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default();
            Ok((net, format!("{stem}@{}", info.step)))
        }
    }
}

/// One network evaluator per self-play pool, and the id written on rows.
pub type PoolEvaluators<S> = (Vec<NetworkEvaluator<S>>, String);

/// [`load_network`] once per self-play pool (`[selfplay] pools`, at least
/// one): each pool runs its own copy on its own thread. The model id is
/// the same for every copy.
pub fn load_pool_evaluators<G: Game>(
    game: &G,
    model: &ModelConfig,
    checkpoint: Option<&Path>,
    seed: u64,
    pools: usize,
) -> Result<PoolEvaluators<G::State>, ShardsError> {
    load_pool_evaluators_as(game, model, checkpoint, seed, pools, false)
}

/// [`load_pool_evaluators`], the checkpoint of any variant of `game` with
/// `any_variant` ([`load_network_as`]).
pub fn load_pool_evaluators_as<G: Game>(
    game: &G,
    model: &ModelConfig,
    checkpoint: Option<&Path>,
    seed: u64,
    pools: usize,
    any_variant: bool,
) -> Result<PoolEvaluators<G::State>, ShardsError> {
    let mut evaluators = Vec::new();
    let mut model_id = String::new();
    for _ in 0..pools.max(1) {
        let (net, id) = load_network_as(game, model, checkpoint, seed, any_variant)?;
        evaluators.push(NetworkEvaluator::new(net));
        model_id = id;
    }
    Ok((evaluators, model_id))
}

/// What to play and where to write it.
#[derive(Debug, Clone)]
pub struct Job {
    /// Folder of the shards (created if missing).
    pub out: PathBuf,
    /// Games to play.
    pub games: u64,
    /// The first game id (ids `first_game_id..first_game_id + games`): the
    /// loop gives each generation its own range so ids are unique within
    /// a run.
    pub first_game_id: u64,
    /// Seed of the games.
    pub seed: u64,
    /// Games per shard.
    pub shard_games: u64,
    /// Written on every row.
    pub model_id: String,
}

impl Job {
    /// Shard `i`'s path: `OUT/selfplay-s<SEED>-<NNNN>.parquet`.
    pub fn shard_path(&self, i: u64) -> PathBuf {
        self.out
            .join(format!("selfplay-s{}-{i:04}.parquet", self.seed))
    }

    /// Shard `i` of pool `p` (of several): `OUT/selfplay-s<SEED>-p<P>-<NNNN>.parquet`.
    pub fn pool_shard_path(&self, p: usize, i: u64) -> PathBuf {
        self.out
            .join(format!("selfplay-s{}-p{p}-{i:04}.parquet", self.seed))
    }
}

/// What a self-play job did.
#[derive(Debug, Clone)]
pub struct Report {
    pub totals: Totals,
    pub shards: Vec<ShardSummary>,
    /// Stopped early by `stop`: games in progress were dropped.
    pub interrupted: bool,
    pub seconds: f64,
    /// CPU time of the whole process while the job ran (s).
    pub cpu_seconds: f64,
    /// Self-play pools (drivers, each with its own network copy).
    pub pools: usize,
}

/// What self-play's progress line shows while it runs, and its report at
/// the end: the rates, how full the network's batches were, the share of
/// the wall time each network copy was busy, the cache's share of leaf
/// lookups and the CPU time spent outside the network per evaluation
/// (tree search, rules, encoding, writing). Computed from counters the
/// driver keeps anyway, two clock reads per network call and one
/// `getrusage` per progress update.
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize)]
pub struct Diagnostics {
    pub games_per_s: f64,
    pub positions_per_s: f64,
    pub evals_per_s: f64,
    /// Positions per network call.
    pub mean_batch: f64,
    /// `mean_batch` over the positions a call could hold (0..1).
    pub batch_fill: f64,
    /// Time inside the network over wall time, per network copy (0..1).
    pub network_busy: f64,
    /// Cache hits over leaf lookups (0..1).
    pub cache_hit_rate: f64,
    /// Process CPU time outside the network per evaluation (µs).
    pub cpu_us_per_eval: f64,
}

impl Diagnostics {
    /// From `pools`' summed totals after `secs` of wall time in which the
    /// process used `cpu_secs` of CPU.
    pub fn of(t: &Totals, secs: f64, pools: usize, cpu_secs: f64) -> Diagnostics {
        let secs = secs.max(1e-9);
        let per_s = |x: u64| x as f64 / secs;
        let outside = (cpu_secs - t.network_cpu_nanos as f64 * 1e-9).max(0.0);
        Diagnostics {
            games_per_s: per_s(t.games),
            positions_per_s: per_s(t.positions),
            evals_per_s: per_s(t.evaluations),
            mean_batch: t.mean_batch(),
            batch_fill: t.batch_fill(),
            network_busy: (t.network_nanos as f64 * 1e-9 / (secs * pools.max(1) as f64)).min(1.0),
            cache_hit_rate: t.cache_hit_rate(),
            cpu_us_per_eval: outside * 1e6 / t.evaluations.max(1) as f64,
        }
    }

    /// The progress line's text.
    pub fn line(&self) -> String {
        format!(
            "{:.0} pos/s  {:.0} evals/s  batch {:.1} ({:.0}% full)  net busy {:.0}%  cache {:.0}%  {:.0} µs CPU/eval",
            self.positions_per_s,
            self.evals_per_s,
            self.mean_batch,
            self.batch_fill * 100.0,
            self.network_busy * 100.0,
            self.cache_hit_rate * 100.0,
            self.cpu_us_per_eval,
        )
    }
}

/// CPU time this process has used so far (user + system, s; 0 where
/// `getrusage` fails).
pub fn process_cpu_seconds() -> f64 {
    // SAFETY: getrusage fills the rusage struct we own.
    let mut u: libc::rusage = unsafe { std::mem::zeroed() };
    if unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut u) } != 0 {
        return 0.0;
    }
    let tv = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 * 1e-6;
    tv(u.ru_utime) + tv(u.ru_stime)
}

impl Report {
    /// The job's [`Diagnostics`].
    pub fn diagnostics(&self) -> Diagnostics {
        Diagnostics::of(&self.totals, self.seconds, self.pools, self.cpu_seconds)
    }

    /// Rows written (searched positions of games dropped by an interrupt
    /// are not written).
    pub fn rows(&self) -> u64 {
        self.shards.iter().map(|s| s.rows).sum()
    }

    /// `x` per hour of this job.
    fn per_hour(&self, x: u64) -> f64 {
        x as f64 * 3600.0 / self.seconds.max(1e-9)
    }

    /// The summary as `triad selfplay --json` prints it (`model_id`: the
    /// id written on the rows).
    pub fn summary_json(&self, model_id: &str) -> serde_json::Value {
        let t = &self.totals;
        let secs = self.seconds;
        serde_json::json!({
            "games": t.games,
            "positions": self.rows(),
            "positions_searched": t.positions,
            "seconds": secs,
            "games_per_hour": self.per_hour(t.games),
            "positions_per_hour": self.per_hour(t.positions),
            "evals_per_s": t.evaluations as f64 / secs.max(1e-9),
            "mean_batch": t.mean_batch(),
            "cache_hits": t.cache_hits,
            "white_wins": t.white_wins,
            "black_wins": t.black_wins,
            "draws": t.draws,
            "resignations": t.resignations,
            "would_resign": t.would_resign,
            "false_resignations": t.false_resignations,
            "false_resignation_rate": t.false_resignation_rate(),
            "interrupted": self.interrupted,
            "diagnostics": self.diagnostics(),
            "model_id": model_id,
            "shards": self.shards.iter().map(|s| s.path.display().to_string()).collect::<Vec<_>>(),
        })
    }

    /// The summary as `triad selfplay` prints it: speeds, results, one line
    /// per shard written, and a last line when interrupted.
    pub fn summary_text(&self) -> String {
        use std::fmt::Write as _;
        let t = &self.totals;
        let secs = self.seconds;
        let mut out = String::new();
        // Searched positions include those of games dropped by an interrupt.
        let _ = writeln!(
            out,
            "{} games, {} positions written ({} searched) in {:.1} s: {:.0} games/h, {:.0} positions/h, {:.0} evals/s, mean batch {:.1}",
            t.games,
            self.rows(),
            t.positions,
            secs,
            self.per_hour(t.games),
            self.per_hour(t.positions),
            t.evaluations as f64 / secs.max(1e-9),
            t.mean_batch()
        );
        let d = self.diagnostics();
        let _ = writeln!(
            out,
            "network: batches {:.0}% full, busy {:.0}% of the time{}, cache hits {:.0}% of lookups, {:.0} µs of CPU outside the network per evaluation",
            d.batch_fill * 100.0,
            d.network_busy * 100.0,
            if self.pools > 1 { " (each copy)" } else { "" },
            d.cache_hit_rate * 100.0,
            d.cpu_us_per_eval,
        );
        let false_rate = match t.false_resignation_rate() {
            Some(r) => format!(
                "{}/{} ({:.1}%) of no-resign games",
                t.false_resignations,
                t.would_resign,
                r * 100.0
            ),
            None => "none measured yet".to_string(),
        };
        let _ = writeln!(
            out,
            "results: {} white wins, {} black wins, {} draws; {} resignations; false resignations: {false_rate}",
            t.white_wins, t.black_wins, t.draws, t.resignations,
        );
        for s in &self.shards {
            let _ = writeln!(
                out,
                "wrote {} ({} rows, {} bytes)",
                s.path.display(),
                s.rows,
                s.bytes
            );
        }
        if self.interrupted {
            let _ = writeln!(out, "interrupted: games in progress were dropped");
        }
        out
    }
}

/// A `triad selfplay` job with its networks loaded, ready to play.
pub struct PreparedJob<S: game::GameState> {
    evaluators: Vec<NetworkEvaluator<S>>,
    job: Job,
    config: SelfplayConfig,
}

/// Loads a `triad selfplay` job's network: the checkpoint at `checkpoint`,
/// or a fresh one of `model` drawn from the job's seed, one copy per
/// `config`'s pool; the job's model id becomes the network's.
pub fn prepare_job<G: Game>(
    game: &G,
    model: &ModelConfig,
    config: &SelfplayConfig,
    checkpoint: Option<&Path>,
    job: Job,
) -> Result<PreparedJob<G::State>, ShardsError> {
    let config = config.clone();
    let (evaluators, model_id) =
        load_pool_evaluators(game, model, checkpoint, job.seed, config.pools)?;
    Ok(PreparedJob {
        evaluators,
        job: Job { model_id, ..job },
        config,
    })
}

impl<S: AlphaBetaState> PreparedJob<S> {
    /// The id written on the rows.
    pub fn model_id(&self) -> &str {
        &self.job.model_id
    }

    /// The job: its folder, games and seed.
    pub fn job(&self) -> &Job {
        &self.job
    }

    /// Plays the games into shards ([`play_to_shards_pooled`]). The caller
    /// keeps a second writer out of the job's folder (`triad selfplay`
    /// locks it first).
    pub fn run<G: Game<State = S>>(
        mut self,
        game: &G,
        hint: &MakeLeafHint<S>,
        stop: &AtomicBool,
        bar: &ProgressBar,
    ) -> Result<Report, ShardsError> {
        play_to_shards_pooled(
            game,
            &self.config,
            &mut self.evaluators,
            &self.job,
            hint,
            stop,
            bar,
        )
    }
}

/// Uploads the finished shards (`*.parquet`) of `dir` to `store`, each by
/// put-if-absent; a name already there is refused (bad input). Returns how
/// many were uploaded.
pub fn upload_shards(store: &store::Store, dir: &Path) -> Result<usize, ShardsError> {
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |source| ShardsError::Io { path, source }
    };
    let mut n = 0;
    let entries = std::fs::read_dir(dir).map_err(io(dir))?;
    for e in entries.flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        if !name.ends_with(".parquet") {
            continue;
        }
        let bytes = std::fs::read(e.path()).map_err(io(&e.path()))?;
        match store.put_new(&name, bytes) {
            Ok(store::PutOutcome::Created) => n += 1,
            Ok(store::PutOutcome::AlreadyExists) => {
                return Err(ShardsError::ObjectExists {
                    url: store.url().to_string(),
                    key: name,
                })
            }
            Err(err) => return Err(ShardsError::Store(err)),
        }
    }
    Ok(n)
}

/// The game's static evaluation (the `ab:` players' default weights) as
/// the self-play driver's adjudicator (`[selfplay] adjudicate`).
pub fn static_adjudicator<S: AlphaBetaState>(start: &S) -> Adjudicator<S> {
    let tables = start.eval_tables();
    let params = S::EvalParams::default();
    Arc::new(move |s: &S| s.evaluate(&tables, &params))
}

/// Plays `job` with `config` and `evaluator`, writing shards as games
/// finish; `hint` makes the searches' leaf hints. `stop` (Ctrl-C) ends it
/// early: finished games are kept, games in progress dropped. `bar` shows
/// games done. One pool, whatever `[selfplay] pools` says:
/// [`play_to_shards_pooled`] runs several.
pub fn play_to_shards<G: Game>(
    game: &G,
    config: &SelfplayConfig,
    evaluator: &mut dyn Evaluator<G::State>,
    job: &Job,
    hint: &MakeLeafHint<G::State>,
    stop: &AtomicBool,
    bar: &ProgressBar,
) -> Result<Report, ShardsError>
where
    G::State: AlphaBetaState,
{
    prepare_out(job)?;
    let progress = Progress::new(bar, 1);
    let play = Play {
        game,
        config,
        job,
        hint,
        stop,
        progress: &progress,
    };
    let part = Part {
        pool: None,
        first: 0,
        games: job.games,
    };
    let (totals, shards, interrupted) = play.part(evaluator, &part)?;
    Ok(Report {
        totals,
        shards,
        interrupted,
        seconds: progress.started.elapsed().as_secs_f64(),
        cpu_seconds: progress.cpu_seconds(),
        pools: 1,
    })
}

/// [`play_to_shards`] split between pools, one per evaluator, each on its
/// own thread with its own driver (its share of `games_in_flight`, its
/// own cache and tree threads): pool `p` of `n` plays the job's games
/// `games·p/n .. games·(p+1)/n`, with the seeds and ids they have in one
/// pool, into `OUT/selfplay-s<SEED>-p<P>-<NNNN>.parquet`. On a CPU each
/// pool keeps a core in the network (docs/selfplay.md, "Pools"). One
/// evaluator is [`play_to_shards`], shard names included.
pub fn play_to_shards_pooled<G: Game, E: Evaluator<G::State> + Send>(
    game: &G,
    config: &SelfplayConfig,
    evaluators: &mut [E],
    job: &Job,
    hint: &MakeLeafHint<G::State>,
    stop: &AtomicBool,
    bar: &ProgressBar,
) -> Result<Report, ShardsError>
where
    G::State: AlphaBetaState,
{
    let n = evaluators.len() as u64;
    match n {
        0 => return Err(ShardsError::NoPools),
        1 => return play_to_shards(game, config, &mut evaluators[0], job, hint, stop, bar),
        _ => {}
    }
    prepare_out(job)?;
    let mut pool_config = config.clone();
    pool_config.games_in_flight = (config.games_in_flight / n as usize).max(1);
    let progress = Progress::new(bar, n as usize);
    let play = Play {
        game,
        config: &pool_config,
        job,
        hint,
        stop,
        progress: &progress,
    };
    let results: Vec<_> = std::thread::scope(|scope| {
        let handles: Vec<_> = evaluators
            .iter_mut()
            .enumerate()
            .map(|(p, evaluator)| {
                let part = Part {
                    pool: Some(p),
                    first: job.games * p as u64 / n,
                    games: job.games * (p as u64 + 1) / n - job.games * p as u64 / n,
                };
                let play = &play;
                scope.spawn(move || play.part(evaluator, &part))
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|_| Err(ShardsError::PoolPanicked)))
            .collect()
    });
    let mut report = Report {
        totals: Totals::default(),
        shards: Vec::new(),
        interrupted: false,
        seconds: progress.started.elapsed().as_secs_f64(),
        cpu_seconds: progress.cpu_seconds(),
        pools: n as usize,
    };
    for r in results {
        let (totals, shards, interrupted) = r?;
        report.totals.add(&totals);
        report.shards.extend(shards);
        report.interrupted |= interrupted;
    }
    Ok(report)
}

/// Creates the output folder; a folder that already holds this job's
/// first shard is refused (another job's games would mix with these).
fn prepare_out(job: &Job) -> Result<(), ShardsError> {
    if job.games == 0 || job.shard_games == 0 {
        return Err(ShardsError::NoGames);
    }
    std::fs::create_dir_all(&job.out).map_err(|source| ShardsError::CannotCreate {
        path: job.out.clone(),
        source,
    })?;
    for first in [job.shard_path(0), job.pool_shard_path(0, 0)] {
        if first.exists() {
            return Err(ShardsError::Exists { path: first });
        }
    }
    Ok(())
}

/// One pool's share of a job.
struct Part {
    /// `None`: the job's only pool (shards named as before pools existed).
    pool: Option<usize>,
    /// The job index of its first game, and its number of games.
    first: u64,
    games: u64,
}

/// What every pool of a job shares: the game, its configuration (a pool's
/// share of `games_in_flight`), the job, the leaf hints, the stop flag and
/// the progress bar.
struct Play<'a, G: Game> {
    game: &'a G,
    config: &'a SelfplayConfig,
    job: &'a Job,
    hint: &'a MakeLeafHint<G::State>,
    stop: &'a AtomicBool,
    progress: &'a Progress<'a>,
}

/// The progress bar of a job, fed by its pools.
struct Progress<'a> {
    bar: &'a ProgressBar,
    started: Instant,
    /// The process's CPU time when the job started.
    cpu_start: f64,
    totals: Mutex<Vec<Totals>>,
}

impl<'a> Progress<'a> {
    fn new(bar: &'a ProgressBar, pools: usize) -> Progress<'a> {
        Progress {
            bar,
            started: Instant::now(),
            cpu_start: process_cpu_seconds(),
            totals: Mutex::new(vec![Totals::default(); pools]),
        }
    }

    /// CPU time of the process since the job started.
    fn cpu_seconds(&self) -> f64 {
        process_cpu_seconds() - self.cpu_start
    }

    /// Pool `p`'s totals so far; the bar shows the sum.
    fn update(&self, p: usize, totals: &Totals) {
        let Ok(mut all) = self.totals.lock() else {
            return;
        };
        all[p] = *totals;
        let mut sum = Totals::default();
        for t in all.iter() {
            sum.add(t);
        }
        let pools = all.len();
        drop(all);
        self.bar.set_position(sum.games);
        let d = Diagnostics::of(
            &sum,
            self.started.elapsed().as_secs_f64(),
            pools,
            self.cpu_seconds(),
        );
        self.bar.set_message(progress_message(&sum, &d));
    }
}

impl<G: Game> Play<'_, G>
where
    G::State: AlphaBetaState,
{
    /// Plays one pool's games into its shards: (totals, shards,
    /// interrupted).
    fn part(
        &self,
        evaluator: &mut dyn Evaluator<G::State>,
        part: &Part,
    ) -> Result<(Totals, Vec<ShardSummary>, bool), ShardsError> {
        let mut run = ShardRun::of_part(self.game, self.config, self.job, part, self.hint);
        let pool = part.pool.unwrap_or(0);
        run.play(evaluator, self.stop, &mut |totals| {
            self.progress.update(pool, totals)
        })?;
        if run.interrupted() && pool == 0 {
            self.progress
                .bar
                .println("interrupted: keeping finished games, dropping games in progress");
        }
        run.finish()
    }
}

/// One driver playing its share of a job into shards as its games finish,
/// resumable: [`ShardRun::play`] runs rounds until the games are played,
/// `stop` is set (games in progress dropped), or the evaluator declines a
/// batch ([`ShardsError::Declined`]). After a decline nothing is lost or
/// half written: the shard in progress stays open under its temporary
/// name, the waiting searches keep their leaves, and `play` called again
/// (with an evaluator that answers) goes on where it stopped.
/// [`ShardRun::finish`] writes the last shard. [`play_to_shards`] runs one
/// to the end; `triad.SelfPlay` (Python) keeps one between calls.
pub struct ShardRun<G: Game> {
    driver: SelfPlay<G>,
    job: Job,
    pool: Option<usize>,
    max_plies: u32,
    writer: Option<ShardWriter>,
    shard_index: u64,
    in_shard: u64,
    shards: Vec<ShardSummary>,
    interrupted: bool,
    finished: Vec<FinishedGame>,
}

impl<G: Game> ShardRun<G>
where
    G::State: AlphaBetaState,
{
    /// The whole of `job` (its games from index 0) by one driver of
    /// `config`, its searches hinted by `hint`, games at `max_plies`
    /// adjudicated by the game's static evaluation; shards named for
    /// `pool` (`None`: the job's only pool). The caller prepares the
    /// folder ([`ShardRun::prepare`]).
    pub fn new(
        game: &G,
        config: &SelfplayConfig,
        job: &Job,
        pool: Option<usize>,
        hint: &MakeLeafHint<G::State>,
    ) -> ShardRun<G> {
        let part = Part {
            pool,
            first: 0,
            games: job.games,
        };
        ShardRun::of_part(game, config, job, &part, hint)
    }

    /// A pool's share of `job`: its games `part.first..part.first +
    /// part.games`, with the seeds and ids they have in the whole job.
    fn of_part(
        game: &G,
        config: &SelfplayConfig,
        job: &Job,
        part: &Part,
        hint: &MakeLeafHint<G::State>,
    ) -> ShardRun<G> {
        let pool = part.pool;
        let driver = SelfPlay::new(game, config, job.seed, part.games, &job.model_id)
            .with_first_index(part.first)
            .with_first_game_id(job.first_game_id)
            .with_adjudicator(static_adjudicator(&game.start()))
            .with_leaf_hint(hint);
        ShardRun {
            driver,
            job: job.clone(),
            pool,
            max_plies: config.max_plies,
            writer: None,
            shard_index: 0,
            in_shard: 0,
            shards: Vec::new(),
            interrupted: false,
            finished: Vec::new(),
        }
    }

    /// Checks and creates `job`'s folder: a job of no games, or a folder
    /// holding the job's first shard already, is refused.
    pub fn prepare(job: &Job) -> Result<(), ShardsError> {
        prepare_out(job)
    }

    /// Plays rounds until every game is played, `stop` is set or the
    /// evaluator declines; `progress` gets the totals after every round.
    pub fn play(
        &mut self,
        evaluator: &mut dyn Evaluator<G::State>,
        stop: &AtomicBool,
        progress: &mut dyn FnMut(&Totals),
    ) -> Result<(), ShardsError> {
        while !self.driver.is_done() {
            if stop.load(Ordering::SeqCst) && !self.interrupted {
                self.interrupted = true;
                self.driver.abandon();
                continue;
            }
            self.finished.clear();
            let round = self.driver.round(evaluator, &mut self.finished);
            self.write_finished()?;
            progress(&self.driver.totals);
            round?;
        }
        Ok(())
    }

    /// The games of the last round into the shards, a shard published
    /// whole each `shard_games` games.
    fn write_finished(&mut self) -> Result<(), ShardsError> {
        let failed = ShardsError::Data;
        for g in &self.finished {
            let w = match self.writer.as_mut() {
                Some(w) => w,
                None => {
                    let path = match self.pool {
                        None => self.job.shard_path(self.shard_index),
                        Some(p) => self.job.pool_shard_path(p, self.shard_index),
                    };
                    self.writer
                        .insert(ShardWriter::create_capped(path, self.max_plies).map_err(failed)?)
                }
            };
            for r in &g.records {
                w.push(r).map_err(failed)?;
            }
            self.in_shard += 1;
            if self.in_shard == self.job.shard_games {
                if let Some(w) = self.writer.take() {
                    self.shards.push(w.finish().map_err(failed)?);
                }
                self.shard_index += 1;
                self.in_shard = 0;
            }
        }
        Ok(())
    }

    /// The totals so far.
    pub fn totals(&self) -> &Totals {
        &self.driver.totals
    }

    /// Whether every game has been played (or `stop` ended the run).
    pub fn is_done(&self) -> bool {
        self.driver.is_done()
    }

    /// Whether `stop` ended the run early.
    pub fn interrupted(&self) -> bool {
        self.interrupted
    }

    /// The shards published so far.
    pub fn shards(&self) -> &[ShardSummary] {
        &self.shards
    }

    /// Publishes the shard in progress: (totals, shards, interrupted).
    pub fn finish(mut self) -> Result<(Totals, Vec<ShardSummary>, bool), ShardsError> {
        if let Some(w) = self.writer.take() {
            self.shards.push(w.finish().map_err(ShardsError::Data)?);
        }
        Ok((self.driver.totals, self.shards, self.interrupted))
    }
}

/// The progress bar's message: the [`Diagnostics`] line and the
/// false-resignation rate so far.
pub fn progress_message(t: &Totals, d: &Diagnostics) -> String {
    format!(
        "{}  false-resign {}",
        d.line(),
        match t.false_resignation_rate() {
            Some(r) => format!("{:.1}%", r * 100.0),
            None => "-".into(),
        }
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use mcts::UniformEvaluator;
    use piratechnics::{Piratechnics, Position};

    /// An even leaf hint: these jobs' `leaf_eval_weight` is 0, so no
    /// search asks for one.
    struct Even;

    impl LeafHint<Position> for Even {
        fn win_probability(&mut self, _: &Position) -> f32 {
            0.5
        }
    }

    fn even() -> Box<dyn LeafHint<Position>> {
        Box::new(Even)
    }

    /// Every row of the shards under `dir`, ordered by game and ply.
    fn rows(dir: &Path) -> Vec<data::PositionRecord> {
        let mut rows = Vec::new();
        for shard in data::list_shards(&[dir]).unwrap() {
            rows.extend(
                data::ShardReader::open(&shard.path)
                    .unwrap()
                    .read_records()
                    .unwrap(),
            );
        }
        rows.sort_by_key(|r| (r.game_id, r.ply));
        rows
    }

    fn play(pools: usize, out: &Path) -> Report {
        let game = Piratechnics::standard();
        let config = SelfplayConfig {
            simulations: 8,
            cheap_simulations: 4,
            max_plies: 24,
            games_in_flight: 4,
            temperature_plies: 24,
            pools,
            ..Default::default()
        };
        let job = Job {
            out: out.to_path_buf(),
            games: 7,
            first_game_id: 100,
            seed: 9,
            shard_games: 2,
            model_id: "uniform".into(),
        };
        let mut evaluators = vec![UniformEvaluator; pools];
        let bar = ProgressBar::hidden();
        play_to_shards_pooled(
            &game,
            &config,
            &mut evaluators,
            &job,
            &even,
            &AtomicBool::new(false),
            &bar,
        )
        .unwrap()
    }

    /// The diagnostics of a tiny job are within their ranges: rates
    /// positive, fill and busy shares and the cache's hit rate in 0..1,
    /// and the text summary says them.
    #[test]
    fn diagnostics_are_sane_on_a_tiny_job() {
        let dir = tempfile::tempdir().unwrap();
        for pools in [1, 2] {
            let r = play(pools, &dir.path().join(format!("p{pools}")));
            let d = r.diagnostics();
            assert_eq!(r.pools, pools);
            assert!(
                d.games_per_s > 0.0 && d.positions_per_s > 0.0 && d.evals_per_s > 0.0,
                "{d:?}"
            );
            assert!(d.batch_fill > 0.0 && d.batch_fill <= 1.0, "{d:?}");
            assert!(d.network_busy > 0.0 && d.network_busy <= 1.0, "{d:?}");
            assert!((0.0..=1.0).contains(&d.cache_hit_rate), "{d:?}");
            assert!(
                d.cpu_us_per_eval.is_finite() && d.cpu_us_per_eval >= 0.0,
                "{d:?}"
            );
            assert!(r.totals.batch_capacity >= r.totals.evaluations);
            assert!(
                r.summary_text().contains("% full, busy "),
                "{}",
                r.summary_text()
            );
            let json = r.summary_json("uniform");
            assert!(
                json["diagnostics"]["batch_fill"].as_f64().is_some(),
                "{json}"
            );
        }
    }

    /// A job split between pools plays the games one pool plays (a game's
    /// seed and id follow its index in the job), each once, into each
    /// pool's own shards.
    #[test]
    fn pools_play_the_same_games_as_one_pool() {
        let dir = tempfile::tempdir().unwrap();
        let (one, three) = (dir.path().join("one"), dir.path().join("three"));
        let a = play(1, &one);
        let b = play(3, &three);
        assert_eq!((a.totals.games, b.totals.games), (7, 7));
        let (ra, rb) = (rows(&one), rows(&three));
        assert!(!ra.is_empty());
        assert_eq!(ra, rb);
        let ids: std::collections::BTreeSet<u64> = rb.iter().map(|r| r.game_id).collect();
        assert_eq!(ids, (100..107).collect());
        assert_eq!(a.rows(), b.rows());
        assert_eq!(a.totals.positions, b.totals.positions);
        // One pool keeps the old shard names; pools name theirs.
        assert!(one.join("selfplay-s9-0000.parquet").exists());
        for p in 0..3 {
            assert!(three
                .join(format!("selfplay-s9-p{p}-0000.parquet"))
                .exists());
        }
        // A folder holding the job's shards is refused, pooled or not.
        let game = Piratechnics::standard();
        let job = Job {
            out: three.clone(),
            games: 7,
            first_game_id: 100,
            seed: 9,
            shard_games: 2,
            model_id: "uniform".into(),
        };
        let err = play_to_shards(
            &game,
            &SelfplayConfig::default(),
            &mut UniformEvaluator,
            &job,
            &even,
            &AtomicBool::new(false),
            &ProgressBar::hidden(),
        )
        .unwrap_err();
        assert!(
            err.to_string().contains("selfplay-s9-p0-0000.parquet"),
            "{err}"
        );
    }
}
