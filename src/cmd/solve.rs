//! `triad solve`: the exact value of Connect Four positions, and of each
//! of their columns, by the perfect solver (`connect4::Solver`).

use super::{print_json, CliError};
use crate::games;
use connect4::{Connect4, Solver};
use game::Game;
use indicatif::{ProgressBar, ProgressStyle};
use serde_json::json;
use std::io::BufRead;
use std::path::PathBuf;
use std::time::Instant;

#[derive(clap::Args)]
#[command(
    after_help = "Scores follow Pascal Pons: from the side to move's view, 22 - k for a \
win with one's k-th stone (7x6; (cells + 1)/2 - k in general), 0 for a draw, negative for a \
loss. Positions are move sequences of 1-based columns (`4453`; `-` is the empty board).\n\n\
Examples:\n  triad solve 4453\n  triad solve 4453 --columns --json\n  \
triad solve --file ../shared/benchmarks/connect4/Test_L2_R1 --json\n  \
triad solve 44 --depth 8       (a horizon: wins and losses within 8 plies, else 0)"
)]
pub struct Args {
    /// Positions (move sequences); see --file for many.
    positions: Vec<String>,
    /// Read positions from this file, one per line (the first word of the
    /// line: Pons's test files work as they are); `-` reads standard input.
    #[arg(long, value_name = "FILE")]
    file: Option<PathBuf>,
    /// Also give the value of every column (`.` for a full column).
    #[arg(long)]
    columns: bool,
    /// Search only this many plies (a weaker player's view).
    #[arg(long, value_name = "PLIES")]
    depth: Option<u32>,
    /// The game: connect4 or connect4/WxH.
    #[arg(long, default_value = "connect4", value_name = "GAME")]
    game: String,
    /// Transposition table size, log2 of entries (9 bytes each).
    #[arg(long, default_value_t = 24, value_name = "BITS")]
    table_bits: u32,
    /// Print one JSON object: every position's score (and columns), nodes and time.
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args) -> Result<(), CliError> {
    let game = games::from_flag(&args.game)?;
    let Some(c4) = games::connect4(&game) else {
        return Err(CliError::input(format!(
            "--game {}: triad solve knows Connect Four only (connect4 or connect4/WxH)",
            args.game
        )));
    };
    if !(10..=30).contains(&args.table_bits) {
        return Err(CliError::input("--table-bits must be 10..=30"));
    }
    if args.depth == Some(0) {
        return Err(CliError::input("--depth must be at least 1"));
    }
    let texts = inputs(&args)?;
    if texts.is_empty() {
        return Err(CliError::input(
            "no positions: give move sequences (e.g. `triad solve 4453`) or --file",
        ));
    }
    let positions = texts
        .iter()
        .map(|t| {
            c4.parse_state(t)
                .map_err(|e| CliError::input(format!("position {:?}: {e}", game::clip(t, 80))))
        })
        .collect::<Result<Vec<_>, _>>()?;
    if let Some((t, _)) = texts.iter().zip(&positions).find(|(_, p)| p.is_won()) {
        return Err(CliError::input(format!(
            "position {t:?}: the game is already won, there is nothing to solve"
        )));
    }
    solve_all(c4, &args, &texts, &positions)
}

/// The position texts of the arguments and of --file.
fn inputs(args: &Args) -> Result<Vec<String>, CliError> {
    let mut texts = args.positions.clone();
    if let Some(path) = &args.file {
        let read = |r: &mut dyn BufRead| -> std::io::Result<Vec<String>> {
            let mut out = Vec::new();
            for line in r.lines() {
                let line = line?;
                if let Some(word) = line.split_whitespace().next() {
                    if !word.starts_with('#') {
                        out.push(word.to_string());
                    }
                }
            }
            Ok(out)
        };
        let lines = if path.as_os_str() == "-" {
            read(&mut std::io::stdin().lock())
        } else {
            std::fs::File::open(path).and_then(|f| read(&mut std::io::BufReader::new(f)))
        }
        .map_err(|e| CliError::input(format!("--file {}: {e}", path.display())))?;
        texts.extend(lines);
    }
    Ok(texts)
}

fn solve_all(
    game: &Connect4,
    args: &Args,
    texts: &[String],
    positions: &[connect4::Position],
) -> Result<(), CliError> {
    let mut solver = Solver::new(args.table_bits);
    let bar = if positions.len() > 1 {
        ProgressBar::new(positions.len() as u64)
    } else {
        ProgressBar::hidden()
    };
    bar.set_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} positions, {elapsed} (eta {eta})")
            .expect("valid template"),
    );
    let mut rows = Vec::new();
    let start = Instant::now();
    let mut total_nodes = 0u64;
    for (text, p) in texts.iter().zip(positions) {
        solver.reset_nodes();
        let t = Instant::now();
        let score = match args.depth {
            Some(d) => solver.solve_depth(p, d),
            None => solver.solve(p),
        };
        let columns = args.columns.then(|| solver.column_values(p));
        let secs = t.elapsed().as_secs_f64();
        total_nodes += solver.nodes;
        if !args.json {
            bar.suspend(|| {
                let cols = columns.as_ref().map(|c| {
                    let v: Vec<String> = c
                        .iter()
                        .map(|v| v.map_or(".".to_string(), |v| v.to_string()))
                        .collect();
                    format!("  columns {}", v.join(" "))
                });
                println!(
                    "{} {score}{}",
                    if text.is_empty() { "-" } else { text },
                    cols.unwrap_or_default()
                );
            });
        }
        rows.push(json!({
            "position": text,
            "score": score,
            "outcome": match score.signum() { 1 => "win", 0 => "draw", _ => "loss" },
            "columns": columns,
            "nodes": solver.nodes,
            "seconds": secs,
        }));
        bar.inc(1);
    }
    bar.finish_and_clear();
    let secs = start.elapsed().as_secs_f64();
    if args.json {
        print_json(&json!({
            "game": format!("{}/{}", Connect4::NAME, game.variant()),
            "depth": args.depth,
            "positions": rows,
            "mean_seconds": secs / positions.len() as f64,
            "mean_nodes": total_nodes as f64 / positions.len() as f64,
        }));
    } else if positions.len() > 1 {
        eprintln!(
            "{} positions in {secs:.2} s: mean {:.3} ms, {:.0} nodes",
            positions.len(),
            1000.0 * secs / positions.len() as f64,
            total_nodes as f64 / positions.len() as f64
        );
    }
    Ok(())
}
