//! The trainer of a distributed run (`triad trainer`): publishes the run
//! file and generation 0, then for each generation waits for enough new
//! games, ingests the new shards by listing, trains (at most a set number
//! of samples per new sample) and publishes the next network. Two trainers
//! on one run: the one that loses the put-if-absent of a generation's
//! manifest stops, saying so (a fence, no lock server).
//!
//! Every shard ingested is verified first ([`data::verify`]: replayed
//! through the game's rules, game ids unique across the run): one that
//! fails is moved to `quarantine/` whole, with a reason object beside it,
//! counted, said on stderr and never trained on, and the run goes on.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use game::{AlphaBetaState, Game, GameTag};
use store::{PutOutcome, Store};

use super::{
    download_network, patiently, published, read_manifest, sha256_hex, write_whole, Manifest,
    CONFIG_KEY, LATEST_KEY,
};
use crate::layout::{self, games_dir, gen_name, parse_gen, trainer_weights, GAMES_DIR};
use crate::{Error, InputError, RunConfig};

/// What a trainer is told.
pub struct TrainerOptions<'a> {
    pub store: &'a Store,
    pub incarnation: String,
    /// A local folder: the training run (checkpoints, metrics) and the
    /// ingested shards. Kept between restarts to resume faster; a new one
    /// starts from the newest published network.
    pub work: PathBuf,
    /// The run file's text (published as `config.toml`).
    pub config_text: String,
    /// Train up to this generation, then stop.
    pub generations: u32,
    /// New games needed before a generation is trained.
    pub min_new_games: u64,
    /// Training steps per generation (at most).
    pub steps_per_generation: u64,
    /// At most this many samples trained per new sample (0: no cap).
    pub max_sample_ratio: f64,
    /// Train on the shards of the last K generations only (0: all).
    pub window_generations: u32,
    pub poll: Duration,
    /// Play generation g against g-1 and the `[eval] ladder` after
    /// publishing it ([`super::matches`]).
    pub matches: bool,
    /// Verify every shard before ingesting it (and quarantine one that
    /// fails); off only to measure what verification costs.
    pub verify: bool,
    pub stop: &'a AtomicBool,
}

/// What a trainer did.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct TrainerReport {
    pub published: Vec<u32>,
    pub shards_ingested: u64,
    pub rows_ingested: u64,
    pub bytes_ingested: u64,
    /// Seconds listing, downloading, reading and verifying new shards.
    pub ingest_seconds: f64,
    /// Seconds of that verifying shards.
    pub verify_seconds: f64,
    /// Shards that failed verification, moved to `quarantine/`.
    pub shards_quarantined: u64,
    /// Their keys (under `games/`), in the order found.
    pub quarantined: Vec<String>,
    pub train_seconds: f64,
    /// Seconds of matches (`--matches`).
    pub match_seconds: f64,
    pub steps: u64,
    pub seconds: f64,
    pub interrupted: bool,
}

impl TrainerOptions<'_> {
    /// Refuses options the trainer cannot run with: the loop-only
    /// `train_samples_per_position`, `mix` and `late_simulations`, no steps
    /// or no games per generation.
    pub fn check(&self, cfg: &RunConfig) -> Result<(), Error> {
        if cfg.r#loop.train_samples_per_position > 0.0 {
            return Err(InputError::LoopOnly {
                key: "loop.train_samples_per_position",
                advice: "the trainer trains --steps per generation (bounded by --max-sample-ratio): set it to 0",
            }
            .into());
        }
        if !cfg.r#loop.mix.is_empty() {
            return Err(InputError::LoopOnly {
                key: "loop.mix",
                advice: "the trainer and its workers play the run's variant alone: remove it",
            }
            .into());
        }
        if cfg.r#loop.late_simulations > 0 {
            return Err(InputError::LoopOnly {
                key: "loop.late_simulations",
                advice: "the trainer's workers play [selfplay] simulations throughout: set it to 0",
            }
            .into());
        }
        if self.steps_per_generation == 0 || self.min_new_games == 0 {
            return Err(InputError::Flag {
                flags: "--steps and --min-new-games",
                requirement: "at least 1",
            }
            .into());
        }
        Ok(())
    }
}

/// The default work folder of the trainer of `run` (a URL or path), under
/// the system's temporary folder, named after the run.
pub fn default_work(run: &str) -> PathBuf {
    let tag = sha256_hex(run.as_bytes());
    std::env::temp_dir().join(format!("triad-trainer-{}", &tag[..12]))
}

impl TrainerReport {
    pub fn shards_per_s(&self) -> f64 {
        self.shards_ingested as f64 / self.ingest_seconds.max(1e-9)
    }
    pub fn rows_per_s(&self) -> f64 {
        self.rows_ingested as f64 / self.ingest_seconds.max(1e-9)
    }
}

/// The shards ingested so far (keys), with their rows and games, and the
/// game ids they hold (a later shard may not reuse one).
#[derive(Default)]
struct Ingested {
    keys: BTreeSet<String>,
    games: u64,
    rows: u64,
    ids: data::verify::GameIds,
}

/// The ingested shards: the run's `games/` folder, mirrored.
fn cache_dir(work: &Path) -> PathBuf {
    work.join(GAMES_DIR)
}

/// Publishes the run file, or checks that the run's is the same.
fn publish_config(opts: &TrainerOptions) -> Result<(), Error> {
    let text = opts.config_text.clone();
    let put = patiently(opts.store, "publishing config.toml", |s| {
        s.put_new(CONFIG_KEY, text.clone().into_bytes())
    })?;
    if let PutOutcome::AlreadyExists = put {
        let theirs = patiently(opts.store, "reading config.toml", |s| s.get(CONFIG_KEY))?
            .unwrap_or_default();
        if theirs != opts.config_text.as_bytes() {
            return Err(Error::StoreOtherConfig {
                url: opts.store.url().to_string(),
            });
        }
    }
    Ok(())
}

/// Publishes the network at `weights` as generation `g`: its weights under
/// a name of this incarnation, then its manifest by put-if-absent (the
/// fence), then `LATEST`.
fn publish(
    opts: &TrainerOptions,
    g: u32,
    weights: &Path,
    ingested: &Ingested,
) -> Result<(), Error> {
    let bytes = std::fs::read(weights).map_err(Error::io(&weights))?;
    let sidecar_path = model::checkpoint::sidecar_path(weights);
    let sidecar: serde_json::Value = std::fs::read(&sidecar_path)
        .ok()
        .and_then(|b| serde_json::from_slice(&b).ok())
        .ok_or_else(|| Error::UnreadableSidecar {
            path: sidecar_path.clone(),
        })?;
    let key = trainer_weights(g, &opts.incarnation);
    let manifest = Manifest {
        generation: g,
        weights: key.clone(),
        sha256: sha256_hex(&bytes),
        bytes: bytes.len() as u64,
        sidecar,
        trainer: opts.incarnation.clone(),
        shards_seen: ingested.keys.len() as u64,
        rows_seen: ingested.rows,
    };
    patiently(opts.store, "uploading a network", |s| {
        s.put_new(&key, bytes.clone())
    })?;
    let text = serde_json::to_vec_pretty(&manifest).map_err(Error::from)?;
    let mkey = layout::manifest(g);
    match patiently(opts.store, "publishing a manifest", |s| {
        s.put_new(&mkey, text.clone())
    })? {
        PutOutcome::Created => {}
        PutOutcome::AlreadyExists => {
            let theirs = read_manifest(opts.store, g)?;
            if theirs.trainer != opts.incarnation {
                return Err(Error::Fenced {
                    url: opts.store.url().to_string(),
                    generation: g,
                    trainer: theirs.trainer,
                });
            }
        }
    }
    patiently(opts.store, "writing LATEST", |s| {
        s.put(LATEST_KEY, format!("{}\n", gen_name(g)).into_bytes())
    })?;
    Ok(())
}

/// Lists the run's shards and downloads the new ones into the cache,
/// verifying each first (with `opts.verify`): one that fails is
/// quarantined ([`quarantine`]) and not ingested.
fn ingest<G: Game>(
    game: &G,
    opts: &TrainerOptions,
    max_plies: u32,
    ingested: &mut Ingested,
    report: &mut TrainerReport,
) -> Result<u64, Error> {
    let t = Instant::now();
    let listed = patiently(opts.store, "listing shards", |s| s.list(GAMES_DIR))?;
    let mut new_games = 0;
    let mut verifier = data::verify::Verifier::new(game).with_max_plies(max_plies);
    for l in listed {
        if !l.key.ends_with(".parquet") || ingested.keys.contains(&l.key) {
            continue;
        }
        let bytes = patiently(opts.store, "downloading a shard", |s| s.get(&l.key))?;
        let Some(bytes) = bytes else { continue };
        let local = opts.work.join(&l.key);
        if let Some(dir) = local.parent() {
            std::fs::create_dir_all(dir).map_err(Error::io(&dir))?;
        }
        write_whole(&local, &bytes)?;
        let (games, rows, ids) = if opts.verify {
            let v = Instant::now();
            let check = verifier.shard(&local, &ingested.ids);
            report.verify_seconds += v.elapsed().as_secs_f64();
            if !check.ok() {
                let _ = std::fs::remove_file(&local);
                quarantine(opts, &l.key, bytes, &check)?;
                ingested.keys.insert(l.key.clone());
                report.shards_quarantined += 1;
                report.quarantined.push(l.key);
                continue;
            }
            (check.checked.games, check.checked.rows, check.checked.ids)
        } else {
            match count_games(&local) {
                Ok(c) => c,
                Err(e) => {
                    eprintln!("trainer: skipping {}: {e}", l.key);
                    let _ = std::fs::remove_file(&local);
                    ingested.keys.insert(l.key);
                    continue;
                }
            }
        };
        ingested.ids.add(&local, &ids);
        ingested.keys.insert(l.key);
        ingested.games += games;
        ingested.rows += rows;
        new_games += games;
        report.shards_ingested += 1;
        report.rows_ingested += rows;
        report.bytes_ingested += bytes.len() as u64;
    }
    report.ingest_seconds += t.elapsed().as_secs_f64();
    Ok(new_games)
}

/// Moves the shard `key` that failed `check` aside: its bytes to
/// `quarantine/KEY` and a reason object to `quarantine/KEY.reason.json`
/// (both put-if-absent), then deletes `KEY` from the run's games; says so
/// on stderr with the first fault.
fn quarantine(
    opts: &TrainerOptions,
    key: &str,
    bytes: Vec<u8>,
    check: &data::verify::ShardCheck,
) -> Result<(), Error> {
    let aside = format!("{}/{key}", layout::QUARANTINE_DIR);
    let mut reason = check.json();
    reason["file"] = key.into();
    reason["trainer"] = opts.incarnation.clone().into();
    reason["sha256"] = sha256_hex(&bytes).into();
    let reason = serde_json::to_vec_pretty(&reason).map_err(Error::from)?;
    patiently(opts.store, "quarantining a shard", |s| {
        s.put_new(&aside, bytes.clone())
    })?;
    patiently(opts.store, "writing a quarantine reason", |s| {
        s.put_new(&format!("{aside}.reason.json"), reason.clone())
    })?;
    patiently(opts.store, "removing a quarantined shard", |s| {
        s.delete(key)
    })?;
    let first = check
        .checked
        .faults
        .first()
        .map(|f| f.to_string())
        .unwrap_or_default();
    eprintln!(
        "trainer: quarantined {key} ({} fault(s); first: {first}): moved to {aside}, not trained on",
        check.checked.faults.len()
    );
    Ok(())
}

/// Games (distinct ids), rows and the ids of a shard.
fn count_games(path: &Path) -> Result<(u64, u64, Vec<u64>), data::DataError> {
    let reader = data::ShardReader::open(path)?;
    let rows = reader.num_rows();
    let mut ids = BTreeSet::new();
    for b in reader.read_columns(&[data::schema::col::GAME_ID])? {
        let c = data::Columns::new(&b);
        let id = c
            .u64(data::schema::col::GAME_ID)
            .map_err(|e| data::DataError::caused(path, e))?;
        ids.extend(id.values().iter().copied());
    }
    Ok((ids.len() as u64, rows, ids.into_iter().collect()))
}

/// Shards already in the local cache (a restarted trainer with the same
/// work folder does not download them again).
fn scan_cache(opts: &TrainerOptions, ingested: &mut Ingested) {
    let root = cache_dir(&opts.work);
    let Ok(gens) = std::fs::read_dir(&root) else {
        return;
    };
    for g in gens.flatten() {
        let Some(k) = g.file_name().to_str().and_then(parse_gen) else {
            continue;
        };
        let Ok(files) = std::fs::read_dir(g.path()) else {
            continue;
        };
        for f in files.flatten() {
            let name = f.file_name().to_string_lossy().into_owned();
            if name.ends_with(".parquet") {
                if let Ok((games, rows, ids)) = count_games(&f.path()) {
                    ingested.ids.add(&f.path(), &ids);
                    ingested.keys.insert(format!("{}/{name}", games_dir(k)));
                    ingested.games += games;
                    ingested.rows += rows;
                }
            }
        }
    }
}

/// Trains and publishes generations until `opts.generations`.
pub fn run<G: Game>(
    game: &G,
    cfg: &RunConfig,
    opts: &TrainerOptions,
) -> Result<TrainerReport, Error>
where
    G::State: AlphaBetaState,
{
    let started = Instant::now();
    let mut report = TrainerReport::default();
    super::upgrade::refuse_old(opts.store)?;
    publish_config(opts)?;
    std::fs::create_dir_all(&opts.work).map_err(Error::io(&opts.work))?;
    let train_dir = opts.work.join("train");
    let mut have = match published(opts.store)?.last().copied() {
        Some(g) => g,
        None => {
            publish_fresh(game, cfg, opts)?;
            report.published.push(0);
            0
        }
    };
    if have >= opts.generations {
        if report.published.is_empty() {
            eprintln!(
                "trainer: {} already holds {} (--generations {}): nothing to train; raise --generations to go on",
                opts.store.url(),
                gen_name(have),
                opts.generations
            );
        }
        report.seconds = started.elapsed().as_secs_f64();
        return Ok(report);
    }
    // A fresh work folder starts from the newest published network.
    let init = if train::latest_checkpoint(&train_dir).is_none() {
        let m = read_manifest(opts.store, have)?;
        Some(download_network(opts.store, &m, &opts.work.join("init"))?)
    } else {
        None
    };
    let mut ingested = Ingested::default();
    scan_cache(opts, &mut ingested);
    let mut games_at_last = ingested.games;
    let mut rows_at_last = ingested.rows;
    while have < opts.generations && !opts.stop.load(Ordering::SeqCst) {
        let g = have + 1;
        wait_for_games(
            game,
            cfg,
            opts,
            g,
            games_at_last,
            &mut ingested,
            &mut report,
        )?;
        if opts.stop.load(Ordering::SeqCst) {
            break;
        }
        let steps = steps_for(cfg, opts, ingested.rows - rows_at_last);
        let t = Instant::now();
        let latest = train_generation(game, cfg, opts, g, steps, init.as_ref(), &ingested)?;
        report.train_seconds += t.elapsed().as_secs_f64();
        report.steps += steps;
        publish(opts, g, &latest, &ingested)?;
        eprintln!("trainer: published {} to {}", gen_name(g), opts.store.url());
        if opts.matches {
            let t = Instant::now();
            play_matches(game, cfg, opts, g, &latest)?;
            report.match_seconds += t.elapsed().as_secs_f64();
        }
        report.published.push(g);
        games_at_last = ingested.games;
        rows_at_last = ingested.rows;
        have = g;
    }
    report.interrupted = opts.stop.load(Ordering::SeqCst) && have < opts.generations;
    report.seconds = started.elapsed().as_secs_f64();
    Ok(report)
}

/// Publishes a fresh network as generation 0 of a run that has none.
fn publish_fresh<G: Game>(game: &G, cfg: &RunConfig, opts: &TrainerOptions) -> Result<(), Error> {
    let net = model::Network::new(&cfg.model, game.encoding(), cfg.seed)?;
    let path = opts.work.join(format!("{}.safetensors", gen_name(0)));
    let info = model::CheckpointInfo::new(&GameTag::of(game), net.shape(), 0);
    net.save(&path, &info).map_err(Error::from)?;
    publish(opts, 0, &path, &Ingested::default())?;
    eprintln!(
        "trainer: published {} (a fresh network) to {}",
        gen_name(0),
        opts.store.url()
    );
    Ok(())
}

/// Ingests the workers' shards until `opts.min_new_games` games have come
/// since `games_at_last` (or a stop is asked for), polling every
/// `opts.poll`; says once that it waits for generation `g`.
fn wait_for_games<G: Game>(
    game: &G,
    cfg: &RunConfig,
    opts: &TrainerOptions,
    g: u32,
    games_at_last: u64,
    ingested: &mut Ingested,
    report: &mut TrainerReport,
) -> Result<(), Error>
where
    G::State: AlphaBetaState,
{
    let mut said = false;
    loop {
        ingest(game, opts, cfg.selfplay.max_plies, ingested, report)?;
        let new = ingested.games - games_at_last;
        if new >= opts.min_new_games || opts.stop.load(Ordering::SeqCst) {
            return Ok(());
        }
        if !said {
            eprintln!(
                "trainer: generation {g}: {new} of {} new games so far; waiting for workers",
                opts.min_new_games
            );
            said = true;
        }
        let until = Instant::now() + opts.poll;
        while Instant::now() < until && !opts.stop.load(Ordering::SeqCst) {
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

/// A generation's training steps: `opts.steps_per_generation`, at most
/// `--max-sample-ratio` samples per new row (at least one step).
fn steps_for(cfg: &RunConfig, opts: &TrainerOptions, new_rows: u64) -> u64 {
    let mut steps = opts.steps_per_generation;
    if opts.max_sample_ratio > 0.0 {
        let cap =
            (opts.max_sample_ratio * new_rows as f64 / cfg.train.batch_size as f64).ceil() as u64;
        steps = steps.min(cap.max(1));
    }
    steps
}

/// Trains generation `g`: `steps` more steps of the work folder's training
/// run (started from `init` when it has no checkpoint yet) on the cached
/// shards of the window's generations; returns the checkpoint trained.
fn train_generation<G: Game>(
    game: &G,
    cfg: &RunConfig,
    opts: &TrainerOptions,
    g: u32,
    steps: u64,
    init: Option<&PathBuf>,
    ingested: &Ingested,
) -> Result<PathBuf, Error>
where
    G::State: AlphaBetaState,
{
    let train_dir = opts.work.join("train");
    let data: Vec<PathBuf> = (0..g)
        .filter(|k| opts.window_generations == 0 || *k + opts.window_generations >= g)
        .map(|k| cache_dir(&opts.work).join(gen_name(k)))
        .filter(|d| d.is_dir())
        .collect();
    let last = train::latest_checkpoint(&train_dir);
    let resume = last.is_some();
    let done = last.map_or(0, |(_, i)| i.step);
    let train_opts = train::RunOptions {
        run_dir: train_dir.clone(),
        data,
        resume,
        steps: Some(done + steps),
        init: if resume { None } else { init.cloned() },
        stop_after: None,
        config_text: Some(opts.config_text.clone()),
    };
    eprintln!(
        "trainer: generation {g}: training {steps} steps on {} games ({} rows)",
        ingested.games, ingested.rows
    );
    let trained = train::train(game, &cfg.model, &cfg.train, &train_opts, &mut |_| {})?;
    if trained.steps_run > 0 {
        eprintln!(
            "trainer: generation {g}: {:.0} samples/s, waiting for data {:.0}% of the time",
            trained.samples_per_s(),
            trained.data_wait_share() * 100.0
        );
    }
    let (latest, _) =
        train::latest_checkpoint(&train_dir).ok_or(Error::NoCheckpoint { dir: train_dir })?;
    Ok(latest)
}

/// Plays generation `g`'s network (`latest`) against the one before it
/// (`--matches`) and says the results.
fn play_matches<G: Game>(
    game: &G,
    cfg: &RunConfig,
    opts: &TrainerOptions,
    g: u32,
    latest: &Path,
) -> Result<(), Error>
where
    G::State: AlphaBetaState,
{
    let previous = download_network(
        opts.store,
        &read_manifest(opts.store, g - 1)?,
        &opts.work.join("previous"),
    )?;
    let r = super::matches::play(game, cfg, opts.store, g, latest, &previous)?;
    for (opponent, w, d, l) in &r.results {
        eprintln!("trainer: {} vs {opponent}: +{w} ={d} -{l}", gen_name(g));
    }
    Ok(())
}
