//! `triad data info` and `triad data export`: look into self-play shards.

use std::fmt::Write as _;
use std::path::PathBuf;

use super::{print_json, CliError};
use crate::cli::{emit, row_progress, shards_of, write_atomically, GenerationsArg};
use crate::games::{self, with_game};
use data::ShardReader;
use game::Game;
use serde_json::json;

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

pub fn run(args: Args) -> Result<(), CliError> {
    match args.verb {
        Verb::Info(a) => info(a),
        Verb::Export(a) => export(a),
    }
}

fn info(args: InfoArgs) -> Result<(), CliError> {
    let range = args.generations.parse()?;
    let shards = shards_of(&args.paths, range.as_ref())?;
    let bar = row_progress(&shards, "reading");
    let s = data::summary::summarize_with(&shards, |n| bar.inc(n))
        .map_err(|e| CliError::input(e.to_string()))?;
    bar.finish_and_clear();
    let versions: Vec<u32> = s.schema_versions.iter().copied().collect();
    if args.json {
        print_json(&json!({
            "shards": s.shards,
            "game": s.games_played.iter().collect::<Vec<_>>(),
            "games": s.games,
            "positions": s.positions,
            "results": {
                "white_wins": s.white_wins,
                "draws": s.draws,
                "black_wins": s.black_wins,
                "unfinished": s.unfinished,
            },
            "terminations": s.terminations,
            "mean_game_length": s.mean_game_length,
            "schema_versions": versions,
        }));
        return Ok(());
    }
    let mut out = String::new();
    let pct = |n: u64| {
        if s.games == 0 {
            0.0
        } else {
            100.0 * n as f64 / s.games as f64
        }
    };
    let _ = writeln!(out, "shards            {}", s.shards);
    let played: Vec<&str> = s.games_played.iter().map(String::as_str).collect();
    let _ = writeln!(out, "game              {}", played.join(", "));
    let _ = writeln!(out, "games             {}", s.games);
    let _ = writeln!(out, "positions         {}", s.positions);
    let _ = writeln!(
        out,
        "results           1-0 {} ({:.1}%)  1/2-1/2 {} ({:.1}%)  0-1 {} ({:.1}%)  unfinished {}",
        s.white_wins,
        pct(s.white_wins),
        s.draws,
        pct(s.draws),
        s.black_wins,
        pct(s.black_wins),
        s.unfinished
    );
    let terms: Vec<String> = s
        .terminations
        .iter()
        .map(|(k, v)| format!("{k} {v}"))
        .collect();
    let _ = writeln!(out, "terminations      {}", terms.join(", "));
    let _ = writeln!(out, "mean game length  {:.1} plies", s.mean_game_length);
    let _ = writeln!(
        out,
        "schema version    {}",
        versions
            .iter()
            .map(|v| v.to_string())
            .collect::<Vec<_>>()
            .join(", ")
    );
    emit(&out);
    Ok(())
}

/// A game of the shards in the game's own record notation, after a header.
fn export_text<G: Game>(game: &G, record: &data::GameRecord) -> Result<String, String> {
    let history = record.replay(game)?;
    let resigned = record.termination() == game::Termination::Resignation;
    Ok(format!(
        "{}\n{}",
        record.header(),
        game.record_text(&history, resigned)
    ))
}

fn export(args: ExportArgs) -> Result<(), CliError> {
    let shards = shards_of(&args.paths, None)?;
    let mut rows = Vec::new();
    let mut found_in = Vec::new();
    for shard in &shards {
        let reader = ShardReader::open(&shard.path).map_err(|e| CliError::input(e.to_string()))?;
        let found = reader
            .read_records()
            .map_err(|e| CliError::input(e.to_string()))?;
        let before = rows.len();
        rows.extend(found.into_iter().filter(|r| r.game_id == args.game));
        if rows.len() > before {
            found_in.push(shard.path.display().to_string());
        }
    }
    // A game is written whole into one shard: the same id in two shards
    // is two games (shards of two runs), never one to merge.
    if found_in.len() > 1 {
        return Err(CliError::input(format!(
            "game {} is in {} shards ({}): the ids of these shards collide; give the one shard to export from",
            args.game,
            found_in.len(),
            found_in.join(", ")
        )));
    }
    if rows.is_empty() {
        return Err(CliError::input(format!(
            "game {} not found in {} shard(s)",
            args.game,
            shards.len()
        )));
    }
    // The game's rows are all in this shard: errors about them name it.
    let shard = &found_in[0];
    let in_shard = |e: String| CliError::input(format!("{shard}: {e}"));
    let record = data::GameRecord::from_rows(rows).map_err(in_shard)?;
    let game = games::of_shard_files(&shards)?;
    let text = with_game!(game, |g| export_text(&g, &record)).map_err(in_shard)?;
    match &args.out {
        Some(path) => write_atomically(path, text.as_bytes()),
        None => {
            emit(&text);
            Ok(())
        }
    }
}
