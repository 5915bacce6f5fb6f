//! `triad eval`: matches between players (networks with search, alpha-beta
//! levels, random), with Elo, confidence intervals, SPRT and a ratings table.

use super::{print_json, CliError};
use crate::games::with_game;
use eval::arena::players::parse_players;
use eval::elo::parse_sprt;
use eval::report::Report;
use game::{AlphaBetaState, Game};
use indicatif::ProgressBar;
use pipeline::matchup::{self, MatchOptions, Progress};
use std::path::PathBuf;

#[derive(clap::Args)]
#[command(
    after_help = "Players: `random`, `ab:depth=3` / `ab:nodes=100000` / `ab:movetime=200`\n(optionally `,random=20,seed=7`), `mcts:sims=1000[,c=2]` (pure UCT with random playouts),\n`solver` / `solver:depth=8` (the game's exact solver: Connect Four), `net:CHECKPOINT,sims=64`\n(options: `algorithm=puct|gumbel`, `cpuct=F`, `mate_check=false`, `solver=true`, `leaf_eval=W`,\n`reuse=true`, `symmetry=average`; see docs/loop.md).\n\nExamples:\n  triad eval --players ab:depth=2,random --games 20\n  triad eval --players net:runs/q/gen3.safetensors,sims=32,ab:depth=1 --games 40 --sprt 0,50\n  triad eval --players random,ab:depth=1,ab:depth=2 --round-robin --games 10 --json"
)]
pub struct Args {
    /// Players separated by `,` before a new `random`/`ab:`/`mcts:`/`solver`/`net:` word; or repeat --players.
    #[arg(long, required = true, num_args = 1.., value_delimiter = ' ')]
    players: Vec<String>,
    /// Games per pairing (rounded up to an even number: colour-swapped pairs).
    #[arg(long, default_value_t = 20)]
    games: usize,
    /// Every player against every other (default: the first against the others).
    #[arg(long)]
    round_robin: bool,
    /// Stop a two-player match when the SPRT of elo0 against elo1 is decided.
    #[arg(long, value_name = "ELO0,ELO1")]
    sprt: Option<String>,
    /// The game, `NAME[/VARIANT]` (net: players must be networks of it).
    #[arg(long, default_value = crate::games::DEFAULT_GAME, value_name = "GAME")]
    game: String,
    /// Openings: a file of positions in the game's text (TFEN for
    /// PiRaTeKnIcS), one per line.
    #[arg(long, value_name = "FILE", conflicts_with = "random_plies")]
    openings: Option<PathBuf>,
    /// Openings made by this many random plies from the start.
    #[arg(long, default_value_t = 4)]
    random_plies: u32,
    /// Threads: games played at once; on the CPU with network players, the
    /// lockstep drivers, each playing many games whose leaves it batches.
    #[arg(long, default_value_t = 2)]
    threads: usize,
    /// Plies after which a game is scored a draw.
    #[arg(long, default_value_t = 300)]
    max_plies: usize,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Where `net:` players' networks run: auto (CUDA when available), cpu, cuda or cuda:N.
    #[arg(long, default_value = "auto")]
    device: String,
    /// Directory to save every game in (Parquet shard).
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// How a match with network players runs on the CPU: `lockstep` (many
    /// games per thread, their leaves batched through each network) or
    /// `game` (one game per thread, one leaf at a time: the older runner,
    /// kept to compare). On CUDA the players share an evaluation server
    /// either way.
    #[arg(long, default_value = "lockstep", value_name = "lockstep|game")]
    batching: String,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args) -> Result<(), CliError> {
    let game = registry::from_flag(&args.game)?;
    with_game!(game, |g| run_game(&g, args))
}

fn run_game<G: Game>(game: &G, args: Args) -> Result<(), CliError>
where
    G::State: AlphaBetaState,
{
    let (names, players) = parse_players(&args.players).map_err(CliError::input)?;
    let sprt = args
        .sprt
        .as_deref()
        .map(parse_sprt)
        .transpose()
        .map_err(CliError::input)?;
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
