//! `triad openings`: the opening tree of a set of shards, with results per
//! line (`data::openings::Report`), and the explorer page with it baked in
//! (`explore::static_page`).

use std::path::{Path, PathBuf};

use super::CliError;
use crate::cli::{emit, row_progress, write_atomically, GenerationsArg};
use crate::games::with_game;
use data::chart::{check_chart_path, write_first_move_chart};
use data::openings::{self, read_opening_games, Report};
use pipeline::inputs::shards_of;

#[derive(clap::Args)]
#[command(
    after_help = "Each line is a sequence of moves in canonical text from the start position.\n`games` counts games that began with the line, `share` is their fraction of\nall games, `of_parent` the fraction of the games reaching the line's last\nposition that chose its last move; W/D/B are White wins, draws, Black wins\n(percent of finished games); `length` is the mean game length in plies.\nOnly five columns are read and the rules run once per tree node.\n\nA run directory of `triad loop` (or its games/ folder) gives its self-play\nshards, games/gen-NNNN/*.parquet; its evaluation games (eval/) are read\nonly when named (`RUN/eval`).\n\nExamples:\n  triad openings runs/quickstart --plies 2\n  triad openings runs/quickstart --generations 5..8\n  triad openings runs/demo/shards --plies 4 --min-games 20\n  triad openings runs/demo/shards --format markdown --chart first-moves.svg\n  triad openings runs/quickstart --plies 6 --html openings.html   (a page to open in a browser)"
)]
pub struct Args {
    /// Shard files, directories of shards, or run directories (their
    /// self-play shards games/gen-NNNN/*.parquet, not their evaluation games
    /// in eval/).
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    #[command(flatten)]
    generations: GenerationsArg,
    /// Depth of the tree in plies.
    #[arg(long, default_value_t = 2)]
    plies: usize,
    /// Leave out lines played in fewer games (and everything below them).
    #[arg(long, default_value_t = 1)]
    min_games: u64,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Table)]
    format: Format,
    /// Also draw first-move frequency and White's score to this file (.svg or .png).
    #[arg(long, value_name = "FILE")]
    chart: Option<PathBuf>,
    /// Also write the tree as one self-contained explorer page (the page of
    /// `triad explore`, no server needed) to FILE: boards, moves, results
    /// and the share per generation of every line to --plies with at least
    /// --min-games games. Meant for trees of a few thousand lines.
    #[arg(long, value_name = "FILE")]
    html: Option<PathBuf>,
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum Format {
    Table,
    Csv,
    Json,
    Markdown,
}

impl From<Format> for openings::Format {
    fn from(f: Format) -> openings::Format {
        match f {
            Format::Table => openings::Format::Table,
            Format::Csv => openings::Format::Csv,
            Format::Json => openings::Format::Json,
            Format::Markdown => openings::Format::Markdown,
        }
    }
}

pub fn run(args: Args) -> Result<(), CliError> {
    if args.plies == 0 {
        return Err(CliError::input("--plies must be at least 1"));
    }
    if let Some(chart) = &args.chart {
        check_chart_path(chart).map_err(|e| CliError::input(e.0))?;
    }
    let range = args.generations.parse()?;
    let shards = shards_of(&args.paths, range.as_ref())?;
    if let Some(html) = &args.html {
        write_html(html, &shards, args.plies, args.min_games)?;
    }
    let bar = row_progress(&shards, "reading");
    let games = read_opening_games(&shards, args.plies, |n| bar.inc(n))?;
    bar.finish_and_clear();
    let game = registry::of_shard_files(&shards)?;
    let report = with_game!(game, |g| Report::build(
        &g,
        &games,
        args.plies,
        args.min_games
    ))
    .map_err(CliError::input)?;
    emit(&report.render(args.format.into()));
    if let Some(path) = &args.chart {
        write_first_move_chart(path, &report.first_move_bars())
            .map_err(|e| CliError::input(e.0))?;
        eprintln!("chart written to {}", path.display());
    }
    Ok(())
}

/// Writes the explorer page of `shards` with the line tree baked in.
fn write_html(
    path: &Path,
    shards: &[data::ShardFile],
    plies: usize,
    min_games: u64,
) -> Result<(), CliError> {
    let game = registry::of_readable_shards(shards)?;
    let (page, positions) =
        with_game!(game, |g| explore::static_page(g, shards, plies, min_games))?;
    write_atomically(path, page.as_bytes())?;
    eprintln!(
        "explorer page with {positions} positions written to {} ({} KB)",
        path.display(),
        page.len() / 1024
    );
    Ok(())
}
