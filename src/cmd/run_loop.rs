//! `triad loop`: generations of self-play, training and evaluation in one
//! run directory, resumable by running the same command again. The loop
//! itself is `pipeline::Loop`; this reads the arguments and the run file,
//! picks the game and prints the ratings.

use super::{print_json, CliError};
use crate::games::with_game;
use game::{AlphaBetaState, Game};
use pipeline::load_run;
use pipeline::{gen_name, ratings, Loop, RunConfig};
use serde_json::json;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

#[derive(clap::Args)]
#[command(
    after_help = "RUN_DIR holds config.toml (a copy of the run file), state.json, networks/gen-NNNN.*,\ngames/gen-NNNN/ (self-play shards), train/ (the training run), eval/ (match games),\nmatches.json and ratings.csv. Run the same command again to resume; `triad plot RUN_DIR`\ndraws Elo by generation and the training curves. Every stage runs in this process.\n\nExample:\n  triad loop --config configs/quickstart.toml --run runs/quickstart"
)]
pub struct Args {
    /// The run file (all sections: [game], [model], [selfplay], [train], [eval], [loop]).
    #[arg(long, value_name = "FILE")]
    config: PathBuf,
    /// The run directory (created if missing; resumed if it holds a run),
    /// or a store URL (s3://, gs://, az://: the loop works in a local
    /// mirror pulled from it and pushed back every minute and at the end).
    #[arg(long, value_name = "RUN_DIR|URL")]
    run: PathBuf,
    /// Run to this many generations (replaces [loop] generations): raising
    /// it, here or in the run file, extends a finished run.
    #[arg(long, value_name = "N")]
    generations: Option<u32>,
    /// A wall-clock budget in minutes (replaces [loop] minutes; 0: none):
    /// the generation under way when the loop's stages have taken this
    /// long is the run's last. Raising it extends a run that stopped on it.
    #[arg(long, value_name = "M")]
    minutes: Option<f64>,
    /// Stop after the last generation without treating it as the run's
    /// end (no `suite_final_sample`, decided ladder rungs not replayed):
    /// for a run extended a few generations at a time, as `triad bench
    /// learn` does.
    #[arg(long)]
    open_ended: bool,
    /// Print the final ratings as one JSON object.
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args) -> Result<(), CliError> {
    let mut run = load_run(&args.config)?;
    if let Some(n) = args.generations {
        if n == 0 {
            return Err(CliError::input("--generations must be at least 1"));
        }
        run.config.r#loop.generations = n;
    }
    if let Some(m) = args.minutes {
        run.config.r#loop.minutes = m;
        run.config
            .r#loop
            .validate()
            .map_err(|e| CliError::input(format!("--minutes: {e}")))?;
    }
    let stop = Arc::new(AtomicBool::new(false));
    {
        let stop = stop.clone();
        // Failing to install the handler only loses the clean stop.
        let _ = ctrlc::set_handler(move || stop.store(true, Ordering::SeqCst));
    }
    let cfg = &run.config;
    let url = args.run.to_string_lossy().into_owned();
    if !store::is_url(&args.run) || url.starts_with("file://") {
        let mut args = args;
        if let Some(local) = url.strip_prefix("file://") {
            args.run = PathBuf::from(local);
        }
        return with_game!(run.game, |g| run_game(&g, cfg, &run.text, &args, &stop));
    }
    // A run in a store: the loop works in a local mirror, pushed every
    // minute and at the end, however it ends.
    let mirror = pipeline::inputs::pull_mirror(&url)?;
    let mut args = args;
    args.run = mirror.local.clone();
    let local = mirror.local.display().to_string();
    let warn = |e: &pipeline::Error| eprintln!("warning: pushing the run to {local}: {e}");
    let (result, pushed) = mirror.pushing(Duration::from_secs(60), warn, || {
        with_game!(run.game, |g| run_game(&g, cfg, &run.text, &args, &stop))
    });
    match (&result, pushed.map_err(CliError::from)) {
        (_, Ok(n)) => eprintln!("{url}: {n} files pushed"),
        (Ok(()), Err(e)) => return Err(e),
        (Err(_), Err(e)) => eprintln!("warning: pushing the run to {url}: {}", e.message),
    }
    result
}

fn run_game<G: Game>(
    game: &G,
    cfg: &RunConfig,
    text: &str,
    args: &Args,
    stop: &AtomicBool,
) -> Result<(), CliError>
where
    G::State: AlphaBetaState,
{
    let summary = Loop::open(game, cfg, text, &args.run, stop)
        .and_then(|l| l.open_ended(args.open_ended).run())
        .map_err(|e| CliError {
            code: e.exit_code(),
            message: e.to_string(),
        })?;
    let m = &summary.matches;
    let fitted = ratings::fitted(m);
    let suite = pipeline::suite::read(&args.run).map_err(|e| CliError {
        code: e.exit_code(),
        message: e.to_string(),
    })?;
    if args.json {
        print_json(&json!({
            "generations": summary.state.generation,
            "best": gen_name(summary.state.best),
            "ratings": m.players.iter().zip(&fitted).map(|(p, r)| json!({"player": p, "elo": eval::report::rounded_elo(*r)})).collect::<Vec<_>>(),
            "suite": suite,
        }));
    } else {
        println!("{}", ratings::ratings_table(m, &fitted));
        if !suite.is_empty() {
            print!(
                "benchmark error rate (%), suite.csv:\n{}",
                pipeline::suite::csv(&suite)
            );
        }
        println!(
            "run complete: {} (best network {})",
            args.run.display(),
            gen_name(summary.state.best)
        );
    }
    Ok(())
}
