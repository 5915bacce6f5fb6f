//! The `[eval]` section of a run file: how networks are measured in the
//! loop (and the defaults of `triad eval`).

use serde::{Deserialize, Serialize};

/// `[eval]`: matches played after each generation.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct EvalConfig {
    /// Games per pairing (rounded up to whole colour-swapped pairs).
    pub games: usize,
    /// Games against earlier generations (the previous one evaluated and,
    /// with gating, the best); 0 plays `games`. A game between two networks
    /// costs two searches a move and, between near equals, runs long: in
    /// the quickstart the pairing took 60% of a generation's match time.
    /// The ladder places each generation too; this head-to-head sharpens
    /// the step between neighbours.
    pub previous_games: usize,
    /// Search simulations of network players.
    pub simulations: u32,
    /// Fixed opponents every generation meets (`random`, `ab:...`).
    pub ladder: Vec<String>,
    /// Games played at once.
    pub threads: usize,
    /// Plies after which a match game is scored a draw.
    pub max_plies: usize,
    /// Openings: this many random plies from the start.
    pub random_plies: u32,
    /// The folder of the game's benchmark suite (`game::Game::read_suite`;
    /// Connect Four: Pons's files, `benchmarks/connect4`),
    /// relative to the working directory; each generation's network is
    /// scored on it. Empty: no suite.
    pub suite: String,
    /// Positions per suite file each generation (every k-th line); 0 for
    /// every position.
    pub suite_sample: usize,
    /// Positions per suite file for the run's last generation; 0 for
    /// every position (the whole files, the figure to quote).
    pub suite_final_sample: usize,
    /// Simulations of the network's search on the suite (AlphaZero.jl's
    /// Connect Four benchmark: 600, temperature 0, no noise).
    pub suite_simulations: u32,
    /// Skip a ladder rung once it is decided: when the networks of the last
    /// `skip_decided` generations that played it all won every game (or all
    /// lost every game) against it. 0 plays every rung every generation.
    pub skip_decided: u32,
    /// A skipped rung is played again in every this-many-th evaluated
    /// generation (generations `k · every · replay_decided_every`), so that
    /// a regression shows.
    pub replay_decided_every: u32,
    /// Matches and the suite in every generation that is a multiple of
    /// this (and in generation 0 and the run's last); 1 evaluates every
    /// generation. Gating needs 1.
    pub every: u32,
}

impl Default for EvalConfig {
    fn default() -> Self {
        EvalConfig {
            games: 20,
            previous_games: 0,
            simulations: 32,
            ladder: vec!["random".into(), "ab:depth=1".into(), "ab:depth=2".into()],
            threads: 2,
            max_plies: 200,
            random_plies: 4,
            suite: String::new(),
            suite_sample: 100,
            suite_final_sample: 0,
            suite_simulations: 600,
            skip_decided: 0,
            replay_decided_every: 5,
            every: 1,
        }
    }
}

impl EvalConfig {
    /// Colour-swapped pairs per pairing: against earlier generations, and
    /// against everyone else.
    pub fn pairs(&self) -> (usize, usize) {
        let pairs = self.games.div_ceil(2).max(1);
        let previous = match self.previous_games {
            0 => pairs,
            n => n.div_ceil(2),
        };
        (previous, pairs)
    }

    /// Checks values; the error names the key.
    pub fn validate(&self) -> Result<(), crate::EvalError> {
        if self.games == 0 {
            return Err(runfile::ConfigError::invalid("eval.games", "must be at least 1").into());
        }
        if self.simulations == 0 {
            return Err(
                runfile::ConfigError::invalid("eval.simulations", "must be at least 1").into(),
            );
        }
        if self.threads == 0 {
            return Err(runfile::ConfigError::invalid("eval.threads", "must be at least 1").into());
        }
        if self.max_plies == 0 {
            return Err(
                runfile::ConfigError::invalid("eval.max_plies", "must be at least 1").into(),
            );
        }
        if self.suite_simulations == 0 {
            return Err(runfile::ConfigError::invalid(
                "eval.suite_simulations",
                "must be at least 1",
            )
            .into());
        }
        if self.threads > 1024 {
            return Err(runfile::ConfigError::invalid("eval.threads", "at most 1024").into());
        }
        if self.every == 0 {
            return Err(runfile::ConfigError::invalid("eval.every", "must be at least 1").into());
        }
        if self.replay_decided_every == 0 {
            return Err(runfile::ConfigError::invalid(
                "eval.replay_decided_every",
                "must be at least 1",
            )
            .into());
        }
        let most = crate::arena::openings::MAX_RANDOM_PLIES;
        if self.random_plies > most {
            return Err(runfile::ConfigError::invalid(
                "eval.random_plies",
                format!("at most {most}"),
            )
            .into());
        }
        for p in &self.ladder {
            p.parse::<crate::arena::players::PlayerSpec>()
                .map_err(|e| runfile::ConfigError::invalid("eval.ladder", e.to_string()))?;
        }
        Ok(())
    }
}
