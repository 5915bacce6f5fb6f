//! The flags of `triad bench env` (its `run` is `src/cmd/bench/env.rs`).

/// Environment loops: random play, with observations, batch encoding.
///
/// Three phases alternate for `--rounds` rounds, each `--seconds` long:
/// random games one at a time (legal moves, a random pick, the move, the
/// result by the rules with repetitions), the same with the network's
/// input planes written after every move, and positions encoded a batch at
/// a time into one buffer. Reports the median and spread of each rate.
#[derive(clap::Args)]
#[command(after_help = "Examples:\n  triad bench env --game connect4\n  \
triad bench env --game piratechnics --seconds 2 --rounds 5 --json")]
pub struct Args {
    /// The game, `NAME[/VARIANT]`.
    #[arg(long, default_value = super::super::DEFAULT_GAME, value_name = "GAME")]
    pub game: String,
    /// Seconds per phase and round.
    #[arg(long, default_value_t = 1.0)]
    pub seconds: f64,
    /// Rounds (the phases alternate within each).
    #[arg(long, default_value_t = 5)]
    pub rounds: usize,
    /// Positions per encoded batch.
    #[arg(long, default_value_t = 256)]
    pub batch: usize,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Print one JSON object instead.
    #[arg(long)]
    pub json: bool,
}
