//! `triad openings`: the opening tree of a set of shards, with results per line.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use super::data::{row_progress, shards_of, write_atomically};
use super::{print_json, CliError};
use data::openings::{read_opening_games, OpeningTree};
use serde_json::json;

#[derive(clap::Args)]
#[command(
    after_help = "Each line is a sequence of moves in canonical text from the start position.\n`games` counts games that began with the line, `share` is their fraction of\nall games, `of_parent` the fraction of the games reaching the line's last\nposition that chose its last move; W/D/B are White wins, draws, Black wins\n(percent of finished games); `length` is the mean game length in plies.\nOnly five columns are read and the rules run once per tree node.\n\nExamples:\n  triad openings runs/demo/shards --plies 4 --min-games 20\n  triad openings runs/demo/shards --format markdown --chart first-moves.svg"
)]
pub struct Args {
    /// Shard files or directories of shards.
    #[arg(required = true)]
    paths: Vec<PathBuf>,
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
    let shards = shards_of(&args.paths)?;
    let bar = row_progress(&shards, "reading");
    let games = read_opening_games(&shards, args.plies, |n| bar.inc(n))
        .map_err(|e| CliError::input(e.to_string()))?;
    bar.finish_and_clear();
    let tree = OpeningTree::build(&games, args.plies, |pos, m| pos.move_to_text(m))
        .map_err(CliError::input)?;
    let rows = rows_of(&tree, args.min_games);
    let starts: Vec<&str> = tree.roots.iter().map(|(t, _)| t.as_str()).collect();
    match args.format {
        Format::Json => print_json(&json!({
            "games": tree.total_games(),
            "plies": args.plies,
            "min_games": args.min_games,
            "start_positions": starts,
            "lines": rows.iter().map(|r| json!({
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
        })),
        Format::Csv => {
            println!("line,depth,games,share,of_parent,white_wins,draws,black_wins,unfinished,mean_length");
            for r in &rows {
                println!(
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
        Format::Markdown => {
            println!("| line | games | share | of parent | White | draw | Black | length |");
            println!("|---|---:|---:|---:|---:|---:|---:|---:|");
            for r in &rows {
                println!(
                    "| {} | {} | {:.1}% | {:.1}% | {:.1}% | {:.1}% | {:.1}% | {:.1} |",
                    r.line,
                    r.games,
                    100.0 * r.share,
                    100.0 * r.of_parent,
                    r.pct(0),
                    r.pct(1),
                    r.pct(2),
                    r.mean_length
                );
            }
        }
        Format::Table => {
            if starts.len() > 1 {
                println!(
                    "{} start positions; lines are grouped by start",
                    starts.len()
                );
            }
            println!(
                "{} games, lines to {} plies with at least {} games",
                tree.total_games(),
                args.plies,
                args.min_games
            );
            let width = rows
                .iter()
                .map(|r| r.line.len() + 2 * r.depth)
                .max()
                .unwrap_or(4)
                .max(4);
            println!(
                "{:width$}  {:>8} {:>7} {:>7} {:>6} {:>6} {:>6} {:>7}",
                "line", "games", "share", "parent", "White", "draw", "Black", "length"
            );
            for r in &rows {
                let indented = format!(
                    "{}{}",
                    "  ".repeat(r.depth - 1),
                    r.line.rsplit(' ').next().unwrap_or("")
                );
                println!(
                    "{:width$}  {:>8} {:>6.1}% {:>6.1}% {:>5.1}% {:>5.1}% {:>5.1}% {:>7.1}",
                    indented,
                    r.games,
                    100.0 * r.share,
                    100.0 * r.of_parent,
                    r.pct(0),
                    r.pct(1),
                    r.pct(2),
                    r.mean_length
                );
            }
        }
    }
    if let Some(path) = &args.chart {
        let first: Vec<&Row> = rows.iter().filter(|r| r.depth == 1).collect();
        write_chart(path, &first)?;
        eprintln!("chart written to {}", path.display());
    }
    Ok(())
}

fn rows_of(tree: &OpeningTree, min_games: u64) -> Vec<Row> {
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

/// Chart data: first moves, most played first (at most 30 bars).
struct Bar {
    label: String,
    share: f64,
    score: f64,
}

fn bars(rows: &[&Row]) -> Vec<Bar> {
    rows.iter()
        .take(30)
        .map(|r| {
            let finished = (r.results[0] + r.results[1] + r.results[2]).max(1) as f64;
            Bar {
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
    let svg = chart_svg(&bars);
    if path.extension().and_then(|e| e.to_str()) == Some("png") {
        return chart_png(path, &bars);
    }
    write_atomically(path, svg.as_bytes())
}

const CHART_W: f64 = 900.0;
const CHART_H: f64 = 420.0;
const LEFT: f64 = 60.0;
const RIGHT: f64 = 60.0;
const TOP: f64 = 40.0;
const BOTTOM: f64 = 90.0;

/// A hand-written SVG: bars for the share of games, dots for White's score
/// (right axis). Hand-written because it needs no font or drawing library.
fn chart_svg(bars: &[Bar]) -> String {
    let plot_w = CHART_W - LEFT - RIGHT;
    let plot_h = CHART_H - TOP - BOTTOM;
    let max_share = bars.iter().map(|b| b.share).fold(0.0, f64::max).max(1e-9);
    let slot = plot_w / bars.len() as f64;
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{CHART_W}" height="{CHART_H}" font-family="sans-serif" font-size="12">"#
    );
    let _ = writeln!(s, r#"<rect width="100%" height="100%" fill="white"/>"#);
    let _ = writeln!(
        s,
        r#"<text x="{}" y="22" text-anchor="middle" font-size="15">First moves: share of games (bars) and White's score (dots)</text>"#,
        CHART_W / 2.0
    );
    for i in 0..=4 {
        let f = i as f64 / 4.0;
        let y = TOP + plot_h * (1.0 - f);
        let _ = writeln!(
            s,
            r##"<line x1="{LEFT}" y1="{y:.1}" x2="{:.1}" y2="{y:.1}" stroke="#ddd"/><text x="{:.1}" y="{:.1}" text-anchor="end">{:.0}%</text><text x="{:.1}" y="{:.1}" fill="#c0392b">{:.2}</text>"##,
            LEFT + plot_w,
            LEFT - 6.0,
            y + 4.0,
            100.0 * max_share * f,
            LEFT + plot_w + 6.0,
            y + 4.0,
            f
        );
    }
    for (i, b) in bars.iter().enumerate() {
        let x = LEFT + slot * i as f64;
        let h = plot_h * b.share / max_share;
        let _ = writeln!(
            s,
            r##"<rect x="{:.1}" y="{:.1}" width="{:.1}" height="{:.1}" fill="#2e86c1"><title>{}: {:.1}% of games, White scores {:.2}</title></rect>"##,
            x + slot * 0.15,
            TOP + plot_h - h,
            slot * 0.7,
            h,
            b.label,
            100.0 * b.share,
            b.score
        );
        let cy = TOP + plot_h * (1.0 - b.score);
        let _ = writeln!(
            s,
            r##"<circle cx="{:.1}" cy="{cy:.1}" r="4" fill="#c0392b"/>"##,
            x + slot / 2.0
        );
        let lx = x + slot / 2.0;
        let ly = TOP + plot_h + 10.0;
        let _ = writeln!(
            s,
            r#"<text x="{lx:.1}" y="{ly:.1}" transform="rotate(60 {lx:.1} {ly:.1})">{}</text>"#,
            b.label
        );
    }
    let _ = writeln!(
        s,
        r##"<line x1="{LEFT}" y1="{0:.1}" x2="{1:.1}" y2="{0:.1}" stroke="black"/></svg>"##,
        TOP + plot_h,
        LEFT + plot_w
    );
    s
}

fn chart_png(path: &Path, _bars: &[Bar]) -> Result<(), CliError> {
    Err(CliError::input(format!(
        "--chart {}: PNG output is not available yet; use .svg",
        path.display()
    )))
}
