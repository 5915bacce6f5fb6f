//! `triad play`: a game against any player in the terminal.

use super::CliError;
use crate::games::with_game;
use eval::arena::players::{build_player, PlayerSpec};
use eval::play::{PlaySession, Reply, Step};
use game::{AlphaBetaState, Color, Game};
use std::io::{BufRead, Write};

/// Play against any player in the terminal: the alpha-beta engine (the
/// default), a network, MCTS, Connect Four's solver or random.
///
/// Enter moves in canonical form (`d2-d4`, `c8BR-f5`, `f7BRxd5P`,
/// `f4-b8=QQ`) or in the inventor's notation (`d2<PPP>-d4`, `f7BR x d5P`).
/// Commands: `help`, `moves` (list legal moves), `undo` (take back your last
/// move and the engine's reply), `quit`.
#[derive(clap::Args)]
pub struct Args {
    /// The opponent, any player spec: `ab:depth=D`, `ab:nodes=N` or
    /// `ab:movetime=MS` (with optional `random=CP,seed=S,hash=MB`),
    /// `net:CKPT,sims=N`, `mcts:sims=N`, `solver` (Connect Four), `random`.
    #[arg(long, visible_alias = "player", default_value = "ab:movetime=1000")]
    engine: String,
    /// Seeds the opponent's randomness (not `ab:`, whose spec has `seed=`).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Device of a `net:` opponent.
    #[arg(long, default_value = "cpu")]
    device: String,
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
            let nets = pipeline::players::factory::<G>(device);
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
        match session.step().map_err(CliError::failed)? {
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
