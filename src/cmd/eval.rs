//! `triad eval`: matches between players (networks with search, alpha-beta
//! levels, random), with Elo, confidence intervals, SPRT, a ratings table
//! and each player's time and simulations per move.

pub use ::cli::flags::eval::*;

use super::{print_json, CliError};
use crate::games::with_game;
use eval::arena::players::parse_players;
use eval::elo::parse_sprt;
use eval::report::Report;
use game::{AlphaBetaState, Game};
use indicatif::ProgressBar;
use pipeline::matchup::{self, MatchOptions, Progress};

pub fn run(args: Args) -> Result<(), CliError> {
    let game = registry::from_flag(&args.game)?;
    with_game!(game, |g| run_game(&g, args))
}

fn run_game<G: Game>(game: &G, args: Args) -> Result<(), CliError>
where
    G::State: AlphaBetaState,
{
    let (names, players) =
        parse_players(&args.players).map_err(|e| CliError::input(e.to_string()))?;
    let sprt = args
        .sprt
        .as_deref()
        .map(parse_sprt)
        .transpose()
        .map_err(|e| CliError::input(e.to_string()))?;
    if sprt.is_some() && players.len() != 2 {
        return Err(CliError::input("--sprt needs exactly two players"));
    }
    let opts = MatchOptions {
        games: args.games,
        round_robin: args.round_robin,
        sprt,
        openings: args.openings.clone(),
        random_plies: args.random_plies,
        threads: args.threads,
        max_plies: args.max_plies,
        seed: args.seed,
        device: args.device.clone(),
        out: args.out.clone(),
        batching: args
            .batching
            .parse()
            .map_err(|e| CliError::input(format!("--batching: {e}")))?,
    };
    let mut bar = ProgressBar::hidden();
    let played = matchup::play(game, &players, &opts, &mut |event| match event {
        Progress::Start { games } => {
            bar = pipeline::bar_with(games as u64, "{bar:30} {pos}/{len} games {msg} [{elapsed}]");
        }
        Progress::Game(r) => {
            bar.inc(1);
            bar.set_message(format!(
                "first vs second: +{} ={} -{}",
                r.wins, r.draws, r.losses
            ));
        }
    })?;
    bar.finish_and_clear();
    if let (Some((n, path)), false) = (&played.saved, args.json) {
        eprintln!("saved {n} games to {}", path.display());
    }
    let report = Report {
        names: &names,
        players: &players,
        table: &played.table,
        round_robin: args.round_robin,
        clocks: &played.clocks,
    };
    if args.json {
        print_json(&report.json(sprt.map(|_| played.decision)));
    } else {
        print!(
            "{}",
            report.text(sprt.as_ref().map(|t| (t, played.decision)))
        );
    }
    Ok(())
}
