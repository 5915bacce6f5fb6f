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
//!
//! This file holds [`Loop`] and its driver ([`Loop::run`]); the stages are
//! one a file (`selfplay`, `train`, `eval`, `suite`), beside the `[loop]`
//! section (`config`), `state.json` (`state`), `timings.csv` (`timings`),
//! `diagnostics.csv` (`diagnostics`) and the names of a run's files (`paths`).

pub mod diagnostics;
mod eval;
mod paths;
mod selfplay;
mod state;
mod suite;
mod timings;
mod train;

pub use crate::loop_config::LoopConfig;
pub use paths::{gen_name, match_game_id, network_path, selfplay_game_id};
use state::read_json;
pub use state::{Stage, State, Summary};
pub use timings::Timings;

use crate::config::RunConfig;
use crate::layout;
use crate::lock::RunLock;
use crate::ratings::{self, Matches};
use crate::Error;
use ::eval::arena::players::PlayerSpec;
use game::{AlphaBetaState, Game, SuiteFile};
use indicatif::{ProgressBar, ProgressStyle};
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

pub use crate::files::write_atomic;

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

/// A progress bar of `len` steps drawn with indicatif's `template` (the
/// default bar if the template does not parse): the one way the loop and
/// the commands make theirs.
pub fn bar_with(len: u64, template: &str) -> ProgressBar {
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
    /// The figures of the stage that just ran, for `diagnostics.csv`.
    figures: std::cell::Cell<Option<diagnostics::Figures>>,
    /// The `[loop] mix` variants of the game, in the file's order.
    mix: Vec<G>,
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
        let ladder = crate::matches::ladder(cfg)?;
        let suite = match cfg.eval.suite.as_str() {
            "" => Vec::new(),
            dir => game
                .read_suite(Path::new(dir))
                .map_err(|source| Error::Suite { source })?,
        };
        if cfg.train.schedule == ::train::Schedule::Cosine && cfg.train.schedule_steps == 0 {
            eprintln!(
                "warning: train.schedule = \"cosine\" without train.schedule_steps: the loop's training run grows each generation, so the cosine would end at every generation's last step; set train.schedule_steps to the loop's planned steps (generations x train_steps_per_generation) or use schedule = \"constant\""
            );
        }
        let mut mix = Vec::with_capacity(cfg.r#loop.mix.len());
        for variant in &cfg.r#loop.mix {
            let text = format!("{}/{variant}", G::NAME);
            let any = registry::from_flag(&text).map_err(|source| Error::Mix { source })?;
            let Some(other) = any.as_game::<G>() else {
                return Err(Error::MixNotVariant { game: text });
            };
            if other.variant() == game.variant() {
                return Err(Error::MixOwnVariant {
                    variant: variant.clone(),
                });
            }
            mix.push(other.clone());
        }
        let lock = RunLock::acquire(run, "triad loop")?;
        // A loop killed mid-write leaves its temporary (uniquely named, so
        // never overwritten): the lock is ours, so every one is dead.
        fsio::remove_temporaries(run);
        for d in [layout::NETWORKS_DIR, layout::GAMES_DIR, layout::EVAL_DIR] {
            std::fs::create_dir_all(run.join(d)).map_err(Error::cannot_create(&run.join(d)))?;
            fsio::remove_temporaries(&run.join(d));
        }
        let config_copy = run.join("config.toml");
        match std::fs::read_to_string(&config_copy) {
            Ok(old) if old != text => {
                if !only_length_differs(&old, cfg) {
                    return Err(Error::OtherConfig {
                        run: run.to_path_buf(),
                    });
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
            figures: std::cell::Cell::new(None),
            mix,
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
        let matches_path = self.run.join(layout::MATCHES_FILE);
        let mut state = State::read(&self.run)?;
        let mut matches: Matches = read_json(&matches_path)?.unwrap_or_default();
        let generations = self.cfg.r#loop.generations;
        let mut timings = Timings::read(&self.run)?;
        let mut diagnostics = diagnostics::StageDiagnostics::read(&self.run)?;
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
                Stage::Selfplay => self.selfplay(g, state.best, timings.total())?,
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
            if let Some(figures) = self.figures.take() {
                diagnostics.record(g, stage, figures);
                diagnostics.write(&self.run)?;
            }
            if stage == Stage::Train && !self.out_of_time.get() && self.budget_spent(&timings) {
                eprintln!(
                    "the budget of {} minutes is spent: generation {} is the run's last",
                    self.cfg.r#loop.minutes, state.generation
                );
                let steps = self.train_steps_through(state.generation)?;
                if let Some(note) = unfinished_schedule(&self.cfg.train, steps) {
                    eprintln!("{note}");
                }
                self.out_of_time.set(true);
            }
            state.write(&self.run)?;
            if self.stop.load(std::sync::atomic::Ordering::SeqCst) && state.stage != Stage::Done {
                return Err(Error::Interrupted {
                    generation: state.generation,
                    stage: format!("{:?}", state.stage),
                });
            }
        }
        eprintln!("{}", timings.shares());
        Ok(Summary { state, matches })
    }
}

/// The warning for a run whose `[loop] minutes` ran out before its cosine
/// reached the floor at `train.schedule_steps`: on a slower machine than
/// the one a preset was written on, the budget buys fewer steps, and the
/// last network is then trained at a rate well above the floor. `None`
/// when the schedule is not a cosine over `schedule_steps` or the run's
/// `steps` reached them.
fn unfinished_schedule(train: &::train::TrainConfig, steps: u64) -> Option<String> {
    if train.schedule != ::train::Schedule::Cosine
        || train.schedule_steps == 0
        || steps >= train.schedule_steps
    {
        return None;
    }
    let lr = train.lr_at(steps.saturating_sub(1));
    let floor = train.lr * train.min_lr_factor;
    Some(format!(
        "warning: the budget ended at training step {steps} of train.schedule_steps = {}: the last network was trained at a learning rate of {lr:.2e}, {:.1} times the floor of {floor:.2e}; to end this budget at the floor on this machine, set train.schedule_steps to about {steps} (docs/loop.md, \"A wall-clock budget\")",
        train.schedule_steps,
        lr / floor.max(f64::MIN_POSITIVE),
    ))
}

#[cfg(test)]
mod schedule_tests {
    use super::unfinished_schedule;

    fn cosine(schedule_steps: u64) -> ::train::TrainConfig {
        ::train::TrainConfig {
            schedule: ::train::Schedule::Cosine,
            lr: 0.002,
            min_lr_factor: 0.05,
            warmup_steps: 50,
            schedule_steps,
            ..Default::default()
        }
    }

    #[test]
    fn a_budget_that_ends_before_the_cosine_is_named_with_its_rate() {
        let note = unfinished_schedule(&cosine(25_000), 12_500).expect("a warning");
        assert!(
            note.contains("step 12500 of train.schedule_steps = 25000"),
            "{note}"
        );
        // Half-way along the cosine the rate is about half-way between lr and the floor.
        let lr = cosine(25_000).lr_at(12_499);
        assert!((lr - 0.00105).abs() < 0.00002, "{lr}");
        assert!(note.contains(&format!("{lr:.2e}")), "{note}");
        assert!(note.contains("10.5 times the floor of 1.00e-4"), "{note}");
        assert!(note.contains("schedule_steps to about 12500"), "{note}");
    }

    #[test]
    fn no_warning_when_the_floor_was_reached_or_there_is_no_cosine_over_the_loop() {
        assert_eq!(unfinished_schedule(&cosine(25_000), 25_000), None);
        assert_eq!(unfinished_schedule(&cosine(25_000), 41_419), None);
        assert_eq!(unfinished_schedule(&cosine(0), 100), None);
        let constant = ::train::TrainConfig {
            schedule: ::train::Schedule::Constant,
            schedule_steps: 0,
            ..cosine(0)
        };
        assert_eq!(unfinished_schedule(&constant, 100), None);
    }
}
