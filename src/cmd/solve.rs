//! `triad solve`: the exact value of Connect Four positions, and of each
//! of their columns, by the perfect solver (`connect4::check`).

pub use ::cli::flags::solve::*;

use super::{print_json, CliError};
use connect4::check::{self, Settings};
use connect4::Connect4;

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
    let inputs = check::read_inputs(&args.positions, args.file.as_deref())?;
    if inputs.is_empty() {
        return Err(CliError::input(
            "no positions: give move sequences (e.g. `triad solve 4453`) or --file",
        ));
    }
    let cases = check::prepare(c4, inputs, args.columns, args.check)?;
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
