//! The loop's evaluation stage: generation `g`'s matches against earlier
//! generations and the `[eval] ladder` (`eval/gen-g.parquet`, the results
//! into `matches.json`), and gating.

use super::{bar_with, gen_name, match_game_id, Loop, Stage, State};
use crate::config::RunConfig;
use crate::players;
use crate::ratings::{self, Matches};
use crate::Error;
use eval::arena::openings::random_openings;
use eval::arena::players::PlayerSpec;
use eval::arena::record::game_record;
use eval::arena::{self, RunOptions, Schedule, Table};
use game::{AlphaBetaState, Game};

/// Whether evaluated generation `g` plays every rung, decided or not: the
/// first evaluated generation (a multiple of `every`) at or after each
/// multiple of `replay_every`. So a decided rung is skipped for at most
/// `replay_every + every - 1` generations; counting only generations that
/// are multiples of both (as before) let a rung decided early stay skipped
/// for `lcm(every, replay_every)` of them.
fn replays_decided(g: u32, every: u32, replay_every: u32) -> bool {
    let (every, r) = (every.max(1), replay_every.max(1));
    match g.checked_sub(every) {
        None => true,
        Some(prev) => g / r > prev / r,
    }
}

/// The evaluated generation after `g` that plays every rung again.
fn next_replay(g: u32, every: u32, replay_every: u32) -> u32 {
    let (every, r) = (every.max(1), replay_every.max(1));
    ((g / r + 1) * r).next_multiple_of(every)
}

/// Generation `g`'s openings and gauntlet of `players`: player 0 (its
/// network) against each of the others, `[eval] previous_games` against
/// players `1..=earlier` (earlier generations' networks) and `[eval]
/// games` against the rest (the ladder).
pub(crate) fn match_schedule<G: Game>(
    game: &G,
    cfg: &RunConfig,
    g: u32,
    players: usize,
    earlier: usize,
) -> (Vec<G::State>, Schedule) {
    let (previous, pairs) = cfg.eval.pairs();
    let most = previous.max(pairs);
    let openings = random_openings(game, most, cfg.eval.random_plies, cfg.seed ^ g as u64);
    let schedule = Schedule::gauntlet_capped(players, most, openings.len(), |j| {
        if j <= earlier {
            previous
        } else {
            pairs
        }
    });
    (openings, schedule)
}

impl<G: Game> Loop<'_, G>
where
    G::State: AlphaBetaState,
{
    /// The players of generation `g`'s matches and their names: `gen-g`
    /// first, then the previous and the best generation, then the ladder
    /// less the rungs skipped as decided (`[eval] skip_decided`; never in
    /// a replay generation or the run's last).
    fn eval_players(&self, g: u32, best: u32, matches: &Matches) -> (Vec<PlayerSpec>, Vec<String>) {
        let net = |k: u32| {
            PlayerSpec::Net(crate::players::selfplay_net_spec(
                self.net_path(k).display().to_string(),
                self.cfg.eval.simulations,
                &self.cfg.selfplay,
            ))
        };
        let mut players = vec![net(g)];
        let mut names = vec![gen_name(g)];
        if g > 0 {
            // The last generation evaluated before this one.
            // (By the table, not by `every`: a run extended past its old
            // last generation, which `every` would skip, plays that one.)
            let prev = (0..g)
                .rev()
                .find(|&h| matches.players.contains(&gen_name(h)))
                .unwrap_or(0);
            players.push(net(prev));
            names.push(gen_name(prev));
            // With gating the self-play network may be an older one.
            if best != prev && self.cfg.r#loop.gating {
                players.push(net(best));
                names.push(gen_name(best));
            }
        }
        let ec = &self.cfg.eval;
        for (p, n) in self.ladder.iter().zip(&ec.ladder) {
            // Every rung in a replay generation (so a regression shows) and
            // in the run's last one (so its final figures are complete).
            let last = self.is_last(g);
            if !last && !replays_decided(g, ec.every, ec.replay_decided_every) {
                if let Some(score) = ratings::decided(matches, n, g, ec.skip_decided) {
                    let mut next = next_replay(g, ec.every, ec.replay_decided_every);
                    if !self.open_ended {
                        next = next.min(self.cfg.r#loop.generations);
                    }
                    eprintln!(
                        "  {n}: skipped, decided (score {score:.2} in the last {} generations that met it; played again at generation {next})",
                        ec.skip_decided
                    );
                    continue;
                }
            }
            players.push(p.clone());
            names.push(n.clone());
        }
        (players, names)
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
        let (players, names) = self.eval_players(g, state.best, matches);
        let earlier = names
            .iter()
            .skip(1)
            .take_while(|n| n.starts_with("gen-"))
            .count();
        let (openings, schedule) = match_schedule(self.game, cfg, g, players.len(), earlier);
        let opts = RunOptions {
            threads: cfg.eval.threads,
            max_plies: cfg.eval.max_plies,
            seed: cfg.seed.wrapping_add(g as u64),
        };
        eprintln!("generation {g}: {} evaluation games", schedule.games.len());
        let bar = bar_with(
            schedule.games.len() as u64,
            "{bar:30} {pos}/{len} evaluation games [{elapsed}]",
        );
        let device = cfg.model.tch_device().map_err(|e| Error::input(e.0))?;
        let factory = players::factory::<G>(device);
        let mut table = Table::new(players.len());
        let games = arena::run(
            self.game,
            &players,
            &schedule,
            &openings,
            &opts,
            factory.as_deref(),
            |gm| {
                table.add(gm);
                bar.inc(1);
                true
            },
        )
        .map_err(Error::failed)?;
        bar.finish_and_clear();
        let shard = self.run.join("eval").join(format!("{me}.parquet"));
        let failed = |e: data::DataError| Error::failed(e.to_string());
        let mut w = data::ShardWriter::create(&shard).map_err(failed)?;
        for (i, gm) in games.iter().enumerate() {
            w.push_game(&game_record(
                self.game,
                gm,
                &players,
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
        for (j, opponent) in names.iter().enumerate().skip(1) {
            let r = table.wdl[0][j];
            eprintln!(
                "  {me} vs {opponent}: +{} ={} -{} (score {:.2})",
                r.wins,
                r.draws,
                r.losses,
                r.score()
            );
            if !recorded {
                matches.add(&me, opponent, r);
            }
        }
        self.score_suite(g)?;
        if g > 0 {
            let vs_best = names
                .iter()
                .position(|n| *n == gen_name(state.best))
                .unwrap_or(1);
            let score = table.wdl[0][vs_best].score();
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

#[cfg(test)]
mod tests {
    use super::*;

    /// With `every = 2` and `replay_decided_every = 5` decided rungs come
    /// back in generations 6, 10, 16, 20: the first evaluated generation
    /// after each multiple of 5 (before, only 10 and 20); with `every = 1`
    /// in the multiples of 5, as always.
    #[test]
    fn decided_rungs_come_back_after_the_replay_interval() {
        let replays = |every: u32, r: u32| -> Vec<u32> {
            (0..=20)
                .filter(|g| g % every == 0 && replays_decided(*g, every, r))
                .collect()
        };
        assert_eq!(replays(2, 5), [0, 6, 10, 16, 20]);
        assert_eq!(replays(1, 5), [0, 5, 10, 15, 20]);
        assert_eq!(replays(3, 4), [0, 6, 9, 12, 18]);
        assert_eq!(next_replay(2, 2, 5), 6);
        assert_eq!(next_replay(6, 2, 5), 10);
        assert_eq!(next_replay(3, 1, 5), 5);
        // Every replay generation is the next one announced before it.
        for every in 1..4 {
            for r in 1..7 {
                let all = replays(every, r);
                for w in all.windows(2) {
                    for g in (w[0]..w[1]).filter(|g| g % every == 0) {
                        assert_eq!(
                            next_replay(g, every, r),
                            w[1],
                            "every {every}, r {r}, g {g}"
                        );
                    }
                }
            }
        }
    }
}
