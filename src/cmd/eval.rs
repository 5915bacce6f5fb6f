//! `triad eval`: matches between players (networks with search, alpha-beta
//! levels, random), with Elo, confidence intervals, SPRT and a ratings table.

use super::{print_json, CliError};
use crate::games::{self, with_game};
use eval::arena::openings::{random_openings, read_openings};
use eval::arena::players::PlayerSpec;
use eval::arena::record::game_record;
use eval::arena::{self, RunOptions, Schedule, Table};
use eval::elo::{parse_sprt, SprtDecision, Wdl};
use game::{AlphaBetaState, Game};
use indicatif::{ProgressBar, ProgressStyle};
use serde_json::{json, Value};
use std::path::PathBuf;

#[derive(clap::Args)]
#[command(
    after_help = "Players: `random`, `ab:depth=3` / `ab:nodes=100000` / `ab:movetime=200`\n(optionally `,random=20,seed=7`), `mcts:sims=1000[,c=2]` (pure UCT with random playouts),\n`solver` / `solver:depth=8` (the game's exact solver: Connect Four), `net:CHECKPOINT,sims=64`\n(options: `algorithm=puct|gumbel`, `cpuct=F`, `mate_check=false`, `solver=true`, `leaf_eval=W`,\n`reuse=true`; see docs/loop.md).\n\nExamples:\n  triad eval --players ab:depth=2,random --games 20\n  triad eval --players net:runs/q/gen3.safetensors,sims=32,ab:depth=1 --games 40 --sprt 0,50\n  triad eval --players random,ab:depth=1,ab:depth=2 --round-robin --games 10 --json"
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
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

/// Splits `a,b,c` where specs themselves contain commas (`ab:depth=3,random=20`):
/// a new player starts at every item that begins a spec (`random`, `ab:`,
/// `mcts:`, `solver`, `net:`; see [`PlayerSpec::starts_spec`]).
pub fn split_players(items: &[String]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for item in items {
        for part in item.split(',') {
            let p = part.trim();
            if p.is_empty() {
                continue;
            }
            let starts = PlayerSpec::starts_spec(p);
            match out.last_mut() {
                Some(last) if !starts => {
                    last.push(',');
                    last.push_str(p);
                }
                _ => out.push(p.to_string()),
            }
        }
    }
    out
}

fn finite(x: f64) -> Value {
    if x.is_finite() {
        json!((x * 10.0).round() / 10.0)
    } else {
        Value::Null
    }
}

fn fmt_elo(x: f64) -> String {
    if x.is_finite() {
        format!("{x:+.0}")
    } else if x > 0.0 {
        "+inf".into()
    } else {
        "-inf".into()
    }
}

pub fn run(args: Args) -> Result<(), CliError> {
    let game = games::from_flag(&args.game)?;
    with_game!(game, |g| run_game(&g, args))
}

fn run_game<G: Game>(game: &G, args: Args) -> Result<(), CliError>
where
    G::State: AlphaBetaState,
{
    let (names, players) = parse_players(&args)?;
    let sprt = args
        .sprt
        .as_deref()
        .map(parse_sprt)
        .transpose()
        .map_err(CliError::input)?;
    if sprt.is_some() && players.len() != 2 {
        return Err(CliError::input("--sprt needs exactly two players"));
    }
    check_flags(&args)?;
    check_networks(game, &players)?;
    let pairs = args.games.div_ceil(2).max(1);
    let openings = match &args.openings {
        Some(p) => read_openings(game, p).map_err(CliError::input)?,
        None => random_openings(game, pairs, args.random_plies, args.seed),
    };
    let schedule = if args.round_robin {
        Schedule::round_robin(players.len(), pairs, openings.len())
    } else {
        Schedule::gauntlet(players.len(), pairs, openings.len())
    };
    let played = play(game, &args, &players, &schedule, &openings, sprt.as_ref())?;
    if let Some(dir) = &args.out {
        save_games(game, &args, dir, &players, &played.games)?;
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
        report.print(sprt.as_ref().map(|t| (t, played.decision)));
    }
    Ok(())
}

/// The players of `--players`: their names as given and their specs.
fn parse_players(args: &Args) -> Result<(Vec<String>, Vec<PlayerSpec>), CliError> {
    let names = split_players(&args.players);
    if names.len() < 2 {
        return Err(CliError::input("--players needs at least two players"));
    }
    let players = names
        .iter()
        .map(|n| n.parse().map_err(CliError::input))
        .collect::<Result<_, _>>()?;
    Ok((names, players))
}

/// The flags obey the rules of the `[eval]` section they mirror; an error
/// names the flag (`--max-plies`), not the key.
fn check_flags(args: &Args) -> Result<(), CliError> {
    eval::EvalConfig {
        games: args.games,
        simulations: 1,
        ladder: Vec::new(),
        threads: args.threads,
        max_plies: args.max_plies,
        random_plies: args.random_plies,
        ..Default::default()
    }
    .validate()
    .map_err(|e| {
        let flag = e
            .split(':')
            .next()
            .unwrap_or("")
            .replace("eval.", "--")
            .replace('_', "-");
        CliError::input(format!("{flag}:{}", e.split_once(':').map_or("", |x| x.1)))
    })
}

/// Every network player's checkpoint is loaded once before any game: a
/// missing file, a bad sidecar, a network of another game or weights that
/// do not read (truncated, garbage, another shape) are bad input (exit 2),
/// named here, not a failure in the middle of a match.
fn check_networks<G: Game>(game: &G, players: &[PlayerSpec]) -> Result<(), CliError> {
    let tag = game::GameTag::of(game);
    for p in players {
        if let PlayerSpec::Net(n) = p {
            let path = std::path::Path::new(&n.path);
            model::checkpoint::read_info(path)
                .and_then(|info| info.check_game(path, &tag))
                .map_err(|e| CliError::input(format!("player net:{}: {e}", n.path)))?;
            if !path.exists() {
                return Err(CliError::input(format!(
                    "player net:{}: no such checkpoint",
                    n.path
                )));
            }
            model::Network::load(path, &tag, tch::Device::Cpu)
                .map_err(|e| CliError::input(format!("player net:{}: {e}", n.path)))?;
        }
    }
    Ok(())
}

/// What a match left: its games, their results and the SPRT's verdict.
struct Played<G: Game> {
    games: Vec<arena::PlayedGame<G>>,
    table: Table,
    decision: SprtDecision,
}

/// Plays the schedule with a progress bar, stopping a two-player match
/// when the SPRT is decided (on whole colour-swapped pairs only).
fn play<G: Game>(
    game: &G,
    args: &Args,
    players: &[PlayerSpec],
    schedule: &Schedule,
    openings: &[G::State],
    sprt: Option<&eval::elo::Sprt>,
) -> Result<Played<G>, CliError>
where
    G::State: AlphaBetaState,
{
    let device = model::ModelConfig {
        device: args.device.clone(),
        ..Default::default()
    }
    .tch_device()
    .map_err(|e| CliError::input(e.to_string().replacen("model.device", "--device", 1)))?;
    let nets = pipeline::players::factory::<G>(device);
    let opts = RunOptions {
        threads: args.threads,
        max_plies: args.max_plies,
        seed: args.seed,
    };
    let bar = ProgressBar::new(schedule.games.len() as u64);
    bar.set_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} games {msg} [{elapsed}]")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let mut table = Table::new(players.len());
    let mut decision = SprtDecision::Continue;
    let games = arena::run(
        game,
        players,
        schedule,
        openings,
        &opts,
        nets.as_deref(),
        |g| {
            table.add(g);
            bar.inc(1);
            let r = table.wdl[0][1];
            bar.set_message(format!(
                "first vs second: +{} ={} -{}",
                r.wins, r.draws, r.losses
            ));
            if let Some(t) = sprt {
                if r.games().is_multiple_of(2) {
                    decision = t.decide(&r);
                }
                return decision == SprtDecision::Continue;
            }
            true
        },
    )
    .map_err(CliError::failed)?;
    bar.finish_and_clear();
    Ok(Played {
        games,
        table,
        decision,
    })
}

/// `--out`: every game in one Parquet shard.
fn save_games<G: Game>(
    game: &G,
    args: &Args,
    dir: &std::path::Path,
    players: &[PlayerSpec],
    games: &[arena::PlayedGame<G>],
) -> Result<(), CliError> {
    std::fs::create_dir_all(dir)
        .map_err(|e| CliError::input(format!("cannot create {}: {e}", dir.display())))?;
    let path = dir.join(format!("eval-seed{}-{}.parquet", args.seed, games.len()));
    let failed = |e: data::DataError| CliError::failed(e.to_string());
    let mut w = data::ShardWriter::create(&path).map_err(failed)?;
    for (i, g) in games.iter().enumerate() {
        w.push_game(&game_record(game, g, players, i as u64))
            .map_err(failed)?;
    }
    w.finish().map_err(failed)?;
    if !args.json {
        eprintln!("saved {} games to {}", games.len(), path.display());
    }
    Ok(())
}

/// The results of a match, as JSON or as text.
struct Report<'a> {
    names: &'a [String],
    players: &'a [PlayerSpec],
    table: &'a Table,
    round_robin: bool,
}

impl Report<'_> {
    /// The anchor of the ratings: `random` if it played, else the first.
    fn anchor(&self) -> usize {
        self.players
            .iter()
            .position(|p| *p == PlayerSpec::Random)
            .unwrap_or(0)
    }

    /// The pairings played: all of them in a round robin, else the first
    /// player against each other.
    fn pairings(&self) -> Vec<(usize, usize)> {
        let n = self.players.len();
        if self.round_robin {
            (0..n)
                .flat_map(|a| (a + 1..n).map(move |b| (a, b)))
                .collect()
        } else {
            (1..n).map(|j| (0, j)).collect()
        }
    }

    fn matchup(&self, i: usize, j: usize) -> (Wdl, f64, (f64, f64)) {
        let r = self.table.wdl[i][j];
        (r, r.elo(), r.elo_ci95())
    }

    /// One JSON object: a two-player match's result at the top level, else
    /// `matches`; the ratings; the SPRT's verdict when one ran.
    fn json(&self, decision: Option<SprtDecision>) -> Value {
        let names = self.names;
        let result_json = |i: usize, j: usize| {
            let (r, elo, (lo, hi)) = self.matchup(i, j);
            json!({
                "player": names[i], "opponent": names[j],
                "games": r.games(), "wins": r.wins, "draws": r.draws, "losses": r.losses,
                "score": (r.score() * 1e4).round() / 1e4,
                "elo": finite(elo), "elo_ci95": [finite(lo), finite(hi)],
            })
        };
        let mut out = if self.players.len() == 2 {
            result_json(0, 1)
        } else {
            json!({ "matches": self.pairings().iter().map(|&(i, j)| result_json(i, j)).collect::<Vec<_>>() })
        };
        let anchor = self.anchor();
        out["ratings"] = json!(names
            .iter()
            .zip(&self.table.ratings(anchor))
            .map(|(n, r)| json!({"player": n, "elo": finite(*r)}))
            .collect::<Vec<_>>());
        out["anchor"] = json!(names[anchor]);
        if let Some(d) = decision {
            out["sprt"] = json!(match d {
                SprtDecision::AcceptH1 => "H1",
                SprtDecision::AcceptH0 => "H0",
                SprtDecision::Continue => "undecided",
            });
        }
        out
    }

    /// Each pairing's line, the SPRT's when one ran, and the ratings.
    fn print(&self, sprt: Option<(&eval::elo::Sprt, SprtDecision)>) {
        let names = self.names;
        for (i, j) in self.pairings() {
            let (r, elo, (lo, hi)) = self.matchup(i, j);
            println!(
                "{} vs {}: {} games, +{} ={} -{}, score {:.3}, Elo {} [{}, {}]",
                names[i],
                names[j],
                r.games(),
                r.wins,
                r.draws,
                r.losses,
                r.score(),
                fmt_elo(elo),
                fmt_elo(lo),
                fmt_elo(hi)
            );
        }
        if let Some((t, decision)) = sprt {
            let r = self.table.wdl[0][1];
            let (lo, hi) = t.bounds();
            println!(
                "SPRT elo0={} elo1={}: LLR {:.2} in [{lo:.2}, {hi:.2}]: {}",
                t.elo0,
                t.elo1,
                t.llr(&r),
                match decision {
                    SprtDecision::AcceptH1 => "H1 accepted",
                    SprtDecision::AcceptH0 => "H0 accepted",
                    SprtDecision::Continue => "undecided",
                }
            );
        }
        let anchor = self.anchor();
        let ratings = self.table.ratings(anchor);
        println!("\nratings (maximum likelihood, {} = 0):", names[anchor]);
        let mut order: Vec<usize> = (0..self.players.len()).collect();
        order.sort_by(|&a, &b| ratings[b].total_cmp(&ratings[a]));
        println!("{:<40} {:>7} {:>6}", "player", "elo", "games");
        for i in order {
            println!(
                "{:<40} {:>7} {:>6}",
                names[i],
                fmt_elo(ratings[i]),
                self.table.total(i).games()
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::split_players;

    #[test]
    fn player_lists_split_on_player_words() {
        let v = split_players(&["ab:depth=3,random=20,random,net:x.safetensors,sims=8".into()]);
        assert_eq!(
            v,
            vec!["ab:depth=3,random=20", "random", "net:x.safetensors,sims=8"]
        );
    }
}
