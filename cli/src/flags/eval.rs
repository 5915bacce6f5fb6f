//! The flags of `triad eval` (its `run` is `src/cmd/eval.rs`).

use std::path::PathBuf;

#[derive(clap::Args)]
#[command(
    after_help = "Players: `random`, `ab:depth=3` / `ab:nodes=100000` / `ab:movetime=200`\n(optionally `,random=20,seed=7`), `mcts:sims=1000[,c=2]` (pure UCT with random playouts),\n`solver` / `solver:depth=8` (the game's exact solver: Connect Four), `net:CHECKPOINT,sims=64`\n(options: `movetime=MS`, `algorithm=puct|gumbel`, `cpuct=F`, `mate_check=false`, `solver=true`,\n`leaf_eval=W`, `reuse=true`, `symmetry=average|random[:SALT]`, `lcb=5`; see docs/loop.md).\n`net:CHECKPOINT,movetime=200` searches each move for 200 ms of wall time, as `ab:movetime=200`\n(at least one simulation; `sims=N` then caps it); a match with one is played game by game, not\nin lockstep, and is not reproducible move for move. The report gives every player's mean time\nper move and each network's mean simulations per move.\n\nExamples:\n  triad eval --players ab:depth=2,random --games 20\n  triad eval --players net:runs/q/gen3.safetensors,sims=32,ab:depth=1 --games 40 --sprt 0,50\n  triad eval --players random,ab:depth=1,ab:depth=2 --round-robin --games 10 --json\n  triad eval --players net:runs/q/gen3.safetensors,movetime=100,ab:movetime=100 --games 20 --device cpu"
)]
pub struct Args {
    /// Players separated by `,` before a new `random`/`ab:`/`mcts:`/`solver`/`net:` word; or repeat --players.
    #[arg(long, required = true, num_args = 1.., value_delimiter = ' ')]
    pub players: Vec<String>,
    /// Games per pairing (rounded up to an even number: colour-swapped pairs).
    #[arg(long, default_value_t = 20)]
    pub games: usize,
    /// Every player against every other (default: the first against the others).
    #[arg(long)]
    pub round_robin: bool,
    /// Stop a two-player match when the SPRT of elo0 against elo1 is decided.
    #[arg(long, value_name = "ELO0,ELO1")]
    pub sprt: Option<String>,
    /// The game, `NAME[/VARIANT]` (net: players must be networks of it).
    #[arg(long, default_value = super::DEFAULT_GAME, value_name = "GAME")]
    pub game: String,
    /// Openings: a file of positions in the game's text (TFEN for
    /// PiRaTeKnIcS), one per line.
    #[arg(long, value_name = "FILE", conflicts_with = "random_plies")]
    pub openings: Option<PathBuf>,
    /// Openings made by this many random plies from the start.
    #[arg(long, default_value_t = 4)]
    pub random_plies: u32,
    /// Threads: games played at once; on the CPU with network players, the
    /// lockstep drivers, each playing many games whose leaves it batches.
    #[arg(long, default_value_t = 2)]
    pub threads: usize,
    /// Plies after which a game is scored a draw.
    #[arg(long, default_value_t = 300)]
    pub max_plies: usize,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Where `net:` players' networks run: auto (CUDA when available), cpu, cuda or cuda:N.
    #[arg(long, default_value = "auto")]
    pub device: String,
    /// Directory to save every game in (Parquet shard).
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// How a match with network players runs on the CPU: `lockstep` (many
    /// games per thread, their leaves batched through each network) or
    /// `game` (one game per thread, one leaf at a time: the older runner,
    /// kept to compare). On CUDA the players share an evaluation server
    /// either way.
    #[arg(long, default_value = "lockstep", value_name = "lockstep|game")]
    pub batching: String,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}
