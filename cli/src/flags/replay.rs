//! The flags of `triad replay` (its `run` is `src/cmd/replay.rs`).

use std::path::PathBuf;

#[derive(clap::Args)]
#[command(
    after_help = "The record has numbered lines `N) WHITE, BLACK;`; lines starting with\n`if`, `then`, `and` or `or` are variations and are skipped; `resigns` ends the game.\nA record written by `triad data export` names its game and start position in\nits header; replay reads both from there unless --game or --position say otherwise.\nExit status 1 when a move is illegal or cannot be resolved."
)]
pub struct Args {
    /// The record file.
    pub file: PathBuf,
    /// The game, `NAME[/VARIANT]` (default: the one named in the record's
    /// `Game N (P plies, NAME/VARIANT)` header, as `triad data export`
    /// writes it; without a header, piratechnics).
    #[arg(long, value_name = "GAME")]
    pub game: Option<String>,
    /// Start position in the game's text (default: the record header's
    /// `Start` line, else the variant's start).
    #[arg(long, alias = "tfen", value_name = "TEXT")]
    pub position: Option<String>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}
