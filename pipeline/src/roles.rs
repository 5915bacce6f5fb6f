//! The long-running roles as the commands start them: what the caller
//! asks of each (a `*Request`) checked and turned into the options of
//! [`crate::scale::trainer`], [`crate::scale::worker`], [`crate::Loop`],
//! [`train::train`] (`triad train`, in a local folder or a store's mirror)
//! and self-play into shards ([`selfplay::shards`], to a folder or a
//! store).
//!
//! Each role comes in three parts, so that the caller (the binary, the
//! Python module), and only the caller, picks the game: a `prepare_*`
//! step that reads the run file and checks the request without knowing
//! the game; a generic body (`*_game<G>`) that runs the role for one game;
//! and, where the run may live in a store, a function that hands the body
//! a local folder (a mirror pushed back, a temporary folder uploaded).
//! Rendering what a role reports (JSON, text) is the caller's.

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use game::{AlphaBetaState, Game};
use registry::AnyGame;
use store::Store;

use crate::scale::{self, trainer, worker};
use crate::suite::SuiteRecord;
use crate::{load_run, Error, InputError, Loop, Run, RunConfig, Summary};

/// The poll and patience flags the trainer and the worker share, checked:
/// the patience is set for the process ([`scale::set_patience`]).
fn poll_and_patience(poll: f64, patience: f64, ratio: Option<f64>) -> Result<Duration, Error> {
    if !(poll.is_finite() && poll > 0.0) {
        return Err(Error::from(InputError::Flag {
            flags: "--poll",
            requirement: "a positive number of seconds",
        }));
    }
    if let Some(r) = ratio {
        if !(r.is_finite() && r >= 0.0) {
            return Err(Error::from(InputError::Flag {
                flags: "--max-sample-ratio",
                requirement: "a number ≥ 0",
            }));
        }
    }
    if !(patience.is_finite() && patience >= 0.0) {
        return Err(Error::from(InputError::Flag {
            flags: "--patience",
            requirement: "a number of seconds ≥ 0",
        }));
    }
    scale::set_patience(Duration::from_secs_f64(patience));
    Ok(Duration::from_secs_f64(poll))
}

/// Opens the store of `--run` (or `--out`), naming the flag in the error.
pub fn open_store(url: &str, flag: &'static str) -> Result<Store, Error> {
    Store::open(url).map_err(|source| InputError::Store { flag, source }.into())
}

/// What `triad trainer` asks (the run file's `[loop]` values where absent).
pub struct TrainerRequest {
    /// `--work`: the local folder (default: one named after the run).
    pub work: Option<PathBuf>,
    /// `--generations` (default: `[loop] generations`).
    pub generations: Option<u32>,
    /// `--min-new-games` (default: `[loop] games_per_generation`).
    pub min_new_games: Option<u64>,
    /// `--steps` (default: `[loop] train_steps_per_generation`).
    pub steps: Option<u64>,
    /// `--max-sample-ratio` (0: no cap).
    pub max_sample_ratio: f64,
    /// `--window-generations` (0: all).
    pub window_generations: u32,
    /// `--poll`, seconds.
    pub poll: f64,
    /// `--matches`.
    pub matches: bool,
    /// `--patience`, seconds.
    pub patience: f64,
    /// `--no-verify`: ingest shards without verifying them.
    pub no_verify: bool,
}

/// A trainer ready to run: its run file, its store and its settings,
/// checked ([`prepare_trainer`]).
pub struct TrainerJob {
    /// The run file, checked, with its game.
    pub run: Run,
    store: Store,
    incarnation: String,
    work: PathBuf,
    poll: Duration,
    generations: u32,
    min_new_games: u64,
    steps_per_generation: u64,
    max_sample_ratio: f64,
    window_generations: u32,
    matches: bool,
    verify: bool,
}

/// Reads the run file `config` and checks the trainer's request for the
/// run at `url`.
pub fn prepare_trainer(
    config: &Path,
    url: &str,
    request: &TrainerRequest,
) -> Result<TrainerJob, Error> {
    let run = load_run(config)?;
    let poll = poll_and_patience(
        request.poll,
        request.patience,
        Some(request.max_sample_ratio),
    )?;
    let store = open_store(url, "--run")?;
    let cfg = &run.config;
    let work = (request.work.clone()).unwrap_or_else(|| trainer::default_work(url));
    let job = TrainerJob {
        generations: request.generations.unwrap_or(cfg.r#loop.generations),
        min_new_games: (request.min_new_games).unwrap_or(cfg.r#loop.games_per_generation),
        steps_per_generation: request
            .steps
            .unwrap_or(cfg.r#loop.train_steps_per_generation),
        max_sample_ratio: request.max_sample_ratio,
        window_generations: request.window_generations,
        matches: request.matches,
        verify: !request.no_verify,
        run,
        store,
        incarnation: scale::incarnation(),
        work,
        poll,
    };
    job.options(&AtomicBool::new(false))
        .check(&job.run.config)?;
    Ok(job)
}

impl TrainerJob {
    fn options<'a>(&'a self, stop: &'a AtomicBool) -> trainer::TrainerOptions<'a> {
        trainer::TrainerOptions {
            store: &self.store,
            incarnation: self.incarnation.clone(),
            work: self.work.clone(),
            config_text: self.run.text.clone(),
            generations: self.generations,
            min_new_games: self.min_new_games,
            steps_per_generation: self.steps_per_generation,
            max_sample_ratio: self.max_sample_ratio,
            window_generations: self.window_generations,
            poll: self.poll,
            matches: self.matches,
            verify: self.verify,
            stop,
        }
    }

    /// Runs the trainer on `game` (the run file's) until `stop` or the
    /// last generation.
    pub fn run<G: Game>(&self, game: &G, stop: &AtomicBool) -> Result<trainer::TrainerReport, Error>
    where
        G::State: AlphaBetaState,
    {
        eprintln!(
            "trainer: run {} (work folder {})",
            self.store.url(),
            self.work.display()
        );
        trainer::run(game, &self.run.config, &self.options(stop))
    }
}

/// What `triad worker` asks.
pub struct WorkerRequest {
    /// `--worker` (default: from the scheduler's environment).
    pub worker: Option<u32>,
    /// `--work` (default: a temporary folder, removed at the end).
    pub work: Option<PathBuf>,
    /// `--games-per-shard`.
    pub games_per_shard: u64,
    /// `--max-shards`.
    pub max_shards: Option<u64>,
    /// `--poll`, seconds.
    pub poll: f64,
    /// `--device`, replacing the run file's `[model] device`.
    pub device: Option<String>,
    /// `--patience`, seconds.
    pub patience: f64,
}

/// What a worker did, with who it was.
pub struct WorkerOutcome {
    /// Its index.
    pub worker: u32,
    /// Its incarnation (unique per process).
    pub incarnation: String,
    /// What it played and uploaded.
    pub report: worker::WorkerReport,
}

/// A worker ready to play: the run file the trainer published, its store
/// and its settings ([`prepare_worker`]).
pub struct WorkerJob {
    /// The run file, checked, with its game.
    pub run: Run,
    store: Store,
    index: u32,
    incarnation: String,
    work: PathBuf,
    keep_work: bool,
    games_per_shard: u64,
    max_shards: Option<u64>,
    poll: Duration,
}

/// Checks the worker's request, opens the run at `url` and waits for the
/// trainer's run file; `None` when stopped before the trainer published
/// one.
pub fn prepare_worker(
    url: &str,
    request: &WorkerRequest,
    stop: &AtomicBool,
) -> Result<Option<WorkerJob>, Error> {
    let index = worker::index(request.worker)?;
    if request.games_per_shard == 0 {
        return Err(Error::from(InputError::Flag {
            flags: "--games-per-shard",
            requirement: "at least 1",
        }));
    }
    let poll = poll_and_patience(request.poll, request.patience, None)?;
    let store = open_store(url, "--run")?;
    let incarnation = scale::incarnation();
    let work = (request.work.clone()).unwrap_or_else(|| worker::default_work(index, &incarnation));
    std::fs::create_dir_all(&work).map_err(|source| InputError::Work {
        path: work.clone(),
        source,
    })?;
    let Some(config) = worker::wait_for_config(&store, &work, poll, stop)? else {
        return Ok(None);
    };
    let mut run = load_run(&config)?;
    if let Some(device) = &request.device {
        // This machine's device, whatever the run file says: GPU and CPU
        // workers share a run (checkpoints are stored device-free).
        run.config.model.device = device.clone();
        (run.config.model.tch_device()).map_err(|source| InputError::Device { source })?;
    }
    Ok(Some(WorkerJob {
        run,
        store,
        index,
        incarnation,
        work,
        keep_work: request.work.is_some(),
        games_per_shard: request.games_per_shard,
        max_shards: request.max_shards,
        poll,
    }))
}

impl WorkerJob {
    /// Plays on `game` (the run file's) until `stop` or `--max-shards`,
    /// then removes a work folder of its own making.
    pub fn run<G: Game>(&self, game: &G, stop: &AtomicBool) -> Result<WorkerOutcome, Error>
    where
        G::State: AlphaBetaState,
    {
        let opts = worker::WorkerOptions {
            store: &self.store,
            worker: self.index,
            incarnation: self.incarnation.clone(),
            work: self.work.clone(),
            games_per_shard: self.games_per_shard,
            max_shards: self.max_shards,
            poll: self.poll,
            stop,
        };
        let report = worker::run(game, &self.run.config, &opts)?;
        if !self.keep_work {
            let _ = std::fs::remove_dir_all(&self.work);
        }
        Ok(WorkerOutcome {
            worker: self.index,
            incarnation: self.incarnation.clone(),
            report,
        })
    }
}

/// What `triad loop` asks beyond its run file.
pub struct LoopRequest {
    /// `--generations`, replacing `[loop] generations`.
    pub generations: Option<u32>,
    /// `--minutes`, replacing `[loop] minutes`.
    pub minutes: Option<f64>,
    /// `--open-ended`.
    pub open_ended: bool,
}

/// A finished loop: where it ran, its summary and its suite scores.
pub struct Finished {
    /// The run directory (the local mirror for a run in a store).
    pub run: PathBuf,
    /// The run's state and matches.
    pub summary: Summary,
    /// The benchmark-suite scores by generation.
    pub suite: Vec<SuiteRecord>,
}

/// Reads the run file `config` and applies the loop's request to it.
pub fn prepare_loop(config: &Path, request: &LoopRequest) -> Result<Run, Error> {
    let mut file = load_run(config)?;
    if let Some(n) = request.generations {
        if n == 0 {
            return Err(Error::from(InputError::Flag {
                flags: "--generations",
                requirement: "at least 1",
            }));
        }
        file.config.r#loop.generations = n;
    }
    if let Some(m) = request.minutes {
        file.config.r#loop.minutes = m;
        (file.config.r#loop.validate()).map_err(|source| InputError::Minutes { source })?;
    }
    Ok(file)
}

/// Calls `body` with the local folder of the run at `run` (a folder, or a
/// store URL: then a local mirror, pushed every minute and at the end,
/// however `body` ends).
pub fn in_run_folder(
    run: &Path,
    body: impl FnOnce(&Path) -> Result<(), Error>,
) -> Result<(), Error> {
    if let Some(dir) = local_folder(run) {
        return body(dir);
    }
    let url = run.to_string_lossy().into_owned();
    // A run in a store: the loop works in a local mirror, pushed every
    // minute and at the end, however it ends.
    let mirror = crate::inputs::pull_mirror(&url)?;
    let local = mirror.local.display().to_string();
    let warn = |e: &Error| eprintln!("warning: pushing the run to {local}: {e}");
    let dir = mirror.local.clone();
    let (result, pushed) = mirror.pushing(Duration::from_secs(60), warn, || body(&dir));
    match (&result, pushed) {
        (_, Ok(n)) => eprintln!("{url}: {n} files pushed"),
        (Ok(()), Err(e)) => return Err(e),
        (Err(_), Err(e)) => eprintln!("warning: pushing the run to {url}: {e}"),
    }
    result
}

/// Runs the loop of `file` (its game, `game`) in the folder `run`,
/// calling `done` with the result.
pub fn loop_game<G: Game>(
    game: &G,
    file: &Run,
    run: &Path,
    request: &LoopRequest,
    stop: &AtomicBool,
    done: &mut dyn FnMut(&Finished),
) -> Result<(), Error>
where
    G::State: AlphaBetaState,
{
    let summary = Loop::open(game, &file.config, &file.text, run, stop)
        .and_then(|l| l.open_ended(request.open_ended).run())?;
    let suite = crate::suite::read(run)?;
    done(&Finished {
        run: run.to_path_buf(),
        summary,
        suite,
    });
    Ok(())
}

/// What `triad train` asks (shard paths already localized).
pub struct TrainRequest {
    /// `--config`: the run file (its `[game]`, `[model]` and `[train]`).
    pub config: Option<PathBuf>,
    /// `--data`: shard files, folders or run directories.
    pub data: Vec<PathBuf>,
    /// `--generations`: only the shards of these generations.
    pub generations: Option<data::Generations>,
    /// `--out`: the run directory, or a store URL (trained in its mirror).
    pub out: PathBuf,
    /// `--resume`.
    pub resume: bool,
    /// `--steps`, replacing `[train] steps`.
    pub steps: Option<u64>,
    /// `--init`: starting weights.
    pub init: Option<PathBuf>,
    /// `--game`, when no `--config` gives one (default: the shards' game).
    pub game: Option<String>,
    /// `--skip-bad-shards`: leave out the shards that fail verification
    /// instead of refusing them.
    pub skip_bad_shards: bool,
    /// `--mix VARIANT=PATHS`: other variants of the game and their shards,
    /// trained on beside the run's (`train::train_mixed`).
    pub mix: Vec<MixRequest>,
}

/// One `--mix GAME=PATH[,PATH…]`: another variant of the run's game and
/// its shards.
#[derive(Clone, Debug, PartialEq)]
pub struct MixRequest {
    /// The variant, as `--game` takes it (`connect4/6x5`).
    pub game: String,
    /// Its shard files, folders or run directories.
    pub data: Vec<PathBuf>,
}

/// The shards `triad train` reads (the chosen generations' files, in the
/// order of the whole listing) and its game: the run file's, `--game`'s,
/// else the shards'.
pub fn prepare_training(request: &TrainRequest) -> Result<(Vec<PathBuf>, AnyGame), Error> {
    let mut data = request.data.clone();
    if let Some(range) = &request.generations {
        // The trainer reads what it is given: the chosen generations' shard
        // files, in the order of the whole listing.
        data = (crate::inputs::shards_of(&data, Some(range))?.into_iter())
            .map(|s| s.path)
            .collect();
    }
    let game = match (&request.config, &request.game) {
        (Some(path), _) => crate::load_game(path)?,
        (None, Some(flag)) => registry::from_flag(flag)?,
        (None, None) => registry::of_shards(&data)?,
    };
    Ok((data, game))
}

/// The folder `out` names when it is not in a store: a `file://` URL's
/// path, or `out` itself when it is no URL; `None` for a store URL.
fn local_folder(out: &Path) -> Option<&Path> {
    match out.to_str().and_then(|t| t.strip_prefix("file://")) {
        Some(local) => Some(Path::new(local)),
        None => (!store::is_url(out)).then_some(out),
    }
}

/// Calls `body` with the local folder of the run directory `out`: the
/// folder itself, or, for a store URL, its local mirror, pushed back at
/// the end however `body` ends (docs/scale-out.md).
pub fn in_out_folder(
    out: &Path,
    body: impl FnOnce(&Path) -> Result<(), Error>,
) -> Result<(), Error> {
    if let Some(local) = local_folder(out) {
        return body(local);
    }
    let out_text = out.to_string_lossy().into_owned();
    let mirror = crate::inputs::pull_mirror(&out_text)?;
    let result = body(&mirror.local);
    match (result, mirror.push()) {
        (Ok(()), Ok(n)) => {
            eprintln!("{out_text}: {n} files pushed");
            Ok(())
        }
        (Ok(()), Err(e)) | (Err(e), Ok(_)) => Err(e),
        (Err(e), Err(p)) => {
            eprintln!("warning: pushing the run to {out_text}: {p}");
            Err(e)
        }
    }
}

/// Trains a network on `game` as `triad train` does (with a progress bar)
/// into the folder `out`, calling `done` with the summary.
pub fn train_game<G: Game>(
    game: &G,
    request: &TrainRequest,
    data: Vec<PathBuf>,
    out: &Path,
    done: &mut dyn FnMut(&train::Summary, &Path),
) -> Result<(), Error>
where
    G::State: AlphaBetaState,
{
    let (model_cfg, train_cfg, text) = train::run_configs(request.config.as_deref())?;
    if request.steps == Some(0) && (request.init.is_none() || request.resume) {
        return Err(Error::from(InputError::Flag {
            flags: "--steps",
            requirement: "at least 1 (0 only with --init, to label the start network for this game's variant)",
        }));
    }
    let total = request.steps.unwrap_or(train_cfg.steps);
    let bar = indicatif::ProgressBar::new(total);
    if let Ok(style) = indicatif::ProgressStyle::with_template(
        "{bar:30} {pos}/{len} steps  {msg}  [{elapsed_precise} < {eta_precise}]",
    ) {
        bar.set_style(style.progress_chars("=> "));
    }
    // What it trains on is what the game's rules say: a shard that fails
    // verification is refused, or left out with --skip-bad-shards.
    let data = crate::inputs::verified_data(game, data, request.skip_bad_shards)?;
    bar.set_message("loading the replay window");
    // One writer per run directory: a second `triad train` into it is
    // refused naming the first; a killed one's lock is taken over.
    let _lock = crate::lock::RunLock::acquire(out, "triad train")?;
    let mut mix = Vec::with_capacity(request.mix.len());
    for part in &request.mix {
        let any = registry::from_flag(&part.game).map_err(|source| InputError::MixGame {
            game: part.game.clone(),
            source,
        })?;
        let Some(other) = any.as_game::<G>() else {
            return Err(InputError::MixNotVariant {
                game: part.game.clone(),
                run_game: G::NAME,
            }
            .into());
        };
        let data = crate::inputs::verified_data(other, part.data.clone(), request.skip_bad_shards)?;
        mix.push(train::MixPart {
            game: other.clone(),
            data,
        });
    }
    let opts = train::RunOptions {
        run_dir: out.to_path_buf(),
        data,
        resume: request.resume,
        steps: request.steps,
        init: request.init.clone(),
        stop_after: None,
        config_text: Some(text),
    };
    let mut shown = 0u64;
    let result = train::train_mixed(game, &mix, &model_cfg, &train_cfg, &opts, &mut |p| {
        if shown == 0 {
            bar.set_position(p.step.saturating_sub(1));
        }
        if p.last.step != shown {
            shown = p.last.step;
            bar.set_message(p.message());
        }
        bar.set_position(p.step);
    });
    bar.finish_and_clear();
    done(&result?, out);
    Ok(())
}

/// What `triad selfplay` asks beyond its run file.
pub struct SelfplayRequest {
    /// `--model`: a checkpoint (default: a fresh network of `[model]`).
    pub model: Option<PathBuf>,
    /// `--games`.
    pub games: u64,
    /// `--out`: a folder, or a store URL (shards uploaded at the end).
    pub out: PathBuf,
    /// `--seed`.
    pub seed: u64,
    /// `--first-game-id`.
    pub first_game_id: u64,
    /// `--shard-games`.
    pub shard_games: u64,
}

/// Calls `body` with the folder self-play writes its shards into: `out`
/// itself, or, for a store URL, a temporary folder whose shards are then
/// each uploaded by put-if-absent (a name already there is refused).
pub fn into_shard_folder(
    out: &Path,
    body: impl FnOnce(&Path) -> Result<(), Error>,
) -> Result<(), Error> {
    if let Some(local) = local_folder(out) {
        return body(local);
    }
    let out_text = out.to_string_lossy().into_owned();
    let store = open_store(&out_text, "--out")?;
    let local = std::env::temp_dir().join(format!("triad-selfplay-{}", scale::incarnation()));
    body(&local)?;
    let result = selfplay::shards::upload_shards(&store, &local);
    let _ = std::fs::remove_dir_all(&local);
    eprintln!("{out_text}: {} shards uploaded", result?);
    Ok(())
}

/// Plays self-play games of `game` into shards in `out` as `triad
/// selfplay` does (with a progress bar), calling `done` with the report
/// and the network's id.
pub fn selfplay_game<G: Game>(
    game: &G,
    cfg: &RunConfig,
    request: &SelfplayRequest,
    out: &Path,
    stop: &AtomicBool,
    done: &mut dyn FnMut(&selfplay::shards::Report, &str),
) -> Result<(), Error>
where
    G::State: AlphaBetaState,
{
    if request.games == 0 {
        return Err(Error::from(InputError::Flag {
            flags: "--games",
            requirement: "at least 1",
        }));
    }
    if request.shard_games == 0 {
        return Err(Error::from(InputError::Flag {
            flags: "--shard-games",
            requirement: "at least 1",
        }));
    }
    let job = selfplay::shards::Job {
        out: out.to_path_buf(),
        games: request.games,
        first_game_id: request.first_game_id,
        seed: request.seed,
        shard_games: request.shard_games,
        model_id: String::new(),
    };
    let prepared = selfplay::shards::prepare_job(
        game,
        &cfg.model,
        &cfg.selfplay,
        request.model.as_deref(),
        job,
    )?;
    let model_id = prepared.model_id().to_string();
    let bar = indicatif::ProgressBar::new(request.games);
    bar.set_style(
        indicatif::ProgressStyle::with_template(
            "{elapsed_precise} [{bar:30}] {pos}/{len} games  {msg}",
        )
        .expect("valid template")
        .progress_chars("=> "),
    );
    let report = {
        // One writer per folder: a second `triad selfplay` into it is
        // refused naming the first; a killed one's lock is taken over.
        let _lock = crate::lock::RunLock::acquire(&prepared.job().out, "triad selfplay")?;
        prepared.run(game, &players::new_quiescence_hint, stop, &bar)?
    };
    bar.finish_and_clear();
    done(&report, &model_id);
    Ok(())
}
