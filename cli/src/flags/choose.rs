//! The flags of `triad move` (its `run` is `src/cmd/choose.rs`).

#[derive(clap::Args)]
#[command(
    after_help = "Examples:\n  triad move --game connect4 --position 4453 --player mcts:sims=1000\n  \
triad move --position '<TFEN>' --player ab:depth=4 --json\n  \
triad move --game connect4 --position 44 --player net:ckpt/gen-0010.safetensors,sims=600"
)]
pub struct Args {
    /// The player: `random`, `ab:depth=N`, `mcts:sims=N`, `net:CKPT,sims=N`.
    #[arg(long, value_name = "SPEC")]
    pub player: String,
    /// The game, `NAME[/VARIANT]`.
    #[arg(long, default_value = super::DEFAULT_GAME, value_name = "GAME")]
    pub game: String,
    /// The position (the game's text; default: the start).
    #[arg(long, value_name = "TEXT")]
    pub position: Option<String>,
    /// Seeds the player's randomness.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Device of `net:` players.
    #[arg(long, default_value = "cpu")]
    pub device: String,
    /// Print one JSON object (`move`, `position`, `seconds`).
    #[arg(long)]
    pub json: bool,
    /// Answer many positions: read lines `POSITION [SEED]` from standard
    /// input (`-` is the start) and print one move per line, flushed, until
    /// the input ends. A bad line gets `error: …` and the loop goes on.
    #[arg(long, conflicts_with_all = ["position", "json"])]
    pub stdin: bool,
}
