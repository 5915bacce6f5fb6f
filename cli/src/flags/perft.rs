//! The flags of `triad perft` (its `run` is `src/cmd/perft.rs`).

use std::path::PathBuf;

#[derive(clap::Args)]
#[command(
    after_help = "Examples:\n  triad perft --depth 4\n  triad perft --depth 3 --position '<TFEN>' --divide\n  triad perft --game piratechnics/8x8 --depth 4\n  triad perft --suite games/piratechnics/vectors/perft.txt --max-depth 3"
)]
pub struct Args {
    /// Depth in plies (required unless --suite is given).
    #[arg(long, short)]
    pub depth: Option<u32>,
    /// The game, `NAME[/VARIANT]` (e.g. piratechnics/8x8).
    #[arg(long, default_value = super::DEFAULT_GAME, value_name = "GAME")]
    pub game: String,
    /// Position to start from, in the game's position text (TFEN for
    /// PiRaTeKnIcS; default: the start position).
    #[arg(long, alias = "tfen", value_name = "TEXT")]
    pub position: Option<String>,
    /// Print the count below each root move.
    #[arg(long)]
    pub divide: bool,
    /// Threads to split the root moves over.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Check every count of a vector file (`TFEN ; D1 n ; D2 n ...` per line).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["depth", "position", "divide"])]
    pub suite: Option<PathBuf>,
    /// With --suite: check counts up to this depth only.
    #[arg(long, value_name = "D")]
    pub max_depth: Option<u32>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}
