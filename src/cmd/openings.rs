//! `triad openings`: the opening tree of a set of shards, with results per line.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use super::CliError;
use crate::cli::{emit, row_progress, shards_of, write_atomically, GenerationsArg};
use crate::games::{self, with_game};
use data::chart::{first_move_svg, write_first_move_png, ChartBar};
use data::openings::{read_opening_games, OpeningTree};
use game::GameState;
use serde_json::json;

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

/// One output line of the tree.
struct Row {
    line: String,
    depth: usize,
    games: u64,
    share: f64,
    of_parent: f64,
    results: [u64; 4],
    mean_length: f64,
}

impl Row {
    /// Share and share of the parent, then White wins, draws and Black wins
    /// (of finished games), all in percent: the columns of the text formats.
    fn percents(&self) -> [f64; 5] {
        [
            100.0 * self.share,
            100.0 * self.of_parent,
            self.pct(0),
            self.pct(1),
            self.pct(2),
        ]
    }

    fn pct(&self, i: usize) -> f64 {
        let finished = self.results[0] + self.results[1] + self.results[2];
        if finished == 0 {
            0.0
        } else {
            100.0 * self.results[i] as f64 / finished as f64
        }
    }
}

pub fn run(args: Args) -> Result<(), CliError> {
    if args.plies == 0 {
        return Err(CliError::input("--plies must be at least 1"));
    }
    if let Some(chart) = &args.chart {
        let ext = chart.extension().and_then(|e| e.to_str()).unwrap_or("");
        if ext != "svg" && ext != "png" {
            return Err(CliError::input(format!(
                "--chart {}: the file must end in .svg or .png",
                chart.display()
            )));
        }
    }
    let range = args.generations.parse()?;
    let shards = shards_of(&args.paths, range.as_ref())?;
    if let Some(html) = &args.html {
        write_html(html, &shards, args.plies, args.min_games)?;
    }
    let bar = row_progress(&shards, "reading");
    let games = read_opening_games(&shards, args.plies, |n| bar.inc(n))
        .map_err(|e| CliError::input(e.to_string()))?;
    bar.finish_and_clear();
    let game = games::of_shard_files(&shards)?;
    let tree = with_game!(game, |g| {
        let opening = OpeningTree::build(&g, &games, args.plies, |pos, m| pos.move_text(m))
            .map_err(CliError::input)?;
        Tree {
            rows: rows_of(&opening, args.min_games),
            total_games: opening.total_games(),
            starts: opening.roots.iter().map(|(t, _)| t.clone()).collect(),
            plies: args.plies,
            min_games: args.min_games,
        }
    });
    emit(&tree.render(args.format));
    if let Some(path) = &args.chart {
        let first: Vec<&Row> = tree.rows.iter().filter(|r| r.depth == 1).collect();
        write_chart(path, &first)?;
        eprintln!("chart written to {}", path.display());
    }
    Ok(())
}

/// What `run` prints: the rows of the tree and the totals they came from.
struct Tree {
    rows: Vec<Row>,
    total_games: u64,
    starts: Vec<String>,
    /// The depth and the games a line needs (`--plies`, `--min-games`).
    plies: usize,
    min_games: u64,
}

impl Tree {
    /// The tree in `format`, ready for stdout.
    fn render(&self, format: Format) -> String {
        let mut out = String::new();
        match format {
            Format::Json => self.json(&mut out),
            Format::Csv => self.csv(&mut out),
            Format::Markdown => self.markdown(&mut out),
            Format::Table => self.table(&mut out),
        }
        out
    }

    fn json(&self, out: &mut String) {
        let _ = writeln!(
            out,
            "{}",
            json!({
                "games": self.total_games,
                "plies": self.plies,
                "min_games": self.min_games,
                "start_positions": self.starts,
                "lines": self.rows.iter().map(|r| json!({
                    "line": r.line,
                    "depth": r.depth,
                    "games": r.games,
                    "share": r.share,
                    "of_parent": r.of_parent,
                    "white_wins": r.results[0],
                    "draws": r.results[1],
                    "black_wins": r.results[2],
                    "unfinished": r.results[3],
                    "mean_length": r.mean_length,
                })).collect::<Vec<_>>(),
            })
        );
    }

    fn csv(&self, out: &mut String) {
        let _ = writeln!(
            out,
            "line,depth,games,share,of_parent,white_wins,draws,black_wins,unfinished,mean_length"
        );
        for r in &self.rows {
            let _ = writeln!(
                out,
                "\"{}\",{},{},{:.6},{:.6},{},{},{},{},{:.2}",
                r.line,
                r.depth,
                r.games,
                r.share,
                r.of_parent,
                r.results[0],
                r.results[1],
                r.results[2],
                r.results[3],
                r.mean_length
            );
        }
    }

    fn markdown(&self, out: &mut String) {
        let _ = writeln!(
            out,
            "| line | games | share | of parent | White | draw | Black | length |"
        );
        let _ = writeln!(out, "|---|---:|---:|---:|---:|---:|---:|---:|");
        for r in &self.rows {
            let [share, parent, white, draw, black] = r.percents();
            let _ = writeln!(
                out,
                "| {} | {} | {share:.1}% | {parent:.1}% | {white:.1}% | {draw:.1}% | {black:.1}% | {:.1} |",
                r.line, r.games, r.mean_length
            );
        }
    }

    fn table(&self, out: &mut String) {
        if self.starts.len() > 1 {
            let _ = writeln!(
                out,
                "{} start positions; lines are grouped by start",
                self.starts.len()
            );
        }
        let _ = writeln!(
            out,
            "{} games, lines to {} plies with at least {} games",
            self.total_games, self.plies, self.min_games
        );
        let width = self
            .rows
            .iter()
            .map(|r| r.line.rsplit(' ').next().map_or(0, str::len) + 2 * (r.depth - 1))
            .max()
            .unwrap_or(4)
            .max(4);
        let _ = writeln!(
            out,
            "{:width$}  {:>8} {:>7} {:>7} {:>6} {:>6} {:>6} {:>7}",
            "line", "games", "share", "parent", "White", "draw", "Black", "length"
        );
        for r in &self.rows {
            let indented = format!(
                "{}{}",
                "  ".repeat(r.depth - 1),
                r.line.rsplit(' ').next().unwrap_or("")
            );
            let [share, parent, white, draw, black] = r.percents();
            let _ = writeln!(
                out,
                "{indented:width$}  {:>8} {share:>6.1}% {parent:>6.1}% {white:>5.1}% {draw:>5.1}% {black:>5.1}% {:>7.1}",
                r.games, r.mean_length
            );
        }
    }
}

/// Writes the explorer page of `shards` with the line tree baked in.
fn write_html(
    path: &Path,
    shards: &[data::ShardFile],
    plies: usize,
    min_games: u64,
) -> Result<(), CliError> {
    let game = games::of_readable_shards(shards)?;
    let (page, positions) = with_game!(game, |g| explore::static_page(g, shards, plies, min_games))
        .map_err(|e| CliError::input(e.to_string()))?;
    write_atomically(path, page.as_bytes())?;
    eprintln!(
        "explorer page with {positions} positions written to {} ({} KB)",
        path.display(),
        page.len() / 1024
    );
    Ok(())
}

fn rows_of<S: GameState>(tree: &OpeningTree<S>, min_games: u64) -> Vec<Row> {
    let total = tree.total_games().max(1) as f64;
    tree.lines(min_games)
        .into_iter()
        .map(|n| {
            let node = &tree.nodes[n];
            let parent_games = node
                .parent
                .map_or(node.stats.games, |p| tree.nodes[p].stats.games)
                .max(1) as f64;
            Row {
                line: tree.line(n).join(" "),
                depth: node.depth,
                games: node.stats.games,
                share: node.stats.games as f64 / total,
                of_parent: node.stats.games as f64 / parent_games,
                results: node.stats.results,
                mean_length: node.stats.mean_length(),
            }
        })
        .collect()
}

/// The first moves (at most 30, most played first) as chart bars.
fn bars(rows: &[&Row]) -> Vec<ChartBar> {
    rows.iter()
        .take(30)
        .map(|r| {
            let finished = (r.results[0] + r.results[1] + r.results[2]).max(1) as f64;
            ChartBar {
                label: r.line.clone(),
                share: r.share,
                score: (r.results[0] as f64 + 0.5 * r.results[1] as f64) / finished,
            }
        })
        .collect()
}

fn write_chart(path: &Path, rows: &[&Row]) -> Result<(), CliError> {
    let bars = bars(rows);
    if bars.is_empty() {
        return Err(CliError::input("no first moves to chart"));
    }
    if path.extension().and_then(|e| e.to_str()) == Some("png") {
        write_first_move_png(path, &bars).map_err(CliError::input)
    } else {
        write_atomically(path, first_move_svg(&bars).as_bytes())
    }
}
