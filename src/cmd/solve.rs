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
win with one's k-th stone on 7x6 (on any board (cells + 1 - n)/2, n the stones before the \
winning one), 0 for a draw, negative for a loss. Positions are move sequences of 1-based \
columns (`4453`; `-` is the empty board). Exit status: 0 solved (and every --check \
agreed), 1 a --check that disagreed, 2 bad input.\n\n\
Output: one line per position in Pons's formats, `moves score` and with --columns `moves \
score v1 .. vW` (`.` a full column), so that it compares with his files.\n\n\
Examples:\n  triad solve 4453\n  triad solve 4453 --columns --json\n  \
triad solve --file benchmarks/connect4/Test_L2_R1 --check\n  \
triad solve --file benchmarks/connect4/Test_L2_R1.moves --columns --check\n  \
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
    /// Search only this many plies (a weaker player's view: wins and
    /// losses within them are exact, the rest counts as a draw); with
    /// --columns, each column's stone is the first of them.
    #[arg(long, value_name = "PLIES")]
    depth: Option<u32>,
    /// The game: connect4 or connect4/WxH.
    #[arg(long, default_value = "connect4", value_name = "GAME")]
    game: String,
    /// Transposition table size, log2 of entries (8 bytes each; 24: 128 MB).
    #[arg(long, default_value_t = 24, value_name = "BITS")]
    table_bits: u32,
    /// Compare with the expected values that follow each position in
    /// --file (`moves score`, or `moves score v1 .. vW` with --columns, as
    /// in Pons's files); exit 1 if any differs.
    #[arg(long, requires = "file", conflicts_with = "depth")]
    check: bool,
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
    let inputs = inputs(&args)?;
    if inputs.is_empty() {
        return Err(CliError::input(
            "no positions: give move sequences (e.g. `triad solve 4453`) or --file",
        ));
    }
    let width = args.columns.then_some(c4.size().width as usize);
    let mut positions = Vec::with_capacity(inputs.len());
    let mut expect = Vec::with_capacity(inputs.len());
    for input in &inputs {
        let t = &input.text;
        let p = c4.parse_state(t).map_err(|e| {
            CliError::input(format!(
                "{}: position {:?}: {e}",
                input.origin,
                game::clip(t, 80)
            ))
        })?;
        if p.is_won() {
            return Err(CliError::input(format!(
                "{}: position {t:?}: the game is already won, there is nothing to solve",
                input.origin
            )));
        }
        positions.push(p);
        if args.check {
            expect.push(expected(input, width)?);
        }
    }
    solve_all(c4, &args, &inputs, &positions, &expect)
}

/// One position to solve: its text, where it came from (for messages),
/// and the words after it on its line (expected values, for --check).
struct Input {
    text: String,
    origin: String,
    rest: Vec<String>,
}

/// The positions of the arguments and of --file (`#` starts a comment
/// line; `-` alone is the empty board).
fn inputs(args: &Args) -> Result<Vec<Input>, CliError> {
    let mut out: Vec<Input> = args
        .positions
        .iter()
        .enumerate()
        .map(|(i, t)| Input {
            text: t.clone(),
            origin: format!("argument {}", i + 1),
            rest: Vec::new(),
        })
        .collect();
    if let Some(path) = &args.file {
        let name = path.display().to_string();
        let mut read = |r: &mut dyn BufRead| -> std::io::Result<()> {
            for (i, line) in r.lines().enumerate() {
                let line = line?;
                let mut words = line.split_whitespace();
                if let Some(word) = words.next() {
                    if !word.starts_with('#') {
                        out.push(Input {
                            text: word.to_string(),
                            origin: format!("{name}:{}", i + 1),
                            rest: words.map(String::from).collect(),
                        });
                    }
                }
            }
            Ok(())
        };
        if path.as_os_str() == "-" {
            read(&mut std::io::stdin().lock())
        } else {
            std::fs::File::open(path).and_then(|f| read(&mut std::io::BufReader::new(f)))
        }
        .map_err(|e| CliError::input(format!("--file {name}: {e}")))?;
    }
    Ok(out)
}

/// The expected score and, with --columns, column values of a --check line.
type Expected = (i32, Option<Vec<Option<i32>>>);

fn expected(input: &Input, columns: Option<usize>) -> Result<Expected, CliError> {
    let bad = |what: String| CliError::input(format!("{}: --check: {what}", input.origin));
    let score = input
        .rest
        .first()
        .ok_or_else(|| bad("no expected score after the position".into()))?;
    let score = score
        .parse()
        .map_err(|_| bad(format!("expected score {score:?} is not a number")))?;
    let Some(width) = columns else {
        return Ok((score, None));
    };
    if input.rest.len() != 1 + width {
        return Err(bad(format!(
            "--columns needs {width} column values after the score (`.` for a full column), found {}",
            input.rest.len() - 1
        )));
    }
    let values = input.rest[1..]
        .iter()
        .map(|v| match v.as_str() {
            "." => Ok(None),
            v => v
                .parse()
                .map(Some)
                .map_err(|_| bad(format!("column value {v:?} is not a number or `.`"))),
        })
        .collect::<Result<_, _>>()?;
    Ok((score, Some(values)))
}

/// A line in Pons's formats: `moves score [v1 .. vW]`.
fn pons_line(text: &str, score: i32, columns: Option<&[Option<i32>]>) -> String {
    let mut line = format!("{} {score}", if text.is_empty() { "-" } else { text });
    for v in columns.unwrap_or_default() {
        line.push(' ');
        line.push_str(&v.map_or(".".to_string(), |v| v.to_string()));
    }
    line
}

fn solve_all(
    game: &Connect4,
    args: &Args,
    inputs: &[Input],
    positions: &[connect4::Position],
    expect: &[Expected],
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
    let mut disagreements = Vec::new();
    for (i, (input, p)) in inputs.iter().zip(positions).enumerate() {
        let text = &input.text;
        solver.reset_nodes();
        let t = Instant::now();
        let score = match args.depth {
            Some(d) => solver.solve_depth(p, d),
            None => solver.solve(p),
        };
        let columns = args.columns.then(|| match args.depth {
            Some(d) => solver.column_values_depth(p, d),
            None => solver.column_values(p),
        });
        let secs = t.elapsed().as_secs_f64();
        total_nodes += solver.nodes;
        let line = pons_line(text, score, columns.as_deref());
        let mut agrees = None;
        if let Some((want, want_columns)) = expect.get(i) {
            let ok = score == *want && (want_columns.is_none() || *want_columns == columns);
            if !ok {
                disagreements.push(format!(
                    "{}: solved `{line}`, expected `{}`",
                    input.origin,
                    pons_line(text, *want, want_columns.as_deref())
                ));
            }
            agrees = Some(ok);
        }
        if !args.json {
            bar.suspend(|| println!("{line}"));
        }
        rows.push(json!({
            "position": text,
            "score": score,
            "outcome": match score.signum() { 1 => "win", 0 => "draw", _ => "loss" },
            "columns": columns,
            "agrees": agrees,
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
            "checked": args.check,
            "disagreements": disagreements.len(),
        }));
    } else if positions.len() > 1 {
        eprintln!(
            "{} positions in {secs:.2} s: mean {:.3} ms, {:.0} nodes",
            positions.len(),
            1000.0 * secs / positions.len() as f64,
            total_nodes as f64 / positions.len() as f64
        );
    }
    if disagreements.is_empty() {
        if args.check {
            eprintln!("--check: all {} positions agree", positions.len());
        }
        Ok(())
    } else {
        for d in disagreements.iter().take(20) {
            eprintln!("{d}");
        }
        Err(CliError::failed(format!(
            "--check: {} of {} positions disagree",
            disagreements.len(),
            positions.len()
        )))
    }
}
