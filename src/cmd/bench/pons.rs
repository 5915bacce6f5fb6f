//! `triad bench pons`: how often a player's move in Pascal Pons's Connect
//! Four benchmark positions is worse than the best, by AlphaZero.jl's
//! definition: an error when the outcome class (win, draw, loss: the sign
//! of the exact value) of the chosen column is worse than the best
//! column's. Any winning move is right, however slow; in a lost position
//! nothing is an error. The exact values come from the `.moves` files
//! (`connect4::pons`); the scoring is `eval::suite`, which the loop's
//! `[eval] suite` runs every generation. The harness is `bench::pons`.

pub use ::cli::flags::bench::pons::*;

use super::print_figures;
use crate::cmd::CliError;
use ::bench::pons::{self as harness, PonsOptions};
use connect4::Connect4;
use eval::arena::players::build_player;
use game::Game;

pub fn run(args: Args) -> Result<(), CliError> {
    let spec = crate::cli::player_flag("--player", &args.player)?;
    if !(1..=256).contains(&args.threads) {
        return Err(CliError::input("--threads must be 1..=256"));
    }
    if args.sample == Some(0) {
        return Err(CliError::input("--sample must be at least 1"));
    }
    let device = model::ModelConfig::device_flag(&args.device)?;
    let any = registry::from_flag(&args.game)?;
    let Some(game) = any.as_game::<Connect4>().cloned() else {
        return Err(CliError::input(format!(
            "--game {}: the benchmark is Connect Four's (connect4 or connect4/WxH)",
            args.game
        )));
    };
    let nets = players::factory::<Connect4>(device);
    // A net: checkpoint must be a Connect Four 7x6 network: one probe
    // build gives the clean error before any work.
    build_player(&game, &spec, 0, nets.as_deref())
        .map_err(|e| CliError::input(format!("--player: {e}")))?;
    let files = if args.file.is_empty() {
        game.read_suite(&args.dir).map_err(|e| {
            CliError::input(format!(
                "{e} (--dir names the folder of Pons's files; positions of another board: --file)"
            ))
        })?
    } else {
        connect4::pons::read_suite_files(&game, &args.file)
            .map_err(|e| CliError::input(format!("--file: {e}")))?
    };
    let bar = pipeline::bar_with(
        0,
        "{bar:30} {pos}/{len} positions {msg} [{elapsed}, eta {eta}]",
    );
    let options = PonsOptions {
        sample: args.sample,
        threads: args.threads,
        misses: args.misses,
    };
    let f = harness::run(&game, &spec, nets.as_deref(), &files, &options, &bar)?;
    if args.json {
        print_figures(&f);
    } else {
        print!("{}", f.text());
        eprintln!("{} positions in {:.1} s", f.positions, f.seconds);
    }
    Ok(())
}
