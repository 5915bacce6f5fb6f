//! `triad bench model`: raw forward evaluations per second of the network at
//! several batch sizes, with and without the encoding. This is the ceiling
//! self-play's batched evaluation is measured against (the harness is
//! `bench::model`).

use super::print_figures;
use crate::cmd::CliError;
use crate::games::{self, with_game};
use ::bench::model::{self as harness, ModelOptions};
use model::{ModelConfig, Precision};
use std::path::PathBuf;
use std::time::Duration;

#[derive(clap::Args)]
#[command(
    after_help = "Positions come from random legal playouts from the start. `evals_per_s` \
counts encoding (planes and legal-move arrays), tensor copies, the forward pass and \
softmaxes; `evals_per_s_no_encode` the same on pre-encoded batches. With \
`--precision fp32,bf16,fp16` every batch size measures each precision in turn (one copy \
of the same weights each), and each 16-bit copy's evaluations of the positions are \
compared with fp32's: the move distributions' total variation distance, the expected \
score's difference and how often the most probable move is the same.\n\nExamples:\n  \
triad bench model\n  triad bench model --config configs/quickstart.toml --json\n  \
triad bench model --config configs/gpu.toml --precision fp32,bf16,fp16"
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
    /// Number formats to measure, comma-separated: fp32, bf16, fp16 (16
    /// bits are for GPUs; on a CPU fp32 is the fastest).
    #[arg(
        long,
        value_name = "LIST",
        default_value = "fp32",
        value_delimiter = ','
    )]
    precision: Vec<Precision>,
    /// Print one JSON object instead of a table.
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args) -> Result<(), CliError> {
    let game = match (&args.config, &args.game) {
        (Some(path), _) => pipeline::load_game(path)?,
        (None, Some(flag)) => registry::from_flag(flag)?,
        (None, None) => registry::from_flag(games::DEFAULT_GAME)?,
    };
    if !(args.seconds > 0.0 && args.seconds.is_finite()) {
        return Err(CliError::input("--seconds must be a positive number"));
    }
    let config = match &args.config {
        Some(path) => ModelConfig::from_file(path)?,
        None => ModelConfig::default(),
    };
    let options = ModelOptions {
        budget: Duration::from_secs_f64(args.seconds),
        max_batch: args.max_batch,
        precisions: args.precision.clone(),
    };
    let bar = pipeline::bar_with(0, "{msg:>24} [{bar:30}] {pos}/{len}");
    let f = with_game!(game, |g| harness::run(&g, &config, &options, &bar))?;
    if args.json {
        print_figures(&f);
    } else {
        print!("{}", f.text());
    }
    Ok(())
}
