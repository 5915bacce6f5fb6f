//! `triad selfplay`: plays games with batched MCTS and writes them as
//! Parquet shards (see `docs/selfplay.md` and `docs/data.md`).

pub use ::cli::flags::selfplay::*;

use crate::cli::{print_either, stop_on_signal, CliError};
use crate::games::with_game;
use pipeline::roles::{into_shard_folder, selfplay_game, SelfplayRequest};

pub fn run(args: Args) -> Result<(), CliError> {
    let request = SelfplayRequest {
        model: args.model,
        games: args.games,
        out: args.out,
        seed: args.seed,
        first_game_id: args.first_game_id,
        shard_games: args.shard_games,
    };
    let json = args.json;
    let stop = stop_on_signal();
    let run = pipeline::load_run(&args.config)?;
    let mut done = |report: &selfplay::shards::Report, model_id: &str| {
        print_either(
            json,
            || report.summary_json(model_id),
            || report.summary_text(),
        )
    };
    into_shard_folder(&request.out, |out| {
        with_game!(run.game.clone(), |g| {
            selfplay_game(&g, &run.config, &request, out, &stop, &mut done)
        })
    })?;
    Ok(())
}
