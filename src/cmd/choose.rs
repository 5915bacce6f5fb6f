//! `triad move`: one player's move in one position, printed as move text:
//! the smallest interface for outside programs that pit their own engines
//! against triad's players (scripts/bench_openspiel_mcts.py does).

use super::{print_json, CliError};
use crate::games::with_game;
use eval::arena::players::build_player;
use eval::choose::{answer_line, choose_move};
use game::{Game, GameState};
use serde_json::json;

#[derive(clap::Args)]
#[command(
    after_help = "Examples:\n  triad move --game connect4 --position 4453 --player mcts:sims=1000\n  \
triad move --position '<TFEN>' --player ab:depth=4 --json\n  \
triad move --game connect4 --position 44 --player net:ckpt/gen-0010.safetensors,sims=600"
)]
pub struct Args {
    /// The player: `random`, `ab:depth=N`, `mcts:sims=N`, `net:CKPT,sims=N`.
    #[arg(long, value_name = "SPEC")]
    player: String,
    /// The game, `NAME[/VARIANT]`.
    #[arg(long, default_value = crate::games::DEFAULT_GAME, value_name = "GAME")]
    game: String,
    /// The position (the game's text; default: the start).
    #[arg(long, value_name = "TEXT")]
    position: Option<String>,
    /// Seeds the player's randomness.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Device of `net:` players.
    #[arg(long, default_value = "cpu")]
    device: String,
    /// Print one JSON object (`move`, `position`, `seconds`).
    #[arg(long)]
    json: bool,
    /// Answer many positions: read lines `POSITION [SEED]` from standard
    /// input (`-` is the start) and print one move per line, flushed, until
    /// the input ends. A bad line gets `error: …` and the loop goes on.
    #[arg(long, conflicts_with_all = ["position", "json"])]
    stdin: bool,
}

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
    let nets = pipeline::players::factory::<G>(device);
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
    let pos = game::position_to_move(game, args.position.as_deref()).map_err(CliError::input)?;
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
