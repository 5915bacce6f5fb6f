//! `triad analyze`: search one position with the alpha-beta engine and print
//! each completed depth, then the best move.

pub use ::cli::flags::analyze::*;

use super::CliError;
use crate::games::with_game;
use eval::search::Limits;
use game::{AlphaBetaState, Game};

pub fn run(args: Args) -> Result<(), CliError> {
    let game = registry::from_flag(&args.game)?;
    with_game!(game, |g| analyze(&g, &args))
}

fn analyze<G: Game>(game: &G, args: &Args) -> Result<(), CliError>
where
    G::State: AlphaBetaState,
{
    let pos = game::position_or_start(game, args.position.as_deref())
        .map_err(|e| CliError::input(format!("--position: {e}")))?;
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
    let limits = Limits {
        depth: args.depth,
        nodes: args.nodes,
        movetime: args.movetime,
    };
    let json = args.json;
    let analysis = eval::analyze::analyze(&pos, limits, args.hash, |line| {
        if !json {
            println!("{line}");
        }
    });
    if json {
        let value = serde_json::to_value(&analysis)
            .map_err(|e| CliError::failed(format!("cannot convert the analysis to JSON: {e}")))?;
        super::print_json(&value);
    } else {
        println!("{}", analysis.bestmove_line());
    }
    Ok(())
}
