//! The environment loops of the Python package, in Rust (`triad bench
//! env`): random play one game at a time (moves, rules, repetition
//! history), the same with the network's observation written for every
//! position a move is chosen in (the work of `triad.VectorEnv.step`), and the batch encoding of
//! positions into one preallocated buffer (`triad.encode_batch`). These
//! are the figures `scripts/bench-python.py` sets the Python loops and
//! pyspiel's beside.

use crate::timing::{spread, Spread};
use crate::Error;
use game::{Game, GameState, History, SplitMix};
use indicatif::ProgressBar;
use serde::Serialize;
use std::time::{Duration, Instant};

/// What to measure.
#[derive(Clone, Debug)]
pub struct EnvOptions {
    /// Seconds each phase runs per round.
    pub seconds: f64,
    /// Rounds; the phases alternate within each.
    pub rounds: usize,
    /// Positions per encoded batch.
    pub batch: usize,
    /// Seeds the random moves.
    pub seed: u64,
}

/// The figures of `triad bench env` (its `--json` object).
#[derive(Clone, Debug, Serialize)]
pub struct EnvFigures {
    /// The game and variant.
    pub game: String,
    /// Random play: moves applied per second (legal moves generated, one
    /// picked, played, the result checked), over the rounds.
    pub play_steps_per_s: Spread,
    /// The same loop with the network's input planes written for every
    /// position a move is chosen in.
    pub play_encode_steps_per_s: Spread,
    /// Positions encoded per second, a batch at a time into one buffer.
    pub encode_positions_per_s: Spread,
    /// Games finished in the random-play phases, all rounds.
    pub games: u64,
    /// Mean plies of those games.
    pub mean_plies: f64,
    /// Positions per encoded batch.
    pub batch: usize,
    /// Floats of one position's planes.
    pub plane_len: usize,
    /// Rounds measured.
    pub rounds: usize,
}

impl EnvFigures {
    /// The figures as a few lines of text.
    pub fn text(&self) -> String {
        let s = |x: &Spread| format!("{:.0} (spread {:.0}–{:.0})", x.median, x.min, x.max);
        format!(
            "{} ({} rounds, median and spread)\n\
             random play:              {} moves/s\n\
             random play + planes:     {} moves/s\n\
             batch encoding ({:>4}):   {} positions/s\n\
             {} games, {:.1} plies on average\n",
            self.game,
            self.rounds,
            s(&self.play_steps_per_s),
            s(&self.play_encode_steps_per_s),
            self.batch,
            s(&self.encode_positions_per_s),
            self.games,
            self.mean_plies,
        )
    }
}

/// Plays random games for `budget` (whole games), writing the planes of
/// every position a move is chosen in when `planes` is given. Returns (moves, games,
/// seconds).
fn random_play<G: Game>(
    game: &G,
    rng: &mut SplitMix,
    budget: Duration,
    mut planes: Option<&mut [f32]>,
) -> (u64, u64, f64) {
    let mut moves = Vec::new();
    let (mut steps, mut games) = (0u64, 0u64);
    let start = Instant::now();
    while games == 0 || start.elapsed() < budget {
        let mut history = History::new(game.start());
        loop {
            let pos = history.position();
            pos.legal_moves(&mut moves);
            if pos
                .terminal(!moves.is_empty(), history.repetition_count())
                .is_some()
            {
                break;
            }
            if let Some(out) = planes.as_deref_mut() {
                out.fill(0.0);
                let reps = history.repetition_count().clamp(1, 255) as u8;
                pos.encode_planes(reps, out);
                std::hint::black_box(&*out);
            }
            let m = moves[rng.below(moves.len() as u64) as usize];
            history.play(m);
            steps += 1;
        }
        games += 1;
    }
    (steps, games, start.elapsed().as_secs_f64())
}

/// Random-play positions for the encoding phase: `n` positions taken from
/// random games, with their repetition counts.
fn sample_positions<G: Game>(game: &G, rng: &mut SplitMix, n: usize) -> Vec<(G::State, u8)> {
    let mut out = Vec::with_capacity(n);
    let mut moves = Vec::new();
    while out.len() < n {
        let mut history = History::new(game.start());
        loop {
            let reps = history.repetition_count().clamp(1, 255) as u8;
            out.push((history.position().clone(), reps));
            let pos = history.position();
            pos.legal_moves(&mut moves);
            if out.len() == n
                || pos
                    .terminal(!moves.is_empty(), history.repetition_count())
                    .is_some()
            {
                break;
            }
            history.play(moves[rng.below(moves.len() as u64) as usize]);
        }
    }
    out
}

/// Runs the three phases `rounds` times, alternating; `bar` counts the
/// rounds (its length is set here).
pub fn run<G: Game>(
    game: &G,
    options: &EnvOptions,
    bar: &ProgressBar,
) -> Result<EnvFigures, Error> {
    if !(options.seconds > 0.0 && options.seconds.is_finite()) {
        return Err(Error::Flag {
            flags: "--seconds",
            requirement: "a positive number",
        });
    }
    if options.rounds == 0 || options.batch == 0 {
        return Err(Error::Flag {
            flags: "--rounds and --batch",
            requirement: "at least 1",
        });
    }
    let budget = Duration::from_secs_f64(options.seconds);
    let plane_len = game.encoding().plane_len();
    let mut rng = SplitMix::new(options.seed);
    let positions = sample_positions(game, &mut rng, options.batch);
    let mut buffer = vec![0.0f32; plane_len * options.batch];
    let mut one = vec![0.0f32; plane_len];
    let (mut play, mut play_encode, mut encode) = (Vec::new(), Vec::new(), Vec::new());
    let (mut games, mut plies) = (0u64, 0u64);
    bar.set_length(options.rounds as u64);
    for _ in 0..options.rounds {
        let (steps, g, secs) = random_play(game, &mut rng, budget, None);
        play.push(steps as f64 / secs);
        games += g;
        plies += steps;
        let (steps, g, secs) = random_play(game, &mut rng, budget, Some(&mut one));
        play_encode.push(steps as f64 / secs);
        games += g;
        plies += steps;
        let start = Instant::now();
        let mut batches = 0u64;
        while batches == 0 || start.elapsed() < budget {
            for ((pos, reps), chunk) in positions.iter().zip(buffer.chunks_exact_mut(plane_len)) {
                chunk.fill(0.0);
                pos.encode_planes(*reps, chunk);
            }
            std::hint::black_box(&buffer);
            batches += 1;
        }
        encode.push((batches * options.batch as u64) as f64 / start.elapsed().as_secs_f64());
        bar.inc(1);
    }
    Ok(EnvFigures {
        game: format!("{}/{}", G::NAME, game.variant()),
        play_steps_per_s: spread(&play),
        play_encode_steps_per_s: spread(&play_encode),
        encode_positions_per_s: spread(&encode),
        games,
        mean_plies: plies as f64 / games.max(1) as f64,
        batch: options.batch,
        plane_len,
        rounds: options.rounds,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use connect4::Connect4;

    #[test]
    fn connect4_figures_are_whole_games_and_positive_rates() {
        let options = EnvOptions {
            seconds: 0.02,
            rounds: 3,
            batch: 16,
            seed: 5,
        };
        let f = run(&Connect4::standard(), &options, &ProgressBar::hidden()).unwrap();
        assert_eq!(f.rounds, 3);
        assert_eq!(f.plane_len, Connect4::standard().encoding().plane_len());
        assert!(f.games >= 6, "at least one game per phase and round");
        // A Connect Four game lasts 7 to 42 plies.
        assert!((7.0..=42.0).contains(&f.mean_plies), "{}", f.mean_plies);
        for s in [
            f.play_steps_per_s,
            f.play_encode_steps_per_s,
            f.encode_positions_per_s,
        ] {
            assert!(s.min > 0.0 && s.min <= s.median && s.median <= s.max);
        }
        assert!(f.text().contains("random play + planes"));
    }

    #[test]
    fn bad_options_are_input_errors() {
        let bar = ProgressBar::hidden();
        for (seconds, rounds, batch) in [(0.0, 1, 1), (f64::NAN, 1, 1), (1.0, 0, 1), (1.0, 1, 0)] {
            let options = EnvOptions {
                seconds,
                rounds,
                batch,
                seed: 1,
            };
            assert!(matches!(
                run(&Connect4::standard(), &options, &bar),
                Err(Error::Flag { .. })
            ));
        }
    }

    #[test]
    fn sampled_positions_are_the_batch_size() {
        let mut rng = SplitMix::new(3);
        let p = sample_positions(&Connect4::standard(), &mut rng, 100);
        assert_eq!(p.len(), 100);
        assert!(p.iter().all(|(_, reps)| *reps >= 1));
    }
}
