//! The flags of `triad play` (its `run` is `src/cmd/play.rs`).

/// Play against any player in the terminal: the alpha-beta engine (the
/// default), a network, MCTS, Connect Four's solver or random.
///
/// Enter moves in canonical form (`d2-d4`, `c8BR-f5`, `f7BRxd5P`,
/// `f4-b8=QQ`) or in the inventor's notation (`d2<PPP>-d4`, `f7BR x d5P`).
/// Commands: `help`, `moves` (list legal moves), `undo` (take back your last
/// move and the engine's reply), `quit`.
#[derive(clap::Args)]
pub struct Args {
    /// The opponent, any player spec: `ab:depth=D`, `ab:nodes=N` or
    /// `ab:movetime=MS` (with optional `random=CP,seed=S,hash=MB`),
    /// `net:CKPT,sims=N`, `mcts:sims=N`, `solver` (Connect Four), `random`.
    #[arg(long, visible_alias = "player", default_value = "ab:movetime=1000")]
    pub engine: String,
    /// Seeds the opponent's randomness (not `ab:`, whose spec has `seed=`).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Device of a `net:` opponent.
    #[arg(long, default_value = "cpu")]
    pub device: String,
    /// The side you play.
    #[arg(long, default_value = "white", value_parser = ["white", "black"])]
    pub color: String,
    /// The game, `NAME[/VARIANT]`.
    #[arg(long, default_value = super::DEFAULT_GAME, value_name = "GAME")]
    pub game: String,
    /// Start from this position (the game's text; TFEN for PiRaTeKnIcS)
    /// instead of the start position.
    #[arg(long, alias = "tfen", value_name = "TEXT")]
    pub position: Option<String>,
}
