//! `triad openings`: the opening tree of a set of shards, with results per
//! line (`data::openings::Report`), and the explorer page with it baked in
//! (`explore::static_page`).

pub use ::cli::flags::openings::*;

use std::path::Path;

use super::CliError;
use crate::cli::{emit, row_progress, write_atomically};
use crate::games::with_game;
use data::openings::{read_opening_games, Report};
use pipeline::inputs::shards_of;
use plot::{check_chart_path, write_first_move_chart, ChartBar};

pub fn run(args: Args) -> Result<(), CliError> {
    if args.plies == 0 {
        return Err(CliError::input("--plies must be at least 1"));
    }
    if let Some(chart) = &args.chart {
        check_chart_path(chart)?;
    }
    let range = crate::cli::generations(&args.generations)?;
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
    ))?;
    emit(&report.render(match args.format {
        Format::Table => data::openings::Format::Table,
        Format::Csv => data::openings::Format::Csv,
        Format::Json => data::openings::Format::Json,
        Format::Markdown => data::openings::Format::Markdown,
    }));
    if let Some(path) = &args.chart {
        let bars: Vec<ChartBar> = report
            .first_moves()
            .into_iter()
            .map(|m| ChartBar {
                label: m.label,
                share: m.share,
                score: m.score,
            })
            .collect();
        write_first_move_chart(path, &bars)?;
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
