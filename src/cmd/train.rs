//! `triad train`: train a network on self-play shards (see docs/train.md).

use super::{print_json, CliError};
use crate::games::{self, with_game};
use game::Game;
use indicatif::{ProgressBar, ProgressStyle};
use std::path::PathBuf;
use train::{RunOptions, TrainError};

/// Train a network on self-play shards: batches from the replay window of
/// the newest positions, checkpoints with optimiser state every
/// `checkpoint_every` steps, metrics in RUN_DIR/metrics.csv.
///
/// A run killed at any moment continues from its last complete checkpoint
/// with the same command plus --resume, exactly as if it had not stopped.
#[derive(clap::Args)]
#[command(
    after_help = "RUN_DIR receives config.toml (a copy of the run file), metrics.csv and\ncheckpoints/step-NNNNNNNN.{safetensors,json,optim.safetensors} (and\n.live.safetensors with [train] ema_decay: the checkpoint then holds the\nweights' moving average, the live weights beside it).\n\n--data takes a run directory of `triad loop` (or its games/ folder) too: its\nself-play shards games/gen-NNNN/*.parquet, oldest generation first, never its\nevaluation games (eval/); --generations picks a range of them.\n\nExamples:\n  triad train --config configs/quickstart.toml --data runs/demo/shards --out runs/demo/train\n  triad train --config configs/quickstart.toml --data runs/demo/shards --out runs/demo/train --resume --steps 2000\n  triad train --config configs/quickstart.toml --data runs/quickstart --generations 6.. --out runs/late\n  triad plot runs/demo/train"
)]
pub struct Args {
    /// Run file: its [model] and [train] sections are used (default: all defaults).
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
    /// Shard files, directories of shards, or run directories (their
    /// self-play shards games/gen-NNNN/*.parquet, not eval/); the newest
    /// `window` positions are used.
    #[arg(long, value_name = "DIR", num_args = 1.., required = true)]
    data: Vec<PathBuf>,
    #[command(flatten)]
    generations: crate::cli::GenerationsArg,
    /// The run directory (created if missing), or a store URL (s3://,
    /// gs://, az://: trained in a local mirror, pushed back at the end).
    #[arg(long, value_name = "RUN_DIR|URL")]
    out: PathBuf,
    /// Continue the run in RUN_DIR from its last checkpoint.
    #[arg(long)]
    resume: bool,
    /// Total optimiser steps of the run (replaces [train] steps).
    #[arg(long, value_name = "N")]
    steps: Option<u64>,
    /// Start from these weights (a checkpoint's .safetensors) instead of a
    /// fresh network; it must have the [model] shape.
    #[arg(long, value_name = "CKPT")]
    init: Option<PathBuf>,
    /// The game, `NAME[/VARIANT]`, when no --config gives one (default:
    /// the game of the shards).
    #[arg(long, value_name = "GAME", conflicts_with = "config")]
    game: Option<String>,
    /// Print a one-object JSON summary on stdout at the end.
    #[arg(long)]
    json: bool,
}

pub fn run(mut args: Args) -> Result<(), CliError> {
    args.data = pipeline::inputs::localize(&args.data)?;
    if let Some(range) = args.generations.parse()? {
        // The trainer reads what it is given: the chosen generations' shard
        // files, in the order of the whole listing.
        args.data = pipeline::inputs::shards_of(&args.data, Some(&range))?
            .into_iter()
            .map(|s| s.path)
            .collect();
    }
    let game = match (&args.config, &args.game) {
        (Some(path), _) => pipeline::load_game(path)?,
        (None, Some(flag)) => games::from_flag(flag)?,
        (None, None) => games::of_shards(&args.data)?,
    };
    // A run directory in a store: trained in its local mirror, pushed back
    // at the end however the training ends (docs/scale-out.md).
    let out_text = args.out.to_string_lossy().into_owned();
    if let Some(local) = out_text.strip_prefix("file://") {
        args.out = PathBuf::from(local);
    } else if store::is_url(&args.out) {
        let mirror = pipeline::inputs::pull_mirror(&out_text)?;
        args.out = mirror.local.clone();
        let result = with_game!(game, |g| run_game(&g, args));
        let pushed = mirror.push().map_err(CliError::from);
        return match (result, pushed) {
            (Ok(()), Ok(n)) => {
                eprintln!("{out_text}: {n} files pushed");
                Ok(())
            }
            (Ok(()), Err(e)) => Err(e),
            (Err(e), Ok(_)) => Err(e),
            (Err(e), Err(p)) => {
                eprintln!("warning: pushing the run to {out_text}: {}", p.message);
                Err(e)
            }
        };
    }
    with_game!(game, |g| run_game(&g, args))
}

fn run_game<G: Game>(game: &G, args: Args) -> Result<(), CliError>
where
    G::State: game::AlphaBetaState,
{
    let (model_cfg, train_cfg, text) =
        train::run_configs(args.config.as_deref()).map_err(CliError::input)?;
    if args.steps == Some(0) {
        return Err(CliError::input("--steps must be at least 1"));
    }
    let total = args.steps.unwrap_or(train_cfg.steps);
    let bar = ProgressBar::new(total);
    if let Ok(style) = ProgressStyle::with_template(
        "{bar:30} {pos}/{len} steps  {msg}  [{elapsed_precise} < {eta_precise}]",
    ) {
        bar.set_style(style.progress_chars("=> "));
    }
    bar.set_message("loading the replay window");
    // One writer per run directory: a second `triad train` into it is
    // refused naming the first; a killed one's lock is taken over.
    let _lock = pipeline::lock::RunLock::acquire(&args.out, "triad train")?;
    let opts = RunOptions {
        run_dir: args.out.clone(),
        data: args.data.clone(),
        resume: args.resume,
        steps: args.steps,
        init: args.init.clone(),
        stop_after: None,
        config_text: Some(text),
    };
    let mut shown = 0u64;
    let result = train::train(game, &model_cfg, &train_cfg, &opts, &mut |p| {
        if shown == 0 {
            bar.set_position(p.step.saturating_sub(1));
        }
        if p.last.step != shown {
            shown = p.last.step;
            bar.set_message(p.message());
        }
        bar.set_position(p.step);
    });
    bar.finish_and_clear();
    let summary = result.map_err(|e| match e {
        TrainError::Input(m) => CliError::input(m),
        TrainError::Failed(m) => CliError::failed(m),
    })?;
    if args.json {
        print_json(&summary.summary_json(&args.out));
    } else {
        print!("{}", summary.summary_text());
        if summary.skipped_rows > 0 {
            eprintln!(
                "warning: {} rows could not be decoded and were skipped",
                summary.skipped_rows
            );
        }
    }
    Ok(())
}
