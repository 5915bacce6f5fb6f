//! The `[selfplay]` section of a run's TOML file. Every key is documented in
//! `docs/selfplay.md`, which explains what each search trick does and why.

pub use mcts::Algorithm;
use mcts::SearchConfig;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// Self-play settings. All keys have defaults (listed on each field), so an
/// empty `[selfplay]` section is valid.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct SelfplayConfig {
    /// "puct" or "gumbel" (default "puct").
    pub algorithm: Algorithm,
    /// Simulations of a full search (default 400).
    pub simulations: u32,
    /// Simulations of a cheap search (playout-cap randomisation) (default 100).
    pub cheap_simulations: u32,
    /// Share of moves searched cheaply, in [0, 1] (default 0.75; 0 disables).
    pub cheap_share: f64,
    /// PUCT exploration constant (default 1.5).
    pub c_puct: f32,
    /// First-play urgency below the root: an unvisited move's value is the
    /// parent's value minus this times sqrt(prior mass already visited)
    /// (default 0.2).
    pub fpu_reduction: f32,
    /// The same at the root, where noise asks for wider exploration (default 0.0).
    pub root_fpu_reduction: f32,
    /// Dirichlet noise concentration at the root of full PUCT searches (default 0.3).
    pub dirichlet_alpha: f32,
    /// Weight of the noise in the root priors, in [0, 1] (default 0.25; 0 disables).
    pub dirichlet_epsilon: f32,
    /// Move temperature for the first `temperature_plies` plies (default 1.0).
    pub temperature: f32,
    /// Plies played at `temperature` (default 20).
    pub temperature_plies: u32,
    /// Temperature afterwards; 0 plays the most visited move (default 0.0).
    pub final_temperature: f32,
    /// Plies at the start of each game played uniformly at random, without
    /// a search (default 0). Their rows are written with the search
    /// columns null, so they train the value head on the game's result and
    /// the policy head not at all; a move that would end the game is never
    /// drawn. They count towards `temperature_plies`. Widens the positions
    /// self-play sees beyond those two strong players reach (Leela Chess
    /// Zero's opening books and KataGo's random openings do the same).
    pub random_plies: u32,
    /// When above `random_plies`, each game draws its number of random
    /// opening plies uniformly from `random_plies..=random_plies_max`, from
    /// its own stream, so that searched play starts at every ply of that
    /// range (default 0: every game opens with exactly `random_plies`, and
    /// no number is drawn, so a seed plays the games it played before the
    /// key existed).
    pub random_plies_max: u32,
    /// Share of the searched moves before ply `random_move_plies` that are
    /// played uniformly at random instead of by the search, in [0, 1]
    /// (default 0: none). Unlike `random_plies` the position is searched
    /// and its row keeps the search's policy and value targets; only the
    /// move played is the random one, so the game goes on from a position
    /// of uneven play (KataGo's side positions do the same, within one
    /// game). The positions after it, in the middle of the opening, are
    /// the ones two strong players never reach. Draws nothing from the
    /// game's stream when 0, so a run without it plays the games it
    /// always played.
    pub random_move_share: f64,
    /// The ply before which `random_move_share` applies (default 0).
    pub random_move_plies: u32,
    /// Gumbel: actions sampled at the root (top-k, "m" in the paper) (default 16).
    pub gumbel_m: u32,
    /// Gumbel: c_visit of the sigma transform of Q (default 50).
    pub gumbel_c_visit: f32,
    /// Gumbel: c_scale of the sigma transform of Q (default 1.0).
    pub gumbel_c_scale: f32,
    /// Resign when the root value of the side to move stays below this for
    /// `resign_plies` of its moves, in [-1, 0]; -1 never resigns (default -0.9).
    pub resign_threshold: f32,
    /// Consecutive own moves below the threshold before resigning (default 3).
    pub resign_plies: u32,
    /// Share of games that never resign, to measure false positives, in [0, 1] (default 0.1).
    pub no_resign_share: f64,
    /// Plies after which a game stops as a draw ("max-length") (default 400).
    pub max_plies: u32,
    /// Adjudicate games that reach `max_plies` by the game's static
    /// evaluation (the one the `ab:` players use), in its centipawns: a side
    /// ahead by at least this much is scored the winner (termination
    /// `adjudication`) instead of a draw; 0 (the default) keeps the draw.
    /// Self-play only (matches always follow the rules). For games whose
    /// untrained searches never reach a decisive end (Pirate Chess), it
    /// gives the first generations a result to learn from.
    pub adjudicate: u32,
    /// Games searched at once, in two halves that take turns with the
    /// network: a network call holds up to half of them (default 256).
    pub games_in_flight: usize,
    /// Entries of the evaluation cache; 0 disables it (default 65536).
    pub cache_size: usize,
    /// Threads for the tree work of each pool; 0 = the cores the pools'
    /// network threads leave, shared between the pools (at least 1 each)
    /// (default 0).
    pub threads: usize,
    /// Self-play pools: drivers that each run their own copy of the network
    /// on their own thread, the job's games and `games_in_flight` split
    /// between them (default 1). On a CPU one pool keeps one core in the
    /// network and leaves the rest to the tree work, which needs little: on
    /// the 2-core development machine `pools = 2` runs the network on both.
    /// A game's seed and id do not depend on the pools; its moves can, in
    /// the last bit, through the batches its leaves share (docs/selfplay.md,
    /// "Pools").
    pub pools: usize,
    /// Keep the subtree of the played move for the next search (PUCT only) (default true).
    pub tree_reuse: bool,
    /// Look for a mating move whenever a node is expanded (default true). A
    /// node whose side can mate at once is a proven win: it is scored +1
    /// exactly instead of by the network, so the move into it is seen as
    /// losing after one visit, and at the root the mating move is searched
    /// first. Costs one make-move per legal move of each expanded node.
    pub mate_check: bool,
    /// The MCTS-solver (default false): results proven in the tree (by the
    /// rules or the mate check) propagate up: a node with a child lost for
    /// the opponent is a proven win, a node whose children are all proven
    /// takes the best of their values; proven nodes are scored exactly, a
    /// proven win at the root is played at once and a proven loss avoided.
    /// See docs/selfplay.md.
    pub solver: bool,
    /// KataGo's forced playouts and policy-target pruning, `k` (default 0:
    /// off; KataGo uses 2). In full PUCT searches (those with root noise) a
    /// visited root move with fewer than `sqrt(k · P · N)` visits is
    /// searched again before PUCT chooses; afterwards those forced visits
    /// are taken back out of every move but the most visited, as far as
    /// PUCT would not have given them, and moves left with one visit are
    /// dropped: the pruned counts are the row's `policy_target` and the
    /// distribution the move is drawn from. See docs/selfplay.md.
    pub forced_playouts: f32,
    /// Weight of the game's static judgement in every leaf's value, in
    /// [0, 1] (default 0: the network alone). The driver's caller supplies
    /// the judgement ([`mcts::LeafHint`]; the binary uses the `ab:`
    /// engine's quiescence value of the leaf as a win probability). The
    /// leaf's value becomes `(1 - w)·(W - L) + w·(2p - 1)`, as AlphaGo
    /// mixed its value network with rollouts. See docs/selfplay.md.
    pub leaf_eval_weight: f32,
}

impl Default for SelfplayConfig {
    /// The search's keys take [`SearchConfig`]'s defaults.
    fn default() -> Self {
        let s = SearchConfig::default();
        SelfplayConfig {
            algorithm: s.algorithm,
            simulations: 400,
            cheap_simulations: 100,
            cheap_share: 0.75,
            c_puct: s.c_puct,
            fpu_reduction: s.fpu_reduction,
            root_fpu_reduction: s.root_fpu_reduction,
            dirichlet_alpha: s.dirichlet_alpha,
            dirichlet_epsilon: s.dirichlet_epsilon,
            temperature: 1.0,
            temperature_plies: 20,
            final_temperature: 0.0,
            random_plies: 0,
            random_plies_max: 0,
            random_move_share: 0.0,
            random_move_plies: 0,
            gumbel_m: s.gumbel_m,
            gumbel_c_visit: s.gumbel_c_visit,
            gumbel_c_scale: s.gumbel_c_scale,
            resign_threshold: -0.9,
            resign_plies: 3,
            no_resign_share: 0.1,
            max_plies: 400,
            adjudicate: 0,
            games_in_flight: 256,
            cache_size: 65536,
            threads: 0,
            pools: 1,
            tree_reuse: s.tree_reuse,
            mate_check: s.mate_check,
            solver: s.solver,
            forced_playouts: s.forced_playouts,
            leaf_eval_weight: s.leaf_eval_weight,
        }
    }
}

pub use runfile::ConfigError;

impl SelfplayConfig {
    /// The search's part of the section: every constant a game's
    /// [`mcts::Search`] runs with, the leaf hint's weight included.
    pub fn search(&self) -> SearchConfig {
        SearchConfig {
            algorithm: self.algorithm,
            c_puct: self.c_puct,
            fpu_reduction: self.fpu_reduction,
            root_fpu_reduction: self.root_fpu_reduction,
            dirichlet_alpha: self.dirichlet_alpha,
            dirichlet_epsilon: self.dirichlet_epsilon,
            gumbel_m: self.gumbel_m,
            gumbel_c_visit: self.gumbel_c_visit,
            gumbel_c_scale: self.gumbel_c_scale,
            tree_reuse: self.tree_reuse,
            mate_check: self.mate_check,
            solver: self.solver,
            forced_playouts: self.forced_playouts,
            leaf_eval_weight: self.leaf_eval_weight,
            // Self-play's moves follow the visit counts (and its
            // temperature); LCB selection is a match player's option
            // (`net:…,lcb=5`).
            lcb_stdevs: 0.0,
        }
    }

    /// The tree threads `threads` asks for: itself, or for 0 one per core
    /// but one, since the thread that runs the network needs a core of its
    /// own (on a GPU it spins while it waits for the answers).
    pub fn tree_threads(&self) -> usize {
        if self.threads > 0 {
            return self.threads;
        }
        let pools = self.pools.max(1);
        std::thread::available_parallelism()
            .map(|n| (n.get().saturating_sub(pools) / pools).max(1))
            .unwrap_or(1)
    }

    /// Reads the `[selfplay]` section of a run file (defaults when absent); an
    /// unknown key or a bad value is an error naming the key and the file.
    pub fn from_file(path: &Path) -> Result<SelfplayConfig, ConfigError> {
        runfile::load_section(path, "selfplay", SelfplayConfig::validate)
    }

    /// Reads the `[selfplay]` section of a run file's text.
    pub fn from_toml_str(text: &str) -> Result<SelfplayConfig, ConfigError> {
        runfile::parse_section(text, "selfplay", SelfplayConfig::validate)
    }

    /// Checks values serde cannot; the error names the key.
    pub fn validate(&self) -> Result<(), ConfigError> {
        let bad = |key: &str, why: &str| Err(ConfigError::invalid(format!("selfplay.{key}"), why));
        if self.simulations == 0 {
            return bad("simulations", "must be at least 1");
        }
        if self.cheap_simulations == 0 {
            return bad("cheap_simulations", "must be at least 1");
        }
        for (key, v) in [
            ("cheap_share", self.cheap_share),
            ("no_resign_share", self.no_resign_share),
            ("random_move_share", self.random_move_share),
            ("dirichlet_epsilon", self.dirichlet_epsilon as f64),
            ("leaf_eval_weight", self.leaf_eval_weight as f64),
        ] {
            if !(0.0..=1.0).contains(&v) {
                return bad(key, "must be between 0 and 1");
            }
        }
        for (key, v) in [
            ("c_puct", self.c_puct),
            ("fpu_reduction", self.fpu_reduction),
            ("root_fpu_reduction", self.root_fpu_reduction),
            ("temperature", self.temperature),
            ("final_temperature", self.final_temperature),
            ("gumbel_c_scale", self.gumbel_c_scale),
            ("gumbel_c_visit", self.gumbel_c_visit),
            ("forced_playouts", self.forced_playouts),
        ] {
            if !(v.is_finite() && v >= 0.0) {
                return bad(key, "must be a finite number ≥ 0");
            }
        }
        if !(self.dirichlet_alpha.is_finite() && self.dirichlet_alpha > 0.0) {
            return bad("dirichlet_alpha", "must be a finite number > 0");
        }
        if !(-1.0..=0.0).contains(&self.resign_threshold) {
            return bad("resign_threshold", "must be between -1 and 0");
        }
        if self.resign_plies == 0 {
            return bad("resign_plies", "must be at least 1");
        }
        if self.gumbel_m == 0 {
            return bad("gumbel_m", "must be at least 1");
        }
        if self.max_plies == 0 {
            return bad("max_plies", "must be at least 1");
        }
        if self.random_plies >= self.max_plies {
            return bad(
                "random_plies",
                "must be below max_plies (a game needs a searched move)",
            );
        }
        // 0 is off; otherwise the range must hold a searched move.
        if self.random_plies_max != 0 && self.random_plies_max < self.random_plies {
            return bad(
                "random_plies_max",
                "must be 0 (off) or at least random_plies",
            );
        }
        if self.random_plies_max >= self.max_plies {
            return bad(
                "random_plies_max",
                "must be below max_plies (a game needs a searched move)",
            );
        }
        if self.random_move_plies > self.max_plies {
            return bad("random_move_plies", "must be at most max_plies");
        }
        if self.random_move_share > 0.0 && self.random_move_plies <= self.random_plies {
            return bad(
                "random_move_plies",
                "must be above random_plies when random_move_share is set (no searched ply would have a random move)",
            );
        }
        if !(1..=256).contains(&self.pools) {
            return bad("pools", "must be 1..=256 (1: one network thread)");
        }
        if self.games_in_flight < self.pools {
            return bad(
                "games_in_flight",
                "must be at least pools (it is split between them)",
            );
        }
        if !(1..=65_536).contains(&self.games_in_flight) {
            return bad("games_in_flight", "must be 1..=65536");
        }
        // Each entry keeps a policy vector: 2^26 entries is already tens of GB.
        if self.cache_size > 1 << 26 {
            return bad("cache_size", "at most 67108864 entries");
        }
        if self.threads > 1024 {
            return bad("threads", "at most 1024");
        }
        if self.simulations > 1 << 20 || self.cheap_simulations > 1 << 20 {
            return bad("simulations", "at most 1048576");
        }
        Ok(())
    }

    /// Whether resignation is switched on at all.
    pub fn resigns(&self) -> bool {
        self.resign_threshold > -1.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_and_other_sections_pass() {
        let c = SelfplayConfig::from_toml_str("seed = 3\n[model]\nblocks = 2\n").unwrap();
        assert_eq!(c, SelfplayConfig::default());
        let c =
            SelfplayConfig::from_toml_str("[selfplay]\nalgorithm = \"gumbel\"\nsimulations = 8\n")
                .unwrap();
        assert_eq!(c.algorithm, Algorithm::Gumbel);
        assert_eq!(c.simulations, 8);
    }

    #[test]
    fn errors_name_the_key() {
        let e = SelfplayConfig::from_toml_str("[selfplay]\nsimulation = 8\n").unwrap_err();
        assert!(
            e.message().contains("simulation") && e.message().contains("line 2"),
            "{}",
            e.message()
        );
        let e = SelfplayConfig::from_toml_str("[selfplay]\nalgorithm = \"mcts\"\n").unwrap_err();
        assert!(
            e.message().contains("selfplay.algorithm"),
            "{}",
            e.message()
        );
        let e = SelfplayConfig::from_toml_str("[selfplay]\ncheap_share = 2.0\n").unwrap_err();
        assert!(e.message().contains("cheap_share"), "{}", e.message());
        let e = SelfplayConfig::from_toml_str("[selfplay]\ngames_in_flight = 0\n").unwrap_err();
        assert!(e.message().contains("games_in_flight"), "{}", e.message());
        let e = SelfplayConfig::from_toml_str("[selfplay]\nrandom_plies = 8\nmax_plies = 8\n")
            .unwrap_err();
        assert!(
            e.message().contains("selfplay.random_plies"),
            "{}",
            e.message()
        );
        let e = SelfplayConfig::from_toml_str("[selfplay]\nrandom_move_share = 1.5\n").unwrap_err();
        assert!(
            e.message().contains("selfplay.random_move_share"),
            "{}",
            e.message()
        );
        let e = SelfplayConfig::from_toml_str(
            "[selfplay]\nrandom_plies = 4\nrandom_move_share = 0.1\nrandom_move_plies = 4\n",
        )
        .unwrap_err();
        assert!(
            e.message().contains("selfplay.random_move_plies"),
            "{}",
            e.message()
        );
        for bad in [
            "random_plies = 4\nrandom_plies_max = 3\n",
            "random_plies_max = 42\nmax_plies = 42\n",
        ] {
            let e = SelfplayConfig::from_toml_str(&format!("[selfplay]\n{bad}")).unwrap_err();
            assert!(
                e.message().contains("selfplay.random_plies_max"),
                "{bad}: {}",
                e.message()
            );
        }
        let ok =
            SelfplayConfig::from_toml_str("[selfplay]\nrandom_plies = 4\nrandom_plies_max = 12\n")
                .unwrap();
        assert_eq!((ok.random_plies, ok.random_plies_max), (4, 12));
    }
}
