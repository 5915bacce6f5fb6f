//! `triad selfplay`: plays games with batched MCTS and writes them as
//! Parquet shards (see `docs/selfplay.md` and `docs/data.md`).

pub use ::cli::flags::selfplay::*;

use crate::cli::{print_either, stop_on_signal, CliError};
use pipeline::options::{run_selfplay, SelfplayFlags};

pub fn run(args: Args) -> Result<(), CliError> {
    let flags = SelfplayFlags {
        model: args.model,
        games: args.games,
        out: args.out,
        seed: args.seed,
        first_game_id: args.first_game_id,
        shard_games: args.shard_games,
    };
    let json = args.json;
    let stop = stop_on_signal();
    run_selfplay(&args.config, &flags, &stop, &mut |report, model_id| {
        print_either(
            json,
            || report.summary_json(model_id),
            || report.summary_text(),
        )
    })?;
    Ok(())
}
