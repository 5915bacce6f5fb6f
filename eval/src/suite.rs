//! A player scored on a benchmark suite (`game::SuiteFile`): its move in
//! every sampled position, an error when it is not one of the position's
//! right moves. `triad bench pons` and the loop's `[eval] suite` both run
//! this.

use crate::arena::players::{build_player, NetFactory, PlayerSpec};
use crate::arena::{Pairing, RunOptions, Schedule};
use crate::PlayerError;
use game::{AlphaBetaState, Game, History, SuiteFile};
use serde::{Deserialize, Serialize};
use std::sync::atomic::{AtomicUsize, Ordering};

/// One file's result.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SuiteScore {
    pub file: String,
    pub stage: String,
    pub positions: usize,
    pub errors: usize,
    /// Wall seconds the file took.
    pub seconds: f64,
    /// The positions the player erred in, in file order (`triad bench pons
    /// --misses`); not written to a loop's suite.json.
    #[serde(skip)]
    pub missed: Vec<SuiteMiss>,
}

/// One position a player erred in.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SuiteMiss {
    /// Its number among the file's positions, from 1 (the line number
    /// when the file has no blank lines, as Pons's files have none).
    pub number: usize,
    /// The position's text (Connect Four: the moves from the empty board).
    pub position: String,
    /// The move played.
    pub played: String,
    /// The moves that would not have been errors.
    pub right: Vec<String>,
}

impl SuiteMiss {
    fn new<S: game::GameState>(index: usize, case: &game::SuiteCase<S>, played: S::Move) -> Self {
        let p = &case.position;
        SuiteMiss {
            number: index + 1,
            position: p.to_text(),
            played: p.move_text(played),
            right: case.good.iter().map(|&m| p.move_text(m)).collect(),
        }
    }
}

impl SuiteScore {
    /// Errors over positions (0 for an empty file).
    pub fn error_rate(&self) -> f64 {
        if self.positions == 0 {
            0.0
        } else {
            self.errors as f64 / self.positions as f64
        }
    }
}

/// Plays `spec`'s move in about `sample` positions of each file (all of
/// them for `None`) on `threads` threads, calling `done` after each
/// position. Each position's player is built afresh and seeded by the
/// position's index in its sample, so the result does not depend on the
/// thread count.
pub fn score_suite<G: Game>(
    game: &G,
    spec: &PlayerSpec,
    nets: Option<&dyn NetFactory<G>>,
    files: &[SuiteFile<G::State>],
    sample: Option<usize>,
    threads: usize,
    done: &(dyn Fn(&str) + Sync),
) -> Result<Vec<SuiteScore>, PlayerError>
where
    G::State: AlphaBetaState,
{
    let mut scores = Vec::with_capacity(files.len());
    for file in files {
        let cases = file.sample_indexed(sample);
        let started = std::time::Instant::now();
        if let Some(missed) = batched(game, spec, nets, &cases, threads) {
            for _ in 0..cases.len() {
                done(&file.name);
            }
            let missed = missed?;
            scores.push(SuiteScore {
                file: file.name.clone(),
                stage: file.stage.clone(),
                positions: cases.len(),
                errors: missed.len(),
                seconds: started.elapsed().as_secs_f64(),
                missed,
            });
            continue;
        }
        let next = AtomicUsize::new(0);
        let found: Vec<Result<Vec<SuiteMiss>, PlayerError>> = std::thread::scope(|scope| {
            let workers: Vec<_> = (0..threads.max(1))
                .map(|_| {
                    scope.spawn(|| {
                        let mut missed = Vec::new();
                        loop {
                            let i = next.fetch_add(1, Ordering::Relaxed);
                            let Some(&(index, case)) = cases.get(i) else {
                                return Ok(missed);
                            };
                            let mut player = build_player(game, spec, i as u64, nets)?;
                            let chosen = player.choose(&History::new(case.position.clone()));
                            if case.is_error(chosen) {
                                missed.push(SuiteMiss::new(index, case, chosen));
                            }
                            done(&file.name);
                        }
                    })
                })
                .collect();
            workers
                .into_iter()
                .map(|w| w.join().unwrap_or(Err(PlayerError::WorkerPanicked)))
                .collect()
        });
        let mut missed = Vec::new();
        for m in found {
            missed.extend(m?);
        }
        missed.sort_by_key(|m| m.number);
        scores.push(SuiteScore {
            file: file.name.clone(),
            stage: file.stage.clone(),
            positions: cases.len(),
            errors: missed.len(),
            seconds: started.elapsed().as_secs_f64(),
            missed,
        });
    }
    Ok(scores)
}

/// A network's errors on `cases` (each with its index in the file), its
/// searches of all positions batched together by the factory
/// ([`NetFactory::run_match`]: each position a one-move game), in file
/// order; `None` when the player is no network or the factory plays game
/// by game.
fn batched<G: Game>(
    game: &G,
    spec: &PlayerSpec,
    nets: Option<&dyn NetFactory<G>>,
    cases: &[(usize, &game::SuiteCase<G::State>)],
    threads: usize,
) -> Option<Result<Vec<SuiteMiss>, PlayerError>>
where
    G::State: AlphaBetaState,
{
    if !matches!(spec, PlayerSpec::Net(_)) || cases.is_empty() {
        return None;
    }
    let schedule = Schedule {
        games: (0..cases.len())
            .map(|i| Pairing {
                index: i,
                white: 0,
                black: 0,
                opening: i,
            })
            .collect(),
    };
    let openings: Vec<G::State> = cases.iter().map(|(_, c)| c.position.clone()).collect();
    let opts = RunOptions {
        threads,
        max_plies: 1,
        seed: 0,
    };
    let played = nets?.run_match(
        game,
        std::slice::from_ref(spec),
        &schedule,
        &openings,
        &opts,
        &mut |_| true,
    )?;
    Some(played.and_then(|games| {
        let mut missed = Vec::new();
        for g in &games {
            let chosen =
                g.game
                    .moves()
                    .first()
                    .copied()
                    .ok_or_else(|| PlayerError::NoSuiteMove {
                        spec: spec.to_string(),
                        position: g.pairing.index,
                    })?;
            let (index, case) = cases[g.pairing.index];
            if case.is_error(chosen) {
                missed.push(SuiteMiss::new(index, case, chosen));
            }
        }
        missed.sort_by_key(|m| m.number);
        Ok(missed)
    }))
}
