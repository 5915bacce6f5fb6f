//! `triad replay`: replays a game record in the inventor's notation.

use super::{print_json, CliError};
use piratechnics::Position;
use serde_json::json;
use std::path::PathBuf;

#[derive(clap::Args)]
#[command(
    after_help = "The record has numbered lines `N) WHITE, BLACK;`; lines starting with\n`if`, `then`, `and` or `or` are variations and are skipped; `resigns` ends the game.\nExit status 1 when a move is illegal or cannot be resolved."
)]
pub struct Args {
    /// The record file.
    file: PathBuf,
    /// Start position (default: the standard start).
    #[arg(long)]
    tfen: Option<String>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args) -> Result<(), CliError> {
    let text = std::fs::read_to_string(&args.file)
        .map_err(|e| CliError::input(format!("cannot read {}: {e}", args.file.display())))?;
    let start = match &args.tfen {
        Some(t) => Position::from_tfen(t).map_err(|e| CliError::input(e.to_string()))?,
        None => Position::start(),
    };
    let r = piratechnics::replay(start, &text)
        .map_err(|e| CliError::failed(format!("{}: {e}", args.file.display())))?;
    let final_tfen = r.game.position().to_tfen();
    if args.json {
        print_json(&json!({
            "plies": r.plies.len(),
            "moves": r.plies.iter().map(|p| p.canonical.clone()).collect::<Vec<_>>(),
            "result": r.result_str(),
            "termination": r.termination().as_str(),
            "final_tfen": final_tfen,
            "warnings": r.warnings,
        }));
        return Ok(());
    }
    for w in &r.warnings {
        eprintln!("warning: {w}");
    }
    for (i, pair) in r.plies.chunks(2).enumerate() {
        let black = pair.get(1).map_or("", |p| p.canonical.as_str());
        println!("{}. {} {}", i + 1, pair[0].canonical, black);
    }
    println!("{final_tfen}");
    println!("result {} {}", r.result_str(), r.termination());
    Ok(())
}
