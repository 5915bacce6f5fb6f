//! Matches and ratings of a distributed run, played inside the trainer
//! (`triad trainer --matches`): after publishing generation g, g plays g-1
//! and the whole `[eval] ladder` with the `[eval]` settings (the stage is
//! [`crate::matches`], the loop's too); the result goes up
//! as `matches/gen-NNNN.json` (put-if-absent: one writer per generation,
//! the trainer that owns it), and the run's ratings are refitted from every
//! generation's matches and written as `ratings.md` (a hint, one writer).

use std::path::Path;

use eval::elo::Wdl;
use game::{AlphaBetaState, Game};
use serde::{Deserialize, Serialize};
use store::Store;

use super::patiently;
use crate::layout::{gen_name, generation_matches, MATCHES_DIR, RATINGS_MD};
use crate::matches::{Lineup, Rungs};
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
    let ladder = crate::matches::ladder(cfg)?;
    let nets = [(gen_name(g), current), (gen_name(g - 1), previous)];
    let lineup = Lineup::new(cfg, g, &nets, &ladder, Rungs::All);
    let fixtures = lineup.schedule(game, cfg, g);
    let played = crate::matches::play(game, cfg, g, &lineup, &fixtures, || {})?;
    let results: Vec<(String, u64, u64, u64)> = played
        .results(&lineup)
        .into_iter()
        .map(|(n, r)| (n, r.wins, r.draws, r.losses))
        .collect();
    let record = GenerationMatches {
        generation: g,
        results,
    };
    let key = generation_matches(g);
    let text = serde_json::to_vec_pretty(&record).map_err(Error::from)?;
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
        let results: Vec<(String, Wdl)> = r
            .results
            .iter()
            .map(|(opponent, w, d, l)| (opponent.clone(), Wdl::new(*w, *d, *l)))
            .collect();
        crate::matches::record(&mut m, &gen_name(r.generation), &results);
    }
    let table = ratings::ratings_table(&m, &ratings::fitted(&m));
    patiently(store, "writing ratings.md", |s| {
        s.put(RATINGS_MD, table.clone().into_bytes())
    })?;
    Ok(())
}
