//! The trainer: turns self-play shards into better networks.
//!
//! - [`TrainConfig`]: the `[train]` section of a run file.
//! - [`train`]: the loop — shuffled batches from `data`'s replay window,
//!   encoded on its background thread ([`BatchBuilder`]); weighted policy and
//!   W/D/L losses; SGD or AdamW ([`Optimizer`], our own so that its state can
//!   be saved); checkpoints with optimiser state every N steps that
//!   `--resume` continues exactly; `metrics.csv` in the run directory.
//!
//! See `docs/train.md`.

pub mod batch;
pub mod config;
mod error;
pub mod metrics;
pub mod optim;
pub mod trainer;

pub use batch::{AuxBatch, BatchBuilder, TrainBatch, ValueHint};
pub use config::{run_configs, ConfigError, OptimizerKind, Schedule, TrainConfig};
pub use error::{OptimizerStateError, TrainError};
pub use metrics::{read_metrics, MetricsRow, MetricsWriter, METRICS_FILE};
pub use optim::Optimizer;
pub use trainer::{
    batch_builder, checkpoint_path, latest_checkpoint, mix_choice, set_threads, train, train_mixed,
    window_options, MixPart, Progress, RunOptions, StepStats, Summary, Trainer, CHECKPOINT_DIR,
    CONFIG_COPY,
};
