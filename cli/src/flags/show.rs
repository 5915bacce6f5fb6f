//! The flags of `triad show` (its `run` is `src/cmd/show.rs`).

use std::path::PathBuf;

#[derive(clap::Args)]
#[command(
    after_help = "Examples:\n  triad show\n  triad show --game piratechnics/8x8 --moves\n  triad show --position '<TFEN>' --json\n  triad show --game influence --svg board.svg\n  triad show --game connect4 --position 4453 --svg - > rack.svg"
)]
pub struct Args {
    /// The game, `NAME[/VARIANT]`.
    #[arg(long, default_value = super::DEFAULT_GAME, value_name = "GAME")]
    pub game: String,
    /// The position in the game's text (TFEN for PiRaTeKnIcS); default the
    /// start position.
    #[arg(long, alias = "tfen", value_name = "TEXT")]
    pub position: Option<String>,
    /// Also list the legal moves in canonical text.
    #[arg(long)]
    pub moves: bool,
    /// Print one JSON object (position, side, outcome, legal moves) instead.
    #[arg(long)]
    pub json: bool,
    /// Also write the position as an SVG picture to FILE (replaced
    /// atomically); `-` writes it to standard output instead of the diagram.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
}
