//! The flags of `triad bench search` (its `run` is `src/cmd/bench/search.rs`).

/// Alpha-beta search speed.
///
/// Searches each of six fixed middle-game positions to a fixed node budget
/// and reports nodes per second, then searches the start position for one
/// second and reports the depth completed.
#[derive(clap::Args)]
pub struct Args {
    /// Nodes per middle-game position.
    #[arg(long, default_value_t = 1_000_000)]
    pub nodes: u64,
    /// Milliseconds for the start-position depth test.
    #[arg(long, default_value_t = 1000)]
    pub movetime: u64,
    /// The game, `NAME[/VARIANT]` (its fixed benchmark positions,
    /// `Game::bench_positions`).
    #[arg(long, default_value = super::super::DEFAULT_GAME, value_name = "GAME")]
    pub game: String,
    /// Print one JSON object instead.
    #[arg(long)]
    pub json: bool,
}
