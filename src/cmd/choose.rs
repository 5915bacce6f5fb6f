//! `triad move`: one player's move in one position, printed as move text:
//! the smallest interface for outside programs that pit their own engines
//! against triad's players (scripts/bench_openspiel_mcts.py does).

pub use ::cli::flags::choose::*;

use super::{print_json, CliError};
use crate::games::with_game;
use eval::arena::players::build_player;
use eval::choose::{answer_line, choose_move};
use game::{Game, GameState};
use serde_json::json;

pub fn run(args: Args) -> Result<(), CliError> {
    let game = registry::from_flag(&args.game)?;
    with_game!(game, |g| run_game(&g, &args))
}

fn run_game<G: Game>(game: &G, args: &Args) -> Result<(), CliError>
where
    G::State: game::AlphaBetaState,
{
    let spec = crate::cli::player_flag("--player", &args.player)?;
    let device = model::ModelConfig::device_flag(&args.device)?;
    let nets = players::factory::<G>(device);
    // A bad spec or checkpoint fails here, before any position.
    build_player(game, &spec, args.seed, nets.as_deref())
        .map_err(|e| CliError::input(format!("--player: {e}")))?;
    if args.stdin {
        use std::io::{BufRead, Write};
        let stdin = std::io::stdin();
        let mut out = std::io::stdout();
        for line in stdin.lock().lines() {
            let line = line.map_err(|e| CliError::input(format!("standard input: {e}")))?;
            let answer = answer_line(game, &spec, args.seed, nets.as_deref(), &line);
            if writeln!(out, "{answer}").and_then(|_| out.flush()).is_err() {
                break;
            }
        }
        return Ok(());
    }
    let pos = game::position_to_move(game, args.position.as_deref())?;
    let choice = choose_move(game, &spec, args.seed, nets.as_deref(), &pos)
        .map_err(|e| CliError::input(format!("--player: {e}")))?;
    if args.json {
        print_json(
            &json!({"move": choice.text, "position": pos.to_text(), "player": spec.to_string(),
                           "seconds": choice.seconds}),
        );
    } else {
        println!("{}", choice.text);
    }
    Ok(())
}
