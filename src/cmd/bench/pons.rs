//! `triad bench pons`: how often a player's move in Pascal Pons's Connect
//! Four benchmark positions is worse than the best, by AlphaZero.jl's
//! definition: an error when the outcome class (win, draw, loss: the sign
//! of the exact value) of the chosen column is worse than the best
//! column's. Any winning move is right, however slow; in a lost position
//! nothing is an error. The exact values come from the `.moves` files
//! (`connect4::pons`); the scoring is `eval::suite`, which the loop's
//! `[eval] suite` runs every generation. The harness is `bench::pons`.

use super::print_figures;
use crate::cmd::CliError;
use ::bench::pons::{self as harness, PonsOptions};
use connect4::Connect4;
use eval::arena::players::build_player;
use game::Game;
use std::path::PathBuf;

#[derive(clap::Args)]
#[command(
    after_help = "Each position's player is built afresh (seeded by the position's \
index), so results do not depend on --threads. AlphaZero.jl's setting is a network with 600 \
simulations, temperature 0, no noise: `--player net:CKPT,sims=600` (net: players search \
without noise and play the most visited move).\n\nExamples:\n  \
triad bench pons --player ab:depth=5\n  \
triad bench pons --player mcts:sims=1000 --sample 100\n  \
triad bench pons --player ab:depth=5 --file benchmarks/connect4-heldout/Heldout.moves\n  \
triad bench pons --game connect4/6x5 --player ab:depth=5 --file heldout-6x5.moves\n  \
triad bench pons --player net:runs/c4/checkpoints/gen-0010.safetensors,sims=600 --json\n  \
triad bench pons --player net:runs/c4/networks/gen-0040.safetensors,sims=600 --misses"
)]
pub struct Args {
    /// The player: `random`, `ab:depth=N`, `mcts:sims=N`, `solver[:depth=N]`, `net:CKPT,sims=N`.
    #[arg(long, value_name = "SPEC")]
    player: String,
    /// The board: connect4 (7x6, Pons's files) or connect4/WxH with --file
    /// (positions of that board, as `triad solve --game connect4/WxH
    /// --columns` labels them)
    #[arg(long, default_value = "connect4", value_name = "GAME")]
    game: String,
    /// The folder of Pons's files (`Test_L*_R*.moves`).
    #[arg(long, default_value = "benchmarks/connect4", value_name = "DIR")]
    dir: PathBuf,
    /// Score these files instead of Pons's six: any files in his `.moves`
    /// format (`moves score v1 .. v7`, as `triad solve --columns` writes),
    /// e.g. the held-out set benchmarks/connect4-heldout/Heldout.moves.
    #[arg(long, value_name = "FILE", num_args = 1.., conflicts_with = "dir")]
    file: Vec<PathBuf>,
    /// Positions per file: every k-th line so that about this many are
    /// used (default: all 1,000).
    #[arg(long, value_name = "N")]
    sample: Option<usize>,
    /// Positions played at once.
    #[arg(long, default_value_t = 2)]
    threads: usize,
    /// Device of `net:` players (cpu, cuda, cuda:N).
    #[arg(long, default_value = "cpu")]
    device: String,
    /// List the positions the player erred in after the table (each
    /// file's name, the position's number in it, its moves, the column
    /// played and the right ones); with --json, each file's `missed`.
    #[arg(long)]
    misses: bool,
    /// Print one JSON object: each file's error rate and counts.
    #[arg(long)]
    json: bool,
}

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
    let nets = pipeline::players::factory::<Connect4>(device);
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
