//! `triad solve`: the exact value of Connect Four positions, and of each
//! of their columns, by the perfect solver (`connect4::check`).

use super::{print_json, CliError};
use connect4::check::{self, Settings};
use connect4::Connect4;
use std::path::PathBuf;

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
    let game = registry::from_flag(&args.game)?;
    let Some(c4) = game.as_game::<Connect4>() else {
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
    let inputs =
        check::read_inputs(&args.positions, args.file.as_deref()).map_err(CliError::input)?;
    if inputs.is_empty() {
        return Err(CliError::input(
            "no positions: give move sequences (e.g. `triad solve 4453`) or --file",
        ));
    }
    let cases = check::prepare(c4, inputs, args.columns, args.check).map_err(CliError::input)?;
    let settings = Settings {
        depth: args.depth,
        columns: args.columns,
        table_bits: args.table_bits,
        check: args.check,
    };
    let bar = pipeline::bar_with(
        cases.len() as u64,
        "{bar:30} {pos}/{len} positions, {elapsed} (eta {eta})",
    );
    if cases.len() <= 1 {
        bar.set_draw_target(indicatif::ProgressDrawTarget::hidden());
    }
    let report = check::solve_all(c4, &cases, &settings, |_, line| {
        if !args.json {
            bar.suspend(|| println!("{line}"));
        }
        bar.inc(1);
    });
    bar.finish_and_clear();
    let n = report.positions.len();
    if args.json {
        let value = serde_json::to_value(&report).expect("a report serializes");
        print_json(&value);
    } else if n > 1 {
        eprintln!(
            "{n} positions in {:.2} s: mean {:.3} ms, {:.0} nodes",
            report.seconds,
            1000.0 * report.mean_seconds,
            report.mean_nodes
        );
    }
    if report.disagreements.is_empty() {
        if args.check {
            eprintln!("--check: all {n} positions agree");
        }
        Ok(())
    } else {
        for d in report.disagreements.iter().take(20) {
            eprintln!("{d}");
        }
        Err(CliError::failed(format!(
            "--check: {} of {n} positions disagree",
            report.disagreements.len()
        )))
    }
}
