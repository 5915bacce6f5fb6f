//! `triad analyze`: search one position with the alpha-beta engine and print
//! each completed depth, then the best move.

use super::CliError;
use crate::games::{self, with_game};
use eval::search::{Limits, Score, Searcher, DEFAULT_HASH_MB};
use game::{AlphaBetaState, Game, GameState};
use serde_json::json;

/// Search a position with the alpha-beta baseline engine.
///
/// Prints one line per completed depth (depth, score in pawns from the side
/// to move's view or `mate N`, nodes, nodes per second, principal variation
/// in canonical move text), then `bestmove MOVE`. Without a limit the search
/// runs to depth 6. Depth and node limits give the same result on every run.
#[derive(clap::Args)]
pub struct Args {
    /// The game, `NAME[/VARIANT]`.
    #[arg(long, default_value = crate::games::DEFAULT_GAME, value_name = "GAME")]
    game: String,
    /// The position in the game's text (TFEN, RULES.md §9.1, for
    /// PiRaTeKnIcS); the start position if omitted.
    #[arg(long, alias = "tfen", value_name = "TEXT")]
    position: Option<String>,
    /// Search this many plies deep.
    #[arg(long)]
    depth: Option<u32>,
    /// Stop after about this many nodes.
    #[arg(long)]
    nodes: Option<u64>,
    /// Stop after this many milliseconds.
    #[arg(long)]
    movetime: Option<u64>,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = DEFAULT_HASH_MB)]
    hash: usize,
    /// Print one JSON object {"bestmove", "score", "mate", "depth", "nodes", "pv"} instead.
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args) -> Result<(), CliError> {
    let game = games::from_flag(&args.game)?;
    with_game!(game, |g| analyze(&g, &args))
}

fn analyze<G: Game>(game: &G, args: &Args) -> Result<(), CliError>
where
    G::State: AlphaBetaState,
{
    let pos = match &args.position {
        Some(t) => game
            .parse_state(t)
            .map_err(|e| CliError::input(format!("--position: {e}")))?,
        None => game.start(),
    };
    if args.depth == Some(0) || args.depth.is_some_and(|d| d > eval::search::MAX_DEPTH) {
        return Err(CliError::input(format!(
            "--depth must be 1..={}",
            eval::search::MAX_DEPTH
        )));
    }
    if args.nodes == Some(0) || args.movetime == Some(0) {
        return Err(CliError::input("--nodes and --movetime must be positive"));
    }
    if !(1..=65536).contains(&args.hash) {
        return Err(CliError::input("--hash must be 1..=65536 MiB"));
    }
    let mut limits = Limits {
        depth: args.depth,
        nodes: args.nodes,
        movetime: args.movetime,
    };
    if !limits.is_set() {
        limits.depth = Some(6);
    }
    let mut searcher = Searcher::<G::State>::new(args.hash);
    let json = args.json;
    let result = searcher.search(&pos, &[], limits, |info| {
        if json {
            return;
        }
        let pv: Vec<String> = pv_text(&pos, &info.pv);
        println!(
            "depth {} seldepth {} score {} nodes {} nps {} time {} pv {}",
            info.depth,
            info.seldepth,
            info.score,
            info.nodes,
            info.nps(),
            info.time.as_millis(),
            pv.join(" ")
        );
    });
    let best = result.best.map(|m| pos.move_text(m));
    let outcome = pos.outcome(1);
    if json {
        let (score, mate) = match result.info.as_ref().map(|i| i.score) {
            Some(Score::Cp(cp)) => (json!(cp as f64 / 100.0), json!(null)),
            Some(Score::Mate(n)) => (json!(null), json!(n)),
            None if outcome.is_some_and(|o| o.result != game::GameResult::Draw) => {
                (json!(null), json!(0))
            }
            None => (json!(0.0), json!(null)),
        };
        let info = result.info.as_ref();
        super::print_json(&json!({
            "position": pos.to_text(),
            "bestmove": best,
            "score": score,
            "mate": mate,
            "depth": info.map_or(0, |i| i.depth),
            "seldepth": info.map_or(0, |i| i.seldepth),
            "nodes": result.nodes,
            "nps": info.map_or(0, |i| i.nps()),
            "time_ms": info.map_or(0, |i| i.time.as_millis() as u64),
            "pv": info.map_or_else(Vec::new, |i| pv_text(&pos, &i.pv)),
        }));
    } else {
        match best {
            Some(m) => println!("bestmove {m}"),
            None => println!(
                "bestmove (none): {}",
                outcome.map_or("no legal move".to_string(), |o| o.termination.to_string())
            ),
        }
    }
    Ok(())
}

/// The principal variation in canonical text, each move written in the
/// position it is played from.
fn pv_text<S: GameState>(pos: &S, pv: &[S::Move]) -> Vec<String> {
    let mut p = pos.clone();
    pv.iter()
        .map(|&m| {
            let t = p.move_text(m);
            p.apply(m);
            t
        })
        .collect()
}
