//! `triad play`: a game against the alpha-beta engine in the terminal.

use super::CliError;
use crate::games::{self, with_game};
use eval::search::{EngineSpec, Searcher};
use game::{AlphaBetaState, Color, Game, GameState, History};
use std::io::{BufRead, Write};

/// Play against the alpha-beta engine in the terminal.
///
/// Enter moves in canonical form (`d2-d4`, `c8BR-f5`, `f7BRxd5P`,
/// `f4-b8=QQ`) or in the inventor's notation (`d2<PPP>-d4`, `f7BR x d5P`).
/// Commands: `help`, `moves` (list legal moves), `undo` (take back your last
/// move and the engine's reply), `quit`.
#[derive(clap::Args)]
pub struct Args {
    /// The engine: `ab:depth=D`, `ab:nodes=N` or `ab:movetime=MS`, with
    /// optional `random=CP,seed=S,hash=MB`.
    #[arg(long, default_value = "ab:movetime=1000")]
    engine: String,
    /// The side you play.
    #[arg(long, default_value = "white", value_parser = ["white", "black"])]
    color: String,
    /// The game, `NAME[/VARIANT]`.
    #[arg(long, default_value = crate::games::DEFAULT_GAME, value_name = "GAME")]
    game: String,
    /// Start from this position (the game's text; TFEN for PiRaTeKnIcS)
    /// instead of the start position.
    #[arg(long, alias = "tfen", value_name = "TEXT")]
    position: Option<String>,
}

const HELP: &str = "commands: a move (d2-d4, c8BR-f5, f7BRxd5P, d2<PPP>-d4, ...), \
moves (list legal moves), undo (take back a move pair), help, quit";

pub fn run(args: Args) -> Result<(), CliError> {
    let game = games::from_flag(&args.game)?;
    with_game!(game, |g| play(&g, &args))
}

fn play<G: Game>(g: &G, args: &Args) -> Result<(), CliError>
where
    G::State: AlphaBetaState,
{
    let spec: EngineSpec = args
        .engine
        .parse()
        .map_err(|e: eval::search::EngineSpecError| CliError::input(format!("--engine: {e}")))?;
    let start = match &args.position {
        Some(t) => g
            .parse_state(t)
            .map_err(|e| CliError::input(format!("--position: {e}")))?,
        None => g.start(),
    };
    let human = if args.color == "black" {
        Color::Black
    } else {
        Color::White
    };
    let mut game = History::new(start);
    let mut engine = Searcher::<G::State>::from_spec(&spec);
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    println!("You play {human} against {spec}. {HELP}");
    let mut show = true;
    loop {
        if show {
            print!("\n{}", game.position().diagram());
        }
        show = true;
        if let Some(o) = game.outcome() {
            println!("Game over: {} ({})", o.result, o.termination);
            return Ok(());
        }
        let pos = game.position().clone();
        if pos.side() != human {
            let r = engine.search_game(&game, spec.limits, |_| {});
            let Some(m) = r.best else {
                // Cannot happen: outcome() reported moves exist.
                return Err(CliError::failed("engine found no move"));
            };
            let score = r.info.map(|i| i.score.to_string()).unwrap_or_default();
            println!(
                "engine plays {} (score {score}, {} nodes)",
                pos.move_text(m),
                r.nodes
            );
            game.play(m);
            continue;
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
        let input = line.trim();
        match input {
            "" => show = false,
            "quit" | "exit" => return Ok(()),
            "help" | "?" => {
                println!("{HELP}");
                show = false;
            }
            "moves" => {
                let mut legal = Vec::new();
                pos.legal_moves(&mut legal);
                let moves: Vec<String> = legal.iter().map(|&m| pos.move_text(m)).collect();
                println!("{} legal moves: {}", moves.len(), moves.join(" "));
                show = false;
            }
            "undo" => {
                // Back to the previous position with the human to move.
                let mut undone = 0;
                while game.undo().is_some() {
                    undone += 1;
                    if game.position().side() == human {
                        break;
                    }
                }
                if undone == 0 {
                    println!("nothing to undo");
                    show = false;
                }
            }
            text => match pos.parse_move(text) {
                Ok(m) if pos.is_legal(m) => game.play(m),
                Ok(m) => {
                    println!(
                        "illegal move: {} (type `moves` for the list)",
                        pos.move_text(m)
                    );
                    show = false;
                }
                Err(e) => {
                    println!("{e} (type `help` or `moves`)");
                    show = false;
                }
            },
        }
    }
}
