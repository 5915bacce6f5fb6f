//! The `[train]` section of a run's TOML file.

use serde::{Deserialize, Serialize};
use std::path::Path;

/// Which optimiser updates the weights.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum OptimizerKind {
    /// SGD with (optionally Nesterov) momentum, L2 weight decay added to the
    /// gradient: the AlphaZero recipe, robust for long runs.
    Sgd,
    /// Adam with decoupled weight decay: faster to converge on small runs.
    Adamw,
}

/// How the learning rate moves after the warm-up.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Schedule {
    /// `lr` throughout.
    Constant,
    /// Half a cosine from `lr` down to `lr * min_lr_factor` at `steps`.
    Cosine,
    /// `lr` multiplied by `step_gamma` every `step_every` steps.
    Step,
}

/// Settings of the trainer. Every field has a default (the quickstart's),
/// so an empty `[train]` section (or none) is a valid run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct TrainConfig {
    /// Positions per optimiser step (default 256).
    pub batch_size: usize,
    /// Optimiser steps of the run (default 1000); `triad train --steps`
    /// replaces it.
    pub steps: u64,
    /// "sgd" or "adamw" (default "adamw").
    pub optimizer: OptimizerKind,
    /// Peak learning rate (default 0.001).
    pub lr: f64,
    /// "constant", "cosine" or "step" (default "cosine").
    pub schedule: Schedule,
    /// Steps of linear warm-up from 0 to `lr` (default 100).
    pub warmup_steps: u64,
    /// Cosine: the final learning rate as a fraction of `lr` (default 0.05).
    pub min_lr_factor: f64,
    /// Cosine: the steps the half cosine spans, after which the rate stays
    /// at its floor (default 0: the run's `steps`). `triad loop` trains
    /// one run that grows by a slice each generation, so its `steps` is
    /// only the total so far; set this to the loop's planned total
    /// (`generations × train_steps_per_generation`) for one decay over the
    /// whole loop.
    #[serde(skip_serializing_if = "is_zero_u64")]
    pub schedule_steps: u64,
    /// Step schedule: steps between decays (default 1000).
    pub step_every: u64,
    /// Step schedule: factor applied at each decay (default 0.1).
    pub step_gamma: f64,
    /// SGD momentum (default 0.9).
    pub momentum: f64,
    /// SGD: use Nesterov momentum (default true).
    pub nesterov: bool,
    /// AdamW first and second moment decay rates (default [0.9, 0.999]).
    pub betas: [f64; 2],
    /// AdamW denominator epsilon (default 1e-8).
    pub eps: f64,
    /// Weight decay, applied to weight matrices and convolution kernels only:
    /// decaying biases and batch-norm scales only hurts (default 1e-4).
    pub weight_decay: f64,
    /// Clip the global gradient norm to this value; 0 disables (default 5.0).
    pub grad_clip: f64,
    /// Policy-loss weight of positions that got only a cheap search
    /// (playout-cap randomisation): their visit counts are a poor target.
    /// Their value loss keeps full weight: the game result is as good a
    /// target for them as for any position (default 0.0).
    pub cheap_search_weight: f64,
    /// Weight of the value loss against the policy loss (default 1.0).
    pub value_loss_weight: f64,
    /// Share of the value target taken from the search's root W/D/L instead
    /// of the game result: `(1-q)·result + q·search` (default 0.0). Early in
    /// a run most games are decided by blunders far from the position, so
    /// the result alone is a noisy label; the search value is a denser one
    /// (and exact near mates). Rows without a stored root W/D/L keep the
    /// result.
    pub value_q_weight: f64,
    /// Share of the value target taken from the game's static evaluation of
    /// the position (the `ab:` players' evaluation, as a win probability
    /// `1 / (1 + exp(-eval / value_eval_scale))`, draw 0):
    /// `(1-q-e)·result + q·search + e·evaluation` (default 0.0). A dense
    /// prior for games whose first generations carry little result signal
    /// (Pirate Chess: material decides who can still win); it biases the
    /// value head toward the baseline's idea of the position, so keep it
    /// small or off where results come on their own.
    pub value_eval_weight: f64,
    /// Evaluation (in the game's centipawns) at which `value_eval_weight`'s
    /// win probability is 1/(1+e^-1) ≈ 0.73 (default 400).
    pub value_eval_scale: f64,
    /// Rows whose search proved the position (`[selfplay] solver`: an
    /// exactly one-hot root W/D/L, which a visit average never is) take the
    /// proof as their whole value target, instead of blending it with the
    /// result and the evaluation (default true; only solver rows are
    /// affected).
    pub proven_value_targets: bool,
    /// Weight of the reply-policy loss, for a network with auxiliary heads
    /// (`[model] aux_heads`; ignored without): cross-entropy of the
    /// network's guess at the opponent's search policy after the move
    /// (KataGo weighs it 0.15; default 0.15).
    pub reply_policy_weight: f64,
    /// Weight of the future-evaluation loss, for a network with auxiliary
    /// heads: cross-entropy of its guess at the game's static evaluation
    /// `future_eval_plies` plies ahead, as a win probability
    /// (`value_eval_scale`) (default 0.5).
    pub future_eval_weight: f64,
    /// How many plies ahead the future-evaluation target looks (default 4:
    /// past the exchange a move starts).
    pub future_eval_plies: usize,
    /// Replay window: the newest positions trained on (default 200000);
    /// with `window_min`, the most the growing window reaches.
    pub window: usize,
    /// A window that grows with the data (KataGo's shuffler): 0 keeps
    /// `window` fixed (the default). Above 0, a run that has written `n`
    /// positions trains on the newest `min(n, w(n))`, where
    /// `w(n) = m + g·(n^a − m^a) / (a·m^(a−1))` for `n > m` (`m` this key,
    /// `g` `window_growth`, `a` `window_exponent`), at most `window`: the
    /// window starts at `m` and grows by `g` positions for each new one,
    /// less and less as the run goes on. Early data, played by weak
    /// networks, leaves the window sooner; late data stays longer.
    #[serde(skip_serializing_if = "is_zero_usize")]
    pub window_min: usize,
    /// The growing window's first growth: positions added to the window for
    /// each new one just past `window_min` (default 0.4, KataGo's).
    #[serde(skip_serializing_if = "is_default_growth")]
    pub window_growth: f64,
    /// The growing window's power: 1 grows it linearly, less tapers the
    /// growth (default 0.65, KataGo's).
    #[serde(skip_serializing_if = "is_default_exponent")]
    pub window_exponent: f64,
    /// Train on file-mirrored (a↔f) copies of half the samples, when the
    /// variant's rules are mirror symmetric (default true).
    pub mirror: bool,
    /// Write a checkpoint (weights, optimiser state) every N steps and at the
    /// end (default 500).
    pub checkpoint_every: u64,
    /// Append a row to metrics.csv every N steps (default 10).
    pub metrics_every: u64,
    /// Seed of the batch order and mirror choices, and of a fresh network's
    /// weights (default 1).
    pub seed: u64,
    /// libtorch intra-op CPU threads; 0 leaves libtorch's default (default 0).
    pub threads: usize,
    /// Batches encoded ahead on the background thread (default 4).
    pub prefetch: usize,
    /// Decay of an exponential moving average of the weights, the network
    /// a checkpoint publishes for play (KataGo and lc0 play an average of
    /// recent weights, not the last step's); 0 turns it off (default 0).
    /// The average weighs step `t` by `min(ema_decay, (1 + t) / (10 + t))`,
    /// so it follows a young run closely; the raw weights go on training
    /// (`step-N.live.safetensors` beside each checkpoint). 0.99 averages
    /// over about the last 100 steps.
    #[serde(skip_serializing_if = "is_zero")]
    pub ema_decay: f64,
}

/// Keeps a key that is off out of the training hash, so runs from before
/// the key existed resume without a warning.
fn is_zero(v: &f64) -> bool {
    *v == 0.0
}

/// [`is_zero`] for a count.
fn is_zero_u64(v: &u64) -> bool {
    *v == 0
}

/// [`is_zero`] for a size.
fn is_zero_usize(v: &usize) -> bool {
    *v == 0
}

const WINDOW_GROWTH: f64 = 0.4;
const WINDOW_EXPONENT: f64 = 0.65;

/// Keeps the growing window's defaults out of the training hash.
fn is_default_growth(v: &f64) -> bool {
    *v == WINDOW_GROWTH
}

/// [`is_default_growth`] for the power.
fn is_default_exponent(v: &f64) -> bool {
    *v == WINDOW_EXPONENT
}

impl Default for TrainConfig {
    fn default() -> Self {
        TrainConfig {
            batch_size: 256,
            steps: 1000,
            optimizer: OptimizerKind::Adamw,
            lr: 1e-3,
            schedule: Schedule::Cosine,
            warmup_steps: 100,
            min_lr_factor: 0.05,
            schedule_steps: 0,
            step_every: 1000,
            step_gamma: 0.1,
            momentum: 0.9,
            nesterov: true,
            betas: [0.9, 0.999],
            eps: 1e-8,
            weight_decay: 1e-4,
            grad_clip: 5.0,
            cheap_search_weight: 0.0,
            value_loss_weight: 1.0,
            value_q_weight: 0.0,
            value_eval_weight: 0.0,
            value_eval_scale: 400.0,
            proven_value_targets: true,
            reply_policy_weight: 0.15,
            future_eval_weight: 0.5,
            future_eval_plies: 4,
            window: 200_000,
            window_min: 0,
            window_growth: WINDOW_GROWTH,
            window_exponent: WINDOW_EXPONENT,
            mirror: true,
            checkpoint_every: 500,
            metrics_every: 10,
            seed: 1,
            threads: 0,
            prefetch: 4,
            ema_decay: 0.0,
        }
    }
}

pub use runfile::ConfigError;

/// The `[model]` and `[train]` sections of the run file at `path` and the
/// text to keep as the run's copy of it; without a file, the defaults and
/// a text that lists them (`triad train` without `--config`). The error is
/// one line naming the file.
pub fn run_configs(
    path: Option<&Path>,
) -> Result<(model::ModelConfig, TrainConfig, String), crate::TrainError> {
    match path {
        Some(path) => {
            let text =
                std::fs::read_to_string(path).map_err(|source| crate::TrainError::ReadConfig {
                    path: path.to_path_buf(),
                    source,
                })?;
            let in_file = |source| crate::TrainError::ConfigFile {
                path: path.to_path_buf(),
                source: Box::new(source),
            };
            let m = model::ModelConfig::from_toml_str(&text).map_err(in_file)?;
            let t = TrainConfig::from_toml_str(&text).map_err(in_file)?;
            Ok((m, t, text))
        }
        None => {
            let (m, t) = (model::ModelConfig::default(), TrainConfig::default());
            let text = format!(
                "# defaults used by triad train (no --config given)\n[model]\n{}\n[train]\n{}",
                toml::to_string(&m).unwrap_or_default(),
                toml::to_string(&t).unwrap_or_default()
            );
            Ok((m, t, text))
        }
    }
}

/// The error of a `[train]` value at fault: `train.KEY`, what it must be.
fn invalid(key: &str, what: &str) -> Result<(), ConfigError> {
    Err(ConfigError::invalid(format!("train.{key}"), what))
}

impl TrainConfig {
    /// Reads the `[train]` section of a run file (defaults when absent); an
    /// unknown key or a bad value is an error naming the key and the file.
    pub fn from_file(path: &Path) -> Result<TrainConfig, ConfigError> {
        runfile::load_section(path, "train", TrainConfig::validate)
    }

    /// Reads the `[train]` section of a run file's text.
    pub fn from_toml_str(text: &str) -> Result<TrainConfig, ConfigError> {
        runfile::parse_section(text, "train", TrainConfig::validate)
    }

    /// Checks the values serde cannot: the sizes and the window, then the
    /// rates and weights, then the schedule and the optimiser's constants,
    /// in that order (the first value at fault is the error).
    pub fn validate(&self) -> Result<(), ConfigError> {
        self.check_sizes()?;
        self.check_rates()?;
        self.check_schedule()
    }

    /// The counts (none 0, none too large) and the growing window's shape.
    fn check_sizes(&self) -> Result<(), ConfigError> {
        for (key, v) in [
            ("batch_size", self.batch_size as u64),
            ("window", self.window as u64),
            ("checkpoint_every", self.checkpoint_every),
            ("metrics_every", self.metrics_every),
            ("step_every", self.step_every),
        ] {
            if v == 0 {
                return invalid(key, "must be at least 1");
            }
        }
        if self.window_min > self.window {
            return invalid(
                "window_min",
                "must be at most window (the growing window's cap); lower it or raise window",
            );
        }
        if self.window_min == 0 {
            for (key, set) in [
                ("window_growth", self.window_growth != WINDOW_GROWTH),
                ("window_exponent", self.window_exponent != WINDOW_EXPONENT),
            ] {
                if set {
                    return invalid(
                        key,
                        "shapes the growing window, which is off: set window_min (e.g. 25000) or remove the key",
                    );
                }
            }
        }
        if !(self.window_growth.is_finite() && (0.0..=1.0).contains(&self.window_growth)) {
            return invalid(
                "window_growth",
                "must be between 0 and 1 (positions added per new position; KataGo: 0.4)",
            );
        }
        if !(self.window_exponent.is_finite()
            && self.window_exponent > 0.0
            && self.window_exponent <= 1.0)
        {
            return invalid(
                "window_exponent",
                "must be in (0, 1] (1: linear growth; KataGo: 0.65)",
            );
        }
        if !(1..=64).contains(&self.future_eval_plies) {
            return invalid("future_eval_plies", "must be 1..=64");
        }
        if self.threads > 1024 {
            return invalid("threads", "at most 1024");
        }
        if self.prefetch > 1024 {
            return invalid("prefetch", "at most 1024 batches");
        }
        if self.batch_size > 1 << 20 {
            return invalid("batch_size", "at most 1048576");
        }
        Ok(())
    }

    /// The learning rate, the loss weights and factors, the EMA decay.
    fn check_rates(&self) -> Result<(), ConfigError> {
        if !(self.lr.is_finite() && self.lr > 0.0) {
            return invalid("lr", "must be a positive number");
        }
        if self.lr > 10.0 {
            // Every optimiser here diverges at once above this; typical
            // rates are 1e-4 to 1e-1.
            return invalid("lr", "at most 10 (typical: 0.0001 to 0.1)");
        }
        if self.eps > 1.0 {
            return invalid("eps", "at most 1 (Adam's epsilon; typical 1e-8)");
        }
        for (key, v) in [
            ("weight_decay", self.weight_decay),
            ("grad_clip", self.grad_clip),
            ("cheap_search_weight", self.cheap_search_weight),
            ("value_loss_weight", self.value_loss_weight),
            ("reply_policy_weight", self.reply_policy_weight),
            ("future_eval_weight", self.future_eval_weight),
            ("eps", self.eps),
        ] {
            if !(v.is_finite() && v >= 0.0) {
                return invalid(key, "must be a number ≥ 0");
            }
        }
        for (key, v) in [
            ("min_lr_factor", self.min_lr_factor),
            ("step_gamma", self.step_gamma),
            ("value_q_weight", self.value_q_weight),
            ("value_eval_weight", self.value_eval_weight),
        ] {
            if !(v.is_finite() && (0.0..=1.0).contains(&v)) {
                return invalid(key, "must be between 0 and 1");
            }
        }
        if self.value_q_weight + self.value_eval_weight > 1.0 {
            return invalid(
                "value_eval_weight",
                "value_q_weight + value_eval_weight must be at most 1",
            );
        }
        if !(self.value_eval_scale.is_finite() && self.value_eval_scale > 0.0) {
            return invalid("value_eval_scale", "must be a number > 0");
        }
        if !(self.ema_decay.is_finite() && (0.0..1.0).contains(&self.ema_decay)) {
            return invalid(
                "ema_decay",
                "must be in [0, 1) (0: off; typical 0.99 to 0.999)",
            );
        }
        Ok(())
    }

    /// The cosine schedule's span, SGD's momentum and AdamW's betas.
    fn check_schedule(&self) -> Result<(), ConfigError> {
        if self.schedule_steps > 0 && self.schedule != Schedule::Cosine {
            return invalid(
                "schedule_steps",
                "is the span of the cosine schedule; set schedule = \"cosine\" or remove the key",
            );
        }
        if self.schedule_steps > 0 && self.schedule_steps <= self.warmup_steps {
            return invalid(
                "schedule_steps",
                "must be more than warmup_steps (the cosine starts after the warm-up)",
            );
        }
        if !(self.momentum.is_finite() && (0.0..1.0).contains(&self.momentum)) {
            return invalid("momentum", "must be in [0, 1)");
        }
        if self
            .betas
            .iter()
            .any(|b| !(b.is_finite() && (0.0..1.0).contains(b)))
        {
            return invalid("betas", "both must be in [0, 1)");
        }
        Ok(())
    }

    /// The learning rate at `step` (0-based: the step about to be taken).
    pub fn lr_at(&self, step: u64) -> f64 {
        if step < self.warmup_steps {
            return self.lr * (step + 1) as f64 / self.warmup_steps as f64;
        }
        match self.schedule {
            Schedule::Constant => self.lr,
            Schedule::Cosine => {
                let total = if self.schedule_steps > 0 {
                    self.schedule_steps
                } else {
                    self.steps
                };
                let span = total.saturating_sub(self.warmup_steps).max(1) as f64;
                let t = ((step - self.warmup_steps) as f64 / span).min(1.0);
                let floor = self.lr * self.min_lr_factor;
                floor + (self.lr - floor) * 0.5 * (1.0 + (std::f64::consts::PI * t).cos())
            }
            Schedule::Step => {
                let k = (step - self.warmup_steps) / self.step_every;
                self.lr * self.step_gamma.powi(k.min(i32::MAX as u64) as i32)
            }
        }
    }

    /// A hash of everything that decides the trained weights given the data
    /// (all keys but `steps`, `threads`, `prefetch`, `checkpoint_every` and
    /// `metrics_every`): a resume under another hash warns, because it does
    /// not continue the same run.
    /// The replay window's size for a run that has written `total`
    /// positions: `window`, or with `window_min` the growing window's
    /// `min(total, w(total))` (see `window_min`), never below one.
    pub fn window_positions(&self, total: u64) -> usize {
        if self.window_min == 0 {
            return self.window;
        }
        let (m, g, a) = (
            self.window_min as f64,
            self.window_growth,
            self.window_exponent,
        );
        let n = total as f64;
        let grown = if n <= m {
            m
        } else {
            m + g * (n.powf(a) - m.powf(a)) / (a * m.powf(a - 1.0))
        };
        // `grown` ≥ m ≥ 1 is finite; the cast saturates.
        (grown as usize)
            .min(self.window)
            .min(total.try_into().unwrap_or(usize::MAX))
            .max(1)
    }

    pub fn training_hash(&self) -> String {
        let mut c = self.clone();
        c.steps = 0;
        c.threads = 0;
        c.prefetch = 0;
        c.checkpoint_every = 1;
        c.metrics_every = 1;
        let json = serde_json::to_string(&c).expect("config serialises");
        format!("{:016x}", fnv1a(json.as_bytes()))
    }
}

/// FNV-1a: a stable hash (std's `DefaultHasher` may change between releases).
pub(crate) fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_gives_defaults_and_other_sections_pass() {
        assert_eq!(
            TrainConfig::from_toml_str("").unwrap(),
            TrainConfig::default()
        );
        let c = TrainConfig::from_toml_str(
            "[model]\nblocks = 2\n[train]\nlr = 0.1\noptimizer = \"sgd\"\nschedule = \"step\"\n",
        )
        .unwrap();
        assert_eq!(c.lr, 0.1);
        assert_eq!(c.optimizer, OptimizerKind::Sgd);
        assert_eq!(c.schedule, Schedule::Step);
    }

    #[test]
    fn bad_keys_and_values_are_named() {
        let e = TrainConfig::from_toml_str("[train]\nlearning_rate = 0.1\n").unwrap_err();
        assert!(e.message().contains("learning_rate"), "{}", e.message());
        let e = TrainConfig::from_toml_str("[train]\noptimizer = \"adam\"\n").unwrap_err();
        assert!(e.message().contains("adam"), "{}", e.message());
        let e = TrainConfig::from_toml_str("[train]\nlr = -1.0\n").unwrap_err();
        assert!(e.message().contains("train.lr"), "{}", e.message());
        let e = TrainConfig::from_toml_str("[train]\nbatch_size = 0\n").unwrap_err();
        assert!(e.message().contains("batch_size"), "{}", e.message());
        let e = TrainConfig::from_toml_str("[train]\nmomentum = 1.5\n").unwrap_err();
        assert!(e.message().contains("momentum"), "{}", e.message());
    }

    #[test]
    fn the_window_is_fixed_unless_window_min_is_set() {
        let c = TrainConfig {
            window: 5000,
            ..Default::default()
        };
        for total in [0, 10, 5000, 1_000_000] {
            assert_eq!(c.window_positions(total), 5000);
        }
        // Off, the growing window's keys stay out of the training hash, so
        // runs from before them resume without a warning.
        let json = serde_json::to_string(&c).unwrap();
        assert!(
            !json.contains("window_min") && !json.contains("window_growth"),
            "{json}"
        );
        assert!(!json.contains("window_exponent"), "{json}");
    }

    #[test]
    fn the_growing_window_starts_at_window_min_and_tapers() {
        let c = TrainConfig::from_toml_str(
            "[train]\nwindow = 10000000\nwindow_min = 250000\nwindow_growth = 0.4\nwindow_exponent = 0.65\n",
        )
        .unwrap();
        // Fewer positions than window_min: all of them.
        assert_eq!(c.window_positions(1000), 1000);
        assert_eq!(c.window_positions(250_000), 250_000);
        // Just past window_min it grows by window_growth a position.
        let d = c.window_positions(260_000) as f64 - 250_000.0;
        assert!(
            (d - 4000.0).abs() < 50.0,
            "grew by {d} over 10,000 positions"
        );
        // Later the growth per position falls (concave), and never stops.
        let w = |n: u64| c.window_positions(n) as f64;
        let (early, late) = (w(1_000_000) - w(900_000), w(10_000_000) - w(9_900_000));
        assert!(late < early && late > 0.0, "early {early}, late {late}");
        let mut last = 0;
        for n in (0..40).map(|k| 100_000 * k as u64) {
            let v = c.window_positions(n);
            assert!(v >= last, "shrank at {n}: {v} < {last}");
            last = v;
        }
        // At most `window`.
        let capped = TrainConfig {
            window: 300_000,
            ..c.clone()
        };
        assert_eq!(capped.window_positions(50_000_000), 300_000);
        // A power of 1 is a straight line: m + g·(n − m).
        let linear = TrainConfig {
            window_exponent: 1.0,
            ..c.clone()
        };
        assert_eq!(linear.window_positions(1_250_000), 650_000);
        // Set, the keys are part of the training hash.
        assert_ne!(c.training_hash(), TrainConfig::default().training_hash());
        assert_ne!(
            c.training_hash(),
            TrainConfig {
                window_growth: 0.5,
                ..c.clone()
            }
            .training_hash()
        );
    }

    #[test]
    fn bad_growing_windows_are_named() {
        for (text, key) in [
            ("window = 1000\nwindow_min = 2000", "train.window_min"),
            (
                "window_min = 10\nwindow_growth = 1.5",
                "train.window_growth",
            ),
            (
                "window_min = 10\nwindow_growth = -0.1",
                "train.window_growth",
            ),
            (
                "window_min = 10\nwindow_exponent = 0.0",
                "train.window_exponent",
            ),
            (
                "window_min = 10\nwindow_exponent = 2.0",
                "train.window_exponent",
            ),
            // Without window_min the window is fixed: shaping it is a mistake.
            ("window_growth = 0.3", "train.window_growth"),
            ("window_exponent = 0.7", "train.window_exponent"),
        ] {
            let e = TrainConfig::from_toml_str(&format!("[train]\n{text}\n")).unwrap_err();
            assert!(e.message().contains(key), "{text}: {}", e.message());
        }
    }

    #[test]
    fn schedules() {
        let mut c = TrainConfig {
            lr: 1.0,
            warmup_steps: 10,
            steps: 110,
            min_lr_factor: 0.0,
            ..Default::default()
        };
        assert!((c.lr_at(0) - 0.1).abs() < 1e-12);
        assert!((c.lr_at(9) - 1.0).abs() < 1e-12);
        assert!((c.lr_at(10) - 1.0).abs() < 1e-12);
        assert!((c.lr_at(60) - 0.5).abs() < 1e-9);
        assert!(c.lr_at(110).abs() < 1e-12);
        // A span of its own: the run's `steps` no longer matters, and past
        // the span the rate stays at the floor.
        c.schedule_steps = 210;
        assert!((c.lr_at(110) - 0.5).abs() < 1e-9);
        c.steps = 60;
        assert!((c.lr_at(110) - 0.5).abs() < 1e-9);
        assert!(c.lr_at(210).abs() < 1e-12);
        assert!(c.lr_at(5000).abs() < 1e-12);
        c.schedule_steps = 0;
        c.steps = 110;
        c.schedule = Schedule::Step;
        c.step_every = 20;
        c.step_gamma = 0.5;
        assert!((c.lr_at(29) - 1.0).abs() < 1e-12);
        assert!((c.lr_at(30) - 0.5).abs() < 1e-12);
        c.schedule = Schedule::Constant;
        assert_eq!(c.lr_at(1000), 1.0);
    }

    #[test]
    fn hash_ignores_step_count_but_not_lr() {
        let a = TrainConfig::default();
        let b = TrainConfig {
            steps: 5,
            ..Default::default()
        };
        let c = TrainConfig {
            lr: 0.5,
            ..Default::default()
        };
        assert_eq!(a.training_hash(), b.training_hash());
        assert_ne!(a.training_hash(), c.training_hash());
        // The cosine's own span decides the weights; left at 0 it stays
        // out of the serialised config (older runs keep their hash).
        let d = TrainConfig {
            schedule_steps: 4800,
            ..Default::default()
        };
        assert_ne!(a.training_hash(), d.training_hash());
        let json = serde_json::to_string(&a).unwrap();
        assert!(!json.contains("schedule_steps"), "{json}");
    }
}
