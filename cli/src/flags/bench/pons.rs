//! The flags of `triad bench pons` (its `run` is `src/cmd/bench/pons.rs`).

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
    pub player: String,
    /// The board: connect4 (7x6, Pons's files) or connect4/WxH with --file
    /// (positions of that board, as `triad solve --game connect4/WxH
    /// --columns` labels them)
    #[arg(long, default_value = "connect4", value_name = "GAME")]
    pub game: String,
    /// The folder of Pons's files (`Test_L*_R*.moves`).
    #[arg(long, default_value = "benchmarks/connect4", value_name = "DIR")]
    pub dir: PathBuf,
    /// Score these files instead of Pons's six: any files in his `.moves`
    /// format (`moves score v1 .. v7`, as `triad solve --columns` writes),
    /// e.g. the held-out set benchmarks/connect4-heldout/Heldout.moves.
    #[arg(long, value_name = "FILE", num_args = 1.., conflicts_with = "dir")]
    pub file: Vec<PathBuf>,
    /// Positions per file: every k-th line so that about this many are
    /// used (default: all 1,000).
    #[arg(long, value_name = "N")]
    pub sample: Option<usize>,
    /// Positions played at once.
    #[arg(long, default_value_t = 2)]
    pub threads: usize,
    /// Device of `net:` players (cpu, cuda, cuda:N).
    #[arg(long, default_value = "cpu")]
    pub device: String,
    /// List the positions the player erred in after the table (each
    /// file's name, the position's number in it, its moves, the column
    /// played and the right ones); with --json, each file's `missed`.
    #[arg(long)]
    pub misses: bool,
    /// Print one JSON object: each file's error rate and counts.
    #[arg(long)]
    pub json: bool,
}
