//! The flags of `triad openings` (its `run` is `src/cmd/openings.rs`).

use super::GenerationsArg;
use std::path::PathBuf;

#[derive(clap::Args)]
#[command(
    after_help = "Each line is a sequence of moves in canonical text from the start position.\n`games` counts games that began with the line, `share` is their fraction of\nall games, `of_parent` the fraction of the games reaching the line's last\nposition that chose its last move; W/D/B are White wins, draws, Black wins\n(percent of finished games); `length` is the mean game length in plies.\nOnly five columns are read and the rules run once per tree node.\n\nA run directory of `triad loop` (or its games/ folder) gives its self-play\nshards, games/gen-NNNN/*.parquet; its evaluation games (eval/) are read\nonly when named (`RUN/eval`).\n\nExamples:\n  triad openings runs/quickstart --plies 2\n  triad openings runs/quickstart --generations 5..8\n  triad openings runs/demo/shards --plies 4 --min-games 20\n  triad openings runs/demo/shards --format markdown --chart first-moves.svg\n  triad openings runs/quickstart --plies 6 --html openings.html   (a page to open in a browser)"
)]
pub struct Args {
    /// Shard files, directories of shards, or run directories (their
    /// self-play shards games/gen-NNNN/*.parquet, not their evaluation games
    /// in eval/).
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
    #[command(flatten)]
    pub generations: GenerationsArg,
    /// Depth of the tree in plies.
    #[arg(long, default_value_t = 2)]
    pub plies: usize,
    /// Leave out lines played in fewer games (and everything below them).
    #[arg(long, default_value_t = 1)]
    pub min_games: u64,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Table)]
    pub format: Format,
    /// Also draw first-move frequency and White's score to this file (.svg or .png).
    #[arg(long, value_name = "FILE")]
    pub chart: Option<PathBuf>,
    /// Also write the tree as one self-contained explorer page (the page of
    /// `triad explore`, no server needed) to FILE: boards, moves, results
    /// and the share per generation of every line to --plies with at least
    /// --min-games games. Meant for trees of a few thousand lines.
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
}

#[derive(Clone, Copy, clap::ValueEnum)]
pub enum Format {
    Table,
    Csv,
    Json,
    Markdown,
}
