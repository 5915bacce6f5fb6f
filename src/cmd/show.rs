//! `triad show`: a position drawn in the terminal.

use super::{print_json, CliError};
use crate::games::{self, with_game};
use game::{Game, GameState};
use serde_json::json;

#[derive(clap::Args)]
#[command(
    after_help = "Examples:\n  triad show\n  triad show --game piratechnics/8x8 --moves\n  triad show --position '<TFEN>' --json"
)]
pub struct Args {
    /// The game, `NAME[/VARIANT]`.
    #[arg(long, default_value = crate::games::DEFAULT_GAME, value_name = "GAME")]
    game: String,
    /// The position in the game's text (TFEN for PiRaTeKnIcS); default the
    /// start position.
    #[arg(long, alias = "tfen", value_name = "TEXT")]
    position: Option<String>,
    /// Also list the legal moves in canonical text.
    #[arg(long)]
    moves: bool,
    /// Print one JSON object (position, side, outcome, legal moves) instead.
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args) -> Result<(), CliError> {
    let game = games::from_flag(&args.game)?;
    with_game!(game, |g| show(&g, &args))
}

fn show<G: Game>(game: &G, args: &Args) -> Result<(), CliError> {
    let pos = match &args.position {
        Some(t) => game.parse_state(t).map_err(CliError::input)?,
        None => game.start(),
    };
    let mut legal = Vec::new();
    pos.legal_moves(&mut legal);
    let moves: Vec<String> = legal.iter().map(|&m| pos.move_text(m)).collect();
    let outcome = pos.terminal(!legal.is_empty(), 1);
    if args.json {
        print_json(&json!({
            "game": G::NAME,
            "variant": game.variant(),
            "position": pos.to_text(),
            "side": pos.side().to_string(),
            "outcome": outcome.map(|o| format!("{} {}", o.result, o.termination)),
            "legal_moves": moves,
        }));
        return Ok(());
    }
    print!("{}", pos.diagram());
    if args.moves {
        println!("{} legal moves: {}", moves.len(), moves.join(" "));
    }
    Ok(())
}
