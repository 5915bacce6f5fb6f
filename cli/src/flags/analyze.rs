//! The flags of `triad analyze` (its `run` is `src/cmd/analyze.rs`).

use super::DEFAULT_HASH_MB;

/// Search a position with the alpha-beta baseline engine.
///
/// Prints one line per completed depth (depth, score in pawns from the side
/// to move's view or `mate N`, nodes, nodes per second, principal variation
/// in canonical move text), then `bestmove MOVE`. Without a limit the search
/// runs to depth 6. Depth and node limits give the same result on every run.
#[derive(clap::Args)]
pub struct Args {
    /// The game, `NAME[/VARIANT]`.
    #[arg(long, default_value = super::DEFAULT_GAME, value_name = "GAME")]
    pub game: String,
    /// The position in the game's text (TFEN, RULES.md §9.1, for
    /// PiRaTeKnIcS); the start position if omitted.
    #[arg(long, alias = "tfen", value_name = "TEXT")]
    pub position: Option<String>,
    /// Search this many plies deep.
    #[arg(long)]
    pub depth: Option<u32>,
    /// Stop after about this many nodes.
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Stop after this many milliseconds.
    #[arg(long)]
    pub movetime: Option<u64>,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = DEFAULT_HASH_MB)]
    pub hash: usize,
    /// Print one JSON object {"bestmove", "score", "mate", "depth", "nodes", "pv"} instead.
    #[arg(long)]
    pub json: bool,
}
