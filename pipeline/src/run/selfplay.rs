//! The loop's self-play stage: generation `g`'s games with the best
//! network so far, into `games/gen-g/`.

use super::{bar_with, gen_name, selfplay_game_id, Loop, Stage};
use crate::selfplay::{load_pool_evaluators, play_to_shards_pooled, Job};
use crate::Error;
use game::{AlphaBetaState, Game};

impl<G: Game> Loop<'_, G>
where
    G::State: AlphaBetaState,
{
    /// Self-play of generation `g` with the network of generation `best`.
    pub(super) fn selfplay(&self, g: u32, best: u32) -> Result<Stage, Error> {
        let dir = self.run.join(crate::layout::games_dir(g));
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
        let d = report.diagnostics();
        eprintln!(
            "  {} games, {} positions in {:.0} s; {:.0} evals/s, batches {:.0}% full, network busy {:.0}%, cache hits {:.0}%, {:.0} µs CPU/eval outside the network",
            report.totals.games,
            report.rows(),
            report.seconds,
            d.evals_per_s,
            d.batch_fill * 100.0,
            d.network_busy * 100.0,
            d.cache_hit_rate * 100.0,
            d.cpu_us_per_eval,
        );
        self.figures.set(Some(super::diagnostics::of_selfplay(&d)));
        Ok(Stage::Train)
    }
}
