//! The ship-and-crew encoding and the policy/value network.
//!
//! - [`encode`]: batches of any game's positions into `[B, planes, H, W]`
//!   input planes and legal moves into padded per-move arrays with a mask
//!   ([`Encoder`] reuses its buffers); what the planes mean is the game's
//!   (`game::GameState::encode_planes`).
//! - [`Network`]: residual trunk, legal-move scorer policy head (a softmax
//!   over each position's legal moves only) and a win/draw/loss head, in tch,
//!   on CPU or CUDA. [`Network::evaluate`] for inference,
//!   [`Network::forward_t`] with [`policy_loss`] and [`value_loss`] for
//!   training.
//! - Checkpoints: safetensors weights plus a JSON sidecar ([`CheckpointInfo`]).
//! - [`ModelConfig`]: the `[model]` section of a run file.
//!
//! See `docs/model.md` for the plane layout and the reasons behind the design.

pub mod checkpoint;
pub mod config;
pub mod encode;
pub mod net;
pub mod runtime;

pub use checkpoint::{CheckpointError, CheckpointInfo};
pub use config::{ConfigError, ModelConfig, Padding, Precision};
pub use encode::{encode_batch, BatchTensors, EncodedLeaf, Encoder, Input, PackedTensors};
pub use net::{
    policy_loss, value_loss, with_torch_rng, AuxOutputs, Evaluation, Network, ReplyMoves, Shape,
};
