//! `triad replay`: replays a game record in the game's own notation (the
//! inventor's for PiRaTeKnIcS).

pub use ::cli::flags::replay::*;

use super::{print_json, CliError};
use crate::games::with_game;
use game::Game;

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
        data::ReplayError::Start(e) => CliError::from(e),
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
