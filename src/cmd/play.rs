//! `triad play`: a game against any player in the terminal.

pub use ::cli::flags::play::*;

use super::CliError;
use crate::games::with_game;
use eval::arena::players::{build_player, PlayerSpec};
use eval::play::{PlaySession, Reply, Step};
use game::{AlphaBetaState, Color, Game};
use std::io::{BufRead, Write};

pub fn run(args: Args) -> Result<(), CliError> {
    let game = registry::from_flag(&args.game)?;
    with_game!(game, |g| play(&g, &args))
}

fn play<G: Game>(g: &G, args: &Args) -> Result<(), CliError>
where
    G::State: AlphaBetaState,
{
    let spec = crate::cli::player_flag("--engine", &args.engine)?;
    let start = game::position_or_start(g, args.position.as_deref())
        .map_err(|e| CliError::input(format!("--position: {e}")))?;
    let human = if args.color == "black" {
        Color::Black
    } else {
        Color::White
    };
    let mut session = match spec {
        PlayerSpec::AlphaBeta(ab) => PlaySession::new(start, ab, human),
        other => {
            let device = model::ModelConfig::device_flag(&args.device)?;
            let nets = players::factory::<G>(device);
            let player = build_player(g, &other, args.seed, nets.as_deref())
                .map_err(|e| CliError::input(format!("--engine: {e}")))?;
            PlaySession::with_player(start, player, other.to_string(), human)
        }
    };
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    println!("{}", session.greeting());
    let mut show = true;
    loop {
        if show {
            print!("\n{}", session.diagram());
        }
        show = true;
        match session
            .step()
            .map_err(|e| CliError::failed(e.to_string()))?
        {
            Step::Over(text) => {
                println!("{text}");
                return Ok(());
            }
            Step::EngineMoved(text) => {
                println!("{text}");
                continue;
            }
            Step::PersonToMove => {}
        }
        print!("your move> ");
        std::io::stdout().flush().ok();
        let line = match lines.next() {
            Some(Ok(l)) => l,
            // Input that is not text (binary data piped in) is bad input.
            Some(Err(e)) if e.kind() == std::io::ErrorKind::InvalidData => {
                return Err(CliError::input(format!("reading input: {e}")))
            }
            Some(Err(e)) => return Err(CliError::failed(format!("reading input: {e}"))),
            None => {
                println!();
                return Ok(());
            }
        };
        match session.input(&line) {
            Reply::Quit => return Ok(()),
            Reply::Redraw => {}
            Reply::Stay(text) => {
                if let Some(text) = text {
                    println!("{text}");
                }
                show = false;
            }
        }
    }
}
