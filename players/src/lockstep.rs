//! Matches in lockstep: many games at once, the leaves of their network
//! players batched through each network, as self-play batches its games.
//!
//! A match played game by game on the CPU evaluates one leaf at a time: a
//! batch-1 forward pass, most of it fixed cost. Here the schedule is dealt
//! to `threads` drivers (game i to driver i mod threads), each a thread
//! with its own copy of the networks, playing up to [`IN_FLIGHT`] / threads
//! games together in rounds:
//!
//! 1. every game advances until the side to move is a network whose search
//!    needs a leaf evaluated (other players, `ab:`, `mcts:`, `random`,
//!    `solver`, move at once);
//! 2. each network evaluates its waiting leaves as one batch, games in slot
//!    order, and hands the answers back.
//!
//! A game's moves depend only on its own searches and on the answers; each
//! driver forms its batches in slot order and refills its slots in schedule
//! order, so a match is reproducible bit for bit from its seed for a given
//! thread count. (A thread count deals the games differently, and a row's
//! numbers can differ in the last bit between batches of other widths, so
//! another count may play other games.)
//!
//! Each move's time is counted where it is spent ([`PlayedGame::clocks`]):
//! a plain player's `choose`, and for a network seat its own search code
//! plus an equal share of each batch its leaf went through, so the time
//! of a network move is the work done for it, not the wall time the game
//! shared with the others. A time-limited network player (`movetime=`)
//! is refused here ([`Error::TimedInLockstep`]): its match is played game
//! by game.

use crate::error::Error;
use crate::spec::{player_search, search_config, symmetry_use};
use eval::arena::players::{build_player, NetSpec, Player, PlayerSpec};
use eval::arena::{
    black_seed, collect, game_seed, MoveClock, Pairing, PlayedGame, RunOptions, Schedule,
};
use eval::PlayerError;
use game::{AlphaBetaState, Game, GameResult, GameState, History, Outcome, Termination};
use mcts::{Evaluator, Request, Rng, Search, SearchParams, Symmetrized};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// Games played at once: enough for full batches on a CPU (self-play sends
/// 128), few enough that a match stopped early (SPRT) wastes little.
pub const IN_FLIGHT: usize = 128;

/// A network of a match: its checkpoint's path and how it uses the game's
/// symmetries (`Average(1)`: evaluated once; `net:…,symmetry=average` or
/// `symmetry=random`).
pub type NetKey = (String, mcts::SymmetryUse);

/// A network player's seat in one game.
struct NetSeat<S: GameState> {
    /// Index of its network in the match's list.
    net: usize,
    search: Search<S>,
    sims: u32,
    rng: Rng,
    /// A search of the current position is under way.
    thinking: bool,
    /// Its leaf waits for the network.
    waiting: bool,
    answer: Option<[f32; 3]>,
    answer_policy: Vec<f32>,
    /// Time spent on the move under way: its search's own steps and its
    /// share of each batch.
    spent: Duration,
}

enum Seat<G: Game> {
    Plain(Box<dyn Player<G>>),
    Net(Box<NetSeat<G::State>>),
}

struct Slot<G: Game> {
    pairing: Pairing,
    seed: u64,
    game: History<G::State>,
    seats: [Seat<G>; 2],
    names: [String; 2],
    end: Option<Result<Outcome, PlayerError>>,
    /// White's and Black's moves so far.
    clocks: [MoveClock; 2],
}

impl<G: Game> Slot<G> {
    /// The network seat whose leaf waits, if any.
    fn waiting(&mut self) -> Option<&mut NetSeat<G::State>> {
        let side = self.game.position().side().index();
        match &mut self.seats[side] {
            Seat::Net(n) if n.waiting => Some(n),
            _ => None,
        }
    }
}

/// A match's evaluator of one [`NetKey`]: its checkpoint's network
/// ([`mcts::NetworkEvaluator::packed`]), or any other model (a Python one) that
/// answers a batch of requests. The key's symmetry use is applied around
/// it.
pub type MatchEvaluator<S> = Box<dyn Evaluator<S> + Send>;

/// The first network player of `players` that stops on the clock
/// (`movetime=`), if any: a match with one is played game by game, not
/// here.
pub fn timed_network(players: &[PlayerSpec]) -> Option<&PlayerSpec> {
    players
        .iter()
        .find(|p| matches!(p, PlayerSpec::Net(n) if n.is_time_limited()))
}

/// Plays `schedule` as [`eval::arena::run`] does, in lockstep (module
/// docs), on `networks.len()` drivers: for each, the evaluator of each
/// distinct [`NetKey`] of `players`' `net:` specs. An evaluator that
/// declines a batch ends the match with [`Error::Declined`] naming its
/// key's path; a time-limited network player is refused before any game
/// ([`Error::TimedInLockstep`]).
pub fn run<G: Game>(
    game: &G,
    players: &[PlayerSpec],
    networks: Vec<Vec<(NetKey, MatchEvaluator<G::State>)>>,
    schedule: &Schedule,
    openings: &[G::State],
    opts: &RunOptions,
    on_game: &mut dyn FnMut(&PlayedGame<G>) -> bool,
) -> Result<Vec<PlayedGame<G>>, PlayerError>
where
    G::State: AlphaBetaState,
{
    if let Some(timed) = timed_network(players) {
        return Err(Error::TimedInLockstep {
            spec: timed.to_string(),
        }
        .into());
    }
    let drivers = networks.len().max(1);
    let stop = AtomicBool::new(false);
    // A rendezvous channel: a driver hands over each game as it ends.
    let (tx, rx) = mpsc::sync_channel::<Result<PlayedGame<G>, PlayerError>>(0);
    let mut result = Ok(Vec::new());
    std::thread::scope(|scope| {
        for (d, nets) in networks.into_iter().enumerate() {
            let (tx, stop) = (tx.clone(), &stop);
            let mine: Vec<Pairing> = schedule
                .games
                .iter()
                .copied()
                .skip(d)
                .step_by(drivers)
                .collect();
            scope.spawn(move || {
                let mut driver = Driver::new(game, players, nets, opts, drivers);
                let r = driver.play(&mine, openings, stop, &mut |g| tx.send(Ok(g)).is_ok());
                if let Err(e) = r {
                    let _ = tx.send(Err(e));
                }
            });
        }
        drop(tx);
        result = collect(rx, &stop, false, on_game);
    });
    result
}

/// One thread's share of a match: its games in slots, its own copy of
/// each network.
struct Driver<'a, G: Game> {
    game: &'a G,
    players: &'a [PlayerSpec],
    keys: Vec<NetKey>,
    evaluators: Vec<Symmetrized<G::State, MatchEvaluator<G::State>>>,
    opts: &'a RunOptions,
    slots: Vec<Option<Slot<G>>>,
    policy: Vec<f32>,
    wdl: Vec<[f32; 3]>,
}

impl<'a, G: Game> Driver<'a, G>
where
    G::State: AlphaBetaState,
{
    fn new(
        game: &'a G,
        players: &'a [PlayerSpec],
        nets: Vec<(NetKey, MatchEvaluator<G::State>)>,
        opts: &'a RunOptions,
        drivers: usize,
    ) -> Driver<'a, G> {
        let (keys, nets): (Vec<NetKey>, Vec<MatchEvaluator<G::State>>) = nets.into_iter().unzip();
        let evaluators = keys
            .iter()
            .zip(nets)
            .map(|(key, e)| Symmetrized::with(e, key.1))
            .collect();
        Driver {
            game,
            players,
            keys,
            evaluators,
            opts,
            slots: (0..IN_FLIGHT.div_ceil(drivers)).map(|_| None).collect(),
            policy: Vec::new(),
            wdl: Vec::new(),
        }
    }

    /// Plays `games` in rounds until all have ended or `stop` is set,
    /// handing each ended game to `send` (which returns false when nobody
    /// listens any more).
    fn play(
        &mut self,
        games: &[Pairing],
        openings: &[G::State],
        stop: &AtomicBool,
        send: &mut dyn FnMut(PlayedGame<G>) -> bool,
    ) -> Result<(), PlayerError> {
        let mut next = 0;
        loop {
            if stop.load(Ordering::Relaxed) {
                // Games in flight are dropped.
                return Ok(());
            }
            // Empty slots take the next scheduled games, in order.
            for slot in self.slots.iter_mut().filter(|s| s.is_none()) {
                let Some(&p) = games.get(next) else { break };
                next += 1;
                *slot = Some(new_slot(
                    self.game,
                    self.players,
                    &self.keys,
                    p,
                    openings,
                    self.opts,
                )?);
            }
            if self.slots.iter().all(|s| s.is_none()) {
                return Ok(());
            }
            // (1) Every game runs until a network must answer (or it ends).
            for slot in self.slots.iter_mut().flatten() {
                advance(slot, self.opts.max_plies);
            }
            for slot in self.slots.iter_mut() {
                if slot.as_ref().is_none_or(|s| s.end.is_none()) {
                    continue;
                }
                let Some(mut s) = slot.take() else { continue };
                let Some(end) = s.end.take() else { continue };
                let g = PlayedGame {
                    pairing: s.pairing,
                    game: s.game,
                    outcome: end?,
                    seed: s.seed,
                    clocks: s.clocks,
                };
                if !send(g) {
                    return Ok(());
                }
            }
            // (2) Each network answers its waiting leaves, games in slot
            // order.
            for k in 0..self.evaluators.len() {
                self.answer(k)?;
            }
        }
    }

    /// Network `k` evaluates the leaves waiting for it as one batch.
    fn answer(&mut self, k: usize) -> Result<(), PlayerError> {
        let waiting: Vec<usize> = (0..self.slots.len())
            .filter(|&i| {
                self.slots[i]
                    .as_mut()
                    .and_then(|s| s.waiting())
                    .is_some_and(|n| n.net == k)
            })
            .collect();
        if waiting.is_empty() {
            return Ok(());
        }
        let started = Instant::now();
        {
            let slots = &self.slots;
            let batch: Vec<Request<'_, G::State>> = waiting
                .iter()
                .map(|&i| {
                    let s = slots[i].as_ref().expect("a waiting slot");
                    let side = s.game.position().side().index();
                    match &s.seats[side] {
                        Seat::Net(n) => n.search.request(),
                        Seat::Plain(_) => unreachable!("only network seats wait"),
                    }
                })
                .collect();
            self.evaluators[k]
                .try_evaluate(&batch, None, &mut self.policy, &mut self.wdl)
                .map_err(|source| Error::Declined {
                    path: self.keys[k].0.clone(),
                    source,
                })?;
        }
        // Each leaf's seat is charged an equal share of the batch.
        let share = started.elapsed() / waiting.len() as u32;
        let mut offset = 0;
        for (b, &i) in waiting.iter().enumerate() {
            let n = self.slots[i]
                .as_mut()
                .and_then(|s| s.waiting())
                .expect("a waiting seat");
            let len = n.search.request().moves.len();
            n.answer_policy.clear();
            n.answer_policy
                .extend_from_slice(&self.policy[offset..offset + len]);
            offset += len;
            n.answer = Some(self.wdl[b]);
            n.waiting = false;
            n.spent += share;
        }
        Ok(())
    }
}

/// A new game in a slot: its players built as [`eval::arena::play_game`]
/// builds them (the same seeds), network players as searches of their
/// network's batch.
fn new_slot<G: Game>(
    game: &G,
    players: &[PlayerSpec],
    keys: &[NetKey],
    p: Pairing,
    openings: &[G::State],
    opts: &RunOptions,
) -> Result<Slot<G>, PlayerError>
where
    G::State: AlphaBetaState,
{
    let seed = game_seed(opts, p.index);
    let opening = &openings[p.opening % openings.len()];
    let seat = |spec: &PlayerSpec, seed: u64| -> Result<Seat<G>, PlayerError> {
        Ok(match spec {
            PlayerSpec::Net(n) => {
                let key = (n.path.clone(), symmetry_use(n, game).map_err(Error::from)?);
                Seat::Net(Box::new(net_seat(n, &key, keys, opening, seed)?))
            }
            other => Seat::Plain(build_player(game, other, seed, None)?),
        })
    };
    let (white, black) = (&players[p.white], &players[p.black]);
    Ok(Slot {
        pairing: p,
        seed,
        game: History::new(opening.clone()),
        seats: [seat(white, seed)?, seat(black, black_seed(seed))?],
        names: [white.to_string(), black.to_string()],
        end: None,
        clocks: [MoveClock::default(); 2],
    })
}

fn net_seat<S: AlphaBetaState>(
    spec: &NetSpec,
    key: &NetKey,
    keys: &[NetKey],
    start: &S,
    seed: u64,
) -> Result<NetSeat<S>, Error> {
    let config = search_config(spec);
    let net = keys
        .iter()
        .position(|k| k == key)
        .ok_or_else(|| Error::NotLoaded {
            path: spec.path.clone(),
        })?;
    Ok(NetSeat {
        net,
        search: player_search(&config, start),
        sims: spec.sims,
        rng: Rng::new(seed),
        thinking: false,
        waiting: false,
        answer: None,
        answer_policy: Vec::new(),
        spent: Duration::ZERO,
    })
}

/// Plays the slot's game until a network seat waits for its leaf, or the
/// game ends (`slot.end`).
fn advance<G: Game>(slot: &mut Slot<G>, max_plies: usize) {
    loop {
        if let Some(o) = slot.game.outcome() {
            slot.end = Some(Ok(o));
            return;
        }
        if slot.game.ply() >= max_plies {
            slot.end = Some(Ok(Outcome {
                result: GameResult::Draw,
                termination: Termination::MaxLength,
            }));
            return;
        }
        let side = slot.game.position().side().index();
        let started = Instant::now();
        let m = match &mut slot.seats[side] {
            Seat::Plain(p) => {
                let m = p.choose(&slot.game);
                slot.clocks[side].record(started.elapsed(), p.last_simulations());
                m
            }
            Seat::Net(n) => {
                if let Some(wdl) = n.answer.take() {
                    n.search.provide(&n.answer_policy, wdl);
                } else if !n.thinking {
                    // The subtree of the moves since its last search
                    // (`reuse=true`) or a fresh tree, as the game-by-game
                    // player.
                    n.search.follow(&slot.game);
                    let params = SearchParams {
                        simulations: n.sims,
                        noise: false,
                    };
                    n.search.begin(&slot.game, params);
                    n.thinking = true;
                }
                let waits = n.search.step(None, &mut n.rng);
                n.spent += started.elapsed();
                if waits {
                    n.waiting = true;
                    return;
                }
                n.thinking = false;
                let m = n.search.choose_move(0.0, &mut n.rng);
                let clock = &mut slot.clocks[side];
                clock.record(std::mem::take(&mut n.spent), Some(n.search.simulations()));
                clock.lockstep = true;
                m
            }
        };
        if let Err(e) = slot.game.try_play(m) {
            slot.end = Some(Err(PlayerError::IllegalMove {
                player: slot.names[side].clone(),
                source: e,
            }));
            return;
        }
    }
}
