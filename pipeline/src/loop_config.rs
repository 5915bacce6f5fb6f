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
    /// Other variants of the run's game (`["6x5", "5x4"]` for a 7×6
    /// Connect Four run; default: none) played and trained on beside the
    /// run's own: each generation plays `mix_share` of its self-play games
    /// on them, split evenly, into `games/gen-NNNN/<variant>/`, and trains
    /// one network on every variant's window (`train::train_mixed`). The
    /// network is the run's variant's; matches and the suite play the
    /// run's variant. A variant takes its defaults (the `[game]` section's
    /// other keys are the run's variant's).
    pub mix: Vec<String>,
    /// The share of each generation's self-play games played on the `mix`
    /// variants (default 0.5), within 0..1.
    pub mix_share: f64,
    /// Simulations of self-play's full searches late in the run (default
    /// 0: off, `[selfplay] simulations` throughout). Once the run has spent
    /// `late_from` of its budget (of `minutes` when set, else of
    /// `generations`), each generation's full searches run this many
    /// simulations instead; cheap searches keep `cheap_simulations`.
    /// Deeper searches give sharper policy targets and better-played games
    /// where the network has learned what shallow ones can teach.
    pub late_simulations: u32,
    /// The share of the budget after which `late_simulations` applies
    /// (default 0.5), between 0 and 1.
    pub late_from: f64,
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
            mix: Vec::new(),
            mix_share: 0.5,
            late_simulations: 0,
            late_from: 0.5,
        }
    }
}

impl LoopConfig {
    /// Checks the values serde cannot; the error names the key.
    pub fn validate(&self) -> Result<(), ConfigError> {
        if self.generations == 0 {
            return Err(ConfigError::invalid(
                "loop.generations",
                "must be at least 1",
            ));
        }
        if self.games_per_generation == 0 {
            return Err(ConfigError::invalid(
                "loop.games_per_generation",
                "must be at least 1",
            ));
        }
        if self.train_steps_per_generation == 0 {
            return Err(ConfigError::invalid(
                "loop.train_steps_per_generation",
                "must be at least 1",
            ));
        }
        if !(self.train_samples_per_position.is_finite()
            && (0.0..=1000.0).contains(&self.train_samples_per_position))
        {
            return Err(ConfigError::invalid(
                "loop.train_samples_per_position",
                "must be within 0..=1000 (0 = off)",
            ));
        }
        if !(self.minutes.is_finite() && self.minutes >= 0.0) {
            return Err(ConfigError::invalid(
                "loop.minutes",
                "must be a number of minutes, 0 or more (0 = no budget)",
            ));
        }
        if !(0.0..=1.0).contains(&self.gate_score) {
            return Err(ConfigError::invalid(
                "loop.gate_score",
                "must be within 0..=1",
            ));
        }
        if !(self.mix_share.is_finite() && self.mix_share > 0.0 && self.mix_share < 1.0) {
            return Err(ConfigError::invalid(
                "loop.mix_share",
                "must be between 0 and 1 (the share of self-play games on the mix variants)",
            ));
        }
        if self.late_simulations > 1 << 20 {
            return Err(ConfigError::invalid(
                "loop.late_simulations",
                "at most 1048576 (0 = off)",
            ));
        }
        if !(self.late_from.is_finite() && self.late_from > 0.0 && self.late_from < 1.0) {
            return Err(ConfigError::invalid("loop.late_from", "must be between 0 and 1 (the share of the budget after which late_simulations applies)"));
        }
        for (i, v) in self.mix.iter().enumerate() {
            if v.trim().is_empty() || v.contains('/') {
                return Err(ConfigError::invalid(
                    "loop.mix",
                    format!("{v:?} is not a variant name (write the variant alone, e.g. \"6x5\")"),
                ));
            }
            if self.mix[..i].contains(v) {
                return Err(ConfigError::invalid(
                    "loop.mix",
                    format!("{v:?} is listed twice"),
                ));
            }
        }
        if !self.mix.is_empty() && self.games_per_generation < 2 * self.mix.len() as u64 {
            return Err(ConfigError::invalid(
                "loop.games_per_generation",
                format!(
                    "{} is too few for {} mix variants and the run's own (at least {})",
                    self.games_per_generation,
                    self.mix.len(),
                    2 * self.mix.len()
                ),
            ));
        }
        Ok(())
    }

    /// Whether generation `g`'s self-play runs `late_simulations`, the
    /// stages so far having taken `spent_s` seconds: the budget's
    /// `late_from` is spent (`minutes` when set, else `generations`).
    pub fn late(&self, g: u32, spent_s: f64) -> bool {
        if self.late_simulations == 0 {
            return false;
        }
        if self.minutes > 0.0 {
            spent_s >= self.late_from * self.minutes * 60.0
        } else {
            f64::from(g) > self.late_from * f64::from(self.generations)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::LoopConfig;

    /// `late_simulations` starts at `late_from` of the minutes budget
    /// when there is one, else of the generations; off at 0.
    #[test]
    fn late_simulations_start_at_late_from_of_the_budget() {
        let mut c = LoopConfig {
            generations: 10,
            late_simulations: 96,
            late_from: 0.6,
            ..LoopConfig::default()
        };
        let late: Vec<u32> = (1..=10).filter(|&g| c.late(g, 1e9)).collect();
        assert_eq!(late, vec![7, 8, 9, 10]);
        c.minutes = 100.0;
        assert!(!c.late(10, 3599.0));
        assert!(c.late(1, 3600.0));
        c.late_simulations = 0;
        assert!(!c.late(10, 1e9));
        assert!(!LoopConfig::default().late(u32::MAX, 1e9));
    }
}
