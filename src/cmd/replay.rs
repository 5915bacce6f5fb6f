//! `triad replay`: replays a game record in the game's own notation (the
//! inventor's for PiRaTeKnIcS).

use super::{print_json, CliError};
use crate::games::with_game;
use game::Game;
use std::path::PathBuf;

#[derive(clap::Args)]
#[command(
    after_help = "The record has numbered lines `N) WHITE, BLACK;`; lines starting with\n`if`, `then`, `and` or `or` are variations and are skipped; `resigns` ends the game.\nA record written by `triad data export` names its game and start position in\nits header; replay reads both from there unless --game or --position say otherwise.\nExit status 1 when a move is illegal or cannot be resolved."
)]
pub struct Args {
    /// The record file.
    file: PathBuf,
    /// The game, `NAME[/VARIANT]` (default: the one named in the record's
    /// `Game N (P plies, NAME/VARIANT)` header, as `triad data export`
    /// writes it; without a header, piratechnics).
    #[arg(long, value_name = "GAME")]
    game: Option<String>,
    /// Start position in the game's text (default: the record header's
    /// `Start` line, else the variant's start).
    #[arg(long, alias = "tfen", value_name = "TEXT")]
    position: Option<String>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args) -> Result<(), CliError> {
    let text = std::fs::read_to_string(&args.file)
        .map_err(|e| CliError::input(format!("cannot read {}: {e}", args.file.display())))?;
    let name = match &args.game {
        Some(g) => g.clone(),
        None => data::header_game(&text).unwrap_or_else(|| crate::games::DEFAULT_GAME.to_string()),
    };
    let game = registry::from_flag(&name)?;
    with_game!(game, |g| replay(&g, &args, &text))
}

fn replay<G: Game>(game: &G, args: &Args, text: &str) -> Result<(), CliError> {
    let r = data::replay_record(game, text, args.position.as_deref()).map_err(|e| match e {
        data::ReplayError::Start(e) => CliError::input(e),
        data::ReplayError::Record(e) => CliError::failed(format!("{}: {e}", args.file.display())),
    })?;
    if args.json {
        print_json(&data::replay_json(&r));
        return Ok(());
    }
    for w in &r.warnings {
        eprintln!("warning: {w}");
    }
    print!("{}", data::replay_text(&r));
    Ok(())
}
