//! The opening tree as `triad openings` prints it: one [`Row`] per line
//! kept (games, share, share of the parent, results, mean length), the
//! [`Report`] of those rows with the totals they came from, and its text
//! formats (table, CSV, JSON, Markdown) and the first moves' shares and
//! scores that `triad openings --chart` draws ([`FirstMove`]).

use std::fmt::Write as _;

use game::{Game, GameState};
use serde_json::json;

use super::{OpeningGame, OpeningTree};

/// How [`Report::render`] writes the tree.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// An indented table for the terminal.
    Table,
    /// One CSV row per line, with a header.
    Csv,
    /// One JSON object: totals and every line.
    Json,
    /// A Markdown table.
    Markdown,
}

/// One first move of the tree: what a bar of the first-move chart shows.
/// The chart itself is drawn by the `plot` crate, which the binary hands
/// these to as `plot::ChartBar`s: `data` stays free of drawing.
#[derive(Debug, Clone, PartialEq)]
pub struct FirstMove {
    /// The move, canonical text.
    pub label: String,
    /// Fraction of all games that began with it.
    pub share: f64,
    /// White's score in those games: (wins + draws / 2) / finished games.
    pub score: f64,
}

/// One output line of the tree.
#[derive(Debug, Clone)]
pub struct Row {
    /// The moves from the start, canonical text, space-separated.
    pub line: String,
    /// Plies in the line (1 for a first move).
    pub depth: usize,
    /// Games that began with the line.
    pub games: u64,
    /// Fraction of all games.
    pub share: f64,
    /// Fraction of the games reaching the line's last position that chose
    /// its last move.
    pub of_parent: f64,
    /// White wins, draws, Black wins, unfinished.
    pub results: [u64; 4],
    /// Mean game length in plies.
    pub mean_length: f64,
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

/// What `triad openings` prints: the rows of the tree and the totals they
/// came from.
#[derive(Debug, Clone)]
pub struct Report {
    /// The lines kept, in the tree's order (most played first under each
    /// parent).
    pub rows: Vec<Row>,
    /// Games in the tree.
    pub total_games: u64,
    /// The start positions, in order of first appearance.
    pub starts: Vec<String>,
    /// The depth of the tree (`--plies`).
    pub plies: usize,
    /// The games a line needs to be kept (`--min-games`).
    pub min_games: u64,
}

impl Report {
    /// Builds the tree of `games` in `game` to `plies` plies (moves named
    /// by `GameState::move_text`) and keeps the lines of at least
    /// `min_games` games. Fails as [`OpeningTree::build`] does.
    pub fn build<G: Game>(
        game: &G,
        games: &[OpeningGame],
        plies: usize,
        min_games: u64,
    ) -> Result<Report, crate::RecordError> {
        let tree = OpeningTree::build(game, games, plies, |pos, m| pos.move_text(m))?;
        Ok(Report::of_tree(&tree, min_games))
    }

    /// The rows of `tree` for lines of at least `min_games` games.
    pub fn of_tree<S: GameState>(tree: &OpeningTree<S>, min_games: u64) -> Report {
        Report {
            rows: rows_of(tree, min_games),
            total_games: tree.total_games(),
            starts: tree.roots.iter().map(|(t, _)| t.clone()).collect(),
            plies: tree.plies,
            min_games,
        }
    }

    /// The tree in `format`, ready for stdout.
    pub fn render(&self, format: Format) -> String {
        let mut out = String::new();
        match format {
            Format::Json => self.json(&mut out),
            Format::Csv => self.csv(&mut out),
            Format::Markdown => self.markdown(&mut out),
            Format::Table => self.table(&mut out),
        }
        out
    }

    /// The first moves (at most 30, most played first), for the chart.
    pub fn first_moves(&self) -> Vec<FirstMove> {
        self.rows
            .iter()
            .filter(|r| r.depth == 1)
            .take(30)
            .map(|r| {
                let finished = (r.results[0] + r.results[1] + r.results[2]).max(1) as f64;
                FirstMove {
                    label: r.line.clone(),
                    share: r.share,
                    score: (r.results[0] as f64 + 0.5 * r.results[1] as f64) / finished,
                }
            })
            .collect()
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

#[cfg(test)]
mod tests {
    use super::*;

    fn report() -> Report {
        let row = |line: &str, depth, games, share, of_parent, results, mean_length| Row {
            line: line.to_string(),
            depth,
            games,
            share,
            of_parent,
            results,
            mean_length,
        };
        Report {
            rows: vec![
                row("e4", 1, 3, 0.75, 0.75, [2, 1, 0, 0], 10.0),
                row("e4 e5", 2, 2, 0.5, 2.0 / 3.0, [1, 1, 0, 0], 12.0),
                row("d4", 1, 1, 0.25, 0.25, [0, 0, 0, 1], 8.0),
            ],
            total_games: 4,
            starts: vec!["start".into()],
            plies: 2,
            min_games: 1,
        }
    }

    #[test]
    fn the_text_formats_print_every_row() {
        let r = report();
        assert_eq!(
            r.render(Format::Table),
            "4 games, lines to 2 plies with at least 1 games\n\
             line     games   share  parent  White   draw  Black  length\n\
             e4           3   75.0%   75.0%  66.7%  33.3%   0.0%    10.0\n  \
             e5         2   50.0%   66.7%  50.0%  50.0%   0.0%    12.0\n\
             d4           1   25.0%   25.0%   0.0%   0.0%   0.0%     8.0\n"
        );
        assert_eq!(
            r.render(Format::Csv),
            "line,depth,games,share,of_parent,white_wins,draws,black_wins,unfinished,mean_length\n\
             \"e4\",1,3,0.750000,0.750000,2,1,0,0,10.00\n\
             \"e4 e5\",2,2,0.500000,0.666667,1,1,0,0,12.00\n\
             \"d4\",1,1,0.250000,0.250000,0,0,0,1,8.00\n"
        );
        assert_eq!(
            r.render(Format::Markdown),
            "| line | games | share | of parent | White | draw | Black | length |\n\
             |---|---:|---:|---:|---:|---:|---:|---:|\n\
             | e4 | 3 | 75.0% | 75.0% | 66.7% | 33.3% | 0.0% | 10.0 |\n\
             | e4 e5 | 2 | 50.0% | 66.7% | 50.0% | 50.0% | 0.0% | 12.0 |\n\
             | d4 | 1 | 25.0% | 25.0% | 0.0% | 0.0% | 0.0% | 8.0 |\n"
        );
        let json: serde_json::Value = serde_json::from_str(&r.render(Format::Json)).unwrap();
        assert_eq!(json["games"], 4);
        assert_eq!(json["start_positions"][0], "start");
        assert_eq!(json["lines"][1]["line"], "e4 e5");
        assert_eq!(json["lines"][2]["unfinished"], 1);
    }

    #[test]
    fn the_chart_has_the_first_moves_only() {
        let bars = report().first_moves();
        let labels: Vec<&str> = bars.iter().map(|b| b.label.as_str()).collect();
        assert_eq!(labels, ["e4", "d4"]);
        assert!((bars[0].score - 5.0 / 6.0).abs() < 1e-12);
        assert_eq!(bars[1].score, 0.0);
    }
}
