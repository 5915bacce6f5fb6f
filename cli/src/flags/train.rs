//! The flags of `triad train` (its `run` is `src/cmd/train.rs`).

use std::path::PathBuf;

/// Train a network on self-play shards: batches from the replay window of
/// the newest positions, checkpoints with optimiser state every
/// `checkpoint_every` steps, metrics in RUN_DIR/metrics.csv.
///
/// A run killed at any moment continues from its last complete checkpoint
/// with the same command plus --resume, exactly as if it had not stopped.
#[derive(clap::Args)]
#[command(
    after_help = "RUN_DIR receives config.toml (a copy of the run file), metrics.csv and\ncheckpoints/step-NNNNNNNN.{safetensors,json,optim.safetensors} (and\n.live.safetensors with [train] ema_decay: the checkpoint then holds the\nweights' moving average, the live weights beside it).\n\n--data takes a run directory of `triad loop` (or its games/ folder) too: its\nself-play shards games/gen-NNNN/*.parquet, oldest generation first, never its\nevaluation games (eval/); --generations picks a range of them. Every shard is\nverified against the game's rules first (as `triad data verify`): one that\nfails is refused, naming it and its fault, or left out with --skip-bad-shards.\n\nExamples:\n  triad train --config configs/quickstart.toml --data runs/demo/shards --out runs/demo/train\n  triad train --config configs/quickstart.toml --data runs/demo/shards --out runs/demo/train --resume --steps 2000\n  triad train --config configs/quickstart.toml --data runs/quickstart --generations 6.. --out runs/late\n  triad train --game connect4 --data runs/c4 --mix connect4/6x5=runs/c4-6x5 --out runs/mixed\n  triad plot runs/demo/train"
)]
pub struct Args {
    /// Run file: its [model] and [train] sections are used (default: all defaults).
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Shard files, directories of shards, or run directories (their
    /// self-play shards games/gen-NNNN/*.parquet, not eval/); the newest
    /// `window` positions are used.
    #[arg(long, value_name = "DIR", num_args = 1.., required = true)]
    pub data: Vec<PathBuf>,
    #[command(flatten)]
    pub generations: super::GenerationsArg,
    /// The run directory (created if missing), or a store URL (s3://,
    /// gs://, az://: trained in a local mirror, pushed back at the end).
    #[arg(long, value_name = "RUN_DIR|URL")]
    pub out: PathBuf,
    /// Continue the run in RUN_DIR from its last checkpoint.
    #[arg(long)]
    pub resume: bool,
    /// Total optimiser steps of the run (replaces [train] steps).
    #[arg(long, value_name = "N")]
    pub steps: Option<u64>,
    /// Start from these weights (a checkpoint's .safetensors) instead of a
    /// fresh network; it must have the [model] shape, and may be of any
    /// variant of the game (the sidecars then say `init_from`). With
    /// --steps 0 the start network itself is written as step 0.
    #[arg(long, value_name = "CKPT")]
    pub init: Option<PathBuf>,
    /// The game, `NAME[/VARIANT]`, when no --config gives one (default:
    /// the game of the shards).
    #[arg(long, value_name = "GAME", conflicts_with = "config")]
    pub game: Option<String>,
    /// Leave out the shards that fail verification against the game's
    /// rules (each said on stderr) instead of refusing to train (exit 2,
    /// naming the file and its first fault).
    #[arg(long)]
    pub skip_bad_shards: bool,
    /// Another variant of the game to train on beside the run's, with its
    /// shards: `connect4/6x5=runs/c4-6x5[,more]`; repeat for more. Each
    /// variant has its own replay window; each batch is of one variant,
    /// drawn in proportion to the windows' sizes (docs/train.md).
    #[arg(long, value_name = "GAME=PATHS", value_parser = parse_mix)]
    pub mix: Vec<Mix>,
    /// Print a one-object JSON summary on stdout at the end.
    #[arg(long)]
    pub json: bool,
}

/// One `--mix GAME=PATH[,PATH…]`: a game's name and its data.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mix {
    /// The game, `NAME[/VARIANT]`.
    pub game: String,
    /// Its shards, shard folders or runs.
    pub data: Vec<PathBuf>,
}

/// A `--mix` that is not `GAME=PATH[,PATH…]`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{text:?}: write GAME=PATH[,PATH...], e.g. connect4/6x5=runs/c4-6x5")]
pub struct MixError {
    /// The text given.
    pub text: String,
}

fn parse_mix(text: &str) -> Result<Mix, MixError> {
    let usage = || MixError {
        text: text.to_string(),
    };
    let (game, paths) = text.split_once('=').ok_or_else(usage)?;
    let data: Vec<PathBuf> = paths
        .split(',')
        .filter(|p| !p.is_empty())
        .map(PathBuf::from)
        .collect();
    if game.is_empty() || data.is_empty() {
        return Err(usage());
    }
    Ok(Mix {
        game: game.to_string(),
        data,
    })
}
