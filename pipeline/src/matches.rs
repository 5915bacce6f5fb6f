//! The generation-match stage, one for both orchestrators: the loop's
//! evaluation ([`crate::run::Loop`]) and the distributed trainer's
//! `--matches` ([`crate::scale::matches`]). A generation's network meets
//! earlier generations' networks and the `[eval] ladder` in a gauntlet
//! played with the `[eval]` settings; the result is a table of W/D/L per
//! opponent, from which each orchestrator refits the ratings
//! ([`crate::ratings`]).
//!
//! What differs between the two is a parameter here, not a second copy:
//! which earlier generations play (the caller names them: the loop the
//! last evaluated one and, with gating, the best; the trainer `g - 1`),
//! and which rungs of the ladder play ([`Rungs`]: the loop skips decided
//! ones, the trainer plays all). Persisting the results is the caller's:
//! the loop's `matches.json` and `eval/gen-NNNN.parquet`, the trainer's
//! `matches/gNNNNNN.json` in the store.

use std::path::Path;

use eval::arena::openings::random_openings;
use eval::arena::players::PlayerSpec;
use eval::arena::{self, PlayedGame, RunOptions, Schedule, Table};
use eval::elo::Wdl;
use game::{AlphaBetaState, Game};

use crate::ratings::{self, Matches};
use crate::{Error, RunConfig};

/// The players of `[eval] ladder`, parsed.
pub fn ladder(cfg: &RunConfig) -> Result<Vec<PlayerSpec>, Error> {
    cfg.eval
        .ladder
        .iter()
        .map(|p| {
            p.parse().map_err(|e: eval::EvalError| {
                Error::Config(runfile::ConfigError::invalid("eval.ladder", e.to_string()))
            })
        })
        .collect()
}

/// The network at `path` as a match player: the self-play search at
/// `[eval] simulations`.
pub fn net_player(cfg: &RunConfig, path: &Path) -> PlayerSpec {
    PlayerSpec::Net(players::selfplay_net_spec(
        path.display().to_string(),
        cfg.eval.simulations,
        &cfg.selfplay,
    ))
}

/// Which rungs of the ladder a generation meets.
#[derive(Clone, Copy, Debug)]
pub enum Rungs<'a> {
    /// Every rung (the distributed trainer).
    All,
    /// Every rung less those decided in `matches` (`[eval] skip_decided`),
    /// each skip announced on stderr; in a replay generation
    /// (`[eval] replay_decided_every`) and in the run's `last` one every
    /// rung plays (the loop).
    SkipDecided {
        /// Every result of the run so far.
        matches: &'a Matches,
        /// The generation is the run's last: its figures are complete.
        last: bool,
        /// The last generation of the run, when known: the generation a
        /// skipped rung is announced to play again at is no later.
        final_generation: Option<u32>,
    },
}

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

/// Generation `g`'s players and their names: its network first, then the
/// earlier generations' networks, then the ladder's rungs.
#[derive(Clone, Debug)]
pub struct Lineup {
    /// The players, generation `g`'s network first.
    pub players: Vec<PlayerSpec>,
    /// Their names in the results (`players[i]` is `names[i]`).
    pub names: Vec<String>,
    /// How many players after the first are earlier generations (they
    /// play `[eval] previous_games`, the rest `[eval] games`).
    pub earlier: usize,
}

impl Lineup {
    /// Generation `g` and the earlier generations it meets, `nets[0]`
    /// being `g` itself (name and weights), each a [`net_player`]; then
    /// the rungs of `ladder` (parsed from `[eval] ladder`, see [`ladder`])
    /// that `rungs` picks.
    pub fn new(
        cfg: &RunConfig,
        g: u32,
        nets: &[(String, &Path)],
        ladder: &[PlayerSpec],
        rungs: Rungs,
    ) -> Lineup {
        let mut players: Vec<PlayerSpec> = nets.iter().map(|(_, p)| net_player(cfg, p)).collect();
        let mut names: Vec<String> = nets.iter().map(|(n, _)| n.clone()).collect();
        let earlier = nets.len().saturating_sub(1);
        let ec = &cfg.eval;
        for (p, n) in ladder.iter().zip(&ec.ladder) {
            if let Rungs::SkipDecided {
                matches,
                last,
                final_generation,
            } = rungs
            {
                // Every rung in a replay generation (so a regression
                // shows) and in the run's last one (so its final figures
                // are complete).
                if !last && !replays_decided(g, ec.every, ec.replay_decided_every) {
                    if let Some(score) = ratings::decided(matches, n, g, ec.skip_decided) {
                        let mut next = next_replay(g, ec.every, ec.replay_decided_every);
                        if let Some(end) = final_generation {
                            next = next.min(end);
                        }
                        eprintln!(
                            "  {n}: skipped, decided (score {score:.2} in the last {} generations that met it; played again at generation {next})",
                            ec.skip_decided
                        );
                        continue;
                    }
                }
            }
            players.push(p.clone());
            names.push(n.clone());
        }
        Lineup {
            players,
            names,
            earlier,
        }
    }

    /// Generation `g`'s openings and gauntlet: player 0 against each of
    /// the others, `[eval] previous_games` against the earlier
    /// generations and `[eval] games` against the rest (the ladder).
    pub fn schedule<G: Game>(&self, game: &G, cfg: &RunConfig, g: u32) -> Fixtures<G::State> {
        let (previous, pairs) = cfg.eval.pairs();
        let most = previous.max(pairs);
        let openings = random_openings(game, most, cfg.eval.random_plies, cfg.seed ^ g as u64);
        let earlier = self.earlier;
        let schedule = Schedule::gauntlet_capped(self.players.len(), most, openings.len(), |j| {
            if j <= earlier {
                previous
            } else {
                pairs
            }
        });
        Fixtures { openings, schedule }
    }
}

/// The games of a generation's matches, before they are played.
pub struct Fixtures<S> {
    /// The random openings (`[eval] random_plies`, seeded by `g`).
    pub openings: Vec<S>,
    /// The gauntlet's games.
    pub schedule: Schedule,
}

impl<S> Fixtures<S> {
    /// How many games they are.
    pub fn games(&self) -> usize {
        self.schedule.games.len()
    }
}

/// A generation's played matches: every game, and the table of results.
pub struct Played<G: Game> {
    /// Every game, in the schedule's order.
    pub games: Vec<PlayedGame<G>>,
    /// W/D/L of each player against each other.
    pub table: Table,
}

impl<G: Game> Played<G> {
    /// The W/D/L of player 0 against each other player of `lineup`, by
    /// name, in the lineup's order.
    pub fn results(&self, lineup: &Lineup) -> Vec<(String, Wdl)> {
        lineup
            .names
            .iter()
            .enumerate()
            .skip(1)
            .map(|(j, n)| (n.clone(), self.table.wdl[0][j]))
            .collect()
    }
}

/// Plays generation `g`'s `fixtures` between the players of `lineup` with
/// `[eval] threads` and `max_plies` (networks on `[model] device`), calling
/// `on_game` after each game.
pub fn play<G: Game>(
    game: &G,
    cfg: &RunConfig,
    g: u32,
    lineup: &Lineup,
    fixtures: &Fixtures<G::State>,
    mut on_game: impl FnMut(),
) -> Result<Played<G>, Error>
where
    G::State: AlphaBetaState,
{
    let opts = RunOptions {
        threads: cfg.eval.threads,
        max_plies: cfg.eval.max_plies,
        seed: cfg.seed.wrapping_add(g as u64),
    };
    let device = cfg.model.tch_device()?;
    let factory = players::factory::<G>(device);
    let mut table = Table::new(lineup.players.len());
    let games = arena::run(
        game,
        &lineup.players,
        &fixtures.schedule,
        &fixtures.openings,
        &opts,
        factory.as_deref(),
        |gm| {
            table.add(gm);
            on_game();
            true
        },
    )
    .map_err(Error::Play)?;
    Ok(Played { games, table })
}

/// Adds `me`'s `results` (W/D/L per opponent, as [`Played::results`]) to
/// the table the ratings are fitted from.
pub fn record(matches: &mut Matches, me: &str, results: &[(String, Wdl)]) {
    for (opponent, r) in results {
        matches.add(me, opponent, *r);
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
