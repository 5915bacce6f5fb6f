//! The loop's evaluation stage: generation `g`'s matches against earlier
//! generations and the `[eval] ladder` (played by [`crate::matches`]), its
//! persistence (`eval/gen-g.parquet`, the results into `matches.json`),
//! and gating.

use super::{bar_with, gen_name, match_game_id, Loop, Stage, State};
use crate::matches::{Lineup, Rungs};
use crate::ratings::Matches;
use crate::Error;
use eval::arena::record::game_record;
use game::{AlphaBetaState, Game};
use std::path::PathBuf;

impl<G: Game> Loop<'_, G>
where
    G::State: AlphaBetaState,
{
    /// The players of generation `g`'s matches and their names: `gen-g`
    /// first, then the previous and the best generation, then the ladder
    /// less the rungs skipped as decided (`[eval] skip_decided`; never in
    /// a replay generation or the run's last).
    fn eval_players(&self, g: u32, best: u32, matches: &Matches) -> Lineup {
        let mut nets: Vec<(u32, PathBuf)> = vec![(g, self.net_path(g))];
        if g > 0 {
            // The last generation evaluated before this one.
            // (By the table, not by `every`: a run extended past its old
            // last generation, which `every` would skip, plays that one.)
            let prev = (0..g)
                .rev()
                .find(|&h| matches.players.contains(&gen_name(h)))
                .unwrap_or(0);
            nets.push((prev, self.net_path(prev)));
            // With gating the self-play network may be an older one.
            if best != prev && self.cfg.r#loop.gating {
                nets.push((best, self.net_path(best)));
            }
        }
        let nets: Vec<(String, &std::path::Path)> = nets
            .iter()
            .map(|(k, p)| (gen_name(*k), p.as_path()))
            .collect();
        let rungs = Rungs::SkipDecided {
            matches,
            last: self.is_last(g),
            final_generation: (!self.open_ended).then_some(self.cfg.r#loop.generations),
        };
        Lineup::new(self.cfg, g, &nets, &self.ladder, rungs)
    }

    /// Generation `g`'s matches: the games go to `eval/gen-g.parquet`, the
    /// records into `matches`, and gating picks the next self-play network.
    pub(super) fn eval(&self, state: &mut State, matches: &mut Matches) -> Result<Stage, Error> {
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
        let lineup = self.eval_players(g, state.best, matches);
        let fixtures = lineup.schedule(self.game, cfg, g);
        eprintln!("generation {g}: {} evaluation games", fixtures.games());
        let bar = bar_with(
            fixtures.games() as u64,
            "{bar:30} {pos}/{len} evaluation games [{elapsed}]",
        );
        let played = crate::matches::play(self.game, cfg, g, &lineup, &fixtures, || bar.inc(1))?;
        bar.finish_and_clear();
        let shard = self.run.join(crate::layout::eval_games(g));
        let failed = Error::Data;
        let mut w =
            data::ShardWriter::create_capped(&shard, cfg.eval.max_plies as u32).map_err(failed)?;
        for (i, gm) in played.games.iter().enumerate() {
            w.push_game(&game_record(
                self.game,
                gm,
                &lineup.players,
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
        let results = played.results(&lineup);
        for (opponent, r) in &results {
            eprintln!(
                "  {me} vs {opponent}: +{} ={} -{} (score {:.2})",
                r.wins,
                r.draws,
                r.losses,
                r.score()
            );
        }
        if !recorded {
            crate::matches::record(matches, &me, &results);
        }
        self.score_suite(g)?;
        if g > 0 {
            let vs_best = lineup
                .names
                .iter()
                .position(|n| *n == gen_name(state.best))
                .unwrap_or(1);
            let score = played.table.wdl[0][vs_best].score();
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
}
