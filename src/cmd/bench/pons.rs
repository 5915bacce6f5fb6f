//! `triad bench pons`: how often a player's move in Pascal Pons's Connect
//! Four benchmark positions is worse than the best, by AlphaZero.jl's
//! definition: an error when the outcome class (win, draw, loss: the sign
//! of the exact value) of the chosen column is worse than the best
//! column's. Any winning move is right, however slow; in a lost position
//! nothing is an error. The exact values come from the `.moves` files.

use crate::cmd::{print_json, CliError};
use connect4::{Column, Connect4};
use eval::arena::players::{build_player, PlayerSpec};
use game::{Game, History};
use indicatif::{ProgressBar, ProgressStyle};
use serde_json::json;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// The files, easiest first, with their stage names.
pub const FILES: [(&str, &str); 6] = [
    ("Test_L3_R1", "end-easy"),
    ("Test_L2_R1", "middle-easy"),
    ("Test_L2_R2", "middle-medium"),
    ("Test_L1_R1", "beginning-easy"),
    ("Test_L1_R2", "beginning-medium"),
    ("Test_L1_R3", "beginning-hard"),
];

#[derive(clap::Args)]
#[command(
    after_help = "Each position's player is built afresh (seeded by the position's \
index), so results do not depend on --threads. AlphaZero.jl's setting is a network with 600 \
simulations, temperature 0, no noise: `--player net:CKPT,sims=600` (net: players search \
without noise and play the most visited move).\n\nExamples:\n  \
triad bench pons --player ab:depth=5\n  \
triad bench pons --player mcts:sims=1000 --sample 100\n  \
triad bench pons --player net:runs/c4/checkpoints/gen-0010.safetensors,sims=600 --json"
)]
pub struct Args {
    /// The player: `random`, `ab:depth=N`, `mcts:sims=N`, `net:CKPT,sims=N`.
    #[arg(long, value_name = "SPEC")]
    player: String,
    /// The folder of Pons's files (`Test_L*_R*.moves`).
    #[arg(
        long,
        default_value = "../shared/benchmarks/connect4",
        value_name = "DIR"
    )]
    dir: PathBuf,
    /// Positions per file: every k-th line so that about this many are
    /// used (default: all 1,000).
    #[arg(long, value_name = "N")]
    sample: Option<usize>,
    /// Positions played at once.
    #[arg(long, default_value_t = 2)]
    threads: usize,
    /// Device of `net:` players (cpu, cuda, cuda:N).
    #[arg(long, default_value = "cpu")]
    device: String,
    /// Print one JSON object: each file's error rate and counts.
    #[arg(long)]
    json: bool,
}

/// One benchmark line: the position and each column's exact value.
pub struct Case {
    pub sequence: String,
    pub score: i32,
    pub values: Vec<Option<i32>>,
}

/// Reads a `.moves` file (`moves score v1 … v7`, `.` a full column).
pub fn read_cases(path: &Path) -> Result<Vec<Case>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| {
            let bad = |why: &str| format!("{} line {}: {why}", path.display(), i + 1);
            let f: Vec<&str> = l.split_whitespace().collect();
            if f.len() < 3 {
                return Err(bad("expected `moves score v1 … vN`"));
            }
            let score = f[1].parse().map_err(|_| bad("the score is not a number"))?;
            let values = f[2..]
                .iter()
                .map(|v| match *v {
                    "." => Ok(None),
                    v => v
                        .parse()
                        .map(Some)
                        .map_err(|_| bad("a column value is not a number")),
                })
                .collect::<Result<Vec<_>, _>>()?;
            Ok(Case {
                sequence: f[0].to_string(),
                score,
                values,
            })
        })
        .collect()
}

/// Whether playing `chosen` in `case` is an error (AlphaZero.jl).
pub fn is_error(case: &Case, chosen: Column) -> bool {
    let v = case
        .values
        .get(chosen.0 as usize)
        .copied()
        .flatten()
        .unwrap_or(i32::MIN);
    v.signum() < case.score.signum()
}

pub fn run(args: Args) -> Result<(), CliError> {
    let spec: PlayerSpec = args
        .player
        .parse()
        .map_err(|e: String| CliError::input(format!("--player: {e}")))?;
    if !(1..=256).contains(&args.threads) {
        return Err(CliError::input("--threads must be 1..=256"));
    }
    if args.sample == Some(0) {
        return Err(CliError::input("--sample must be at least 1"));
    }
    let device = model::ModelConfig {
        device: args.device.clone(),
        ..Default::default()
    }
    .tch_device()
    .map_err(|e| CliError::input(e.to_string().replacen("model.device", "--device", 1)))?;
    let game = Connect4::standard();
    let nets = pipeline::players::factory::<Connect4>(device);
    // A net: checkpoint must be a Connect Four 7x6 network: one probe
    // build gives the clean error before any work.
    build_player(&game, &spec, 0, nets.as_deref())
        .map_err(|e| CliError::input(format!("--player: {e}")))?;
    let mut files = Vec::new();
    for (name, stage) in FILES {
        let path = args.dir.join(format!("{name}.moves"));
        let cases = read_cases(&path).map_err(|e| {
            CliError::input(format!("{e} (--dir names the folder of Pons's files)"))
        })?;
        let step = args.sample.map_or(1, |n| (cases.len() / n).max(1));
        let cases: Vec<Case> = cases.into_iter().step_by(step).collect();
        files.push((name, stage, cases));
    }
    let total: usize = files.iter().map(|f| f.2.len()).sum();
    let bar = ProgressBar::new(total as u64);
    bar.set_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} positions {msg} [{elapsed}, eta {eta}]")
            .expect("valid template"),
    );
    let mut rows = Vec::new();
    let start = Instant::now();
    for (name, stage, cases) in &files {
        bar.set_message(name.to_string());
        let t = Instant::now();
        let errors = errors_of(&game, &spec, nets.as_deref(), cases, args.threads, &bar)?;
        rows.push((name, stage, cases.len(), errors, t.elapsed().as_secs_f64()));
    }
    bar.finish_and_clear();
    let secs = start.elapsed().as_secs_f64();
    if args.json {
        let files: Vec<_> = rows
            .iter()
            .map(|(name, stage, n, e, s)| {
                json!({"file": name, "stage": stage, "positions": n, "errors": e,
                       "error_rate": *e as f64 / *n as f64, "seconds": s})
            })
            .collect();
        print_json(&json!({"player": spec.to_string(), "files": files, "seconds": secs}));
    } else {
        println!("player {spec}");
        println!("| file | stage | positions | errors | error rate |");
        println!("| --- | --- | ---: | ---: | ---: |");
        for (name, stage, n, e, _) in &rows {
            println!(
                "| {name} | {stage} | {n} | {e} | {:.1}% |",
                100.0 * *e as f64 / *n as f64
            );
        }
        eprintln!("{total} positions in {secs:.1} s");
    }
    Ok(())
}

/// Errors of `spec` over `cases`, on `threads` threads (each case's
/// player seeded by its index).
fn errors_of(
    game: &Connect4,
    spec: &PlayerSpec,
    nets: Option<&dyn eval::arena::players::NetFactory<Connect4>>,
    cases: &[Case],
    threads: usize,
    bar: &ProgressBar,
) -> Result<usize, CliError> {
    let next = std::sync::atomic::AtomicUsize::new(0);
    let results: Vec<Result<usize, String>> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut errors = 0;
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some(case) = cases.get(i) else {
                            return Ok(errors);
                        };
                        let pos = game.parse_state(&case.sequence)?;
                        let mut player = build_player(game, spec, i as u64, nets)?;
                        let chosen = player.choose(&History::new(pos));
                        errors += is_error(case, chosen) as usize;
                        bar.inc(1);
                    }
                })
            })
            .collect();
        workers
            .into_iter()
            .map(|w| w.join().unwrap_or_else(|_| Err("a worker panicked".into())))
            .collect()
    });
    let mut errors = 0;
    for r in results {
        errors += r.map_err(CliError::input)?;
    }
    Ok(errors)
}
