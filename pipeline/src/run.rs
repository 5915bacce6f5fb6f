//! The loop: generations of self-play, training and evaluation, all kept in
//! one run directory, resumable by running the same command again.
//!
//! Each generation: the current best network plays `games_per_generation`
//! self-play games, the trainer continues its run on the shards of every
//! generation so far (its replay window keeps the newest positions), the new
//! network is copied to `networks/gen-NNNN`, and it plays matches against
//! the previous generation and the fixed ladder of `[eval]` (random and
//! alpha-beta levels). All match results go into one table (`matches.json`)
//! from which the ratings are fitted (`ratings.csv`, see [`crate::ratings`]).
//! With `[eval] suite`, each network is also scored on the game's benchmark
//! positions (`suite.csv`, see [`crate::suite`]).
//! With gating, a new network becomes the self-play network only if it
//! scores `gate_score` against the current one.
//!
//! Every stage runs in this process from the typed config (no child
//! processes: nothing outlives a killed loop). `state.json` records the next
//! stage, so a killed loop resumes at the stage it was in (a half-written
//! self-play generation is played again from scratch, training continues
//! from its last checkpoint).

use crate::config::RunConfig;
use crate::lock::RunLock;
use crate::players;
use crate::ratings::{self, Matches};
use crate::selfplay::{load_pool_evaluators, play_to_shards_pooled, Job};
use crate::Error;
use eval::arena::openings::random_openings;
use eval::arena::players::PlayerSpec;
use eval::arena::record::game_record;
use eval::arena::{self, RunOptions, Schedule, Table};
use game::{AlphaBetaState, Game, GameTag, SuiteFile};
use indicatif::{ProgressBar, ProgressStyle};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

/// `[loop]`: the shape of a run of generations.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct LoopConfig {
    /// Generations after generation 0 (the random network).
    pub generations: u32,
    /// Self-play games per generation.
    pub games_per_generation: u64,
    /// Optimiser steps per generation (the training run is one continuous
    /// run; its total grows by this much each generation).
    pub train_steps_per_generation: u64,
    /// Training samples per new self-play position (default 0: off, a
    /// fixed `train_steps_per_generation`). With `r > 0` each generation
    /// adds `ceil(r · positions / batch_size)` optimiser steps, so the
    /// ratio of training to new data stays at `r` (KataGo keeps it fixed
    /// the same way) whether the generation's games ran long or short.
    pub train_samples_per_position: f64,
    /// A wall-clock budget in minutes (default 0: none). Once the run's
    /// stages (`timings.csv`, so time before a resume counts) have taken
    /// this long, the generation under way is the run's last: it finishes
    /// self-play and training and plays the last generation's full
    /// matches, so the loop ends up to a generation and one evaluation
    /// past the budget. `generations` still caps the run. A run that
    /// stopped on its budget is extended by a larger one.
    pub minutes: f64,
    /// Keep self-playing with the best network so far unless the new one
    /// scores at least `gate_score` against it.
    pub gating: bool,
    pub gate_score: f64,
}

impl Default for LoopConfig {
    fn default() -> Self {
        LoopConfig {
            generations: 4,
            games_per_generation: 128,
            train_steps_per_generation: 200,
            train_samples_per_position: 0.0,
            minutes: 0.0,
            gating: false,
            gate_score: 0.55,
        }
    }
}

impl LoopConfig {
    pub fn validate(&self) -> Result<(), String> {
        if self.generations == 0 {
            return Err("loop.generations: must be at least 1".into());
        }
        if self.games_per_generation == 0 {
            return Err("loop.games_per_generation: must be at least 1".into());
        }
        if self.train_steps_per_generation == 0 {
            return Err("loop.train_steps_per_generation: must be at least 1".into());
        }
        if !(self.train_samples_per_position.is_finite()
            && (0.0..=1000.0).contains(&self.train_samples_per_position))
        {
            return Err(
                "loop.train_samples_per_position: must be within 0..=1000 (0 = off)".into(),
            );
        }
        if !(self.minutes.is_finite() && self.minutes >= 0.0) {
            return Err(
                "loop.minutes: must be a number of minutes, 0 or more (0 = no budget)".into(),
            );
        }
        if !(0.0..=1.0).contains(&self.gate_score) {
            return Err("loop.gate_score: must be within 0..=1".into());
        }
        Ok(())
    }
}

/// Whether evaluated generation `g` plays every rung, decided or not: the
/// first evaluated generation (a multiple of `every`) at or after each
/// multiple of `replay_every`. So a decided rung is skipped for at most
/// `replay_every + every - 1` generations; counting only generations that
/// are multiples of both (as before) let a rung decided early stay skipped
/// for `lcm(every, replay_every)` of them.
fn replays_decided(g: u32, every: u32, replay_every: u32) -> bool {
    let (every, r) = (every.max(1), replay_every.max(1));
    match g.checked_sub(every) {
        None => true,
        Some(prev) => g / r > prev / r,
    }
}

/// The evaluated generation after `g` that plays every rung again.
fn next_replay(g: u32, every: u32, replay_every: u32) -> u32 {
    let (every, r) = (every.max(1), replay_every.max(1));
    ((g / r + 1) * r).next_multiple_of(every)
}

/// Where the loop is: the next stage to run.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct State {
    pub generation: u32,
    pub stage: Stage,
    /// The generation self-play uses.
    pub best: u32,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Stage {
    #[default]
    Init,
    Selfplay,
    Train,
    Eval,
    Done,
}

impl Stage {
    const ALL: [Stage; 5] = [
        Stage::Init,
        Stage::Selfplay,
        Stage::Train,
        Stage::Eval,
        Stage::Done,
    ];

    /// The name in `state.json` and `timings.csv`.
    pub fn name(self) -> &'static str {
        match self {
            Stage::Init => "init",
            Stage::Selfplay => "selfplay",
            Stage::Train => "train",
            Stage::Eval => "eval",
            Stage::Done => "done",
        }
    }
}

/// What a finished (or already complete) loop reports.
#[derive(Clone, Debug)]
pub struct Summary {
    pub state: State,
    pub matches: Matches,
}

pub use crate::layout::gen_name;

/// The game id of generation `g`'s `i`th self-play game: ids are unique
/// within a run (`g · 2³²` + i), so readers that group a run's rows by
/// game id never merge two games.
pub fn selfplay_game_id(g: u32, i: u64) -> u64 {
    ((g as u64) << 32) | i
}

/// The game id of generation `g`'s `i`th match game: `g · 2³² + 2³¹ + i`,
/// apart from every self-play id of the run.
pub fn match_game_id(g: u32, i: u64) -> u64 {
    ((g as u64) << 32) | (1 << 31) | i
}

/// Generation `g`'s openings and gauntlet of `players`: player 0 (its
/// network) against each of the others, `[eval] previous_games` against
/// players `1..=earlier` (earlier generations' networks) and `[eval]
/// games` against the rest (the ladder).
pub(crate) fn match_schedule<G: Game>(
    game: &G,
    cfg: &RunConfig,
    g: u32,
    players: usize,
    earlier: usize,
) -> (Vec<G::State>, Schedule) {
    let (previous, pairs) = cfg.eval.pairs();
    let most = previous.max(pairs);
    let openings = random_openings(game, most, cfg.eval.random_plies, cfg.seed ^ g as u64);
    let schedule = Schedule::gauntlet_capped(players, most, openings.len(), |j| {
        if j <= earlier {
            previous
        } else {
            pairs
        }
    });
    (openings, schedule)
}

/// The path of a generation's network in a run directory.
pub fn network_path(run: &Path, g: u32) -> PathBuf {
    run.join(crate::layout::network(g))
}

/// Writes `text` to `path` atomically ([`fsio::write_atomic`]), as the
/// run's files are written.
pub fn write_atomic(path: &Path, text: &str) -> Result<(), Error> {
    fsio::write_atomic(path, text.as_bytes())
        .map_err(|e| Error::failed(format!("{}: cannot write: {e}", path.display())))
}

fn read_json<T: for<'de> Deserialize<'de>>(path: &Path) -> Result<Option<T>, Error> {
    match std::fs::read_to_string(path) {
        Ok(t) => serde_json::from_str(&t).map(Some).map_err(|e| {
            Error::input(format!(
                "{}: corrupt ({e}); remove it to start that part again",
                path.display()
            ))
        }),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(Error::failed(format!("{}: {e}", path.display()))),
    }
}

/// Whether the run's saved config `old` differs from `cfg` at most in
/// `[loop] generations` and `minutes` (a run may be extended).
fn only_length_differs(old: &str, cfg: &RunConfig) -> bool {
    match RunConfig::parse(old) {
        Ok(mut o) => {
            o.r#loop.generations = cfg.r#loop.generations;
            o.r#loop.minutes = cfg.r#loop.minutes;
            o == *cfg
        }
        Err(_) => false,
    }
}

fn copy_checkpoint(from: &Path, to: &Path) -> Result<(), Error> {
    for (a, b) in [
        (from.to_path_buf(), to.to_path_buf()),
        (
            model::checkpoint::sidecar_path(from),
            model::checkpoint::sidecar_path(to),
        ),
    ] {
        std::fs::read(&a)
            .and_then(|bytes| fsio::write_atomic(&b, &bytes))
            .map_err(|e| {
                Error::failed(format!(
                    "cannot copy {} to {}: {e}",
                    a.display(),
                    b.display()
                ))
            })?;
    }
    Ok(())
}

fn bar_with(len: u64, template: &str) -> ProgressBar {
    let bar = ProgressBar::new(len);
    bar.set_style(
        ProgressStyle::with_template(template).unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar
}

/// A run in its directory: the game, the config and the ladder, read once.
pub struct Loop<'a, G: Game> {
    game: &'a G,
    cfg: &'a RunConfig,
    /// The run file's text (copied into the run as `config.toml`).
    text: &'a str,
    run: PathBuf,
    ladder: Vec<PlayerSpec>,
    /// The benchmark suite of `[eval] suite`, read once at the start.
    suite: Vec<SuiteFile<G::State>>,
    stop: &'a AtomicBool,
    /// The generation the loop stops after is not the run's last: no
    /// work kept for the end (the whole benchmark sample, decided rungs
    /// played again). For runs extended a generation at a time.
    open_ended: bool,
    /// `[loop] minutes` ran out: the generation under way is the last.
    out_of_time: std::cell::Cell<bool>,
    /// Held while the loop runs: a second process on the run is refused.
    _lock: RunLock,
}

impl<'a, G: Game> Loop<'a, G>
where
    G::State: AlphaBetaState,
{
    /// Prepares the run directory `run` for `cfg` (whose text is `text`)
    /// and locks it: a run directory of another config is refused, and so
    /// is one another process is running. A config that differs from the
    /// run's only in `[loop] generations` extends the run.
    pub fn open(
        game: &'a G,
        cfg: &'a RunConfig,
        text: &'a str,
        run: &Path,
        stop: &'a AtomicBool,
    ) -> Result<Loop<'a, G>, Error> {
        let ladder = cfg
            .eval
            .ladder
            .iter()
            .map(|p| {
                p.parse()
                    .map_err(|e| Error::input(format!("eval.ladder: {e}")))
            })
            .collect::<Result<_, _>>()?;
        let suite = match cfg.eval.suite.as_str() {
            "" => Vec::new(),
            dir => game
                .read_suite(Path::new(dir))
                .map_err(|e| Error::input(format!("eval.suite: {e}")))?,
        };
        if cfg.train.schedule == train::Schedule::Cosine && cfg.train.schedule_steps == 0 {
            eprintln!(
                "warning: train.schedule = \"cosine\" without train.schedule_steps: the loop's training run grows each generation, so the cosine would end at every generation's last step; set train.schedule_steps to the loop's planned steps (generations x train_steps_per_generation) or use schedule = \"constant\""
            );
        }
        let lock = RunLock::acquire(run, "triad loop")?;
        // A loop killed mid-write leaves its temporary (uniquely named, so
        // never overwritten): the lock is ours, so every one is dead.
        fsio::remove_temporaries(run);
        for d in ["networks", "games", "eval"] {
            std::fs::create_dir_all(run.join(d)).map_err(|e| {
                Error::input(format!("{}: cannot create: {e}", run.join(d).display()))
            })?;
            fsio::remove_temporaries(&run.join(d));
        }
        let config_copy = run.join("config.toml");
        match std::fs::read_to_string(&config_copy) {
            Ok(old) if old != text => {
                if !only_length_differs(&old, cfg) {
                    return Err(Error::input(format!(
                        "{} holds a run of another config (its config.toml differs in more than [loop] generations and minutes); use the same file or a new run directory",
                        run.display(),
                    )));
                }
                write_atomic(&config_copy, text)?;
            }
            Ok(_) => {}
            Err(_) => write_atomic(&config_copy, text)?,
        }
        Ok(Loop {
            game,
            cfg,
            text,
            run: run.to_path_buf(),
            ladder,
            suite,
            stop,
            open_ended: false,
            out_of_time: std::cell::Cell::new(false),
            _lock: lock,
        })
    }

    /// Stops after `[loop] generations` without treating it as the run's
    /// last generation (see the field); `triad loop --open-ended`.
    pub fn open_ended(mut self, yes: bool) -> Self {
        self.open_ended = yes;
        self
    }

    /// Whether generation `g` is the run's last: the `generations`-th, or
    /// the one trained when the `minutes` budget ran out (never generation
    /// 0, the random network: a run trains at least once).
    fn is_last(&self, g: u32) -> bool {
        !self.open_ended && self.stops_after(g)
    }

    /// Whether the loop stops after generation `g`: it is the
    /// `generations`-th, or the budget ran out (with `--open-ended` too,
    /// which only leaves the last generation's extra work undone).
    fn stops_after(&self, g: u32) -> bool {
        g >= self.cfg.r#loop.generations || (g > 0 && self.out_of_time.get())
    }

    /// Whether the stages so far have used up `[loop] minutes`.
    fn budget_spent(&self, timings: &Timings) -> bool {
        let minutes = self.cfg.r#loop.minutes;
        minutes > 0.0 && timings.total() >= minutes * 60.0
    }

    /// Whether generation `g` plays its matches and suite (`[eval] every`).
    fn evaluates(&self, g: u32) -> bool {
        g == 0 || g.is_multiple_of(self.cfg.eval.every) || self.is_last(g)
    }

    fn net_path(&self, g: u32) -> PathBuf {
        network_path(&self.run, g)
    }

    /// Runs stages until the last generation's evaluation is done (or the
    /// run is already complete), saving the state after each stage.
    pub fn run(&self) -> Result<Summary, Error> {
        let state_path = self.run.join("state.json");
        let matches_path = self.run.join("matches.json");
        let mut state: State = read_json(&state_path)?.unwrap_or_default();
        let mut matches: Matches = read_json(&matches_path)?.unwrap_or_default();
        let generations = self.cfg.r#loop.generations;
        let mut timings = Timings::read(&self.run)?;
        self.out_of_time.set(self.budget_spent(&timings));
        if state.stage == Stage::Done && state.generation < generations && !self.out_of_time.get() {
            eprintln!(
                "extending the run from {} to {generations} generations",
                state.generation
            );
            state.generation += 1;
            state.stage = Stage::Selfplay;
        }
        while state.stage != Stage::Done {
            let g = state.generation;
            let (stage, started) = (state.stage, std::time::Instant::now());
            state.stage = match state.stage {
                Stage::Init => self.init()?,
                Stage::Selfplay => self.selfplay(g, state.best)?,
                Stage::Train => self.train(g)?,
                Stage::Eval => {
                    let next = self.eval(&mut state, &mut matches)?;
                    write_atomic(
                        &matches_path,
                        &serde_json::to_string_pretty(&matches).unwrap_or_default(),
                    )?;
                    ratings::write_ratings(&self.run, &matches, g)?;
                    next
                }
                Stage::Done => Stage::Done,
            };
            timings.record(g, stage, started.elapsed().as_secs_f64());
            timings.write(&self.run)?;
            if stage == Stage::Train && !self.out_of_time.get() && self.budget_spent(&timings) {
                eprintln!(
                    "the budget of {} minutes is spent: generation {} is the run's last",
                    self.cfg.r#loop.minutes, state.generation
                );
                self.out_of_time.set(true);
            }
            write_atomic(
                &state_path,
                &serde_json::to_string_pretty(&state).unwrap_or_default(),
            )?;
            if self.stop.load(std::sync::atomic::Ordering::SeqCst) && state.stage != Stage::Done {
                return Err(Error::failed(format!(
                    "interrupted: the run stopped before generation {}'s {:?} stage; run the same command to resume",
                    state.generation, state.stage
                )));
            }
        }
        eprintln!("{}", timings.shares());
        Ok(Summary { state, matches })
    }

    /// Generation 0: a random network.
    fn init(&self) -> Result<Stage, Error> {
        let net = model::Network::new(&self.cfg.model, self.game.encoding(), self.cfg.seed)
            .map_err(|e| Error::input(e.to_string()))?;
        let info = model::CheckpointInfo::new(&GameTag::of(self.game), net.shape(), 0);
        net.save(&self.net_path(0), &info)
            .map_err(|e| Error::failed(e.to_string()))?;
        eprintln!(
            "generation 0: a random network ({} parameters)",
            net.parameter_count()
        );
        Ok(Stage::Eval)
    }

    /// Self-play of generation `g` with the network of generation `best`.
    fn selfplay(&self, g: u32, best: u32) -> Result<Stage, Error> {
        let dir = self.run.join("games").join(gen_name(g));
        if dir.exists() {
            // An interrupted generation is played again from scratch.
            std::fs::remove_dir_all(&dir)
                .map_err(|e| Error::failed(format!("{}: {e}", dir.display())))?;
        }
        eprintln!("generation {g}: self-play with {}", gen_name(best));
        let seed = self.cfg.seed.wrapping_mul(1000) + g as u64;
        let path = self.net_path(best);
        let (mut evaluators, model_id) = load_pool_evaluators(
            self.game,
            &self.cfg.model,
            Some(&path),
            seed,
            self.cfg.selfplay.pools,
        )?;
        let job = Job {
            out: dir,
            games: self.cfg.r#loop.games_per_generation,
            first_game_id: selfplay_game_id(g, 0),
            seed,
            shard_games: 1000,
            model_id,
        };
        let bar = bar_with(
            job.games,
            "{elapsed_precise} [{bar:30}] {pos}/{len} self-play games  {msg}",
        );
        let report = play_to_shards_pooled(
            self.game,
            &self.cfg.selfplay,
            &mut evaluators,
            &job,
            self.stop,
            &bar,
        )?;
        bar.finish_and_clear();
        if report.interrupted {
            return Err(Error::failed(format!(
                "interrupted during generation {g}'s self-play; run the loop again to resume"
            )));
        }
        eprintln!(
            "  {} games, {} positions in {:.0} s",
            report.totals.games,
            report.rows(),
            report.seconds
        );
        Ok(Stage::Train)
    }

    /// Training up to generation `g`'s step count on every generation's
    /// shards so far, then the new network is published as `gen-g`.
    fn train(&self, g: u32) -> Result<Stage, Error> {
        eprintln!("generation {g}: training");
        let train_dir = self.run.join("train");
        let resume = train::latest_checkpoint(&train_dir).is_some();
        let data: Vec<PathBuf> = (1..=g)
            .map(|k| self.run.join("games").join(gen_name(k)))
            .filter(|d| d.exists())
            .collect();
        let steps = self.train_steps_through(g)?;
        let opts = train::RunOptions {
            run_dir: train_dir.clone(),
            data,
            resume,
            steps: Some(steps),
            init: (!resume).then(|| self.net_path(0)),
            stop_after: None,
            config_text: Some(self.text.to_string()),
        };
        let bar = bar_with(
            steps,
            "{bar:30} {pos}/{len} steps  {msg}  [{elapsed_precise}]",
        );
        let mut shown = 0;
        train::train(
            self.game,
            &self.cfg.model,
            &self.cfg.train,
            &opts,
            &mut |p| {
                if p.last.step != shown {
                    shown = p.last.step;
                    bar.set_message(format!("loss {:.4}", p.last.loss));
                }
                bar.set_position(p.step);
            },
        )
        .map_err(|e| match e {
            train::TrainError::Input(m) => Error::Input(m),
            train::TrainError::Failed(m) => Error::Failed(m),
        })?;
        bar.finish_and_clear();
        let (latest, _) = train::latest_checkpoint(&train_dir).ok_or_else(|| {
            Error::failed(format!(
                "{}: training wrote no checkpoint",
                train_dir.display()
            ))
        })?;
        copy_checkpoint(&latest, &self.net_path(g))?;
        Ok(Stage::Eval)
    }

    /// The training run's total optimiser steps after generation `g`: `g ·
    /// train_steps_per_generation`, or with `train_samples_per_position =
    /// r > 0` the sum over generations 1..=g of `ceil(r · positions_k /
    /// batch_size)`, so each position written is trained on about `r`
    /// times while it is new, however long the games run. The positions
    /// are counted from the shards, so a resumed loop finds the same total.
    fn train_steps_through(&self, g: u32) -> Result<u64, Error> {
        let lc = &self.cfg.r#loop;
        if lc.train_samples_per_position <= 0.0 {
            return Ok(lc.train_steps_per_generation * g as u64);
        }
        let batch = self.cfg.train.batch_size.max(1) as f64;
        let mut steps = 0u64;
        for k in 1..=g {
            let dir = self.run.join("games").join(gen_name(k));
            let mut rows = 0u64;
            if dir.exists() {
                for shard in data::list_shards(&[&dir]).map_err(|e| Error::failed(e.to_string()))? {
                    rows += data::ShardReader::open(&shard.path)
                        .map_err(|e| Error::failed(e.to_string()))?
                        .num_rows();
                }
            }
            steps += (lc.train_samples_per_position * rows as f64 / batch).ceil() as u64;
        }
        Ok(steps.max(1))
    }

    /// The players of generation `g`'s matches and their names: `gen-g`
    /// first, then the previous and the best generation, then the ladder
    /// less the rungs skipped as decided (`[eval] skip_decided`; never in
    /// a replay generation or the run's last).
    fn eval_players(&self, g: u32, best: u32, matches: &Matches) -> (Vec<PlayerSpec>, Vec<String>) {
        let net = |k: u32| {
            PlayerSpec::Net(crate::players::selfplay_net_spec(
                self.net_path(k).display().to_string(),
                self.cfg.eval.simulations,
                &self.cfg.selfplay,
            ))
        };
        let mut players = vec![net(g)];
        let mut names = vec![gen_name(g)];
        if g > 0 {
            // The last generation evaluated before this one.
            // (By the table, not by `every`: a run extended past its old
            // last generation, which `every` would skip, plays that one.)
            let prev = (0..g)
                .rev()
                .find(|&h| matches.players.contains(&gen_name(h)))
                .unwrap_or(0);
            players.push(net(prev));
            names.push(gen_name(prev));
            // With gating the self-play network may be an older one.
            if best != prev && self.cfg.r#loop.gating {
                players.push(net(best));
                names.push(gen_name(best));
            }
        }
        let ec = &self.cfg.eval;
        for (p, n) in self.ladder.iter().zip(&ec.ladder) {
            // Every rung in a replay generation (so a regression shows) and
            // in the run's last one (so its final figures are complete).
            let last = self.is_last(g);
            if !last && !replays_decided(g, ec.every, ec.replay_decided_every) {
                if let Some(score) = ratings::decided(matches, n, g, ec.skip_decided) {
                    let mut next = next_replay(g, ec.every, ec.replay_decided_every);
                    if !self.open_ended {
                        next = next.min(self.cfg.r#loop.generations);
                    }
                    eprintln!(
                        "  {n}: skipped, decided (score {score:.2} in the last {} generations that met it; played again at generation {next})",
                        ec.skip_decided
                    );
                    continue;
                }
            }
            players.push(p.clone());
            names.push(n.clone());
        }
        (players, names)
    }

    /// Generation `g`'s matches: the games go to `eval/gen-g.parquet`, the
    /// records into `matches`, and gating picks the next self-play network.
    fn eval(&self, state: &mut State, matches: &mut Matches) -> Result<Stage, Error> {
        let (cfg, g) = (self.cfg, state.generation);
        if !self.evaluates(g) {
            eprintln!(
                "generation {g}: no matches (eval.every = {})",
                cfg.eval.every
            );
            // Without gating (refused with eval.every > 1) the newest
            // network plays the next self-play.
            state.best = g;
            if self.stops_after(g) {
                return Ok(Stage::Done);
            }
            state.generation = g + 1;
            return Ok(Stage::Selfplay);
        }
        let me = gen_name(g);
        let (players, names) = self.eval_players(g, state.best, matches);
        let earlier = names
            .iter()
            .skip(1)
            .take_while(|n| n.starts_with("gen-"))
            .count();
        let (openings, schedule) = match_schedule(self.game, cfg, g, players.len(), earlier);
        let opts = RunOptions {
            threads: cfg.eval.threads,
            max_plies: cfg.eval.max_plies,
            seed: cfg.seed.wrapping_add(g as u64),
        };
        eprintln!("generation {g}: {} evaluation games", schedule.games.len());
        let bar = bar_with(
            schedule.games.len() as u64,
            "{bar:30} {pos}/{len} evaluation games [{elapsed}]",
        );
        let device = cfg.model.tch_device().map_err(|e| Error::input(e.0))?;
        let factory = players::factory::<G>(device);
        let mut table = Table::new(players.len());
        let games = arena::run(
            self.game,
            &players,
            &schedule,
            &openings,
            &opts,
            factory.as_deref(),
            |gm| {
                table.add(gm);
                bar.inc(1);
                true
            },
        )
        .map_err(Error::failed)?;
        bar.finish_and_clear();
        let shard = self.run.join("eval").join(format!("{me}.parquet"));
        let failed = |e: data::DataError| Error::failed(e.to_string());
        let mut w = data::ShardWriter::create(&shard).map_err(failed)?;
        for (i, gm) in games.iter().enumerate() {
            w.push_game(&game_record(
                self.game,
                gm,
                &players,
                match_game_id(g, i as u64),
            ))
            .map_err(failed)?;
        }
        w.finish().map_err(failed)?;
        // A loop killed after saving matches.json but before saving its
        // state plays this evaluation again on resume (the same games: it
        // is deterministic), and its results are then in the table
        // already: they are not added twice. Nothing else gives `me` a
        // result before its own evaluation (later generations meet it
        // after), so its name in the table means exactly that.
        let recorded = matches.players.contains(&me);
        for (j, opponent) in names.iter().enumerate().skip(1) {
            let r = table.wdl[0][j];
            eprintln!(
                "  {me} vs {opponent}: +{} ={} -{} (score {:.2})",
                r.wins,
                r.draws,
                r.losses,
                r.score()
            );
            if !recorded {
                matches.add(&me, opponent, r);
            }
        }
        self.score_suite(g)?;
        if g > 0 {
            let vs_best = names
                .iter()
                .position(|n| *n == gen_name(state.best))
                .unwrap_or(1);
            let score = table.wdl[0][vs_best].score();
            let lc = &cfg.r#loop;
            if !lc.gating || score >= lc.gate_score {
                state.best = g;
            } else {
                eprintln!(
                    "  gating: {me} scored {score:.2} < {} against {}; self-play keeps {}",
                    lc.gate_score,
                    gen_name(state.best),
                    gen_name(state.best)
                );
            }
        }
        if self.stops_after(g) {
            Ok(Stage::Done)
        } else {
            state.generation = g + 1;
            Ok(Stage::Selfplay)
        }
    }

    /// Generation `g`'s network on the benchmark suite (`[eval] suite`),
    /// recorded in `suite.json` and `suite.csv`; nothing without a suite.
    /// The last generation uses `suite_final_sample` positions a file.
    fn score_suite(&self, g: u32) -> Result<(), Error> {
        if self.suite.is_empty() {
            return Ok(());
        }
        let ec = &self.cfg.eval;
        let n = if self.is_last(g) {
            ec.suite_final_sample
        } else {
            ec.suite_sample
        };
        let sample = (n > 0).then_some(n);
        let spec = PlayerSpec::Net(crate::players::selfplay_net_spec(
            self.net_path(g).display().to_string(),
            ec.suite_simulations,
            &self.cfg.selfplay,
        ));
        let total: usize = self.suite.iter().map(|f| f.sample(sample).len()).sum();
        eprintln!(
            "generation {g}: {total} benchmark positions at {} simulations",
            ec.suite_simulations
        );
        let bar = bar_with(
            total as u64,
            "{bar:30} {pos}/{len} benchmark positions {msg} [{elapsed}, eta {eta}]",
        );
        let device = self.cfg.model.tch_device().map_err(|e| Error::input(e.0))?;
        let factory = players::factory::<G>(device);
        let scores = eval::suite::score_suite(
            self.game,
            &spec,
            factory.as_deref(),
            &self.suite,
            sample,
            ec.threads,
            &|name| {
                bar.set_message(name.to_string());
                bar.inc(1);
            },
        )
        .map_err(Error::failed)?;
        bar.finish_and_clear();
        let line: Vec<String> = scores
            .iter()
            .map(|s| format!("{} {:.1}%", s.stage, 100.0 * s.error_rate()))
            .collect();
        eprintln!("  {} errors: {}", gen_name(g), line.join(", "));
        crate::suite::record(
            &self.run,
            crate::suite::SuiteRecord {
                generation: g,
                player: spec.to_string(),
                files: scores,
            },
        )
    }
}

/// Wall-clock seconds of each stage of each generation, kept in the run's
/// `timings.csv` (`generation,stage,seconds`): where a run's time goes,
/// and the x axis of strength against time. A stage replayed after a kill
/// replaces its row.
#[derive(Default)]
pub struct Timings {
    rows: Vec<(u32, Stage, f64)>,
}

impl Timings {
    const FILE: &'static str = "timings.csv";

    /// The run's timings (none when the file is missing).
    pub fn read(run: &Path) -> Result<Timings, Error> {
        let path = run.join(Self::FILE);
        let text = match std::fs::read_to_string(&path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Timings::default()),
            Err(e) => {
                return Err(Error::failed(format!(
                    "cannot read {}: {e}",
                    path.display()
                )))
            }
        };
        let bad = |line: &str| {
            Error::failed(format!(
                "{}: bad line `{line}`; delete the file to start its timings afresh",
                path.display()
            ))
        };
        let mut rows = Vec::new();
        for line in text.lines().skip(1).filter(|l| !l.trim().is_empty()) {
            let mut f = line.split(',');
            let (Some(g), Some(stage), Some(secs)) = (f.next(), f.next(), f.next()) else {
                return Err(bad(line));
            };
            let stage = Stage::ALL
                .into_iter()
                .find(|s| s.name() == stage)
                .ok_or_else(|| bad(line))?;
            rows.push((
                g.parse().map_err(|_| bad(line))?,
                stage,
                secs.parse().map_err(|_| bad(line))?,
            ));
        }
        Ok(Timings { rows })
    }

    /// Seconds of every recorded stage.
    pub fn total(&self) -> f64 {
        self.rows.iter().map(|r| r.2).sum()
    }

    /// Seconds of the stages of generations up to `g`.
    pub fn through(&self, g: u32) -> f64 {
        self.rows.iter().filter(|r| r.0 <= g).map(|r| r.2).sum()
    }

    fn record(&mut self, g: u32, stage: Stage, secs: f64) {
        self.rows.retain(|&(g0, s0, _)| (g0, s0) != (g, stage));
        self.rows.push((g, stage, secs));
    }

    fn write(&self, run: &Path) -> Result<(), Error> {
        let mut text = String::from("generation,stage,seconds\n");
        for (g, stage, secs) in &self.rows {
            text.push_str(&format!("{g},{},{secs:.3}\n", stage.name()));
        }
        write_atomic(&run.join(Self::FILE), &text)
    }

    /// One line: each stage's share of the run's recorded time.
    fn shares(&self) -> String {
        let total = self.total();
        let parts: Vec<String> = [Stage::Selfplay, Stage::Train, Stage::Eval]
            .iter()
            .map(|&st| {
                let t: f64 = self.rows.iter().filter(|r| r.1 == st).map(|r| r.2).sum();
                format!(
                    "{} {:.0} s ({:.0}%)",
                    st.name(),
                    t,
                    100.0 * t / total.max(1e-9)
                )
            })
            .collect();
        format!("time by stage ({}): {}", Self::FILE, parts.join(", "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// With `every = 2` and `replay_decided_every = 5` decided rungs come
    /// back in generations 6, 10, 16, 20: the first evaluated generation
    /// after each multiple of 5 (before, only 10 and 20); with `every = 1`
    /// in the multiples of 5, as always.
    #[test]
    fn decided_rungs_come_back_after_the_replay_interval() {
        let replays = |every: u32, r: u32| -> Vec<u32> {
            (0..=20)
                .filter(|g| g % every == 0 && replays_decided(*g, every, r))
                .collect()
        };
        assert_eq!(replays(2, 5), [0, 6, 10, 16, 20]);
        assert_eq!(replays(1, 5), [0, 5, 10, 15, 20]);
        assert_eq!(replays(3, 4), [0, 6, 9, 12, 18]);
        assert_eq!(next_replay(2, 2, 5), 6);
        assert_eq!(next_replay(6, 2, 5), 10);
        assert_eq!(next_replay(3, 1, 5), 5);
        // Every replay generation is the next one announced before it.
        for every in 1..4 {
            for r in 1..7 {
                let all = replays(every, r);
                for w in all.windows(2) {
                    for g in (w[0]..w[1]).filter(|g| g % every == 0) {
                        assert_eq!(
                            next_replay(g, every, r),
                            w[1],
                            "every {every}, r {r}, g {g}"
                        );
                    }
                }
            }
        }
    }

    /// A replayed stage replaces its row; the file reads back as written;
    /// a damaged file is an error that says what to do.
    #[test]
    fn timings_replace_replayed_stages_and_read_back() {
        let dir = tempfile::tempdir().unwrap();
        let mut t = Timings::default();
        t.record(0, Stage::Init, 0.5);
        t.record(1, Stage::Selfplay, 10.0);
        t.record(1, Stage::Train, 3.0);
        t.record(1, Stage::Train, 4.0);
        t.record(1, Stage::Eval, 2.0);
        t.write(dir.path()).unwrap();
        let back = Timings::read(dir.path()).unwrap();
        assert_eq!(
            back.rows,
            [
                (0, Stage::Init, 0.5),
                (1, Stage::Selfplay, 10.0),
                (1, Stage::Train, 4.0),
                (1, Stage::Eval, 2.0)
            ]
        );
        assert!(
            back.shares().contains("eval 2 s (12%)"),
            "{}",
            back.shares()
        );
        std::fs::write(
            dir.path().join("timings.csv"),
            "generation,stage,seconds\n1,cook,2\n",
        )
        .unwrap();
        let e = Timings::read(dir.path()).err().unwrap().to_string();
        assert!(e.contains("cook") && e.contains("delete the file"), "{e}");
    }
}
