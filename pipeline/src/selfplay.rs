//! Self-play into shards: the driver of `selfplay` run until its games are
//! played, finished games written to Parquet shards as they come. Used by
//! `triad selfplay` and by the loop's self-play stage (in-process).

use crate::Error;
use data::{ShardSummary, ShardWriter};
use game::{AlphaBetaState, Game, GameTag};
use indicatif::ProgressBar;
use model::{ModelConfig, Network};
use selfplay::{Adjudicator, Evaluator, SelfPlay, SelfplayConfig, Totals};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// The network a run uses and the id written on its rows: the checkpoint
/// at `checkpoint` (a network of `game`; another game or variant is
/// refused, naming both) or a fresh one from `model` drawn from `seed`.
pub fn load_network<G: Game>(
    game: &G,
    model: &ModelConfig,
    checkpoint: Option<&Path>,
    seed: u64,
) -> Result<(Network, String), Error> {
    match checkpoint {
        None => {
            let net = Network::new(model, game.encoding(), seed)
                .map_err(|e| Error::input(e.to_string()))?;
            Ok((net, format!("random-seed{seed}")))
        }
        Some(path) => {
            let device = model
                .tch_device()
                .map_err(|e| Error::input(e.to_string()))?;
            if model.threads > 0 {
                tch::set_num_threads(model.threads as i32);
            }
            let (net, info) = Network::load(path, &GameTag::of(game), device)
                .map_err(|e| Error::input(e.to_string()))?;
            let stem = path
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default();
            Ok((net, format!("{stem}@{}", info.step)))
        }
    }
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
}

/// What a self-play job did.
#[derive(Debug, Clone)]
pub struct Report {
    pub totals: Totals,
    pub shards: Vec<ShardSummary>,
    /// Stopped early by `stop`: games in progress were dropped.
    pub interrupted: bool,
    pub seconds: f64,
}

impl Report {
    /// Rows written (searched positions of games dropped by an interrupt
    /// are not written).
    pub fn rows(&self) -> u64 {
        self.shards.iter().map(|s| s.rows).sum()
    }
}

/// The game's static evaluation (the `ab:` players' default weights) as
/// the self-play driver's adjudicator (`[selfplay] adjudicate`).
pub fn static_adjudicator<S: AlphaBetaState>(start: &S) -> Adjudicator<S> {
    let tables = start.eval_tables();
    let params = S::EvalParams::default();
    Arc::new(move |s: &S| s.evaluate(&tables, &params))
}

/// Plays `job` with `config` and `evaluator`, writing shards as games
/// finish. `stop` (Ctrl-C) ends it early: finished games are kept, games
/// in progress dropped. `bar` shows games done.
pub fn play_to_shards<G: Game>(
    game: &G,
    config: &SelfplayConfig,
    evaluator: &mut dyn Evaluator<G::State>,
    job: &Job,
    stop: &AtomicBool,
    bar: &ProgressBar,
) -> Result<Report, Error>
where
    G::State: AlphaBetaState,
{
    if job.games == 0 || job.shard_games == 0 {
        return Err(Error::input("games and games per shard must be at least 1"));
    }
    std::fs::create_dir_all(&job.out)
        .map_err(|e| Error::input(format!("{}: cannot create: {e}", job.out.display())))?;
    if job.shard_path(0).exists() {
        return Err(Error::input(format!(
            "{} exists: choose another output folder or seed",
            job.shard_path(0).display()
        )));
    }
    let mut driver = SelfPlay::new(game, config, job.seed, job.games, &job.model_id)
        .with_first_game_id(job.first_game_id)
        .with_adjudicator(static_adjudicator(&game.start()))
        .with_leaf_hint(|| Box::new(crate::leafhint::QuiescenceHint::<G::State>::new()));
    let started = Instant::now();
    let mut finished = Vec::new();
    let (mut shard_index, mut in_shard) = (0, 0);
    let mut writer: Option<ShardWriter> = None;
    let mut shards = Vec::new();
    let mut interrupted = false;
    let failed = |e: data::DataError| Error::failed(e.to_string());
    while !driver.is_done() {
        if stop.load(Ordering::SeqCst) && !interrupted {
            interrupted = true;
            driver.abandon();
            bar.println("interrupted: keeping finished games, dropping games in progress");
            continue;
        }
        finished.clear();
        driver.round(evaluator, &mut finished);
        for g in &finished {
            let w = match writer.as_mut() {
                Some(w) => w,
                None => {
                    writer.insert(ShardWriter::create(job.shard_path(shard_index)).map_err(failed)?)
                }
            };
            for r in &g.records {
                w.push(r).map_err(failed)?;
            }
            in_shard += 1;
            if in_shard == job.shard_games {
                if let Some(w) = writer.take() {
                    shards.push(w.finish().map_err(failed)?);
                }
                shard_index += 1;
                in_shard = 0;
            }
        }
        bar.set_position(driver.totals.games);
        bar.set_message(progress_message(
            &driver.totals,
            started.elapsed().as_secs_f64(),
        ));
    }
    if let Some(w) = writer.take() {
        shards.push(w.finish().map_err(failed)?);
    }
    Ok(Report {
        totals: driver.totals,
        shards,
        interrupted,
        seconds: started.elapsed().as_secs_f64(),
    })
}

/// The progress bar's message: positions and evaluations per second, the
/// mean batch and the false-resignation rate so far.
pub fn progress_message(t: &Totals, secs: f64) -> String {
    let secs = secs.max(1e-9);
    format!(
        "{:.0} pos/s  {:.0} evals/s  batch {:.1}  false-resign {}",
        t.positions as f64 / secs,
        t.evaluations as f64 / secs,
        t.mean_batch(),
        match t.false_resignation_rate() {
            Some(r) => format!("{:.1}%", r * 100.0),
            None => "-".into(),
        }
    )
}
