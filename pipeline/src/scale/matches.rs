//! Matches and ratings of a distributed run, played inside the trainer
//! (`triad trainer --matches`): after publishing generation g, g plays g-1
//! and the `[eval] ladder` with the `[eval]` settings; the result goes up
//! as `matches/gen-NNNN.json` (put-if-absent: one writer per generation,
//! the trainer that owns it), and the run's ratings are refitted from every
//! generation's matches and written as `ratings.md` (a hint, one writer).

use std::path::Path;

use eval::arena::players::PlayerSpec;
use eval::arena::{self, RunOptions, Table};
use eval::elo::Wdl;
use game::{AlphaBetaState, Game};
use serde::{Deserialize, Serialize};
use store::Store;

use super::patiently;
use crate::layout::{gen_name, generation_matches, MATCHES_DIR, RATINGS_MD};
use crate::ratings::{self, Matches};
use crate::{Error, RunConfig};

/// One generation's results: opponent name and W/D/L from g's side.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct GenerationMatches {
    pub generation: u32,
    pub results: Vec<(String, u64, u64, u64)>,
}

/// Plays generation `g` (weights at `current`) against `previous` and the
/// ladder, publishes the results and the refitted ratings; returns the
/// results.
pub fn play<G: Game>(
    game: &G,
    cfg: &RunConfig,
    store: &Store,
    g: u32,
    current: &Path,
    previous: &Path,
) -> Result<GenerationMatches, Error>
where
    G::State: AlphaBetaState,
{
    let net = |p: &Path| {
        PlayerSpec::Net(crate::players::selfplay_net_spec(
            p.display().to_string(),
            cfg.eval.simulations,
            &cfg.selfplay,
        ))
    };
    let mut players = vec![net(current), net(previous)];
    let mut names = vec![gen_name(g), gen_name(g - 1)];
    for rung in &cfg.eval.ladder {
        players.push(
            rung.parse()
                .map_err(|e| Error::input(format!("eval.ladder: {e}")))?,
        );
        names.push(rung.clone());
    }
    // Player 1 is the previous generation.
    let (openings, schedule) = crate::run::match_schedule(game, cfg, g, players.len(), 1);
    let opts = RunOptions {
        threads: cfg.eval.threads,
        max_plies: cfg.eval.max_plies,
        seed: cfg.seed.wrapping_add(g as u64),
    };
    let device = cfg.model.tch_device().map_err(|e| Error::input(e.0))?;
    let factory = crate::players::factory::<G>(device);
    let mut table = Table::new(players.len());
    arena::run(
        game,
        &players,
        &schedule,
        &openings,
        &opts,
        factory.as_deref(),
        |gm| {
            table.add(gm);
            true
        },
    )
    .map_err(Error::failed)?;
    let results: Vec<(String, u64, u64, u64)> = names
        .iter()
        .enumerate()
        .skip(1)
        .map(|(j, n)| {
            let r = table.wdl[0][j];
            (n.clone(), r.wins, r.draws, r.losses)
        })
        .collect();
    let record = GenerationMatches {
        generation: g,
        results,
    };
    let key = generation_matches(g);
    let text = serde_json::to_vec_pretty(&record).map_err(|e| Error::failed(e.to_string()))?;
    patiently(store, "publishing matches", |s| {
        s.put_new(&key, text.clone())
    })?;
    publish_ratings(store)?;
    Ok(record)
}

/// Refits the ratings from every `matches/*.json` and writes `ratings.md`.
pub(crate) fn publish_ratings(store: &Store) -> Result<(), Error> {
    let mut m = Matches::default();
    for l in patiently(store, "listing matches", |s| s.list(MATCHES_DIR))? {
        let Some(bytes) = patiently(store, "reading matches", |s| s.get(&l.key))? else {
            continue;
        };
        let Ok(r) = serde_json::from_slice::<GenerationMatches>(&bytes) else {
            continue;
        };
        for (opponent, wins, draws, losses) in &r.results {
            m.add(
                &gen_name(r.generation),
                opponent,
                Wdl {
                    wins: *wins,
                    draws: *draws,
                    losses: *losses,
                },
            );
        }
    }
    let table = ratings::ratings_table(&m, &ratings::fitted(&m));
    patiently(store, "writing ratings.md", |s| {
        s.put(RATINGS_MD, table.clone().into_bytes())
    })?;
    Ok(())
}
