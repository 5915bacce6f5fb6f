//! A run's shards as the command line finds them (`data::list_shards`:
//! a run folder's self-play shards by generation, files being written
//! skipped), for `triad.data.read_shards`, which reads them with pyarrow.

use crate::value_error;
use pyo3::prelude::*;
use std::path::PathBuf;

/// The shard files under `paths` (files or folders, a run folder
/// included), in the order the trainer reads them; `ValueError` naming a
/// path that cannot be listed.
#[pyfunction]
pub fn list_shards(paths: Vec<PathBuf>) -> PyResult<Vec<PathBuf>> {
    let shards = data::list_shards(&paths).map_err(value_error)?;
    Ok(shards.into_iter().map(|s| s.path).collect())
}

/// Plays `games` self-play games into shards under `out` as `triad
/// selfplay` does (`pipeline::roles::selfplay_game`: the run file
/// `config`'s `[game]`, `[selfplay]` and `[model]`, the checkpoint
/// `model` or a fresh network, `seed`, game ids from `first_game_id`,
/// `shard_games` games per shard); returns the shards written.
#[pyfunction]
#[pyo3(signature = (config, games, out, model=None, seed=1, first_game_id=0, shard_games=1000))]
#[allow(clippy::too_many_arguments)]
pub fn selfplay(
    py: Python<'_>,
    config: PathBuf,
    games: u64,
    out: PathBuf,
    model: Option<PathBuf>,
    seed: u64,
    first_game_id: u64,
    shard_games: u64,
) -> PyResult<Vec<String>> {
    let request = pipeline::roles::SelfplayRequest {
        model,
        games,
        out,
        seed,
        first_game_id,
        shard_games,
    };
    let stop = std::sync::atomic::AtomicBool::new(false);
    py.detach(|| {
        let run = pipeline::load_run(&config)?;
        let mut shards = Vec::new();
        let mut done = |report: &::selfplay::shards::Report, _: &str| {
            shards = report
                .shards
                .iter()
                .map(|s| s.path.to_string_lossy().into_owned())
                .collect();
        };
        pipeline::roles::into_shard_folder(&request.out, |out| {
            registry::with_game!(run.game.clone(), |g| {
                pipeline::roles::selfplay_game(&g, &run.config, &request, out, &stop, &mut done)
            })
        })
        .map(|()| shards)
    })
    .map_err(value_error)
}
