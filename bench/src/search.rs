//! Alpha-beta search speed (`triad bench search`): nodes per second on the
//! game's fixed middle-game positions, and the depth completed from the
//! start position in a fixed time.

use crate::Error;
use eval::search::{Limits, Searcher};
use game::{AlphaBetaState, Game, GameState};
use indicatif::ProgressBar;
use serde::Serialize;
use std::time::Instant;

/// What to search.
#[derive(Clone, Debug)]
pub struct SearchOptions {
    /// Node budget per middle-game position.
    pub nodes: u64,
    /// Milliseconds for the start-position depth test.
    pub movetime: u64,
}

/// One middle-game position's search.
#[derive(Clone, Debug, Serialize)]
pub struct PositionFigures {
    /// The position, as the game writes it.
    pub position: String,
    /// Nodes searched.
    pub nodes: u64,
    /// Wall seconds.
    pub seconds: f64,
    /// Nodes per second.
    pub nps: u64,
    /// Depth completed (0 without legal moves).
    pub depth: u32,
}

/// The figures of `triad bench search` (its `--json` object).
#[derive(Clone, Debug, Serialize)]
pub struct SearchFigures {
    /// Nodes per second over all middle-game positions.
    pub nps: u64,
    /// Nodes searched over all middle-game positions.
    pub nodes: u64,
    /// Seconds they took.
    pub seconds: f64,
    /// Each middle-game position's search.
    pub positions: Vec<PositionFigures>,
    /// Depth completed from the start position in `start_movetime_ms`.
    pub start_depth: u32,
    /// The start position's time budget.
    pub start_movetime_ms: u64,
    /// Nodes searched from the start position.
    pub start_nodes: u64,
}

/// Searches each of `game`'s benchmark positions to the node budget, then
/// the start position for the movetime; `bar` counts the searches (its
/// length is set here).
pub fn run<G: Game>(
    game: &G,
    options: &SearchOptions,
    bar: &ProgressBar,
) -> Result<SearchFigures, Error>
where
    G::State: AlphaBetaState,
{
    let positions = game.bench_positions();
    if options.nodes == 0 || options.movetime == 0 {
        return Err(Error::Flag {
            flags: "--nodes and --movetime",
            requirement: "positive",
        });
    }
    bar.set_length(positions.len() as u64 + 1);
    let mut total_nodes = 0u64;
    let mut total_secs = 0.0f64;
    let mut per_position = Vec::new();
    for pos in &positions {
        let mut s = Searcher::<G::State>::new(64);
        let t = Instant::now();
        let r = s.search(pos, &[], Limits::nodes(options.nodes), |_| {});
        let secs = t.elapsed().as_secs_f64();
        total_nodes += r.nodes;
        total_secs += secs;
        per_position.push(PositionFigures {
            position: pos.to_text(),
            nodes: r.nodes,
            seconds: secs,
            nps: (r.nodes as f64 / secs) as u64,
            depth: r.info.map_or(0, |i| i.depth),
        });
        bar.inc(1);
    }
    let nps = (total_nodes as f64 / total_secs) as u64;

    let start = game.start();
    let mut s = Searcher::<G::State>::new(64);
    let r = s.search(&start, &[], Limits::movetime(options.movetime), |_| {});
    bar.finish_and_clear();
    Ok(SearchFigures {
        nps,
        nodes: total_nodes,
        seconds: total_secs,
        positions: per_position,
        start_depth: r.info.as_ref().map_or(0, |i| i.depth),
        start_movetime_ms: options.movetime,
        start_nodes: r.nodes,
    })
}
