//! `triad explore`: the opening explorer and game viewer (the `explore`
//! crate) over shards or run directories.

pub use ::cli::flags::explore::*;

use super::{print_json, CliError};
use crate::games::with_game;
use pipeline::inputs::shards_of;

pub fn run(mut args: Args) -> Result<(), CliError> {
    if args.token.is_none() {
        args.token = std::env::var("TRIAD_EXPLORE_TOKEN")
            .ok()
            .filter(|t| !t.is_empty());
    }
    let range = crate::cli::generations(&args.generations)?;
    let (shards, game) = match &args.game {
        Some(flag) => (Vec::new(), registry::from_flag(flag)?),
        None => {
            let shards = shards_of(&args.paths, range.as_ref())?;
            let game = registry::of_readable_shards(&shards)?;
            (shards, game)
        }
    };
    let models = models_of(&args)?;
    let options = explore::Options {
        net: args.net,
        bind: args.bind,
        port: args.port,
        token: args.token,
        limits: explore::Limits {
            per_client: args.max_searches_per_client as usize,
            total: args.max_searches as usize,
        },
        index_only: args.index_only,
        play: explore::PlayOptions {
            games_dir: args.games_dir,
            seed: args.seed,
            device: model::ModelConfig::device_flag(&args.device)?,
            models,
        },
    };
    let summary = with_game!(game, |g| explore::serve(g, &shards, &options))?;
    if let Some(summary) = summary {
        print_json(&summary);
    }
    Ok(())
}

/// The networks a request may name, when it may not give a path: with
/// --token, --models, or --bind beyond loopback. They are the checkpoints
/// of each --models folder and of the `networks/` folder of each run among
/// the paths.
fn models_of(args: &Args) -> Result<Option<explore::Models>, CliError> {
    let by_name = args.token.is_some() || !args.models.is_empty() || !args.bind.is_loopback();
    if !by_name {
        return Ok(None);
    }
    let mut dirs = args.models.clone();
    for p in &args.paths {
        let networks = p.join("networks");
        if networks.is_dir() {
            dirs.push(networks);
        }
    }
    let models = explore::access::models_in(&dirs).map_err(explore::Error::from)?;
    eprintln!(
        "net: players by name: {}",
        if models.is_empty() {
            "none offered".to_string()
        } else {
            models.keys().cloned().collect::<Vec<_>>().join(", ")
        }
    );
    Ok(Some(models))
}
