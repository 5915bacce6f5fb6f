//! The flags of `triad explore` (its `run` is `src/cmd/explore.rs`).

use super::GenerationsArg;
use std::net::IpAddr;
use std::path::PathBuf;

#[derive(clap::Args)]
#[command(
    after_help = "Opens an explorer over the games: the board of the current position, the \
moves played from it (games, share, White/draw/Black, the mover's score with a 95% interval, \
mean game length), a chart of each move's share per generation, the games through the \
position and a viewer that steps through any of them with the search's visits on the board. \
`Play & analyse` plays a game from the position against any player (`ab:depth=3`, \
`net:CKPT,sims=200`, `mcts:sims=1000`, `solver`, `random`), takes moves back and saves the game \
under --games-dir as a record (`triad replay` reads it) and a shard; `analyse` runs the analysis \
engine of `triad analysis` on the position and shows its moves, visits, values, priors and \
lines as the search goes, with the network's raw view and, for Connect Four, the solver's \
value of every move. \
Positions merge by hash (transpositions) unless the page's `by line` box is ticked, which \
counts each sequence of moves on its own as `triad openings` does. With --net, the network's \
prior for every legal move and its W/D/L for the position stand beside what was played.

The index of every row is built in memory at start (about 1 s per million rows on one core; \
the line `indexed ...` says how long it took). A shard that cannot be read is skipped and \
named on the page. The server binds to 127.0.0.1 unless --bind says otherwise, and serves \
only its page and the answers about the data it was given.

Serving a team: with --bind beyond loopback (e.g. 0.0.0.0), every request needs an access \
token, --token or TRIAD_EXPLORE_TOKEN, else one made at start and printed as \
`open http://HOST:PORT/?token=...` (open that URL; the page keeps the token in a cookie; \
other clients send `Authorization: Bearer TOKEN`). A `net:` player is then named, not given \
by path: `net:gen-0019,sims=200` is the checkpoint gen-0019.safetensors of a run's networks/ \
folder among the paths, or of a --models folder. --token or --models on loopback turn the \
same on. Searches (analyses, replies) are bounded per client (IP address) and in all; past \
that a request is answered 429. On loopback without these flags, `net:` takes any path.

Examples:
  triad explore runs/quickstart
  triad explore runs/c4 --net runs/c4/networks/gen-0019.safetensors
  triad explore runs/quickstart/games/gen-0005 --port 8100
  triad explore --game connect4 --games-dir my-games      (no data: play and analyse)
  triad openings runs/quickstart --plies 4 --html openings.html   (the same page, no server)"
)]
pub struct Args {
    /// Shard files, directories of shards, or run directories (their
    /// self-play shards, games/gen-NNNN/*.parquet; `RUN/eval` for matches).
    #[arg(required_unless_present = "game")]
    pub paths: Vec<PathBuf>,
    /// No games: open an empty explorer of this game, `NAME[/VARIANT]`, to
    /// play and analyse from its start or any position text.
    #[arg(long, value_name = "GAME", conflicts_with = "paths")]
    pub game: Option<String>,
    #[command(flatten)]
    pub generations: GenerationsArg,
    /// A checkpoint (`.safetensors` with its sidecar) of the shards' game:
    /// its prior per legal move and W/D/L are shown for each position.
    #[arg(long, value_name = "CHECKPOINT")]
    pub net: Option<PathBuf>,
    /// The port (0: any free one; the line `listening on …` names it).
    #[arg(long, default_value_t = 8077)]
    pub port: u16,
    /// The address to listen on. Anything but loopback exposes the data to
    /// the network.
    #[arg(long, default_value = "127.0.0.1")]
    pub bind: IpAddr,
    /// The access token every request must carry (8 or more of A-Z a-z
    /// 0-9 - . _ ~; or the environment's TRIAD_EXPLORE_TOKEN). Without
    /// either, one is made at start when --bind is not loopback. On
    /// loopback it turns the token on.
    #[arg(long, value_name = "TOKEN")]
    pub token: Option<String>,
    /// A folder of checkpoints a request may name as `net:NAME` (the file
    /// stem); repeatable. With it, or with a token, or beyond loopback,
    /// `net:` takes only names (of these and of the runs' networks/), never
    /// a path.
    #[arg(long, value_name = "DIR")]
    pub models: Vec<PathBuf>,
    /// The most searches (analyses and replies) one client (IP address)
    /// may run at once; past it, 429.
    #[arg(long, value_name = "N", default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..))]
    pub max_searches_per_client: u32,
    /// The most searches the server runs at once; past it, 429.
    #[arg(long, value_name = "N", default_value_t = 8, value_parser = clap::value_parser!(u32).range(1..))]
    pub max_searches: u32,
    /// Build the index, print one JSON object with its size and build time,
    /// and exit without serving (for measurements).
    #[arg(long)]
    pub index_only: bool,
    /// Where the games played in the page are saved (a record and a
    /// shard each).
    #[arg(long, value_name = "DIR", default_value = "explore-games")]
    pub games_dir: PathBuf,
    /// Seeds the players and analyses of the page (as `triad analysis
    /// --seed`).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Device of `net:` players and analyses.
    #[arg(long, default_value = "cpu")]
    pub device: String,
}
