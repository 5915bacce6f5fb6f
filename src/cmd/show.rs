//! `triad show`: a position drawn in the terminal, and as an SVG picture
//! (`--svg`, the game's `GameState::drawing` through `game::draw::svg`).

use super::{print_json, CliError};
use crate::cli::{emit, write_atomically};
use crate::games::with_game;
use game::{Game, GameState};
use serde_json::json;
use std::path::{Path, PathBuf};

#[derive(clap::Args)]
#[command(
    after_help = "Examples:\n  triad show\n  triad show --game piratechnics/8x8 --moves\n  triad show --position '<TFEN>' --json\n  triad show --game influence --svg board.svg\n  triad show --game connect4 --position 4453 --svg - > rack.svg"
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
    /// Also write the position as an SVG picture to FILE (replaced
    /// atomically); `-` writes it to standard output instead of the diagram.
    #[arg(long, value_name = "FILE")]
    svg: Option<PathBuf>,
}

pub fn run(args: Args) -> Result<(), CliError> {
    let game = registry::from_flag(&args.game)?;
    with_game!(game, |g| show(&g, &args))
}

fn show<G: Game>(game: &G, args: &Args) -> Result<(), CliError> {
    let pos = game::position_or_start(game, args.position.as_deref()).map_err(CliError::input)?;
    if let Some(path) = &args.svg {
        let svg = game::draw::svg(&pos.drawing(), &[]);
        if path == Path::new("-") {
            if args.json || args.moves {
                return Err(CliError::input(
                    "--svg - writes the picture to standard output: give a file to --svg, or leave out --json and --moves",
                ));
            }
            emit(&svg);
            emit("\n");
            return Ok(());
        }
        write_atomically(path, svg.as_bytes())?;
    }
    let r = game::describe(game, &pos);
    if args.json {
        print_json(&json!({
            "game": r.game,
            "variant": r.variant,
            "position": r.position,
            "side": r.side,
            "outcome": r.outcome,
            "legal_moves": r.legal_moves,
        }));
        return Ok(());
    }
    print!("{}", pos.diagram());
    if args.moves {
        println!("{}", r.moves_line());
    }
    Ok(())
}
