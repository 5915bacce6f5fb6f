//! `triad analyze`: search one position with the alpha-beta engine and print
//! each completed depth, then the best move.

use super::CliError;
use crate::games::with_game;
use eval::search::{Limits, DEFAULT_HASH_MB};
use game::{AlphaBetaState, Game};

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
