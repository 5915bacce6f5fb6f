//! The match runner: games between any players, in colour-swapped pairs
//! from the same opening, played in parallel, every game kept.
//!
//! A [`Schedule`] lists the games (who plays White, who Black, from which
//! opening); [`run`] plays them on worker threads and hands each finished
//! game to a callback on the calling thread, which can stop the match (for
//! SPRT). Results are tallied in a [`Table`] of per-pair records from which
//! the Elo difference, its interval and a fitted ratings table follow.
//!
//! Everything here is generic over the game `G` (`game::Game`); the
//! alpha-beta player needs the game's baseline (`game::AlphaBetaState`).

pub mod clock;
pub mod openings;
pub mod players;
pub mod record;

pub use clock::MoveClock;

use crate::elo::{fit_ratings, Wdl};
use crate::{EvalError, PlayerError};
use game::{AlphaBetaState, Color, Game, GameResult, GameState, History, Outcome, Termination};
use players::{build_player, NetFactory, PlayerSpec};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::Instant;

/// One scheduled game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pairing {
    pub index: usize,
    pub white: usize,
    pub black: usize,
    pub opening: usize,
}

/// Which games to play.
#[derive(Clone, Debug, Default)]
pub struct Schedule {
    pub games: Vec<Pairing>,
}

impl Schedule {
    /// For each pair `(a, b)`, `pairs` colour-swapped game pairs, pair `k`
    /// from opening `k % openings`: a as White then b as White.
    pub fn pairs(pairs_of_players: &[(usize, usize)], pairs: usize, openings: usize) -> Schedule {
        Schedule::pairs_capped(pairs_of_players, pairs, openings, |_| pairs)
    }

    /// [`Schedule::pairs`] less the pairs `k >= cap(b)` of each `(a, b)`;
    /// the games kept have the indices, and so the seeds, they have there.
    fn pairs_capped(
        pairs_of_players: &[(usize, usize)],
        pairs: usize,
        openings: usize,
        cap: impl Fn(usize) -> usize,
    ) -> Schedule {
        let mut games = Vec::new();
        let mut index = 0;
        for k in 0..pairs {
            for &(a, b) in pairs_of_players {
                let opening = k % openings.max(1);
                if k < cap(b) {
                    for (i, (white, black)) in [(a, b), (b, a)].into_iter().enumerate() {
                        games.push(Pairing {
                            index: index + i,
                            white,
                            black,
                            opening,
                        });
                    }
                }
                index += 2;
            }
        }
        Schedule { games }
    }

    /// The first player against each of the others.
    pub fn gauntlet(players: usize, pairs: usize, openings: usize) -> Schedule {
        Schedule::gauntlet_capped(players, pairs, openings, |_| pairs)
    }

    /// [`Schedule::gauntlet`] with fewer pairs against some opponents:
    /// `pairs_against(j)` colour-swapped pairs against player `j` (capped
    /// at `pairs`). The games kept are the gauntlet's first pairs against
    /// each opponent with their indices, and so their seeds, unchanged:
    /// cutting one pairing leaves every other game as it was.
    pub fn gauntlet_capped(
        players: usize,
        pairs: usize,
        openings: usize,
        pairs_against: impl Fn(usize) -> usize,
    ) -> Schedule {
        let opp: Vec<(usize, usize)> = (1..players).map(|j| (0, j)).collect();
        Schedule::pairs_capped(&opp, pairs, openings, pairs_against)
    }

    /// Every player against every other.
    pub fn round_robin(players: usize, pairs: usize, openings: usize) -> Schedule {
        let mut all = Vec::new();
        for a in 0..players {
            for b in a + 1..players {
                all.push((a, b));
            }
        }
        Schedule::pairs(&all, pairs, openings)
    }
}

/// A finished game of `G`.
#[derive(Clone, Debug)]
pub struct PlayedGame<G: Game> {
    pub pairing: Pairing,
    pub game: History<G::State>,
    pub outcome: Outcome,
    pub seed: u64,
    /// White's and Black's moves: their count, wall time and simulations.
    pub clocks: [MoveClock; 2],
}

/// How games are played.
#[derive(Clone, Debug)]
pub struct RunOptions {
    /// Worker threads.
    pub threads: usize,
    /// Plies after which a game is stopped and scored a draw.
    pub max_plies: usize,
    pub seed: u64,
}

impl Default for RunOptions {
    fn default() -> Self {
        RunOptions {
            threads: 1,
            max_plies: 300,
            seed: 1,
        }
    }
}

/// The seed of scheduled game `index`: White's player gets it, Black's
/// `seed + 0x9E37` ([`play_game`]).
pub fn game_seed(opts: &RunOptions, index: usize) -> u64 {
    opts.seed
        .wrapping_mul(0x9E37_79B9_7F4A_7C15)
        .wrapping_add((index as u64).wrapping_mul(0xD1B5_4A32_D192_ED03))
}

/// Black's player's seed in a game seeded `seed`.
pub fn black_seed(seed: u64) -> u64 {
    seed.wrapping_add(0x9E37)
}

/// Plays one game of `g` (a game and variant; `opening` is one of its
/// positions) between two fresh players.
pub fn play_game<G: Game>(
    g: &G,
    white: &PlayerSpec,
    black: &PlayerSpec,
    opening: &G::State,
    max_plies: usize,
    seed: u64,
    nets: Option<&dyn NetFactory<G>>,
) -> Result<(History<G::State>, Outcome), PlayerError>
where
    G::State: AlphaBetaState,
{
    play_game_timed(g, white, black, opening, max_plies, seed, nets).map(|t| (t.game, t.outcome))
}

/// A game played by [`play_game_timed`], with its players' clocks.
#[derive(Clone, Debug)]
pub struct TimedGame<G: Game> {
    pub game: History<G::State>,
    pub outcome: Outcome,
    /// White's and Black's moves: their count, wall time and simulations.
    pub clocks: [MoveClock; 2],
}

/// [`play_game`], with White's and Black's [`MoveClock`]s: each move's
/// wall time, from the call that asks the player for it to its answer,
/// and the simulations of a player that counts them
/// ([`players::Player::last_simulations`]).
pub fn play_game_timed<G: Game>(
    g: &G,
    white: &PlayerSpec,
    black: &PlayerSpec,
    opening: &G::State,
    max_plies: usize,
    seed: u64,
    nets: Option<&dyn NetFactory<G>>,
) -> Result<TimedGame<G>, PlayerError>
where
    G::State: AlphaBetaState,
{
    let mut players = [
        build_player(g, white, seed, nets)?,
        build_player(g, black, black_seed(seed), nets)?,
    ];
    let mut clocks = [MoveClock::default(); 2];
    let mut game = History::new(opening.clone());
    let outcome = loop {
        if let Some(o) = game.outcome() {
            break o;
        }
        if game.ply() >= max_plies {
            break Outcome {
                result: GameResult::Draw,
                termination: Termination::MaxLength,
            };
        }
        let side = game.position().side().index();
        let started = Instant::now();
        let m = players[side].choose(&game);
        clocks[side].record(started.elapsed(), players[side].last_simulations());
        game.try_play(m)
            .map_err(|source| PlayerError::IllegalMove {
                player: [white, black][side].to_string(),
                source,
            })?;
    };
    Ok(TimedGame {
        game,
        outcome,
        clocks,
    })
}

/// Plays the schedule on `opts.threads` threads, games of `game` from
/// `openings` (positions of that game and variant). `on_game` sees each game
/// as it finishes (in finishing order) and returns `false` to stop the
/// match: no new games start; the at most one game per thread already
/// running finishes and is reported.
///
/// A match with network players goes to the factory first
/// ([`NetFactory::run_match`]): on the CPU it plays many games in lockstep,
/// their leaves batched through each network in a fixed order, so every
/// game is still reproducible from the seed; games in flight when
/// `on_game` stops the match are dropped there, and the games returned are
/// exactly those `on_game` saw.
pub fn run<G: Game>(
    game: &G,
    players: &[PlayerSpec],
    schedule: &Schedule,
    openings: &[G::State],
    opts: &RunOptions,
    nets: Option<&dyn NetFactory<G>>,
    mut on_game: impl FnMut(&PlayedGame<G>) -> bool,
) -> Result<Vec<PlayedGame<G>>, EvalError>
where
    G::State: AlphaBetaState,
{
    if openings.is_empty() {
        return Err(EvalError::NoOpenings);
    }
    if let Some(nets) = nets.filter(|_| players.iter().any(|p| matches!(p, PlayerSpec::Net(_)))) {
        if let Some(played) = nets.run_match(game, players, schedule, openings, opts, &mut on_game)
        {
            return played.map_err(Into::into);
        }
    }
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    // A rendezvous channel: a worker hands over its game before it starts the
    // next one, so after a stop at most one game per thread is still played.
    let (tx, rx) = mpsc::sync_channel::<Result<PlayedGame<G>, PlayerError>>(0);
    let mut result = Ok(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..opts.threads.max(1) {
            let tx = tx.clone();
            let (next, stop) = (&next, &stop);
            scope.spawn(move || loop {
                if stop.load(Ordering::Relaxed) {
                    break;
                }
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(&p) = schedule.games.get(i) else {
                    break;
                };
                let seed = game_seed(opts, p.index);
                let r = play_game_timed(
                    game,
                    &players[p.white],
                    &players[p.black],
                    &openings[p.opening % openings.len()],
                    opts.max_plies,
                    seed,
                    nets,
                )
                .map(|t| PlayedGame {
                    pairing: p,
                    game: t.game,
                    outcome: t.outcome,
                    seed,
                    clocks: t.clocks,
                });
                if tx.send(r).is_err() {
                    break;
                }
            });
        }
        drop(tx);
        result = collect(rx, &stop, true, &mut on_game);
    });
    result.map_err(EvalError::from)
}

/// Receives the games a match's workers hand over (each worker holds a
/// sender; `rx` ends when all have dropped theirs), shows each to
/// `on_game` and sets `stop` when it returns false or a worker reports an
/// error. `late`: whether games that arrive after the stop are still
/// reported (the game-per-thread runner finishes and reports the games
/// under way; the lockstep driver drops them). Returns the reported games
/// in schedule order, or the first error (of whichever type the workers
/// report).
pub fn collect<G: Game, E>(
    rx: mpsc::Receiver<Result<PlayedGame<G>, E>>,
    stop: &AtomicBool,
    late: bool,
    on_game: &mut dyn FnMut(&PlayedGame<G>) -> bool,
) -> Result<Vec<PlayedGame<G>>, E> {
    let mut done = Vec::new();
    let mut first_error = None;
    for r in rx {
        if !late && stop.load(Ordering::Relaxed) {
            continue;
        }
        match r {
            Ok(g) => {
                if !on_game(&g) {
                    stop.store(true, Ordering::Relaxed);
                }
                done.push(g);
            }
            Err(e) => {
                stop.store(true, Ordering::Relaxed);
                first_error.get_or_insert(e);
            }
        }
    }
    match first_error {
        Some(e) => Err(e),
        None => {
            done.sort_by_key(|g| g.pairing.index);
            Ok(done)
        }
    }
}

/// Per-pair records: `wdl[i][j]` is player i's record against player j.
#[derive(Clone, Debug)]
pub struct Table {
    pub wdl: Vec<Vec<Wdl>>,
}

impl Table {
    pub fn new(players: usize) -> Table {
        Table {
            wdl: vec![vec![Wdl::default(); players]; players],
        }
    }

    pub fn add<G: Game>(&mut self, g: &PlayedGame<G>) {
        let (w, b) = (g.pairing.white, g.pairing.black);
        match g.outcome.result {
            GameResult::WhiteWin => {
                self.wdl[w][b].wins += 1;
                self.wdl[b][w].losses += 1;
            }
            GameResult::BlackWin => {
                self.wdl[b][w].wins += 1;
                self.wdl[w][b].losses += 1;
            }
            GameResult::Draw => {
                self.wdl[w][b].draws += 1;
                self.wdl[b][w].draws += 1;
            }
        }
    }

    /// Player i's record against everyone.
    pub fn total(&self, i: usize) -> Wdl {
        self.wdl[i].iter().fold(Wdl::default(), |a, r| {
            Wdl::new(a.wins + r.wins, a.draws + r.draws, a.losses + r.losses)
        })
    }

    /// Ratings fitted over all games, anchored at `anchor` = 0.
    pub fn ratings(&self, anchor: usize) -> Vec<f64> {
        fit_ratings(&self.wdl, anchor)
    }
}

/// Who won a game from `color`'s side, as a score.
pub fn score_for(outcome: &Outcome, color: Color) -> f32 {
    outcome.result.score_for(color)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_swap_colours_on_the_same_opening() {
        let s = Schedule::gauntlet(3, 2, 5);
        assert_eq!(s.games.len(), 2 * 2 * 2);
        for pair in s.games.chunks(2) {
            assert_eq!(pair[0].opening, pair[1].opening);
            assert_eq!(pair[0].white, pair[1].black);
            assert_eq!(pair[0].black, pair[1].white);
            assert!(pair[0].white == 0 || pair[0].black == 0);
        }
        let rr = Schedule::round_robin(4, 1, 1);
        assert_eq!(rr.games.len(), 6 * 2);
    }

    #[test]
    fn a_capped_gauntlet_keeps_the_other_games_and_their_indices() {
        let full = Schedule::gauntlet(4, 3, 3);
        let capped = Schedule::gauntlet_capped(4, 3, 3, |j| if j == 1 { 1 } else { 3 });
        // Player 1 meets player 0 in one pair, the others in three.
        let against = |s: &Schedule, j: usize| {
            s.games
                .iter()
                .filter(|p| p.white == j || p.black == j)
                .count()
        };
        assert_eq!(against(&capped, 1), 2);
        assert_eq!(against(&capped, 2), 6);
        assert_eq!(against(&capped, 3), 6);
        // Every kept game is the full gauntlet's game of the same index.
        for p in &capped.games {
            let q = full.games[p.index];
            assert_eq!((p.white, p.black, p.opening), (q.white, q.black, q.opening));
        }
        // The pair kept against player 1 is the first one.
        assert!(capped
            .games
            .iter()
            .filter(|p| p.white == 1 || p.black == 1)
            .all(|p| p.opening == 0));
        // Caps at or above `pairs` change nothing.
        let same = Schedule::gauntlet_capped(4, 3, 3, |_| 5);
        assert_eq!(same.games.len(), full.games.len());
    }

    /// A `net:` spec's search options are typed and checked when the spec
    /// is read, with the messages the player's builder gave before; the
    /// spec prints as it was written, and one built in code prints as the
    /// same text would.
    #[test]
    fn net_specs_are_typed_when_read_and_print_as_written() {
        use players::{NetSpec, SymmetrySpec};
        let text =
            "net:x,sims=8,algorithm=gumbel,cpuct=2,mate_check=0,solver=true,leaf_eval=0.50,reuse=1,symmetry=average,lcb=5";
        let spec = text.parse::<PlayerSpec>().unwrap();
        let PlayerSpec::Net(n) = &spec else {
            panic!("{spec:?}")
        };
        assert!(n.gumbel && !n.mate_check && n.solver && n.reuse);
        assert_eq!(n.symmetry, SymmetrySpec::Average);
        assert_eq!(
            (n.sims, n.cpuct, n.leaf_eval, n.lcb),
            (8, Some(2.0), 0.5, 5.0)
        );
        assert_eq!(spec.to_string(), text);
        let plain = match "net:x".parse::<PlayerSpec>().unwrap() {
            PlayerSpec::Net(n) => n,
            other => panic!("{other:?}"),
        };
        assert_eq!(plain, NetSpec::new("x", 64));
        assert!(!plain.gumbel && plain.mate_check && !plain.solver && !plain.reuse);
        assert_eq!(plain.symmetry, SymmetrySpec::None);
        for (text, want) in [
            ("net:x,symmetry=none", SymmetrySpec::None),
            ("net:x,symmetry=random", SymmetrySpec::Random(0)),
            ("net:x,symmetry=random:17", SymmetrySpec::Random(17)),
        ] {
            match text.parse::<PlayerSpec>() {
                Ok(PlayerSpec::Net(n)) => assert_eq!(n.symmetry, want, "{text}"),
                other => panic!("{text}: {other:?}"),
            }
        }
        assert_eq!((plain.cpuct, plain.leaf_eval, plain.lcb), (None, 0.0, 0.0));
        let built = NetSpec::new("x", 8).with_leaf_eval(0.5).with_reuse(true);
        assert_eq!(
            PlayerSpec::Net(built.clone()).to_string(),
            "net:x,sims=8,leaf_eval=0.5,reuse=true"
        );
        assert_eq!(
            "net:x,sims=8,leaf_eval=0.5,reuse=true"
                .parse::<PlayerSpec>()
                .unwrap(),
            PlayerSpec::Net(built)
        );
        for (bad, message) in [
            ("net:x,leaf_eval=1.5", "net player: leaf_eval=`1.5` is not a weight between 0 and 1"),
            ("net:x,leaf_eval=x", "net player: leaf_eval=`x` is not a weight between 0 and 1"),
            ("net:x,algorithm=mcts", "net player: algorithm=`mcts` is not puct or gumbel"),
            ("net:x,cpuct=0", "net player: cpuct=`0` is not a positive number"),
            ("net:x,reuse=maybe", "net player: reuse=`maybe` is not true or false"),
            ("net:x,solver=2", "net player: solver=`2` is not true or false"),
            ("net:x,symmetry=mirror", "net player: symmetry=`mirror` is not none, average, random or random:SALT (SALT a whole number)"),
            ("net:x,symmetry=random:-1", "net player: symmetry=`random:-1` is not none, average, random or random:SALT (SALT a whole number)"),
            ("net:x,lcb=-1", "net player: lcb=`-1` is not a number of standard errors of 0 or more (KataGo uses 5)"),
            ("net:x,lcb=inf", "net player: lcb=`inf` is not a number of standard errors of 0 or more (KataGo uses 5)"),
            (
                "net:x,depth=3",
                "net player: unknown option `depth` (known: sims, movetime, algorithm, cpuct, mate_check, solver, leaf_eval, reuse, symmetry, lcb)",
            ),
            // The spec's shape is checked before its options.
            ("net:x,leaf_eval=2,sims=0", "player `net:x,leaf_eval=2,sims=0`: sims=`0` is not a positive number"),
        ] {
            let e = bad.parse::<PlayerSpec>().unwrap_err();
            assert!(matches!(e, crate::EvalError::Spec(_)), "{bad}: {e:?}");
            assert_eq!(e.to_string(), message, "{bad}");
        }
    }

    /// `net:…,movetime=MS` reads as `ab:movetime=` does (whole
    /// milliseconds, 1 to a day); without `sims=` the simulations are
    /// unbounded and the spec prints without them; a bad value is refused
    /// naming the option; Gumbel needs `sims=` beside it.
    #[test]
    fn movetime_net_specs_read_print_and_refuse_bad_values() {
        use players::UNBOUNDED_SIMS;
        let net = |text: &str| match text.parse::<PlayerSpec>() {
            Ok(PlayerSpec::Net(n)) => n,
            other => panic!("{text}: {other:?}"),
        };
        let timed = net("net:x,movetime=200");
        assert_eq!((timed.movetime, timed.sims), (Some(200), UNBOUNDED_SIMS));
        assert!(timed.is_time_limited());
        assert_eq!(PlayerSpec::Net(timed).to_string(), "net:x,movetime=200");
        let capped = net("net:x,movetime=200,sims=500,algorithm=gumbel");
        assert_eq!((capped.movetime, capped.sims), (Some(200), 500));
        assert_eq!(
            PlayerSpec::Net(capped).to_string(),
            "net:x,sims=500,movetime=200,algorithm=gumbel"
        );
        assert!(!net("net:x,sims=8").is_time_limited());
        for (text, limited) in [
            ("ab:movetime=100", true),
            ("ab:depth=2", false),
            ("net:x,movetime=5", true),
            ("net:x", false),
            ("random", false),
        ] {
            let spec = text.parse::<PlayerSpec>().unwrap();
            assert_eq!(spec.is_time_limited(), limited, "{text}");
            // A spec reads back from its text.
            assert_eq!(spec.to_string().parse::<PlayerSpec>().unwrap(), spec);
        }
        for bad in ["0", "abc", "-5", "1.5", "86400001", ""] {
            let text = format!("net:x,movetime={bad}");
            let e = text.parse::<PlayerSpec>().unwrap_err();
            assert!(
                matches!(
                    &e,
                    crate::EvalError::Spec(crate::SpecError::NetOption {
                        key: "movetime",
                        ..
                    })
                ),
                "{text}: {e:?}"
            );
            assert_eq!(
                e.to_string(),
                format!(
                    "net player: movetime=`{bad}` is not a whole number of milliseconds in 1..=86400000"
                )
            );
        }
        let e = "net:x,algorithm=gumbel,movetime=50"
            .parse::<PlayerSpec>()
            .unwrap_err();
        assert!(
            matches!(
                e,
                crate::EvalError::Spec(crate::SpecError::GumbelMovetimeWithoutSims {
                    movetime: 50
                })
            ),
            "{e:?}"
        );
        assert!(e.to_string().contains("sims="), "{e}");
    }

    #[test]
    fn player_specs_parse_with_clear_errors() {
        assert_eq!("random".parse::<PlayerSpec>().unwrap(), PlayerSpec::Random);
        assert!(matches!(
            "ab:depth=3".parse::<PlayerSpec>().unwrap(),
            PlayerSpec::AlphaBeta(_)
        ));
        match "net:runs/x/gen3.safetensors,sims=32"
            .parse::<PlayerSpec>()
            .unwrap()
        {
            PlayerSpec::Net(n) => {
                assert_eq!(n.sims, 32);
                assert_eq!(n.path, "runs/x/gen3.safetensors");
            }
            other => panic!("{other:?}"),
        }
        assert!("net:".parse::<PlayerSpec>().is_err());
        assert!("net:x,sims=0".parse::<PlayerSpec>().is_err());
        assert!("gnuchess"
            .parse::<PlayerSpec>()
            .unwrap_err()
            .to_string()
            .contains("expected"));
    }
}
