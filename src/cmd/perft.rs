//! `triad perft`: leaf counts of the legal-move tree, for checking the move
//! generator against known counts and for measuring its speed.

pub use ::cli::flags::perft::*;

use super::{print_json, CliError};
use crate::cli::say;
use crate::games::with_game;
use game::Game;
use serde_json::json;
use std::path::PathBuf;

pub fn run(args: Args) -> Result<(), CliError> {
    let game = registry::from_flag(&args.game)?;
    with_game!(game, |g| run_game(&g, args))
}

fn run_game<G: Game>(game: &G, args: Args) -> Result<(), CliError> {
    if !(1..=1024).contains(&args.threads) {
        return Err(CliError::input("--threads must be 1..=1024"));
    }
    if let Some(path) = &args.suite {
        return suite(
            game,
            path,
            args.max_depth.unwrap_or(u32::MAX),
            args.threads,
            args.json,
        );
    }
    let depth = args
        .depth
        .ok_or_else(|| CliError::input("perft needs --depth N (or --suite FILE)"))?;
    let pos = game::position_or_start(game, args.position.as_deref())?;
    // Deeper than this is years of work (and the walk's buffers are per
    // ply); more threads than this are a typo, not a machine.
    if depth > game::MAX_PERFT_DEPTH {
        return Err(CliError::input(format!(
            "--depth must be at most {}",
            game::MAX_PERFT_DEPTH
        )));
    }
    let threads = args.threads;
    let report = game::timed_perft(&pos, depth, threads, args.divide);
    let (nodes, secs, nps) = (report.nodes, report.seconds, report.nodes_per_s());
    if args.json {
        print_json(&json!({"depth": depth, "nodes": nodes, "seconds": secs, "nodes_per_s": nps}));
    } else {
        print!("{}", report.text(depth, threads));
    }
    Ok(())
}

fn suite<G: Game>(
    game: &G,
    path: &PathBuf,
    max_depth: u32,
    threads: usize,
    json: bool,
) -> Result<(), CliError> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| CliError::input(format!("cannot read {}: {e}", path.display())))?;
    let (passed, failed) = game::perft_suite(game, &text, max_depth, threads, |m| say(json, m))
        .map_err(|e| CliError::input(format!("{}:{}: {}", path.display(), e.line, e.problem)))?;
    if json {
        print_json(&json!({"passed": passed, "failed": failed}));
    } else {
        println!("{passed} passed, {failed} failed");
    }
    if failed > 0 {
        Err(CliError::failed(format!(
            "{failed} perft counts did not match"
        )))
    } else {
        Ok(())
    }
}
