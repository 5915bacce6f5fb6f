//! The flags of `triad analysis` (its `run` is `src/cmd/analysis.rs`).

/// Analyse positions for programs: one JSON query per line on standard
/// input, one JSON answer per line on standard output.
#[derive(clap::Args)]
#[command(
    after_help = "A query (KataGo's field names): {\"id\": \"q1\", \"moves\": [\"4\", \"4\", \"5\"], \
\"maxVisits\": 200} with optional \"initialPosition\" (a position text as --position takes it; \
default the start), \"maxTime\" (seconds), \"analyzeTurns\" (positions after that many moves), \
\"reportDuringSearchEvery\" (seconds). The answer: {\"id\", \"turnNumber\", \"isDuringSearch\", \
\"moveInfos\": [{\"move\", \"visits\", \"winrate\", \"prior\", \"pv\", \"order\", ...}], \"rootInfo\": \
{\"visits\", \"winrate\", \"currentPlayer\", ...}}; winrates are the side to move's expected \
score (win 1, draw 1/2, loss 0). A refused query gets {\"id\", \"error\"} and the engine goes on. \
With a net: player, queries are searched together and their leaves batched through the network; \
answers may come out of order (match them by id). docs/analysis.md has the whole protocol.

Examples:
  echo '{\"id\":\"a\",\"moves\":[\"4\",\"4\"]}' | triad analysis --game connect4 --player solver
  triad analysis --game connect4 --player net:runs/c4/networks/gen-0019.safetensors,sims=200 < queries.jsonl
  echo '{\"id\":\"b\",\"maxTime\":1}' | triad analysis --player ab:depth=4"
)]
pub struct Args {
    /// The player: `net:CKPT,sims=N`, `mcts:sims=N`, `ab:depth=N`,
    /// `solver` (Connect Four) or `random`.
    #[arg(long, value_name = "SPEC")]
    pub player: String,
    /// The game, `NAME[/VARIANT]`.
    #[arg(long, default_value = super::DEFAULT_GAME, value_name = "GAME")]
    pub game: String,
    /// Seeds the player's randomness.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Device of a `net:` player.
    #[arg(long, default_value = "cpu")]
    pub device: String,
}
