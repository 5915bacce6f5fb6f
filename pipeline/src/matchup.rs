//! A match between players as `triad eval` plays it: the flags checked as
//! the `[eval]` section they mirror, every network loaded once before any
//! game, the openings, the schedule (gauntlet or round robin), the games
//! (a two-player match stopped when its SPRT is decided), and the games
//! saved in one shard. The report of the result is `eval::report`'s.
//!
//! Nothing here prints: progress goes to the caller's callback
//! ([`Progress`]).

use std::path::{Path, PathBuf};

use eval::arena::openings::{random_openings, read_openings};
use eval::arena::players::PlayerSpec;
use eval::arena::record::game_record;
use eval::arena::{self, MoveClock, RunOptions, Schedule, Table};
use eval::elo::{Sprt, SprtDecision, Wdl};
use game::{AlphaBetaState, Game};

use crate::Error;

/// How a match is played (`triad eval`'s flags).
#[derive(Clone, Debug)]
pub struct MatchOptions {
    /// Games per pairing (rounded up to colour-swapped pairs).
    pub games: usize,
    /// Every player against every other (else the first against the others).
    pub round_robin: bool,
    /// Stop a two-player match when this test is decided.
    pub sprt: Option<Sprt>,
    /// A file of opening positions (else random ones).
    pub openings: Option<PathBuf>,
    /// Plies of the random openings.
    pub random_plies: u32,
    pub threads: usize,
    pub max_plies: usize,
    pub seed: u64,
    /// Where `net:` players run (`auto`, `cpu`, `cuda`, `cuda:N`).
    pub device: String,
    /// A folder to save every game in (one Parquet shard).
    pub out: Option<PathBuf>,
    /// How network players' matches run on the CPU (lockstep, or game by
    /// game to compare).
    pub batching: players::Batching,
}

/// What [`play`] reports while it plays.
#[derive(Debug)]
pub enum Progress {
    /// The match starts: `games` are scheduled.
    Start { games: usize },
    /// One more game is over; the first player's record against the
    /// second so far.
    Game(Wdl),
}

/// What a match left.
pub struct Played {
    /// The records of every pair.
    pub table: Table,
    /// Each player's moves over the games reported (in the players'
    /// order): their count, wall time and simulations.
    pub clocks: Vec<MoveClock>,
    /// The SPRT's verdict (`Continue` when none ran or it is undecided).
    pub decision: SprtDecision,
    /// With `out`: how many games were saved, and the shard's path.
    pub saved: Option<(usize, PathBuf)>,
}

/// Plays the match of `players` in `game`.
pub fn play<G: Game>(
    game: &G,
    players: &[PlayerSpec],
    opts: &MatchOptions,
    progress: &mut dyn FnMut(Progress),
) -> Result<Played, Error>
where
    G::State: AlphaBetaState,
{
    check_flags(opts)?;
    check_networks(game, players)?;
    let pairs = opts.games.div_ceil(2).max(1);
    let openings = match &opts.openings {
        Some(p) => read_openings(game, p)?,
        None => random_openings(game, pairs, opts.random_plies, opts.seed),
    };
    let schedule = if opts.round_robin {
        Schedule::round_robin(players.len(), pairs, openings.len())
    } else {
        Schedule::gauntlet(players.len(), pairs, openings.len())
    };
    let device = model::ModelConfig {
        device: opts.device.clone(),
        ..Default::default()
    }
    .tch_device()
    .map_err(|e| e.for_key("--device"))?;
    let nets = players::factory_with::<G>(device, opts.batching);
    let run_opts = RunOptions {
        threads: opts.threads,
        max_plies: opts.max_plies,
        seed: opts.seed,
    };
    progress(Progress::Start {
        games: schedule.games.len(),
    });
    let mut table = Table::new(players.len());
    let mut clocks = vec![MoveClock::default(); players.len()];
    let mut decision = SprtDecision::Continue;
    let games = arena::run(
        game,
        players,
        &schedule,
        &openings,
        &run_opts,
        nets.as_deref(),
        |g| {
            table.add(g);
            clocks[g.pairing.white].add(&g.clocks[0]);
            clocks[g.pairing.black].add(&g.clocks[1]);
            let r = table.wdl[0][1];
            progress(Progress::Game(r));
            if let Some(t) = &opts.sprt {
                if r.games().is_multiple_of(2) {
                    decision = t.decide(&r);
                }
                return decision == SprtDecision::Continue;
            }
            true
        },
    )
    .map_err(Error::Play)?;
    let saved = match &opts.out {
        Some(dir) => Some(save_games(game, opts, dir, players, &games)?),
        None => None,
    };
    Ok(Played {
        table,
        clocks,
        decision,
        saved,
    })
}

/// The flags obey the rules of the `[eval]` section they mirror; an error
/// names the flag (`--max-plies`), not the key.
fn check_flags(opts: &MatchOptions) -> Result<(), Error> {
    eval::EvalConfig {
        games: opts.games,
        simulations: 1,
        ladder: Vec::new(),
        threads: opts.threads,
        max_plies: opts.max_plies,
        random_plies: opts.random_plies,
        ..Default::default()
    }
    .validate()
    .map_err(|e| match e {
        // The flag the key stands for: `eval.max_plies` is `--max-plies`.
        eval::EvalError::Config(e) => {
            let flag = e
                .key
                .as_deref()
                .unwrap_or("")
                .replace("eval.", "--")
                .replace('_', "-");
            Error::Config(e.for_key(flag))
        }
        other => Error::Eval(other),
    })
}

/// Every network player's checkpoint is loaded once before any game: a
/// missing file, a bad sidecar, a network of another game or weights that
/// do not read (truncated, garbage, another shape) are bad input (exit 2),
/// named here, not a failure in the middle of a match.
fn check_networks<G: Game>(game: &G, players: &[PlayerSpec]) -> Result<(), Error> {
    let tag = game::GameTag::of(game);
    for p in players {
        if let PlayerSpec::Net(n) = p {
            let path = Path::new(&n.path);
            model::checkpoint::read_info(path)
                .and_then(|info| info.check_game(path, &tag))
                .map_err(|source| Error::PlayerCheckpoint {
                    path: n.path.clone(),
                    source,
                })?;
            if !path.exists() {
                return Err(Error::NoPlayerCheckpoint {
                    path: n.path.clone(),
                });
            }
            model::Network::load(path, &tag, tch::Device::Cpu).map_err(|source| {
                Error::PlayerCheckpoint {
                    path: n.path.clone(),
                    source,
                }
            })?;
        }
    }
    Ok(())
}

/// `out`: every game in one Parquet shard, `eval-seedS-N.parquet`.
fn save_games<G: Game>(
    game: &G,
    opts: &MatchOptions,
    dir: &Path,
    players: &[PlayerSpec],
    games: &[arena::PlayedGame<G>],
) -> Result<(usize, PathBuf), Error> {
    std::fs::create_dir_all(dir).map_err(|source| Error::CreateOut {
        path: dir.to_path_buf(),
        source,
    })?;
    let path = dir.join(format!("eval-seed{}-{}.parquet", opts.seed, games.len()));
    let failed = Error::Data;
    let mut w = data::ShardWriter::create_capped(&path, opts.max_plies as u32).map_err(failed)?;
    for (i, g) in games.iter().enumerate() {
        w.push_game(&game_record(game, g, players, i as u64))
            .map_err(failed)?;
    }
    w.finish().map_err(failed)?;
    Ok((games.len(), path))
}
