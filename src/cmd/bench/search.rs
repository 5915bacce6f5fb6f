//! `triad bench search`: alpha-beta speed on fixed positions.

use crate::cmd::CliError;
use crate::games::{self, with_game};
use eval::search::{Limits, Searcher};
use game::{AlphaBetaState, Game, GameState};
use serde_json::json;
use std::time::Instant;

/// Alpha-beta search speed.
///
/// Searches each of six fixed middle-game positions to a fixed node budget
/// and reports nodes per second, then searches the start position for one
/// second and reports the depth completed.
#[derive(clap::Args)]
pub struct Args {
    /// Nodes per middle-game position.
    #[arg(long, default_value_t = 1_000_000)]
    nodes: u64,
    /// Milliseconds for the start-position depth test.
    #[arg(long, default_value_t = 1000)]
    movetime: u64,
    /// The game, `NAME[/VARIANT]` (its fixed benchmark positions,
    /// `Game::bench_positions`).
    #[arg(long, default_value = crate::games::DEFAULT_GAME, value_name = "GAME")]
    game: String,
    /// Print one JSON object instead.
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args) -> Result<(), CliError> {
    let game = games::from_flag(&args.game)?;
    with_game!(game, |g| bench(&g, &args))
}

fn bench<G: Game>(game: &G, args: &Args) -> Result<(), CliError>
where
    G::State: AlphaBetaState,
{
    let positions = game.bench_positions();
    if args.nodes == 0 || args.movetime == 0 {
        return Err(CliError::input("--nodes and --movetime must be positive"));
    }
    let bar = indicatif::ProgressBar::new(positions.len() as u64 + 1);
    bar.set_style(
        indicatif::ProgressStyle::with_template("{msg} [{bar:30}] {pos}/{len}")
            .expect("valid template"),
    );
    bar.set_message("bench search");
    let mut total_nodes = 0u64;
    let mut total_secs = 0.0f64;
    let mut per_position = Vec::new();
    for pos in &positions {
        let mut s = Searcher::<G::State>::new(64);
        let t = Instant::now();
        let r = s.search(pos, &[], Limits::nodes(args.nodes), |_| {});
        let secs = t.elapsed().as_secs_f64();
        total_nodes += r.nodes;
        total_secs += secs;
        per_position.push(json!({
            "position": pos.to_text(),
            "nodes": r.nodes,
            "seconds": secs,
            "nps": (r.nodes as f64 / secs) as u64,
            "depth": r.info.map_or(0, |i| i.depth),
        }));
        bar.inc(1);
    }
    let nps = (total_nodes as f64 / total_secs) as u64;

    let start = game.start();
    let mut s = Searcher::<G::State>::new(64);
    let r = s.search(&start, &[], Limits::movetime(args.movetime), |_| {});
    bar.finish_and_clear();
    let depth = r.info.as_ref().map_or(0, |i| i.depth);
    let start_nodes = r.nodes;
    if args.json {
        crate::cmd::print_json(&json!({
            "nps": nps,
            "nodes": total_nodes,
            "seconds": total_secs,
            "positions": per_position,
            "start_depth": depth,
            "start_movetime_ms": args.movetime,
            "start_nodes": start_nodes,
        }));
    } else {
        for p in &per_position {
            println!(
                "{:>9} nodes {:>10} nps depth {:>2}  {}",
                p["nodes"],
                p["nps"],
                p["depth"],
                p["position"].as_str().unwrap_or("")
            );
        }
        println!("middle-game: {total_nodes} nodes in {total_secs:.2} s = {nps} nodes/s");
        println!(
            "start position: depth {depth} completed in {} ms ({start_nodes} nodes)",
            args.movetime
        );
    }
    Ok(())
}
