//! `triad explore`: the opening explorer and game viewer (the `explore`
//! crate) over shards or run directories.

pub use ::cli::flags::explore::*;

use super::{print_json, CliError};
use crate::games::with_game;
use pipeline::inputs::shards_of;

pub fn run(args: Args) -> Result<(), CliError> {
    let range = crate::cli::generations(&args.generations)?;
    let (shards, game) = match &args.game {
        Some(flag) => (Vec::new(), registry::from_flag(flag)?),
        None => {
            let shards = shards_of(&args.paths, range.as_ref())?;
            let game = registry::of_readable_shards(&shards)?;
            (shards, game)
        }
    };
    let options = explore::Options {
        net: args.net,
        bind: args.bind,
        port: args.port,
        index_only: args.index_only,
        play: explore::PlayOptions {
            games_dir: args.games_dir,
            seed: args.seed,
            device: model::ModelConfig::device_flag(&args.device)?,
        },
    };
    let summary = with_game!(game, |g| explore::serve(g, &shards, &options))?;
    if let Some(summary) = summary {
        print_json(&summary);
    }
    Ok(())
}
