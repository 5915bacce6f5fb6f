//! The loop's benchmark-suite scoring (`[eval] suite`): each evaluated
//! generation's error rates, into `suite.json` and `suite.csv`.

use super::{bar_with, gen_name, Loop};
use crate::Error;
use eval::arena::players::PlayerSpec;
use game::{AlphaBetaState, Game};

impl<G: Game> Loop<'_, G>
where
    G::State: AlphaBetaState,
{
    /// Generation `g`'s network on the benchmark suite (`[eval] suite`),
    /// recorded in `suite.json` and `suite.csv`; nothing without a suite.
    /// The last generation uses `suite_final_sample` positions a file.
    pub(super) fn score_suite(&self, g: u32) -> Result<(), Error> {
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
        let spec = PlayerSpec::Net(players::selfplay_net_spec(
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
        let device = self.cfg.model.tch_device()?;
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
        .map_err(|e| Error::Play(e.into()))?;
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
