//! The flags of `triad bench model` (its `run` is `src/cmd/bench/model.rs`).

use std::path::PathBuf;

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
    pub config: Option<PathBuf>,
    /// The game, `NAME[/VARIANT]`, when no --config gives one (default
    /// piratechnics/standard).
    #[arg(long, value_name = "GAME", conflicts_with = "config")]
    pub game: Option<String>,
    /// Seconds of measurement per batch size and mode.
    #[arg(long, default_value_t = 1.5, value_name = "S")]
    pub seconds: f64,
    /// Largest batch size to try (default: 1024 on CPU, 16384 on CUDA,
    /// lowered to what fits in memory).
    #[arg(long, value_name = "N")]
    pub max_batch: Option<usize>,
    /// Number formats to measure, comma-separated: fp32, bf16, fp16 (16
    /// bits are for GPUs; on a CPU fp32 is the fastest).
    #[arg(
        long,
        value_name = "LIST",
        default_value = "fp32",
        value_delimiter = ',',
        value_parser = precision
    )]
    pub precision: Vec<String>,
    /// Print one JSON object instead of a table.
    #[arg(long)]
    pub json: bool,
}

/// The number formats `--precision` takes (`model::Precision`'s names; a
/// test checks they agree).
pub const PRECISIONS: [&str; 3] = ["fp32", "bf16", "fp16"];

/// A `--precision` that names no number format.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown precision {text:?} (fp32, bf16 or fp16)")]
pub struct PrecisionError {
    /// The text given.
    pub text: String,
}

fn precision(text: &str) -> Result<String, PrecisionError> {
    if PRECISIONS.contains(&text) {
        Ok(text.to_string())
    } else {
        Err(PrecisionError {
            text: text.to_string(),
        })
    }
}
