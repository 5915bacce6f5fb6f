//! `[loop]` of the run file ([`LoopConfig`]) and its validation.

use runfile::ConfigError;
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

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
    /// A checkpoint (`.safetensors` with its sidecar) to start from
    /// (default: none, a random network): generation 0 is this network
    /// instead. It may be of any variant of the run's game (a network of
    /// the 6×5 board starting a 7×6 run): the weights do not depend on the
    /// board's size; it must have the `[model]` shape. Generation 0's
    /// sidecar names it (`parent`) and, for another variant, that variant
    /// (`init_from`). A relative path is from the directory `triad loop`
    /// runs in.
    pub init: Option<PathBuf>,
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
            init: None,
        }
    }
}

impl LoopConfig {
    /// Checks the values serde cannot; the error names the key.
    pub fn validate(&self) -> Result<(), ConfigError> {
        if self.generations == 0 {
            return Err(ConfigError("loop.generations: must be at least 1".into()));
        }
        if self.games_per_generation == 0 {
            return Err(ConfigError(
                "loop.games_per_generation: must be at least 1".into(),
            ));
        }
        if self.train_steps_per_generation == 0 {
            return Err(ConfigError(
                "loop.train_steps_per_generation: must be at least 1".into(),
            ));
        }
        if !(self.train_samples_per_position.is_finite()
            && (0.0..=1000.0).contains(&self.train_samples_per_position))
        {
            return Err(ConfigError(
                "loop.train_samples_per_position: must be within 0..=1000 (0 = off)".into(),
            ));
        }
        if !(self.minutes.is_finite() && self.minutes >= 0.0) {
            return Err(ConfigError(
                "loop.minutes: must be a number of minutes, 0 or more (0 = no budget)".into(),
            ));
        }
        if !(0.0..=1.0).contains(&self.gate_score) {
            return Err(ConfigError("loop.gate_score: must be within 0..=1".into()));
        }
        Ok(())
    }
}
