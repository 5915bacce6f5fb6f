//! The self-play worker of a distributed run (`triad worker`): polls for the
//! newest network between shards, plays a shard of games with it, uploads
//! the shard whole under a name only it can own, and stops after the shard
//! in progress on SIGTERM (the games in flight are the most a pre-empted
//! job loses).

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use game::{AlphaBetaState, Game};
use indicatif::ProgressBar;
use mcts::NetworkEvaluator;
use selfplay::shards::{load_network, play_to_shards, Job, Report};
use store::Store;

use super::{download_network, newest, patiently, read_manifest, write_whole, CONFIG_KEY};
use crate::layout::{self, gen_name};
use crate::{Error, RunConfig};

/// What a worker is told.
pub struct WorkerOptions<'a> {
    pub store: &'a Store,
    /// This worker's index (from the scheduler or `--worker`).
    pub worker: u32,
    /// This process's incarnation ([`super::incarnation`]).
    pub incarnation: String,
    /// A local folder for the network and the shard being written.
    pub work: PathBuf,
    /// Games per uploaded shard.
    pub games_per_shard: u64,
    /// Stop after this many shards (tests, fixed budgets); `None`: until
    /// stopped.
    pub max_shards: Option<u64>,
    /// How long to wait between polls while no network is published.
    pub poll: Duration,
    pub stop: &'a AtomicBool,
}

/// What a worker did.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct WorkerReport {
    pub shards: u64,
    pub games: u64,
    pub rows: u64,
    pub bytes: u64,
    /// Generations it played with, in order.
    pub generations: Vec<u32>,
    /// Seconds playing, and seconds uploading.
    pub play_seconds: f64,
    pub upload_seconds: f64,
    pub seconds: f64,
    pub interrupted: bool,
}

impl WorkerReport {
    /// `x` (games, rows) per hour of this worker's run.
    pub fn per_hour(&self, x: u64) -> f64 {
        x as f64 * 3600.0 / self.seconds.max(1e-9)
    }
}

/// The worker index: `flag` (`--worker`) if given, else the scheduler's
/// `SLURM_ARRAY_TASK_ID`, `JOB_COMPLETION_INDEX` or `TRIAD_WORKER`.
pub fn index(flag: Option<u32>) -> Result<u32, Error> {
    if let Some(n) = flag {
        return Ok(n);
    }
    for var in [
        "SLURM_ARRAY_TASK_ID",
        "JOB_COMPLETION_INDEX",
        "TRIAD_WORKER",
    ] {
        if let Ok(v) = std::env::var(var) {
            return v
                .trim()
                .parse()
                .map_err(|_| Error::WorkerIndex { var, value: v });
        }
    }
    Err(Error::NoWorkerIndex)
}

/// The default work folder of worker `index`'s `incarnation`, under the
/// system's temporary folder.
pub fn default_work(index: u32, incarnation: &str) -> PathBuf {
    std::env::temp_dir().join(format!("triad-worker-{index}-{incarnation}"))
}

/// Downloads the run file into `work`, waiting (polling every `poll`) for
/// the trainer to publish it; `None` when stopped first.
pub fn wait_for_config(
    store: &Store,
    work: &std::path::Path,
    poll: Duration,
    stop: &AtomicBool,
) -> Result<Option<PathBuf>, Error> {
    let mut said = false;
    loop {
        let got = patiently(store, "reading config.toml", |s| s.get(CONFIG_KEY))?;
        if let Some(bytes) = got {
            let path = work.join("config.toml");
            write_whole(&path, &bytes)?;
            return Ok(Some(path));
        }
        if !said {
            eprintln!(
                "waiting for the trainer to publish {}/config.toml",
                store.url()
            );
            said = true;
        }
        let until = Instant::now() + poll;
        while Instant::now() < until {
            if stop.load(Ordering::SeqCst) {
                return Ok(None);
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

/// The first game id of a shard: worker (16 bits), incarnation (24 bits)
/// and the game's number within this process (24 bits), so ids are unique
/// within a run across workers and restarts (two incarnations of one
/// worker collide with odds of one in 16 million).
fn first_game_id(worker: u32, incarnation: &str, n: u64) -> u64 {
    let inc = incarnation.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ b as u64).wrapping_mul(0x0100_0000_01b3)
    });
    ((worker as u64 & 0xffff) << 48) | ((inc & 0xff_ffff) << 24) | (n & 0xff_ffff)
}

/// Sleeps `d` in small steps, returning early when `stop` is set.
fn nap(d: Duration, stop: &AtomicBool) {
    let until = Instant::now() + d;
    while Instant::now() < until && !stop.load(Ordering::SeqCst) {
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Plays and uploads shards until stopped or `max_shards` are done.
pub fn run<G: Game>(game: &G, cfg: &RunConfig, opts: &WorkerOptions) -> Result<WorkerReport, Error>
where
    G::State: AlphaBetaState,
{
    if opts.games_per_shard == 0 {
        return Err(crate::InputError::Flag {
            flags: "games per shard",
            requirement: "at least 1",
        }
        .into());
    }
    super::upgrade::refuse_old(opts.store)?;
    let started = Instant::now();
    let mut report = WorkerReport::default();
    let mut etag: Option<String> = None;
    let mut current: Option<(u32, NetworkEvaluator<G::State>)> = None;
    let mut said_waiting = false;
    let mut seq = 0u64;
    let name = format!("worker {} ({})", opts.worker, opts.incarnation);
    while !opts.stop.load(Ordering::SeqCst) && opts.max_shards.is_none_or(|m| report.shards < m) {
        let known = current.as_ref().map(|(g, _)| *g);
        let Some(g) = newest(opts.store, &mut etag, known)? else {
            if !said_waiting {
                eprintln!(
                    "{name}: waiting for the trainer's first network in {}",
                    opts.store.url()
                );
                said_waiting = true;
            }
            nap(opts.poll, opts.stop);
            continue;
        };
        if known != Some(g) {
            let manifest = read_manifest(opts.store, g)?;
            let path = download_network(opts.store, &manifest, &opts.work.join("net"))?;
            let (net, _) = load_network(game, &cfg.model, Some(&path), 0)?;
            eprintln!("{name}: playing with {} (checksum verified)", gen_name(g));
            current = Some((g, NetworkEvaluator::new(net)));
            report.generations.push(g);
        }
        let Some((g, evaluator)) = current.as_mut() else {
            continue;
        };
        let out = opts.work.join(format!("shard-{seq:06}"));
        let _ = std::fs::remove_dir_all(&out);
        let job = Job {
            out: out.clone(),
            games: opts.games_per_shard,
            first_game_id: first_game_id(
                opts.worker,
                &opts.incarnation,
                seq * opts.games_per_shard,
            ),
            seed: first_game_id(opts.worker, &opts.incarnation, seq) ^ 0x5eed,
            shard_games: opts.games_per_shard,
            model_id: gen_name(*g),
        };
        let t = Instant::now();
        let played = play_to_shards(
            game,
            &cfg.selfplay,
            evaluator,
            &job,
            &players::new_quiescence_hint,
            opts.stop,
            &ProgressBar::hidden(),
        )?;
        report.play_seconds += t.elapsed().as_secs_f64();
        let t = Instant::now();
        upload(opts, *g, &mut seq, &played, &mut report, &name)?;
        report.games += played.totals.games;
        report.upload_seconds += t.elapsed().as_secs_f64();
        let _ = std::fs::remove_dir_all(&out);
        if played.interrupted {
            report.interrupted = true;
            break;
        }
    }
    report.interrupted |= opts.stop.load(Ordering::SeqCst);
    report.seconds = started.elapsed().as_secs_f64();
    Ok(report)
}

/// Uploads the shards of one job under this worker's keys, counting them
/// in `report` and `seq`.
fn upload(
    opts: &WorkerOptions,
    g: u32,
    seq: &mut u64,
    played: &Report,
    report: &mut WorkerReport,
    name: &str,
) -> Result<(), Error> {
    for shard in &played.shards {
        let bytes = std::fs::read(&shard.path).map_err(Error::io(&shard.path))?;
        let key = layout::worker_shard(g, opts.worker, &opts.incarnation, *seq);
        let size = bytes.len() as u64;
        // Only this incarnation writes this key: "already exists" is
        // our own earlier put whose answer was lost, so it is success.
        patiently(opts.store, "uploading a shard", |s| {
            s.put_new(&key, bytes.clone())
        })?;
        eprintln!(
            "{name}: uploaded {key} ({} games, {} rows, {size} bytes; {})",
            played.totals.games,
            shard.rows,
            played.diagnostics().line()
        );
        report.shards += 1;
        report.rows += shard.rows;
        report.bytes += size;
        *seq += 1;
    }
    Ok(())
}
