//! `triad train`: train a network on self-play shards (see docs/train.md).

pub use ::cli::flags::train::*;

use super::{print_json, CliError};
use pipeline::options::{run_training, TrainFlags};

pub fn run(args: Args) -> Result<(), CliError> {
    let data = pipeline::inputs::localize(&args.data)?;
    let flags = TrainFlags {
        generations: args.generations.parse()?,
        config: args.config,
        data,
        out: args.out,
        resume: args.resume,
        steps: args.steps,
        init: args.init,
        game: args.game,
        skip_bad_shards: args.skip_bad_shards,
        mix: args.mix,
    };
    let json = args.json;
    run_training(&flags, &mut |summary, out| {
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
    })?;
    Ok(())
}
