//! `triad analysis`: the analysis engine for programs (KataGo's analysis
//! engine's protocol over JSON lines; `analysis`).

pub use ::cli::flags::analysis::*;

use super::CliError;
use crate::games::with_game;
use game::{AlphaBetaState, Game};
use std::io::Write;

pub fn run(args: Args) -> Result<(), CliError> {
    let game = registry::from_flag(&args.game)?;
    with_game!(game, |g| serve(&g, &args))
}

fn serve<G: Game>(game: &G, args: &Args) -> Result<(), CliError>
where
    G::State: AlphaBetaState,
{
    let spec = crate::cli::player_flag("--player", &args.player)?;
    let device = model::ModelConfig::device_flag(&args.device)?;
    let mut engine = analysis::Engine::new(game, &spec, args.seed, device)?;
    let mut out = std::io::stdout().lock();
    engine.serve(std::io::BufReader::new(std::io::stdin()), &mut |line| {
        writeln!(out, "{line}").and_then(|_| out.flush()).is_ok()
    })?;
    Ok(())
}
