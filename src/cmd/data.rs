//! `triad data info` and `triad data export`: look into self-play shards;
//! `triad data upgrade`: bring a run to the one layout; `triad data verify`:
//! check shards against their game's rules.

use std::path::PathBuf;

use super::{print_json, CliError};
use crate::cli::{emit, print_either, row_progress, write_atomically, GenerationsArg};
use crate::games::with_game;
use pipeline::inputs::shards_of;

#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    verb: Verb,
}

#[derive(clap::Subcommand)]
enum Verb {
    /// Summarise shards: games, positions, results, mean game length, schema version.
    #[command(
        after_help = "A run directory of `triad loop` (or its games/ folder) gives its self-play\nshards, games/gen-NNNN/*.parquet, in generation order; its evaluation games\n(eval/gen-NNNN.parquet) are read only when named (`RUN/eval`).\n\nExamples:\n  triad data info runs/quickstart\n  triad data info runs/quickstart --generations 8..\n  triad data info runs/demo/shards\n  triad data info a.parquet b.parquet --json"
    )]
    Info(InfoArgs),
    /// Write one game in the inventor's notation (readable by `triad replay`).
    #[command(
        after_help = "The game is rebuilt from its rows: ply 0's TFEN is the start and each\nrow's chosen move is played in turn. Lines are `N)\\tWHITE,\\tBLACK;`.\nThe header names the game and its start position; `triad replay FILE`\nreads both from it.\n\nExample:\n  triad data export runs/demo/shards --game 42 --out game42.txt"
    )]
    Export(ExportArgs),
    /// Rename a run written in the old layout of distributed runs to the one layout.
    #[command(
        after_help = "A distributed run written before the one layout (docs/scale-out.md) has\nshards/gNNNNNN/, checkpoints/gNNNNNN.json and -<trainer>.safetensors,\nmatches/gNNNNNN.json; the trainer, the workers and the readers refuse it.\nThis renames each object to games/gen-NNNN/, networks/gen-NNNN.json and\n-<trainer>.safetensors, matches/gen-NNNN.json (a new object by put-if-absent,\nthen the old one deleted; manifests after the weights they name), rewrites\nLATEST and refits ratings.md. Stop the run's trainer and workers first.\nRunning it again does nothing, and finishes an upgrade that was killed.\n\nExamples:\n  triad data upgrade runs/r1\n  triad data upgrade s3://triad-runs/c4-01 --json"
    )]
    Upgrade(UpgradeArgs),
    /// Replay every game of the shards through its rules and check every row.
    #[command(
        after_help = "Each game is replayed from its first row; every row's position text, side\nto move, hash, repetition count and legal moves must be the replay's and\nits chosen move legal; plies in order and complete; game ids unique across\nall the shards given; visits, policy target, root value and W/D/L\nconsistent; result, termination and length the same on every row and what\nthe rules say at the last ply; the file's game, variant and schema those of\nits rows. Prints each fault (file, game, ply) and a summary; exit 1 on any\nfault, 2 when the paths hold no shard (docs/data.md, \"Verifying shards\").\n\nExamples:\n  triad data verify runs/quickstart\n  triad data verify s3://triad-runs/c4-01 --generations 3..\n  triad data verify a.parquet b.parquet --json"
    )]
    Verify(VerifyArgs),
}

#[derive(clap::Args)]
struct VerifyArgs {
    /// Shard files, directories of shards, run directories (their self-play
    /// shards, not eval/) or run URLs (s3://, gs://, az://, file://).
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    #[command(flatten)]
    generations: GenerationsArg,
    /// Print one JSON object (summary and every fault) instead of text.
    #[arg(long)]
    json: bool,
}

#[derive(clap::Args)]
struct InfoArgs {
    /// Shard files, directories of shards (`*.parquet`; `*.tmp` is ignored),
    /// or run directories (their self-play shards games/gen-NNNN/*.parquet,
    /// not their evaluation games in eval/).
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    #[command(flatten)]
    generations: GenerationsArg,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

#[derive(clap::Args)]
struct ExportArgs {
    /// Shard files, directories of shards, or run directories (their
    /// self-play shards, not eval/).
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// The game id (the `game_id` column).
    #[arg(long)]
    game: u64,
    /// Write the record here instead of stdout (written to a temporary name, then renamed).
    #[arg(long)]
    out: Option<PathBuf>,
}

#[derive(clap::Args)]
struct UpgradeArgs {
    /// The run: a URL (s3://, gs://, az://, file://) or a path.
    run: String,
    /// Print one JSON object (objects renamed, finished; LATEST, ratings rewritten).
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args) -> Result<(), CliError> {
    match args.verb {
        Verb::Info(a) => info(a),
        Verb::Export(a) => export(a),
        Verb::Upgrade(a) => upgrade(a),
        Verb::Verify(a) => verify(a),
    }
}

fn verify(args: VerifyArgs) -> Result<(), CliError> {
    let range = args.generations.parse()?;
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
    let report = pipeline::layout::upgrade(&args.run)?;
    if args.json {
        print_json(&serde_json::to_value(&report).unwrap_or_default());
    } else {
        println!("{}", report.text());
    }
    Ok(())
}

fn info(args: InfoArgs) -> Result<(), CliError> {
    let range = args.generations.parse()?;
    let shards = shards_of(&args.paths, range.as_ref())?;
    let bar = row_progress(&shards, "reading");
    let s = data::summary::summarize_with(&shards, |n| bar.inc(n))?;
    bar.finish_and_clear();
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
