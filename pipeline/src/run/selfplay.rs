//! The loop's self-play stage: generation `g`'s games with the best
//! network so far, into `games/gen-g/` (and, with `[loop] mix`, each mix
//! variant's share into `games/gen-g/<variant>/`).

use super::{bar_with, gen_name, selfplay_game_id, Loop, Stage};
use crate::Error;
use game::{AlphaBetaState, Game};
use selfplay::shards::{load_pool_evaluators_as, play_to_shards_pooled, Job, Report};
use std::path::PathBuf;

impl<G: Game> Loop<'_, G>
where
    G::State: AlphaBetaState,
{
    /// The self-play games of a generation: the run's variant's, then
    /// each `[loop] mix` variant's (`mix_share` of the total, split
    /// evenly, the first variants taking the remainder; each at least one
    /// game, and the run's variant at least one).
    pub(super) fn games_split(&self) -> (u64, Vec<u64>) {
        let total = self.cfg.r#loop.games_per_generation;
        let k = self.mix.len() as u64;
        if k == 0 {
            return (total, Vec::new());
        }
        let mixed = ((total as f64 * self.cfg.r#loop.mix_share).round() as u64).clamp(k, total - 1);
        let each: Vec<u64> = (0..k)
            .map(|i| mixed / k + u64::from(i < mixed % k))
            .collect();
        (total - mixed, each)
    }

    /// The folder of mix variant `game`'s shards of generation `g`.
    pub(super) fn mix_dir(&self, g: u32, game: &G) -> PathBuf {
        self.run
            .join(crate::layout::games_dir(g))
            .join(game.variant())
    }

    /// Self-play of generation `g` with the network of generation `best`,
    /// the stages so far having taken `spent_s` seconds (whether its full
    /// searches run `[loop] late_simulations`).
    pub(super) fn selfplay(&self, g: u32, best: u32, spent_s: f64) -> Result<Stage, Error> {
        let dir = self.run.join(crate::layout::games_dir(g));
        if dir.exists() {
            // An interrupted generation is played again from scratch.
            std::fs::remove_dir_all(&dir).map_err(Error::io(&dir))?;
        }
        let late = self.cfg.r#loop.late(g, spent_s);
        let mut config = self.cfg.selfplay.clone();
        if late {
            config.simulations = self.cfg.r#loop.late_simulations;
        }
        eprintln!(
            "generation {g}: self-play with {}, {} simulations a full search{}",
            gen_name(best),
            config.simulations,
            if late { " (late_simulations)" } else { "" }
        );
        let seed = self.cfg.seed.wrapping_mul(1000) + g as u64;
        let (own, mixed) = self.games_split();
        let report = self.play_part(self.game, &config, g, dir, own, 0, seed, best, false)?;
        let d = report.diagnostics();
        let mut first = own;
        for (i, (game, &games)) in self.mix.iter().zip(&mixed).enumerate() {
            // Seeds of the mix parts are apart from every generation's own
            // (`seed · 1000 + g`, g below 2^31).
            let part_seed = seed ^ (((i as u64) + 1) << 40);
            self.play_part(
                game,
                &config,
                g,
                self.mix_dir(g, game),
                games,
                first,
                part_seed,
                best,
                true,
            )?;
            first += games;
        }
        self.figures.set(Some(super::diagnostics::of_selfplay(&d)));
        Ok(Stage::Train)
    }

    /// `games` games of generation `g` of `game` (the run's variant, or
    /// with `mix` another) into `out`, game ids from `first` on; the report
    /// of the run's own part is the stage's diagnostics.
    #[allow(clippy::too_many_arguments)]
    fn play_part(
        &self,
        game: &G,
        config: &selfplay::SelfplayConfig,
        g: u32,
        out: PathBuf,
        games: u64,
        first: u64,
        seed: u64,
        best: u32,
        mix: bool,
    ) -> Result<Report, Error> {
        let path = self.net_path(best);
        let (mut evaluators, model_id) =
            load_pool_evaluators_as(game, &self.cfg.model, Some(&path), seed, config.pools, mix)?;
        let job = Job {
            out,
            games,
            first_game_id: selfplay_game_id(g, first),
            seed,
            shard_games: 1000,
            model_id,
        };
        let label = if mix {
            format!("{} self-play games", game.variant())
        } else {
            "self-play games".to_string()
        };
        let bar = bar_with(
            job.games,
            &format!("{{elapsed_precise}} [{{bar:30}}] {{pos}}/{{len}} {label}  {{msg}}"),
        );
        let report = play_to_shards_pooled(
            game,
            config,
            &mut evaluators,
            &job,
            &players::new_quiescence_hint,
            self.stop,
            &bar,
        )?;
        bar.finish_and_clear();
        if report.interrupted {
            return Err(Error::SelfplayInterrupted { generation: g });
        }
        let d = report.diagnostics();
        eprintln!(
            "  {}{} games, {} positions in {:.0} s; {:.0} evals/s, batches {:.0}% full, network busy {:.0}%, cache hits {:.0}%, {:.0} µs CPU/eval outside the network",
            if mix { format!("{}: ", game.variant()) } else { String::new() },
            report.totals.games,
            report.rows(),
            report.seconds,
            d.evals_per_s,
            d.batch_fill * 100.0,
            d.network_busy * 100.0,
            d.cache_hit_rate * 100.0,
            d.cpu_us_per_eval,
        );
        Ok(report)
    }
}
