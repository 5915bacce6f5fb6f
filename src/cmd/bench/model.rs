//! `triad bench model`: raw forward evaluations per second of the network at
//! several batch sizes, with and without the encoding. This is the ceiling
//! self-play's batched evaluation is measured against.

use crate::cmd::{print_json, CliError};
use crate::games::{self, with_game};
use game::{Game, GameState};
use indicatif::{ProgressBar, ProgressStyle};
use model::{Encoder, ModelConfig, Network};
use serde_json::json;
use std::path::PathBuf;
use std::time::{Duration, Instant};

#[derive(clap::Args)]
#[command(
    after_help = "Positions come from random legal playouts from the start. `evals_per_s` \
counts encoding (planes and legal-move arrays), tensor copies, the forward pass and \
softmaxes; `evals_per_s_no_encode` the same on pre-encoded batches.\n\nExamples:\n  \
triad bench model\n  triad bench model --config configs/quickstart.toml --json"
)]
pub struct Args {
    /// Run file whose `[model]` section gives the network (default: the
    /// quickstart network on device "auto").
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
    /// The game, `NAME[/VARIANT]`, when no --config gives one (default
    /// piratechnics/standard).
    #[arg(long, value_name = "GAME", conflicts_with = "config")]
    game: Option<String>,
    /// Seconds of measurement per batch size and mode.
    #[arg(long, default_value_t = 1.5, value_name = "S")]
    seconds: f64,
    /// Largest batch size to try (default: 1024 on CPU, 16384 on CUDA,
    /// lowered to what fits in memory).
    #[arg(long, value_name = "N")]
    max_batch: Option<usize>,
    /// Print one JSON object instead of a table.
    #[arg(long)]
    json: bool,
}

/// Positions in the pool the batches are cut from.
const POOL: usize = 1024;

pub fn run(args: Args) -> Result<(), CliError> {
    let game = match (&args.config, &args.game) {
        (Some(path), _) => games::load(path)?,
        (None, Some(flag)) => games::from_flag(flag)?,
        (None, None) => games::from_flag(games::DEFAULT_GAME)?,
    };
    with_game!(game, |g| run_game(&g, args))
}

fn run_game<G: Game>(game: &G, args: Args) -> Result<(), CliError> {
    if !(args.seconds > 0.0 && args.seconds.is_finite()) {
        return Err(CliError::input("--seconds must be a positive number"));
    }
    let config = match &args.config {
        Some(path) => ModelConfig::from_file(path).map_err(|e| CliError::input(e.to_string()))?,
        None => ModelConfig::default(),
    };
    let net =
        Network::new(&config, game.encoding(), 0).map_err(|e| CliError::input(e.to_string()))?;
    let on_cpu = net.device() == tch::Device::Cpu;
    let cap = args
        .max_batch
        .unwrap_or(if on_cpu { 1024 } else { 16384 })
        .max(1);
    let pool = game::random_positions(&game.start(), POOL, 1, 160);

    let mut sizes: Vec<usize> = [1, 16, 64, 256].into_iter().filter(|&b| b <= cap).collect();
    let largest = largest_that_fits(&net, &pool, cap);
    if sizes.last().is_none_or(|&b| b < largest) {
        sizes.push(largest);
    }

    let bar = ProgressBar::new(sizes.len() as u64 * 2);
    bar.set_style(
        ProgressStyle::with_template("{msg:>24} [{bar:30}] {pos}/{len}")
            .expect("valid template")
            .progress_chars("=> "),
    );
    let budget = Duration::from_secs_f64(args.seconds);
    let mut rows = Vec::new();
    let mut enc = Encoder::new();
    let (mut policy, mut wdl) = (Vec::new(), Vec::new());
    for &b in &sizes {
        // With encoding: each iteration encodes a fresh slice of the pool.
        bar.set_message(format!("batch {b}, encoding"));
        let mut next = 0;
        let mut encode_time = Duration::ZERO;
        let with = measure(budget, || {
            let t = Instant::now();
            enc.clear();
            for _ in 0..b {
                enc.push(&pool[next % POOL], 1);
                next += 1;
            }
            enc.finish();
            encode_time += t.elapsed();
            net.evaluate_encoded(&enc, &mut policy, &mut wdl);
        });
        bar.inc(1);
        let encode_share = encode_time.as_secs_f64() / with.elapsed.as_secs_f64();
        // Without: one pre-encoded batch, evaluated again and again.
        bar.set_message(format!("batch {b}, pre-encoded"));
        enc.clear();
        for i in 0..b {
            enc.push(&pool[i % POOL], 1);
        }
        enc.finish();
        let without = measure(budget, || net.evaluate_encoded(&enc, &mut policy, &mut wdl));
        bar.inc(1);
        rows.push(Row {
            batch: b,
            evals_per_s: (with.iterations * b) as f64 / with.elapsed.as_secs_f64(),
            evals_per_s_no_encode: (without.iterations * b) as f64 / without.elapsed.as_secs_f64(),
            encode_share,
        });
    }
    bar.finish_and_clear();

    let device = format!("{:?}", net.device());
    if args.json {
        print_json(&json!({
            "device": device,
            "threads": tch::get_num_threads(),
            "shape": net.shape(),
            "parameters": net.parameter_count(),
            "batches": rows.iter().map(|r| json!({
                "batch": r.batch,
                "evals_per_s": round1(r.evals_per_s),
                "evals_per_s_no_encode": round1(r.evals_per_s_no_encode),
                "encode_share": (r.encode_share * 1000.0).round() / 1000.0,
            })).collect::<Vec<_>>(),
        }));
    } else {
        println!(
            "network: {} ({} parameters) on {device}, {} threads",
            net.shape(),
            net.parameter_count(),
            tch::get_num_threads()
        );
        println!(
            "{:>6} {:>12} {:>18} {:>14}",
            "batch", "evals/s", "evals/s no-encode", "encode share"
        );
        for r in &rows {
            println!(
                "{:>6} {:>12.1} {:>18.1} {:>13.1}%",
                r.batch,
                r.evals_per_s,
                r.evals_per_s_no_encode,
                r.encode_share * 100.0
            );
        }
    }
    Ok(())
}

struct Row {
    batch: usize,
    evals_per_s: f64,
    evals_per_s_no_encode: f64,
    /// Share of the with-encoding time spent encoding.
    encode_share: f64,
}

struct Measured {
    iterations: usize,
    elapsed: Duration,
}

/// Runs `f` twice to warm up, then until `budget` has passed (at least 3 times).
fn measure(budget: Duration, mut f: impl FnMut()) -> Measured {
    f();
    f();
    let start = Instant::now();
    let mut iterations = 0;
    while iterations < 3 || start.elapsed() < budget {
        f();
        iterations += 1;
    }
    Measured {
        iterations,
        elapsed: start.elapsed(),
    }
}

fn round1(x: f64) -> f64 {
    (x * 10.0).round() / 10.0
}

/// The largest power of two up to `cap` (and `cap` itself) whose forward
/// pass succeeds; an out-of-memory error from libtorch panics inside tch, so
/// each try runs under `catch_unwind`.
fn largest_that_fits<S: GameState>(net: &Network, pool: &[S], cap: usize) -> usize {
    let try_batch = |b: usize| {
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let mut enc = Encoder::<S>::new();
            for i in 0..b {
                enc.push(&pool[i % pool.len()], 1);
            }
            enc.finish();
            let (mut p, mut w) = (Vec::new(), Vec::new());
            net.evaluate_encoded(&enc, &mut p, &mut w);
        }))
        .is_ok()
    };
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let mut best = 1;
    let mut b = 256;
    while b < cap {
        if !try_batch(b) {
            break;
        }
        best = b;
        b *= 2;
    }
    if b >= cap && try_batch(cap) {
        best = cap;
    }
    std::panic::set_hook(hook);
    best
}
