//! `triad train`: train a network on self-play shards (see docs/train.md).

pub use ::cli::flags::train::*;

use super::{print_json, CliError};
use crate::games::with_game;
use pipeline::roles::{in_out_folder, prepare_training, train_game, MixRequest, TrainRequest};

pub fn run(args: Args) -> Result<(), CliError> {
    let data = pipeline::inputs::localize(&args.data)?;
    let request = TrainRequest {
        generations: crate::cli::generations(&args.generations)?,
        config: args.config,
        data,
        out: args.out,
        resume: args.resume,
        steps: args.steps,
        init: args.init,
        game: args.game,
        skip_bad_shards: args.skip_bad_shards,
        mix: args
            .mix
            .into_iter()
            .map(|m| MixRequest {
                game: m.game,
                data: m.data,
            })
            .collect(),
    };
    let json = args.json;
    let mut done = |summary: &train::Summary, out: &std::path::Path| {
        if json {
            print_json(&summary.summary_json(out));
        } else {
            print!("{}", summary.summary_text());
            if summary.skipped_rows > 0 {
                eprintln!(
                    "warning: {} rows could not be decoded and were skipped",
                    summary.skipped_rows
                );
            }
        }
    };
    let (data, game) = prepare_training(&request)?;
    in_out_folder(&request.out, |out| {
        with_game!(game, |g| train_game(&g, &request, data, out, &mut done))
    })?;
    Ok(())
}
