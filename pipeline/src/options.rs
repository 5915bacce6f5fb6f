//! The long-running roles as the commands start them: their flags checked
//! and turned into the options of [`crate::scale::trainer`],
//! [`crate::scale::worker`], [`crate::Loop`], [`train::train`] (`triad
//! train`, in a local folder or a store's mirror) and self-play into
//! shards ([`crate::selfplay`], to a folder or a store), the run file loaded and
//! its game picked, the role run, and what it reports rendered as JSON or
//! text. The binary only parses the flags into the `*Flags` structs here
//! and prints.

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use game::{AlphaBetaState, Game};
use serde_json::{json, Value};
use store::Store;

use crate::scale::{self, trainer, worker};
use crate::suite::SuiteRecord;
use crate::{gen_name, load_run, ratings, Error, Loop, RunConfig, Summary};

/// The poll and patience flags the trainer and the worker share, checked:
/// the patience is set for the process ([`scale::set_patience`]).
fn poll_and_patience(poll: f64, patience: f64, ratio: Option<f64>) -> Result<Duration, Error> {
    if !(poll.is_finite() && poll > 0.0) {
        return Err(Error::input("--poll must be a positive number of seconds"));
    }
    if let Some(r) = ratio {
        if !(r.is_finite() && r >= 0.0) {
            return Err(Error::input("--max-sample-ratio must be a number ≥ 0"));
        }
    }
    if !(patience.is_finite() && patience >= 0.0) {
        return Err(Error::input("--patience must be a number of seconds ≥ 0"));
    }
    scale::set_patience(Duration::from_secs_f64(patience));
    Ok(Duration::from_secs_f64(poll))
}

/// Opens the store of `--run` (or `--out`), naming the flag in the error.
pub fn open_store(url: &str, flag: &str) -> Result<Store, Error> {
    Store::open(url).map_err(|e| Error::input(format!("{flag}: {e}")))
}

/// `triad trainer`'s flags (the run file's `[loop]` values where absent).
pub struct TrainerFlags {
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

/// Runs the trainer of the run at `url` with the run file `config`
/// (checked first), until `stop` or the last generation.
pub fn run_trainer(
    config: &Path,
    url: &str,
    flags: &TrainerFlags,
    stop: &AtomicBool,
) -> Result<trainer::TrainerReport, Error> {
    let run = load_run(config)?;
    let poll = poll_and_patience(flags.poll, flags.patience, Some(flags.max_sample_ratio))?;
    let store = open_store(url, "--run")?;
    let cfg = &run.config;
    let work = (flags.work.clone()).unwrap_or_else(|| trainer::default_work(url));
    let opts = trainer::TrainerOptions {
        store: &store,
        incarnation: scale::incarnation(),
        work: work.clone(),
        config_text: run.text.clone(),
        generations: flags.generations.unwrap_or(cfg.r#loop.generations),
        min_new_games: (flags.min_new_games).unwrap_or(cfg.r#loop.games_per_generation),
        steps_per_generation: flags.steps.unwrap_or(cfg.r#loop.train_steps_per_generation),
        max_sample_ratio: flags.max_sample_ratio,
        window_generations: flags.window_generations,
        poll,
        matches: flags.matches,
        verify: !flags.no_verify,
        stop,
    };
    opts.check(cfg)?;
    eprintln!(
        "trainer: run {} (work folder {})",
        store.url(),
        work.display()
    );
    registry::with_game!(run.game, |g| trainer::run(&g, cfg, &opts))
}

impl trainer::TrainerReport {
    /// `triad trainer --json`: the report with its ingestion rates.
    pub fn json(&self) -> Value {
        let mut v = serde_json::to_value(self).unwrap_or_default();
        v["shards_per_s"] = self.shards_per_s().into();
        v["rows_per_s"] = self.rows_per_s().into();
        v
    }

    /// The trainer's closing line on stderr.
    pub fn line(&self) -> String {
        format!(
            "trainer: published {:?}; ingested {} shards ({} rows) at {:.1} shards/s, {:.0} rows/s ({:.1} s of it verifying), {} quarantined; {} steps in {:.1} s",
            self.published,
            self.shards_ingested,
            self.rows_ingested,
            self.shards_per_s(),
            self.rows_per_s(),
            self.verify_seconds,
            self.shards_quarantined,
            self.steps,
            self.train_seconds
        )
    }
}

/// `triad worker`'s flags.
pub struct WorkerFlags {
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

/// Runs a self-play worker of the run at `url` until `stop` or
/// `--max-shards`; `None` when stopped before the trainer published a run
/// file.
pub fn run_worker(
    url: &str,
    flags: &WorkerFlags,
    stop: &AtomicBool,
) -> Result<Option<WorkerOutcome>, Error> {
    let index = worker::index(flags.worker)?;
    if flags.games_per_shard == 0 {
        return Err(Error::input("--games-per-shard must be at least 1"));
    }
    let poll = poll_and_patience(flags.poll, flags.patience, None)?;
    let store = open_store(url, "--run")?;
    let incarnation = scale::incarnation();
    let work = (flags.work.clone()).unwrap_or_else(|| worker::default_work(index, &incarnation));
    std::fs::create_dir_all(&work)
        .map_err(|e| Error::input(format!("--work {}: {e}", work.display())))?;
    let Some(config) = worker::wait_for_config(&store, &work, poll, stop)? else {
        return Ok(None);
    };
    let mut run = load_run(&config)?;
    if let Some(device) = &flags.device {
        // This machine's device, whatever the run file says: GPU and CPU
        // workers share a run (checkpoints are stored device-free).
        run.config.model.device = device.clone();
        (run.config.model.tch_device()).map_err(|e| Error::input(format!("--device: {}", e.0)))?;
    }
    let opts = worker::WorkerOptions {
        store: &store,
        worker: index,
        incarnation: incarnation.clone(),
        work: work.clone(),
        games_per_shard: flags.games_per_shard,
        max_shards: flags.max_shards,
        poll,
        stop,
    };
    let cfg = &run.config;
    let report = registry::with_game!(run.game, |g| worker::run(&g, cfg, &opts))?;
    if flags.work.is_none() {
        let _ = std::fs::remove_dir_all(&work);
    }
    Ok(Some(WorkerOutcome {
        worker: index,
        incarnation,
        report,
    }))
}

impl WorkerOutcome {
    /// `triad worker --json`: the report, who it was and its rates.
    pub fn json(&self) -> Value {
        let r = &self.report;
        let mut v = serde_json::to_value(r).unwrap_or_default();
        v["worker"] = self.worker.into();
        v["incarnation"] = self.incarnation.clone().into();
        v["games_per_hour"] = r.per_hour(r.games).into();
        v["rows_per_hour"] = r.per_hour(r.rows).into();
        v
    }

    /// The worker's closing line on stderr.
    pub fn line(&self) -> String {
        let r = &self.report;
        format!(
            "worker {}: {} shards, {} games, {} rows in {:.1} s ({:.0} games/h; {:.1} s playing, {:.1} s uploading){}",
            self.worker,
            r.shards,
            r.games,
            r.rows,
            r.seconds,
            r.per_hour(r.games),
            r.play_seconds,
            r.upload_seconds,
            if r.interrupted { "; stopped by a signal after uploading its finished games" } else { "" }
        )
    }
}

/// `triad loop`'s flags.
pub struct LoopFlags {
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

/// Runs the loop of the run file `config` in `run` (a folder, or a store
/// URL: then in a local mirror pushed every minute and at the end, however
/// the loop ends), calling `done` with the result before the last push.
pub fn run_loop(
    config: &Path,
    run: &Path,
    flags: &LoopFlags,
    stop: &AtomicBool,
    done: &mut dyn FnMut(&Finished),
) -> Result<(), Error> {
    let mut file = load_run(config)?;
    if let Some(n) = flags.generations {
        if n == 0 {
            return Err(Error::input("--generations must be at least 1"));
        }
        file.config.r#loop.generations = n;
    }
    if let Some(m) = flags.minutes {
        file.config.r#loop.minutes = m;
        (file.config.r#loop.validate()).map_err(|e| Error::input(format!("--minutes: {e}")))?;
    }
    let (cfg, text) = (&file.config, file.text.as_str());
    let url = run.to_string_lossy().into_owned();
    if !store::is_url(run) || url.starts_with("file://") {
        let dir = url.strip_prefix("file://").map_or(run, Path::new);
        return registry::with_game!(file.game, |g| {
            loop_game(&g, cfg, text, dir, flags, stop, done)
        });
    }
    // A run in a store: the loop works in a local mirror, pushed every
    // minute and at the end, however it ends.
    let mirror = crate::inputs::pull_mirror(&url)?;
    let local = mirror.local.display().to_string();
    let warn = |e: &Error| eprintln!("warning: pushing the run to {local}: {e}");
    let dir = mirror.local.clone();
    let (result, pushed) = mirror.pushing(Duration::from_secs(60), warn, || {
        registry::with_game!(file.game, |g| {
            loop_game(&g, cfg, text, &dir, flags, stop, done)
        })
    });
    match (&result, pushed) {
        (_, Ok(n)) => eprintln!("{url}: {n} files pushed"),
        (Ok(()), Err(e)) => return Err(e),
        (Err(_), Err(e)) => eprintln!("warning: pushing the run to {url}: {e}"),
    }
    result
}

fn loop_game<G: Game>(
    game: &G,
    cfg: &RunConfig,
    text: &str,
    run: &Path,
    flags: &LoopFlags,
    stop: &AtomicBool,
    done: &mut dyn FnMut(&Finished),
) -> Result<(), Error>
where
    G::State: AlphaBetaState,
{
    let summary = Loop::open(game, cfg, text, run, stop)
        .and_then(|l| l.open_ended(flags.open_ended).run())?;
    let suite = crate::suite::read(run)?;
    done(&Finished {
        run: run.to_path_buf(),
        summary,
        suite,
    });
    Ok(())
}

impl Finished {
    /// `triad loop --json`: generations, best network, ratings and suite.
    pub fn json(&self) -> Value {
        let m = &self.summary.matches;
        let fitted = ratings::fitted(m);
        json!({
            "generations": self.summary.state.generation,
            "best": gen_name(self.summary.state.best),
            "ratings": m.players.iter().zip(&fitted).map(|(p, r)| json!({"player": p, "elo": eval::report::rounded_elo(*r)})).collect::<Vec<_>>(),
            "suite": self.suite,
        })
    }

    /// `triad loop`'s text: the ratings table, the suite's error rates and
    /// the closing line.
    pub fn text(&self) -> String {
        let m = &self.summary.matches;
        let mut out = format!("{}\n", ratings::ratings_table(m, &ratings::fitted(m)));
        if !self.suite.is_empty() {
            out += &format!(
                "benchmark error rate (%), suite.csv:\n{}",
                crate::suite::csv(&self.suite)
            );
        }
        out += &format!(
            "run complete: {} (best network {})\n",
            self.run.display(),
            gen_name(self.summary.state.best)
        );
        out
    }
}

/// `triad train`'s flags (shard paths already localized).
pub struct TrainFlags {
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
    pub mix: Vec<MixFlag>,
}

/// One `--mix GAME=PATH[,PATH…]`: another variant of the run's game and
/// its shards.
#[derive(Clone, Debug, PartialEq)]
pub struct MixFlag {
    /// The variant, as `--game` takes it (`connect4/6x5`).
    pub game: String,
    /// Its shard files, folders or run directories.
    pub data: Vec<PathBuf>,
}

impl std::str::FromStr for MixFlag {
    type Err = String;
    fn from_str(text: &str) -> Result<MixFlag, String> {
        let (game, paths) = text.split_once('=').ok_or_else(|| {
            format!("{text:?}: write GAME=PATH[,PATH...], e.g. connect4/6x5=runs/c4-6x5")
        })?;
        let data: Vec<PathBuf> = paths
            .split(',')
            .filter(|p| !p.is_empty())
            .map(PathBuf::from)
            .collect();
        if game.is_empty() || data.is_empty() {
            return Err(format!(
                "{text:?}: write GAME=PATH[,PATH...], e.g. connect4/6x5=runs/c4-6x5"
            ));
        }
        Ok(MixFlag {
            game: game.to_string(),
            data,
        })
    }
}

/// Trains a network as `triad train` does (with a progress bar), calling
/// `done` with the summary and the run directory before a store's mirror
/// is pushed back, however the training ends.
pub fn run_training(
    flags: &TrainFlags,
    done: &mut dyn FnMut(&train::Summary, &Path),
) -> Result<(), Error> {
    let mut data = flags.data.clone();
    if let Some(range) = &flags.generations {
        // The trainer reads what it is given: the chosen generations' shard
        // files, in the order of the whole listing.
        data = (crate::inputs::shards_of(&data, Some(range))?.into_iter())
            .map(|s| s.path)
            .collect();
    }
    let game = match (&flags.config, &flags.game) {
        (Some(path), _) => crate::load_game(path)?,
        (None, Some(flag)) => registry::from_flag(flag)?,
        (None, None) => registry::of_shards(&data)?,
    };
    // A run directory in a store: trained in its local mirror, pushed back
    // at the end however the training ends (docs/scale-out.md).
    let out_text = flags.out.to_string_lossy().into_owned();
    if let Some(local) = out_text.strip_prefix("file://") {
        let out = Path::new(local);
        return registry::with_game!(game, |g| train_game(&g, flags, data, out, done));
    } else if !store::is_url(&flags.out) {
        let out = &flags.out;
        return registry::with_game!(game, |g| train_game(&g, flags, data, out, done));
    }
    let mirror = crate::inputs::pull_mirror(&out_text)?;
    let out = &mirror.local;
    let result = registry::with_game!(game, |g| train_game(&g, flags, data, out, done));
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

fn train_game<G: Game>(
    game: &G,
    flags: &TrainFlags,
    data: Vec<PathBuf>,
    out: &Path,
    done: &mut dyn FnMut(&train::Summary, &Path),
) -> Result<(), Error>
where
    G::State: AlphaBetaState,
{
    let (model_cfg, train_cfg, text) = train::run_configs(flags.config.as_deref())?;
    if flags.steps == Some(0) && (flags.init.is_none() || flags.resume) {
        return Err(Error::input(
            "--steps must be at least 1 (0 only with --init, to label the start network for this game's variant)",
        ));
    }
    let total = flags.steps.unwrap_or(train_cfg.steps);
    let bar = indicatif::ProgressBar::new(total);
    if let Ok(style) = indicatif::ProgressStyle::with_template(
        "{bar:30} {pos}/{len} steps  {msg}  [{elapsed_precise} < {eta_precise}]",
    ) {
        bar.set_style(style.progress_chars("=> "));
    }
    // What it trains on is what the game's rules say: a shard that fails
    // verification is refused, or left out with --skip-bad-shards.
    let data = crate::inputs::verified_data(game, data, flags.skip_bad_shards)?;
    bar.set_message("loading the replay window");
    // One writer per run directory: a second `triad train` into it is
    // refused naming the first; a killed one's lock is taken over.
    let _lock = crate::lock::RunLock::acquire(out, "triad train")?;
    let mut mix = Vec::with_capacity(flags.mix.len());
    for part in &flags.mix {
        let any = registry::from_flag(&part.game)
            .map_err(|e| Error::input(format!("--mix {}: {e}", part.game)))?;
        let Some(other) = any.as_game::<G>() else {
            return Err(Error::input(format!(
                "--mix {}: not a variant of {} (the run's game)",
                part.game,
                G::NAME
            )));
        };
        let data = crate::inputs::verified_data(other, part.data.clone(), flags.skip_bad_shards)?;
        mix.push(train::MixPart {
            game: other.clone(),
            data,
        });
    }
    let opts = train::RunOptions {
        run_dir: out.to_path_buf(),
        data,
        resume: flags.resume,
        steps: flags.steps,
        init: flags.init.clone(),
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

/// `triad selfplay`'s flags.
pub struct SelfplayFlags {
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

/// Plays self-play games into shards as `triad selfplay` does (with a
/// progress bar), calling `done` with the report and the network's id;
/// for a store, the shards are written in a temporary folder and then each
/// uploaded by put-if-absent (a name already there is refused).
pub fn run_selfplay(
    config: &Path,
    flags: &SelfplayFlags,
    stop: &AtomicBool,
    done: &mut dyn FnMut(&crate::selfplay::Report, &str),
) -> Result<(), Error> {
    let run = load_run(config)?;
    let cfg = &run.config;
    let out_text = flags.out.to_string_lossy().into_owned();
    if let Some(local) = out_text.strip_prefix("file://") {
        let out = Path::new(local);
        return registry::with_game!(run.game, |g| selfplay_game(&g, cfg, flags, out, stop, done));
    } else if !store::is_url(&flags.out) {
        let out = &flags.out;
        return registry::with_game!(run.game, |g| selfplay_game(&g, cfg, flags, out, stop, done));
    }
    let store = open_store(&out_text, "--out")?;
    let local = std::env::temp_dir().join(format!("triad-selfplay-{}", scale::incarnation()));
    registry::with_game!(run.game, |g| selfplay_game(
        &g, cfg, flags, &local, stop, done
    ))?;
    let result = crate::selfplay::upload_shards(&store, &local);
    let _ = std::fs::remove_dir_all(&local);
    eprintln!("{out_text}: {} shards uploaded", result?);
    Ok(())
}

fn selfplay_game<G: Game>(
    game: &G,
    cfg: &RunConfig,
    flags: &SelfplayFlags,
    out: &Path,
    stop: &AtomicBool,
    done: &mut dyn FnMut(&crate::selfplay::Report, &str),
) -> Result<(), Error>
where
    G::State: AlphaBetaState,
{
    if flags.games == 0 {
        return Err(Error::input("--games must be at least 1"));
    }
    if flags.shard_games == 0 {
        return Err(Error::input("--shard-games must be at least 1"));
    }
    let job = crate::selfplay::Job {
        out: out.to_path_buf(),
        games: flags.games,
        first_game_id: flags.first_game_id,
        seed: flags.seed,
        shard_games: flags.shard_games,
        model_id: String::new(),
    };
    let prepared = crate::selfplay::prepare_job(game, cfg, flags.model.as_deref(), job)?;
    let model_id = prepared.model_id().to_string();
    let bar = indicatif::ProgressBar::new(flags.games);
    bar.set_style(
        indicatif::ProgressStyle::with_template(
            "{elapsed_precise} [{bar:30}] {pos}/{len} games  {msg}",
        )
        .expect("valid template")
        .progress_chars("=> "),
    );
    let report = prepared.run(game, stop, &bar)?;
    bar.finish_and_clear();
    done(&report, &model_id);
    Ok(())
}
