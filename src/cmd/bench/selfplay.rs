//! `triad bench selfplay`: evaluations per second inside self-play against
//! the raw batched forward of the same network at the same batch size. The
//! ratio is the figure of merit of the batching design (ARCHITECTURE.md).

use crate::cmd::selfplay::pipeline_error;
use crate::cmd::{print_json, CliError};
use crate::games::{self, with_game};
use game::{Game, GameState};
use indicatif::{ProgressBar, ProgressStyle};
use model::Encoder;
use pipeline::selfplay::load_network;
use selfplay::{Evaluator, NetworkEvaluator, Request, SelfPlay, SelfplayConfig};
use serde_json::json;
use std::path::PathBuf;
use std::time::{Duration, Instant};

#[derive(clap::Args)]
#[command(
    after_help = "Steps: (1) self-play warm-up, keeping the positions the network was \
asked about; (2) raw: those real positions, encoded and evaluated in batches of \
games_in_flight / 2, the batch self-play sends (encoding included, as self-play must encode too; the figure without \
encoding is printed as well); (3) self-play for --seconds, counting network evaluations. \
ratio = selfplay / raw.\n\nExamples:\n  triad bench selfplay --config configs/quickstart.toml\n  \
triad bench selfplay --config configs/quickstart.toml --seconds 20 --json"
)]
pub struct Args {
    /// Run file with the [selfplay] and [model] sections.
    #[arg(long, value_name = "FILE")]
    config: PathBuf,
    /// Seconds of measurement for each of raw and self-play.
    #[arg(long, default_value_t = 10.0, value_name = "S")]
    seconds: f64,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
}

/// Wraps the network evaluator and keeps copies of the first positions asked.
struct Recorder<'a, S: GameState> {
    inner: &'a mut NetworkEvaluator<S>,
    kept: Vec<(S, u8, Vec<S::Move>)>,
    keep: usize,
}

impl<S: GameState> Evaluator<S> for Recorder<'_, S> {
    fn evaluate(
        &mut self,
        batch: &[Request<'_, S>],
        policy: &mut Vec<f32>,
        wdl: &mut Vec<[f32; 3]>,
    ) {
        for r in batch {
            if self.kept.len() < self.keep {
                self.kept
                    .push((r.position.clone(), r.repetitions, r.moves.to_vec()));
            }
        }
        self.inner.evaluate(batch, policy, wdl);
    }
}

pub fn run(args: Args) -> Result<(), CliError> {
    let game = games::load(&args.config)?;
    with_game!(game, |g| run_game(&g, args))
}

fn run_game<G: Game>(game: &G, args: Args) -> Result<(), CliError> {
    if !(args.seconds > 0.0 && args.seconds.is_finite()) {
        return Err(CliError::input("--seconds must be a positive number"));
    }
    let config =
        SelfplayConfig::from_file(&args.config).map_err(|e| CliError::input(e.to_string()))?;
    let model =
        model::ModelConfig::from_file(&args.config).map_err(|e| CliError::input(e.to_string()))?;
    let (net, _) = load_network(game, &model, None, 0).map_err(pipeline_error)?;
    // The driver evaluates the two halves of its games in turn.
    let batch = config.games_in_flight.div_ceil(2);
    let mut evaluator = NetworkEvaluator::new(net);
    let mut driver = SelfPlay::new(game, &config, 0, u64::MAX, "bench");
    let bar = ProgressBar::new_spinner();
    bar.set_style(ProgressStyle::with_template("{spinner} {msg}").expect("valid template"));
    bar.enable_steady_tick(Duration::from_millis(200));

    // (1) Warm-up, keeping real positions: enough for 8 different batches.
    bar.set_message("self-play warm-up");
    let mut finished = Vec::new();
    let mut recorder = Recorder {
        inner: &mut evaluator,
        kept: Vec::new(),
        keep: 8 * batch,
    };
    let warm = Instant::now();
    while recorder.kept.len() < recorder.keep && warm.elapsed() < Duration::from_secs(120) {
        finished.clear();
        driver.round(&mut recorder, &mut finished);
    }
    let pool = std::mem::take(&mut recorder.kept);
    if pool.is_empty() {
        return Err(CliError::failed("self-play asked the network nothing"));
    }

    // (2) Raw batched forward of the same network on those positions, and
    // (3) self-play continuing the warm games.
    let mut enc = Encoder::new();
    let (mut policy, mut wdl) = (Vec::new(), Vec::new());
    let mut next = 0;
    let encode_batch = |enc: &mut Encoder<G::State>, next: &mut usize| {
        enc.clear();
        for _ in 0..batch {
            let (p, reps, moves) = &pool[*next % pool.len()];
            enc.push_with_moves(p, *reps, moves);
            *next += 1;
        }
        enc.finish();
    };
    // Raw and self-play alternate in slices, so a change in machine load
    // (other processes on a shared box) hits both figures alike.
    let budget = Duration::from_secs_f64(args.seconds);
    let slice = budget / SLICES;
    let before = driver.totals;
    let (mut raw_n, mut raw_s, mut sp_s) = (0usize, 0.0f64, 0.0f64);
    for k in 0..SLICES {
        bar.set_message(format!("raw forward, batch {batch} ({}/{SLICES})", k + 1));
        let (n, secs) = measure(slice, || {
            encode_batch(&mut enc, &mut next);
            evaluator.net.evaluate_encoded(&enc, &mut policy, &mut wdl);
        });
        raw_n += n;
        raw_s += secs;
        bar.set_message(format!("self-play ({}/{SLICES})", k + 1));
        let start = Instant::now();
        while start.elapsed() < slice {
            finished.clear();
            driver.round(&mut evaluator, &mut finished);
        }
        sp_s += start.elapsed().as_secs_f64();
    }
    let raw_evals_per_s = raw_n as f64 * batch as f64 / raw_s;
    encode_batch(&mut enc, &mut next);
    bar.set_message("raw forward without encoding");
    let (n, secs) = measure(slice, || {
        evaluator.net.evaluate_encoded(&enc, &mut policy, &mut wdl)
    });
    let raw_no_encode_per_s = n as f64 * batch as f64 / secs;
    let secs = sp_s;
    bar.finish_and_clear();
    let t = driver.totals;
    let evals = t.evaluations - before.evaluations;
    let rounds = (t.rounds - before.rounds).max(1);
    let positions = t.positions - before.positions;
    let games = t.games - before.games;
    let selfplay_evals_per_s = evals as f64 / secs;
    let mean_batch = evals as f64 / rounds as f64;
    let ratio = selfplay_evals_per_s / raw_evals_per_s;
    let positions_per_hour = positions as f64 * 3600.0 / secs;
    // Games finish rarely in a short window; estimate from plies per game.
    let plies_per_game = if t.games > 0 {
        Some(t.finished_plies as f64 / t.games as f64)
    } else {
        None
    };
    let games_per_hour = plies_per_game.map(|p| positions_per_hour / p);
    if args.json {
        print_json(&json!({
            "raw_evals_per_s": raw_evals_per_s,
            "selfplay_evals_per_s": selfplay_evals_per_s,
            "ratio": ratio,
            "mean_batch": mean_batch,
            "batch": batch,
            "raw_evals_per_s_no_encode": raw_no_encode_per_s,
            "positions_per_hour": positions_per_hour,
            "games_per_hour": games_per_hour,
            "games_finished": games,
            "cache_hits": t.cache_hits,
            "threads": tch::get_num_threads(),
        }));
    } else {
        println!(
            "batch {batch} (half the games in flight), libtorch threads {}",
            tch::get_num_threads()
        );
        println!("raw forward:      {raw_evals_per_s:>10.0} evals/s (encoding included; {raw_no_encode_per_s:.0} without)");
        println!(
            "self-play:        {selfplay_evals_per_s:>10.0} evals/s, mean batch {mean_batch:.1}"
        );
        println!("ratio:            {ratio:>10.3}");
        println!(
            "positions/hour:   {positions_per_hour:>10.0}; games/hour: {}",
            games_per_hour
                .map(|g| format!(
                    "{g:.0} (at {:.0} plies per game)",
                    plies_per_game.unwrap_or(0.0)
                ))
                .unwrap_or_else(|| "no game finished yet".into())
        );
    }
    Ok(())
}

/// Alternating measurement slices of raw and self-play.
const SLICES: u32 = 4;

/// Runs `f` once to warm up, then until `budget` has passed (at least 3
/// times); returns (iterations, seconds).
fn measure(budget: Duration, mut f: impl FnMut()) -> (usize, f64) {
    f();
    let start = Instant::now();
    let mut n = 0;
    while n < 3 || start.elapsed() < budget {
        f();
        n += 1;
    }
    (n, start.elapsed().as_secs_f64())
}
