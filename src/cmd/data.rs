//! `triad data info` and `triad data export`: look into self-play shards;
//! `triad data import`: records from elsewhere as a shard; `triad data
//! upgrade`: bring a run to the one layout; `triad data verify`: check
//! shards against their game's rules; `triad data positions`: sample
//! positions from games.

pub use ::cli::flags::data::*;

use super::{print_json, CliError};
use crate::cli::{emit, print_either, row_progress, write_atomically};
use crate::games::with_game;
use pipeline::inputs::shards_of;

pub fn run(args: Args) -> Result<(), CliError> {
    match args.verb {
        Verb::Info(a) => info(a),
        Verb::Export(a) => export(a),
        Verb::Import(a) => import(a),
        Verb::Upgrade(a) => upgrade(a),
        Verb::Verify(a) => verify(a),
        Verb::Positions(a) => positions(a),
    }
}

fn positions(args: PositionsArgs) -> Result<(), CliError> {
    if args.per_ply == 0 {
        return Err(CliError::input("--per-ply must be at least 1"));
    }
    let exclude = data::sample::read_exclusions(&args.exclude)?;
    let shards = shards_of(&args.paths, None)?;
    let options = data::sample::SampleOptions {
        per_ply: args.per_ply,
        plies: args.plies,
        exclude,
        seed: args.seed,
    };
    let sample = data::sample::sample_positions(&shards, &options)?;
    if let Some(out) = &args.out {
        write_atomically(out, sample.lines().as_bytes())?;
    }
    if args.json {
        print_json(&sample.json());
    } else {
        if args.out.is_none() {
            emit(&sample.lines());
        }
        eprintln!("{}", sample.summary());
    }
    Ok(())
}

fn verify(args: VerifyArgs) -> Result<(), CliError> {
    let range = crate::cli::generations(&args.generations)?;
    let shards = shards_of(&args.paths, range.as_ref())?;
    let bar = row_progress(&shards, "verifying");
    let report = registry::verify_shards(&shards, &mut |n| bar.inc(n));
    bar.finish_and_clear();
    print_either(args.json, || report.json(), || report.text());
    if report.ok() {
        return Ok(());
    }
    Err(CliError::failed(format!(
        "{} fault(s) in {} of {} file(s): these shards are not what their game's rules say",
        report.faults(),
        report.bad_files(),
        report.shards.len()
    )))
}

fn upgrade(args: UpgradeArgs) -> Result<(), CliError> {
    let report = pipeline::scale::upgrade::upgrade(&args.run)?;
    if args.json {
        print_json(&serde_json::to_value(&report).unwrap_or_default());
    } else {
        println!("{}", report.text());
    }
    Ok(())
}

fn info(args: InfoArgs) -> Result<(), CliError> {
    let range = crate::cli::generations(&args.generations)?;
    let shards = shards_of(&args.paths, range.as_ref())?;
    let bar = row_progress(&shards, "reading");
    let mut s = data::summary::summarize_with(&shards, |n| bar.inc(n))?;
    bar.finish_and_clear();
    s.other_boards = data::list_mix_shards(&args.paths, range.as_ref())?;
    if args.json {
        print_json(&s.json());
        return Ok(());
    }
    emit(&s.text());
    Ok(())
}

fn export(args: ExportArgs) -> Result<(), CliError> {
    let shards = shards_of(&args.paths, None)?;
    let (record, shard) = data::find_game(&shards, args.game)?;
    let game = registry::of_shard_files(&shards)?;
    // The game's rows are all in this shard: errors about them name it.
    let text = with_game!(game, |g| data::export_text(&g, &record))
        .map_err(|e| CliError::input(format!("{}: {e}", shard.display())))?;
    match &args.out {
        Some(path) => write_atomically(path, text.as_bytes()),
        None => {
            emit(&text);
            Ok(())
        }
    }
}

fn import(args: ImportArgs) -> Result<(), CliError> {
    let options = data::import::ImportOptions {
        format: match args.format {
            ImportFormat::Record => data::import::ImportFormat::Record,
            ImportFormat::Lines => data::import::ImportFormat::Lines,
        },
        first_id: args.first_id,
    };
    let bar = pipeline::bar_with(0, "{spinner} {pos} records read");
    let imports = pipeline::inputs::read_imports(&args.files, args.game.as_deref(), &args.out)?;
    let (report, shard) = with_game!(imports.game.clone(), |g| {
        imports.import(&g, &options, &args.out, || bar.inc(1))
    })?;
    bar.finish_and_clear();
    for r in &report.rejected {
        eprintln!("refused: {r}");
    }
    for w in &report.warnings {
        eprintln!("warning: {w}");
    }
    print_either(
        args.json,
        || report.json(&shard),
        || format!("{}\n", report.text(&shard)),
    );
    Ok(())
}
