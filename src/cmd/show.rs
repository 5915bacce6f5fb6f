//! `triad show`: a position drawn in the terminal, and as an SVG picture
//! (`--svg`, the game's `GameState::drawing` through `game::draw::svg`).

pub use ::cli::flags::show::*;

use super::{print_json, CliError};
use crate::cli::{emit, write_atomically};
use crate::games::with_game;
use game::{Game, GameState};
use serde_json::json;
use std::path::Path;

pub fn run(args: Args) -> Result<(), CliError> {
    let game = registry::from_flag(&args.game)?;
    with_game!(game, |g| show(&g, &args))
}

fn show<G: Game>(game: &G, args: &Args) -> Result<(), CliError> {
    let pos = game::position_or_start(game, args.position.as_deref())?;
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
